/// @file
/// The flat fixed-width types: null, boolean, the integers and floats, dates,
/// times, timestamps, durations, the three interval types, fixed_size_binary
/// and the four decimal widths.
///
/// Threads: types, fields and schemas never change after construction; every
/// const member may be called from any number of threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "alkaid/status.h"
#include "alkaid/type/data_type.h"
#include "alkaid/type/type_id.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// The null type: arrays of it have a length but no buffers, and every slot
/// is null.
class ALKAID_EXPORT NullType final : public DataType {
 public:
  /// The null type (prefer the shared instance from null()).
  NullType() : DataType(TypeId::kNull) {}
  /// "null".
  std::string name() const override { return "null"; }
  /// "null".
  std::string ToString() const override { return "null"; }
  /// No buffers at all, not even a validity bitmap.
  DataTypeLayout ComputeLayout() const override { return {}; }
};

/// Booleans packed one bit per value (LSB first), plus a validity bitmap.
class ALKAID_EXPORT BooleanType final : public DataType {
 public:
  /// Element type builders and scalar accessors use for a slot.
  using c_type = bool;
  /// The boolean type (prefer the shared instance from boolean()).
  BooleanType() : DataType(TypeId::kBool) {}
  /// "bool".
  std::string name() const override { return "bool"; }
  /// "bool".
  std::string ToString() const override { return "bool"; }
  /// Validity bitmap plus a values bitmap.
  DataTypeLayout ComputeLayout() const override;
  /// 1: one bit per value.
  int bit_width() const override { return 1; }
};

/// Base of every type whose slots are stored as fixed-width values.
/// Its layout is a validity bitmap plus one buffer of bit_width() / 8 bytes
/// per slot; subclasses supply bit_width().
class ALKAID_EXPORT FixedWidthType : public DataType {
 public:
  using DataType::DataType;  ///< Constructs from a TypeId, like DataType.
  /// Validity bitmap plus a buffer of byte_width() bytes per slot.
  DataTypeLayout ComputeLayout() const override;
};

/// Numbers, dates, times and intervals: a C type and a fixed name.
///
/// CRTP base of the parameterless fixed-width types (Int8Type ... DoubleType,
/// Date32Type, Date64Type, the interval types). `Derived` provides `kName`;
/// each slot is one `CType` in native byte order.
/// @tparam Derived the concrete type class (supplies `static constexpr const char* kName`)
/// @tparam CType the in-memory representation of one value
/// @tparam kId the TypeId of the concrete type
template <typename Derived, typename CType, TypeId kId>
class PrimitiveCType : public FixedWidthType {
 public:
  /// In-memory representation of one value.
  using c_type = CType;
  /// The TypeId of `Derived`, usable at compile time.
  static constexpr TypeId type_id = kId;
  /// Constructs the (parameterless) type.
  PrimitiveCType() : FixedWidthType(kId) {}
  /// sizeof(CType) * 8.
  int bit_width() const override { return static_cast<int>(sizeof(CType) * 8); }
  /// Derived::kName, e.g. "int32".
  std::string name() const override { return Derived::kName; }
  /// Same as name(): these types have no parameters.
  std::string ToString() const override { return Derived::kName; }
};

/// Declares the concrete final class `ClassName` for a primitive type: a
/// PrimitiveCType over `CType` with id `TypeId::Id` whose name() and
/// ToString() return `Name`. Undefined again after its uses below, which
/// declare Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type,
/// UInt32Type, UInt64Type, HalfFloatType, FloatType, DoubleType, Date32Type
/// (int32 days since the UNIX epoch), Date64Type (int64 milliseconds since
/// the epoch) and MonthIntervalType (int32 months).
#define ALKAID_DECLARE_PRIMITIVE(ClassName, CType, Id, Name)                    \
  class ALKAID_EXPORT ClassName final : public PrimitiveCType<ClassName, CType, TypeId::Id> { \
   public:                                                                      \
    static constexpr const char* kName = Name;                                  \
  };

