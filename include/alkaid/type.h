/// @file
/// The Arrow type system: data types with their parameters, fields, schemas
/// and ordered key-value metadata.
///
/// Types are immutable and shared (std::shared_ptr<DataType>). Concrete type
/// classes carry parameters only; anything that dispatches on the type goes
/// through VisitTypeInline in alkaid/visit_type.h.
///
/// Thread safety: DataType, Field and Schema objects never change after
/// construction (the only internal mutation, the cached layout, is published
/// atomically), so every const member function may be called from any number
/// of threads at once. KeyValueMetadata is shared as `const`; its mutators
/// (Append, Set) are for building a new instance owned by one thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "alkaid/visibility.h"
#include "alkaid/status.h"

namespace alkaid {

/// Ids of every data type. Values are ours, not the Flatbuffers ones, so
/// they are not a wire format: do not persist them (IPC writes the
/// Flatbuffers enumeration instead).
enum class TypeId : int8_t {
  kNull,                  ///< No storage at all; every slot is null (NullType).
  kBool,                  ///< One bit per value (BooleanType).
  kUInt8,                 ///< Unsigned 8-bit integer (UInt8Type).
  kInt8,                  ///< Signed 8-bit integer (Int8Type).
  kUInt16,                ///< Unsigned 16-bit integer (UInt16Type).
  kInt16,                 ///< Signed 16-bit integer (Int16Type).
  kUInt32,                ///< Unsigned 32-bit integer (UInt32Type).
  kInt32,                 ///< Signed 32-bit integer (Int32Type).
  kUInt64,                ///< Unsigned 64-bit integer (UInt64Type).
  kInt64,                 ///< Signed 64-bit integer (Int64Type).
  kHalfFloat,             ///< IEEE 754 binary16, stored as raw bits (HalfFloatType).
  kFloat,                 ///< IEEE 754 binary32 (FloatType).
  kDouble,                ///< IEEE 754 binary64 (DoubleType).
  kDecimal32,             ///< Decimal in a 4-byte integer, precision <= 9 (Decimal32Type).
  kDecimal64,             ///< Decimal in an 8-byte integer, precision <= 18 (Decimal64Type).
  kDecimal128,            ///< Decimal in a 16-byte integer, precision <= 38 (Decimal128Type).
  kDecimal256,            ///< Decimal in a 32-byte integer, precision <= 76 (Decimal256Type).
  kDate32,                ///< Days since the UNIX epoch as int32 (Date32Type).
  kDate64,                ///< Milliseconds since the UNIX epoch as int64 (Date64Type).
  kTime32,                ///< Time of day in s or ms as int32 (Time32Type).
  kTime64,                ///< Time of day in us or ns as int64 (Time64Type).
  kTimestamp,             ///< Instant since the UNIX epoch as int64, optional zone (TimestampType).
  kDuration,              ///< Elapsed time as int64 in a TimeUnit (DurationType).
  kIntervalMonths,        ///< Calendar interval in whole months, int32 (MonthIntervalType).
  kIntervalDayTime,       ///< Days plus milliseconds (DayTimeIntervalType).
  kIntervalMonthDayNano,  ///< Months, days and nanoseconds (MonthDayNanoIntervalType).
  kFixedSizeBinary,       ///< Byte strings of one fixed width (FixedSizeBinaryType).
  kBinary,                ///< Byte strings with 32-bit offsets (BinaryType).
  kString,                ///< UTF-8 strings with 32-bit offsets (StringType).
  kLargeBinary,           ///< Byte strings with 64-bit offsets (LargeBinaryType).
  kLargeString,           ///< UTF-8 strings with 64-bit offsets (LargeStringType).
  kBinaryView,            ///< Byte strings as 16-byte views (BinaryViewType).
  kStringView,            ///< UTF-8 strings as 16-byte views (StringViewType).
  kList,                  ///< Lists with 32-bit offsets (ListType).
  kLargeList,             ///< Lists with 64-bit offsets (LargeListType).
  kListView,              ///< Lists as 32-bit offset + size pairs (ListViewType).
  kLargeListView,         ///< Lists as 64-bit offset + size pairs (LargeListViewType).
  kFixedSizeList,         ///< Lists of one fixed length (FixedSizeListType).
  kStruct,                ///< Named children of equal length (StructType).
  kMap,                   ///< Lists of key/value entries (MapType).
  kSparseUnion,           ///< Union whose children are as long as the union (SparseUnionType).
  kDenseUnion,            ///< Union with per-slot offsets into its children (DenseUnionType).
  kDictionary,            ///< Integer indices into a dictionary of values (DictionaryType).
  kRunEndEncoded,         ///< Run ends plus one value per run (RunEndEncodedType).
  kExtension,             ///< User or canonical type over a storage type (ExtensionType).
};

/// Lower-case name of a type id ("int32", "timestamp", "dense_union"), for
/// messages. Returns a static string; never nullptr.
ALKAID_EXPORT const char* TypeIdName(TypeId id);

/// Resolution of times, timestamps and durations. The values match the
/// Arrow Flatbuffers enumeration.
enum class TimeUnit : int8_t {
  kSecond = 0,  ///< Seconds.
  kMilli = 1,   ///< Milliseconds (10^-3 s).
  kMicro = 2,   ///< Microseconds (10^-6 s).
  kNano = 3     ///< Nanoseconds (10^-9 s).
};
/// Abbreviation of a unit as used in type strings: "s", "ms", "us", "ns".
/// Returns a static string.
ALKAID_EXPORT const char* TimeUnitName(TimeUnit unit);

/// How a union lays out its children.
enum class UnionMode : int8_t {
  kSparse = 0,  ///< Every child has the union's length; slot i reads child slot i.
  kDense = 1    ///< An int32 offsets buffer says where in the chosen child slot i is.
};

/// Byte order of the buffers described by a Schema.
enum class Endianness : int8_t {
  kLittle = 0,  ///< Least significant byte first.
  kBig = 1      ///< Most significant byte first.
};
/// Byte order of the machine this code was compiled for.
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
/// Shared, immutable handle to a data type; the usual way types are passed around.
using DataTypePtr = std::shared_ptr<DataType>;
/// Shared, immutable handle to a field.
using FieldPtr = std::shared_ptr<Field>;
/// Ordered list of fields: the children of a nested type or the columns of a schema.
using FieldVector = std::vector<FieldPtr>;
/// Shared, immutable handle to a schema.
using SchemaPtr = std::shared_ptr<Schema>;

// ---------------------------------------------------------------------------
// Ordered key-value metadata (keys may repeat; order is preserved).

/// Ordered list of string key/value pairs attached to a field or a schema.
///
/// Keys may repeat and insertion order is preserved, which is what the IPC
/// format carries. Lookups are linear in the number of entries (metadata is
/// small). Instances are shared as `std::shared_ptr<const KeyValueMetadata>`
/// (MetadataPtr) and must not be mutated once shared; build with Append/Set
/// first, or derive a modified copy with Copy() / Without().
class ALKAID_EXPORT KeyValueMetadata {
 public:
  /// Empty metadata.
  KeyValueMetadata() = default;
  /// Metadata from parallel key and value lists; `keys[i]` pairs with
  /// `values[i]`. Precondition: both vectors have the same size.
  KeyValueMetadata(std::vector<std::string> keys, std::vector<std::string> values);
  /// Shared metadata holding `pairs` in the order given (duplicates kept).
  static std::shared_ptr<const KeyValueMetadata> Make(
      std::vector<std::pair<std::string, std::string>> pairs);

