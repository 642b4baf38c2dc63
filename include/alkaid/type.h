// The Arrow type system: data types with their parameters, fields, schemas
// and ordered key-value metadata.
//
// Types are immutable and shared (std::shared_ptr<DataType>). Concrete type
// classes carry parameters only; anything that dispatches on the type goes
// through VisitTypeInline in alkaid/visit_type.h.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "alkaid/export.h"
#include "alkaid/status.h"

namespace alkaid {

// Ids of every data type. Values are ours, not the Flatbuffers ones.
enum class TypeId : int8_t {
  kNull,
  kBool,
  kUInt8,
  kInt8,
  kUInt16,
  kInt16,
  kUInt32,
  kInt32,
  kUInt64,
  kInt64,
  kHalfFloat,
  kFloat,
  kDouble,
  kDecimal32,
  kDecimal64,
  kDecimal128,
  kDecimal256,
  kDate32,
  kDate64,
  kTime32,
  kTime64,
  kTimestamp,
  kDuration,
  kIntervalMonths,
  kIntervalDayTime,
  kIntervalMonthDayNano,
  kFixedSizeBinary,
  kBinary,
  kString,
  kLargeBinary,
  kLargeString,
  kBinaryView,
  kStringView,
  kList,
  kLargeList,
  kListView,
  kLargeListView,
  kFixedSizeList,
  kStruct,
  kMap,
  kSparseUnion,
  kDenseUnion,
  kDictionary,
  kRunEndEncoded,
  kExtension,
};

ALKAID_EXPORT const char* TypeIdName(TypeId id);

enum class TimeUnit : int8_t { kSecond = 0, kMilli = 1, kMicro = 2, kNano = 3 };
ALKAID_EXPORT const char* TimeUnitName(TimeUnit unit);  // "s", "ms", "us", "ns"

enum class UnionMode : int8_t { kSparse = 0, kDense = 1 };

enum class Endianness : int8_t { kLittle = 0, kBig = 1 };
constexpr Endianness NativeEndianness() {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return Endianness::kBig;
#else
  return Endianness::kLittle;
#endif
}

class DataType;
class Field;
class Schema;
using DataTypePtr = std::shared_ptr<DataType>;
using FieldPtr = std::shared_ptr<Field>;
using FieldVector = std::vector<FieldPtr>;
using SchemaPtr = std::shared_ptr<Schema>;

// ---------------------------------------------------------------------------
// Ordered key-value metadata (keys may repeat; order is preserved).

class ALKAID_EXPORT KeyValueMetadata {
 public:
  KeyValueMetadata() = default;
  KeyValueMetadata(std::vector<std::string> keys, std::vector<std::string> values);
  static std::shared_ptr<const KeyValueMetadata> Make(
      std::vector<std::pair<std::string, std::string>> pairs);

  int64_t size() const { return static_cast<int64_t>(keys_.size()); }
  const std::string& key(int64_t i) const { return keys_[static_cast<size_t>(i)]; }
  const std::string& value(int64_t i) const { return values_[static_cast<size_t>(i)]; }
  const std::vector<std::string>& keys() const { return keys_; }
  const std::vector<std::string>& values() const { return values_; }

  // Index of the first entry with this key, or -1.
  int64_t FindKey(std::string_view key) const;
  bool Contains(std::string_view key) const { return FindKey(key) >= 0; }
  Result<std::string> Get(std::string_view key) const;

  void Append(std::string key, std::string value);
  // Replaces the first entry with this key, or appends.
  void Set(std::string key, std::string value);
  // A copy without the entries whose keys are listed.
  std::shared_ptr<KeyValueMetadata> Without(const std::vector<std::string>& keys) const;
  std::shared_ptr<KeyValueMetadata> Copy() const;

  // Same pairs in the same order.
  bool Equals(const KeyValueMetadata& other) const;
  std::string ToString() const;

