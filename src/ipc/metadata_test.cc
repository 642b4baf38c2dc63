#include "metadata.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "alkaid/extension_registry.h"

namespace alkaid::ipc::internal {
namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

// A parameterized extension type for the tests (registered on demand).
class PointType final : public ExtensionType {
 public:
  PointType(DataTypePtr storage, std::string name, std::string params)
      : ExtensionType(std::move(storage)), name_(std::move(name)), params_(std::move(params)) {}
  std::string extension_name() const override { return name_; }
  std::string Serialize() const override { return params_; }
  Result<DataTypePtr> Deserialize(DataTypePtr storage, const std::string& serialized) const override {
    if (serialized == "reject") return Status::Invalid("point metadata rejected");
    return std::make_shared<PointType>(std::move(storage), name_, serialized);
  }

 private:
  std::string name_;
  std::string params_;
};

Result<SchemaReadResult> RoundTrip(const Schema& schema, const DictionaryIds& ids,
                                   IpcDialect dialect = IpcDialect::kArrow) {
  ALKAID_ASSIGN_OR_RAISE(BufferPtr message, SerializeSchemaMessage(schema, ids, dialect));
  ALKAID_ASSIGN_OR_RAISE(const fb::Message* root, VerifyMessage(message->data(), message->size()));
  EXPECT_EQ(root->version(), fb::MetadataVersion::V5);
  EXPECT_EQ(root->header_type(), fb::MessageHeader::Schema);
  EXPECT_EQ(root->bodyLength(), 0);
  return ReadSchema(root->header_as_Schema());
}

SchemaPtr RoundTripSchema(const SchemaPtr& schema) {
  auto result = RoundTrip(*schema, DictionaryIds::AssignSequential(*schema));
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? result->schema : nullptr;
}

void ExpectRoundTrip(const SchemaPtr& schema) {
  SchemaPtr back = RoundTripSchema(schema);
  ASSERT_NE(back, nullptr);
  EXPECT_TRUE(back->Equals(*schema, /*check_metadata=*/true))
      << "wrote " << schema->ToString(true) << "\nread  " << back->ToString(true);
}

TEST(MetadataSchema, EveryPrimitiveType) {
  ExpectRoundTrip(schema({
      field("null", null()), field("bool", boolean(), false),
      field("i8", int8()), field("i16", int16()), field("i32", int32()), field("i64", int64()),
      field("u8", uint8()), field("u16", uint16()), field("u32", uint32()), field("u64", uint64()),
      field("f16", float16()), field("f32", float32()), field("f64", float64()),
      field("d32", decimal32(9, 2)), field("d64", decimal64(18, -3)),
      field("d128", decimal128(38, 10)), field("d256", decimal256(76, 0)),
      field("date32", date32()), field("date64", date64()),
      field("t32s", time32(TimeUnit::kSecond)), field("t32ms", time32(TimeUnit::kMilli)),
      field("t64us", time64(TimeUnit::kMicro)), field("t64ns", time64(TimeUnit::kNano)),
      field("ts_s", timestamp(TimeUnit::kSecond)),
      field("ts_ms_utc", timestamp(TimeUnit::kMilli, "UTC")),
      field("ts_us_ny", timestamp(TimeUnit::kMicro, "America/New_York")),
      field("ts_ns_off", timestamp(TimeUnit::kNano, "+07:30")),
      field("dur_s", duration(TimeUnit::kSecond)), field("dur_ns", duration(TimeUnit::kNano)),
      field("ym", month_interval()), field("dt", day_time_interval()),
      field("mdn", month_day_nano_interval()),
      field("fsb", fixed_size_binary(7)), field("fsb0", fixed_size_binary(0)),
      field("bin", binary()), field("str", utf8()), field("lbin", large_binary()),
      field("lstr", large_utf8()), field("bview", binary_view()), field("sview", utf8_view()),
  }));
}

TEST(MetadataSchema, NestedTypes) {
  auto point = struct_({field("x", float64(), false), field("y", float64())});
  ExpectRoundTrip(schema({
      field("list", list(int32())),
      field("list_named", list(field("element", utf8(), false))),
      field("large_list", large_list(point)),
      field("list_view", list_view(int16())),
      field("large_list_view", large_list_view(binary())),
      field("fsl", fixed_size_list(float32(), 3)),
      field("fsl0", fixed_size_list(int8(), 0)),
      field("struct", point, false),
      field("empty_struct", struct_({})),
      field("map", map(utf8(), int64())),
      field("map_sorted", map(int32(), list(utf8()), /*keys_sorted=*/true)),
      field("sparse", sparse_union({field("a", int32()), field("b", utf8())})),
      field("dense", dense_union({field("a", int32()), field("b", point)}, {5, 100})),
      field("ree16", run_end_encoded(int16(), utf8())),
      field("ree64", run_end_encoded(int64(), list(int8()))),
      field("deep", list(struct_({field("m", map(utf8(), fixed_size_list(int32(), 2)))}))),
  }));
}

TEST(MetadataSchema, MapKeepsNonCanonicalNames) {
  auto entries = field("pairs", struct_({field("k", utf8(), false), field("v", int32())}), false);
  auto map_type = MapType::Make(entries, false).ValueOrDie();
  SchemaPtr back = RoundTripSchema(schema({field("m", map_type)}));
  ASSERT_NE(back, nullptr);
  const auto& m = checked_cast<MapType>(*back->field(0)->type());
  EXPECT_EQ(m.value_field()->name(), "pairs");
  EXPECT_EQ(m.key_field()->name(), "k");
  EXPECT_EQ(m.item_field()->name(), "v");
}

TEST(MetadataSchema, FieldAndSchemaMetadata) {
  auto field_md = KeyValueMetadata::Make({{"k1", "v1"}, {"k1", "dup"}, {"empty", ""}});
  auto child_md = KeyValueMetadata::Make({{"child", "yes"}});
  auto schema_md = KeyValueMetadata::Make({{"origin", "test"}, {"\xE4\xB8\xAD", "\x01\x02"}});
  ExpectRoundTrip(schema(
      {field("a", int32(), true, field_md),
       field("s", struct_({field("c", utf8(), false, child_md)}))},
      schema_md));
}

TEST(MetadataSchema, EndiannessAndEmptySchema) {
  auto big = std::make_shared<Schema>(FieldVector{field("a", int32())}, nullptr, Endianness::kBig);
  SchemaPtr back = RoundTripSchema(big);
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(back->endianness(), Endianness::kBig);
  SchemaPtr empty = RoundTripSchema(schema({}));
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(empty->num_fields(), 0);
}

TEST(MetadataSchema, DictionaryEncodings) {
  auto s = schema({
      field("d0", dictionary(int8(), utf8())),
      field("plain", int32()),
      field("d1", dictionary(uint32(), int64(), /*ordered=*/true)),
      field("nested", struct_({field("inner", dictionary(int16(), binary()))})),
      field("list_of_dict", list(dictionary(int64(), float64()))),
      field("dict_of_struct",
            dictionary(int32(), struct_({field("x", dictionary(int8(), utf8()))}))),
  });
  DictionaryIds ids = DictionaryIds::AssignSequential(*s);
  auto result = RoundTrip(*s, ids);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_TRUE(result->schema->Equals(*s, true)) << result->schema->ToString();
  EXPECT_EQ(result->dictionary_ids.entries(), ids.entries());
  EXPECT_EQ(*result->dictionary_ids.Get({0}), 0);
  EXPECT_EQ(*result->dictionary_ids.Get({2}), 1);
  EXPECT_EQ(*result->dictionary_ids.Get({3, 0}), 2);
  EXPECT_EQ(*result->dictionary_ids.Get({4, 0}), 3);
  EXPECT_EQ(*result->dictionary_ids.Get({5}), 4);
  EXPECT_EQ(*result->dictionary_ids.Get({5, 0}), 5);
  const auto& d1 = checked_cast<DictionaryType>(*result->schema->field(2)->type());
  EXPECT_TRUE(d1.ordered());
  EXPECT_TRUE(d1.index_type()->Equals(*uint32()));

  auto fields = CollectDictionaryFields(*result->schema, result->dictionary_ids);
  ASSERT_TRUE(fields.ok());
  ASSERT_EQ(fields->size(), 6u);
  EXPECT_EQ((*fields)[5].path, (FieldPath{5, 0}));
  EXPECT_TRUE((*fields)[5].type->value_type()->Equals(*utf8()));
}

TEST(MetadataSchema, ExplicitAndSharedDictionaryIds) {
  auto s = schema({field("a", dictionary(int8(), utf8())), field("b", dictionary(int32(), utf8()))});
  DictionaryIds ids;
  ids.Set({0}, 42);
  ids.Set({1}, 42);
  auto result = RoundTrip(*s, ids);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(*result->dictionary_ids.Get({0}), 42);
  EXPECT_EQ(*result->dictionary_ids.Get({1}), 42);

  // Shared ids need equal value types.
  auto mismatched = schema({field("a", dictionary(int8(), utf8())), field("b", dictionary(int8(), int32()))});
  auto collected = CollectDictionaryFields(*mismatched, ids);
  ASSERT_FALSE(collected.ok());
  EXPECT_NE(collected.status().message().find("share dictionary id 42"), std::string::npos);

  // A dictionary field without an id cannot be written.
  DictionaryIds partial;
  partial.Set({0}, 1);
  auto missing = SerializeSchemaMessage(*s, partial, IpcDialect::kArrow);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no dictionary id"), std::string::npos);
}

TEST(MetadataSchema, UnknownExtensionKeepsStorageAndKeys) {
  auto ext = std::make_shared<PointType>(struct_({field("x", float64())}), "alkaid.test.unknown", "p=1");
  auto md = KeyValueMetadata::Make({{"user", "kept"}});
  auto s = schema({field("e", ext, true, md)});
  SchemaPtr back = RoundTripSchema(s);
  ASSERT_NE(back, nullptr);
  const FieldPtr& f = back->field(0);
  EXPECT_TRUE(f->type()->Equals(*ext->storage_type()));
  ASSERT_NE(f->metadata(), nullptr);
  EXPECT_EQ(*f->metadata()->Get("user"), "kept");
  EXPECT_EQ(*f->metadata()->Get(kExtensionNameKey), "alkaid.test.unknown");
  EXPECT_EQ(*f->metadata()->Get(kExtensionMetadataKey), "p=1");
}

TEST(MetadataSchema, RegisteredExtensionInBothDialects) {
  auto prototype = std::make_shared<PointType>(int64(), "alkaid.test.point", "");
  ASSERT_TRUE(RegisterExtensionType(prototype).ok());
  auto ext = std::make_shared<PointType>(int64(), "alkaid.test.point", "unit=m");
  auto md = KeyValueMetadata::Make({{"note", "n"}});
  auto s = schema({field("p", ext, false, md), field("dp", dictionary(int8(), ext))});
  for (IpcDialect dialect : {IpcDialect::kArrow, IpcDialect::kAlkaid}) {
    auto result = RoundTrip(*s, DictionaryIds::AssignSequential(*s), dialect);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_TRUE(result->schema->Equals(*s, true)) << result->schema->ToString(true);
    // The two extension keys are consumed; the user's key stays.
    EXPECT_EQ(result->schema->field(0)->metadata()->size(), 1);
  }
  // The dialect decides the spelling of the keys on the wire.
  BufferPtr message = SerializeSchemaMessage(*s, DictionaryIds::AssignSequential(*s),
                                             IpcDialect::kAlkaid).ValueOrDie();
  EXPECT_NE(message->view().find(kAlkaidExtensionNameKey), std::string_view::npos);
  EXPECT_EQ(message->view().find(kExtensionNameKey), std::string_view::npos);

  // A registered type rejecting its metadata is an error.
  auto rejecting = std::make_shared<PointType>(int64(), "alkaid.test.point", "reject");
  auto bad = RoundTrip(*schema({field("p", rejecting)}), DictionaryIds());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("rejected"), std::string::npos);
  ASSERT_TRUE(UnregisterExtensionType("alkaid.test.point").ok());
}

