#include "alkaid/type.h"

#include <algorithm>
#include <sstream>

#include "alkaid/visit_width.h"

namespace alkaid {

namespace {
// Name lookup shared by Schema and StructType: the first field called `name`, -1 / null when none.
int IndexOfField(const FieldVector& fields, std::string_view name) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i]->name() == name) return static_cast<int>(i);
  }
  return -1;
}

FieldPtr FieldNamed(const FieldVector& fields, std::string_view name) {
  const int i = IndexOfField(fields, name);
  return i < 0 ? nullptr : fields[static_cast<size_t>(i)];
}
}  // namespace

const char* TypeIdName(TypeId id) {
  switch (id) {
    case TypeId::kNull: return "null";
    case TypeId::kBool: return "bool";
    case TypeId::kUInt8: return "uint8";
    case TypeId::kInt8: return "int8";
    case TypeId::kUInt16: return "uint16";
    case TypeId::kInt16: return "int16";
    case TypeId::kUInt32: return "uint32";
    case TypeId::kInt32: return "int32";
    case TypeId::kUInt64: return "uint64";
    case TypeId::kInt64: return "int64";
    case TypeId::kHalfFloat: return "halffloat";
    case TypeId::kFloat: return "float";
    case TypeId::kDouble: return "double";
    case TypeId::kDecimal32: return "decimal32";
    case TypeId::kDecimal64: return "decimal64";
    case TypeId::kDecimal128: return "decimal128";
    case TypeId::kDecimal256: return "decimal256";
    case TypeId::kDate32: return "date32";
    case TypeId::kDate64: return "date64";
    case TypeId::kTime32: return "time32";
    case TypeId::kTime64: return "time64";
    case TypeId::kTimestamp: return "timestamp";
    case TypeId::kDuration: return "duration";
    case TypeId::kIntervalMonths: return "month_interval";
    case TypeId::kIntervalDayTime: return "day_time_interval";
    case TypeId::kIntervalMonthDayNano: return "month_day_nano_interval";
    case TypeId::kFixedSizeBinary: return "fixed_size_binary";
    case TypeId::kBinary: return "binary";
    case TypeId::kString: return "string";
    case TypeId::kLargeBinary: return "large_binary";
    case TypeId::kLargeString: return "large_string";
    case TypeId::kBinaryView: return "binary_view";
    case TypeId::kStringView: return "string_view";
    case TypeId::kList: return "list";
    case TypeId::kLargeList: return "large_list";
    case TypeId::kListView: return "list_view";
    case TypeId::kLargeListView: return "large_list_view";
    case TypeId::kFixedSizeList: return "fixed_size_list";
    case TypeId::kStruct: return "struct";
    case TypeId::kMap: return "map";
    case TypeId::kSparseUnion: return "sparse_union";
    case TypeId::kDenseUnion: return "dense_union";
    case TypeId::kDictionary: return "dictionary";
    case TypeId::kRunEndEncoded: return "run_end_encoded";
    case TypeId::kExtension: return "extension";
  }
  return "unknown";
}

const char* TimeUnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return "s";
    case TimeUnit::kMilli: return "ms";
    case TimeUnit::kMicro: return "us";
    case TimeUnit::kNano: return "ns";
  }
  return "?";
}

// ---------------------------------------------------------------------------
// KeyValueMetadata

KeyValueMetadata::KeyValueMetadata(std::vector<std::string> keys, std::vector<std::string> values)
    : keys_(std::move(keys)), values_(std::move(values)) {
  values_.resize(keys_.size());
}

std::shared_ptr<const KeyValueMetadata> KeyValueMetadata::Make(
    std::vector<std::pair<std::string, std::string>> pairs) {
  auto md = std::make_shared<KeyValueMetadata>();
  for (auto& [k, v] : pairs) md->Append(std::move(k), std::move(v));
  return md;
}

int64_t KeyValueMetadata::FindKey(std::string_view key) const {
  for (size_t i = 0; i < keys_.size(); ++i)
    if (keys_[i] == key) return static_cast<int64_t>(i);
  return -1;
}