 private:
  std::vector<std::string> keys_;
  std::vector<std::string> values_;
};
using MetadataPtr = std::shared_ptr<const KeyValueMetadata>;

// Null and empty metadata compare equal.
ALKAID_EXPORT bool MetadataEquals(const MetadataPtr& a, const MetadataPtr& b);

// ---------------------------------------------------------------------------
// Physical layout of a type: what each buffer of an ArrayData holds.

struct ALKAID_EXPORT BufferSpec {
  enum Kind : int8_t {
    kValidity,      // a bitmap, one bit per slot
    kBitmapValues,  // boolean values, one bit per slot
    kFixedWidth,    // byte_width bytes per slot
    kOffsets,       // (length + 1) offsets of byte_width bytes
    kSizes,         // length sizes of byte_width bytes (list views)
    kTypeIds,       // one int8 per slot (unions)
    kViews,         // 16-byte views
    kData,          // bytes of variable size (binary data)
  };
  Kind kind;
  int byte_width = 0;  // for kFixedWidth, kOffsets, kSizes
};

struct ALKAID_EXPORT DataTypeLayout {
  std::vector<BufferSpec> buffers;
  // Binary/utf8 views have any number of data buffers after the fixed ones.
  bool variadic_data = false;
  bool has_validity() const { return !buffers.empty() && buffers[0].kind == BufferSpec::kValidity; }
};

// ---------------------------------------------------------------------------
// DataType

class ALKAID_EXPORT DataType : public std::enable_shared_from_this<DataType> {
 public:
  explicit DataType(TypeId id) : id_(id) {}
  virtual ~DataType();
  DataType(const DataType&) = delete;
  DataType& operator=(const DataType&) = delete;

  TypeId id() const { return id_; }
  // Child fields of nested types (list item, struct members, union members,
  // map entries, run_ends + values); empty for other types.
  const FieldVector& fields() const { return children_; }
  int num_fields() const { return static_cast<int>(children_.size()); }
  const FieldPtr& field(int i) const { return children_[static_cast<size_t>(i)]; }

  // Short lower-case name of the kind of type: "int32", "list", "timestamp".
  virtual std::string name() const = 0;
  // Full notation with parameters: "timestamp[ms, tz=UTC]", "list<item: int32>".
  virtual std::string ToString() const = 0;
  // The buffers of this type's arrays. Computed once per type instance:
  // readers and validators ask for it for every array they touch.
  // After the first call this is one acquire load (no call_once round trip).
  const DataTypeLayout& layout() const {
    const DataTypeLayout* cached = layout_.load(std::memory_order_acquire);
    return cached != nullptr ? *cached : CacheLayout();
  }

  // Structural equality. Names of struct/union/map children are compared;
  // the item name of list-like types is not (conventions differ between
  // implementations). Field metadata is compared only when asked.
  bool Equals(const DataType& other, bool check_metadata = false) const;
  bool Equals(const DataTypePtr& other, bool check_metadata = false) const {
    return other != nullptr && Equals(*other, check_metadata);
  }

  // Bits per slot of the main values buffer for fixed-width types, else -1.
  virtual int bit_width() const { return -1; }
  int byte_width() const { int b = bit_width(); return b > 0 ? b / 8 : -1; }

  // Classification helpers.
  bool is_integer() const;
  bool is_signed_integer() const;
  bool is_floating() const;
  bool is_decimal() const;
  bool is_nested() const { return !children_.empty() || id_ == TypeId::kStruct; }
  bool is_union() const { return id_ == TypeId::kSparseUnion || id_ == TypeId::kDenseUnion; }
  bool is_binary_like() const;  // binary, utf8 and their large forms
  bool is_view() const { return id_ == TypeId::kBinaryView || id_ == TypeId::kStringView; }
  bool is_utf8() const {
    return id_ == TypeId::kString || id_ == TypeId::kLargeString || id_ == TypeId::kStringView;
  }

 protected:
  // Parameter comparison beyond id and children; `other` has the same id.
  virtual bool ParamsEqual(const DataType& other) const {
    (void)other;
    return true;
  }
  // Whether child names take part in equality.
  virtual bool ChildNamesMatter() const { return true; }
  virtual DataTypeLayout ComputeLayout() const = 0;

  TypeId id_;
  FieldVector children_;

 private:
  const DataTypeLayout& CacheLayout() const;

  // Owned; published once (concurrent first callers race, one wins).
  mutable std::atomic<const DataTypeLayout*> layout_{nullptr};
};

// ---------------------------------------------------------------------------
// Field and Schema

class ALKAID_EXPORT Field {
 public:
  Field(std::string name, DataTypePtr type, bool nullable = true, MetadataPtr metadata = nullptr)
      : name_(std::move(name)), type_(std::move(type)), nullable_(nullable),
        metadata_(std::move(metadata)) {}

  const std::string& name() const { return name_; }
  const DataTypePtr& type() const { return type_; }
  bool nullable() const { return nullable_; }
  const MetadataPtr& metadata() const { return metadata_; }

  FieldPtr WithName(std::string name) const;
  FieldPtr WithType(DataTypePtr type) const;
  FieldPtr WithNullable(bool nullable) const;
  FieldPtr WithMetadata(MetadataPtr metadata) const;