TEST(MetadataSchema, ExtensionOverDictionaryIsRefused) {
  auto ext = std::make_shared<PointType>(dictionary(int8(), utf8()), "alkaid.test.x", "");
  auto s = schema({field("e", ext)});
  DictionaryIds ids;
  ids.Set({0}, 0);
  auto result = SerializeSchemaMessage(*s, ids, IpcDialect::kArrow);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsNotImplemented());
}

TEST(MetadataSchema, WriterDepthLimit) {
  DataTypePtr t = int32();
  for (int i = 0; i < 70; ++i) t = list(t);
  auto result = SerializeSchemaMessage(*schema({field("deep", t)}), DictionaryIds(), IpcDialect::kArrow);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("deeper"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Malformed schemas built directly with the generated API.

struct FieldSpec {
  fb::Type tag = fb::Type::Int;
  Offset<void> type;
  std::vector<Offset<fb::Field>> children;
  Offset<fb::DictionaryEncoding> dictionary;
  bool nullable = true;
  bool no_children_vector = false;
};

Offset<fb::Field> BuildField(FlatBufferBuilder& fbb, const std::string& name, const FieldSpec& spec) {
  auto name_offset = fbb.CreateString(name);
  Offset<flatbuffers::Vector<Offset<fb::Field>>> children;
  if (!spec.no_children_vector) children = fbb.CreateVector(spec.children);
  return fb::CreateField(fbb, name_offset, spec.nullable, spec.tag, spec.type, spec.dictionary,
                         children);
}

Offset<fb::Field> IntField(FlatBufferBuilder& fbb, const std::string& name, int width = 32,
                           bool nullable = true) {
  FieldSpec spec;
  spec.type = fb::CreateInt(fbb, width, true).Union();
  spec.nullable = nullable;
  return BuildField(fbb, name, spec);
}

Status ReadBuilt(FlatBufferBuilder& fbb, Offset<fb::Field> field,
                 fb::Endianness endianness = fb::Endianness::Little, int max_depth = 64) {
  auto fields = fbb.CreateVector(std::vector<Offset<fb::Field>>{field});
  fbb.Finish(fb::CreateSchema(fbb, endianness, fields));
  flatbuffers::Verifier verifier(fbb.GetBufferPointer(), fbb.GetSize(), /*max_depth=*/512);
  EXPECT_TRUE(verifier.VerifyBuffer<fb::Schema>(nullptr));
  return ReadSchema(flatbuffers::GetRoot<fb::Schema>(fbb.GetBufferPointer()), max_depth).status();
}

void ExpectInvalid(const Status& st, const std::string& needle) {
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find(needle), std::string::npos) << st.ToString();
}

TEST(MetadataSchemaErrors, BadIntegerWidth) {
  FlatBufferBuilder fbb;
  ExpectInvalid(ReadBuilt(fbb, IntField(fbb, "col", 7)), "field 'col' (path 0)");
  FlatBufferBuilder fbb2;
  ExpectInvalid(ReadBuilt(fbb2, IntField(fbb2, "col", 7)), "bit width must be 8, 16, 32 or 64");
}

TEST(MetadataSchemaErrors, MissingOrUnknownType) {
  {
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = fb::Type::NONE;
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "t", spec)), "has no type");
  }
  {
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = fb::Type::Int;  // table left out
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "t", spec)), "type table for Int is missing");
  }
  {
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = static_cast<fb::Type>(99);
    spec.type = fb::CreateNull(fbb).Union();
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "t", spec)), "unknown type tag 99");
  }
}

