// ExpandRunEndEncoded (levels.h): Parquet has no run-end encoded layout of its own, so the
// writer writes the plain values (the ARROW:schema key brings the encoding back on reading)
// and lets the column encodings (RLE dictionary indices) compress the runs again.
#include <algorithm>
#include <cstring>

#include "alkaid/bitmap.h"
#include "src/parquet/writer/levels.h"

namespace alkaid::parquet::internal {

namespace {

struct Run {
  int64_t value;  // index into the values child
  int64_t count;  // logical slots it covers within the window
};

int64_t ReadRunEnd(const ArrayData& ends, int64_t j) {
  switch (ends.type->id()) {
    case TypeId::kInt16: return ends.GetValues<int16_t>(1)[j];
    case TypeId::kInt32: return ends.GetValues<int32_t>(1)[j];
    default: return ends.GetValues<int64_t>(1)[j];
  }
}

// The runs covering logical slots [offset, offset + length) of the array.
Result<std::vector<Run>> CollectRuns(const ArrayData& array) {
  const ArrayData& ends = *array.child_data[0];
  std::vector<Run> runs;
  if (array.length == 0) return runs;
  const int64_t begin = array.offset, end = array.offset + array.length;
  // First run whose end is past `begin`.
  int64_t lo = 0, hi = ends.length;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (ReadRunEnd(ends, mid) <= begin) lo = mid + 1; else hi = mid;
  }
  int64_t pos = begin;
  for (int64_t j = lo; j < ends.length && pos < end; ++j) {
    int64_t run_end = std::min(ReadRunEnd(ends, j), end);
    if (run_end <= pos) return Status::Invalid("run-end encoded array: run ends do not increase at run ", j);
    runs.push_back({j, run_end - pos});
    pos = run_end;
  }
  if (pos < end) return Status::Invalid("run-end encoded array: the runs end before slot ", end);
  return runs;
}

template <typename Offset>
Result<ArrayDataPtr> ExpandBinary(const ArrayData& values, const std::vector<Run>& runs,
                                  int64_t length, BufferPtr validity, MemoryPool* pool) {
  const Offset* offsets = values.GetValues<Offset>(1);
  const uint8_t* data = values.buffers[2] ? values.buffers[2]->data() : nullptr;
  int64_t total = 0;
  for (const Run& run : runs) total += (offsets[run.value + 1] - offsets[run.value]) * run.count;
  if constexpr (sizeof(Offset) == 4) {
    if (total > INT32_MAX)
      return Status::CapacityError("run-end encoded binary: the expanded values pass 2 GiB");
  }
  ALKAID_ASSIGN_OR_RAISE(auto out_offsets, AllocateBuffer((length + 1) * sizeof(Offset), pool));
  ALKAID_ASSIGN_OR_RAISE(auto out_data, AllocateBuffer(total, pool));
  Offset* o = out_offsets->template mutable_data_as<Offset>();
  uint8_t* d = out_data->mutable_data();
  Offset at = 0;
  int64_t slot = 0;
  o[0] = 0;
  for (const Run& run : runs) {
    const Offset size = offsets[run.value + 1] - offsets[run.value];
    for (int64_t k = 0; k < run.count; ++k) {
      if (size > 0) std::memcpy(d + at, data + offsets[run.value], static_cast<size_t>(size));
      at = static_cast<Offset>(at + size);
      o[++slot] = at;
    }
  }
  return ArrayData::Make(values.type, length, {std::move(validity), std::move(out_offsets), std::move(out_data)});
}

}  // namespace

Result<ArrayDataPtr> ExpandRunEndEncoded(const ArrayData& array, MemoryPool* pool) {
  const ArrayData& values = *array.child_data[1];
  const DataType& storage = values.storage_type();
  ALKAID_ASSIGN_OR_RAISE(std::vector<Run> runs, CollectRuns(array));
  const int64_t length = array.length;
  for (const Run& run : runs) {
    if (run.value >= values.length)
      return Status::Invalid("run-end encoded array: run ", run.value, " has no value");
  }
  if (storage.id() == TypeId::kNull) return ArrayData::Make(values.type, length, {}, length);

  BufferPtr validity;
  if (values.MayHaveNulls()) {
    ALKAID_ASSIGN_OR_RAISE(auto bits, AllocateBitmap(length, false, pool));
    int64_t slot = 0;
    for (const Run& run : runs) {
      if (values.IsValid(run.value)) bit_util::SetBitsTo(bits->mutable_data(), slot, run.count, true);
      slot += run.count;
    }
    validity = std::move(bits);
  }

  switch (storage.id()) {
    case TypeId::kBinary:
    case TypeId::kString:
      return ExpandBinary<int32_t>(values, runs, length, std::move(validity), pool);
    case TypeId::kLargeBinary:
    case TypeId::kLargeString:
      return ExpandBinary<int64_t>(values, runs, length, std::move(validity), pool);
    case TypeId::kBool: {
      ALKAID_ASSIGN_OR_RAISE(auto bits, AllocateBitmap(length, false, pool));
      int64_t slot = 0;
      for (const Run& run : runs) {
        bool value = bit_util::GetBit(values.buffers[1]->data(), values.offset + run.value);
        if (value) bit_util::SetBitsTo(bits->mutable_data(), slot, run.count, true);
        slot += run.count;
      }
      return ArrayData::Make(values.type, length, {std::move(validity), std::move(bits)});
    }
    default:
      break;
  }
  const int width = storage.id() == TypeId::kBinaryView || storage.id() == TypeId::kStringView
                        ? 16
                        : storage.byte_width();
  if (width <= 0) {
    return Status::NotImplemented("run-end encoded values of type ", values.type->ToString(),
                                  " are not expanded");
  }
  ALKAID_ASSIGN_OR_RAISE(auto out, AllocateBuffer(length * width, pool));
  uint8_t* dst = out->mutable_data();
  const uint8_t* src = values.buffers[1]->data() + values.offset * width;
  for (const Run& run : runs) {
    const uint8_t* value = src + run.value * width;
    for (int64_t k = 0; k < run.count; ++k, dst += width) std::memcpy(dst, value, static_cast<size_t>(width));
  }
  BufferVector buffers{std::move(validity), std::move(out)};
  // View data buffers and a dictionary are shared with the values as they are.
  for (size_t b = 2; b < values.buffers.size(); ++b) buffers.push_back(values.buffers[b]);
  auto result = ArrayData::Make(values.type, length, std::move(buffers));
  result->dictionary = values.dictionary;
  return result;
}

}  // namespace alkaid::parquet::internal