  bool Equals(const Field& other, bool check_metadata = false) const;
  bool Equals(const FieldPtr& other, bool check_metadata = false) const {
    return other != nullptr && Equals(*other, check_metadata);
  }
  // "name: type" plus " not null" when not nullable.
  std::string ToString(bool show_metadata = false) const;

 private:
  std::string name_;
  DataTypePtr type_;
  bool nullable_;
  MetadataPtr metadata_;
};

class ALKAID_EXPORT Schema {
 public:
  explicit Schema(FieldVector fields, MetadataPtr metadata = nullptr,
                  Endianness endianness = Endianness::kLittle)
      : fields_(std::move(fields)), metadata_(std::move(metadata)), endianness_(endianness) {}

  const FieldVector& fields() const { return fields_; }
  int num_fields() const { return static_cast<int>(fields_.size()); }
  const FieldPtr& field(int i) const { return fields_[static_cast<size_t>(i)]; }
  const MetadataPtr& metadata() const { return metadata_; }
  Endianness endianness() const { return endianness_; }

  // Index of the first field with this name, or -1.
  int GetFieldIndex(std::string_view name) const;
  FieldPtr GetFieldByName(std::string_view name) const;

  SchemaPtr WithMetadata(MetadataPtr metadata) const;
  SchemaPtr WithEndianness(Endianness endianness) const;
  // A schema of the listed fields, in the order given.
  Result<SchemaPtr> Project(const std::vector<int>& indices) const;

  bool Equals(const Schema& other, bool check_metadata = false) const;
  std::string ToString(bool show_metadata = false) const;

 private:
  FieldVector fields_;
  MetadataPtr metadata_;
  Endianness endianness_;
};

// ---------------------------------------------------------------------------
// Concrete types

class ALKAID_EXPORT NullType final : public DataType {
 public:
  NullType() : DataType(TypeId::kNull) {}
  std::string name() const override { return "null"; }
  std::string ToString() const override { return "null"; }
  DataTypeLayout ComputeLayout() const override { return {}; }
};

class ALKAID_EXPORT BooleanType final : public DataType {
 public:
  using c_type = bool;
  BooleanType() : DataType(TypeId::kBool) {}
  std::string name() const override { return "bool"; }
  std::string ToString() const override { return "bool"; }
  DataTypeLayout ComputeLayout() const override;
  int bit_width() const override { return 1; }
};

// Base of every type whose slots are stored as fixed-width values.
class ALKAID_EXPORT FixedWidthType : public DataType {
 public:
  using DataType::DataType;
  DataTypeLayout ComputeLayout() const override;
};

// Numbers, dates, times and intervals: a C type and a fixed name.
template <typename Derived, typename CType, TypeId kId>
class PrimitiveCType : public FixedWidthType {
 public:
  using c_type = CType;
  static constexpr TypeId type_id = kId;
  PrimitiveCType() : FixedWidthType(kId) {}
  int bit_width() const override { return static_cast<int>(sizeof(CType) * 8); }
  std::string name() const override { return Derived::kName; }
  std::string ToString() const override { return Derived::kName; }
};

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

// Value layouts of the two composite interval types.
struct DayTimeInterval {
  int32_t days;
  int32_t milliseconds;
  bool operator==(const DayTimeInterval&) const = default;
};
struct ALKAID_EXPORT MonthDayNanoInterval {
  int32_t months;
  int32_t days;
  int64_t nanoseconds;
  bool operator==(const MonthDayNanoInterval&) const = default;
};

class ALKAID_EXPORT DayTimeIntervalType final
    : public PrimitiveCType<DayTimeIntervalType, DayTimeInterval, TypeId::kIntervalDayTime> {
 public:
  static constexpr const char* kName = "day_time_interval";
};
class ALKAID_EXPORT MonthDayNanoIntervalType final
    : public PrimitiveCType<MonthDayNanoIntervalType, MonthDayNanoInterval,
                            TypeId::kIntervalMonthDayNano> {
 public:
  static constexpr const char* kName = "month_day_nano_interval";
};

// Types parameterized by a time unit.
class ALKAID_EXPORT TemporalUnitType : public FixedWidthType {
 public:
  TemporalUnitType(TypeId id, TimeUnit unit) : FixedWidthType(id), unit_(unit) {}
  TimeUnit unit() const { return unit_; }