Result<std::string> KeyValueMetadata::Get(std::string_view key) const {
  int64_t i = FindKey(key);
  if (i < 0) return Status::KeyError("metadata key '", key, "' not found");
  return values_[static_cast<size_t>(i)];
}

void KeyValueMetadata::Append(std::string key, std::string value) {
  keys_.push_back(std::move(key));
  values_.push_back(std::move(value));
}

void KeyValueMetadata::Set(std::string key, std::string value) {
  int64_t i = FindKey(key);
  if (i < 0) {
    Append(std::move(key), std::move(value));
  } else {
    values_[static_cast<size_t>(i)] = std::move(value);
  }
}

std::shared_ptr<KeyValueMetadata> KeyValueMetadata::Without(
    const std::vector<std::string>& drop) const {
  auto out = std::make_shared<KeyValueMetadata>();
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (std::find(drop.begin(), drop.end(), keys_[i]) == drop.end())
      out->Append(keys_[i], values_[i]);
  }
  return out;
}

std::shared_ptr<KeyValueMetadata> KeyValueMetadata::Copy() const {
  return std::make_shared<KeyValueMetadata>(keys_, values_);
}

bool KeyValueMetadata::Equals(const KeyValueMetadata& other) const {
  if (keys_.size() != other.keys_.size()) return false;
  if (keys_ == other.keys_ && values_ == other.values_) return true;
  // Writers differ in the order they emit keys (e.g. the two extension keys),
  // and order carries no meaning, so compare the pairs as multisets.
  std::vector<std::pair<std::string_view, std::string_view>> a, b;
  for (size_t i = 0; i < keys_.size(); ++i) {
    a.emplace_back(keys_[i], values_[i]);
    b.emplace_back(other.keys_[i], other.values_[i]);
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

std::string KeyValueMetadata::ToString() const {
  std::ostringstream out;
  for (size_t i = 0; i < keys_.size(); ++i) {
    out << "\n  " << keys_[i] << ": " << values_[i];
  }
  return out.str();
}

bool MetadataEquals(const MetadataPtr& a, const MetadataPtr& b) {
  bool a_empty = a == nullptr || a->size() == 0;
  bool b_empty = b == nullptr || b->size() == 0;
  if (a_empty || b_empty) return a_empty == b_empty;
  return a->Equals(*b);
}

// ---------------------------------------------------------------------------
// DataType

DataType::~DataType() { delete layout_.load(std::memory_order_relaxed); }

const DataTypeLayout& DataType::CacheLayout() const {
  auto fresh = std::make_unique<DataTypeLayout>(ComputeLayout());
  const DataTypeLayout* expected = nullptr;
  if (layout_.compare_exchange_strong(expected, fresh.get(), std::memory_order_acq_rel,
                                      std::memory_order_acquire)) {
    return *fresh.release();
  }
  return *expected;  // another thread published first
}

bool DataType::Equals(const DataType& other, bool check_metadata) const {
  if (this == &other) return true;
  if (id_ != other.id_ || children_.size() != other.children_.size()) return false;
  if (!ParamsEqual(other)) return false;
  // Map entries/key/value names vary between writers; MapType::ParamsEqual has
  // already compared the key and item types, which is what identifies a map.
  if (id_ == TypeId::kMap) return true;
  bool names = ChildNamesMatter();
  for (size_t i = 0; i < children_.size(); ++i) {
    const Field& a = *children_[i];
    const Field& b = *other.children_[i];
    if (names && a.name() != b.name()) return false;
    if (a.nullable() != b.nullable()) return false;
    if (!a.type()->Equals(*b.type(), check_metadata)) return false;
    if (check_metadata && !MetadataEquals(a.metadata(), b.metadata())) return false;
  }
  return true;
}

bool DataType::is_integer() const {
  switch (id_) {
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
      return true;
    default:
      return false;
  }
}

bool DataType::is_signed_integer() const {
  return id_ == TypeId::kInt8 || id_ == TypeId::kInt16 || id_ == TypeId::kInt32 ||
         id_ == TypeId::kInt64;
}

bool DataType::is_floating() const {
  return id_ == TypeId::kHalfFloat || id_ == TypeId::kFloat || id_ == TypeId::kDouble;
}

bool DataType::is_decimal() const {
  return id_ == TypeId::kDecimal32 || id_ == TypeId::kDecimal64 || id_ == TypeId::kDecimal128 ||
         id_ == TypeId::kDecimal256;
}

bool DataType::is_binary_like() const {
  return id_ == TypeId::kBinary || id_ == TypeId::kString || id_ == TypeId::kLargeBinary ||
         id_ == TypeId::kLargeString;
}

DataTypeLayout BooleanType::ComputeLayout() const {
  return {{BufferSpec::Validity(), BufferSpec::BitmapValues()}, false};
}

// The values buffer of every fixed-width type: numbers, decimals, temporal
// types, intervals, fixed-size binary and dictionary indices.
DataTypeLayout FixedWidthType::ComputeLayout() const {
  const int width = bit_width() / 8;
  BufferSpec values;
  switch (id_) {
    case TypeId::kFixedSizeBinary:  // opaque bytes
      values = BufferSpec::FixedWidth(width, 1, BufferSpec::kSwapNone);
      break;
    case TypeId::kIntervalDayTime:  // int32 days, int32 milliseconds
      values = BufferSpec::FixedWidth(width, 4, BufferSpec::kSwapInt32Pairs);
      break;
    case TypeId::kIntervalMonthDayNano:  // int32 months, int32 days, int64 nanoseconds
      values = BufferSpec::FixedWidth(width, 8, BufferSpec::kSwapMonthDayNano);
      break;
    default:  // one integer or float per slot (decimals: one wide integer)
      values = BufferSpec::FixedWidth(width, std::clamp(width, 1, 8),
                                      width > 1 ? BufferSpec::kSwapElement : BufferSpec::kSwapNone);
      break;
  }
  return {{BufferSpec::Validity(), values}, false};
}

// ---------------------------------------------------------------------------
// Field and Schema

FieldPtr Field::WithName(std::string name) const {
  return std::make_shared<Field>(std::move(name), type_, nullable_, metadata_);
}
FieldPtr Field::WithType(DataTypePtr type) const {
  return std::make_shared<Field>(name_, std::move(type), nullable_, metadata_);
}
FieldPtr Field::WithNullable(bool nullable) const {
  return std::make_shared<Field>(name_, type_, nullable, metadata_);
}
FieldPtr Field::WithMetadata(MetadataPtr metadata) const {
  return std::make_shared<Field>(name_, type_, nullable_, std::move(metadata));
}

bool Field::Equals(const Field& other, bool check_metadata) const {
  if (this == &other) return true;
  if (name_ != other.name_ || nullable_ != other.nullable_) return false;
  if (!type_->Equals(*other.type_, check_metadata)) return false;
  return !check_metadata || MetadataEquals(metadata_, other.metadata_);
}

std::string Field::ToString(bool show_metadata) const {
  std::string out = name_ + ": " + type_->ToString();
  if (!nullable_) out += " not null";
  if (show_metadata && metadata_ && metadata_->size() > 0) {
    out += " -- metadata:";
    std::string md = metadata_->ToString();
    for (char c : md) {
      out += c;
      if (c == '\n') out += "  ";
    }
  }
  return out;
}

int Schema::GetFieldIndex(std::string_view name) const { return IndexOfField(fields_, name); }

FieldPtr Schema::GetFieldByName(std::string_view name) const {
  return FieldNamed(fields_, name);
}

SchemaPtr Schema::WithMetadata(MetadataPtr metadata) const {
  return std::make_shared<Schema>(fields_, std::move(metadata), endianness_);
}

SchemaPtr Schema::WithEndianness(Endianness endianness) const {
  return std::make_shared<Schema>(fields_, metadata_, endianness);
}

Result<SchemaPtr> Schema::Project(const std::vector<int>& indices) const {
  FieldVector out;
  for (int i : indices) {
    if (i < 0 || i >= num_fields())
      return Status::IndexError("column index ", i, " is out of range for a schema of ",
                                num_fields(), " fields");
    out.push_back(fields_[static_cast<size_t>(i)]);
  }
  return std::make_shared<Schema>(std::move(out), metadata_, endianness_);
}

bool Schema::Equals(const Schema& other, bool check_metadata) const {
  if (fields_.size() != other.fields_.size()) return false;
  if (endianness_ != other.endianness_) return false;
  for (size_t i = 0; i < fields_.size(); ++i)
    if (!fields_[i]->Equals(*other.fields_[i], check_metadata)) return false;
  return !check_metadata || MetadataEquals(metadata_, other.metadata_);
}

std::string Schema::ToString(bool show_metadata) const {
  std::string out;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i > 0) out += "\n";
    out += fields_[i]->ToString(show_metadata);
  }
  if (show_metadata && metadata_ && metadata_->size() > 0) {
    out += "\n-- schema metadata --";
    for (int64_t i = 0; i < metadata_->size(); ++i)
      out += "\n" + metadata_->key(i) + ": " + metadata_->value(i);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Parameterized types

bool TemporalUnitType::ParamsEqual(const DataType& other) const {
  return unit_ == static_cast<const TemporalUnitType&>(other).unit_;
}

Result<DataTypePtr> Time32Type::Make(TimeUnit unit) {
  if (unit != TimeUnit::kSecond && unit != TimeUnit::kMilli)
    return Status::Invalid("time32 takes a unit of s or ms, not ", TimeUnitName(unit));
  return std::make_shared<Time32Type>(unit);
}

Result<DataTypePtr> Time64Type::Make(TimeUnit unit) {
  if (unit != TimeUnit::kMicro && unit != TimeUnit::kNano)
    return Status::Invalid("time64 takes a unit of us or ns, not ", TimeUnitName(unit));
  return std::make_shared<Time64Type>(unit);
}

std::string Time32Type::ToString() const { return std::string("time32[") + TimeUnitName(unit_) + "]"; }
std::string Time64Type::ToString() const { return std::string("time64[") + TimeUnitName(unit_) + "]"; }
std::string DurationType::ToString() const {
  return std::string("duration[") + TimeUnitName(unit_) + "]";
}

std::string TimestampType::ToString() const {
  std::string out = std::string("timestamp[") + TimeUnitName(unit_);
  if (!timezone_.empty()) out += ", tz=" + timezone_;
  return out + "]";
}

bool TimestampType::ParamsEqual(const DataType& other) const {
  const auto& o = static_cast<const TimestampType&>(other);
  return unit_ == o.unit_ && timezone_ == o.timezone_;
}

Result<DataTypePtr> FixedSizeBinaryType::Make(int32_t byte_width) {
  // The upper bound keeps the width in bits (bit_width()) within an int.
  constexpr int32_t kMaxByteWidth = INT32_MAX / 8;
  if (byte_width < 0 || byte_width > kMaxByteWidth) {
    return Status::Invalid("fixed_size_binary width must be in [0, ", kMaxByteWidth, "], got ",
                           byte_width);
  }
  return std::make_shared<FixedSizeBinaryType>(byte_width);
}

std::string FixedSizeBinaryType::ToString() const {
  return "fixed_size_binary[" + std::to_string(width_) + "]";
}

bool FixedSizeBinaryType::ParamsEqual(const DataType& other) const {
  return width_ == static_cast<const FixedSizeBinaryType&>(other).width_;
}

std::string DecimalType::ToString() const {
  return name() + "(" + std::to_string(precision_) + ", " + std::to_string(scale_) + ")";
}

bool DecimalType::ParamsEqual(const DataType& other) const {
  const auto& o = static_cast<const DecimalType&>(other);
  return precision_ == o.precision_ && scale_ == o.scale_;
}

int32_t DecimalType::MaxPrecision(TypeId id) {
  switch (id) {
    case TypeId::kDecimal32: return 9;
    case TypeId::kDecimal64: return 18;
    case TypeId::kDecimal128: return 38;
    case TypeId::kDecimal256: return 76;
    default: return 0;
  }
}

Result<DataTypePtr> MakeDecimal(int bit_width, int32_t precision, int32_t scale) {
  TypeId id;
  switch (bit_width) {
    case 32: id = TypeId::kDecimal32; break;
    case 64: id = TypeId::kDecimal64; break;
    case 128: id = TypeId::kDecimal128; break;
    case 256: id = TypeId::kDecimal256; break;
    default:
      return Status::Invalid("decimal bit width must be 32, 64, 128 or 256, got ", bit_width);
  }
  int32_t max = DecimalType::MaxPrecision(id);
  if (precision < 1 || precision > max)
    return Status::Invalid("decimal", bit_width, " precision must be in [1, ", max, "], got ",
                           precision);
  switch (id) {
    case TypeId::kDecimal32: return decimal32(precision, scale);
    case TypeId::kDecimal64: return decimal64(precision, scale);
    case TypeId::kDecimal128: return decimal128(precision, scale);
    default: return decimal256(precision, scale);
  }
}

const DataTypePtr& BaseListType::value_type() const { return children_[0]->type(); }

template <typename Derived, typename OffsetT, TypeId kId, bool kView>
std::string ListTypeOf<Derived, OffsetT, kId, kView>::ToString() const {
  return std::string(Derived::kName) + "<" + value_field()->ToString() + ">";
}
template class ListTypeOf<ListType, int32_t, TypeId::kList, false>;
template class ListTypeOf<LargeListType, int64_t, TypeId::kLargeList, false>;
template class ListTypeOf<ListViewType, int32_t, TypeId::kListView, true>;
template class ListTypeOf<LargeListViewType, int64_t, TypeId::kLargeListView, true>;

namespace {
FieldPtr MakeMapEntries(FieldPtr key_field, FieldPtr item_field) {
  return std::make_shared<Field>(
      "entries", std::make_shared<StructType>(FieldVector{std::move(key_field), std::move(item_field)}),
      false);
}
}  // namespace

MapType::MapType(FieldPtr entries, bool keys_sorted, int)
    : ListType(TypeId::kMap, std::move(entries)), keys_sorted_(keys_sorted) {}

MapType::MapType(DataTypePtr key_type, DataTypePtr item_type, bool keys_sorted)
    : MapType(std::make_shared<Field>("key", std::move(key_type), false),
              std::make_shared<Field>("value", std::move(item_type)), keys_sorted) {}

MapType::MapType(FieldPtr key_field, FieldPtr item_field, bool keys_sorted)
    : MapType(MakeMapEntries(std::move(key_field), std::move(item_field)), keys_sorted, 0) {}

Result<DataTypePtr> MapType::Make(FieldPtr entries, bool keys_sorted) {
  const auto& t = entries->type();
  if (t->id() != TypeId::kStruct || t->num_fields() != 2)
    return Status::Invalid("map entries must be a struct of two fields, got ", t->ToString());
  if (t->field(0)->nullable()) return Status::Invalid("map keys must not be nullable");
  if (entries->nullable()) return Status::Invalid("map entries must not be nullable");
  return DataTypePtr(new MapType(std::move(entries), keys_sorted, 0));
}

std::string MapType::ToString() const {
  std::string out = "map<" + key_type()->ToString() + ", " + item_type()->ToString();
  if (keys_sorted_) out += ", keys_sorted";
  return out + ">";
}

bool MapType::ParamsEqual(const DataType& other) const {
  const auto& o = static_cast<const MapType&>(other);
  return keys_sorted_ == o.keys_sorted_ && key_type()->Equals(*o.key_type()) &&
         item_type()->Equals(*o.item_type()) &&
         item_field()->nullable() == o.item_field()->nullable();
}

Result<DataTypePtr> FixedSizeListType::Make(FieldPtr value_field, int32_t list_size) {
  if (list_size < 0) return Status::Invalid("fixed_size_list size must be >= 0, got ", list_size);
  return std::make_shared<FixedSizeListType>(std::move(value_field), list_size);
}

std::string FixedSizeListType::ToString() const {
  return "fixed_size_list<" + value_field()->ToString() + ">[" + std::to_string(list_size_) + "]";
}

bool FixedSizeListType::ParamsEqual(const DataType& other) const {
  return list_size_ == static_cast<const FixedSizeListType&>(other).list_size_;
}

int StructType::GetFieldIndex(std::string_view name) const {
  return IndexOfField(children_, name);
}

FieldPtr StructType::GetFieldByName(std::string_view name) const {
  return FieldNamed(children_, name);
}

std::string StructType::ToString() const {
  std::string out = "struct<";
  for (size_t i = 0; i < children_.size(); ++i) {
    if (i > 0) out += ", ";
    out += children_[i]->ToString();
  }
  return out + ">";
}

namespace {
std::vector<int8_t> DefaultTypeCodes(size_t n) {
  std::vector<int8_t> codes(n);
  for (size_t i = 0; i < n; ++i) codes[i] = static_cast<int8_t>(i);
  return codes;
}
}  // namespace

UnionType::UnionType(TypeId id, FieldVector fields, std::vector<int8_t> type_codes)
    : DataType(id),
      type_codes_(type_codes.empty() ? DefaultTypeCodes(fields.size()) : std::move(type_codes)),
      child_of_code_(UnionType::kMaxTypeCode + 1, kInvalidChild) {
  children_ = std::move(fields);
  for (size_t i = 0; i < type_codes_.size(); ++i) {
    if (type_codes_[i] >= 0) child_of_code_[static_cast<size_t>(type_codes_[i])] = static_cast<int>(i);
  }
}

Result<DataTypePtr> UnionType::Make(FieldVector fields, std::vector<int8_t> type_codes,
                                    UnionMode mode) {
  if (type_codes.empty()) {
    if (fields.size() > kMaxTypeCode + 1)
      return Status::Invalid("a union has at most 128 children, got ", fields.size());
    type_codes = DefaultTypeCodes(fields.size());
  }
  if (type_codes.size() != fields.size())
    return Status::Invalid("union has ", fields.size(), " children but ", type_codes.size(),
                           " type codes");
  std::vector<bool> seen(kMaxTypeCode + 1, false);
  for (int8_t code : type_codes) {
    if (code < 0) return Status::Invalid("union type code ", int(code), " is negative");
    if (seen[static_cast<size_t>(code)])
      return Status::Invalid("union type code ", int(code), " is declared twice");
    seen[static_cast<size_t>(code)] = true;
  }
  if (mode == UnionMode::kSparse) return sparse_union(std::move(fields), std::move(type_codes));
  return dense_union(std::move(fields), std::move(type_codes));
}

std::string UnionType::ToString() const {
  std::string out = name() + "<";
  for (size_t i = 0; i < children_.size(); ++i) {
    if (i > 0) out += ", ";
    out += children_[i]->ToString() + "=" + std::to_string(type_codes_[i]);
  }
  return out + ">";
}

DataTypeLayout UnionType::ComputeLayout() const {
  DataTypeLayout l{{BufferSpec::TypeIds()}, false};
  // Dense unions: one int32 offset into the chosen child per slot.
  if (id_ == TypeId::kDenseUnion) {
    l.buffers.push_back(BufferSpec::FixedWidth(4, 4, BufferSpec::kSwapElement));
  }
  return l;
}

bool UnionType::ParamsEqual(const DataType& other) const {
  return type_codes_ == static_cast<const UnionType&>(other).type_codes_;
}

SparseUnionType::SparseUnionType(FieldVector fields, std::vector<int8_t> type_codes)
    : UnionType(type_id, std::move(fields), std::move(type_codes)) {}

DenseUnionType::DenseUnionType(FieldVector fields, std::vector<int8_t> type_codes)
    : UnionType(type_id, std::move(fields), std::move(type_codes)) {}

Result<DataTypePtr> DictionaryType::Make(DataTypePtr index_type, DataTypePtr value_type,
                                         bool ordered) {
  if (!index_type->is_integer())
    return Status::TypeError("dictionary index type must be an integer type, got ",
                             index_type->ToString());
  return std::make_shared<DictionaryType>(std::move(index_type), std::move(value_type), ordered);
}

std::string DictionaryType::ToString() const {
  return "dictionary<values=" + value_type_->ToString() + ", indices=" + index_type_->ToString() +
         (ordered_ ? ", ordered" : "") + ">";
}

bool DictionaryType::ParamsEqual(const DataType& other) const {
  const auto& o = static_cast<const DictionaryType&>(other);
  return ordered_ == o.ordered_ && index_type_->Equals(*o.index_type_) &&
         value_type_->Equals(*o.value_type_);
}

RunEndEncodedType::RunEndEncodedType(FieldPtr run_ends, FieldPtr values, int)
    : DataType(type_id) {
  children_.push_back(std::move(run_ends));
  children_.push_back(std::move(values));
}

RunEndEncodedType::RunEndEncodedType(DataTypePtr run_end_type, DataTypePtr value_type)
    : RunEndEncodedType(std::make_shared<Field>("run_ends", std::move(run_end_type), false),
                        std::make_shared<Field>("values", std::move(value_type)), 0) {}

Result<DataTypePtr> RunEndEncodedType::Make(DataTypePtr run_end_type, DataTypePtr value_type) {
  return Make(std::make_shared<Field>("run_ends", std::move(run_end_type), false),
              std::make_shared<Field>("values", std::move(value_type)));
}

Result<DataTypePtr> RunEndEncodedType::Make(FieldPtr run_ends, FieldPtr values) {
  ALKAID_RETURN_NOT_OK(CheckRunEndType(*run_ends->type()));
  if (run_ends->nullable()) return Status::Invalid("run_ends field must not be nullable");
  return DataTypePtr(new RunEndEncodedType(std::move(run_ends), std::move(values), 0));
}

Status RunEndEncodedType::CheckRunEndType(const DataType& type) {
  return VisitRunEndType(type, [](auto) { return Status::OK(); });
}

std::string RunEndEncodedType::ToString() const {
  return "run_end_encoded<run_ends: " + run_end_type()->ToString() +
         ", values: " + value_type()->ToString() + ">";
}

bool ExtensionType::ExtensionEquals(const ExtensionType& other) const {
  return Serialize() == other.Serialize();
}

std::string ExtensionType::ToString() const {
  return "extension<" + extension_name() + ", storage=" + storage_type_->ToString() + ">";
}

bool ExtensionType::ParamsEqual(const DataType& other) const {
  const auto& o = static_cast<const ExtensionType&>(other);
  return extension_name() == o.extension_name() && storage_type_->Equals(*o.storage_type_) &&
         ExtensionEquals(o);
}

// ---------------------------------------------------------------------------
// Factories

#define ALKAID_SINGLETON_FACTORY(fn, Class)      \
  DataTypePtr fn() {                             \
    static DataTypePtr instance = std::make_shared<Class>(); \
    return instance;                             \
  }
ALKAID_SINGLETON_FACTORY(null, NullType)
ALKAID_SINGLETON_FACTORY(boolean, BooleanType)
ALKAID_SINGLETON_FACTORY(int8, Int8Type)
ALKAID_SINGLETON_FACTORY(int16, Int16Type)
ALKAID_SINGLETON_FACTORY(int32, Int32Type)
ALKAID_SINGLETON_FACTORY(int64, Int64Type)
ALKAID_SINGLETON_FACTORY(uint8, UInt8Type)
ALKAID_SINGLETON_FACTORY(uint16, UInt16Type)
ALKAID_SINGLETON_FACTORY(uint32, UInt32Type)
ALKAID_SINGLETON_FACTORY(uint64, UInt64Type)
ALKAID_SINGLETON_FACTORY(float16, HalfFloatType)
ALKAID_SINGLETON_FACTORY(float32, FloatType)
ALKAID_SINGLETON_FACTORY(float64, DoubleType)
ALKAID_SINGLETON_FACTORY(date32, Date32Type)
ALKAID_SINGLETON_FACTORY(date64, Date64Type)
ALKAID_SINGLETON_FACTORY(month_interval, MonthIntervalType)
ALKAID_SINGLETON_FACTORY(day_time_interval, DayTimeIntervalType)
ALKAID_SINGLETON_FACTORY(month_day_nano_interval, MonthDayNanoIntervalType)
ALKAID_SINGLETON_FACTORY(binary, BinaryType)
ALKAID_SINGLETON_FACTORY(utf8, StringType)
ALKAID_SINGLETON_FACTORY(large_binary, LargeBinaryType)
ALKAID_SINGLETON_FACTORY(large_utf8, LargeStringType)
ALKAID_SINGLETON_FACTORY(binary_view, BinaryViewType)
ALKAID_SINGLETON_FACTORY(utf8_view, StringViewType)
#undef ALKAID_SINGLETON_FACTORY

DataTypePtr decimal32(int32_t p, int32_t s) { return std::make_shared<Decimal32Type>(p, s); }
DataTypePtr decimal64(int32_t p, int32_t s) { return std::make_shared<Decimal64Type>(p, s); }
DataTypePtr decimal128(int32_t p, int32_t s) { return std::make_shared<Decimal128Type>(p, s); }
DataTypePtr decimal256(int32_t p, int32_t s) { return std::make_shared<Decimal256Type>(p, s); }
DataTypePtr time32(TimeUnit unit) { return std::make_shared<Time32Type>(unit); }
DataTypePtr time64(TimeUnit unit) { return std::make_shared<Time64Type>(unit); }
DataTypePtr timestamp(TimeUnit unit, std::string tz) {
  return std::make_shared<TimestampType>(unit, std::move(tz));
}
DataTypePtr duration(TimeUnit unit) { return std::make_shared<DurationType>(unit); }
DataTypePtr fixed_size_binary(int32_t w) { return std::make_shared<FixedSizeBinaryType>(w); }
DataTypePtr list(DataTypePtr t) { return std::make_shared<ListType>(std::move(t)); }
DataTypePtr list(FieldPtr f) { return std::make_shared<ListType>(std::move(f)); }
DataTypePtr large_list(DataTypePtr t) { return std::make_shared<LargeListType>(std::move(t)); }
DataTypePtr large_list(FieldPtr f) { return std::make_shared<LargeListType>(std::move(f)); }
DataTypePtr list_view(DataTypePtr t) { return std::make_shared<ListViewType>(std::move(t)); }
DataTypePtr list_view(FieldPtr f) { return std::make_shared<ListViewType>(std::move(f)); }
DataTypePtr large_list_view(DataTypePtr t) {
  return std::make_shared<LargeListViewType>(std::move(t));
}
DataTypePtr large_list_view(FieldPtr f) {
  return std::make_shared<LargeListViewType>(std::move(f));
}
DataTypePtr fixed_size_list(DataTypePtr t, int32_t n) {
  return std::make_shared<FixedSizeListType>(std::move(t), n);
}
DataTypePtr fixed_size_list(FieldPtr f, int32_t n) {
  return std::make_shared<FixedSizeListType>(std::move(f), n);
}
DataTypePtr struct_(FieldVector fields) { return std::make_shared<StructType>(std::move(fields)); }
DataTypePtr map(DataTypePtr k, DataTypePtr v, bool sorted) {
  return std::make_shared<MapType>(std::move(k), std::move(v), sorted);
}
DataTypePtr sparse_union(FieldVector fields, std::vector<int8_t> codes) {
  return std::make_shared<SparseUnionType>(std::move(fields), std::move(codes));
}
DataTypePtr dense_union(FieldVector fields, std::vector<int8_t> codes) {
  return std::make_shared<DenseUnionType>(std::move(fields), std::move(codes));
}
DataTypePtr dictionary(DataTypePtr index, DataTypePtr value, bool ordered) {
  return std::make_shared<DictionaryType>(std::move(index), std::move(value), ordered);
}
DataTypePtr run_end_encoded(DataTypePtr run_end_type, DataTypePtr value_type) {
  return std::make_shared<RunEndEncodedType>(std::move(run_end_type), std::move(value_type));
}

FieldPtr field(std::string name, DataTypePtr type, bool nullable, MetadataPtr metadata) {
  return std::make_shared<Field>(std::move(name), std::move(type), nullable, std::move(metadata));
}

SchemaPtr schema(FieldVector fields, MetadataPtr metadata) {
  return std::make_shared<Schema>(std::move(fields), std::move(metadata));
}

const char* BufferSpec::KindName(Kind kind) {
  switch (kind) {
    case BufferSpec::kValidity: return "validity bitmap";
    case BufferSpec::kBitmapValues: return "value bitmap";
    case BufferSpec::kFixedWidth: return "values";
    case BufferSpec::kOffsets: return "offsets";
    case BufferSpec::kSizes: return "sizes";
    case BufferSpec::kTypeIds: return "type ids";
    case BufferSpec::kViews: return "views";
    case BufferSpec::kData: return "data";
  }
  return "buffer";
}

}  // namespace alkaid
