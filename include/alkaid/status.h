/// @file
/// Error handling for the whole library: no exception crosses the public API.
/// A Status is either OK (no allocation) or carries a code plus a message that
/// names what was wrong and where, and optionally a StatusDetail: facts a
/// program can act on without reading the message (which option refused the
/// input).
#pragma once

#include <cassert>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "alkaid/visibility.h"

namespace alkaid {

/// The kind of failure a Status reports. Callers branch on the code; the message
/// carries the details for people.
enum class StatusCode : int8_t {
  kOk = 0,              ///< success; the only code of an OK status
  kInvalid,             ///< data or arguments break a rule of the format
  kTypeError,           ///< an operation does not apply to this type
  kIndexError,          ///< an index is out of range
  kKeyError,            ///< a lookup by name or id failed
  kOutOfMemory,         ///< allocation failed or was refused by a cap
  kIOError,             ///< the operating system refused a read or write
  kNotImplemented,      ///< valid input we do not handle (yet)
  kSerializationError,  ///< bytes that are not a valid encoding
  kCapacityError,       ///< a result would exceed a representable size
  kUnknownError,        ///< anything else, including a Result built from an OK status by mistake
};

/// Machine-readable facts about an error, for callers that act on it rather
/// than only show it: the `alkaid` tool maps `options` to its own flags
/// ("--max-record-bytes N") instead of matching words in the message.
///
/// Set where a reader refuses input at a limit that one of its options
/// raises (csv::ReadOptions, jsonl::ReadOptions, ipc::IpcReadOptions) or where
/// a value does not fit a type inferred from a sample; most errors have none.
/// The message always says the same for people, so a caller may ignore this.
struct StatusDetail {
  /// What an option would change.
  enum class Kind : int8_t {
    kLimit,         ///< the input went past a limit that an option raises
    kInferredType,  ///< a value did not fit a type inferred from the first rows
  };
  Kind kind = Kind::kLimit;  ///< which of the two situations above this is
  /// Fields of the call's options struct that change the outcome, spelled as
  /// in the struct ("max_record_bytes", "inference_rows"), the main one first.
  std::vector<std::string> options;
};

/// The code's name as it appears in ToString() ("Invalid", "IOError", ...); a
/// static string, never null.
ALKAID_EXPORT const char* StatusCodeName(StatusCode code);

/// The outcome of an operation: OK, or an error code with a message. Marked
/// [[nodiscard]] so ignored errors are compile warnings. A Status is a value:
/// copies are independent, and distinct objects may be used from different
/// threads; one object must not be modified while another thread reads it.
class ALKAID_EXPORT [[nodiscard]] Status {
 public:
  /// An OK status.
  Status() noexcept = default;
  /// An error with `code` and `message`; `code` should not be kOk (use OK()).
  Status(StatusCode code, std::string message);
  /// An OK status is a null pointer, so creating, moving, testing and
  /// destroying one costs next to nothing on the success path; only errors
  /// allocate, and only copies of errors copy their message.
  Status(const Status& other) : state_(other.state_ ? CopyState(*other.state_) : nullptr) {}
  /// Moves without allocating; `other` is left OK.
  Status(Status&& other) noexcept = default;
  /// Copies `other`'s code and message.
  Status& operator=(const Status& other) {
    if (this != &other) state_ = other.state_ ? CopyState(*other.state_) : nullptr;
    return *this;
  }
  /// Takes over `other`'s state without allocating.
  Status& operator=(Status&& other) noexcept = default;
  /// Frees the message of an error.
  ~Status() = default;

  /// The success value; allocates nothing.
  static Status OK() { return Status(); }

  /// An error of code kInvalid. Like every factory below, the message is the
  /// arguments streamed one after another with operator<<, so numbers and strings
  /// can be mixed: `Status::Invalid("offset ", i, " is negative")`.
  template <typename... Args>
  static Status Invalid(Args&&... args) {
    return Make(StatusCode::kInvalid, std::forward<Args>(args)...);
  }
  /// A kTypeError error whose message is the streamed `args`.
  template <typename... Args>
  static Status TypeError(Args&&... args) {
    return Make(StatusCode::kTypeError, std::forward<Args>(args)...);
  }
  /// A kIndexError error whose message is the streamed `args`.
  template <typename... Args>
  static Status IndexError(Args&&... args) {
    return Make(StatusCode::kIndexError, std::forward<Args>(args)...);
  }
  /// A kKeyError error whose message is the streamed `args`.
  template <typename... Args>
  static Status KeyError(Args&&... args) {
    return Make(StatusCode::kKeyError, std::forward<Args>(args)...);
  }
  /// A kOutOfMemory error whose message is the streamed `args`.
  template <typename... Args>
  static Status OutOfMemory(Args&&... args) {
    return Make(StatusCode::kOutOfMemory, std::forward<Args>(args)...);
  }
  /// A kIOError error whose message is the streamed `args`.
  template <typename... Args>
  static Status IOError(Args&&... args) {
    return Make(StatusCode::kIOError, std::forward<Args>(args)...);
  }
  /// A kNotImplemented error whose message is the streamed `args`.
  template <typename... Args>
  static Status NotImplemented(Args&&... args) {
    return Make(StatusCode::kNotImplemented, std::forward<Args>(args)...);
  }
  /// A kSerializationError error whose message is the streamed `args`.
  template <typename... Args>
  static Status SerializationError(Args&&... args) {
    return Make(StatusCode::kSerializationError, std::forward<Args>(args)...);
  }
  /// A kCapacityError error whose message is the streamed `args`.
  template <typename... Args>
  static Status CapacityError(Args&&... args) {
    return Make(StatusCode::kCapacityError, std::forward<Args>(args)...);
  }
  /// A kUnknownError error whose message is the streamed `args`.
  template <typename... Args>
  static Status UnknownError(Args&&... args) {
    return Make(StatusCode::kUnknownError, std::forward<Args>(args)...);
  }