 protected:
  bool ParamsEqual(const DataType& other) const override;
  TimeUnit unit_;
};

class ALKAID_EXPORT Time32Type final : public TemporalUnitType {
 public:
  using c_type = int32_t;
  static constexpr TypeId type_id = TypeId::kTime32;
  explicit Time32Type(TimeUnit unit = TimeUnit::kMilli) : TemporalUnitType(type_id, unit) {}
  // Only seconds and milliseconds fit a 32-bit time of day.
  static Result<DataTypePtr> Make(TimeUnit unit);
  int bit_width() const override { return 32; }
  std::string name() const override { return "time32"; }
  std::string ToString() const override;
};

class ALKAID_EXPORT Time64Type final : public TemporalUnitType {
 public:
  using c_type = int64_t;
  static constexpr TypeId type_id = TypeId::kTime64;
  explicit Time64Type(TimeUnit unit = TimeUnit::kNano) : TemporalUnitType(type_id, unit) {}
  // Only microseconds and nanoseconds.
  static Result<DataTypePtr> Make(TimeUnit unit);
  int bit_width() const override { return 64; }
  std::string name() const override { return "time64"; }
  std::string ToString() const override;
};

class ALKAID_EXPORT TimestampType final : public TemporalUnitType {
 public:
  using c_type = int64_t;
  static constexpr TypeId type_id = TypeId::kTimestamp;
  explicit TimestampType(TimeUnit unit, std::string timezone = "")
      : TemporalUnitType(type_id, unit), timezone_(std::move(timezone)) {}
  const std::string& timezone() const { return timezone_; }
  int bit_width() const override { return 64; }
  std::string name() const override { return "timestamp"; }
  std::string ToString() const override;

 protected:
  bool ParamsEqual(const DataType& other) const override;

 private:
  std::string timezone_;
};

class ALKAID_EXPORT DurationType final : public TemporalUnitType {
 public:
  using c_type = int64_t;
  static constexpr TypeId type_id = TypeId::kDuration;
  explicit DurationType(TimeUnit unit) : TemporalUnitType(type_id, unit) {}
  int bit_width() const override { return 64; }
  std::string name() const override { return "duration"; }
  std::string ToString() const override;
};

class ALKAID_EXPORT FixedSizeBinaryType : public FixedWidthType {
 public:
  static constexpr TypeId type_id = TypeId::kFixedSizeBinary;
  explicit FixedSizeBinaryType(int32_t byte_width)
      : FixedWidthType(type_id), width_(byte_width) {}
  static Result<DataTypePtr> Make(int32_t byte_width);
  int32_t byte_width() const { return width_; }
  int bit_width() const override { return width_ * 8; }
  std::string name() const override { return "fixed_size_binary"; }
  std::string ToString() const override;

 protected:
  FixedSizeBinaryType(TypeId id, int32_t byte_width) : FixedWidthType(id), width_(byte_width) {}
  bool ParamsEqual(const DataType& other) const override;
  int32_t width_;
};

// Decimals store a two's complement little-endian integer of bit_width bits;
// the logical value is that integer times 10^-scale.
class ALKAID_EXPORT DecimalType : public FixedSizeBinaryType {
 public:
  int32_t precision() const { return precision_; }
  int32_t scale() const { return scale_; }
  std::string ToString() const override;
  // Largest precision representable at this width (9, 18, 38, 76).
  static int32_t MaxPrecision(TypeId id);

