// Error handling for the whole library: no exception crosses the public API.
// A Status is either OK (no allocation) or carries a code plus a message that
// names what was wrong and where.
#pragma once

#include <cassert>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "alkaid/export.h"

namespace alkaid {

enum class StatusCode : int8_t {
  kOk = 0,
  kInvalid,            // data or arguments break a rule of the format
  kTypeError,          // an operation does not apply to this type
  kIndexError,         // an index is out of range
  kKeyError,           // a lookup by name or id failed
  kOutOfMemory,        // allocation failed or was refused by a cap
  kIOError,            // the operating system refused a read or write
  kNotImplemented,     // valid input we do not handle (yet)
  kSerializationError, // bytes that are not a valid encoding
  kCapacityError,      // a result would exceed a representable size
  kUnknownError,
};

ALKAID_EXPORT const char* StatusCodeName(StatusCode code);

class ALKAID_EXPORT [[nodiscard]] Status {
 public:
  Status() noexcept = default;
  Status(StatusCode code, std::string message);
  // An OK status is a null pointer, so creating, moving, testing and
  // destroying one costs next to nothing on the success path; only errors
  // allocate, and only copies of errors copy their message.
  Status(const Status& other) : state_(other.state_ ? CopyState(*other.state_) : nullptr) {}
  Status(Status&& other) noexcept = default;
  Status& operator=(const Status& other) {
    if (this != &other) state_ = other.state_ ? CopyState(*other.state_) : nullptr;
    return *this;
  }
  Status& operator=(Status&& other) noexcept = default;
  ~Status() = default;

  static Status OK() { return Status(); }