ALKAID_DECLARE_PRIMITIVE(Int8Type, int8_t, kInt8, "int8")
ALKAID_DECLARE_PRIMITIVE(Int16Type, int16_t, kInt16, "int16")
ALKAID_DECLARE_PRIMITIVE(Int32Type, int32_t, kInt32, "int32")
ALKAID_DECLARE_PRIMITIVE(Int64Type, int64_t, kInt64, "int64")
ALKAID_DECLARE_PRIMITIVE(UInt8Type, uint8_t, kUInt8, "uint8")
ALKAID_DECLARE_PRIMITIVE(UInt16Type, uint16_t, kUInt16, "uint16")
ALKAID_DECLARE_PRIMITIVE(UInt32Type, uint32_t, kUInt32, "uint32")
ALKAID_DECLARE_PRIMITIVE(UInt64Type, uint64_t, kUInt64, "uint64")
// Half floats are stored as their raw IEEE 754 binary16 bits.
ALKAID_DECLARE_PRIMITIVE(HalfFloatType, uint16_t, kHalfFloat, "halffloat")
ALKAID_DECLARE_PRIMITIVE(FloatType, float, kFloat, "float")
ALKAID_DECLARE_PRIMITIVE(DoubleType, double, kDouble, "double")
ALKAID_DECLARE_PRIMITIVE(Date32Type, int32_t, kDate32, "date32[day]")
ALKAID_DECLARE_PRIMITIVE(Date64Type, int64_t, kDate64, "date64[ms]")
ALKAID_DECLARE_PRIMITIVE(MonthIntervalType, int32_t, kIntervalMonths, "month_interval")
#undef ALKAID_DECLARE_PRIMITIVE

// The classes above are generated by a macro Doxygen does not expand;
// these blocks document them.

/// @class alkaid::Int8Type
/// Signed 8-bit integers, one `int8_t` per slot; name "int8".
/// Declared by ALKAID_DECLARE_PRIMITIVE as PrimitiveCType<Int8Type, int8_t, ...>.

/// @class alkaid::Int16Type
/// Signed 16-bit integers, one `int16_t` per slot; name "int16".
/// Declared by ALKAID_DECLARE_PRIMITIVE as PrimitiveCType<Int16Type, int16_t, ...>.

/// @class alkaid::Int32Type
/// Signed 32-bit integers, one `int32_t` per slot; name "int32".
/// Declared by ALKAID_DECLARE_PRIMITIVE as PrimitiveCType<Int32Type, int32_t, ...>.

/// @class alkaid::Int64Type
/// Signed 64-bit integers, one `int64_t` per slot; name "int64".
/// Declared by ALKAID_DECLARE_PRIMITIVE as PrimitiveCType<Int64Type, int64_t, ...>.

/// @class alkaid::UInt8Type
/// Unsigned 8-bit integers, one `uint8_t` per slot; name "uint8".
/// Declared by ALKAID_DECLARE_PRIMITIVE as PrimitiveCType<UInt8Type, uint8_t, ...>.

/// @class alkaid::UInt16Type
/// Unsigned 16-bit integers, one `uint16_t` per slot; name "uint16".
/// Declared by ALKAID_DECLARE_PRIMITIVE as PrimitiveCType<UInt16Type, uint16_t, ...>.

/// @class alkaid::UInt32Type
/// Unsigned 32-bit integers, one `uint32_t` per slot; name "uint32".
/// Declared by ALKAID_DECLARE_PRIMITIVE as PrimitiveCType<UInt32Type, uint32_t, ...>.

/// @class alkaid::UInt64Type
/// Unsigned 64-bit integers, one `uint64_t` per slot; name "uint64".
/// Declared by ALKAID_DECLARE_PRIMITIVE as PrimitiveCType<UInt64Type, uint64_t, ...>.

/// @class alkaid::HalfFloatType
/// IEEE 754 binary16 floats, stored as their raw `uint16_t` bit patterns
/// (convert with alkaid/float16.h); name "halffloat".
/// Declared by ALKAID_DECLARE_PRIMITIVE as PrimitiveCType<HalfFloatType, uint16_t, ...>.