 protected:
  DecimalType(TypeId id, int32_t byte_width, int32_t precision, int32_t scale)
      : FixedSizeBinaryType(id, byte_width), precision_(precision), scale_(scale) {}
  bool ParamsEqual(const DataType& other) const override;
  int32_t precision_;
  int32_t scale_;
};

template <TypeId kId, int kBytes, const char* kTypeName>
class DecimalTypeOf final : public DecimalType {
 public:
  static constexpr TypeId type_id = kId;
  static constexpr int kByteWidth = kBytes;
  DecimalTypeOf(int32_t precision, int32_t scale)
      : DecimalType(kId, kBytes, precision, scale) {}
  std::string name() const override { return kTypeName; }
};

namespace internal {
inline constexpr char kDecimal32Name[] = "decimal32";
inline constexpr char kDecimal64Name[] = "decimal64";
inline constexpr char kDecimal128Name[] = "decimal128";
inline constexpr char kDecimal256Name[] = "decimal256";
}  // namespace internal

using Decimal32Type = DecimalTypeOf<TypeId::kDecimal32, 4, internal::kDecimal32Name>;
using Decimal64Type = DecimalTypeOf<TypeId::kDecimal64, 8, internal::kDecimal64Name>;
using Decimal128Type = DecimalTypeOf<TypeId::kDecimal128, 16, internal::kDecimal128Name>;
using Decimal256Type = DecimalTypeOf<TypeId::kDecimal256, 32, internal::kDecimal256Name>;

// Checked construction of any decimal width: 1 <= precision <= max for the width.
ALKAID_EXPORT Result<DataTypePtr> MakeDecimal(int bit_width, int32_t precision, int32_t scale);

// Variable-size binary with 32- or 64-bit offsets, and utf8 over the same layout.
template <typename Derived, typename OffsetT, TypeId kId>
class BaseBinaryTypeOf : public DataType {
 public:
  using offset_type = OffsetT;
  static constexpr TypeId type_id = kId;
  BaseBinaryTypeOf() : DataType(kId) {}
  std::string name() const override { return Derived::kName; }
  std::string ToString() const override { return Derived::kName; }
  DataTypeLayout ComputeLayout() const override {
    return {{{BufferSpec::kValidity},
             {BufferSpec::kOffsets, static_cast<int>(sizeof(OffsetT))},
             {BufferSpec::kData}},
            false};
  }
};

class ALKAID_EXPORT BinaryType final : public BaseBinaryTypeOf<BinaryType, int32_t, TypeId::kBinary> {
 public:
  static constexpr const char* kName = "binary";
};
class ALKAID_EXPORT StringType final : public BaseBinaryTypeOf<StringType, int32_t, TypeId::kString> {
 public:
  static constexpr const char* kName = "string";
};
class ALKAID_EXPORT LargeBinaryType final
    : public BaseBinaryTypeOf<LargeBinaryType, int64_t, TypeId::kLargeBinary> {
 public:
  static constexpr const char* kName = "large_binary";
};
class ALKAID_EXPORT LargeStringType final
    : public BaseBinaryTypeOf<LargeStringType, int64_t, TypeId::kLargeString> {
 public:
  static constexpr const char* kName = "large_string";
};

// One 16-byte view per slot. Strings of up to 12 bytes are inline; longer
// ones keep a 4-byte prefix plus (buffer index, offset) into a data buffer.
union BinaryViewValue {
  struct {
    int32_t size;
    uint8_t data[12];
  } inlined;
  struct {
    int32_t size;
    uint8_t prefix[4];
    int32_t buffer_index;
    int32_t offset;
  } ref;
  static constexpr int32_t kInlineSize = 12;
  static constexpr int32_t kPrefixSize = 4;
  int32_t size() const { return inlined.size; }
  bool is_inline() const { return inlined.size <= kInlineSize; }
};
static_assert(sizeof(BinaryViewValue) == 16);

template <typename Derived, TypeId kId>
class BinaryViewTypeOf : public DataType {
 public:
  static constexpr TypeId type_id = kId;
  using c_type = BinaryViewValue;
  BinaryViewTypeOf() : DataType(kId) {}
  std::string name() const override { return Derived::kName; }
  std::string ToString() const override { return Derived::kName; }
  int bit_width() const override { return 128; }
  DataTypeLayout ComputeLayout() const override {
    return {{{BufferSpec::kValidity}, {BufferSpec::kViews, 16}}, true};
  }
};
class ALKAID_EXPORT BinaryViewType final : public BinaryViewTypeOf<BinaryViewType, TypeId::kBinaryView> {
 public:
  static constexpr const char* kName = "binary_view";
};
class ALKAID_EXPORT StringViewType final : public BinaryViewTypeOf<StringViewType, TypeId::kStringView> {
 public:
  static constexpr const char* kName = "string_view";
};

// Base of list, large list, list view, large list view, fixed-size list and map.
class ALKAID_EXPORT BaseListType : public DataType {
 public:
  BaseListType(TypeId id, FieldPtr value_field) : DataType(id) {
    children_.push_back(std::move(value_field));
  }
  const FieldPtr& value_field() const { return children_[0]; }
  const DataTypePtr& value_type() const;

 protected:
  bool ChildNamesMatter() const override { return false; }
};

template <typename Derived, typename OffsetT, TypeId kId, bool kView>
class ListTypeOf : public BaseListType {
 public:
  using offset_type = OffsetT;
  static constexpr TypeId type_id = kId;
  static constexpr bool is_list_view = kView;
  explicit ListTypeOf(FieldPtr value_field) : BaseListType(kId, std::move(value_field)) {}
  explicit ListTypeOf(DataTypePtr value_type)
      : BaseListType(kId, std::make_shared<Field>("item", std::move(value_type))) {}
  std::string name() const override { return Derived::kName; }
  std::string ToString() const override;
  DataTypeLayout ComputeLayout() const override {
    DataTypeLayout l{{{BufferSpec::kValidity},
                      {BufferSpec::kOffsets, static_cast<int>(sizeof(OffsetT))}},
                     false};
    if (kView) l.buffers.push_back({BufferSpec::kSizes, static_cast<int>(sizeof(OffsetT))});
    return l;
  }
};

class ALKAID_EXPORT ListType : public ListTypeOf<ListType, int32_t, TypeId::kList, false> {
 public:
  static constexpr const char* kName = "list";
  using ListTypeOf::ListTypeOf;