  /// Number of entries, duplicates included.
  int64_t size() const { return static_cast<int64_t>(keys_.size()); }
  /// Key of entry `i`. Precondition: 0 <= i < size() (not checked).
  const std::string& key(int64_t i) const { return keys_[static_cast<size_t>(i)]; }
  /// Value of entry `i`. Precondition: 0 <= i < size() (not checked).
  const std::string& value(int64_t i) const { return values_[static_cast<size_t>(i)]; }
  /// All keys in entry order.
  const std::vector<std::string>& keys() const { return keys_; }
  /// All values in entry order (parallel to keys()).
  const std::vector<std::string>& values() const { return values_; }

  /// Index of the first entry with this key, or -1.
  int64_t FindKey(std::string_view key) const;
  /// Whether any entry has this key.
  bool Contains(std::string_view key) const { return FindKey(key) >= 0; }
  /// Value of the first entry with this key; a KeyError status when absent.
  Result<std::string> Get(std::string_view key) const;

  /// Adds an entry at the end, even if the key is already present.
  void Append(std::string key, std::string value);
  /// Replaces the first entry with this key, or appends.
  void Set(std::string key, std::string value);
  /// A copy without the entries whose keys are listed (every occurrence of
  /// each listed key is dropped; the remaining order is kept).
  std::shared_ptr<KeyValueMetadata> Without(const std::vector<std::string>& keys) const;
  /// A mutable deep copy, e.g. to add entries to metadata that is shared.
  std::shared_ptr<KeyValueMetadata> Copy() const;

  /// Same pairs, compared as a multiset: the order of entries does not
  /// matter (writers emit keys in different orders) but duplicates do.
  bool Equals(const KeyValueMetadata& other) const;
  /// One "\n  key: value" line per entry, for debugging output.
  std::string ToString() const;

 private:
  std::vector<std::string> keys_;
  std::vector<std::string> values_;
};
/// Shared, immutable metadata; nullptr means "no metadata".
using MetadataPtr = std::shared_ptr<const KeyValueMetadata>;

/// Metadata equality where null and empty metadata compare equal; otherwise
/// as KeyValueMetadata::Equals.
ALKAID_EXPORT bool MetadataEquals(const MetadataPtr& a, const MetadataPtr& b);

// ---------------------------------------------------------------------------
// Physical layout of a type: what each buffer of an ArrayData holds.

/// Description of one buffer of an array: what it holds, how wide its
/// elements are, the alignment typed access needs and what a change of byte
/// order does to it. A list of these (DataTypeLayout) is the one statement of
/// a type's physical layout: the IPC reader and writer, validation and the
/// endian swap all take their buffer rules from it.
struct ALKAID_EXPORT BufferSpec {
  /// What a buffer holds.
  enum Kind : int8_t {
    kValidity,      ///< A bitmap, one bit per slot (1 = valid); may be absent when no nulls.
    kBitmapValues,  ///< Boolean values, one bit per slot.
    kFixedWidth,    ///< byte_width bytes per slot.
    kOffsets,       ///< Offsets of byte_width bytes: length + 1 of them when
                    ///< offsets_plus_one, else one per slot (list views).
    kSizes,         ///< length sizes of byte_width bytes (list views).
    kTypeIds,       ///< One int8 per slot (unions).
    kViews,         ///< 16-byte views (see BinaryViewValue).
    kData,          ///< Bytes of variable size (binary data), addressed by offsets or views.
  };
  /// What error messages call a buffer of `kind`: "validity bitmap", "offsets", ...
  static const char* KindName(Kind kind);
  /// What converting the buffer between big- and little-endian byte order
  /// does to each element.
  enum ByteSwap : int8_t {
    kSwapNone,          ///< Nothing: bitmaps, bytes, int8 values, fixed-size binary.
    kSwapElement,       ///< Reverse each element's byte_width bytes (integers, floats,
                        ///< decimals, temporal values, offsets, sizes).
    kSwapInt32Pairs,    ///< Two int32 per element, each reversed (day-time intervals).
    kSwapMonthDayNano,  ///< int32 months, int32 days, int64 nanoseconds, each reversed.
    kSwapViews,         ///< Binary views: the int32 length, and for out-of-line values the
                        ///< int32 buffer index and offset (inline bytes and prefix stay).
  };
  Kind kind;           ///< What the buffer holds.
  int byte_width = 0;  ///< Bytes per element for kFixedWidth, kOffsets, kSizes, kTypeIds
                       ///< (1) and kViews (16); 0 for bitmaps and kData.
  int alignment = 1;   ///< Alignment (a power of two) that typed access to the elements needs.
  ByteSwap swap = kSwapNone;     ///< What a byte-order change does to the elements.
  bool offsets_plus_one = false;  ///< kOffsets holding length + 1 entries (not list views).

  /// A validity bitmap.
  static constexpr BufferSpec Validity() { return {kValidity}; }
  /// A bitmap of boolean values.
  static constexpr BufferSpec BitmapValues() { return {kBitmapValues}; }
  /// Fixed-width slots of `width` bytes, typed access aligned to `align`.
  static constexpr BufferSpec FixedWidth(int width, int align, ByteSwap byte_swap) {
    return {kFixedWidth, width, align, byte_swap};
  }
  /// length + 1 offsets of `width` bytes (lists, maps, binary and strings).
  static constexpr BufferSpec Offsets(int width) {
    return {kOffsets, width, width, kSwapElement, true};
  }
  /// One offset of `width` bytes per slot (list views).
  static constexpr BufferSpec ViewOffsets(int width) {
    return {kOffsets, width, width, kSwapElement, false};
  }
  /// One size of `width` bytes per slot (list views).
  static constexpr BufferSpec Sizes(int width) { return {kSizes, width, width, kSwapElement}; }
  /// One int8 type id per slot (unions).
  static constexpr BufferSpec TypeIds() { return {kTypeIds, 1}; }
  /// 16-byte binary views.
  static constexpr BufferSpec Views() { return {kViews, 16, 4, kSwapViews}; }
  /// Variable-size bytes addressed by offsets or views.
  static constexpr BufferSpec Data() { return {kData}; }