TEST(MetadataSchemaErrors, UnknownEnumValues) {
  {
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = fb::Type::FloatingPoint;
    spec.type = fb::CreateFloatingPoint(fbb, static_cast<fb::Precision>(9)).Union();
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "f", spec)), "floating point precision 9");
  }
  {
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = fb::Type::Timestamp;
    spec.type = fb::CreateTimestamp(fbb, static_cast<fb::TimeUnit>(4)).Union();
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "ts", spec)), "unknown time unit 4");
  }
  {
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = fb::Type::Date;
    spec.type = fb::CreateDate(fbb, static_cast<fb::DateUnit>(3)).Union();
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "d", spec)), "unknown date unit");
  }
  {
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = fb::Type::Interval;
    spec.type = fb::CreateInterval(fbb, static_cast<fb::IntervalUnit>(5)).Union();
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "i", spec)), "unknown interval unit");
  }
  {
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = fb::Type::Union;
    spec.type = fb::CreateUnion(fbb, static_cast<fb::UnionMode>(2)).Union();
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "u", spec)), "unknown union mode");
  }
  {
    FlatBufferBuilder fbb;
    ExpectInvalid(ReadBuilt(fbb, IntField(fbb, "a"), static_cast<fb::Endianness>(3)),
                  "unknown endianness");
  }
}

