/// @file
/// RunEndEncodedBuilder: run-end encoded arrays built from values, equal
/// neighbours merged into one run.
///
/// Threads: a builder is single-threaded; different builders are independent.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "alkaid/builder/base.h"
#include "alkaid/builder/buffer_builder.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// run_end_encoded<run_ends: R, values: V>. Appending a value equal (byte for
/// byte) to the previous one, or a null after a null, extends the current run.
/// Typed appends work for every value type whose builder accepts
/// AppendValueBytes. For any other value type append one value to
/// values_builder() and call AppendRun(n); ExtendRun(n) lengthens the last run.
/// Run ends are kept as int64 while building and narrowed to the run-end
/// type at Finish; a logical length the run-end type cannot hold is a
/// CapacityError.
class ALKAID_EXPORT RunEndEncodedBuilder final : public ArrayBuilder {
 public:
  /// A builder of `type` (run_end_encoded) that owns `values_builder`, which
  /// must build the value type.
  RunEndEncodedBuilder(DataTypePtr type, ArrayBuilderPtr values_builder,
                       MemoryPool* pool = default_memory_pool());

  /// Builder of the run values (one per run); owned by this builder.
  ArrayBuilder* values_builder() const { return children_[0].get(); }
  /// The run-end encoded type being built.
  const RunEndEncodedType& ree_type() const { return checked_cast<RunEndEncodedType>(*type_); }

  /// Appends `repeat` slots holding the value given as raw bytes (see
  /// ArrayBuilder::AppendValueBytes); extends the current run when the bytes
  /// equal the previous value's. TypeError when the value builder does not take
  /// raw bytes, Invalid for a negative `repeat`.
  Status AppendBytes(std::string_view value_bytes, int64_t repeat = 1);
  /// Appends one slot holding a binary or string value.
  Status Append(std::string_view value) { return AppendBytes(value); }
  /// Appends one slot holding a NUL-terminated string value.
  Status Append(const char* value) { return AppendBytes(value); }
  /// Appends one slot holding a scalar of the value type's C type; the C type
  /// must match the value type exactly (its size decides the bytes).
  template <typename V>
    requires(std::is_arithmetic_v<V> || std::is_same_v<V, DayTimeInterval> ||
             std::is_same_v<V, MonthDayNanoInterval>)
  Status Append(V value) {
    if constexpr (std::is_same_v<V, bool>) {
      char byte = value ? 1 : 0;
      return AppendBytes(std::string_view(&byte, 1));
    } else {
      return AppendBytes(std::string_view(reinterpret_cast<const char*>(&value), sizeof(V)));
    }
  }
  /// Starts a run of `run_length` slots for the value the caller has just
  /// appended to values_builder().
  /// Invalid unless exactly one value was appended to values_builder() since
  /// the last run started.
  Status AppendRun(int64_t run_length);
  /// Lengthens the current run by n slots.
  /// Invalid when no run has been started.
  Status ExtendRun(int64_t n);
  /// Appends `n` null slots, extending the current run when it is null.
  Status AppendNulls(int64_t n) override;
  /// Appends a run of `n` slots holding the value type's empty value.
  Status AppendEmptyValues(int64_t n) override;
  /// The logical length is always known; there is no validity bitmap.
  int64_t null_count() const override { return 0; }
  /// Runs so far, the open one included.
  int64_t num_runs() const;
  void Reset() override;

 protected:
  Status FinishInto(ArrayData* out) override;

 private:
  enum class RunKind : int8_t { kNone, kNull, kBytes, kOpaque };
  Status CheckRunEnd(int64_t added) const;
  Status CloseRun();
  Status StartRun(RunKind kind, int64_t run_length);

  int64_t max_run_end_;
  RunKind run_kind_ = RunKind::kNone;
  std::string run_bytes_;
  BufferBuilder run_ends_;  // int64 until Finish narrows them
};

}  // namespace alkaid