  /// Bytes this buffer must hold for `length` slots, or -1 when that does
  /// not fit in 64 bits or `length` is negative. Offsets (offsets_plus_one)
  /// need length + 1 entries, or none at all when `length` is 0; kData is
  /// bounded by its offsets or views, not by the slot count, so needs 0.
  constexpr int64_t RequiredBytes(int64_t length) const {
    if (length < 0) return -1;
    switch (kind) {
      case kValidity:
      case kBitmapValues:
        return length / 8 + (length % 8 != 0 ? 1 : 0);
      case kData:
        return 0;
      default:
        break;
    }
    int64_t count = length;
    if (offsets_plus_one) {
      if (length == 0) return 0;
      if (__builtin_add_overflow(length, int64_t{1}, &count)) return -1;
    }
    int64_t bytes;
    if (__builtin_mul_overflow(count, static_cast<int64_t>(byte_width), &bytes)) return -1;
    return bytes;
  }
};

/// The buffers an array of some type has, in ArrayData::buffers order.
struct ALKAID_EXPORT DataTypeLayout {
  /// Fixed buffers in order; empty for types without buffers of their own
  /// (null, run-end encoded).
  std::vector<BufferSpec> buffers;
  /// Binary/utf8 views have any number of data buffers after the fixed ones
  /// (their counts travel in IPC as variadic buffer counts).
  bool variadic_data = false;
  /// Whether the first buffer is a validity bitmap (false for null, unions
  /// and run-end encoded types, which have none).
  bool has_validity() const { return !buffers.empty() && buffers[0].kind == BufferSpec::kValidity; }
};

// ---------------------------------------------------------------------------
// DataType

/// Base of every Arrow data type: an id, child fields for nested types, and
/// the type's parameters in the concrete subclass.
///
/// Types are immutable after construction and shared through DataTypePtr;
/// every const member may be called from several threads at once. Not
/// copyable: compare with Equals(), share with shared_ptr. To act on the
/// concrete class, use VisitTypeInline (alkaid/visit_type.h) or
/// checked_cast after testing id().
class ALKAID_EXPORT DataType : public std::enable_shared_from_this<DataType> {
 public:
  /// Sets the id; subclasses fill in children_ and their own parameters.
  explicit DataType(TypeId id) : id_(id) {}
  /// Frees the cached layout.
  virtual ~DataType();
  DataType(const DataType&) = delete;             ///< Not copyable; share the pointer instead.
  DataType& operator=(const DataType&) = delete;  ///< Not assignable; types are immutable.

  /// Which kind of type this is; determines the concrete class.
  TypeId id() const { return id_; }
  /// Child fields of nested types (list item, struct members, union members,
  /// map entries, run_ends + values); empty for other types.
  const FieldVector& fields() const { return children_; }
  /// Number of child fields (0 for non-nested types).
  int num_fields() const { return static_cast<int>(children_.size()); }
  /// Child field `i`. Precondition: 0 <= i < num_fields() (not checked).
  const FieldPtr& field(int i) const { return children_[static_cast<size_t>(i)]; }

  /// Short lower-case name of the kind of type: "int32", "list", "timestamp".
  virtual std::string name() const = 0;
  /// Full notation with parameters: "timestamp[ms, tz=UTC]", "list<item: int32>".
  virtual std::string ToString() const = 0;
  /// The buffers of this type's arrays. Computed once per type instance:
  /// readers and validators ask for it for every array they touch.
  /// After the first call this is one acquire load (no call_once round trip).
  /// Safe to call from several threads; the reference lives as long as the type.
  const DataTypeLayout& layout() const {
    const DataTypeLayout* cached = layout_.load(std::memory_order_acquire);
    return cached != nullptr ? *cached : CacheLayout();
  }

  /// Structural equality. Names of struct/union/map children are compared;
  /// the item name of list-like types is not (conventions differ between
  /// implementations). Child nullability is compared; field metadata is
  /// compared only when `check_metadata` is true.
  bool Equals(const DataType& other, bool check_metadata = false) const;
  /// As Equals(const DataType&, bool); false when `other` is null.
  bool Equals(const DataTypePtr& other, bool check_metadata = false) const {
    return other != nullptr && Equals(*other, check_metadata);
  }

  /// Bits per slot of the main values buffer for fixed-width types, else -1.
  /// Booleans report 1, dictionaries the width of their index type,
  /// extension types that of their storage.
  virtual int bit_width() const { return -1; }
  /// bit_width() in whole bytes; -1 for types that are not fixed-width.
  /// Note that booleans (1 bit) report 0.
  int byte_width() const { int b = bit_width(); return b > 0 ? b / 8 : -1; }

  /// @name Classification helpers
  /// Predicates on id(); none of them looks through dictionary or extension types.
  ///@{

  /// Any of the eight signed or unsigned integer types.
  bool is_integer() const;
  /// int8, int16, int32 or int64.
  bool is_signed_integer() const;
  /// halffloat, float or double.
  bool is_floating() const;
  /// Any of decimal32, decimal64, decimal128, decimal256.
  bool is_decimal() const;
  /// Types with child fields, plus struct (which may have none).
  bool is_nested() const { return !children_.empty() || id_ == TypeId::kStruct; }
  /// Sparse or dense union.
  bool is_union() const { return id_ == TypeId::kSparseUnion || id_ == TypeId::kDenseUnion; }
  /// Offset-based byte strings: binary, utf8 and their large forms (not views).
  bool is_binary_like() const;
  /// binary_view or utf8_view.
  bool is_view() const { return id_ == TypeId::kBinaryView || id_ == TypeId::kStringView; }
  /// Types whose values must be valid UTF-8: utf8, large_utf8, utf8_view.
  bool is_utf8() const {
    return id_ == TypeId::kString || id_ == TypeId::kLargeString || id_ == TypeId::kStringView;
  }
  ///@}

 protected:
  /// Parameter comparison beyond id and children; `other` has the same id.
  virtual bool ParamsEqual(const DataType& other) const {
    (void)other;
    return true;
  }
  /// Whether child names take part in equality.
  virtual bool ChildNamesMatter() const { return true; }
  /// Builds the layout; called at most a few times per instance (see layout()).
  virtual DataTypeLayout ComputeLayout() const = 0;

  TypeId id_;            ///< The type id; set once by the constructor.
  FieldVector children_;  ///< Child fields; filled by subclass constructors, then never changed.

 private:
  const DataTypeLayout& CacheLayout() const;

  // Owned; published once (concurrent first callers race, one wins).
  mutable std::atomic<const DataTypeLayout*> layout_{nullptr};
};

// ---------------------------------------------------------------------------
// Field and Schema

/// A named, typed slot of a schema or of a nested type: name, type,
/// nullability and optional metadata. Immutable; the With* functions return
/// modified copies. Safe to share between threads.
class ALKAID_EXPORT Field {
 public:
  /// A field. `type` must not be null; `metadata` may be.
  Field(std::string name, DataTypePtr type, bool nullable = true, MetadataPtr metadata = nullptr)
      : name_(std::move(name)), type_(std::move(type)), nullable_(nullable),
        metadata_(std::move(metadata)) {}

  /// Field name; may be empty and need not be unique among siblings.
  const std::string& name() const { return name_; }
  /// Field type; never null for a properly constructed field.
  const DataTypePtr& type() const { return type_; }
  /// Whether slots may be null. A non-nullable field's arrays must have no nulls.
  bool nullable() const { return nullable_; }
  /// Field metadata; may be nullptr.
  const MetadataPtr& metadata() const { return metadata_; }