/// @class alkaid::FloatType
/// IEEE 754 binary32 floats, one `float` per slot; name "float".
/// Declared by ALKAID_DECLARE_PRIMITIVE as PrimitiveCType<FloatType, float, ...>.

/// @class alkaid::DoubleType
/// IEEE 754 binary64 floats, one `double` per slot; name "double".
/// Declared by ALKAID_DECLARE_PRIMITIVE as PrimitiveCType<DoubleType, double, ...>.

/// @class alkaid::Date32Type
/// Dates as an `int32_t` count of days since 1970-01-01; name "date32[day]".
/// Declared by ALKAID_DECLARE_PRIMITIVE as PrimitiveCType<Date32Type, int32_t, ...>.

/// @class alkaid::Date64Type
/// Dates as an `int64_t` count of milliseconds since 1970-01-01 (by
/// convention a whole number of days); name "date64[ms]".
/// Declared by ALKAID_DECLARE_PRIMITIVE as PrimitiveCType<Date64Type, int64_t, ...>.

/// @class alkaid::MonthIntervalType
/// Calendar intervals as an `int32_t` count of months; name "month_interval".
/// Declared by ALKAID_DECLARE_PRIMITIVE as PrimitiveCType<MonthIntervalType, int32_t, ...>.

// Value layouts of the two composite interval types.

/// One value of a day_time_interval: 8 bytes, days then milliseconds, each
/// signed and independent (no normalization between them).
struct DayTimeInterval {
  int32_t days;          ///< Whole days.
  int32_t milliseconds;  ///< Milliseconds in addition to the days.
  /// Field-wise equality (1 day and 86400000 ms are different values).
  bool operator==(const DayTimeInterval&) const = default;
};
/// One value of a month_day_nano_interval: 16 bytes, months, days and
/// nanoseconds, each signed and independent (no normalization between them).
struct ALKAID_EXPORT MonthDayNanoInterval {
  int32_t months;       ///< Whole calendar months.
  int32_t days;         ///< Whole days in addition to the months.
  int64_t nanoseconds;  ///< Nanoseconds in addition to months and days.
  /// Field-wise equality.
  bool operator==(const MonthDayNanoInterval&) const = default;
};

/// Interval stored as a DayTimeInterval (days + milliseconds) per slot.
class ALKAID_EXPORT DayTimeIntervalType final
    : public PrimitiveCType<DayTimeIntervalType, DayTimeInterval, TypeId::kIntervalDayTime> {
 public:
  static constexpr const char* kName = "day_time_interval";  ///< Type name.
};
/// Interval stored as a MonthDayNanoInterval (months + days + nanoseconds) per slot.
class ALKAID_EXPORT MonthDayNanoIntervalType final
    : public PrimitiveCType<MonthDayNanoIntervalType, MonthDayNanoInterval,
                            TypeId::kIntervalMonthDayNano> {
 public:
  static constexpr const char* kName = "month_day_nano_interval";  ///< Type name.
};

/// Types parameterized by a time unit: time32, time64, timestamp, duration.
/// Equality compares the unit (and the subclass's further parameters).
class ALKAID_EXPORT TemporalUnitType : public FixedWidthType {
 public:
  /// A type of id `id` counting in `unit`. Does not check that the unit is
  /// allowed for the id (see Time32Type::Make, Time64Type::Make).
  TemporalUnitType(TypeId id, TimeUnit unit) : FixedWidthType(id), unit_(unit) {}
  /// Resolution of the stored integers.
  TimeUnit unit() const { return unit_; }

 protected:
  /// Compares the unit.
  bool ParamsEqual(const DataType& other) const override;
  TimeUnit unit_;  ///< Resolution of the stored integers.
};