TEST(MetadataSchemaErrors, TimeWidthMustMatchUnit) {
  FlatBufferBuilder fbb;
  FieldSpec spec;
  spec.tag = fb::Type::Time;
  spec.type = fb::CreateTime(fbb, fb::TimeUnit::NANOSECOND, 32).Union();
  ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "t", spec)), "must be 64 bits wide");
}

TEST(MetadataSchemaErrors, DecimalAndWidths) {
  {
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = fb::Type::Decimal;
    spec.type = fb::CreateDecimal(fbb, 10, 2, 100).Union();
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "d", spec)), "bit width");
  }
  {
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = fb::Type::Decimal;
    spec.type = fb::CreateDecimal(fbb, 0, 2, 128).Union();
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "d", spec)), "precision");
  }
  {
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = fb::Type::Decimal;
    spec.type = fb::CreateDecimal(fbb, 10, 2, 32).Union();  // 10 digits exceed decimal32
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "d", spec)), "precision");
  }
  {
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = fb::Type::FixedSizeBinary;
    spec.type = fb::CreateFixedSizeBinary(fbb, -1).Union();
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "b", spec)), "width must be in [0, ");
  }
  {
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = fb::Type::FixedSizeBinary;
    spec.type = fb::CreateFixedSizeBinary(fbb, INT32_MAX).Union();
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "b", spec)), "got 2147483647");
  }
  {
    FlatBufferBuilder fbb;
    auto child = IntField(fbb, "item");
    FieldSpec spec;
    spec.tag = fb::Type::FixedSizeList;
    spec.type = fb::CreateFixedSizeList(fbb, -2).Union();
    spec.children = {child};
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "l", spec)), ">= 0");
  }
}

TEST(MetadataSchemaErrors, ChildCounts) {
  {
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = fb::Type::List;
    spec.type = fb::CreateList(fbb).Union();
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "l", spec)), "List needs exactly 1 child, got 0");
  }
  {
    FlatBufferBuilder fbb;
    auto a = IntField(fbb, "a");
    auto b = IntField(fbb, "b");
    FieldSpec spec;
    spec.tag = fb::Type::LargeList;
    spec.type = fb::CreateLargeList(fbb).Union();
    spec.children = {a, b};
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "l", spec)), "needs exactly 1 child, got 2");
  }
  {
    FlatBufferBuilder fbb;
    auto a = IntField(fbb, "a");
    FieldSpec spec;
    spec.tag = fb::Type::Utf8;
    spec.type = fb::CreateUtf8(fbb).Union();
    spec.children = {a};
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "s", spec)), "takes no children");
  }
  {  // Map over a non-struct child.
    FlatBufferBuilder fbb;
    auto a = IntField(fbb, "entries", 32, false);
    FieldSpec spec;
    spec.tag = fb::Type::Map;
    spec.type = fb::CreateMap(fbb).Union();
    spec.children = {a};
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "m", spec)), "map entries must be a struct");
  }
  {  // Map whose struct has one member.
    FlatBufferBuilder fbb;
    auto key = IntField(fbb, "key", 32, false);
    FieldSpec entries;
    entries.tag = fb::Type::Struct_;
    entries.type = fb::CreateStruct_(fbb).Union();
    entries.children = {key};
    entries.nullable = false;
    auto entries_field = BuildField(fbb, "entries", entries);
    FieldSpec spec;
    spec.tag = fb::Type::Map;
    spec.type = fb::CreateMap(fbb).Union();
    spec.children = {entries_field};
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "m", spec)), "two fields");
  }
  {
    FlatBufferBuilder fbb;
    auto a = IntField(fbb, "run_ends", 32, false);
    FieldSpec spec;
    spec.tag = fb::Type::RunEndEncoded;
    spec.type = fb::CreateRunEndEncoded(fbb).Union();
    spec.children = {a};
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "r", spec)), "exactly 2 children, got 1");
  }
  {  // Run ends of a non-integer type.
    FlatBufferBuilder fbb;
    FieldSpec ends;
    ends.tag = fb::Type::Utf8;
    ends.type = fb::CreateUtf8(fbb).Union();
    ends.nullable = false;
    auto ends_field = BuildField(fbb, "run_ends", ends);
    auto values = IntField(fbb, "values");
    FieldSpec spec;
    spec.tag = fb::Type::RunEndEncoded;
    spec.type = fb::CreateRunEndEncoded(fbb).Union();
    spec.children = {ends_field, values};
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "r", spec)), "run end type");
  }
}

TEST(MetadataSchemaErrors, UnionTypeIds) {
  {
    FlatBufferBuilder fbb;
    auto a = IntField(fbb, "a");
    auto ids = fbb.CreateVector(std::vector<int32_t>{1, 2});
    FieldSpec spec;
    spec.tag = fb::Type::Union;
    spec.type = fb::CreateUnion(fbb, fb::UnionMode::Dense, ids).Union();
    spec.children = {a};
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "u", spec)), "1 children but 2 type ids");
  }
  {
    FlatBufferBuilder fbb;
    auto a = IntField(fbb, "a");
    auto ids = fbb.CreateVector(std::vector<int32_t>{200});
    FieldSpec spec;
    spec.tag = fb::Type::Union;
    spec.type = fb::CreateUnion(fbb, fb::UnionMode::Sparse, ids).Union();
    spec.children = {a};
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "u", spec)), "type id 200");
  }
  {
    FlatBufferBuilder fbb;
    auto a = IntField(fbb, "a");
    auto b = IntField(fbb, "b");
    auto ids = fbb.CreateVector(std::vector<int32_t>{3, 3});
    FieldSpec spec;
    spec.tag = fb::Type::Union;
    spec.type = fb::CreateUnion(fbb, fb::UnionMode::Sparse, ids).Union();
    spec.children = {a, b};
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "u", spec)), "declared twice");
  }
}