  /// True for success.
  bool ok() const noexcept { return state_ == nullptr; }
  /// The error code; kOk for success.
  StatusCode code() const noexcept { return state_ ? state_->code : StatusCode::kOk; }
  /// The error message; an empty string for success. The reference is valid while
  /// the Status is alive and unchanged.
  const std::string& message() const;
  /// True when code() is kInvalid.
  bool IsInvalid() const { return code() == StatusCode::kInvalid; }
  /// True when code() is kIOError.
  bool IsIOError() const { return code() == StatusCode::kIOError; }
  /// True when code() is kNotImplemented.
  bool IsNotImplemented() const { return code() == StatusCode::kNotImplemented; }
  /// True when code() is kTypeError.
  bool IsTypeError() const { return code() == StatusCode::kTypeError; }
  /// True when code() is kKeyError.
  bool IsKeyError() const { return code() == StatusCode::kKeyError; }
  /// True when code() is kIndexError.
  bool IsIndexError() const { return code() == StatusCode::kIndexError; }
  /// True when code() is kOutOfMemory.
  bool IsOutOfMemory() const { return code() == StatusCode::kOutOfMemory; }
  /// True when code() is kSerializationError.
  bool IsSerializationError() const { return code() == StatusCode::kSerializationError; }

  /// "Invalid: <message>"
  /// "OK" for success.
  std::string ToString() const;

  /// Returns a copy whose message is prefixed with `context` (e.g. a field path),
  /// so that callers deep in a recursion can say where an error happened. The
  /// detail, if any, is kept.
  Status WithContext(const std::string& context) const;

  /// The detail attached by WithDetail(), or nullptr (always for OK). Valid
  /// while this Status is alive and unchanged.
  const StatusDetail* detail() const noexcept { return state_ ? state_->detail.get() : nullptr; }
  /// A copy of this error with `detail` attached (an OK status stays OK and
  /// gets none). Copies of the result share the detail, which is immutable.
  Status WithDetail(StatusDetail detail) const;

  /// Aborts the process with the message; only for tests, tools and invariants.
  /// `where`, when given, is printed before the message.
  void Abort(const char* where = nullptr) const;

 private:
  struct State {
    StatusCode code;
    std::string message;
    std::shared_ptr<const StatusDetail> detail;  // null for most errors
  };

  template <typename... Args>
  static Status Make(StatusCode code, Args&&... args) {
    std::ostringstream out;
    (out << ... << std::forward<Args>(args));
    return Status(code, out.str());
  }

  // The state is deleted out of line: a Status's destructor, which runs for
  // every OK result on hot paths, then stays one inline null test instead of
  // a call that also holds the string's and the detail's release.
  struct ALKAID_EXPORT StateDeleter {
    void operator()(const State* state) const noexcept;
  };
  using StatePtr = std::unique_ptr<const State, StateDeleter>;

  static StatePtr CopyState(const State& state);

  StatePtr state_;
};

/// Writes st.ToString() to `os`.
inline std::ostream& operator<<(std::ostream& os, const Status& st) {
  return os << st.ToString();
}

/// Either a value or the Status explaining why there is none.
/// The value of a fallible operation, or the error Status instead. Build one by
/// returning either a T (or something convertible to T) or an error Status from
/// a function declared to return Result<T>; ALKAID_ASSIGN_OR_RAISE unwraps it.
/// Like Status, a Result is a value with no shared state.
template <typename T>
class [[nodiscard]] Result {
 public:
  /// The error `status`. An OK status here is a bug; it is turned into an
  /// UnknownError so the Result never claims to hold a value it lacks.
  Result(const Status& status) : storage_(status) {  // NOLINT: implicit by design
    if (status.ok()) storage_ = Status::UnknownError("Result built from an OK status");
  }
  /// The error `status`, moved (an OK status becomes an UnknownError, as above).
  Result(Status&& status) : storage_(std::move(status)) {  // NOLINT
    if (std::get<Status>(storage_).ok())
      storage_ = Status::UnknownError("Result built from an OK status");
  }
  /// A success holding a copy of `value`.
  Result(const T& value) : storage_(value) {}  // NOLINT
  /// A success holding `value`, moved.
  Result(T&& value) : storage_(std::move(value)) {}  // NOLINT
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U, T> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    !std::is_same_v<std::decay_t<U>, Status>>>
  /// A success holding a T converted from `value` (for example a
  /// shared_ptr<Derived> into a shared_ptr<Base>).
  Result(U&& value) : storage_(T(std::forward<U>(value))) {}  // NOLINT

