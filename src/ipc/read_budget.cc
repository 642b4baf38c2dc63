// The memory budget of an IPC reader and the charges against it.
#include "read_budget.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace alkaid::ipc::internal {

ReadBudget::ReadBudget(const IpcReadOptions& options)
    : explicit_limit_(options.memory_budget),
      floor_(options.memory_budget_floor),
      guaranteed_(explicit_limit_ > 0 ? explicit_limit_ : floor_),
      ratio_(options.memory_budget_ratio) {}

int64_t ReadBudget::limit() const {
  if (explicit_limit_ > 0) return explicit_limit_;
  const double scaled =
      ratio_ * static_cast<double>(std::max<int64_t>(input_.load(std::memory_order_relaxed), 0));
  const int64_t from_ratio =
      !(scaled < 9.0e18) ? (std::isnan(scaled) ? 0 : INT64_MAX) : static_cast<int64_t>(scaled);
  return std::max(floor_, from_ratio);
}

Status ReadBudget::Exceeded(int64_t bytes, std::string_view what) const {
  const int64_t lim = limit();
  return Status::OutOfMemory(
      what, " needs ", bytes, " bytes but the reader already holds ", used(),
      " bytes of its memory budget of ", lim,
      " bytes (decompressed buffers, copies, dictionaries and arrays of batches still "
      "referenced; ",
      explicit_limit_ > 0 ? std::string("IpcReadOptions::memory_budget")
                          : "max(IpcReadOptions::memory_budget_floor, "
                            "IpcReadOptions::memory_budget_ratio x " +
                                std::to_string(input_.load(std::memory_order_relaxed)) +
                                " input bytes)",
      "); release batches you no longer need or raise IpcReadOptions::memory_budget")
      .WithDetail({StatusDetail::Kind::kLimit, {"memory_budget"}});
}

Status ReadBudget::Check(int64_t bytes, std::string_view what) const {
  const int64_t lim = limit();
  const int64_t held = used();
  if (bytes < 0 || bytes > lim || held > lim - bytes) return Exceeded(bytes, what);
  return Status::OK();
}

Status ReadBudget::Take(int64_t bytes, std::string_view what) {
  if (bytes <= 0) return Status::OK();
  // Within the guaranteed part of the limit (the common case), the exact
  // limit does not matter.
  if (TryTakeFast(bytes)) return Status::OK();
  const int64_t lim = limit();
  int64_t held = used_.load(std::memory_order_relaxed);
  do {
    if (bytes > lim || held > lim - bytes) return Exceeded(bytes, what);
  } while (!used_.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed));
  return Status::OK();
}

Result<Charge> Charge::Take(const ReadBudgetPtr& budget, int64_t bytes, std::string_view what) {
  Charge out;
  if (budget == nullptr || bytes <= 0) return out;
  ALKAID_RETURN_NOT_OK(budget->Take(bytes, what));
  out.budget_ = budget;
  out.bytes_ = bytes;
  return out;
}

void Charge::Reset() {
  if (budget_ != nullptr && bytes_ > 0) budget_->Release(bytes_);
  budget_.reset();
  bytes_ = 0;
}

Charge Charge::Split(int64_t n) {
  Charge out;
  n = std::clamp<int64_t>(n, 0, bytes_);
  if (n == 0) return out;
  out.budget_ = budget_;
  out.bytes_ = n;
  bytes_ -= n;
  return out;
}

int64_t BufferBytes(const ArrayData& data) {
  int64_t total = 0;
  for (const BufferPtr& b : data.buffers) {
    if (b != nullptr) total += b->size();
  }
  for (const ArrayDataPtr& child : data.child_data) {
    if (child != nullptr) total += BufferBytes(*child);
  }
  return total;
}

}  // namespace alkaid::ipc::internal