 protected:
  // Map reuses the list layout under its own id.
  ListType(TypeId id, FieldPtr value_field) : ListTypeOf(std::move(value_field)) { id_ = id; }
};
class ALKAID_EXPORT LargeListType final : public ListTypeOf<LargeListType, int64_t, TypeId::kLargeList, false> {
 public:
  static constexpr const char* kName = "large_list";
  using ListTypeOf::ListTypeOf;
};
class ALKAID_EXPORT ListViewType final : public ListTypeOf<ListViewType, int32_t, TypeId::kListView, true> {
 public:
  static constexpr const char* kName = "list_view";
  using ListTypeOf::ListTypeOf;
};
class ALKAID_EXPORT LargeListViewType final
    : public ListTypeOf<LargeListViewType, int64_t, TypeId::kLargeListView, true> {
 public:
  static constexpr const char* kName = "large_list_view";
  using ListTypeOf::ListTypeOf;
};

// map<key, item>: a list of non-null struct<key: K not null, value: V>.
class ALKAID_EXPORT MapType final : public ListType {
 public:
  static constexpr TypeId type_id = TypeId::kMap;
  MapType(DataTypePtr key_type, DataTypePtr item_type, bool keys_sorted = false);
  MapType(FieldPtr key_field, FieldPtr item_field, bool keys_sorted = false);
  // From an entries field that must be a non-null struct of two children with
  // a non-null key; names are kept as given (non-canonical names round-trip).
  static Result<DataTypePtr> Make(FieldPtr entries, bool keys_sorted);

  const FieldPtr& key_field() const { return value_type()->field(0); }
  const FieldPtr& item_field() const { return value_type()->field(1); }
  const DataTypePtr& key_type() const { return key_field()->type(); }
  const DataTypePtr& item_type() const { return item_field()->type(); }
  bool keys_sorted() const { return keys_sorted_; }
  std::string name() const override { return "map"; }
  std::string ToString() const override;

 protected:
  bool ParamsEqual(const DataType& other) const override;
  bool ChildNamesMatter() const override { return false; }

 private:
  MapType(FieldPtr entries, bool keys_sorted, int);
  bool keys_sorted_;
};

class ALKAID_EXPORT FixedSizeListType final : public BaseListType {
 public:
  static constexpr TypeId type_id = TypeId::kFixedSizeList;
  FixedSizeListType(FieldPtr value_field, int32_t list_size)
      : BaseListType(type_id, std::move(value_field)), list_size_(list_size) {}
  FixedSizeListType(DataTypePtr value_type, int32_t list_size)
      : FixedSizeListType(std::make_shared<Field>("item", std::move(value_type)), list_size) {}
  static Result<DataTypePtr> Make(FieldPtr value_field, int32_t list_size);
  int32_t list_size() const { return list_size_; }
  std::string name() const override { return "fixed_size_list"; }
  std::string ToString() const override;
  DataTypeLayout ComputeLayout() const override { return {{{BufferSpec::kValidity}}, false}; }

 protected:
  bool ParamsEqual(const DataType& other) const override;

 private:
  int32_t list_size_;
};

class ALKAID_EXPORT StructType final : public DataType {
 public:
  static constexpr TypeId type_id = TypeId::kStruct;
  explicit StructType(FieldVector fields) : DataType(type_id) { children_ = std::move(fields); }
  // Index of the first child with this name, or -1.
  int GetFieldIndex(std::string_view name) const;
  FieldPtr GetFieldByName(std::string_view name) const;
  std::string name() const override { return "struct"; }
  std::string ToString() const override;
  DataTypeLayout ComputeLayout() const override { return {{{BufferSpec::kValidity}}, false}; }
};

class ALKAID_EXPORT UnionType : public DataType {
 public:
  static constexpr int kMaxTypeCode = 127;
  static constexpr int kInvalidChild = -1;

  // type_codes[i] is the id written in the types buffer for child i.
  const std::vector<int8_t>& type_codes() const { return type_codes_; }
  // Child index for a type code, or kInvalidChild when the code is undeclared.
  int child_index(int8_t code) const {
    return code < 0 ? kInvalidChild : child_of_code_[static_cast<size_t>(code)];
  }
  const std::vector<int>& child_of_code() const { return child_of_code_; }
  UnionMode mode() const { return id_ == TypeId::kSparseUnion ? UnionMode::kSparse : UnionMode::kDense; }
  std::string ToString() const override;
  DataTypeLayout ComputeLayout() const override;