TEST(MetadataSchemaErrors, DictionaryIndexTypeAndKind) {
  {
    FlatBufferBuilder fbb;
    auto index = fb::CreateInt(fbb, 12, true);
    FieldSpec spec;
    spec.tag = fb::Type::Utf8;
    spec.type = fb::CreateUtf8(fbb).Union();
    spec.dictionary = fb::CreateDictionaryEncoding(fbb, 0, index);
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "d", spec)), "dictionary index type");
  }
  {
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = fb::Type::Utf8;
    spec.type = fb::CreateUtf8(fbb).Union();
    spec.dictionary = fb::CreateDictionaryEncoding(fbb, 0, 0, false, static_cast<fb::DictionaryKind>(4));
    ExpectInvalid(ReadBuilt(fbb, BuildField(fbb, "d", spec)), "unknown dictionary kind 4");
  }
  {  // No index type: signed 32-bit by definition.
    FlatBufferBuilder fbb;
    FieldSpec spec;
    spec.tag = fb::Type::Utf8;
    spec.type = fb::CreateUtf8(fbb).Union();
    spec.dictionary = fb::CreateDictionaryEncoding(fbb, 7);
    auto fields = fbb.CreateVector(std::vector<Offset<fb::Field>>{BuildField(fbb, "d", spec)});
    fbb.Finish(fb::CreateSchema(fbb, fb::Endianness::Little, fields));
    auto result = ReadSchema(flatbuffers::GetRoot<fb::Schema>(fbb.GetBufferPointer()));
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_TRUE(result->schema->field(0)->type()->Equals(*dictionary(int32(), utf8())));
    EXPECT_EQ(*result->dictionary_ids.Get({0}), 7);
  }
}

TEST(MetadataSchemaErrors, NestingDepthAndPathInMessage) {
  FlatBufferBuilder fbb;
  Offset<fb::Field> inner = IntField(fbb, "leaf");
  for (int i = 0; i < 70; ++i) {
    FieldSpec spec;
    spec.tag = fb::Type::List;
    spec.type = fb::CreateList(fbb).Union();
    spec.children = {inner};
    inner = BuildField(fbb, "l" + std::to_string(i), spec);
  }
  ExpectInvalid(ReadBuilt(fbb, inner), "deeper than the limit of 64");

  FlatBufferBuilder shallow;
  auto bad = IntField(shallow, "bad", 3);
  FieldSpec s;
  s.tag = fb::Type::Struct_;
  s.type = fb::CreateStruct_(shallow).Union();
  s.children = {IntField(shallow, "ok"), bad};
  ExpectInvalid(ReadBuilt(shallow, BuildField(shallow, "outer", s)), "field 'outer.bad' (path 0.1)");
}

TEST(MetadataSchemaErrors, SharedIdWithDifferentValueTypes) {
  FlatBufferBuilder fbb;
  FieldSpec a;
  a.tag = fb::Type::Utf8;
  a.type = fb::CreateUtf8(fbb).Union();
  a.dictionary = fb::CreateDictionaryEncoding(fbb, 3);
  auto fa = BuildField(fbb, "a", a);
  FieldSpec b;
  b.tag = fb::Type::Binary;
  b.type = fb::CreateBinary(fbb).Union();
  b.dictionary = fb::CreateDictionaryEncoding(fbb, 3);
  auto fbf = BuildField(fbb, "b", b);
  auto fields = fbb.CreateVector(std::vector<Offset<fb::Field>>{fa, fbf});
  fbb.Finish(fb::CreateSchema(fbb, fb::Endianness::Little, fields));
  auto result = ReadSchema(flatbuffers::GetRoot<fb::Schema>(fbb.GetBufferPointer()));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("share dictionary id 3"), std::string::npos);
}

TEST(MetadataSchemaErrors, MetadataEntryWithoutKey) {
  FlatBufferBuilder fbb;
  auto kv = fb::CreateKeyValue(fbb, 0, fbb.CreateString("v"));
  auto kvs = fbb.CreateVector(std::vector<Offset<fb::KeyValue>>{kv});
  fbb.Finish(fb::CreateSchema(fbb, fb::Endianness::Little, 0, kvs));
  auto result = ReadSchema(flatbuffers::GetRoot<fb::Schema>(fbb.GetBufferPointer()));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("entry 0 has no key"), std::string::npos);
  EXPECT_FALSE(ReadSchema(nullptr).ok());
}

TEST(MetadataSchema, ChildrenVectorMayBeAbsent) {
  FlatBufferBuilder fbb;
  FieldSpec spec;
  spec.tag = fb::Type::Struct_;
  spec.type = fb::CreateStruct_(fbb).Union();
  spec.no_children_vector = true;
  EXPECT_TRUE(ReadBuilt(fbb, BuildField(fbb, "s", spec)).ok());
}

// ---------------------------------------------------------------------------
// Batch headers, framing, footer