  /// A copy with another name.
  FieldPtr WithName(std::string name) const;
  /// A copy with another type.
  FieldPtr WithType(DataTypePtr type) const;
  /// A copy with another nullability.
  FieldPtr WithNullable(bool nullable) const;
  /// A copy with other metadata (nullptr removes it).
  FieldPtr WithMetadata(MetadataPtr metadata) const;

  /// Same name, nullability and type (DataType::Equals); metadata too when
  /// `check_metadata` is true (null and empty metadata are equal).
  bool Equals(const Field& other, bool check_metadata = false) const;
  /// As Equals(const Field&, bool); false when `other` is null.
  bool Equals(const FieldPtr& other, bool check_metadata = false) const {
    return other != nullptr && Equals(*other, check_metadata);
  }
  /// "name: type" plus " not null" when not nullable, and the metadata on
  /// further lines when `show_metadata` is true.
  std::string ToString(bool show_metadata = false) const;

 private:
  std::string name_;
  DataTypePtr type_;
  bool nullable_;
  MetadataPtr metadata_;
};

/// The top-level columns of a record batch or table, with schema metadata
/// and the byte order of the data it describes. Immutable; safe to share
/// between threads.
class ALKAID_EXPORT Schema {
 public:
  /// A schema of `fields` in order. `endianness` is the byte order of the
  /// buffers that go with it (IPC readers set it from the file).
  explicit Schema(FieldVector fields, MetadataPtr metadata = nullptr,
                  Endianness endianness = Endianness::kLittle)
      : fields_(std::move(fields)), metadata_(std::move(metadata)), endianness_(endianness) {}

  /// The columns in order.
  const FieldVector& fields() const { return fields_; }
  /// Number of columns.
  int num_fields() const { return static_cast<int>(fields_.size()); }
  /// Column `i`. Precondition: 0 <= i < num_fields() (not checked).
  const FieldPtr& field(int i) const { return fields_[static_cast<size_t>(i)]; }
  /// Schema-level metadata; may be nullptr.
  const MetadataPtr& metadata() const { return metadata_; }
  /// Byte order of the data this schema describes.
  Endianness endianness() const { return endianness_; }

  /// Index of the first field with this name, or -1.
  int GetFieldIndex(std::string_view name) const;
  /// The first field with this name, or nullptr.
  FieldPtr GetFieldByName(std::string_view name) const;

  /// A copy with other metadata (nullptr removes it).
  SchemaPtr WithMetadata(MetadataPtr metadata) const;
  /// A copy with another byte order (the fields are shared).
  SchemaPtr WithEndianness(Endianness endianness) const;
  /// A schema of the listed fields, in the order given (repeats allowed);
  /// metadata and byte order are kept. IndexError for an index outside
  /// [0, num_fields()).
  Result<SchemaPtr> Project(const std::vector<int>& indices) const;

  /// Same byte order and pairwise equal fields (Field::Equals); schema
  /// metadata too when `check_metadata` is true.
  bool Equals(const Schema& other, bool check_metadata = false) const;
  /// One line per field (Field::ToString), then the schema metadata when
  /// `show_metadata` is true.
  std::string ToString(bool show_metadata = false) const;

