#include "alkaid/type.h"

#include <gtest/gtest.h>

#include "alkaid/dictionary_ids.h"
#include "alkaid/visit_type.h"

namespace alkaid {
namespace {

TEST(DataType, ToStringUsesArrowNotation) {
  EXPECT_EQ(int32()->ToString(), "int32");
  EXPECT_EQ(uint64()->ToString(), "uint64");
  EXPECT_EQ(float16()->ToString(), "halffloat");
  EXPECT_EQ(float32()->ToString(), "float");
  EXPECT_EQ(float64()->ToString(), "double");
  EXPECT_EQ(boolean()->ToString(), "bool");
  EXPECT_EQ(null()->ToString(), "null");
  EXPECT_EQ(utf8()->ToString(), "string");
  EXPECT_EQ(large_binary()->ToString(), "large_binary");
  EXPECT_EQ(utf8_view()->ToString(), "string_view");
  EXPECT_EQ(decimal128(10, 2)->ToString(), "decimal128(10, 2)");
  EXPECT_EQ(decimal32(9, -1)->ToString(), "decimal32(9, -1)");
  EXPECT_EQ(date32()->ToString(), "date32[day]");
  EXPECT_EQ(date64()->ToString(), "date64[ms]");
  EXPECT_EQ(time32(TimeUnit::kSecond)->ToString(), "time32[s]");
  EXPECT_EQ(time64(TimeUnit::kNano)->ToString(), "time64[ns]");
  EXPECT_EQ(timestamp(TimeUnit::kMilli)->ToString(), "timestamp[ms]");
  EXPECT_EQ(timestamp(TimeUnit::kMicro, "UTC")->ToString(), "timestamp[us, tz=UTC]");
  EXPECT_EQ(duration(TimeUnit::kNano)->ToString(), "duration[ns]");
  EXPECT_EQ(month_interval()->ToString(), "month_interval");
  EXPECT_EQ(day_time_interval()->ToString(), "day_time_interval");
  EXPECT_EQ(month_day_nano_interval()->ToString(), "month_day_nano_interval");
  EXPECT_EQ(fixed_size_binary(16)->ToString(), "fixed_size_binary[16]");
  EXPECT_EQ(list(int8())->ToString(), "list<item: int8>");
  EXPECT_EQ(large_list(field("x", utf8(), false))->ToString(), "large_list<x: string not null>");
  EXPECT_EQ(list_view(int32())->ToString(), "list_view<item: int32>");
  EXPECT_EQ(large_list_view(int32())->ToString(), "large_list_view<item: int32>");
  EXPECT_EQ(fixed_size_list(uint8(), 4)->ToString(), "fixed_size_list<item: uint8>[4]");
  EXPECT_EQ(struct_({field("a", int32()), field("b", utf8(), false)})->ToString(),
            "struct<a: int32, b: string not null>");
  EXPECT_EQ(map(utf8(), int64())->ToString(), "map<string, int64>");
  EXPECT_EQ(map(utf8(), int64(), true)->ToString(), "map<string, int64, keys_sorted>");
  EXPECT_EQ(sparse_union({field("i", int32()), field("s", utf8())}, {5, 7})->ToString(),
            "sparse_union<i: int32=5, s: string=7>");
  EXPECT_EQ(dense_union({field("f", float32())})->ToString(), "dense_union<f: float=0>");
  EXPECT_EQ(dictionary(int8(), utf8(), true)->ToString(),
            "dictionary<values=string, indices=int8, ordered>");
  EXPECT_EQ(run_end_encoded(int32(), float32())->ToString(),
            "run_end_encoded<run_ends: int32, values: float>");
}

TEST(DataType, EqualityComparesParameters) {
  EXPECT_TRUE(int32()->Equals(*int32()));
  EXPECT_FALSE(int32()->Equals(*uint32()));
  EXPECT_TRUE(timestamp(TimeUnit::kMilli, "UTC")->Equals(*timestamp(TimeUnit::kMilli, "UTC")));
  EXPECT_FALSE(timestamp(TimeUnit::kMilli, "UTC")->Equals(*timestamp(TimeUnit::kMilli)));
  EXPECT_FALSE(timestamp(TimeUnit::kMilli)->Equals(*timestamp(TimeUnit::kMicro)));
  EXPECT_FALSE(time32(TimeUnit::kSecond)->Equals(*time32(TimeUnit::kMilli)));
  EXPECT_FALSE(decimal128(10, 2)->Equals(*decimal128(10, 3)));
  EXPECT_FALSE(decimal128(10, 2)->Equals(*decimal256(10, 2)));
  EXPECT_FALSE(fixed_size_binary(3)->Equals(*fixed_size_binary(4)));
  EXPECT_FALSE(fixed_size_list(int8(), 3)->Equals(*fixed_size_list(int8(), 4)));
  EXPECT_FALSE(map(utf8(), int8())->Equals(*map(utf8(), int8(), true)));
  EXPECT_FALSE(dictionary(int8(), utf8())->Equals(*dictionary(int16(), utf8())));
  EXPECT_FALSE(dictionary(int8(), utf8())->Equals(*dictionary(int8(), utf8(), true)));
  EXPECT_FALSE(run_end_encoded(int16(), utf8())->Equals(*run_end_encoded(int32(), utf8())));
  EXPECT_FALSE(sparse_union({field("a", int8())}, {1})->Equals(*sparse_union({field("a", int8())}, {2})));
  EXPECT_FALSE(sparse_union({field("a", int8())})->Equals(*dense_union({field("a", int8())})));
}

TEST(DataType, ListItemNamesDoNotMatterButStructNamesDo) {
  EXPECT_TRUE(list(field("item", int32()))->Equals(*list(field("element", int32()))));
  EXPECT_FALSE(list(field("item", int32()))->Equals(*list(field("item", int32(), false))));
  EXPECT_FALSE(struct_({field("a", int32())})->Equals(*struct_({field("b", int32())})));
  EXPECT_FALSE(list(int32())->Equals(*large_list(int32())));
  EXPECT_FALSE(list(int32())->Equals(*list_view(int32())));
}

TEST(DataType, MetadataComparedOnlyWhenAsked) {
  auto md = KeyValueMetadata::Make({{"k", "v"}});
  auto a = struct_({field("a", int32(), true, md)});
  auto b = struct_({field("a", int32())});
  EXPECT_TRUE(a->Equals(*b));
  EXPECT_FALSE(a->Equals(*b, /*check_metadata=*/true));
}

TEST(DataType, LayoutsMatchTheColumnarSpec) {
  EXPECT_EQ(null()->layout().buffers.size(), 0u);
  EXPECT_EQ(int64()->layout().buffers.size(), 2u);
  EXPECT_EQ(int64()->layout().buffers[1].byte_width, 8);
  EXPECT_EQ(utf8()->layout().buffers.size(), 3u);
  EXPECT_EQ(large_utf8()->layout().buffers[1].byte_width, 8);
  EXPECT_TRUE(utf8_view()->layout().variadic_data);
  EXPECT_EQ(list_view(int8())->layout().buffers.size(), 3u);
  EXPECT_EQ(fixed_size_list(int8(), 2)->layout().buffers.size(), 1u);
  EXPECT_EQ(sparse_union({field("a", int8())})->layout().buffers.size(), 1u);
  EXPECT_EQ(dense_union({field("a", int8())})->layout().buffers.size(), 2u);
  EXPECT_FALSE(dense_union({field("a", int8())})->layout().has_validity());
  EXPECT_EQ(run_end_encoded(int32(), int8())->layout().buffers.size(), 0u);
  EXPECT_EQ(dictionary(int16(), utf8())->layout().buffers[1].byte_width, 2);
  EXPECT_EQ(decimal256(40, 2)->byte_width(), 32);
  EXPECT_EQ(month_day_nano_interval()->byte_width(), 16);
  EXPECT_EQ(day_time_interval()->byte_width(), 8);
}

TEST(DataType, CheckedConstructorsRejectBadParameters) {
  EXPECT_FALSE(MakeDecimal(128, 0, 0).ok());
  EXPECT_FALSE(MakeDecimal(32, 10, 0).ok());
  EXPECT_FALSE(MakeDecimal(48, 5, 0).ok());
  EXPECT_TRUE(MakeDecimal(256, 76, 10).ok());
  EXPECT_FALSE(Time32Type::Make(TimeUnit::kNano).ok());
  EXPECT_FALSE(Time64Type::Make(TimeUnit::kSecond).ok());
  EXPECT_FALSE(FixedSizeBinaryType::Make(-1).ok());
  EXPECT_FALSE(FixedSizeBinaryType::Make(INT32_MAX).ok());  // INT32_MAX bytes overflow bit_width()
  EXPECT_EQ(FixedSizeBinaryType::Make(INT32_MAX / 8).ValueOrDie()->bit_width(), INT32_MAX / 8 * 8);
  EXPECT_FALSE(FixedSizeListType::Make(field("item", int8()), -2).ok());
  EXPECT_FALSE(DictionaryType::Make(utf8(), utf8()).ok());
  EXPECT_FALSE(RunEndEncodedType::Make(int8(), utf8()).ok());
  EXPECT_TRUE(RunEndEncodedType::Make(int16(), utf8()).ok());
  auto dup = UnionType::Make({field("a", int8()), field("b", int8())}, {3, 3}, UnionMode::kSparse);
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.status().message().find("declared twice"), std::string::npos);
  EXPECT_FALSE(UnionType::Make({field("a", int8())}, {-1}, UnionMode::kDense).ok());
  EXPECT_FALSE(UnionType::Make({field("a", int8())}, {1, 2}, UnionMode::kDense).ok());
  auto entries = field("entries", struct_({field("k", utf8()), field("v", int8())}), false);
  EXPECT_FALSE(MapType::Make(entries, false).ok());  // nullable key
}

TEST(DataType, UnionChildLookupByTypeCode) {
  auto t = sparse_union({field("a", int8()), field("b", utf8())}, {4, 9});
  const auto& u = checked_cast<UnionType>(*t);
  EXPECT_EQ(u.child_index(4), 0);
  EXPECT_EQ(u.child_index(9), 1);
  EXPECT_EQ(u.child_index(5), UnionType::kInvalidChild);
  EXPECT_EQ(u.child_index(-3), UnionType::kInvalidChild);
}

TEST(DataType, MapKeepsNonCanonicalNames) {
  auto entries = field("pairs", struct_({field("k", utf8(), false), field("v", int8())}), false);
  auto t = MapType::Make(entries, false).ValueOrDie();
  const auto& m = checked_cast<MapType>(*t);
  EXPECT_EQ(m.value_field()->name(), "pairs");
  EXPECT_EQ(m.key_field()->name(), "k");
  EXPECT_TRUE(t->Equals(*map(utf8(), int8())));  // names of map children don't matter
}

struct NameVisitor {
  std::string out;
  Status Visit(const Int32Type&) { out = "exact int32"; return Status::OK(); }
  template <typename T>
  Status Visit(const T& t) { out = "generic " + t.name(); return Status::OK(); }
};

TEST(VisitType, DispatchesToConcreteClass) {
  NameVisitor v;
  ASSERT_TRUE(VisitTypeInline(*int32(), &v).ok());
  EXPECT_EQ(v.out, "exact int32");
  ASSERT_TRUE(VisitTypeInline(*large_list_view(int8()), &v).ok());
  EXPECT_EQ(v.out, "generic large_list_view");
  ASSERT_TRUE(VisitTypeInline(*map(utf8(), int8()), &v).ok());
  EXPECT_EQ(v.out, "generic map");
}

TEST(Schema, LookupProjectAndPrint) {
  auto md = KeyValueMetadata::Make({{"origin", "test"}});
  auto s = std::make_shared<Schema>(FieldVector{field("a", int32()), field("b", utf8(), false)}, md);
  EXPECT_EQ(s->GetFieldIndex("b"), 1);
  EXPECT_EQ(s->GetFieldIndex("zz"), -1);
  auto p = s->Project({1}).ValueOrDie();
  EXPECT_EQ(p->num_fields(), 1);
  EXPECT_EQ(p->field(0)->name(), "b");
  EXPECT_FALSE(s->Project({2}).ok());
  EXPECT_EQ(s->ToString(), "a: int32\nb: string not null");
  EXPECT_EQ(s->ToString(true), "a: int32\nb: string not null\n-- schema metadata --\norigin: test");
  EXPECT_FALSE(s->Equals(*s->WithMetadata(nullptr), true));
  EXPECT_TRUE(s->Equals(*s->WithMetadata(nullptr), false));
}

TEST(KeyValueMetadata, OrderedWithDuplicates) {
  KeyValueMetadata md;
  md.Append("k", "1");
  md.Append("j", "2");
  md.Append("k", "3");
  EXPECT_EQ(md.size(), 3);
  EXPECT_EQ(md.Get("k").ValueOrDie(), "1");
  EXPECT_FALSE(md.Get("nope").ok());
  md.Set("j", "22");
  EXPECT_EQ(md.value(1), "22");
  auto w = md.Without({"k"});
  EXPECT_EQ(w->size(), 1);
  EXPECT_EQ(w->key(0), "j");
  EXPECT_TRUE(MetadataEquals(nullptr, std::make_shared<KeyValueMetadata>()));
  // Order carries no meaning; multiplicity does.
  auto ab = KeyValueMetadata::Make({{"a", "1"}, {"b", "2"}});
  auto ba = KeyValueMetadata::Make({{"b", "2"}, {"a", "1"}});
  auto aa = KeyValueMetadata::Make({{"a", "1"}, {"a", "1"}});
  EXPECT_TRUE(ab->Equals(*ba));
  EXPECT_FALSE(ab->Equals(*aa));
  EXPECT_FALSE(ab->Equals(*KeyValueMetadata::Make({{"a", "1"}, {"b", "3"}})));
}

TEST(DictionaryIds, SequentialPreOrderIncludingNested) {
  auto inner = dictionary(int8(), utf8());
  auto s = schema({field("a", dictionary(int32(), list(inner))), field("b", int8()),
                   field("c", struct_({field("x", dictionary(int16(), utf8()))}))});
  auto ids = DictionaryIds::AssignSequential(*s);
  EXPECT_EQ(ids.Get({0}), 0);
  EXPECT_EQ(ids.Get({0, 0}), 1);  // the dictionary inside the list values of a
  EXPECT_EQ(ids.Get({2, 0}), 2);
  EXPECT_FALSE(ids.Get({1}).has_value());
}

}  // namespace
}  // namespace alkaid
