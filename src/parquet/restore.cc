// Decoded arrays -> ARROW:schema types (see restore.h).
#include "src/parquet/restore.h"

#include <cstring>
#include <limits>

#include "alkaid/concatenate.h"
#include "alkaid/encode.h"
#include "src/parquet/convert.h"

namespace alkaid::parquet::internal {

namespace {

ArrayDataPtr Retyped(const ArrayData& data, DataTypePtr type, ArrayDataVector children) {
  auto out = std::make_shared<ArrayData>(data);
  out->type = std::move(type);
  if (!children.empty()) out->child_data = std::move(children);
  return out;
}

// Values of a fixed-width array mapped one by one into a new buffer of `out_width` bytes.
// Arrays come straight from the decoder (offset 0), so buffers can be swapped one by one.
template <typename In, typename Out, typename F>
Result<ArrayDataPtr> MapValues(const ArrayData& data, DataTypePtr type, MemoryPool* pool, F f) {
  if (data.offset != 0) return Status::NotImplemented("restoring a sliced array");
  ALKAID_ASSIGN_OR_RAISE(auto buffer, AllocateBuffer(data.length * sizeof(Out), pool));
  const In* in = data.GetValues<In>(1);
  Out* out = reinterpret_cast<Out*>(buffer->mutable_data());
  for (int64_t i = 0; i < data.length; ++i) out[i] = f(in[i]);
  auto result = std::make_shared<ArrayData>(data);
  result->type = std::move(type);
  result->buffers[1] = std::move(buffer);
  return result;
}

Result<ArrayDataPtr> WidenOffsets(const ArrayData& data, DataTypePtr type, MemoryPool* pool) {
  if (data.offset != 0) return Status::NotImplemented("restoring a sliced array");
  ALKAID_ASSIGN_OR_RAISE(auto buffer, AllocateBuffer((data.length + 1) * 8, pool));
  const int32_t* in = data.GetValues<int32_t>(1);
  auto* out = reinterpret_cast<int64_t*>(buffer->mutable_data());
  for (int64_t i = 0; i <= data.length; ++i) out[i] = in[i];
  auto result = std::make_shared<ArrayData>(data);
  result->type = std::move(type);
  result->buffers[1] = std::move(buffer);
  return result;
}

// list -> list view: offsets and sizes of the requested width.
template <typename Offset>
Result<ArrayDataPtr> ToListView(const ArrayData& data, DataTypePtr type, ArrayDataPtr child,
                                MemoryPool* pool) {
  ALKAID_ASSIGN_OR_RAISE(auto offsets, AllocateBuffer(data.length * sizeof(Offset), pool));
  ALKAID_ASSIGN_OR_RAISE(auto sizes, AllocateBuffer(data.length * sizeof(Offset), pool));
  const int32_t* in = data.GetValues<int32_t>(1);
  auto* o = reinterpret_cast<Offset*>(offsets->mutable_data());
  auto* s = reinterpret_cast<Offset*>(sizes->mutable_data());
  for (int64_t i = 0; i < data.length; ++i) {
    o[i] = in[i];
    s[i] = in[i + 1] - in[i];
  }
  return ArrayData::Make(std::move(type), data.length, {data.buffers[0], offsets, sizes}, {child},
                         data.null_count);
}

// Dictionary indices (int32 as read) as another integer index type, checked to fit.
template <typename Out>
Result<ArrayDataPtr> CastIndices(const ArrayData& data, DataTypePtr type, MemoryPool* pool) {
  const int32_t* in = data.GetValues<int32_t>(1);
  for (int64_t i = 0; i < data.length; ++i) {
    if (in[i] < 0 || static_cast<uint64_t>(in[i]) >
                         static_cast<uint64_t>(std::numeric_limits<Out>::max())) {
      return Status::Invalid("dictionary index ", in[i], " does not fit the index type of ",
                             type->ToString());
    }
  }
  return MapValues<int32_t, Out>(data, std::move(type), pool,
                                 [](int32_t v) { return static_cast<Out>(v); });
}

Result<ArrayDataPtr> RestoreIndices(const ArrayData& data, DataTypePtr type, MemoryPool* pool) {
  const auto& dict = checked_cast<DictionaryType>(*type);
  switch (dict.index_type()->id()) {
    case TypeId::kInt8: return CastIndices<int8_t>(data, type, pool);
    case TypeId::kUInt8: return CastIndices<uint8_t>(data, type, pool);
    case TypeId::kInt16: return CastIndices<int16_t>(data, type, pool);
    case TypeId::kUInt16: return CastIndices<uint16_t>(data, type, pool);
    case TypeId::kInt32: return Retyped(data, type, {});
    case TypeId::kUInt32: return CastIndices<uint32_t>(data, type, pool);
    case TypeId::kInt64: return CastIndices<int64_t>(data, type, pool);
    case TypeId::kUInt64: return CastIndices<uint64_t>(data, type, pool);
    default: return Status::TypeError("dictionary index type ", dict.index_type()->ToString());
  }
}

// Microseconds whose nanosecond count fits int64.
constexpr int64_t kMaxMicrosAsNanos = std::numeric_limits<int64_t>::max() / 1000;
constexpr int64_t kMinMicrosAsNanos = std::numeric_limits<int64_t>::min() / 1000;

// Every valid value of `data` within [lo, hi], or an error naming the first that is not.
template <typename T>
Status CheckRange(const ArrayData& data, T lo, T hi, const DataType& target) {
  const T* in = data.GetValues<T>(1);
  for (int64_t i = 0; i < data.length; ++i) {
    if ((in[i] < lo || in[i] > hi) && data.IsValid(i)) {
      return Status::Invalid("value ", in[i], " at row ", i, " does not fit ",
                             target.ToString());
    }
  }
  return Status::OK();
}

// An interval of `Width` bytes copied from each 12-byte Parquet INTERVAL value
// (months, days, milliseconds, little-endian) starting at byte `from`.
template <int Width>
Result<ArrayDataPtr> IntervalFromBytes(const ArrayData& data, DataTypePtr type, int from,
                                       MemoryPool* pool) {
  if (checked_cast<FixedSizeBinaryType>(*data.type).byte_width() != 12) {
    return Status::Invalid("an INTERVAL column of ", data.type->ToString(), " values");
  }
  ALKAID_ASSIGN_OR_RAISE(auto buffer, AllocateBuffer(data.length * Width, pool));
  const uint8_t* in = data.buffers[1]->data() + data.offset * 12 + from;
  uint8_t* out = buffer->mutable_data();
  for (int64_t i = 0; i < data.length; ++i) std::memcpy(out + i * Width, in + i * 12, Width);
  auto result = std::make_shared<ArrayData>(data);
  result->type = std::move(type);
  result->offset = 0;
  result->buffers[1] = std::move(buffer);
  return result;
}

// A list array whose valid lists all hold list_size values as a fixed-size list: null
// lists (empty in the list form) get list_size null child slots.
Result<ArrayDataPtr> ListToFixedSize(const ArrayData& data, const DataTypePtr& type,
                                     const ArrayDataPtr& child, MemoryPool* pool) {
  const int64_t size = checked_cast<FixedSizeListType>(*type).list_size();
  const int32_t* offsets = data.GetValues<int32_t>(1);
  // Pieces of the new child: runs of valid lists share the decoded child, runs of null
  // lists are null arrays.
  ArrayDataVector pieces;
  int64_t i = 0;
  while (i < data.length) {
    const bool valid = data.IsValid(i);
    int64_t j = i;
    while (j < data.length && data.IsValid(j) == valid) {
      const int64_t length = int64_t{offsets[j + 1]} - offsets[j];
      if (length != (valid ? size : 0)) {
        return Status::Invalid("list ", j, " holds ", length, " values, its type ",
                               type->ToString(), " holds ", valid ? size : 0);
      }
      ++j;
    }
    if (valid) {
      pieces.push_back(child->Slice(offsets[i], offsets[j] - offsets[i]));
    } else {
      ALKAID_ASSIGN_OR_RAISE(auto nulls, MakeArrayOfNull(child->type, (j - i) * size, pool));
      pieces.push_back(std::move(nulls));
    }
    i = j;
  }
  ArrayDataPtr values;
  if (pieces.size() == 1) {
    values = pieces[0];
  } else if (pieces.empty()) {
    values = child->Slice(0, 0);
  } else {
    ALKAID_ASSIGN_OR_RAISE(values, Concatenate(pieces, pool));
  }
  return ArrayData::Make(type, data.length, {data.buffers[0]}, {std::move(values)},
                         data.null_count, data.offset);
}

}  // namespace

Result<ArrayDataPtr> RestoreArray(const ArrayDataPtr& data, const DataTypePtr& target,
                                  MemoryPool* pool) {
  const DataTypePtr& decoded = data->type;
  if (decoded.get() == target.get()) return data;
  if (target->id() == TypeId::kExtension) {
    const auto& ext = checked_cast<ExtensionType>(*target);
    ArrayDataPtr storage = data;
    if (decoded->id() == TypeId::kExtension) {
      storage = Retyped(*data, checked_cast<ExtensionType>(*decoded).storage_type(), {});
    }
    ALKAID_ASSIGN_OR_RAISE(auto restored, RestoreArray(storage, ext.storage_type(), pool));
    return Retyped(*restored, target, {});
  }
  if (target->id() == TypeId::kDictionary) {
    const auto& dict = checked_cast<DictionaryType>(*target);
    if (decoded->id() == TypeId::kDictionary) {
      ALKAID_ASSIGN_OR_RAISE(auto out, RestoreIndices(*data, target, pool));
      ALKAID_ASSIGN_OR_RAISE(out->dictionary,
                             RestoreArray(data->dictionary, dict.value_type(), pool));
      return out;
    }
    ALKAID_ASSIGN_OR_RAISE(auto values, RestoreArray(data, dict.value_type(), pool));
    return DictionaryEncode(*values, target, pool);
  }
  if (decoded->id() == TypeId::kExtension) {
    return Status::TypeError("cannot restore ", decoded->ToString(), " as ", target->ToString());
  }
  switch (target->id()) {
    case TypeId::kTimestamp: {
      const auto& from = checked_cast<TimestampType>(*decoded);
      const auto& to = checked_cast<TimestampType>(*target);
      if (from.unit() == TimeUnit::kMilli && to.unit() == TimeUnit::kSecond) {
        return MapValues<int64_t, int64_t>(*data, target, pool, [](int64_t v) { return v / 1000; });
      }
      if (from.unit() == TimeUnit::kMicro && to.unit() == TimeUnit::kNano) {
        ALKAID_RETURN_NOT_OK(CheckRange<int64_t>(*data, kMinMicrosAsNanos, kMaxMicrosAsNanos,
                                                 to));
        return MapValues<int64_t, int64_t>(*data, target, pool, [](int64_t v) { return v * 1000; });
      }
      return Retyped(*data, target, {});
    }
    case TypeId::kUInt32:
      if (decoded->id() == TypeId::kInt64) {
        ALKAID_RETURN_NOT_OK(CheckRange<int64_t>(*data, 0, UINT32_MAX, *target));
        return MapValues<int64_t, uint32_t>(*data, target, pool,
                                            [](int64_t v) { return static_cast<uint32_t>(v); });
      }
      return Retyped(*data, target, {});
    case TypeId::kIntervalMonths:
      if (decoded->id() == TypeId::kFixedSizeBinary) {
        return IntervalFromBytes<4>(*data, target, 0, pool);  // months
      }
      return Retyped(*data, target, {});
    case TypeId::kIntervalDayTime:
      if (decoded->id() == TypeId::kFixedSizeBinary) {
        return IntervalFromBytes<8>(*data, target, 4, pool);  // days, milliseconds
      }
      return Retyped(*data, target, {});
    case TypeId::kFixedSizeList: {
      const DataTypePtr& child_type = target->field(0)->type();
      ALKAID_ASSIGN_OR_RAISE(auto child, RestoreArray(data->child_data[0], child_type, pool));
      if (decoded->id() != TypeId::kList) return Retyped(*data, target, {child});
      return ListToFixedSize(*data, target, child, pool);
    }
    case TypeId::kRunEndEncoded: {
      const auto& ree = checked_cast<RunEndEncodedType>(*target);
      ALKAID_ASSIGN_OR_RAISE(auto values, RestoreArray(data, ree.value_type(), pool));
      return RunEndEncode(*values, target, pool);
    }
    case TypeId::kTime32: {
      const auto& from = checked_cast<TemporalUnitType>(*decoded);
      const auto& to = checked_cast<TemporalUnitType>(*target);
      if (from.unit() == TimeUnit::kMilli && to.unit() == TimeUnit::kSecond) {
        return MapValues<int32_t, int32_t>(*data, target, pool, [](int32_t v) { return v / 1000; });
      }
      return Retyped(*data, target, {});
    }
    case TypeId::kDate64:
      if (decoded->id() == TypeId::kDate32) {
        return MapValues<int32_t, int64_t>(*data, target, pool,
                                           [](int32_t v) { return int64_t{v} * 86400000; });
      }
      return Retyped(*data, target, {});
    case TypeId::kLargeString:
    case TypeId::kLargeBinary:
      if (decoded->id() == TypeId::kString || decoded->id() == TypeId::kBinary) {
        return WidenOffsets(*data, target, pool);
      }
      return Retyped(*data, target, {});
    case TypeId::kStringView:
    case TypeId::kBinaryView:
      if (decoded->id() != TypeId::kStringView && decoded->id() != TypeId::kBinaryView) {
        return BinaryToViews(*data, target, pool);
      }
      return Retyped(*data, target, {});
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      const int from = decoded->bit_width() / 8, to = target->bit_width() / 8;
      if (from == to) return Retyped(*data, target, {});
      ALKAID_ASSIGN_OR_RAISE(auto buffer, AllocateBuffer(data->length * to, pool));
      const uint8_t* in = data->buffers[1]->data() + data->offset * from;
      uint8_t* out = buffer->mutable_data();
      for (int64_t i = 0; i < data->length; ++i) {
        const uint8_t* v = in + i * from;
        const bool negative = (v[from - 1] & 0x80) != 0;
        if (to < from) {
          std::memcpy(out + i * to, v, static_cast<size_t>(to));
        } else {
          std::memcpy(out + i * to, v, static_cast<size_t>(from));
          std::memset(out + i * to + from, negative ? 0xff : 0, static_cast<size_t>(to - from));
        }
      }
      auto result = std::make_shared<ArrayData>(*data);
      result->type = target;
      result->buffers[1] = std::move(buffer);
      if (data->offset != 0) return Status::NotImplemented("restoring a sliced decimal array");
      return result;
    }
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kListView:
    case TypeId::kLargeListView:
    case TypeId::kMap: {
      const DataTypePtr& child_type = target->field(0)->type();
      ALKAID_ASSIGN_OR_RAISE(auto child, RestoreArray(data->child_data[0], child_type, pool));
      switch (target->id()) {
        case TypeId::kLargeList: {
          ALKAID_ASSIGN_OR_RAISE(auto wide, WidenOffsets(*data, target, pool));
          wide->child_data = {child};
          return wide;
        }
        case TypeId::kListView: return ToListView<int32_t>(*data, target, child, pool);
        case TypeId::kLargeListView: return ToListView<int64_t>(*data, target, child, pool);
        default: return Retyped(*data, target, {child});
      }
    }
    case TypeId::kStruct: {
      ArrayDataVector children;
      for (int i = 0; i < target->num_fields(); ++i) {
        ALKAID_ASSIGN_OR_RAISE(auto child, RestoreArray(data->child_data[static_cast<size_t>(i)],
                                                        target->field(i)->type(), pool));
        children.push_back(std::move(child));
      }
      return Retyped(*data, target, std::move(children));
    }
    default:
      return Retyped(*data, target, {});
  }
}

}  // namespace alkaid::parquet::internal