 private:
  FieldVector fields_;
  MetadataPtr metadata_;
  Endianness endianness_;
};

// ---------------------------------------------------------------------------
// Concrete types

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
/// @tparam kTypeName the name() string
template <TypeId kId, int kBytes, const char* kTypeName>
class DecimalTypeOf final : public DecimalType {
 public:
  static constexpr TypeId type_id = kId;       ///< Compile-time id.
  static constexpr int kByteWidth = kBytes;  ///< Bytes per value.
  /// Unchecked: precision should be in [1, MaxPrecision(kId)] (use
  /// MakeDecimal on untrusted input).
  DecimalTypeOf(int32_t precision, int32_t scale)
      : DecimalType(kId, kBytes, precision, scale) {}
  /// "decimal32", "decimal64", "decimal128" or "decimal256".
  std::string name() const override { return kTypeName; }
};

namespace internal {
inline constexpr char kDecimal32Name[] = "decimal32";
inline constexpr char kDecimal64Name[] = "decimal64";
inline constexpr char kDecimal128Name[] = "decimal128";
inline constexpr char kDecimal256Name[] = "decimal256";
}  // namespace internal

/// Decimal in a 4-byte integer; precision 1 to 9.
using Decimal32Type = DecimalTypeOf<TypeId::kDecimal32, 4, internal::kDecimal32Name>;
/// Decimal in an 8-byte integer; precision 1 to 18.
using Decimal64Type = DecimalTypeOf<TypeId::kDecimal64, 8, internal::kDecimal64Name>;
/// Decimal in a 16-byte integer; precision 1 to 38.
using Decimal128Type = DecimalTypeOf<TypeId::kDecimal128, 16, internal::kDecimal128Name>;
/// Decimal in a 32-byte integer; precision 1 to 76.
using Decimal256Type = DecimalTypeOf<TypeId::kDecimal256, 32, internal::kDecimal256Name>;

/// Checked construction of any decimal width: 1 <= precision <= max for the width.
/// @param bit_width 32, 64, 128 or 256
/// @param precision significant decimal digits, 1 to 9 / 18 / 38 / 76 for the width
/// @param scale power of ten the stored integer is divided by (any value)
/// @return the decimal type, or Invalid for another width or a precision out of range
ALKAID_EXPORT Result<DataTypePtr> MakeDecimal(int bit_width, int32_t precision, int32_t scale);

/// Variable-size binary with 32- or 64-bit offsets, and utf8 over the same layout.
///
/// Buffers: validity, (length + 1) offsets of OffsetT, then the value bytes;
/// value i is bytes [offsets[i], offsets[i + 1]).
/// @tparam Derived the concrete class (supplies `kName`)
/// @tparam OffsetT int32_t or int64_t
/// @tparam kId the TypeId of the concrete class
template <typename Derived, typename OffsetT, TypeId kId>
class BaseBinaryTypeOf : public DataType {
 public:
  using offset_type = OffsetT;  ///< Integer type of the offsets buffer.
  static constexpr TypeId type_id = kId;  ///< Compile-time id.
  /// Constructs the (parameterless) type.
  BaseBinaryTypeOf() : DataType(kId) {}
  /// Derived::kName, e.g. "binary".
  std::string name() const override { return Derived::kName; }
  /// Same as name(): no parameters.
  std::string ToString() const override { return Derived::kName; }
  /// Validity, offsets of sizeof(OffsetT) bytes, data.
  DataTypeLayout ComputeLayout() const override {
    return {{BufferSpec::Validity(), BufferSpec::Offsets(static_cast<int>(sizeof(OffsetT))),
             BufferSpec::Data()},
            false};
  }
};

/// Arbitrary bytes with 32-bit offsets (at most 2^31 - 1 bytes per array).
class ALKAID_EXPORT BinaryType final : public BaseBinaryTypeOf<BinaryType, int32_t, TypeId::kBinary> {
 public:
  static constexpr const char* kName = "binary";  ///< Type name.
};
/// UTF-8 text with 32-bit offsets; values must be valid UTF-8.
class ALKAID_EXPORT StringType final : public BaseBinaryTypeOf<StringType, int32_t, TypeId::kString> {
 public:
  static constexpr const char* kName = "string";  ///< Type name.
};
/// Arbitrary bytes with 64-bit offsets.
class ALKAID_EXPORT LargeBinaryType final
    : public BaseBinaryTypeOf<LargeBinaryType, int64_t, TypeId::kLargeBinary> {
 public:
  static constexpr const char* kName = "large_binary";  ///< Type name.
};
/// UTF-8 text with 64-bit offsets.
class ALKAID_EXPORT LargeStringType final
    : public BaseBinaryTypeOf<LargeStringType, int64_t, TypeId::kLargeString> {
 public:
  static constexpr const char* kName = "large_string";  ///< Type name.
};

/// One 16-byte view per slot. Strings of up to 12 bytes are inline; longer
/// ones keep a 4-byte prefix plus (buffer index, offset) into a data buffer.
/// Which member is active is decided by size(): inlined when size <= 12.
union BinaryViewValue {
  /// Form used when size <= kInlineSize: the bytes follow the size.
  struct {
    int32_t size;      ///< Length of the value in bytes.
    uint8_t data[12];  ///< The value, zero-padded after `size` bytes.
  } inlined;
  /// Form used when size > kInlineSize: the bytes live in a data buffer.
  struct {
    int32_t size;          ///< Length of the value in bytes.
    uint8_t prefix[4];     ///< First four bytes of the value (for fast comparison).
    int32_t buffer_index;  ///< Which variadic data buffer holds the value.
    int32_t offset;        ///< Byte offset of the value within that buffer.
  } ref;
  static constexpr int32_t kInlineSize = 12;  ///< Longest value stored inline, in bytes.
  static constexpr int32_t kPrefixSize = 4;   ///< Bytes of prefix kept in the ref form.
  /// Length of the value in bytes (same position in both forms).
  int32_t size() const { return inlined.size; }
  /// Whether the value is stored in the view itself (`inlined` is active).
  bool is_inline() const { return inlined.size <= kInlineSize; }
};
static_assert(sizeof(BinaryViewValue) == 16);

/// Base of binary_view and utf8_view: validity, a buffer of 16-byte
/// BinaryViewValue entries, then any number of data buffers.
/// @tparam Derived the concrete class (supplies `kName`)
/// @tparam kId the TypeId of the concrete class
template <typename Derived, TypeId kId>
class BinaryViewTypeOf : public DataType {
 public:
  static constexpr TypeId type_id = kId;  ///< Compile-time id.
  using c_type = BinaryViewValue;  ///< One element of the views buffer.
  /// Constructs the (parameterless) type.
  BinaryViewTypeOf() : DataType(kId) {}
  /// Derived::kName, e.g. "binary_view".
  std::string name() const override { return Derived::kName; }
  /// Same as name(): no parameters.
  std::string ToString() const override { return Derived::kName; }
  /// 128: the width of one view.
  int bit_width() const override { return 128; }
  /// Validity, 16-byte views, then variadic data buffers.
  DataTypeLayout ComputeLayout() const override {
    return {{BufferSpec::Validity(), BufferSpec::Views()}, true};
  }
};
/// Arbitrary bytes stored as 16-byte views.
class ALKAID_EXPORT BinaryViewType final : public BinaryViewTypeOf<BinaryViewType, TypeId::kBinaryView> {
 public:
  static constexpr const char* kName = "binary_view";  ///< Type name.
};
/// UTF-8 text stored as 16-byte views.
class ALKAID_EXPORT StringViewType final : public BinaryViewTypeOf<StringViewType, TypeId::kStringView> {
 public:
  static constexpr const char* kName = "string_view";  ///< Type name.
};

/// Base of list, large list, list view, large list view, fixed-size list and map.
/// The single child field holds the list items; its name does not take part
/// in equality.
class ALKAID_EXPORT BaseListType : public DataType {
 public:
  /// A list-like type of id `id` whose items are described by `value_field`
  /// (must not be null).
  BaseListType(TypeId id, FieldPtr value_field) : DataType(id) {
    children_.push_back(std::move(value_field));
  }
  /// The item field (name, type, nullability of the items).
  const FieldPtr& value_field() const { return children_[0]; }
  /// The item type.
  const DataTypePtr& value_type() const;

 protected:
  /// False: list item names vary between implementations.
  bool ChildNamesMatter() const override { return false; }
};

/// The four offset-based list types.
///
/// Buffers: validity and offsets of OffsetT; list views add a sizes buffer.
/// For lists, list i is items [offsets[i], offsets[i + 1]); for list views it
/// is items [offsets[i], offsets[i] + sizes[i]).
/// @tparam Derived the concrete class (supplies `kName`)
/// @tparam OffsetT int32_t or int64_t
/// @tparam kId the TypeId of the concrete class
/// @tparam kView true for list views
template <typename Derived, typename OffsetT, TypeId kId, bool kView>
class ALKAID_EXPORT ListTypeOf : public BaseListType {
 public:
  using offset_type = OffsetT;  ///< Integer type of the offsets (and sizes) buffer.
  static constexpr TypeId type_id = kId;  ///< Compile-time id.
  static constexpr bool is_list_view = kView;  ///< Whether there is a sizes buffer.
  /// A list whose items are described by `value_field`.
  explicit ListTypeOf(FieldPtr value_field) : BaseListType(kId, std::move(value_field)) {}
  /// A list of nullable items of `value_type`, with the item field named "item".
  explicit ListTypeOf(DataTypePtr value_type)
      : BaseListType(kId, std::make_shared<Field>("item", std::move(value_type))) {}
  /// Derived::kName, e.g. "list".
  std::string name() const override { return Derived::kName; }
  /// "name<item field>", e.g. "list<item: int32>".
  std::string ToString() const override;
  /// Validity, offsets, and for list views sizes.
  DataTypeLayout ComputeLayout() const override {
    constexpr int kWidth = static_cast<int>(sizeof(OffsetT));
    DataTypeLayout l{{BufferSpec::Validity(),
                      kView ? BufferSpec::ViewOffsets(kWidth) : BufferSpec::Offsets(kWidth)},
                     false};
    if (kView) l.buffers.push_back(BufferSpec::Sizes(kWidth));
    return l;
  }
};

/// Lists with 32-bit offsets. Also the base of MapType.
class ALKAID_EXPORT ListType : public ListTypeOf<ListType, int32_t, TypeId::kList, false> {
 public:
  static constexpr const char* kName = "list";  ///< Type name.
  using ListTypeOf::ListTypeOf;  ///< Same constructors as ListTypeOf.