/// Time of day as an int32 count of seconds or milliseconds since midnight.
class ALKAID_EXPORT Time32Type final : public TemporalUnitType {
 public:
  using c_type = int32_t;  ///< One value: units since midnight.
  static constexpr TypeId type_id = TypeId::kTime32;  ///< Compile-time id.
  /// Unchecked: `unit` should be kSecond or kMilli (use Make on untrusted input).
  explicit Time32Type(TimeUnit unit = TimeUnit::kMilli) : TemporalUnitType(type_id, unit) {}
  /// Only seconds and milliseconds fit a 32-bit time of day; Invalid for
  /// other units.
  static Result<DataTypePtr> Make(TimeUnit unit);
  /// 32.
  int bit_width() const override { return 32; }
  /// "time32".
  std::string name() const override { return "time32"; }
  /// "time32[s]" or "time32[ms]".
  std::string ToString() const override;
};

/// Time of day as an int64 count of microseconds or nanoseconds since midnight.
class ALKAID_EXPORT Time64Type final : public TemporalUnitType {
 public:
  using c_type = int64_t;  ///< One value: units since midnight.
  static constexpr TypeId type_id = TypeId::kTime64;  ///< Compile-time id.
  /// Unchecked: `unit` should be kMicro or kNano (use Make on untrusted input).
  explicit Time64Type(TimeUnit unit = TimeUnit::kNano) : TemporalUnitType(type_id, unit) {}
  /// Only microseconds and nanoseconds; Invalid for other units.
  static Result<DataTypePtr> Make(TimeUnit unit);
  /// 64.
  int bit_width() const override { return 64; }
  /// "time64".
  std::string name() const override { return "time64"; }
  /// "time64[us]" or "time64[ns]".
  std::string ToString() const override;
};

/// An instant as an int64 count of units since 1970-01-01T00:00:00 UTC.
/// With an empty timezone the values are zone-less "wall clock" times;
/// with a timezone they are UTC instants to be displayed in that zone.
class ALKAID_EXPORT TimestampType final : public TemporalUnitType {
 public:
  using c_type = int64_t;  ///< One value: units since the UNIX epoch.
  static constexpr TypeId type_id = TypeId::kTimestamp;  ///< Compile-time id.
  /// `timezone` is an IANA name ("Europe/Paris") or a fixed offset ("+02:00");
  /// it is stored as given, not checked.
  explicit TimestampType(TimeUnit unit, std::string timezone = "")
      : TemporalUnitType(type_id, unit), timezone_(std::move(timezone)) {}
  /// The timezone string; empty when the timestamps carry no zone.
  const std::string& timezone() const { return timezone_; }
  /// 64.
  int bit_width() const override { return 64; }
  /// "timestamp".
  std::string name() const override { return "timestamp"; }
  /// "timestamp[unit]" or "timestamp[unit, tz=zone]".
  std::string ToString() const override;

 protected:
  /// Compares unit and timezone (as strings: "UTC" and "+00:00" differ).
  bool ParamsEqual(const DataType& other) const override;

 private:
  std::string timezone_;
};

/// Elapsed time as an int64 count of units (may be negative).
class ALKAID_EXPORT DurationType final : public TemporalUnitType {
 public:
  using c_type = int64_t;  ///< One value: a signed count of units.
  static constexpr TypeId type_id = TypeId::kDuration;  ///< Compile-time id.
  /// A duration in `unit` (all four units are allowed).
  explicit DurationType(TimeUnit unit) : TemporalUnitType(type_id, unit) {}
  /// 64.
  int bit_width() const override { return 64; }
  /// "duration".
  std::string name() const override { return "duration"; }
  /// "duration[unit]", e.g. "duration[ms]".
  std::string ToString() const override;
};

/// Byte strings that all have the same width, stored back to back.
class ALKAID_EXPORT FixedSizeBinaryType : public FixedWidthType {
 public:
  static constexpr TypeId type_id = TypeId::kFixedSizeBinary;  ///< Compile-time id.
  /// Unchecked: `byte_width` should be in [0, INT32_MAX / 8] (use Make on
  /// untrusted input).
  explicit FixedSizeBinaryType(int32_t byte_width)
      : FixedWidthType(type_id), width_(byte_width) {}
  /// Checked construction: Invalid unless 0 <= byte_width <= INT32_MAX / 8
  /// (so that the width in bits fits an int).
  static Result<DataTypePtr> Make(int32_t byte_width);
  /// Bytes per value. Hides DataType::byte_width() with the same answer.
  int32_t byte_width() const { return width_; }
  /// byte_width() * 8.
  int bit_width() const override { return width_ * 8; }
  /// "fixed_size_binary".
  std::string name() const override { return "fixed_size_binary"; }
  /// "fixed_size_binary[width]".
  std::string ToString() const override;

