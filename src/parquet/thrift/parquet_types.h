// The Parquet metadata structs of format/parquet.thrift as plain C++ structs, each with a
// table of its fields (Fields()) that the compact-protocol codec (compact.h) walks to read
// and write it. Member names are the IDL's; a field the IDL marks optional (and every member
// of a union) is a std::optional, a required field a plain value. The format's Type,
// Encoding and CompressionCodec stay int32_t here so that a number this version does not
// know still parses (alkaid/parquet/types.h has their names and the *FromWire checks).
//
// The tests check every id and wire type here against code that libthrift generates from
// format/parquet.thrift (thrift_crosscheck_test.cc), so the two cannot drift apart.
//
// Every struct is ALKAID_EXPORT: GCC gives a template instantiation the visibility of its
// arguments, so DeserializeThrift<FileMetaData> and friends (thrift.h), which the tests of a
// shared libalkaid_parquet call, are exported only when the structs are.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "alkaid/visibility.h"

namespace alkaid::parquet::format {

// ---- field tables ---------------------------------------------------------------------------

/// One entry of a struct's field table: the member, its Thrift field id, its IDL name (for
/// error messages) and whether the IDL requires it.
template <typename MemberPtr>
struct FieldInfo {
  MemberPtr member;
  int16_t id;
  const char* name;
  bool required;
};

template <typename C, typename T>
constexpr FieldInfo<T C::*> Required(T C::*member, int16_t id, const char* name) {
  return {member, id, name, true};
}
template <typename C, typename T>
constexpr FieldInfo<T C::*> Optional(T C::*member, int16_t id, const char* name) {
  return {member, id, name, false};
}

// Empty structs (markers in unions) have an empty field table.
#define ALKAID_PARQUET_EMPTY_STRUCT(Name)                 \
  struct ALKAID_EXPORT Name {                             \
    static constexpr const char* kName = #Name;           \
    static constexpr auto Fields() { return std::tuple<>{}; } \
    bool operator==(const Name&) const = default;         \
  }

// ---- enumerations only the metadata uses ----------------------------------------------------

enum class ConvertedType : int32_t {
  kUtf8 = 0,
  kMap = 1,
  kMapKeyValue = 2,
  kList = 3,
  kEnum = 4,
  kDecimal = 5,
  kDate = 6,
  kTimeMillis = 7,
  kTimeMicros = 8,
  kTimestampMillis = 9,
  kTimestampMicros = 10,
  kUint8 = 11,
  kUint16 = 12,
  kUint32 = 13,
  kUint64 = 14,
  kInt8 = 15,
  kInt16 = 16,
  kInt32 = 17,
  kInt64 = 18,
  kJson = 19,
  kBson = 20,
  kInterval = 21,
};

enum class FieldRepetitionType : int32_t {
  kRequired = 0,
  kOptional = 1,
  kRepeated = 2,
  kVector = 3,
};

enum class PageType : int32_t {
  kDataPage = 0,
  kIndexPage = 1,
  kDictionaryPage = 2,
  kDataPageV2 = 3,
};

enum class BoundaryOrder : int32_t {
  kUnordered = 0,
  kAscending = 1,
  kDescending = 2,
};

enum class EdgeInterpolationAlgorithm : int32_t {
  kSpherical = 0,
  kVincenty = 1,
  kThomas = 2,
  kAndoyer = 3,
  kKarney = 4,
};

// ---- statistics -----------------------------------------------------------------------------

struct ALKAID_EXPORT SizeStatistics {
  static constexpr const char* kName = "SizeStatistics";
  std::optional<int64_t> unencoded_byte_array_data_bytes;
  std::optional<std::vector<int64_t>> repetition_level_histogram;
  std::optional<std::vector<int64_t>> definition_level_histogram;
  static constexpr auto Fields() {
    using S = SizeStatistics;
    return std::tuple{
        Optional(&S::unencoded_byte_array_data_bytes, 1, "unencoded_byte_array_data_bytes"),
        Optional(&S::repetition_level_histogram, 2, "repetition_level_histogram"),
        Optional(&S::definition_level_histogram, 3, "definition_level_histogram")};
  }
  bool operator==(const SizeStatistics&) const = default;
};

struct ALKAID_EXPORT BoundingBox {
  static constexpr const char* kName = "BoundingBox";
  double xmin = 0;
  double xmax = 0;
  double ymin = 0;
  double ymax = 0;
  std::optional<double> zmin;
  std::optional<double> zmax;
  std::optional<double> mmin;
  std::optional<double> mmax;
  static constexpr auto Fields() {
    using S = BoundingBox;
    return std::tuple{Required(&S::xmin, 1, "xmin"), Required(&S::xmax, 2, "xmax"),
                      Required(&S::ymin, 3, "ymin"), Required(&S::ymax, 4, "ymax"),
                      Optional(&S::zmin, 5, "zmin"), Optional(&S::zmax, 6, "zmax"),
                      Optional(&S::mmin, 7, "mmin"), Optional(&S::mmax, 8, "mmax")};
  }
  bool operator==(const BoundingBox&) const = default;
};

struct ALKAID_EXPORT GeospatialStatistics {
  static constexpr const char* kName = "GeospatialStatistics";
  std::optional<BoundingBox> bbox;
  std::optional<std::vector<int32_t>> geospatial_types;
  static constexpr auto Fields() {
    using S = GeospatialStatistics;
    return std::tuple{Optional(&S::bbox, 1, "bbox"),
                      Optional(&S::geospatial_types, 2, "geospatial_types")};
  }
  bool operator==(const GeospatialStatistics&) const = default;
};

struct ALKAID_EXPORT Statistics {
  static constexpr const char* kName = "Statistics";
  std::optional<std::string> max;
  std::optional<std::string> min;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> max_value;
  std::optional<std::string> min_value;
  std::optional<bool> is_max_value_exact;
  std::optional<bool> is_min_value_exact;
  std::optional<int64_t> nan_count;
  static constexpr auto Fields() {
    using S = Statistics;
    return std::tuple{Optional(&S::max, 1, "max"),
                      Optional(&S::min, 2, "min"),
                      Optional(&S::null_count, 3, "null_count"),
                      Optional(&S::distinct_count, 4, "distinct_count"),
                      Optional(&S::max_value, 5, "max_value"),
                      Optional(&S::min_value, 6, "min_value"),
                      Optional(&S::is_max_value_exact, 7, "is_max_value_exact"),
                      Optional(&S::is_min_value_exact, 8, "is_min_value_exact"),
                      Optional(&S::nan_count, 9, "nan_count")};
  }
  bool operator==(const Statistics&) const = default;
};

// ---- logical types --------------------------------------------------------------------------

ALKAID_PARQUET_EMPTY_STRUCT(StringType);
ALKAID_PARQUET_EMPTY_STRUCT(UUIDType);
ALKAID_PARQUET_EMPTY_STRUCT(MapType);
ALKAID_PARQUET_EMPTY_STRUCT(ListType);
ALKAID_PARQUET_EMPTY_STRUCT(VectorType);
ALKAID_PARQUET_EMPTY_STRUCT(EnumType);
ALKAID_PARQUET_EMPTY_STRUCT(DateType);
ALKAID_PARQUET_EMPTY_STRUCT(Float16Type);
ALKAID_PARQUET_EMPTY_STRUCT(NullType);
ALKAID_PARQUET_EMPTY_STRUCT(JsonType);
ALKAID_PARQUET_EMPTY_STRUCT(BsonType);
ALKAID_PARQUET_EMPTY_STRUCT(MilliSeconds);
ALKAID_PARQUET_EMPTY_STRUCT(MicroSeconds);
ALKAID_PARQUET_EMPTY_STRUCT(NanoSeconds);

struct ALKAID_EXPORT DecimalType {
  static constexpr const char* kName = "DecimalType";
  int32_t scale = 0;
  int32_t precision = 0;
  static constexpr auto Fields() {
    using S = DecimalType;
    return std::tuple{Required(&S::scale, 1, "scale"), Required(&S::precision, 2, "precision")};
  }
  bool operator==(const DecimalType&) const = default;
};

/// A union: exactly one member is set in a valid file.
struct ALKAID_EXPORT TimeUnit {
  static constexpr const char* kName = "TimeUnit";
  std::optional<MilliSeconds> MILLIS;
  std::optional<MicroSeconds> MICROS;
  std::optional<NanoSeconds> NANOS;
  static constexpr auto Fields() {
    using S = TimeUnit;
    return std::tuple{Optional(&S::MILLIS, 1, "MILLIS"), Optional(&S::MICROS, 2, "MICROS"),
                      Optional(&S::NANOS, 3, "NANOS")};
  }
  bool operator==(const TimeUnit&) const = default;
};

struct ALKAID_EXPORT TimestampType {
  static constexpr const char* kName = "TimestampType";
  bool isAdjustedToUTC = false;
  TimeUnit unit;
  static constexpr auto Fields() {
    using S = TimestampType;
    return std::tuple{Required(&S::isAdjustedToUTC, 1, "isAdjustedToUTC"),
                      Required(&S::unit, 2, "unit")};
  }
  bool operator==(const TimestampType&) const = default;
};

struct ALKAID_EXPORT TimeType {
  static constexpr const char* kName = "TimeType";
  bool isAdjustedToUTC = false;
  TimeUnit unit;
  static constexpr auto Fields() {
    using S = TimeType;
    return std::tuple{Required(&S::isAdjustedToUTC, 1, "isAdjustedToUTC"),
                      Required(&S::unit, 2, "unit")};
  }
  bool operator==(const TimeType&) const = default;
};

struct ALKAID_EXPORT IntType {
  static constexpr const char* kName = "IntType";
  int8_t bitWidth = 0;
  bool isSigned = false;
  static constexpr auto Fields() {
    using S = IntType;
    return std::tuple{Required(&S::bitWidth, 1, "bitWidth"),
                      Required(&S::isSigned, 2, "isSigned")};
  }
  bool operator==(const IntType&) const = default;
};

struct ALKAID_EXPORT VariantType {
  static constexpr const char* kName = "VariantType";
  std::optional<int8_t> specification_version;
  static constexpr auto Fields() {
    return std::tuple{
        Optional(&VariantType::specification_version, 1, "specification_version")};
  }
  bool operator==(const VariantType&) const = default;
};

struct ALKAID_EXPORT GeometryType {
  static constexpr const char* kName = "GeometryType";
  std::optional<std::string> crs;
  static constexpr auto Fields() { return std::tuple{Optional(&GeometryType::crs, 1, "crs")}; }
  bool operator==(const GeometryType&) const = default;
};

struct ALKAID_EXPORT GeographyType {
  static constexpr const char* kName = "GeographyType";
  std::optional<std::string> crs;
  std::optional<EdgeInterpolationAlgorithm> algorithm;
  static constexpr auto Fields() {
    using S = GeographyType;
    return std::tuple{Optional(&S::crs, 1, "crs"), Optional(&S::algorithm, 2, "algorithm")};
  }
  bool operator==(const GeographyType&) const = default;
};

/// A union: exactly one member is set in a valid file. Id 9 is unused.
struct ALKAID_EXPORT LogicalType {
  static constexpr const char* kName = "LogicalType";
  std::optional<StringType> STRING;
  std::optional<MapType> MAP;
  std::optional<ListType> LIST;
  std::optional<EnumType> ENUM;
  std::optional<DecimalType> DECIMAL;
  std::optional<DateType> DATE;
  std::optional<TimeType> TIME;
  std::optional<TimestampType> TIMESTAMP;
  std::optional<IntType> INTEGER;
  std::optional<NullType> UNKNOWN;
  std::optional<JsonType> JSON;
  std::optional<BsonType> BSON;
  std::optional<UUIDType> UUID;
  std::optional<Float16Type> FLOAT16;
  std::optional<VariantType> VARIANT;
  std::optional<GeometryType> GEOMETRY;
  std::optional<GeographyType> GEOGRAPHY;
  std::optional<VectorType> VECTOR;
  static constexpr auto Fields() {
    using S = LogicalType;
    return std::tuple{
        Optional(&S::STRING, 1, "STRING"),       Optional(&S::MAP, 2, "MAP"),
        Optional(&S::LIST, 3, "LIST"),           Optional(&S::ENUM, 4, "ENUM"),
        Optional(&S::DECIMAL, 5, "DECIMAL"),     Optional(&S::DATE, 6, "DATE"),
        Optional(&S::TIME, 7, "TIME"),           Optional(&S::TIMESTAMP, 8, "TIMESTAMP"),
        Optional(&S::INTEGER, 10, "INTEGER"),    Optional(&S::UNKNOWN, 11, "UNKNOWN"),
        Optional(&S::JSON, 12, "JSON"),          Optional(&S::BSON, 13, "BSON"),
        Optional(&S::UUID, 14, "UUID"),          Optional(&S::FLOAT16, 15, "FLOAT16"),
        Optional(&S::VARIANT, 16, "VARIANT"),    Optional(&S::GEOMETRY, 17, "GEOMETRY"),
        Optional(&S::GEOGRAPHY, 18, "GEOGRAPHY"), Optional(&S::VECTOR, 19, "VECTOR")};
  }
  bool operator==(const LogicalType&) const = default;
};

// ---- schema ---------------------------------------------------------------------------------

struct ALKAID_EXPORT SchemaElement {
  static constexpr const char* kName = "SchemaElement";
  std::optional<int32_t> type;  // PhysicalType wire number
  std::optional<int32_t> type_length;
  std::optional<FieldRepetitionType> repetition_type;
  std::string name;
  std::optional<int32_t> num_children;
  std::optional<ConvertedType> converted_type;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  std::optional<LogicalType> logicalType;
  std::optional<int32_t> vector_length;
  static constexpr auto Fields() {
    using S = SchemaElement;
    return std::tuple{Optional(&S::type, 1, "type"),
                      Optional(&S::type_length, 2, "type_length"),
                      Optional(&S::repetition_type, 3, "repetition_type"),
                      Required(&S::name, 4, "name"),
                      Optional(&S::num_children, 5, "num_children"),
                      Optional(&S::converted_type, 6, "converted_type"),
                      Optional(&S::scale, 7, "scale"),
                      Optional(&S::precision, 8, "precision"),
                      Optional(&S::field_id, 9, "field_id"),
                      Optional(&S::logicalType, 10, "logicalType"),
                      Optional(&S::vector_length, 11, "vector_length")};
  }
  bool operator==(const SchemaElement&) const = default;
};

// ---- pages ----------------------------------------------------------------------------------

struct ALKAID_EXPORT DataPageHeader {
  static constexpr const char* kName = "DataPageHeader";
  int32_t num_values = 0;
  int32_t encoding = 0;  // Encoding wire number
  int32_t definition_level_encoding = 0;
  int32_t repetition_level_encoding = 0;
  std::optional<Statistics> statistics;
  static constexpr auto Fields() {
    using S = DataPageHeader;
    return std::tuple{Required(&S::num_values, 1, "num_values"),
                      Required(&S::encoding, 2, "encoding"),
                      Required(&S::definition_level_encoding, 3, "definition_level_encoding"),
                      Required(&S::repetition_level_encoding, 4, "repetition_level_encoding"),
                      Optional(&S::statistics, 5, "statistics")};
  }
  bool operator==(const DataPageHeader&) const = default;
};

ALKAID_PARQUET_EMPTY_STRUCT(IndexPageHeader);

struct ALKAID_EXPORT DictionaryPageHeader {
  static constexpr const char* kName = "DictionaryPageHeader";
  int32_t num_values = 0;
  int32_t encoding = 0;  // Encoding wire number
  std::optional<bool> is_sorted;
  static constexpr auto Fields() {
    using S = DictionaryPageHeader;
    return std::tuple{Required(&S::num_values, 1, "num_values"),
                      Required(&S::encoding, 2, "encoding"),
                      Optional(&S::is_sorted, 3, "is_sorted")};
  }
  bool operator==(const DictionaryPageHeader&) const = default;
};

struct ALKAID_EXPORT DataPageHeaderV2 {
  static constexpr const char* kName = "DataPageHeaderV2";
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  int32_t encoding = 0;  // Encoding wire number
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  std::optional<bool> is_compressed;  // absent means true
  std::optional<Statistics> statistics;
  static constexpr auto Fields() {
    using S = DataPageHeaderV2;
    return std::tuple{
        Required(&S::num_values, 1, "num_values"),
        Required(&S::num_nulls, 2, "num_nulls"),
        Required(&S::num_rows, 3, "num_rows"),
        Required(&S::encoding, 4, "encoding"),
        Required(&S::definition_levels_byte_length, 5, "definition_levels_byte_length"),
        Required(&S::repetition_levels_byte_length, 6, "repetition_levels_byte_length"),
        Optional(&S::is_compressed, 7, "is_compressed"),
        Optional(&S::statistics, 8, "statistics")};
  }
  bool operator==(const DataPageHeaderV2&) const = default;
};

ALKAID_PARQUET_EMPTY_STRUCT(SplitBlockAlgorithm);
ALKAID_PARQUET_EMPTY_STRUCT(XxHash);
ALKAID_PARQUET_EMPTY_STRUCT(Uncompressed);

struct ALKAID_EXPORT BloomFilterAlgorithm {
  static constexpr const char* kName = "BloomFilterAlgorithm";
  std::optional<SplitBlockAlgorithm> BLOCK;
  static constexpr auto Fields() {
    return std::tuple{Optional(&BloomFilterAlgorithm::BLOCK, 1, "BLOCK")};
  }
  bool operator==(const BloomFilterAlgorithm&) const = default;
};

struct ALKAID_EXPORT BloomFilterHash {
  static constexpr const char* kName = "BloomFilterHash";
  std::optional<XxHash> XXHASH;
  static constexpr auto Fields() {
    return std::tuple{Optional(&BloomFilterHash::XXHASH, 1, "XXHASH")};
  }
  bool operator==(const BloomFilterHash&) const = default;
};

struct ALKAID_EXPORT BloomFilterCompression {
  static constexpr const char* kName = "BloomFilterCompression";
  std::optional<Uncompressed> UNCOMPRESSED;
  static constexpr auto Fields() {
    return std::tuple{Optional(&BloomFilterCompression::UNCOMPRESSED, 1, "UNCOMPRESSED")};
  }
  bool operator==(const BloomFilterCompression&) const = default;
};

struct ALKAID_EXPORT BloomFilterHeader {
  static constexpr const char* kName = "BloomFilterHeader";
  int32_t numBytes = 0;
  BloomFilterAlgorithm algorithm;
  BloomFilterHash hash;
  BloomFilterCompression compression;
  static constexpr auto Fields() {
    using S = BloomFilterHeader;
    return std::tuple{Required(&S::numBytes, 1, "numBytes"),
                      Required(&S::algorithm, 2, "algorithm"), Required(&S::hash, 3, "hash"),
                      Required(&S::compression, 4, "compression")};
  }
  bool operator==(const BloomFilterHeader&) const = default;
};

struct ALKAID_EXPORT PageHeader {
  static constexpr const char* kName = "PageHeader";
  PageType type = PageType::kDataPage;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<IndexPageHeader> index_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
  static constexpr auto Fields() {
    using S = PageHeader;
    return std::tuple{Required(&S::type, 1, "type"),
                      Required(&S::uncompressed_page_size, 2, "uncompressed_page_size"),
                      Required(&S::compressed_page_size, 3, "compressed_page_size"),
                      Optional(&S::crc, 4, "crc"),
                      Optional(&S::data_page_header, 5, "data_page_header"),
                      Optional(&S::index_page_header, 6, "index_page_header"),
                      Optional(&S::dictionary_page_header, 7, "dictionary_page_header"),
                      Optional(&S::data_page_header_v2, 8, "data_page_header_v2")};
  }
  bool operator==(const PageHeader&) const = default;
};

// ---- column chunks, row groups, file --------------------------------------------------------

struct ALKAID_EXPORT KeyValue {
  static constexpr const char* kName = "KeyValue";
  std::string key;
  std::optional<std::string> value;
  static constexpr auto Fields() {
    return std::tuple{Required(&KeyValue::key, 1, "key"), Optional(&KeyValue::value, 2, "value")};
  }
  bool operator==(const KeyValue&) const = default;
};

struct ALKAID_EXPORT SortingColumn {
  static constexpr const char* kName = "SortingColumn";
  int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;
  static constexpr auto Fields() {
    using S = SortingColumn;
    return std::tuple{Required(&S::column_idx, 1, "column_idx"),
                      Required(&S::descending, 2, "descending"),
                      Required(&S::nulls_first, 3, "nulls_first")};
  }
  bool operator==(const SortingColumn&) const = default;
};

struct ALKAID_EXPORT PageEncodingStats {
  static constexpr const char* kName = "PageEncodingStats";
  PageType page_type = PageType::kDataPage;
  int32_t encoding = 0;  // Encoding wire number
  int32_t count = 0;
  static constexpr auto Fields() {
    using S = PageEncodingStats;
    return std::tuple{Required(&S::page_type, 1, "page_type"),
                      Required(&S::encoding, 2, "encoding"), Required(&S::count, 3, "count")};
  }
  bool operator==(const PageEncodingStats&) const = default;
};

struct ALKAID_EXPORT ColumnMetaData {
  static constexpr const char* kName = "ColumnMetaData";
  int32_t type = 0;                // PhysicalType wire number
  std::vector<int32_t> encodings;  // Encoding wire numbers
  std::vector<std::string> path_in_schema;
  int32_t codec = 0;  // CompressionCodec wire number
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  std::optional<std::vector<KeyValue>> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  std::optional<std::vector<PageEncodingStats>> encoding_stats;
  std::optional<int64_t> bloom_filter_offset;
  std::optional<int32_t> bloom_filter_length;
  std::optional<SizeStatistics> size_statistics;
  std::optional<GeospatialStatistics> geospatial_statistics;
  static constexpr auto Fields() {
    using S = ColumnMetaData;
    return std::tuple{Required(&S::type, 1, "type"),
                      Required(&S::encodings, 2, "encodings"),
                      Required(&S::path_in_schema, 3, "path_in_schema"),
                      Required(&S::codec, 4, "codec"),
                      Required(&S::num_values, 5, "num_values"),
                      Required(&S::total_uncompressed_size, 6, "total_uncompressed_size"),
                      Required(&S::total_compressed_size, 7, "total_compressed_size"),
                      Optional(&S::key_value_metadata, 8, "key_value_metadata"),
                      Required(&S::data_page_offset, 9, "data_page_offset"),
                      Optional(&S::index_page_offset, 10, "index_page_offset"),
                      Optional(&S::dictionary_page_offset, 11, "dictionary_page_offset"),
                      Optional(&S::statistics, 12, "statistics"),
                      Optional(&S::encoding_stats, 13, "encoding_stats"),
                      Optional(&S::bloom_filter_offset, 14, "bloom_filter_offset"),
                      Optional(&S::bloom_filter_length, 15, "bloom_filter_length"),
                      Optional(&S::size_statistics, 16, "size_statistics"),
                      Optional(&S::geospatial_statistics, 17, "geospatial_statistics")};
  }
  bool operator==(const ColumnMetaData&) const = default;
};

ALKAID_PARQUET_EMPTY_STRUCT(EncryptionWithFooterKey);

struct ALKAID_EXPORT EncryptionWithColumnKey {
  static constexpr const char* kName = "EncryptionWithColumnKey";
  std::vector<std::string> path_in_schema;
  std::optional<std::string> key_metadata;
  static constexpr auto Fields() {
    using S = EncryptionWithColumnKey;
    return std::tuple{Required(&S::path_in_schema, 1, "path_in_schema"),
                      Optional(&S::key_metadata, 2, "key_metadata")};
  }
  bool operator==(const EncryptionWithColumnKey&) const = default;
};

/// A union: exactly one member is set in a valid file.
struct ALKAID_EXPORT ColumnCryptoMetaData {
  static constexpr const char* kName = "ColumnCryptoMetaData";
  std::optional<EncryptionWithFooterKey> ENCRYPTION_WITH_FOOTER_KEY;
  std::optional<EncryptionWithColumnKey> ENCRYPTION_WITH_COLUMN_KEY;
  static constexpr auto Fields() {
    using S = ColumnCryptoMetaData;
    return std::tuple{
        Optional(&S::ENCRYPTION_WITH_FOOTER_KEY, 1, "ENCRYPTION_WITH_FOOTER_KEY"),
        Optional(&S::ENCRYPTION_WITH_COLUMN_KEY, 2, "ENCRYPTION_WITH_COLUMN_KEY")};
  }
  bool operator==(const ColumnCryptoMetaData&) const = default;
};

struct ALKAID_EXPORT ColumnChunk {
  static constexpr const char* kName = "ColumnChunk";
  std::optional<std::string> file_path;
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
  std::optional<ColumnCryptoMetaData> crypto_metadata;
  std::optional<std::string> encrypted_column_metadata;
  static constexpr auto Fields() {
    using S = ColumnChunk;
    return std::tuple{Optional(&S::file_path, 1, "file_path"),
                      Required(&S::file_offset, 2, "file_offset"),
                      Optional(&S::meta_data, 3, "meta_data"),
                      Optional(&S::offset_index_offset, 4, "offset_index_offset"),
                      Optional(&S::offset_index_length, 5, "offset_index_length"),
                      Optional(&S::column_index_offset, 6, "column_index_offset"),
                      Optional(&S::column_index_length, 7, "column_index_length"),
                      Optional(&S::crypto_metadata, 8, "crypto_metadata"),
                      Optional(&S::encrypted_column_metadata, 9, "encrypted_column_metadata")};
  }
  bool operator==(const ColumnChunk&) const = default;
};

struct ALKAID_EXPORT RowGroup {
  static constexpr const char* kName = "RowGroup";
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::optional<std::vector<SortingColumn>> sorting_columns;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
  static constexpr auto Fields() {
    using S = RowGroup;
    return std::tuple{Required(&S::columns, 1, "columns"),
                      Required(&S::total_byte_size, 2, "total_byte_size"),
                      Required(&S::num_rows, 3, "num_rows"),
                      Optional(&S::sorting_columns, 4, "sorting_columns"),
                      Optional(&S::file_offset, 5, "file_offset"),
                      Optional(&S::total_compressed_size, 6, "total_compressed_size"),
                      Optional(&S::ordinal, 7, "ordinal")};
  }
  bool operator==(const RowGroup&) const = default;
};

ALKAID_PARQUET_EMPTY_STRUCT(TypeDefinedOrder);
ALKAID_PARQUET_EMPTY_STRUCT(IEEE754TotalOrder);
ALKAID_PARQUET_EMPTY_STRUCT(Int96TimestampOrder);

/// A union: exactly one member is set in a valid file.
struct ALKAID_EXPORT ColumnOrder {
  static constexpr const char* kName = "ColumnOrder";
  std::optional<TypeDefinedOrder> TYPE_ORDER;
  std::optional<IEEE754TotalOrder> IEEE_754_TOTAL_ORDER;
  std::optional<Int96TimestampOrder> INT96_TIMESTAMP_ORDER;
  static constexpr auto Fields() {
    using S = ColumnOrder;
    return std::tuple{Optional(&S::TYPE_ORDER, 1, "TYPE_ORDER"),
                      Optional(&S::IEEE_754_TOTAL_ORDER, 2, "IEEE_754_TOTAL_ORDER"),
                      Optional(&S::INT96_TIMESTAMP_ORDER, 3, "INT96_TIMESTAMP_ORDER")};
  }
  bool operator==(const ColumnOrder&) const = default;
};

struct ALKAID_EXPORT PageLocation {
  static constexpr const char* kName = "PageLocation";
  int64_t offset = 0;
  int32_t compressed_page_size = 0;
  int64_t first_row_index = 0;
  static constexpr auto Fields() {
    using S = PageLocation;
    return std::tuple{Required(&S::offset, 1, "offset"),
                      Required(&S::compressed_page_size, 2, "compressed_page_size"),
                      Required(&S::first_row_index, 3, "first_row_index")};
  }
  bool operator==(const PageLocation&) const = default;
};

struct ALKAID_EXPORT OffsetIndex {
  static constexpr const char* kName = "OffsetIndex";
  std::vector<PageLocation> page_locations;
  std::optional<std::vector<int64_t>> unencoded_byte_array_data_bytes;
  static constexpr auto Fields() {
    using S = OffsetIndex;
    return std::tuple{
        Required(&S::page_locations, 1, "page_locations"),
        Optional(&S::unencoded_byte_array_data_bytes, 2, "unencoded_byte_array_data_bytes")};
  }
  bool operator==(const OffsetIndex&) const = default;
};

struct ALKAID_EXPORT ColumnIndex {
  static constexpr const char* kName = "ColumnIndex";
  std::vector<bool> null_pages;
  std::vector<std::string> min_values;
  std::vector<std::string> max_values;
  BoundaryOrder boundary_order = BoundaryOrder::kUnordered;
  std::optional<std::vector<int64_t>> null_counts;
  std::optional<std::vector<int64_t>> repetition_level_histograms;
  std::optional<std::vector<int64_t>> definition_level_histograms;
  std::optional<std::vector<int64_t>> nan_counts;
  static constexpr auto Fields() {
    using S = ColumnIndex;
    return std::tuple{
        Required(&S::null_pages, 1, "null_pages"),
        Required(&S::min_values, 2, "min_values"),
        Required(&S::max_values, 3, "max_values"),
        Required(&S::boundary_order, 4, "boundary_order"),
        Optional(&S::null_counts, 5, "null_counts"),
        Optional(&S::repetition_level_histograms, 6, "repetition_level_histograms"),
        Optional(&S::definition_level_histograms, 7, "definition_level_histograms"),
        Optional(&S::nan_counts, 8, "nan_counts")};
  }
  bool operator==(const ColumnIndex&) const = default;
};

struct ALKAID_EXPORT AesGcmV1 {
  static constexpr const char* kName = "AesGcmV1";
  std::optional<std::string> aad_prefix;
  std::optional<std::string> aad_file_unique;
  std::optional<bool> supply_aad_prefix;
  static constexpr auto Fields() {
    using S = AesGcmV1;
    return std::tuple{Optional(&S::aad_prefix, 1, "aad_prefix"),
                      Optional(&S::aad_file_unique, 2, "aad_file_unique"),
                      Optional(&S::supply_aad_prefix, 3, "supply_aad_prefix")};
  }
  bool operator==(const AesGcmV1&) const = default;
};

struct ALKAID_EXPORT AesGcmCtrV1 {
  static constexpr const char* kName = "AesGcmCtrV1";
  std::optional<std::string> aad_prefix;
  std::optional<std::string> aad_file_unique;
  std::optional<bool> supply_aad_prefix;
  static constexpr auto Fields() {
    using S = AesGcmCtrV1;
    return std::tuple{Optional(&S::aad_prefix, 1, "aad_prefix"),
                      Optional(&S::aad_file_unique, 2, "aad_file_unique"),
                      Optional(&S::supply_aad_prefix, 3, "supply_aad_prefix")};
  }
  bool operator==(const AesGcmCtrV1&) const = default;
};

/// A union: exactly one member is set in a valid file.
struct ALKAID_EXPORT EncryptionAlgorithm {
  static constexpr const char* kName = "EncryptionAlgorithm";
  std::optional<AesGcmV1> AES_GCM_V1;
  std::optional<AesGcmCtrV1> AES_GCM_CTR_V1;
  static constexpr auto Fields() {
    using S = EncryptionAlgorithm;
    return std::tuple{Optional(&S::AES_GCM_V1, 1, "AES_GCM_V1"),
                      Optional(&S::AES_GCM_CTR_V1, 2, "AES_GCM_CTR_V1")};
  }
  bool operator==(const EncryptionAlgorithm&) const = default;
};

struct ALKAID_EXPORT FileMetaData {
  static constexpr const char* kName = "FileMetaData";
  int32_t version = 0;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::optional<std::vector<KeyValue>> key_value_metadata;
  std::optional<std::string> created_by;
  std::optional<std::vector<ColumnOrder>> column_orders;
  std::optional<EncryptionAlgorithm> encryption_algorithm;
  std::optional<std::string> footer_signing_key_metadata;
  static constexpr auto Fields() {
    using S = FileMetaData;
    return std::tuple{
        Required(&S::version, 1, "version"),
        Required(&S::schema, 2, "schema"),
        Required(&S::num_rows, 3, "num_rows"),
        Required(&S::row_groups, 4, "row_groups"),
        Optional(&S::key_value_metadata, 5, "key_value_metadata"),
        Optional(&S::created_by, 6, "created_by"),
        Optional(&S::column_orders, 7, "column_orders"),
        Optional(&S::encryption_algorithm, 8, "encryption_algorithm"),
        Optional(&S::footer_signing_key_metadata, 9, "footer_signing_key_metadata")};
  }
  bool operator==(const FileMetaData&) const = default;
};

struct ALKAID_EXPORT FileCryptoMetaData {
  static constexpr const char* kName = "FileCryptoMetaData";
  EncryptionAlgorithm encryption_algorithm;
  std::optional<std::string> key_metadata;
  static constexpr auto Fields() {
    using S = FileCryptoMetaData;
    return std::tuple{Required(&S::encryption_algorithm, 1, "encryption_algorithm"),
                      Optional(&S::key_metadata, 2, "key_metadata")};
  }
  bool operator==(const FileCryptoMetaData&) const = default;
};

#undef ALKAID_PARQUET_EMPTY_STRUCT

}  // namespace alkaid::parquet::format
