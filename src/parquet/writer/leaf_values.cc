#include "src/parquet/writer/leaf_values.h"

#include <cstring>

#include "alkaid/bitmap.h"
#include "src/parquet/convert.h"

namespace alkaid::parquet::internal {

namespace {

int PhysicalWidth(PhysicalType type, int32_t type_length) {
  switch (type) {
    case PhysicalType::kInt32:
    case PhysicalType::kFloat:
      return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      return 8;
    case PhysicalType::kInt96:
      return 12;
    default:
      return type_length;
  }
}

template <typename From, typename To, typename Op>
void ConvertEach(const uint8_t* in, int64_t n, uint8_t* out, Op op) {
  const From* src = reinterpret_cast<const From*>(in);
  To* dst = reinterpret_cast<To*>(out);
  for (int64_t i = 0; i < n; ++i) dst[i] = op(src[i]);
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

// Whether slot i is valid under a possibly absent bitmap.
inline bool Valid(const uint8_t* valid, int64_t offset, int64_t i) {
  return valid == nullptr || bit_util::GetBit(valid, offset + i);
}

template <typename Index>
void ReadIndices(const uint8_t* raw, int64_t begin, int64_t n, int64_t* out) {
  const Index* idx = reinterpret_cast<const Index*>(raw) + begin;
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<int64_t>(idx[i]);
}

}  // namespace

LeafValueWriter::LeafValueWriter(ValueConversion conversion, PhysicalType physical_type,
                                 int32_t type_length, MemoryPool* pool)
    : conversion_(conversion), physical_type_(physical_type), type_length_(type_length),
      pool_(pool), scratch_(pool), offsets_(pool), data_(pool), gather_values_(pool),
      gather_data_(pool) {}

Status LeafValueWriter::Write(const ArrayData& leaf, int64_t begin, int64_t end,
                              const uint8_t* valid, int64_t valid_offset, ValueEncoder* encoder,
                              ColumnStatistics* stats) {
  if (end <= begin || conversion_ == ValueConversion::kNone) return Status::OK();
  if (leaf.type->id() != TypeId::kDictionary) {
    return WritePlain(leaf, begin, end, valid, valid_offset, encoder, stats);
  }
  ALKAID_RETURN_NOT_OK(Gather(leaf, begin, end, valid, valid_offset));
  ValueConversion saved = conversion_;
  // Gathered binary entries have 64-bit offsets whatever the dictionary's offsets were.
  if (conversion_ == ValueConversion::kBinary) conversion_ = ValueConversion::kLargeBinary;
  Status st = WritePlain(*gathered_, 0, end - begin, valid, valid_offset + begin, encoder, stats);
  conversion_ = saved;
  return st;
}

Status LeafValueWriter::WriteFixed(const uint8_t* values, int64_t n, const uint8_t* valid,
                                   int64_t valid_offset, ValueEncoder* encoder,
                                   ColumnStatistics* stats) {
  ALKAID_RETURN_NOT_OK(encoder->Put(values, n, valid, valid_offset));
  if (stats != nullptr) stats->UpdateFixed(values, n, valid, valid_offset);
  return Status::OK();
}

Status LeafValueWriter::WritePlain(const ArrayData& leaf, int64_t begin, int64_t end,
                                   const uint8_t* valid, int64_t valid_offset,
                                   ValueEncoder* encoder, ColumnStatistics* stats) {
  const int64_t n = end - begin;
  const int64_t vo = valid_offset + begin;  // validity bit of the first slot written
  const int64_t at = leaf.offset + begin;   // first slot within the buffers
  const uint8_t* raw = leaf.buffers.size() > 1 && leaf.buffers[1] ? leaf.buffers[1]->data() : nullptr;
  switch (conversion_) {
    case ValueConversion::kNone:
      return Status::OK();
    case ValueConversion::kFixed: {
      const int width = PhysicalWidth(physical_type_, type_length_);
      return WriteFixed(raw + at * width, n, valid, vo, encoder, stats);
    }
    case ValueConversion::kBoolean:
      ALKAID_RETURN_NOT_OK(encoder->PutBits(raw, at, n, valid, vo));
      if (stats != nullptr) stats->UpdateBits(raw, at, n, valid, vo);
      return Status::OK();
    case ValueConversion::kBinary:
    case ValueConversion::kLargeBinary: {
      const uint8_t* data = leaf.buffers[2] ? leaf.buffers[2]->data() : nullptr;
      static const uint8_t kEmpty = 0;
      if (data == nullptr) data = &kEmpty;
      if (conversion_ == ValueConversion::kBinary) {
        const int32_t* offsets = leaf.GetValues<int32_t>(1) + begin;
        ALKAID_RETURN_NOT_OK(encoder->PutBinary(offsets, data, n, valid, vo));
        if (stats != nullptr) stats->UpdateBinary(offsets, data, n, valid, vo);
      } else {
        const int64_t* offsets = leaf.GetValues<int64_t>(1) + begin;
        ALKAID_RETURN_NOT_OK(encoder->PutBinary(offsets, data, n, valid, vo));
        if (stats != nullptr) stats->UpdateBinary(offsets, data, n, valid, vo);
      }
      return Status::OK();
    }
    case ValueConversion::kView: {
      // Views point into several data buffers: copy the bytes into one run with offsets.
      const uint8_t* views = raw + at * 16;
      offsets_.Reset();
      data_.Reset();
      ALKAID_RETURN_NOT_OK(offsets_.Reserve((n + 1) * 8));
      int64_t total = 0;
      offsets_.UnsafeAppendValue<int64_t>(0);
      for (int64_t i = 0; i < n; ++i) {
        if (Valid(valid, vo, i)) {
          int32_t size;
          std::memcpy(&size, views + i * 16, 4);
          const uint8_t* bytes;
          if (size <= 12) {
            bytes = views + i * 16 + 4;
          } else {
            int32_t buffer, offset;
            std::memcpy(&buffer, views + i * 16 + 8, 4);
            std::memcpy(&offset, views + i * 16 + 12, 4);
            bytes = leaf.buffers[static_cast<size_t>(2 + buffer)]->data() + offset;
          }
          ALKAID_RETURN_NOT_OK(data_.Append(bytes, size));
          total += size;
        }
        offsets_.UnsafeAppendValue<int64_t>(total);
      }
      const auto* offsets = reinterpret_cast<const int64_t*>(offsets_.data());
      const uint8_t* data = data_.data() != nullptr ? data_.data() : offsets_.data();
      ALKAID_RETURN_NOT_OK(encoder->PutBinary(offsets, data, n, valid, vo));
      if (stats != nullptr) stats->UpdateBinary(offsets, data, n, valid, vo);
      return Status::OK();
    }
    default:
      break;
  }
  // Conversions to another fixed width, into scratch_.
  const int width = PhysicalWidth(physical_type_, type_length_);
  scratch_.Reset();
  ALKAID_RETURN_NOT_OK(scratch_.Reserve(n * width));
  uint8_t* out = scratch_.mutable_data();
  switch (conversion_) {
    case ValueConversion::kInt8:
      ConvertEach<int8_t, int32_t>(raw + at, n, out, [](int8_t v) { return int32_t{v}; });
      break;
    case ValueConversion::kUInt8:
      ConvertEach<uint8_t, int32_t>(raw + at, n, out, [](uint8_t v) { return int32_t{v}; });
      break;
    case ValueConversion::kInt16:
      ConvertEach<int16_t, int32_t>(raw + at * 2, n, out, [](int16_t v) { return int32_t{v}; });
      break;
    case ValueConversion::kUInt16:
      ConvertEach<uint16_t, int32_t>(raw + at * 2, n, out, [](uint16_t v) { return int32_t{v}; });
      break;
    case ValueConversion::kUInt32ToInt64:
      ConvertEach<uint32_t, int64_t>(raw + at * 4, n, out, [](uint32_t v) { return int64_t{v}; });
      break;
    case ValueConversion::kDate64: {
      // DATE counts days in an int32; a date64 past that range has no Parquet form (a cast
      // would store another date).
      const auto* in = reinterpret_cast<const int64_t*>(raw + at * 8);
      auto* days = reinterpret_cast<int32_t*>(out);
      for (int64_t i = 0; i < n; ++i) {
        const int64_t d = FloorDiv(in[i], 86'400'000);
        if ((d < INT32_MIN || d > INT32_MAX) && Valid(valid, vo, i)) {
          return Status::Invalid("date64 value ", in[i], " (slot ", begin + i,
                                 " of the column) is ", d,
                                 " days from the epoch, outside the int32 day count of "
                                 "Parquet's DATE");
        }
        days[i] = static_cast<int32_t>(d);
      }
      break;
    }
    case ValueConversion::kSecondsToMillis32:
      ConvertEach<int32_t, int32_t>(raw + at * 4, n, out, [](int32_t v) {
        return static_cast<int32_t>(static_cast<uint32_t>(v) * 1000u);
      });
      break;
    case ValueConversion::kSecondsToMillis64:
      ConvertEach<int64_t, int64_t>(raw + at * 8, n, out, [](int64_t v) {
        return static_cast<int64_t>(static_cast<uint64_t>(v) * 1000u);
      });
      break;
    case ValueConversion::kNanosToMicros:
      ConvertEach<int64_t, int64_t>(raw + at * 8, n, out,
                                    [](int64_t v) { return FloorDiv(v, 1000); });
      break;
    case ValueConversion::kDecimalBigEndian: {
      // Arrow decimals are little-endian two's complement; Parquet wants the low
      // type_length bytes most significant first.
      const int arrow_width = leaf.storage_type().byte_width();
      const uint8_t* src = raw + at * arrow_width;
      for (int64_t i = 0; i < n; ++i) {
        const uint8_t* v = src + i * arrow_width;
        uint8_t* o = out + i * width;
        for (int b = 0; b < width; ++b) o[b] = v[width - 1 - b];
      }
      break;
    }
    case ValueConversion::kMonthInterval:
    case ValueConversion::kDayTimeInterval: {
      std::memset(out, 0, static_cast<size_t>(n * 12));
      const bool months = conversion_ == ValueConversion::kMonthInterval;
      for (int64_t i = 0; i < n; ++i) {
        if (months) {
          std::memcpy(out + i * 12, raw + (at + i) * 4, 4);
        } else {
          std::memcpy(out + i * 12 + 4, raw + (at + i) * 8, 8);  // days, then milliseconds
        }
      }
      break;
    }
    default:
      return Status::NotImplemented("Parquet writer: value conversion ",
                                    static_cast<int>(conversion_));
  }
  return WriteFixed(out, n, valid, vo, encoder, stats);
}

Status LeafValueWriter::Gather(const ArrayData& leaf, int64_t begin, int64_t end,
                               const uint8_t* valid, int64_t valid_offset) {
  const int64_t n = end - begin;
  const ArrayData& dict = *leaf.dictionary;
  const DataType& value_type = dict.storage_type();
  // The indices, widened.
  std::vector<int64_t> indices(static_cast<size_t>(n));
  const uint8_t* raw = leaf.buffers[1]->data();
  const int64_t first = leaf.offset + begin;
  switch (checked_cast<DictionaryType>(leaf.storage_type()).index_type()->id()) {
    case TypeId::kInt8: ReadIndices<int8_t>(raw, first, n, indices.data()); break;
    case TypeId::kUInt8: ReadIndices<uint8_t>(raw, first, n, indices.data()); break;
    case TypeId::kInt16: ReadIndices<int16_t>(raw, first, n, indices.data()); break;
    case TypeId::kUInt16: ReadIndices<uint16_t>(raw, first, n, indices.data()); break;
    case TypeId::kInt32: ReadIndices<int32_t>(raw, first, n, indices.data()); break;
    case TypeId::kUInt32: ReadIndices<uint32_t>(raw, first, n, indices.data()); break;
    default: ReadIndices<int64_t>(raw, first, n, indices.data()); break;
  }
  for (int64_t i = 0; i < n; ++i) {
    if (!Valid(valid, valid_offset + begin, i)) {
      indices[static_cast<size_t>(i)] = -1;
    } else if (indices[static_cast<size_t>(i)] < 0 || indices[static_cast<size_t>(i)] >= dict.length) {
      return Status::Invalid("dictionary index ", indices[static_cast<size_t>(i)], " at slot ",
                             begin + i, " is past the dictionary of ", dict.length, " entries");
    }
  }
  gather_values_.Reset();
  gather_data_.Reset();
  BufferVector buffers{nullptr};
  DataTypePtr gathered_type = dict.type;
  if (value_type.id() == TypeId::kBool) {
    ALKAID_RETURN_NOT_OK(gather_values_.Reserve(bit_util::BytesForBits(n)));
    uint8_t* bits = gather_values_.mutable_data();
    std::memset(bits, 0, static_cast<size_t>(bit_util::BytesForBits(n)));
    const uint8_t* src = dict.buffers[1]->data();
    for (int64_t i = 0; i < n; ++i) {
      int64_t k = indices[static_cast<size_t>(i)];
      if (k >= 0 && bit_util::GetBit(src, dict.offset + k)) bit_util::SetBit(bits, i);
    }
    gather_values_.UnsafeAdvance(bit_util::BytesForBits(n));
  } else if (value_type.is_binary_like()) {
    const bool large = HasLargeOffsets(value_type);
    const uint8_t* data = dict.buffers[2] ? dict.buffers[2]->data() : nullptr;
    ALKAID_RETURN_NOT_OK(gather_values_.Reserve((n + 1) * 8));
    int64_t total = 0;
    gather_values_.UnsafeAppendValue<int64_t>(0);
    for (int64_t i = 0; i < n; ++i) {
      int64_t k = indices[static_cast<size_t>(i)];
      if (k >= 0) {
        int64_t start, stop;
        BinaryValueBounds(dict, large, k, &start, &stop);
        ALKAID_RETURN_NOT_OK(gather_data_.Append(data + start, stop - start));
        total += stop - start;
      }
      gather_values_.UnsafeAppendValue<int64_t>(total);
    }
    gathered_type = large_binary();
  } else {
    const int width = value_type.is_view() ? 16 : value_type.byte_width();
    if (width <= 0) {
      return Status::NotImplemented("Parquet writer: dictionary of ", dict.type->ToString());
    }
    ALKAID_RETURN_NOT_OK(gather_values_.Reserve(n * width));
    uint8_t* out = gather_values_.mutable_data();
    const uint8_t* src = dict.buffers[1]->data() + dict.offset * width;
    for (int64_t i = 0; i < n; ++i) {
      int64_t k = indices[static_cast<size_t>(i)];
      if (k >= 0) {
        std::memcpy(out + i * width, src + k * width, static_cast<size_t>(width));
      } else {
        std::memset(out + i * width, 0, static_cast<size_t>(width));
      }
    }
    gather_values_.UnsafeAdvance(n * width);
  }
  buffers.push_back(std::make_shared<Buffer>(gather_values_.data(), gather_values_.size()));
  if (value_type.is_binary_like()) {
    buffers.push_back(std::make_shared<Buffer>(gather_data_.data(), gather_data_.size()));
  }
  // View entries point into the dictionary's own data buffers.
  if (value_type.is_view()) {
    for (size_t b = 2; b < dict.buffers.size(); ++b) buffers.push_back(dict.buffers[b]);
  }
  gathered_ = ArrayData::Make(gathered_type, n, std::move(buffers));
  return Status::OK();
}

}  // namespace alkaid::parquet::internal
