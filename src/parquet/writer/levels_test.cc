// Levels of Arrow arrays against levels worked out by hand, including the Document example
// of the Dremel paper that the Parquet format's documentation explains levels with.
#include "src/parquet/writer/levels.h"

#include <gtest/gtest.h>

#include "alkaid/extension/uuid.h"
#include "test_util/array_from_json.h"

namespace alkaid::parquet::internal {
namespace {

using alkaid::testing::ArrayFromJSON;
using alkaid::testing::RecordBatchFromJSON;
using Levels = std::vector<int16_t>;
using Ranges = std::vector<ElementRange>;

std::vector<LeafLevels> Compute(const FieldPtr& field, const ArrayDataPtr& array) {
  auto result = ComputeLeafLevels(*field, *array);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *std::move(result) : std::vector<LeafLevels>{};
}

LeafLevels ComputeOne(const FieldPtr& field, const ArrayDataPtr& array) {
  auto leaves = Compute(field, array);
  EXPECT_EQ(leaves.size(), 1u);
  return leaves.empty() ? LeafLevels{} : std::move(leaves[0]);
}

void ExpectLevels(const LeafLevels& leaf, int16_t max_def, int16_t max_rep, const Levels& defs,
                  const Levels& reps, const Ranges& ranges) {
  EXPECT_EQ(leaf.max_def, max_def);
  EXPECT_EQ(leaf.max_rep, max_rep);
  EXPECT_EQ(leaf.def_levels, defs);
  EXPECT_EQ(leaf.rep_levels, reps);
  EXPECT_EQ(leaf.ranges, ranges);
  int64_t entries = static_cast<int64_t>(!defs.empty() ? defs.size() : reps.size());
  if (!defs.empty() || !reps.empty()) {
    EXPECT_EQ(leaf.num_entries, entries);
  }
  // Every entry at or above slot_def takes the next slot of the ranges.
  int64_t slots = 0;
  for (int16_t d : leaf.def_levels) slots += d >= leaf.slot_def;
  int64_t in_ranges = 0;
  for (const auto& r : leaf.ranges) in_ranges += r.size();
  if (!defs.empty()) {
    EXPECT_EQ(slots, in_ranges);
  }
}

TEST(ParquetLevels, FlatNullableAndRequired) {
  auto nullable = ComputeOne(field("a", int32()), ArrayFromJSON(int32(), "[1, null, 3]"));
  ExpectLevels(nullable, 1, 0, {1, 0, 1}, {}, {{0, 3}});
  EXPECT_EQ(nullable.slot_def, 0);

  auto required = ComputeOne(field("a", int32(), false), ArrayFromJSON(int32(), "[1, 2, 3]"));
  ExpectLevels(required, 0, 0, {}, {}, {{0, 3}});
  EXPECT_EQ(required.num_entries, 3);
}

TEST(ParquetLevels, SlicedFlatArrayKeepsItsOffset) {
  auto array = ArrayFromJSON(utf8(), R"(["a", null, "b", null, "c"])")->Slice(1, 3);
  auto leaf = ComputeOne(field("s", utf8()), array);
  ExpectLevels(leaf, 1, 0, {0, 1, 0}, {}, {{0, 3}});
  int64_t bit_offset = 0;
  EXPECT_NE(leaf.validity(&bit_offset), nullptr);
  EXPECT_EQ(bit_offset, 1);
}

TEST(ParquetLevels, ListOfNullableItems) {
  // optional group (LIST) { repeated group list { optional int32 element } }
  auto type = list(int32());
  auto leaf = ComputeOne(field("l", type), ArrayFromJSON(type, "[[1, null], null, [], [3]]"));
  ExpectLevels(leaf, 3, 1, {3, 2, 0, 1, 3}, {0, 1, 0, 0, 0}, {{0, 3}});
  EXPECT_EQ(leaf.slot_def, 2);
}

TEST(ParquetLevels, ListOfLists) {
  auto type = list(list(int32()));
  auto leaf = ComputeOne(field("l", type),
                         ArrayFromJSON(type, "[[[1, 2], [3]], [[], null], null, [[4]]]"));
  ExpectLevels(leaf, 5, 2, {5, 5, 5, 3, 2, 0, 5}, {0, 2, 1, 0, 1, 0, 0}, {{0, 4}});
}

TEST(ParquetLevels, RequiredListOfRequiredItems) {
  auto type = list(field("item", int64(), false));
  auto leaf = ComputeOne(field("l", type, false), ArrayFromJSON(type, "[[1, 2], [], [3]]"));
  ExpectLevels(leaf, 1, 1, {1, 1, 0, 1}, {0, 1, 0, 0}, {{0, 3}});
}

TEST(ParquetLevels, LargeListAndSlicedList) {
  auto type = large_list(int32());
  auto array = ArrayFromJSON(type, "[[9], [1, null], null, [], [3], [8, 8]]")->Slice(1, 4);
  auto leaf = ComputeOne(field("l", type), array);
  ExpectLevels(leaf, 3, 1, {3, 2, 0, 1, 3}, {0, 1, 0, 0, 0}, {{1, 4}});
}

TEST(ParquetLevels, FixedSizeListSkipsTheSlotsOfNullLists) {
  auto type = fixed_size_list(int32(), 2);
  auto leaf = ComputeOne(field("f", type), ArrayFromJSON(type, "[[1, 2], null, [null, 4]]"));
  ExpectLevels(leaf, 3, 1, {3, 3, 0, 2, 3}, {0, 1, 0, 0, 1}, {{0, 2}, {4, 6}});
}

TEST(ParquetLevels, ListViewMayRepeatElements) {
  auto type = list_view(int32());
  auto array = ArrayFromJSON(type, "[[7, 8], [7]]");
  ASSERT_NE(array, nullptr);
  // Point the second view at the first element again.
  auto offsets = AllocateBuffer(2 * sizeof(int32_t)).ValueOrDie();
  auto sizes = AllocateBuffer(2 * sizeof(int32_t)).ValueOrDie();
  offsets->mutable_data_as<int32_t>()[0] = 0;
  offsets->mutable_data_as<int32_t>()[1] = 0;
  sizes->mutable_data_as<int32_t>()[0] = 2;
  sizes->mutable_data_as<int32_t>()[1] = 1;
  auto shared = ArrayData::Make(type, 2, {nullptr, offsets, sizes}, {array->child_data[0]}, 0);
  auto leaf = ComputeOne(field("v", type), shared);
  ExpectLevels(leaf, 3, 1, {3, 3, 3}, {0, 1, 0}, {{0, 2}, {0, 1}});
}

TEST(ParquetLevels, MapKeysAndValues) {
  // optional group (MAP) { repeated group key_value { required key; optional value } }
  auto type = map(utf8(), int32());
  auto leaves = Compute(field("m", type),
                        ArrayFromJSON(type, R"([[["a", 1], ["b", null]], null, []])"));
  ASSERT_EQ(leaves.size(), 2u);
  ExpectLevels(leaves[0], 2, 1, {2, 2, 0, 1}, {0, 1, 0, 0}, {{0, 2}});
  ExpectLevels(leaves[1], 3, 1, {3, 2, 0, 1}, {0, 1, 0, 0}, {{0, 2}});
}

TEST(ParquetLevels, StructChildrenBelowANullStructAreNotWritten) {
  auto type = struct_({field("x", int32(), false), field("y", utf8())});
  auto leaves = Compute(field("s", type),
                        ArrayFromJSON(type, R"([{"x": 1, "y": "a"}, null, {"x": 3, "y": null}])"));
  ASSERT_EQ(leaves.size(), 2u);
  ExpectLevels(leaves[0], 1, 0, {1, 0, 1}, {}, {{0, 1}, {2, 3}});
  ExpectLevels(leaves[1], 2, 0, {2, 0, 1}, {}, {{0, 1}, {2, 3}});
}

TEST(ParquetLevels, SlicedStructUsesItsOffsetForItsChildren) {
  auto type = struct_({field("x", int32())});
  auto array = ArrayFromJSON(type, R"([{"x": 1}, null, {"x": null}, {"x": 4}])")->Slice(1, 3);
  auto leaf = ComputeOne(field("s", type), array);
  ExpectLevels(leaf, 2, 0, {0, 1, 2}, {}, {{2, 4}});
}

// The Document example of "Dremel: Interactive Analysis of Web-Scale Datasets", written as
// Arrow data. Repeated fields become required lists of required elements, which the
// three-level LIST form stores with the paper's levels.
TEST(ParquetLevels, DremelDocumentExample) {
  auto int_list = list(field("element", int64(), false));
  auto language = struct_({field("Code", utf8(), false), field("Country", utf8())});
  auto name = struct_({field("Language", list(field("element", language, false)), false),
                       field("Url", utf8())});
  auto doc = schema({
      field("DocId", int64(), false),
      field("Links", struct_({field("Backward", int_list, false), field("Forward", int_list, false)})),
      field("Name", list(field("element", name, false)), false),
  });
  auto batch = RecordBatchFromJSON(doc, R"([
    {"DocId": 10,
     "Links": {"Backward": [], "Forward": [20, 40, 60]},
     "Name": [{"Language": [{"Code": "en-us", "Country": "us"}, {"Code": "en", "Country": null}],
               "Url": "http://A"},
              {"Language": [], "Url": "http://B"},
              {"Language": [{"Code": "en-gb", "Country": "gb"}], "Url": null}]},
    {"DocId": 20,
     "Links": {"Backward": [10, 30], "Forward": [80]},
     "Name": [{"Language": [], "Url": "http://C"}]}
  ])");
  ASSERT_NE(batch, nullptr);