  template <typename... Args>
  static Status Invalid(Args&&... args) {
    return Make(StatusCode::kInvalid, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status TypeError(Args&&... args) {
    return Make(StatusCode::kTypeError, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status IndexError(Args&&... args) {
    return Make(StatusCode::kIndexError, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status KeyError(Args&&... args) {
    return Make(StatusCode::kKeyError, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status OutOfMemory(Args&&... args) {
    return Make(StatusCode::kOutOfMemory, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status IOError(Args&&... args) {
    return Make(StatusCode::kIOError, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status NotImplemented(Args&&... args) {
    return Make(StatusCode::kNotImplemented, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status SerializationError(Args&&... args) {
    return Make(StatusCode::kSerializationError, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status CapacityError(Args&&... args) {
    return Make(StatusCode::kCapacityError, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status UnknownError(Args&&... args) {
    return Make(StatusCode::kUnknownError, std::forward<Args>(args)...);
  }

  bool ok() const noexcept { return state_ == nullptr; }
  StatusCode code() const noexcept { return state_ ? state_->code : StatusCode::kOk; }
  const std::string& message() const;
  bool IsInvalid() const { return code() == StatusCode::kInvalid; }
  bool IsIOError() const { return code() == StatusCode::kIOError; }
  bool IsNotImplemented() const { return code() == StatusCode::kNotImplemented; }
  bool IsTypeError() const { return code() == StatusCode::kTypeError; }
  bool IsKeyError() const { return code() == StatusCode::kKeyError; }
  bool IsIndexError() const { return code() == StatusCode::kIndexError; }
  bool IsOutOfMemory() const { return code() == StatusCode::kOutOfMemory; }
  bool IsSerializationError() const { return code() == StatusCode::kSerializationError; }

  // "Invalid: <message>"
  std::string ToString() const;

  // Returns a copy whose message is prefixed with `context` (e.g. a field path),
  // so that callers deep in a recursion can say where an error happened.
  Status WithContext(const std::string& context) const;

  // Aborts the process with the message; only for tests, tools and invariants.
  void Abort(const char* where = nullptr) const;

 private:
  struct State {
    StatusCode code;
    std::string message;
  };

  template <typename... Args>
  static Status Make(StatusCode code, Args&&... args) {
    std::ostringstream out;
    (out << ... << std::forward<Args>(args));
    return Status(code, out.str());
  }

  static std::unique_ptr<const State> CopyState(const State& state);

  std::unique_ptr<const State> state_;
};

inline std::ostream& operator<<(std::ostream& os, const Status& st) {
  return os << st.ToString();
}

// Either a value or the Status explaining why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(const Status& status) : storage_(status) {  // NOLINT: implicit by design
    if (status.ok()) storage_ = Status::UnknownError("Result built from an OK status");
  }
  Result(Status&& status) : storage_(std::move(status)) {  // NOLINT
    if (std::get<Status>(storage_).ok())
      storage_ = Status::UnknownError("Result built from an OK status");
  }
  Result(const T& value) : storage_(value) {}  // NOLINT
  Result(T&& value) : storage_(std::move(value)) {}  // NOLINT
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U, T> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    !std::is_same_v<std::decay_t<U>, Status>>>
  Result(U&& value) : storage_(T(std::forward<U>(value))) {}  // NOLINT

  bool ok() const { return std::holds_alternative<T>(storage_); }
  Status status() const { return ok() ? Status::OK() : std::get<Status>(storage_); }

  const T& ValueOrDie() const& {
    if (!ok()) std::get<Status>(storage_).Abort("ValueOrDie");
    return std::get<T>(storage_);
  }
  T& ValueOrDie() & {
    if (!ok()) std::get<Status>(storage_).Abort("ValueOrDie");
    return std::get<T>(storage_);
  }
  T ValueOrDie() && {
    if (!ok()) std::get<Status>(storage_).Abort("ValueOrDie");
    return std::move(std::get<T>(storage_));
  }
  T MoveValueUnsafe() { return std::move(std::get<T>(storage_)); }

  const T& operator*() const& { return ValueOrDie(); }
  T& operator*() & { return ValueOrDie(); }
  T operator*() && { return std::move(*this).ValueOrDie(); }
  const T* operator->() const { return &ValueOrDie(); }
  T* operator->() { return &ValueOrDie(); }

  T ValueOr(T fallback) && { return ok() ? MoveValueUnsafe() : std::move(fallback); }

 private:
  std::variant<Status, T> storage_;
};

namespace internal {
inline const Status& GenericToStatus(const Status& st) { return st; }
inline Status&& GenericToStatus(Status&& st) { return std::move(st); }
template <typename T>
inline Status GenericToStatus(const Result<T>& r) {
  return r.status();
}
}  // namespace internal

}  // namespace alkaid

#define ALKAID_CONCAT_INNER(a, b) a##b
#define ALKAID_CONCAT(a, b) ALKAID_CONCAT_INNER(a, b)

#define ALKAID_RETURN_NOT_OK(expr)                                             \
  do {                                                                         \
    auto&& _alkaid_st = (expr);                                                \
    if (!_alkaid_st.ok()) [[unlikely]]                                         \
      return ::alkaid::internal::GenericToStatus(                              \
          std::forward<decltype(_alkaid_st)>(_alkaid_st));                     \
  } while (false)

#define ALKAID_ASSIGN_OR_RAISE_IMPL(tmp, lhs, rexpr) \
  auto&& tmp = (rexpr);                              \
  if (!tmp.ok()) return tmp.status();                \
  lhs = std::move(tmp).MoveValueUnsafe();

#define ALKAID_ASSIGN_OR_RAISE(lhs, rexpr) \
  ALKAID_ASSIGN_OR_RAISE_IMPL(ALKAID_CONCAT(_alkaid_res_, __COUNTER__), lhs, rexpr)

// Returns an Invalid status built from the remaining arguments when cond is false.
#define ALKAID_CHECK_OR_INVALID(cond, ...)                                 \
  do {                                                                     \
    if (!(cond)) return ::alkaid::Status::Invalid(__VA_ARGS__);            \
  } while (false)