TEST(MetadataBatch, RecordBatchHeaderRoundTrip) {
  RecordBatchMeta meta;
  meta.length = 5;
  meta.nodes = {{5, 1}, {9, 0}};
  meta.buffers = {{0, 1}, {8, 20}, {32, 0}};
  meta.variadic_buffer_counts = {2};
  meta.compression = CompressionType::kZstd;
  FlatBufferBuilder fbb;
  BuildRecordBatchMessage(&fbb, meta, 64);
  auto message = VerifyMessage(fbb.GetBufferPointer(), fbb.GetSize()).ValueOrDie();
  EXPECT_EQ(message->bodyLength(), 64);
  ASSERT_EQ(message->header_type(), fb::MessageHeader::RecordBatch);
  EXPECT_EQ(message->header_as_RecordBatch()->compression()->codec(), fb::CompressionType::ZSTD);
  RecordBatchMeta back;
  ASSERT_TRUE(ReadRecordBatchHeader(message->header_as_RecordBatch(), 64, &back).ok());
  EXPECT_EQ(back.length, 5);
  ASSERT_EQ(back.nodes.size(), 2u);
  EXPECT_EQ(back.nodes[0].null_count, 1);
  EXPECT_EQ(back.nodes[1].length, 9);
  ASSERT_EQ(back.buffers.size(), 3u);
  EXPECT_EQ(back.buffers[1].offset, 8);
  EXPECT_EQ(back.buffers[1].length, 20);
  EXPECT_EQ(back.variadic_buffer_counts, std::vector<int64_t>{2});
  EXPECT_EQ(back.compression, CompressionType::kZstd);

  // Body too short for buffer 1.
  Status st = ReadRecordBatchHeader(message->header_as_RecordBatch(), 16, &back);
  EXPECT_NE(st.message().find("buffer 1"), std::string::npos) << st.ToString();

  // Uncompressed, no variadic counts: both fields are absent on the wire.
  meta.compression = CompressionType::kNone;
  meta.variadic_buffer_counts.clear();
  BuildRecordBatchMessage(&fbb, meta, 64);
  message = VerifyMessage(fbb.GetBufferPointer(), fbb.GetSize()).ValueOrDie();
  EXPECT_EQ(message->header_as_RecordBatch()->compression(), nullptr);
  EXPECT_EQ(message->header_as_RecordBatch()->variadicBufferCounts(), nullptr);
}

TEST(MetadataBatch, RejectsBadNodesAndCodecs) {
  FlatBufferBuilder fbb;
  std::vector<fb::FieldNode> nodes = {fb::FieldNode(3, 4)};
  auto rb = fb::CreateRecordBatch(fbb, 3, fbb.CreateVectorOfStructs(nodes));
  fbb.Finish(rb);
  RecordBatchMeta out;
  Status st = ReadRecordBatchHeader(flatbuffers::GetRoot<fb::RecordBatch>(fbb.GetBufferPointer()), -1, &out);
  EXPECT_NE(st.message().find("field node 0"), std::string::npos) << st.ToString();

  FlatBufferBuilder fbb2;
  auto comp = fb::CreateBodyCompression(fbb2, static_cast<fb::CompressionType>(7));
  fbb2.Finish(fb::CreateRecordBatch(fbb2, 0, 0, 0, comp));
  st = ReadRecordBatchHeader(flatbuffers::GetRoot<fb::RecordBatch>(fbb2.GetBufferPointer()), -1, &out);
  EXPECT_NE(st.message().find("codec 7"), std::string::npos) << st.ToString();

  FlatBufferBuilder fbb3;
  fbb3.Finish(fb::CreateRecordBatch(fbb3, -1));
  EXPECT_FALSE(ReadRecordBatchHeader(flatbuffers::GetRoot<fb::RecordBatch>(fbb3.GetBufferPointer()), -1, &out).ok());

  FlatBufferBuilder fbb4;
  fbb4.Finish(fb::CreateRecordBatch(fbb4, 0, 0, 0, 0, fbb4.CreateVector(std::vector<int64_t>{-1})));
  EXPECT_FALSE(ReadRecordBatchHeader(flatbuffers::GetRoot<fb::RecordBatch>(fbb4.GetBufferPointer()), -1, &out).ok());
}

// Builds a vector of `count` elements from `bytes` aligned to 4 bytes only,
// which the Flatbuffers verifier accepts. `pad` adds a spare word behind the
// vector (1) or in front of it (2; buffers are built back to front): one of
// the settings puts the elements at 4 mod 8 from the start of the buffer.
template <typename T>
Offset<flatbuffers::Vector<T>> LooselyAlignedVector(FlatBufferBuilder& fbb, const void* bytes,
                                                    size_t size, size_t count, int pad) {
  if (pad == 1) fbb.PushElement<uint32_t>(0);
  fbb.StartVector(size / 4, 4);
  fbb.PushBytes(static_cast<const uint8_t*>(bytes), size);
  const auto vector = Offset<flatbuffers::Vector<T>>(fbb.EndVector(count));
  if (pad == 2) fbb.PushElement<uint32_t>(0);
  return vector;
}

// A finished buffer copied to 8-byte aligned storage, as the reader keeps it.
std::vector<uint64_t> AlignedCopy(const FlatBufferBuilder& fbb) {
  std::vector<uint64_t> out((fbb.GetSize() + 7) / 8);
  std::memcpy(out.data(), fbb.GetBufferPointer(), fbb.GetSize());
  return out;
}

bool AtFourModEight(const void* base, const void* p) {
  return (static_cast<const uint8_t*>(p) - static_cast<const uint8_t*>(base)) % 8 == 4;
}

