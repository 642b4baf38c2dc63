// Stored Parquet values -> Arrow values (see convert.h).
#include "src/parquet/convert.h"

#include <cstring>

#include "alkaid/bitmap.h"

namespace alkaid::parquet::internal {

namespace {

const DataType& StorageOf(const DataType& type) {
  if (type.id() == TypeId::kExtension) {
    return *checked_cast<ExtensionType>(type).storage_type();
  }
  return type;
}

bool IsDecimal(TypeId id) { return id == TypeId::kDecimal128 || id == TypeId::kDecimal256; }

// Julian day of 1970-01-01.
constexpr int64_t kJulianEpochDay = 2440588;
constexpr int64_t kNanosPerDay = int64_t{86400} * 1000 * 1000 * 1000;

}  // namespace

int ArrowValueWidth(const DataType& type) {
  const DataType& storage = StorageOf(type);
  if (storage.id() == TypeId::kBool) return 0;
  return storage.bit_width() / 8;
}

Result<Conversion> ConversionFor(PhysicalType physical, const DataType& arrow_type) {
  const DataType& storage = StorageOf(arrow_type);
  TypeId id = storage.id();
  auto mismatch = [&] {
    return Status::TypeError("no conversion from Parquet ", PhysicalTypeName(physical), " to ",
                             arrow_type.ToString());
  };
  switch (physical) {
    case PhysicalType::kBoolean:
      return id == TypeId::kBool ? Result<Conversion>(Conversion::kNone) : mismatch();
    case PhysicalType::kInt32:
      switch (id) {
        case TypeId::kInt8: case TypeId::kUInt8: return Conversion::kInt32ToInt8;
        case TypeId::kInt16: case TypeId::kUInt16: return Conversion::kInt32ToInt16;
        case TypeId::kInt32: case TypeId::kUInt32: case TypeId::kDate32: case TypeId::kTime32:
          return Conversion::kNone;
        case TypeId::kDecimal128: case TypeId::kDecimal256: return Conversion::kInt32ToDecimal;
        default: return mismatch();
      }
    case PhysicalType::kInt64:
      switch (id) {
        case TypeId::kInt64: case TypeId::kUInt64: case TypeId::kTimestamp:
        case TypeId::kTime64: case TypeId::kDuration:
          return Conversion::kNone;
        case TypeId::kDecimal128: case TypeId::kDecimal256: return Conversion::kInt64ToDecimal;
        default: return mismatch();
      }
    case PhysicalType::kInt96:
      return id == TypeId::kTimestamp ? Result<Conversion>(Conversion::kInt96ToTimestamp)
                                      : mismatch();
    case PhysicalType::kFloat:
      return id == TypeId::kFloat ? Result<Conversion>(Conversion::kNone) : mismatch();
    case PhysicalType::kDouble:
      return id == TypeId::kDouble ? Result<Conversion>(Conversion::kNone) : mismatch();
    case PhysicalType::kByteArray:
      switch (id) {
        case TypeId::kBinary: case TypeId::kString: case TypeId::kLargeBinary:
        case TypeId::kLargeString:
          return Conversion::kNone;
        case TypeId::kBinaryView: case TypeId::kStringView: return Conversion::kBinaryToView;
        default:
          return IsDecimal(id) ? Result<Conversion>(Conversion::kBinaryToDecimal) : mismatch();
      }
    case PhysicalType::kFixedLenByteArray:
      if (id == TypeId::kFixedSizeBinary || id == TypeId::kHalfFloat) return Conversion::kNone;
      return IsDecimal(id) ? Result<Conversion>(Conversion::kFixedToDecimal) : mismatch();
  }
  return mismatch();
}

int64_t Int96ToTimestamp(const uint8_t* in, TimeUnit unit) {
  int64_t nanos;
  int32_t day;
  std::memcpy(&nanos, in, 8);
  std::memcpy(&day, in + 8, 4);
  // Wrapping arithmetic: hostile days give garbage, never undefined behaviour.
  uint64_t days = static_cast<uint64_t>(static_cast<int64_t>(day) - kJulianEpochDay);
  switch (unit) {
    case TimeUnit::kSecond:
      return static_cast<int64_t>(days * 86400u + static_cast<uint64_t>(nanos / 1000000000));
    case TimeUnit::kMilli:
      return static_cast<int64_t>(days * 86400000u + static_cast<uint64_t>(nanos / 1000000));
    case TimeUnit::kMicro:
      return static_cast<int64_t>(days * 86400000000u + static_cast<uint64_t>(nanos / 1000));
    case TimeUnit::kNano:
      return static_cast<int64_t>(days * static_cast<uint64_t>(kNanosPerDay) +
                                  static_cast<uint64_t>(nanos));
  }
  return 0;
}

Status BigEndianToDecimal(const uint8_t* in, int64_t size, uint8_t* out, int out_width) {
  const bool negative = size > 0 && (in[0] & 0x80) != 0;
  const uint8_t fill = negative ? 0xff : 0x00;
  // Leading bytes beyond the output width must be sign extension.
  int64_t skip = size > out_width ? size - out_width : 0;
  for (int64_t i = 0; i < skip; ++i) {
    if (in[i] != fill) return Status::Invalid("decimal value of ", size, " bytes overflows ",
                                              out_width * 8, " bits");
  }
  if (skip > 0 && ((in[skip] & 0x80) != 0) != negative) {
    return Status::Invalid("decimal value of ", size, " bytes overflows ", out_width * 8, " bits");
  }
  int64_t used = size - skip;
  for (int64_t i = 0; i < used; ++i) out[i] = in[size - 1 - i];
  std::memset(out + used, fill, static_cast<size_t>(out_width - used));
  return Status::OK();
}

Status ConvertFixed(Conversion conversion, const uint8_t* in, int in_width, int64_t n,
                    uint8_t* out, int out_width, TimeUnit unit) {
  switch (conversion) {
    case Conversion::kNone:
      std::memcpy(out, in, static_cast<size_t>(n * in_width));
      return Status::OK();
    case Conversion::kInt32ToInt8:
      for (int64_t i = 0; i < n; ++i) {
        int32_t v;
        std::memcpy(&v, in + 4 * i, 4);
        out[i] = static_cast<uint8_t>(v);
      }
      return Status::OK();
    case Conversion::kInt32ToInt16:
      for (int64_t i = 0; i < n; ++i) {
        int32_t v;
        std::memcpy(&v, in + 4 * i, 4);
        auto narrow = static_cast<int16_t>(v);
        std::memcpy(out + 2 * i, &narrow, 2);
      }
      return Status::OK();
    case Conversion::kInt32ToDecimal:
    case Conversion::kInt64ToDecimal:
      for (int64_t i = 0; i < n; ++i) {
        int64_t v;
        if (in_width == 4) {
          int32_t v32;
          std::memcpy(&v32, in + 4 * i, 4);
          v = v32;
        } else {
          std::memcpy(&v, in + 8 * i, 8);
        }
        uint8_t* slot = out + i * out_width;
        std::memcpy(slot, &v, 8);
        std::memset(slot + 8, v < 0 ? 0xff : 0x00, static_cast<size_t>(out_width - 8));
      }
      return Status::OK();
    case Conversion::kInt96ToTimestamp:
      for (int64_t i = 0; i < n; ++i) {
        int64_t ts = Int96ToTimestamp(in + 12 * i, unit);
        std::memcpy(out + 8 * i, &ts, 8);
      }
      return Status::OK();
    case Conversion::kFixedToDecimal:
      for (int64_t i = 0; i < n; ++i) {
        ALKAID_RETURN_NOT_OK(
            BigEndianToDecimal(in + i * in_width, in_width, out + i * out_width, out_width));
      }
      return Status::OK();
    default:
      return Status::Invalid("not a fixed-width conversion");
  }
}

Result<ArrayDataPtr> BinaryToViews(const ArrayData& binary, const DataTypePtr& type,
                                   MemoryPool* pool) {
  const bool large = HasLargeOffsets(*binary.type);
  const int64_t n = binary.length;
  ALKAID_ASSIGN_OR_RAISE(auto views, AllocateBuffer(n * 16, pool));
  auto* out = reinterpret_cast<BinaryViewValue*>(views->mutable_data());
  const uint8_t* data = binary.buffers[2] ? binary.buffers[2]->data() : nullptr;
  for (int64_t i = 0; i < n; ++i) {
    int64_t begin, end;
    BinaryValueBounds(binary, large, i, &begin, &end);
    int64_t size = end - begin;
    BinaryViewValue& v = out[i];
    if (size <= BinaryViewValue::kInlineSize) {
      v.inlined.size = static_cast<int32_t>(size);
      if (size > 0) std::memcpy(v.inlined.data, data + begin, static_cast<size_t>(size));
    } else {
      if (end > INT32_MAX) {
        return Status::CapacityError("binary view column with more than 2 GiB of data in one "
                                     "row group");
      }
      v.ref.size = static_cast<int32_t>(size);
      std::memcpy(v.ref.prefix, data + begin, 4);
      v.ref.buffer_index = 0;
      v.ref.offset = static_cast<int32_t>(begin);
    }
  }
  BufferPtr values = binary.buffers[2];
  if (values == nullptr) values = std::make_shared<Buffer>(nullptr, 0);
  return ArrayData::Make(type, n, {binary.buffers[0], std::move(views), std::move(values)},
                         binary.null_count, 0);
}

}  // namespace alkaid::parquet::internal