 protected:
  /// Map reuses the list layout under its own id.
  ListType(TypeId id, FieldPtr value_field) : ListTypeOf(std::move(value_field)) { id_ = id; }
};
/// Lists with 64-bit offsets.
class ALKAID_EXPORT LargeListType final : public ListTypeOf<LargeListType, int64_t, TypeId::kLargeList, false> {
 public:
  static constexpr const char* kName = "large_list";  ///< Type name.
  using ListTypeOf::ListTypeOf;  ///< Same constructors as ListTypeOf.
};
/// Lists as 32-bit (offset, size) pairs; lists may overlap or be out of order.
class ALKAID_EXPORT ListViewType final : public ListTypeOf<ListViewType, int32_t, TypeId::kListView, true> {
 public:
  static constexpr const char* kName = "list_view";  ///< Type name.
  using ListTypeOf::ListTypeOf;  ///< Same constructors as ListTypeOf.
};
/// Lists as 64-bit (offset, size) pairs.
class ALKAID_EXPORT LargeListViewType final
    : public ListTypeOf<LargeListViewType, int64_t, TypeId::kLargeListView, true> {
 public:
  static constexpr const char* kName = "large_list_view";  ///< Type name.
  using ListTypeOf::ListTypeOf;  ///< Same constructors as ListTypeOf.
};

/// map<key, item>: a list of non-null struct<key: K not null, value: V>.
///
/// Equality compares key and item types, item nullability and keys_sorted,
/// but none of the entries/key/value names (writers name them differently).
class ALKAID_EXPORT MapType final : public ListType {
 public:
  static constexpr TypeId type_id = TypeId::kMap;  ///< Compile-time id.
  /// A map with canonical names: entries "entries", key "key" (not null),
  /// item "value" (nullable).
  MapType(DataTypePtr key_type, DataTypePtr item_type, bool keys_sorted = false);
  /// A map from given key and item fields (wrapped in a non-null "entries"
  /// struct). Unchecked: `key_field` should be non-nullable.
  MapType(FieldPtr key_field, FieldPtr item_field, bool keys_sorted = false);
  /// From an entries field that must be a non-null struct of two children with
  /// a non-null key; names are kept as given (non-canonical names round-trip).
  /// Invalid when those conditions do not hold.
  static Result<DataTypePtr> Make(FieldPtr entries, bool keys_sorted);

  /// The key field (first child of the entries struct).
  const FieldPtr& key_field() const { return value_type()->field(0); }
  /// The item field (second child of the entries struct).
  const FieldPtr& item_field() const { return value_type()->field(1); }
  /// The key type.
  const DataTypePtr& key_type() const { return key_field()->type(); }
  /// The item type.
  const DataTypePtr& item_type() const { return item_field()->type(); }
  /// Whether the writer promises keys sorted within each map (not checked).
  bool keys_sorted() const { return keys_sorted_; }
  /// "map".
  std::string name() const override { return "map"; }
  /// "map<key type, item type>", plus ", keys_sorted" when set.
  std::string ToString() const override;

 protected:
  /// Compares keys_sorted, key and item types, and item nullability.
  bool ParamsEqual(const DataType& other) const override;
  /// False: entry, key and value names are not compared.
  bool ChildNamesMatter() const override { return false; }

 private:
  MapType(FieldPtr entries, bool keys_sorted, int);
  bool keys_sorted_;
};

/// Lists that all have list_size() items; item i of list j is child slot
/// j * list_size() + i. Only a validity buffer of its own.
class ALKAID_EXPORT FixedSizeListType final : public BaseListType {
 public:
  static constexpr TypeId type_id = TypeId::kFixedSizeList;  ///< Compile-time id.
  /// Unchecked: `list_size` should be >= 0 (use Make on untrusted input).
  FixedSizeListType(FieldPtr value_field, int32_t list_size)
      : BaseListType(type_id, std::move(value_field)), list_size_(list_size) {}
  /// As above with a nullable item field named "item".
  FixedSizeListType(DataTypePtr value_type, int32_t list_size)
      : FixedSizeListType(std::make_shared<Field>("item", std::move(value_type)), list_size) {}
  /// Checked construction: Invalid when `list_size` is negative.
  static Result<DataTypePtr> Make(FieldPtr value_field, int32_t list_size);
  /// Items per list.
  int32_t list_size() const { return list_size_; }
  /// "fixed_size_list".
  std::string name() const override { return "fixed_size_list"; }
  /// "fixed_size_list<item field>[size]".
  std::string ToString() const override;
  /// Validity bitmap only; the items live in the child array.
  DataTypeLayout ComputeLayout() const override { return {{BufferSpec::Validity()}, false}; }

 protected:
  /// Compares list_size().
  bool ParamsEqual(const DataType& other) const override;

 private:
  int32_t list_size_;
};

/// A struct: named child fields whose arrays have the struct's length.
/// Child names need not be unique; the lookups below return the first match.
class ALKAID_EXPORT StructType final : public DataType {
 public:
  static constexpr TypeId type_id = TypeId::kStruct;  ///< Compile-time id.
  /// A struct of `fields` in order (may be empty).
  explicit StructType(FieldVector fields) : DataType(type_id) { children_ = std::move(fields); }
  /// Index of the first child with this name, or -1.
  int GetFieldIndex(std::string_view name) const;
  /// The first child with this name, or nullptr.
  FieldPtr GetFieldByName(std::string_view name) const;
  /// "struct".
  std::string name() const override { return "struct"; }
  /// "struct<field, field, ...>".
  std::string ToString() const override;
  /// Validity bitmap only; the values live in the children.
  DataTypeLayout ComputeLayout() const override { return {{BufferSpec::Validity()}, false}; }
};

/// Base of sparse and dense unions: each slot holds a value of one of the
/// children, chosen by an int8 type code in the types buffer. Unions have
/// no validity bitmap; nullness comes from the chosen child.
class ALKAID_EXPORT UnionType : public DataType {
 public:
  static constexpr int kMaxTypeCode = 127;  ///< Largest allowed type code.
  static constexpr int kInvalidChild = -1;  ///< child_index() result for an undeclared code.

  /// type_codes[i] is the id written in the types buffer for child i.
  const std::vector<int8_t>& type_codes() const { return type_codes_; }
  /// Child index for a type code, or kInvalidChild when the code is undeclared.
  int child_index(int8_t code) const {
    return code < 0 ? kInvalidChild : child_of_code_[static_cast<size_t>(code)];
  }
  /// The lookup table behind child_index(): 128 entries indexed by type code.
  const std::vector<int>& child_of_code() const { return child_of_code_; }
  /// Sparse or dense, from the id.
  UnionMode mode() const { return id_ == TypeId::kSparseUnion ? UnionMode::kSparse : UnionMode::kDense; }
  /// "sparse_union<field=code, ...>" or "dense_union<...>".
  std::string ToString() const override;
  /// Type ids (1 byte per slot), plus int32 offsets for dense unions.
  DataTypeLayout ComputeLayout() const override;

  /// Checks type codes (0..127, distinct, one per child) and builds the type.
  /// Empty `type_codes` means 0, 1, 2, ...; Invalid otherwise.
  static Result<DataTypePtr> Make(FieldVector fields, std::vector<int8_t> type_codes,
                                  UnionMode mode);

 protected:
  /// Unchecked; empty `type_codes` means 0, 1, 2, ...
  UnionType(TypeId id, FieldVector fields, std::vector<int8_t> type_codes);
  /// Compares the type codes.
  bool ParamsEqual(const DataType& other) const override;