// Hostile but verifiable metadata: 8-byte struct and integer elements at 4
// mod 8. They must be read correctly and without misaligned loads (the
// sanitizer build turns such a load into a failure).
TEST(MetadataBatch, EightByteElementsAtFourModEight) {
  const fb::FieldNode nodes[] = {fb::FieldNode(5, 1), fb::FieldNode(7, 0)};
  const fb::Buffer buffers[] = {fb::Buffer(0, 8), fb::Buffer(8, 40)};
  const int64_t counts[] = {3};
  bool found = false;
  for (int pads = 0; pads < 27 && !found; ++pads) {
    FlatBufferBuilder fbb;
    auto c = LooselyAlignedVector<int64_t>(fbb, counts, sizeof(counts), 1, pads % 3);
    auto b = LooselyAlignedVector<const fb::Buffer*>(fbb, buffers, sizeof(buffers), 2, pads / 3 % 3);
    auto n = LooselyAlignedVector<const fb::FieldNode*>(fbb, nodes, sizeof(nodes), 2, pads / 9);
    fbb.Finish(fb::CreateRecordBatch(fbb, 7, n, b, 0, c));
    const std::vector<uint64_t> storage = AlignedCopy(fbb);
    flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(storage.data()), fbb.GetSize());
    ASSERT_TRUE(verifier.VerifyBuffer<fb::RecordBatch>(nullptr));
    const auto* batch = flatbuffers::GetRoot<fb::RecordBatch>(storage.data());
    if (!AtFourModEight(storage.data(), batch->nodes()->Data()) ||
        !AtFourModEight(storage.data(), batch->buffers()->Data()) ||
        !AtFourModEight(storage.data(), batch->variadicBufferCounts()->Data())) {
      continue;
    }
    found = true;
    RecordBatchMeta out;
    ASSERT_TRUE(ReadRecordBatchHeader(batch, 48, &out).ok());
    ASSERT_EQ(out.nodes.size(), 2u);
    EXPECT_EQ(out.nodes[0].length, 5);
    EXPECT_EQ(out.nodes[0].null_count, 1);
    EXPECT_EQ(out.nodes[1].length, 7);
    ASSERT_EQ(out.buffers.size(), 2u);
    EXPECT_EQ(out.buffers[1].offset, 8);
    EXPECT_EQ(out.buffers[1].length, 40);
    EXPECT_EQ(out.variadic_buffer_counts, std::vector<int64_t>{3});
  }
  EXPECT_TRUE(found) << "no layout put every vector at 4 mod 8";

  const fb::Block blocks[] = {fb::Block(8, 16, 24)};
  found = false;
  for (int pad = 0; pad < 3 && !found; ++pad) {
    FlatBufferBuilder fbb;
    auto v = LooselyAlignedVector<const fb::Block*>(fbb, blocks, sizeof(blocks), 1, pad);
    fbb.Finish(fb::CreateFooter(fbb, fb::MetadataVersion::V5, 0, 0, v));
    const std::vector<uint64_t> storage = AlignedCopy(fbb);
    flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(storage.data()), fbb.GetSize());
    ASSERT_TRUE(fb::VerifyFooterBuffer(verifier));
    const fb::Footer* footer = fb::GetFooter(storage.data());
    if (!AtFourModEight(storage.data(), footer->recordBatches()->Data())) continue;
    found = true;
    std::vector<FileBlock> read;
    ASSERT_TRUE(ReadFileBlocks(footer->recordBatches(), "record batch block", &read).ok());
    ASSERT_EQ(read.size(), 1u);
    EXPECT_EQ(read[0].offset, 8);
    EXPECT_EQ(read[0].metadata_length, 16);
    EXPECT_EQ(read[0].body_length, 24);
  }
  EXPECT_TRUE(found) << "no layout put the blocks at 4 mod 8";
}

TEST(MetadataBatch, DictionaryBatchHeader) {
  DictionaryBatchMeta meta;
  meta.id = 9;
  meta.is_delta = true;
  meta.data.length = 2;
  meta.data.nodes = {{2, 0}};
  meta.data.buffers = {{0, 0}, {0, 8}};
  FlatBufferBuilder fbb;
  BuildDictionaryBatchMessage(&fbb, meta, 8);
  auto message = VerifyMessage(fbb.GetBufferPointer(), fbb.GetSize()).ValueOrDie();
  ASSERT_EQ(message->header_type(), fb::MessageHeader::DictionaryBatch);
  DictionaryBatchMeta back;
  ASSERT_TRUE(ReadDictionaryBatchHeader(message->header_as_DictionaryBatch(), 8, &back).ok());
  EXPECT_EQ(back.id, 9);
  EXPECT_TRUE(back.is_delta);
  EXPECT_EQ(back.data.length, 2);
  EXPECT_EQ(back.data.buffers[1].length, 8);

  FlatBufferBuilder empty;
  empty.Finish(fb::CreateDictionaryBatch(empty, 4));
  Status st = ReadDictionaryBatchHeader(flatbuffers::GetRoot<fb::DictionaryBatch>(empty.GetBufferPointer()), 0, &back);
  EXPECT_NE(st.message().find("has no data"), std::string::npos);
}

TEST(MetadataMessage, VerifyRejectsGarbageAndOldVersions) {
  const uint8_t garbage[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  auto result = VerifyMessage(garbage, sizeof(garbage));
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsSerializationError());
  EXPECT_FALSE(VerifyMessage(nullptr, 0).ok());
  EXPECT_TRUE(CheckMetadataVersion(fb::MetadataVersion::V4).ok());
  EXPECT_TRUE(CheckMetadataVersion(fb::MetadataVersion::V5).ok());
  EXPECT_FALSE(CheckMetadataVersion(fb::MetadataVersion::V3).ok());
  EXPECT_FALSE(CheckMetadataVersion(static_cast<fb::MetadataVersion>(9)).ok());
}