 protected:
  /// For subclasses (decimals) that reuse the layout under their own id.
  FixedSizeBinaryType(TypeId id, int32_t byte_width) : FixedWidthType(id), width_(byte_width) {}
  /// Compares the width.
  bool ParamsEqual(const DataType& other) const override;
  int32_t width_;  ///< Bytes per value.
};

/// Decimals store a two's complement little-endian integer of bit_width bits;
/// the logical value is that integer times 10^-scale. alkaid/decimal.h
/// converts them to and from text.
class ALKAID_EXPORT DecimalType : public FixedSizeBinaryType {
 public:
  /// Maximum number of significant decimal digits of the values.
  int32_t precision() const { return precision_; }
  /// Power of ten the stored integer is divided by; may be negative or
  /// larger than the precision.
  int32_t scale() const { return scale_; }
  /// "decimalN(precision, scale)", e.g. "decimal128(10, 2)".
  std::string ToString() const override;
  /// Largest precision representable at this width (9, 18, 38, 76); 0 for an
  /// id that is not a decimal.
  static int32_t MaxPrecision(TypeId id);

 protected:
  /// For DecimalTypeOf; does not check precision or scale.
  DecimalType(TypeId id, int32_t byte_width, int32_t precision, int32_t scale)
      : FixedSizeBinaryType(id, byte_width), precision_(precision), scale_(scale) {}
  /// Compares precision and scale (the width is implied by the id).
  bool ParamsEqual(const DataType& other) const override;
  int32_t precision_;  ///< See precision().
  int32_t scale_;      ///< See scale().
};

/// One decimal width; instantiated as Decimal32Type, Decimal64Type,
/// Decimal128Type and Decimal256Type.
/// @tparam kId the decimal TypeId
/// @tparam kBytes bytes per value (4, 8, 16 or 32)
template <TypeId kId, int kBytes>
class DecimalTypeOf final : public DecimalType {
 public:
  static constexpr TypeId type_id = kId;       ///< Compile-time id.
  static constexpr int kByteWidth = kBytes;  ///< Bytes per value.
  /// Unchecked: precision should be in [1, MaxPrecision(kId)] (use
  /// MakeDecimal on untrusted input).
  DecimalTypeOf(int32_t precision, int32_t scale)
      : DecimalType(kId, kBytes, precision, scale) {}
  /// "decimal32", "decimal64", "decimal128" or "decimal256".
  std::string name() const override { return TypeIdName(kId); }
};

/// Decimal in a 4-byte integer; precision 1 to 9.
using Decimal32Type = DecimalTypeOf<TypeId::kDecimal32, 4>;
/// Decimal in an 8-byte integer; precision 1 to 18.
using Decimal64Type = DecimalTypeOf<TypeId::kDecimal64, 8>;
/// Decimal in a 16-byte integer; precision 1 to 38.
using Decimal128Type = DecimalTypeOf<TypeId::kDecimal128, 16>;
/// Decimal in a 32-byte integer; precision 1 to 76.
using Decimal256Type = DecimalTypeOf<TypeId::kDecimal256, 32>;

/// Checked construction of any decimal width: 1 <= precision <= max for the width.
/// @param bit_width 32, 64, 128 or 256
/// @param precision significant decimal digits, 1 to 9 / 18 / 38 / 76 for the width
/// @param scale power of ten the stored integer is divided by (any value)
/// @return the decimal type, or Invalid for another width or a precision out of range
ALKAID_EXPORT Result<DataTypePtr> MakeDecimal(int bit_width, int32_t precision, int32_t scale);

}  // namespace alkaid