 private:
  std::vector<int8_t> type_codes_;
  std::vector<int> child_of_code_;  // 128 entries
};

/// Union whose children all have the union's length; slot i of the union
/// is slot i of the child its type code selects.
class ALKAID_EXPORT SparseUnionType final : public UnionType {
 public:
  static constexpr TypeId type_id = TypeId::kSparseUnion;  ///< Compile-time id.
  /// Unchecked (see UnionType::Make). Empty type_codes means 0, 1, 2, ...
  explicit SparseUnionType(FieldVector fields, std::vector<int8_t> type_codes = {});
  /// "sparse_union".
  std::string name() const override { return "sparse_union"; }
};

/// Union with an int32 offsets buffer: slot i is slot offsets[i] of the
/// child its type code selects.
class ALKAID_EXPORT DenseUnionType final : public UnionType {
 public:
  static constexpr TypeId type_id = TypeId::kDenseUnion;  ///< Compile-time id.
  /// Unchecked (see UnionType::Make). Empty type_codes means 0, 1, 2, ...
  explicit DenseUnionType(FieldVector fields, std::vector<int8_t> type_codes = {});
  /// "dense_union".
  std::string name() const override { return "dense_union"; }
};

/// Dictionary encoding: the array stores integer indices; the values live in
/// a separate dictionary array of value_type(). Arrays have the layout of
/// the index type.
class ALKAID_EXPORT DictionaryType final : public FixedWidthType {
 public:
  static constexpr TypeId type_id = TypeId::kDictionary;  ///< Compile-time id.
  /// Unchecked: `index_type` should be an integer type (use Make on
  /// untrusted input).
  DictionaryType(DataTypePtr index_type, DataTypePtr value_type, bool ordered = false)
      : FixedWidthType(type_id), index_type_(std::move(index_type)),
        value_type_(std::move(value_type)), ordered_(ordered) {}
  /// Index type must be an integer type; TypeError otherwise.
  static Result<DataTypePtr> Make(DataTypePtr index_type, DataTypePtr value_type,
                                  bool ordered = false);
  /// Integer type of the indices.
  const DataTypePtr& index_type() const { return index_type_; }
  /// Type of the dictionary values.
  const DataTypePtr& value_type() const { return value_type_; }
  /// Whether the order of the dictionary values is meaningful (for sorting).
  bool ordered() const { return ordered_; }
  /// Width of the index type.
  int bit_width() const override { return index_type_->bit_width(); }
  /// "dictionary".
  std::string name() const override { return "dictionary"; }
  /// "dictionary<values=..., indices=...>", plus ", ordered" when set.
  std::string ToString() const override;

 protected:
  /// Compares index type, value type and ordered().
  bool ParamsEqual(const DataType& other) const override;

 private:
  DataTypePtr index_type_;
  DataTypePtr value_type_;
  bool ordered_;
};

/// Run-end encoding: two children, "run_ends" (non-null int16/32/64, strictly
/// increasing logical end positions) and "values" (one value per run). No
/// buffers of its own, not even validity.
class ALKAID_EXPORT RunEndEncodedType final : public DataType {
 public:
  static constexpr TypeId type_id = TypeId::kRunEndEncoded;  ///< Compile-time id.
  /// Unchecked: `run_end_type` should be int16, int32 or int64. Children are
  /// named "run_ends" (not null) and "values" (nullable).
  RunEndEncodedType(DataTypePtr run_end_type, DataTypePtr value_type);
  /// Run end type must be int16, int32 or int64 (TypeError otherwise).
  static Result<DataTypePtr> Make(DataTypePtr run_end_type, DataTypePtr value_type);
  /// From given child fields, names kept: TypeError for a run end type other
  /// than int16/32/64, Invalid when `run_ends_field` is nullable.
  static Result<DataTypePtr> Make(FieldPtr run_ends_field, FieldPtr values_field);
  /// The rule for run end types, stated once (by VisitRunEndType in
  /// visit_width.h): OK for int16, int32 and int64, TypeError naming `type`
  /// for anything else.
  static Status CheckRunEndType(const DataType& type);
  /// Type of the run ends (int16, int32 or int64).
  const DataTypePtr& run_end_type() const { return children_[0]->type(); }
  /// Type of the run values.
  const DataTypePtr& value_type() const { return children_[1]->type(); }
  /// "run_end_encoded".
  std::string name() const override { return "run_end_encoded"; }
  /// "run_end_encoded<run_ends: ..., values: ...>".
  std::string ToString() const override;
  /// No buffers: everything lives in the two children.
  DataTypeLayout ComputeLayout() const override { return {}; }

 protected:
  /// False: child names are not compared.
  bool ChildNamesMatter() const override { return false; }

 private:
  RunEndEncodedType(FieldPtr run_ends, FieldPtr values, int);
};

/// An extension type: a storage type plus a name and serialized parameters.
/// Concrete extension types derive from this; see alkaid/extension.h for the
/// registry that turns IPC field metadata into extension types.
///
/// Arrays of an extension type have exactly the layout of the storage type.
/// Implementations must be immutable and their virtual functions callable
/// from several threads at once; they must not throw (exceptions thrown by
/// Deserialize are caught by the registry, but nowhere else).
class ALKAID_EXPORT ExtensionType : public DataType {
 public:
  static constexpr TypeId type_id = TypeId::kExtension;  ///< Compile-time id.
  /// An extension over `storage_type` (must not be null).
  explicit ExtensionType(DataTypePtr storage_type)
      : DataType(type_id), storage_type_(std::move(storage_type)) {}

  /// The type the values are physically stored as.
  const DataTypePtr& storage_type() const { return storage_type_; }
  /// The registered name, written as "ARROW:extension:name" (e.g. "arrow.uuid").
  virtual std::string extension_name() const = 0;
  /// The value of the extension metadata key.
  virtual std::string Serialize() const = 0;
  /// Builds an instance of this extension type from storage and metadata.
  /// Called on the registered prototype with untrusted input: must return
  /// an error status, never crash, for a storage type or metadata it does
  /// not accept.
  virtual Result<DataTypePtr> Deserialize(DataTypePtr storage_type,
                                          const std::string& serialized) const = 0;
  /// Equality of extension parameters (storage and name are checked already).
  /// The default compares Serialize() strings.
  virtual bool ExtensionEquals(const ExtensionType& other) const;

  /// "extension".
  std::string name() const override { return "extension"; }
  /// "extension<name, storage=storage type>".
  std::string ToString() const override;
  /// The storage type's layout.
  DataTypeLayout ComputeLayout() const override { return storage_type_->layout(); }
  /// The storage type's width.
  int bit_width() const override { return storage_type_->bit_width(); }

 protected:
  /// Compares extension name, storage type and ExtensionEquals().
  bool ParamsEqual(const DataType& other) const override;