TEST(MetadataFraming, PrefixAndPadding) {
  FramedMetadata f = FrameMetadata(13, /*legacy=*/false);
  EXPECT_EQ(f.prefix_size, 8);
  EXPECT_EQ(f.total, 24);
  EXPECT_EQ(f.padding, 3);
  const uint8_t expected[8] = {0xFF, 0xFF, 0xFF, 0xFF, 16, 0, 0, 0};
  EXPECT_EQ(std::memcmp(f.prefix, expected, 8), 0);

  FramedMetadata legacy = FrameMetadata(13, /*legacy=*/true);
  EXPECT_EQ(legacy.prefix_size, 4);
  EXPECT_EQ(legacy.total, 24);
  int32_t stated;
  std::memcpy(&stated, legacy.prefix, 4);
  EXPECT_EQ(stated, 20);

  EXPECT_EQ(FramedMetadataSize(16, false), 24);
  EXPECT_EQ(FramedMetadataSize(16, false, 64), 64);
  EXPECT_EQ(FramedMetadataSize(60, false, 64), 128);

  io::BufferOutputStream out;
  const uint8_t fbytes[5] = {1, 2, 3, 4, 5};
  EXPECT_EQ(*WriteFramedMetadata(&out, fbytes, 5, false), 16);
  ASSERT_TRUE(WriteEndOfStream(&out, false).ok());
  ASSERT_TRUE(WriteEndOfStream(&out, true).ok());
  ASSERT_TRUE(WriteZeroPadding(&out, 3).ok());
  EXPECT_FALSE(WriteZeroPadding(&out, 65).ok());
  BufferPtr bytes = out.Finish().ValueOrDie();
  const std::vector<uint8_t> expected_bytes = {
      0xFF, 0xFF, 0xFF, 0xFF, 8, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0, 0,  // framed metadata
      0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0,                          // EOS
      0, 0, 0, 0,                                                  // legacy EOS
      0, 0, 0};                                                    // padding
  EXPECT_EQ(std::vector<uint8_t>(bytes->data(), bytes->data() + bytes->size()), expected_bytes);
}

TEST(MetadataFooter, BlocksRoundTrip) {
  auto s = schema({field("a", dictionary(int16(), utf8()))});
  DictionaryIds ids = DictionaryIds::AssignSequential(*s);
  std::vector<FileBlock> dicts = {{8, 136, 64}};
  std::vector<FileBlock> batches = {{208, 120, 16}, {344, 120, 24}};
  auto md = KeyValueMetadata::Make({{"footer", "yes"}});
  FlatBufferBuilder fbb;
  ASSERT_TRUE(BuildFooter(&fbb, *s, ids, IpcDialect::kArrow, dicts, batches, md.get()).ok());
  flatbuffers::Verifier verifier(fbb.GetBufferPointer(), fbb.GetSize());
  ASSERT_TRUE(fb::VerifyFooterBuffer(verifier));
  const fb::Footer* footer = fb::GetFooter(fbb.GetBufferPointer());
  EXPECT_EQ(footer->version(), fb::MetadataVersion::V5);
  std::vector<FileBlock> read;
  ASSERT_TRUE(ReadFileBlocks(footer->recordBatches(), "record batch block", &read).ok());
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[1].offset, 344);
  EXPECT_EQ(read[1].metadata_length, 120);
  EXPECT_EQ(read[1].body_length, 24);
  ASSERT_TRUE(ReadFileBlocks(footer->dictionaries(), "dictionary block", &read).ok());
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].metadata_length, 136);
  auto schema_back = ReadSchema(footer->schema()).ValueOrDie();
  EXPECT_TRUE(schema_back.schema->Equals(*s));
  auto md_back = ReadKeyValueMetadata(footer->custom_metadata(), "footer").ValueOrDie();
  EXPECT_EQ(*md_back->Get("footer"), "yes");

  FlatBufferBuilder bad;
  std::vector<fb::Block> blocks = {fb::Block(-8, 16, 0)};
  bad.Finish(fb::CreateFooter(bad, fb::MetadataVersion::V5, 0, 0, bad.CreateVectorOfStructs(blocks)));
  Status st = ReadFileBlocks(fb::GetFooter(bad.GetBufferPointer())->recordBatches(), "record batch block", &read);
  EXPECT_NE(st.message().find("record batch block 0"), std::string::npos);
}

TEST(MetadataMisc, NamesAndKeys) {
  EXPECT_EQ(FileMagic(IpcDialect::kArrow), "ARROW1");
  EXPECT_EQ(FileMagic(IpcDialect::kAlkaid), "ALKAID1");
  EXPECT_STREQ(ExtensionNameKey(IpcDialect::kAlkaid), "ALKAID:extension:name");
  EXPECT_STREQ(ExtensionMetadataKey(IpcDialect::kArrow), "ARROW:extension:metadata");
  // Union tags that other implementations rely on.
  EXPECT_EQ(static_cast<int>(fb::MessageHeader::Tensor), 4);
  EXPECT_EQ(static_cast<int>(fb::MessageHeader::SparseTensor), 5);
  EXPECT_EQ(static_cast<int>(fb::Type::LargeList), 21);
  EXPECT_EQ(static_cast<int>(fb::Type::LargeListView), 26);
  EXPECT_EQ(static_cast<int>(fb::MetadataVersion::V5), 4);
}

}  // namespace
}  // namespace alkaid::ipc::internal