  /// True when a value is held.
  bool ok() const { return std::holds_alternative<T>(storage_); }
  /// OK when a value is held, else a copy of the error.
  Status status() const { return ok() ? Status::OK() : std::get<Status>(storage_); }

  /// The value; aborts the process with the error when there is none. For tests
  /// and tools; library code checks ok() or uses ALKAID_ASSIGN_OR_RAISE.
  const T& ValueOrDie() const& {
    if (!ok()) std::get<Status>(storage_).Abort("ValueOrDie");
    return std::get<T>(storage_);
  }
  /// The value, mutable; aborts when there is none.
  T& ValueOrDie() & {
    if (!ok()) std::get<Status>(storage_).Abort("ValueOrDie");
    return std::get<T>(storage_);
  }
  /// The value, moved out; aborts when there is none.
  T ValueOrDie() && {
    if (!ok()) std::get<Status>(storage_).Abort("ValueOrDie");
    return std::move(std::get<T>(storage_));
  }
  /// The value, moved out without a check: only after ok() returned true
  /// (undefined behaviour otherwise).
  T MoveValueUnsafe() { return std::move(std::get<T>(storage_)); }

  /// Same as ValueOrDie().
  const T& operator*() const& { return ValueOrDie(); }
  /// Same as ValueOrDie().
  T& operator*() & { return ValueOrDie(); }
  /// Same as ValueOrDie(), moving the value out.
  T operator*() && { return std::move(*this).ValueOrDie(); }
  /// Member access on the value; aborts when there is none.
  const T* operator->() const { return &ValueOrDie(); }
  /// Member access on the mutable value; aborts when there is none.
  T* operator->() { return &ValueOrDie(); }

  /// The value when there is one, else `fallback`; the error is dropped.
  T ValueOr(T fallback) && { return ok() ? MoveValueUnsafe() : std::move(fallback); }

 private:
  std::variant<Status, T> storage_;
};

/// @name ToStatus
/// The Status of a Status or of a Result: lets generic code (and macros such as
/// ALKAID_RETURN_NOT_OK or a test's ASSERT_OK) treat both alike.
///@{

/// A Status is its own status.
inline const Status& ToStatus(const Status& st) { return st; }
/// A Status is its own status (moved through).
inline Status&& ToStatus(Status&& st) { return std::move(st); }
/// A Result's status(): OK when it holds a value.
template <typename T>
inline Status ToStatus(const Result<T>& r) {
  return r.status();
}
///@}

}  // namespace alkaid

/// Pastes two tokens together (helper of ALKAID_CONCAT, which expands its
/// arguments first).
#define ALKAID_CONCAT_INNER(a, b) a##b
/// Pastes `a` and `b` after macro-expanding them; used to make unique names.
#define ALKAID_CONCAT(a, b) ALKAID_CONCAT_INNER(a, b)

/// Evaluates `expr` (a Status or a Result) once and returns its error Status
/// from the enclosing function when it failed. The enclosing function returns
/// Status or a Result.
#define ALKAID_RETURN_NOT_OK(expr)                                             \
  do {                                                                         \
    auto&& _alkaid_st = (expr);                                                \
    if (!_alkaid_st.ok()) [[unlikely]]                                         \
      return ::alkaid::ToStatus(                                               \
          std::forward<decltype(_alkaid_st)>(_alkaid_st));                     \
  } while (false)

/// Body of ALKAID_ASSIGN_OR_RAISE, with the temporary's name given.
#define ALKAID_ASSIGN_OR_RAISE_IMPL(tmp, lhs, rexpr) \
  auto&& tmp = (rexpr);                              \
  if (!tmp.ok()) return tmp.status();                \
  lhs = std::move(tmp).MoveValueUnsafe();

/// Evaluates `rexpr` (a Result<T>) once; on error returns the Status from the
/// enclosing function, otherwise moves the value into `lhs`, which may be a
/// declaration (`auto x`) or an existing variable. Expands to several
/// statements, so it cannot be the body of an unbraced if.
#define ALKAID_ASSIGN_OR_RAISE(lhs, rexpr) \
  ALKAID_ASSIGN_OR_RAISE_IMPL(ALKAID_CONCAT(_alkaid_res_, __COUNTER__), lhs, rexpr)

/// Returns an Invalid status built from the remaining arguments when cond is false.
/// The enclosing function returns Status or a Result; the arguments are
/// evaluated only when `cond` is false.
#define ALKAID_CHECK_OR_INVALID(cond, ...)                                 \
  do {                                                                     \
    if (!(cond)) return ::alkaid::Status::Invalid(__VA_ARGS__);            \
  } while (false)