  // Checks type codes (0..127, distinct, one per child) and builds the type.
  static Result<DataTypePtr> Make(FieldVector fields, std::vector<int8_t> type_codes,
                                  UnionMode mode);

 protected:
  UnionType(TypeId id, FieldVector fields, std::vector<int8_t> type_codes);
  bool ParamsEqual(const DataType& other) const override;

 private:
  std::vector<int8_t> type_codes_;
  std::vector<int> child_of_code_;  // 128 entries
};

class ALKAID_EXPORT SparseUnionType final : public UnionType {
 public:
  static constexpr TypeId type_id = TypeId::kSparseUnion;
  // Empty type_codes means 0, 1, 2, ...
  explicit SparseUnionType(FieldVector fields, std::vector<int8_t> type_codes = {});
  std::string name() const override { return "sparse_union"; }
};

class ALKAID_EXPORT DenseUnionType final : public UnionType {
 public:
  static constexpr TypeId type_id = TypeId::kDenseUnion;
  explicit DenseUnionType(FieldVector fields, std::vector<int8_t> type_codes = {});
  std::string name() const override { return "dense_union"; }
};

class ALKAID_EXPORT DictionaryType final : public FixedWidthType {
 public:
  static constexpr TypeId type_id = TypeId::kDictionary;
  DictionaryType(DataTypePtr index_type, DataTypePtr value_type, bool ordered = false)
      : FixedWidthType(type_id), index_type_(std::move(index_type)),
        value_type_(std::move(value_type)), ordered_(ordered) {}
  // Index type must be an integer type.
  static Result<DataTypePtr> Make(DataTypePtr index_type, DataTypePtr value_type,
                                  bool ordered = false);
  const DataTypePtr& index_type() const { return index_type_; }
  const DataTypePtr& value_type() const { return value_type_; }
  bool ordered() const { return ordered_; }
  int bit_width() const override { return index_type_->bit_width(); }
  std::string name() const override { return "dictionary"; }
  std::string ToString() const override;

 protected:
  bool ParamsEqual(const DataType& other) const override;

 private:
  DataTypePtr index_type_;
  DataTypePtr value_type_;
  bool ordered_;
};

class ALKAID_EXPORT RunEndEncodedType final : public DataType {
 public:
  static constexpr TypeId type_id = TypeId::kRunEndEncoded;
  RunEndEncodedType(DataTypePtr run_end_type, DataTypePtr value_type);
  // Run end type must be int16, int32 or int64.
  static Result<DataTypePtr> Make(DataTypePtr run_end_type, DataTypePtr value_type);
  static Result<DataTypePtr> Make(FieldPtr run_ends_field, FieldPtr values_field);
  const DataTypePtr& run_end_type() const { return children_[0]->type(); }
  const DataTypePtr& value_type() const { return children_[1]->type(); }
  std::string name() const override { return "run_end_encoded"; }
  std::string ToString() const override;
  DataTypeLayout ComputeLayout() const override { return {}; }

 protected:
  bool ChildNamesMatter() const override { return false; }

 private:
  RunEndEncodedType(FieldPtr run_ends, FieldPtr values, int);
};

// An extension type: a storage type plus a name and serialized parameters.
// Concrete extension types derive from this; see alkaid/extension.h for the
// registry that turns IPC field metadata into extension types.
class ALKAID_EXPORT ExtensionType : public DataType {
 public:
  static constexpr TypeId type_id = TypeId::kExtension;
  explicit ExtensionType(DataTypePtr storage_type)
      : DataType(type_id), storage_type_(std::move(storage_type)) {}

  const DataTypePtr& storage_type() const { return storage_type_; }
  virtual std::string extension_name() const = 0;
  // The value of the extension metadata key.
  virtual std::string Serialize() const = 0;
  // Builds an instance of this extension type from storage and metadata.
  virtual Result<DataTypePtr> Deserialize(DataTypePtr storage_type,
                                          const std::string& serialized) const = 0;
  // Equality of extension parameters (storage and name are checked already).
  virtual bool ExtensionEquals(const ExtensionType& other) const;

  std::string name() const override { return "extension"; }
  std::string ToString() const override;
  DataTypeLayout ComputeLayout() const override { return storage_type_->layout(); }
  int bit_width() const override { return storage_type_->bit_width(); }