  auto doc_id = ComputeOne(doc->field(0), batch->column_data(0));
  ExpectLevels(doc_id, 0, 0, {}, {}, {{0, 2}});

  auto links = Compute(doc->field(1), batch->column_data(1));
  ASSERT_EQ(links.size(), 2u);
  // Backward: NULL r0 d1; 10 r0 d2; 30 r1 d2.
  ExpectLevels(links[0], 2, 1, {1, 2, 2}, {0, 0, 1}, {{0, 2}});
  // Forward: 20 r0 d2; 40 r1 d2; 60 r1 d2; 80 r0 d2.
  ExpectLevels(links[1], 2, 1, {2, 2, 2, 2}, {0, 1, 1, 0}, {{0, 4}});

  auto names = Compute(doc->field(2), batch->column_data(2));
  ASSERT_EQ(names.size(), 3u);
  // Name.Language.Code: en-us r0 d2; en r2 d2; NULL r1 d1; en-gb r1 d2; NULL r0 d1.
  ExpectLevels(names[0], 2, 2, {2, 2, 1, 2, 1}, {0, 2, 1, 1, 0}, {{0, 3}});
  // Name.Language.Country: us r0 d3; NULL r2 d2; NULL r1 d1; gb r1 d3; NULL r0 d1.
  ExpectLevels(names[1], 3, 2, {3, 2, 1, 3, 1}, {0, 2, 1, 1, 0}, {{0, 3}});
  // Name.Url: http://A r0 d2; http://B r1 d2; NULL r1 d1; http://C r0 d2.
  ExpectLevels(names[2], 2, 1, {2, 2, 1, 2}, {0, 1, 1, 0}, {{0, 4}});
}

TEST(ParquetLevels, DictionaryWithNullEntries) {
  auto dict = ArrayFromJSON(utf8(), R"(["a", null])");
  auto indices = ArrayFromJSON(int8(), "[0, 1, null, 0]");
  auto type = dictionary(int8(), utf8());
  auto array = ArrayData::Make(type, 4, indices->buffers, indices->null_count, 0);
  array->dictionary = dict;
  auto leaf = ComputeOne(field("d", type), array);
  ExpectLevels(leaf, 1, 0, {1, 0, 0, 1}, {}, {{0, 4}});
  ASSERT_NE(leaf.validity_override, nullptr);
  EXPECT_EQ(leaf.leaf->type->id(), TypeId::kDictionary);
}

TEST(ParquetLevels, RunEndEncodedIsExpanded) {
  auto type = run_end_encoded(int32(), utf8());
  auto array = ArrayFromJSON(type, R"(["a", "a", null, "b", "b", "b"])")->Slice(1, 4);
  auto leaf = ComputeOne(field("r", type), array);
  ExpectLevels(leaf, 1, 0, {1, 0, 1, 1}, {}, {{0, 4}});
  EXPECT_TRUE(ArrayEquals(*leaf.leaf, *ArrayFromJSON(utf8(), R"(["a", null, "b", "b"])")))
      << ArrayDiff(*leaf.leaf, *ArrayFromJSON(utf8(), R"(["a", null, "b", "b"])"));
}

TEST(ParquetLevels, RunEndEncodedFixedWidthAndBoolean) {
  auto ints = run_end_encoded(int16(), int64());
  auto leaf = ComputeOne(field("r", ints), ArrayFromJSON(ints, "[5, 5, 6, null]"));
  EXPECT_TRUE(ArrayEquals(*leaf.leaf, *ArrayFromJSON(int64(), "[5, 5, 6, null]")));
  auto bools = run_end_encoded(int64(), boolean());
  leaf = ComputeOne(field("b", bools), ArrayFromJSON(bools, "[true, true, false, true]"));
  EXPECT_TRUE(ArrayEquals(*leaf.leaf, *ArrayFromJSON(boolean(), "[true, true, false, true]")));
}

TEST(ParquetLevels, NullTypeIsAnOptionalLeafOfNulls) {
  auto leaf = ComputeOne(field("n", null(), false), ArrayFromJSON(null(), "[null, null]"));
  ExpectLevels(leaf, 1, 0, {0, 0}, {}, {{0, 2}});
}

TEST(ParquetLevels, ExtensionArraysAreTheirStorage) {
  auto uuids = MakeUuidArray({std::string("00000000-0000-0000-0000-000000000001"), std::nullopt});
  ASSERT_TRUE(uuids.ok()) << uuids.status();
  auto leaf = ComputeOne(field("u", (*uuids)->type), *uuids);
  EXPECT_EQ(leaf.leaf->type->id(), TypeId::kFixedSizeBinary);
  ExpectLevels(leaf, 1, 0, {1, 0}, {}, {{0, 2}});
}

TEST(ParquetLevels, NullInANonNullableFieldIsAnError) {
  auto flat = ComputeLeafLevels(*field("a", int32(), false), *ArrayFromJSON(int32(), "[1, null]"));
  ASSERT_FALSE(flat.ok());
  EXPECT_NE(flat.status().message().find("column 'a': slot 1"), std::string::npos)
      << flat.status();

  // A null below a null parent is not written, so it does not count.
  auto type = struct_({field("x", int32(), false)});
  auto ok = ComputeLeafLevels(*field("s", type), *ArrayFromJSON(type, R"([{"x": 1}, null])"));
  EXPECT_TRUE(ok.ok()) << ok.status();

  auto list_type = list(field("element", int32(), false));
  auto bad = ComputeLeafLevels(*field("l", list_type), *ArrayFromJSON(list_type, "[[1, null]]"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("l.list.element"), std::string::npos) << bad.status();
}

TEST(ParquetLevels, TypesWithoutAParquetForm) {
  auto empty = struct_({});
  auto st = ComputeLeafLevels(*field("e", empty), *ArrayFromJSON(empty, "[{}]"));
  EXPECT_TRUE(st.status().IsNotImplemented()) << st.status();
  auto u = sparse_union({field("a", int32())}, {0});
  st = ComputeLeafLevels(*field("u", u), *ArrayFromJSON(u, "[[0, 1]]"));
  EXPECT_TRUE(st.status().IsNotImplemented()) << st.status();
  EXPECT_EQ(CountLeaves(*u), 0);
  EXPECT_EQ(CountLeaves(*map(utf8(), list(int32()))), 2);
}

TEST(ParquetLevels, EmptyArrayHasNoEntries) {
  auto type = list(int32());
  auto leaf = ComputeOne(field("l", type), ArrayFromJSON(type, "[]"));
  ExpectLevels(leaf, 3, 1, {}, {}, {});
  EXPECT_EQ(leaf.num_entries, 0);
}

}  // namespace
}  // namespace alkaid::parquet::internal
