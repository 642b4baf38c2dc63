// Internal: the memory budget of an IPC reader (IpcReadOptions::memory_budget*):
// what one reader may hold at once beyond its input, and the charges that
// hold parts of it. Not installed.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>

#include "alkaid/array_data.h"
#include "alkaid/ipc/options.h"
#include "alkaid/status.h"
#include "alkaid/visibility.h"

namespace alkaid::ipc::internal {

// What one reader may hold at once beyond its input. Charges are taken
// before memory is allocated (so a hostile size fails before it costs
// anything) and released by Charge objects when what they paid for is freed.
// Shared by the reader and by everything it hands out, so a batch outliving
// its reader still releases correctly. Thread-safe.
class ALKAID_EXPORT ReadBudget {
 public:
  explicit ReadBudget(const IpcReadOptions& options);

  // Stream readers: the input grows as messages are consumed.
  void AddInput(int64_t bytes) { input_.fetch_add(bytes, std::memory_order_relaxed); }
  void SetInput(int64_t bytes) { input_.store(bytes, std::memory_order_relaxed); }
  int64_t limit() const;
  int64_t used() const { return used_.load(std::memory_order_relaxed); }

  // Fails (OutOfMemory naming the option) unless `bytes` more fit.
  Status Check(int64_t bytes, std::string_view what) const;

  // Takes `bytes` (> 0) when they fit in the guaranteed part of the limit
  // (the common case, with no ratio arithmetic); false: ask Take.
  bool TryTakeFast(int64_t bytes) {
    int64_t held = used_.load(std::memory_order_relaxed);
    return bytes <= guaranteed_ && held <= guaranteed_ - bytes &&
           used_.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed);
  }

 private:
  friend class Charge;
  Status Take(int64_t bytes, std::string_view what);
  void Release(int64_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }
  [[gnu::cold]] Status Exceeded(int64_t bytes, std::string_view what) const;

  int64_t explicit_limit_;
  int64_t floor_;
  // A limit() never goes below: charges within it need no ratio arithmetic.
  int64_t guaranteed_;
  double ratio_;
  std::atomic<int64_t> input_{0};
  std::atomic<int64_t> used_{0};
};
using ReadBudgetPtr = std::shared_ptr<ReadBudget>;

// Bytes charged to a budget, released on destruction. Move-only.
class Charge {
 public:
  Charge() = default;
  // Takes `bytes` from `budget` or fails.
  static Result<Charge> Take(const ReadBudgetPtr& budget, int64_t bytes, std::string_view what);
  Charge(Charge&& other) noexcept : budget_(std::move(other.budget_)), bytes_(other.bytes_) {
    other.bytes_ = 0;
  }
  Charge& operator=(Charge&& other) noexcept {
    if (this != &other) {
      if (budget_ != nullptr) Reset();
      budget_ = std::move(other.budget_);
      bytes_ = other.bytes_;
      other.bytes_ = 0;
    }
    return *this;
  }
  Charge(const Charge&) = delete;
  Charge& operator=(const Charge&) = delete;
  // Moved-from and empty charges (the common case) cost a test.
  ~Charge() {
    if (budget_ != nullptr) Reset();
  }

  // Takes `bytes` from `budget` into this charge, or fails: Take without a
  // Result to move out of.
  Status TakeInto(const ReadBudgetPtr& budget, int64_t bytes, std::string_view what) {
    if (budget == nullptr || bytes <= 0) return Status::OK();
    if (!budget->TryTakeFast(bytes)) [[unlikely]] ALKAID_RETURN_NOT_OK(budget->Take(bytes, what));
    if (budget_ != nullptr) Reset();
    budget_ = budget;
    bytes_ = bytes;
    return Status::OK();
  }

  // Moves min(n, bytes()) of this charge into a new one.
  Charge Split(int64_t n);
  void Reset();
  int64_t bytes() const { return bytes_; }

 private:
  ReadBudgetPtr budget_;
  int64_t bytes_ = 0;
};

// `ptr` with `charge` attached: the charge is released when the last copy
// of the returned pointer (or of anything sharing its ownership, such as a
// slice of a buffer) is gone. The pointee is the same object.
template <typename T>
std::shared_ptr<T> AttachCharge(std::shared_ptr<T> ptr, Charge charge) {
  if (charge.bytes() == 0 || ptr == nullptr) return ptr;
  struct Holder {
    std::shared_ptr<T> ptr;
    Charge charge;
  };
  auto holder = std::make_shared<Holder>(Holder{std::move(ptr), std::move(charge)});
  T* raw = holder->ptr.get();
  return std::shared_ptr<T>(std::move(holder), raw);
}

// What the ArrayData tree of one field node costs (the node, its buffer
// pointers, the shared_ptr control block), charged for every node a batch
// materializes so that metadata listing many nodes (100,000 null columns,
// say) cannot multiply memory through repeated batches.
inline constexpr int64_t kNodeCharge = 256;

// Bytes of the buffers of `data` and its children (not dictionaries, which
// are charged where they are built), counting each buffer's size.
int64_t BufferBytes(const ArrayData& data);

}  // namespace alkaid::ipc::internal