 protected:
  bool ParamsEqual(const DataType& other) const override;

 private:
  DataTypePtr storage_type_;
};

// ---------------------------------------------------------------------------
// Factories. These trust their arguments; the checked constructors are the
// static Make functions above (used on untrusted input such as IPC).

ALKAID_EXPORT DataTypePtr null();
ALKAID_EXPORT DataTypePtr boolean();
ALKAID_EXPORT DataTypePtr int8();
ALKAID_EXPORT DataTypePtr int16();
ALKAID_EXPORT DataTypePtr int32();
ALKAID_EXPORT DataTypePtr int64();
ALKAID_EXPORT DataTypePtr uint8();
ALKAID_EXPORT DataTypePtr uint16();
ALKAID_EXPORT DataTypePtr uint32();
ALKAID_EXPORT DataTypePtr uint64();
ALKAID_EXPORT DataTypePtr float16();
ALKAID_EXPORT DataTypePtr float32();
ALKAID_EXPORT DataTypePtr float64();
ALKAID_EXPORT DataTypePtr decimal32(int32_t precision, int32_t scale);
ALKAID_EXPORT DataTypePtr decimal64(int32_t precision, int32_t scale);
ALKAID_EXPORT DataTypePtr decimal128(int32_t precision, int32_t scale);
ALKAID_EXPORT DataTypePtr decimal256(int32_t precision, int32_t scale);
ALKAID_EXPORT DataTypePtr date32();
ALKAID_EXPORT DataTypePtr date64();
ALKAID_EXPORT DataTypePtr time32(TimeUnit unit);
ALKAID_EXPORT DataTypePtr time64(TimeUnit unit);
ALKAID_EXPORT DataTypePtr timestamp(TimeUnit unit, std::string timezone = "");
ALKAID_EXPORT DataTypePtr duration(TimeUnit unit);
ALKAID_EXPORT DataTypePtr month_interval();
ALKAID_EXPORT DataTypePtr day_time_interval();
ALKAID_EXPORT DataTypePtr month_day_nano_interval();
ALKAID_EXPORT DataTypePtr fixed_size_binary(int32_t byte_width);
ALKAID_EXPORT DataTypePtr binary();
ALKAID_EXPORT DataTypePtr utf8();
ALKAID_EXPORT DataTypePtr large_binary();
ALKAID_EXPORT DataTypePtr large_utf8();
ALKAID_EXPORT DataTypePtr binary_view();
ALKAID_EXPORT DataTypePtr utf8_view();
ALKAID_EXPORT DataTypePtr list(DataTypePtr value_type);
ALKAID_EXPORT DataTypePtr list(FieldPtr value_field);
ALKAID_EXPORT DataTypePtr large_list(DataTypePtr value_type);
ALKAID_EXPORT DataTypePtr large_list(FieldPtr value_field);
ALKAID_EXPORT DataTypePtr list_view(DataTypePtr value_type);
ALKAID_EXPORT DataTypePtr list_view(FieldPtr value_field);
ALKAID_EXPORT DataTypePtr large_list_view(DataTypePtr value_type);
ALKAID_EXPORT DataTypePtr large_list_view(FieldPtr value_field);
ALKAID_EXPORT DataTypePtr fixed_size_list(DataTypePtr value_type, int32_t list_size);
ALKAID_EXPORT DataTypePtr fixed_size_list(FieldPtr value_field, int32_t list_size);
ALKAID_EXPORT DataTypePtr struct_(FieldVector fields);
ALKAID_EXPORT DataTypePtr map(DataTypePtr key_type, DataTypePtr item_type, bool keys_sorted = false);
ALKAID_EXPORT DataTypePtr sparse_union(FieldVector fields, std::vector<int8_t> type_codes = {});
ALKAID_EXPORT DataTypePtr dense_union(FieldVector fields, std::vector<int8_t> type_codes = {});
ALKAID_EXPORT DataTypePtr dictionary(DataTypePtr index_type, DataTypePtr value_type, bool ordered = false);
ALKAID_EXPORT DataTypePtr run_end_encoded(DataTypePtr run_end_type, DataTypePtr value_type);

ALKAID_EXPORT FieldPtr field(std::string name, DataTypePtr type, bool nullable = true,
               MetadataPtr metadata = nullptr);
ALKAID_EXPORT SchemaPtr schema(FieldVector fields, MetadataPtr metadata = nullptr);

// Casting helper for code that has already checked the id.
template <typename T>
const T& checked_cast(const DataType& type) {
  return static_cast<const T&>(type);
}

}  // namespace alkaid