 private:
  DataTypePtr storage_type_;
};

// ---------------------------------------------------------------------------
// Factories. These trust their arguments; the checked constructors are the
// static Make functions above (used on untrusted input such as IPC).
// The parameterless ones return one shared instance per type (created on
// first use, thread-safe); the others allocate a new type on each call.

/// The null type (shared instance).
ALKAID_EXPORT DataTypePtr null();
/// The boolean type (shared instance).
ALKAID_EXPORT DataTypePtr boolean();
/// Signed 8-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr int8();
/// Signed 16-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr int16();
/// Signed 32-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr int32();
/// Signed 64-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr int64();
/// Unsigned 8-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr uint8();
/// Unsigned 16-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr uint16();
/// Unsigned 32-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr uint32();
/// Unsigned 64-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr uint64();
/// IEEE 754 half-precision floats, HalfFloatType (shared instance).
ALKAID_EXPORT DataTypePtr float16();
/// IEEE 754 single-precision floats, FloatType (shared instance).
ALKAID_EXPORT DataTypePtr float32();
/// IEEE 754 double-precision floats, DoubleType (shared instance).
ALKAID_EXPORT DataTypePtr float64();
/// decimal32(precision, scale); precision should be 1..9 (unchecked; see MakeDecimal).
ALKAID_EXPORT DataTypePtr decimal32(int32_t precision, int32_t scale);
/// decimal64(precision, scale); precision should be 1..18 (unchecked).
ALKAID_EXPORT DataTypePtr decimal64(int32_t precision, int32_t scale);
/// decimal128(precision, scale); precision should be 1..38 (unchecked).
ALKAID_EXPORT DataTypePtr decimal128(int32_t precision, int32_t scale);
/// decimal256(precision, scale); precision should be 1..76 (unchecked).
ALKAID_EXPORT DataTypePtr decimal256(int32_t precision, int32_t scale);
/// Days since the UNIX epoch as int32 (shared instance).
ALKAID_EXPORT DataTypePtr date32();
/// Milliseconds since the UNIX epoch as int64 (shared instance).
ALKAID_EXPORT DataTypePtr date64();
/// Time of day as int32; `unit` should be seconds or milliseconds (unchecked;
/// see Time32Type::Make).
ALKAID_EXPORT DataTypePtr time32(TimeUnit unit);
/// Time of day as int64; `unit` should be micro- or nanoseconds (unchecked;
/// see Time64Type::Make).
ALKAID_EXPORT DataTypePtr time64(TimeUnit unit);
/// Timestamps in `unit`; empty `timezone` means zone-less (see TimestampType).
ALKAID_EXPORT DataTypePtr timestamp(TimeUnit unit, std::string timezone = "");
/// Durations in `unit`.
ALKAID_EXPORT DataTypePtr duration(TimeUnit unit);
/// Intervals in whole months (shared instance).
ALKAID_EXPORT DataTypePtr month_interval();
/// Intervals of days plus milliseconds (shared instance).
ALKAID_EXPORT DataTypePtr day_time_interval();
/// Intervals of months, days and nanoseconds (shared instance).
ALKAID_EXPORT DataTypePtr month_day_nano_interval();
/// Byte strings of `byte_width` bytes each (unchecked; see FixedSizeBinaryType::Make).
ALKAID_EXPORT DataTypePtr fixed_size_binary(int32_t byte_width);
/// Byte strings with 32-bit offsets (shared instance).
ALKAID_EXPORT DataTypePtr binary();
/// UTF-8 strings with 32-bit offsets, StringType (shared instance).
ALKAID_EXPORT DataTypePtr utf8();
/// Byte strings with 64-bit offsets (shared instance).
ALKAID_EXPORT DataTypePtr large_binary();
/// UTF-8 strings with 64-bit offsets, LargeStringType (shared instance).
ALKAID_EXPORT DataTypePtr large_utf8();
/// Byte strings as 16-byte views (shared instance).
ALKAID_EXPORT DataTypePtr binary_view();
/// UTF-8 strings as 16-byte views, StringViewType (shared instance).
ALKAID_EXPORT DataTypePtr utf8_view();
/// List of nullable `value_type` items named "item".
ALKAID_EXPORT DataTypePtr list(DataTypePtr value_type);
/// List whose items are described by `value_field`.
ALKAID_EXPORT DataTypePtr list(FieldPtr value_field);
/// Large list of nullable `value_type` items named "item".
ALKAID_EXPORT DataTypePtr large_list(DataTypePtr value_type);
/// Large list whose items are described by `value_field`.
ALKAID_EXPORT DataTypePtr large_list(FieldPtr value_field);
/// List view of nullable `value_type` items named "item".
ALKAID_EXPORT DataTypePtr list_view(DataTypePtr value_type);
/// List view whose items are described by `value_field`.
ALKAID_EXPORT DataTypePtr list_view(FieldPtr value_field);
/// Large list view of nullable `value_type` items named "item".
ALKAID_EXPORT DataTypePtr large_list_view(DataTypePtr value_type);
/// Large list view whose items are described by `value_field`.
ALKAID_EXPORT DataTypePtr large_list_view(FieldPtr value_field);
/// Lists of `list_size` nullable `value_type` items named "item" (unchecked;
/// see FixedSizeListType::Make).
ALKAID_EXPORT DataTypePtr fixed_size_list(DataTypePtr value_type, int32_t list_size);
/// Lists of `list_size` items described by `value_field` (unchecked).
ALKAID_EXPORT DataTypePtr fixed_size_list(FieldPtr value_field, int32_t list_size);
/// Struct of `fields` in order. The trailing underscore avoids the keyword.
ALKAID_EXPORT DataTypePtr struct_(FieldVector fields);
/// Map with canonical child names; keys are non-nullable, items nullable.
ALKAID_EXPORT DataTypePtr map(DataTypePtr key_type, DataTypePtr item_type, bool keys_sorted = false);
/// Sparse union of `fields`; empty `type_codes` means 0, 1, 2, ... (unchecked;
/// see UnionType::Make).
ALKAID_EXPORT DataTypePtr sparse_union(FieldVector fields, std::vector<int8_t> type_codes = {});
/// Dense union of `fields`; empty `type_codes` means 0, 1, 2, ... (unchecked;
/// see UnionType::Make).
ALKAID_EXPORT DataTypePtr dense_union(FieldVector fields, std::vector<int8_t> type_codes = {});
/// Dictionary of `value_type` values indexed by `index_type`, which should be
/// an integer type (unchecked; see DictionaryType::Make).
ALKAID_EXPORT DataTypePtr dictionary(DataTypePtr index_type, DataTypePtr value_type, bool ordered = false);
/// Run-end encoding of `value_type` with run ends of `run_end_type`, which
/// should be int16, int32 or int64 (unchecked; see RunEndEncodedType::Make).
ALKAID_EXPORT DataTypePtr run_end_encoded(DataTypePtr run_end_type, DataTypePtr value_type);

/// A new Field; same as its constructor, as a shared pointer.
ALKAID_EXPORT FieldPtr field(std::string name, DataTypePtr type, bool nullable = true,
               MetadataPtr metadata = nullptr);
/// A new little-endian Schema of `fields` with optional metadata.
ALKAID_EXPORT SchemaPtr schema(FieldVector fields, MetadataPtr metadata = nullptr);

/// Casting helper for code that has already checked the id.
/// A static_cast: undefined behaviour when `type` is not a `T`.
template <typename T>
const T& checked_cast(const DataType& type) {
  return static_cast<const T&>(type);
}

}  // namespace alkaid
