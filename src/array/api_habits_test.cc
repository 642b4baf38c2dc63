// The conveniences a program written with Arrow C++ habits reaches for,
// exercised the way such a program writes them: optional appends, vectors of
// strings, Finish(&array), ArrayPtr columns, tables from batches, column
// lookups by name, buffers over std::vector, typed-array iteration, JSON
// literals and reading a whole IPC file into a table.
#include "alkaid/api.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <optional>
#include <ranges>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "test_util/test_data.h"

namespace alkaid {
namespace {

#define ASSERT_OK(expr)                                   \
  do {                                                    \
    ::alkaid::Status _st = (expr);                        \
    ASSERT_TRUE(_st.ok()) << #expr << ": " << _st.ToString(); \
  } while (false)

template <typename T>
T Unwrap(Result<T> result) {
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? std::move(result).MoveValueUnsafe() : T{};
}

ArrayPtr FromJSON(const DataTypePtr& type, std::string_view text) {
  return MakeArray(Unwrap(integration_json::ArrayFromJSONString(type, text)));
}

// --- Builders: strings from vectors, optional appends, Finish(&array) -------

template <typename Case>
class StringAppendValuesTest : public ::testing::Test {};

template <typename B>
B MakeStringBuilder() {
  if constexpr (std::is_same_v<B, BinaryViewBuilder>) {
    return B(utf8_view());
  } else {
    return B();
  }
}

using StringBuilders = ::testing::Types<StringBuilder, BinaryBuilder, LargeStringBuilder,
                                        BinaryViewBuilder>;
TYPED_TEST_SUITE(StringAppendValuesTest, StringBuilders);

TYPED_TEST(StringAppendValuesTest, VectorsOfStringsAndViewsWithValidity) {
  auto builder = MakeStringBuilder<TypeParam>();
  const DataTypePtr type = builder.type();
  std::vector<std::string> words = {"alpha", "", "a value longer than twelve bytes"};
  std::vector<std::string_view> views = {"x", "y"};
  const uint8_t valid_bytes[] = {1, 0};
  ASSERT_OK(builder.AppendValues(words));
  ASSERT_OK(builder.AppendValues(words, std::vector<bool>{false, true, true}));
  ASSERT_OK(builder.AppendValues(views, std::vector<bool>{true, false}));
  ASSERT_OK(builder.AppendValues(views, valid_bytes));
  ASSERT_OK(builder.AppendValues({"lit", "eral"}));
  ASSERT_OK(builder.AppendValues(std::vector<std::string>{}));
  std::shared_ptr<Array> array;
  ASSERT_OK(builder.Finish(&array));
  auto expected = FromJSON(type, R"(["alpha", "", "a value longer than twelve bytes",
      null, "", "a value longer than twelve bytes", "x", null, "x", null, "lit", "eral"])");
  ASSERT_OK(array->ValidateFull());
  EXPECT_TRUE(array->Equals(expected)) << array->ToString();
}

TYPED_TEST(StringAppendValuesTest, ValidityOfTheWrongLengthIsRefused) {
  auto builder = MakeStringBuilder<TypeParam>();
  Status st = builder.AppendValues(std::vector<std::string>{"a", "b"}, std::vector<bool>{true});
  EXPECT_TRUE(st.IsInvalid()) << st.ToString();
  EXPECT_NE(st.message().find("1 entries for 2 values"), std::string::npos) << st.ToString();
  EXPECT_EQ(builder.length(), 0);
}

TYPED_TEST(StringAppendValuesTest, OptionalAppends) {
  auto builder = MakeStringBuilder<TypeParam>();
  const DataTypePtr type = builder.type();
  std::optional<std::string> owned = "owned";
  std::optional<std::string_view> missing;
  ASSERT_OK(builder.Append(owned));
  ASSERT_OK(builder.Append(missing));
  ASSERT_OK(builder.Append(std::nullopt));
  ASSERT_OK(builder.Append(std::optional<const char*>("c-string")));
  ASSERT_OK(builder.Append("plain"));  // still unambiguous next to the optional forms
  ASSERT_OK(builder.Append(std::string("string")));
  auto array = Unwrap(builder.FinishArray());
  EXPECT_TRUE(array->Equals(
      FromJSON(type, R"(["owned", null, null, "c-string", "plain", "string"])")))
      << array->ToString();
}

TEST(OptionalAppend, NumericBooleanTemporal) {
  Int32Builder ints;
  ASSERT_OK(ints.Append(std::optional<int32_t>(7)));
  ASSERT_OK(ints.Append(std::optional<int32_t>()));
  ASSERT_OK(ints.Append(std::optional<int16_t>(-3)));  // any optional convertible to the value
  ASSERT_OK(ints.Append(std::nullopt));
  ASSERT_OK(ints.Append(5));
  std::shared_ptr<Int32Array> typed;
  ASSERT_OK(ints.Finish(&typed));
  EXPECT_TRUE(typed->Equals(FromJSON(int32(), "[7, null, -3, null, 5]"))) << typed->ToString();

  DoubleBuilder doubles;
  for (std::optional<double> v : std::vector<std::optional<double>>{1.5, std::nullopt, -2}) {
    ASSERT_OK(doubles.Append(v));
  }
  EXPECT_TRUE(Unwrap(doubles.FinishArray())->Equals(FromJSON(float64(), "[1.5, null, -2]")));

  BooleanBuilder bools;
  ASSERT_OK(bools.Append(std::optional<bool>(true)));
  ASSERT_OK(bools.Append(std::optional<bool>()));
  ASSERT_OK(bools.Append(false));
  ASSERT_OK(bools.AppendValues(std::vector<bool>{true, false}, std::vector<bool>{false, true}));
  ASSERT_OK(bools.AppendValues(std::vector<bool>{true}));
  EXPECT_TRUE(bools.AppendValues(std::vector<bool>{true}, std::vector<bool>{}).IsInvalid());
  EXPECT_TRUE(Unwrap(bools.FinishArray())
                  ->Equals(FromJSON(boolean(), "[true, null, false, null, false, true]")));

  TimestampBuilder stamps(timestamp(TimeUnit::kMilli, "UTC"));
  ASSERT_OK(stamps.Append(std::optional<int64_t>(1700000000000)));
  ASSERT_OK(stamps.Append(std::optional<int64_t>()));
  Date32Builder dates;
  ASSERT_OK(dates.Append(std::optional<int32_t>(19000)));
  ASSERT_OK(dates.Append(std::nullopt));
  EXPECT_TRUE(Unwrap(stamps.FinishArray())
                  ->Equals(FromJSON(timestamp(TimeUnit::kMilli, "UTC"), "[1700000000000, null]")));
  EXPECT_TRUE(Unwrap(dates.FinishArray())->Equals(FromJSON(date32(), "[19000, null]")));

  Int64Builder with_validity;
  ASSERT_OK(with_validity.AppendValues(std::vector<int64_t>{1, 2, 3}, {true, false, true}));
  EXPECT_TRUE(with_validity.AppendValues(std::vector<int64_t>{1}, {true, true}).IsInvalid());
  EXPECT_TRUE(Unwrap(with_validity.FinishArray())->Equals(FromJSON(int64(), "[1, null, 3]")));
}

TEST(OptionalAppend, FixedSizeBinaryAndDecimal) {
  FixedSizeBinaryBuilder fsb(fixed_size_binary(3));
  ASSERT_OK(fsb.Append(std::optional<std::string>("abc")));
  ASSERT_OK(fsb.Append(std::optional<std::string_view>()));
  ASSERT_OK(fsb.Append(std::nullopt));
  EXPECT_TRUE(fsb.Append(std::optional<std::string>("toolong")).IsInvalid());
  EXPECT_TRUE(Unwrap(fsb.FinishArray())
                  ->Equals(FromJSON(fixed_size_binary(3), R"(["abc", null, null])")));

  DecimalBuilder dec(decimal128(9, 2));
  ASSERT_OK(dec.AppendString(std::optional<std::string>("12.34")));
  ASSERT_OK(dec.AppendString(std::optional<std::string_view>()));
  ASSERT_OK(dec.AppendUnscaled(std::optional<int64_t>(-5)));
  ASSERT_OK(dec.AppendUnscaled(std::optional<int>()));
  ASSERT_OK(dec.AppendUnscaled(100));
  EXPECT_TRUE(Unwrap(dec.FinishArray())
                  ->Equals(FromJSON(decimal128(9, 2), R"(["12.34", null, "-0.05", null, "1.00"])")));
}

TEST(BuilderResults, FinishIntoArrayPointers) {
  StringBuilder names;
  ASSERT_OK(names.AppendValues({"a", "b"}));
  std::shared_ptr<Int32Array> wrong;
  Status st = names.Finish(&wrong);
  EXPECT_TRUE(st.IsTypeError()) << st.ToString();
  EXPECT_EQ(wrong, nullptr);

  ASSERT_OK(names.AppendValues({"c"}));
  std::shared_ptr<StringArray> strings;
  ASSERT_OK(names.Finish(&strings));
  ASSERT_EQ(strings->length(), 1);
  EXPECT_EQ(strings->GetView(0), "c");

  // The generic builder from MakeBuilder works the same way.
  auto generic = Unwrap(MakeBuilder(list(int32())));
  ASSERT_OK(generic->AppendNull());
  ArrayPtr list_array;
  ASSERT_OK(generic->Finish(&list_array));
  EXPECT_EQ(list_array->null_count(), 1);
}

// --- RecordBatch, ChunkedArray and Table with ArrayPtr columns ----------------

SchemaPtr PeopleSchema() { return schema({field("id", int32()), field("name", utf8())}); }

TEST(ArrayColumns, RecordBatchMakeTakesArrays) {
  Int32Builder ids;
  StringBuilder names;
  ASSERT_OK(ids.AppendValues(std::vector<int32_t>{1, 2, 3}));
  ASSERT_OK(names.AppendValues(std::vector<std::string>{"ada", "bob", "cy"}));
  std::shared_ptr<Array> id_array, name_array;
  ASSERT_OK(ids.Finish(&id_array));
  ASSERT_OK(names.Finish(&name_array));

  auto batch = RecordBatch::Make(PeopleSchema(), 3, {id_array, name_array});
  ASSERT_OK(batch->ValidateFull());
  EXPECT_TRUE(batch->column(1)->Equals(name_array));
  EXPECT_EQ(batch->column_data(0), id_array->data());

  ArrayVector columns = {id_array, name_array};
  auto checked = Unwrap(RecordBatch::MakeChecked(PeopleSchema(), 3, columns));
  EXPECT_TRUE(checked->Equals(*batch));
  // Still works with ArrayData columns, and with an empty list.
  EXPECT_TRUE(RecordBatch::Make(PeopleSchema(), 3, {id_array->data(), name_array->data()})
                  ->Equals(*batch));
  EXPECT_EQ(RecordBatch::Make(schema({}), 4, {})->num_columns(), 0);

  // Checked construction reports what is wrong.
  EXPECT_TRUE(RecordBatch::MakeChecked(PeopleSchema(), 3, {id_array, nullptr}).status().IsInvalid());
  EXPECT_TRUE(RecordBatch::MakeChecked(PeopleSchema(), 3, {name_array, id_array})
                  .status()
                  .IsTypeError());
  EXPECT_TRUE(RecordBatch::MakeChecked(PeopleSchema(), 2, columns).status().IsInvalid());
}

TEST(ArrayColumns, GetColumnByName) {
  auto batch = Unwrap(integration_json::RecordBatchFromJSONString(
      PeopleSchema(), R"([{"id": 1, "name": "ada"}, {"id": 2}])"));
  EXPECT_EQ(batch->schema()->GetFieldIndex("name"), 1);
  ArrayPtr name = batch->GetColumnByName("name");
  ASSERT_NE(name, nullptr);
  EXPECT_TRUE(name->Equals(FromJSON(utf8(), R"(["ada", null])")));
  EXPECT_EQ(batch->GetColumnByName("missing"), nullptr);

  auto table = Unwrap(Table::FromRecordBatches({batch, batch}));
  ChunkedArrayPtr ids = table->GetColumnByName("id");
  ASSERT_NE(ids, nullptr);
  EXPECT_EQ(ids->num_chunks(), 2);
  EXPECT_EQ(ids->length(), 4);
  EXPECT_EQ(table->GetColumnByName("nope"), nullptr);
}

TEST(ArrayColumns, TableFromRecordBatchesTakesTheFirstSchema) {
  auto first = Unwrap(integration_json::RecordBatchFromJSONString(PeopleSchema(), R"([{"id": 1, "name": "a"}])"));
  auto second = Unwrap(integration_json::RecordBatchFromJSONString(
      PeopleSchema(), R"([{"id": 2, "name": "b"}, {"id": 3, "name": null}])"));
  auto table = Unwrap(Table::FromRecordBatches({first, second}));
  EXPECT_TRUE(table->schema()->Equals(*PeopleSchema()));
  EXPECT_EQ(table->num_rows(), 3);
  ASSERT_OK(table->ValidateFull());

  Status empty = Table::FromRecordBatches(std::vector<RecordBatchPtr>{}).status();
  EXPECT_TRUE(empty.IsInvalid());
  EXPECT_NE(empty.message().find("explicit schema"), std::string::npos) << empty.ToString();
  // With an explicit schema an empty list is an empty table.
  EXPECT_EQ(Unwrap(Table::FromRecordBatches(PeopleSchema(), {}))->num_rows(), 0);

  auto other = RecordBatch::Make(schema({field("id", int64())}), 0,
                                 {FromJSON(int64(), "[]")});
  EXPECT_TRUE(Table::FromRecordBatches({first, other}).status().IsInvalid());
  EXPECT_TRUE(Table::FromRecordBatches({nullptr}).status().IsInvalid());
}

TEST(ArrayColumns, SelectColumns) {
  auto batch = Unwrap(integration_json::RecordBatchFromJSONString(
      schema({field("a", int32()), field("b", utf8()), field("c", boolean())}),
      R"([{"a": 1, "b": "x", "c": true}, {"a": 2, "b": "y", "c": null}])"));
  auto table = Unwrap(Table::FromRecordBatches({batch, batch->Slice(1)}));

  auto picked = Unwrap(table->SelectColumns({2, 0}));
  ASSERT_EQ(picked->num_columns(), 2);
  EXPECT_EQ(picked->schema()->field(0)->name(), "c");
  EXPECT_EQ(picked->schema()->field(1)->name(), "a");
  EXPECT_EQ(picked->num_rows(), 3);
  EXPECT_EQ(picked->column(1), table->column(0));  // zero-copy: the same chunked array
  ASSERT_OK(picked->ValidateFull());

  auto by_name = Unwrap(table->SelectColumnsByName({"c", "a"}));
  EXPECT_TRUE(by_name->Equals(*picked));
  EXPECT_TRUE(table->SelectColumns({3}).status().IsIndexError());
  EXPECT_TRUE(table->SelectColumns({-1}).status().IsIndexError());
  EXPECT_TRUE(table->SelectColumnsByName({"zz"}).status().IsKeyError());
  EXPECT_EQ(Unwrap(table->SelectColumns({}))->num_columns(), 0);
}

TEST(ArrayColumns, ChunkedArrayAndTableFromArrays) {
  ArrayPtr one = FromJSON(int32(), "[1, 2]");
  ArrayPtr two = FromJSON(int32(), "[null]");
  auto chunked = Unwrap(ChunkedArray::Make({one, two}));
  EXPECT_EQ(chunked->num_chunks(), 2);
  EXPECT_TRUE(chunked->type()->Equals(*int32()));
  EXPECT_TRUE(chunked->chunk(1)->Equals(two));
  EXPECT_NE(std::dynamic_pointer_cast<Int32Array>(chunked->chunk(0)), nullptr);
  EXPECT_EQ(chunked->null_count(), 1);
  EXPECT_TRUE(ChunkedArray::Make({}).status().IsInvalid());
  EXPECT_EQ(Unwrap(ChunkedArray::Make({}, utf8()))->num_chunks(), 0);
  EXPECT_TRUE(ChunkedArray::Make({one, FromJSON(utf8(), "[]")}).status().IsTypeError());
  EXPECT_TRUE(ChunkedArray::Make({one, nullptr}).status().IsInvalid());
  ChunkedArray direct(ArrayVector{one, two}, int32());
  EXPECT_TRUE(direct.Equals(*chunked));

  auto table = Unwrap(Table::Make(PeopleSchema(), {one, FromJSON(utf8(), R"(["a", "b"])")}));
  EXPECT_EQ(table->num_rows(), 2);
  ASSERT_OK(table->ValidateFull());
  EXPECT_TRUE(Table::Make(PeopleSchema(), {one, FromJSON(utf8(), R"(["a"])")}).status().IsInvalid());
  EXPECT_TRUE(Table::Make(PeopleSchema(), {one}).status().IsInvalid());
  EXPECT_TRUE(Table::Make(PeopleSchema(), {one, one}).status().IsTypeError());
  auto from_chunked = Unwrap(Table::Make(schema({field("id", int32())}), {chunked}));
  EXPECT_EQ(Unwrap(Table::Make(schema({}), {}))->num_columns(), 0);
  EXPECT_EQ(from_chunked->num_rows(), 3);
}

// --- Buffers over std::vector and caller memory -------------------------------

TEST(BufferFromVector, OwnsTheVectorWithoutCopying) {
  std::vector<int64_t> values = {10, 20, 30, 40, 50};
  const int64_t* where = values.data();
  BufferPtr buffer = Buffer::FromVector(std::move(values));
  EXPECT_EQ(buffer->data_as<int64_t>(), where);  // moved, not copied
  EXPECT_EQ(buffer->size(), 40);
  EXPECT_FALSE(buffer->is_mutable());

  // An array over it validates, compares, slices, iterates and round-trips
  // through IPC even though the buffer is not padded to 64 bytes.
  auto data = ArrayData::Make(int64(), 5, {nullptr, buffer}, 0);
  Int64Array array(data);
  ASSERT_OK(array.ValidateFull());
  EXPECT_TRUE(array.Equals(FromJSON(int64(), "[10, 20, 30, 40, 50]")));
  EXPECT_EQ(std::accumulate(array.begin(), array.end(), int64_t{0},
                            [](int64_t sum, std::optional<int64_t> v) { return sum + v.value_or(0); }),
            150);
  auto batch = RecordBatch::Make(schema({field("v", int64())}), 3, {data->Slice(1, 3)});
  auto file = Unwrap(ipc::SerializeFile(batch->schema(), {batch}));
  auto reader = Unwrap(ipc::FileReader::Open(file));
  ASSERT_NE(reader, nullptr);
  auto table = Unwrap(reader->ToTable());
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(table->column(0)->chunk(0)->Equals(FromJSON(int64(), "[20, 30, 40]")));

  // Validity bitmaps from a vector of bytes work too (bit-level reads stay in bounds).
  BufferPtr bits = Buffer::FromVector(std::vector<uint8_t>{0b10110101});
  auto with_nulls = ArrayData::Make(int64(), 5, {bits, buffer}, kUnknownNullCount);
  EXPECT_EQ(with_nulls->GetNullCount(), 2);
  ASSERT_OK(MakeArray(with_nulls)->ValidateFull());
}

TEST(BufferWrap, BorrowsCallerMemory) {
  std::vector<int32_t> values = {1, 2, 3};
  BufferPtr borrowed = Buffer::Wrap(values);
  EXPECT_EQ(borrowed->data_as<int32_t>(), values.data());
  EXPECT_EQ(borrowed->size(), 12);
  EXPECT_EQ(borrowed->owner(), nullptr);
  values[1] = 99;  // a view, not a copy
  EXPECT_EQ(borrowed->data_as<int32_t>()[1], 99);

  const double raw[] = {0.5, 1.5};
  BufferPtr from_pointer = Buffer::Wrap(raw, 2);
  EXPECT_EQ(from_pointer->size(), 16);
  EXPECT_TRUE(MakeArray(ArrayData::Make(float64(), 2, {nullptr, from_pointer}, 0))
                  ->Equals(FromJSON(float64(), "[0.5, 1.5]")));
}

TEST(BufferWrap, KeepAliveHeldUntilTheBufferDies) {
  auto storage = std::make_shared<std::vector<uint16_t>>(std::vector<uint16_t>{7, 8, 9});
  std::weak_ptr<std::vector<uint16_t>> watch = storage;
  std::shared_ptr<void> keep_alive = storage;
  BufferPtr buffer = Buffer::Wrap(storage->data(), 3, std::move(keep_alive));
  storage.reset();
  EXPECT_FALSE(watch.expired());  // the buffer keeps the storage alive
  auto data = ArrayData::Make(uint16(), 3, {nullptr, buffer}, 0);
  buffer.reset();
  EXPECT_TRUE(MakeArray(data)->Equals(FromJSON(uint16(), "[7, 8, 9]")));
  data.reset();
  EXPECT_TRUE(watch.expired());
}

// --- Iterating typed arrays ---------------------------------------------------

static_assert(std::random_access_iterator<Int32Array::iterator>);
static_assert(std::random_access_iterator<StringArray::iterator>);
static_assert(std::ranges::random_access_range<const Int32Array>);
static_assert(std::ranges::sized_range<const StringViewArray>);
static_assert(std::is_same_v<std::iter_value_t<LargeBinaryArray::iterator>,
                             std::optional<std::string_view>>);
static_assert(std::is_same_v<std::iter_value_t<BooleanArray::iterator>, std::optional<bool>>);

template <typename ArrayT, typename V>
std::vector<std::optional<V>> Collect(const ArrayT& array) {
  std::vector<std::optional<V>> out;
  for (std::optional<V> v : array) out.push_back(v);
  return out;
}

TEST(ArrayIteration, NumericWithNullsAndSlices) {
  auto full = FromJSON(int32(), "[1, null, 3, 4, null, 6]");
  const auto& ints = static_cast<const Int32Array&>(*full);
  using Opt = std::optional<int32_t>;
  EXPECT_EQ((Collect<Int32Array, int32_t>(ints)),
            (std::vector<Opt>{1, std::nullopt, 3, 4, std::nullopt, 6}));
  EXPECT_EQ(std::ranges::count(ints, Opt()), 2);
  EXPECT_EQ(std::count(ints.begin(), ints.end(), std::nullopt), 2);
  EXPECT_EQ(std::ranges::distance(ints), 6);

  auto sliced = full->Slice(1, 4);  // [null, 3, 4, null] at offset 1
  const auto& part = static_cast<const Int32Array&>(*sliced);
  EXPECT_EQ((Collect<Int32Array, int32_t>(part)), (std::vector<Opt>{std::nullopt, 3, 4, std::nullopt}));

  // Random access.
  auto it = part.begin();
  EXPECT_EQ(it[2], Opt(4));
  EXPECT_EQ(*(it + 1), Opt(3));
  EXPECT_EQ(part.end() - part.begin(), 4);
  EXPECT_LT(it, part.end());
  it += 3;
  EXPECT_EQ(*it, std::nullopt);
  --it;
  EXPECT_EQ(*it--, Opt(4));
  EXPECT_EQ(*it, Opt(3));
  auto found = std::ranges::find(part, Opt(4));
  EXPECT_EQ(found - part.begin(), 2);

  // No validity bitmap at all, and empty arrays.
  auto dense = FromJSON(float64(), "[0.5, 1.5, 2.0]");
  double sum = 0;
  for (auto v : static_cast<const DoubleArray&>(*dense)) sum += *v;
  EXPECT_EQ(sum, 4.0);
  auto empty = FromJSON(int32(), "[]");
  EXPECT_EQ(static_cast<const Int32Array&>(*empty).begin(),
            static_cast<const Int32Array&>(*empty).end());

  // A slice of a sliced boolean array: validity and values both offset.
  auto bools = FromJSON(boolean(), "[true, false, null, true, false, true, null, true, false]");
  auto bool_slice = bools->Slice(2)->Slice(3, 4);  // [true, null, true, false]
  EXPECT_EQ((Collect<BooleanArray, bool>(static_cast<const BooleanArray&>(*bool_slice))),
            (std::vector<std::optional<bool>>{true, std::nullopt, true, false}));
}

TEST(ArrayIteration, StringsAndBinaryOfEveryLayout) {
  const char* text = R"(["a", null, "", "a value longer than twelve bytes", "z"])";
  using Opt = std::optional<std::string_view>;
  const std::vector<Opt> tail = {std::nullopt, "", "a value longer than twelve bytes"};
  for (const DataTypePtr& type : {utf8(), binary(), large_utf8(), large_binary(), utf8_view(),
                                  binary_view()}) {
    SCOPED_TRACE(type->ToString());
    ArrayPtr array = FromJSON(type, text)->Slice(1, 3);
    std::vector<Opt> got;
    auto collect = [&got](const auto& typed) {
      for (Opt s : typed) got.push_back(s);
    };
    switch (type->id()) {
      case TypeId::kString: collect(static_cast<const StringArray&>(*array)); break;
      case TypeId::kBinary: collect(static_cast<const BinaryArray&>(*array)); break;
      case TypeId::kLargeString: collect(static_cast<const LargeStringArray&>(*array)); break;
      case TypeId::kLargeBinary: collect(static_cast<const LargeBinaryArray&>(*array)); break;
      case TypeId::kStringView: collect(static_cast<const StringViewArray&>(*array)); break;
      default: collect(static_cast<const BinaryViewArray&>(*array)); break;
    }
    EXPECT_EQ(got, tail);
  }

  auto fixed = FromJSON(fixed_size_binary(2), R"(["ab", null, "cd", "ef"])")->Slice(1);
  const auto& fsb = static_cast<const FixedSizeBinaryArray&>(*fixed);
  EXPECT_EQ((std::vector<Opt>(fsb.begin(), fsb.end())), (std::vector<Opt>{std::nullopt, "cd", "ef"}));

  // Views point into the array's own data: nothing is copied per element.
  auto strings = FromJSON(utf8(), R"(["hello", "world"])");
  const auto& sa = static_cast<const StringArray&>(*strings);
  EXPECT_EQ((*sa.begin())->data(), reinterpret_cast<const char*>(sa.raw_data()));
  std::set<std::string_view> distinct;
  for (auto s : sa) distinct.insert(*s);
  EXPECT_EQ(distinct.size(), 2u);
}

// --- JSON literals -------------------------------------------------------------

TEST(JsonLiterals, PublicFunctions) {
  auto data = Unwrap(integration_json::ArrayFromJSONString(list(utf8()), R"([["a", null], null, []])"));
  ASSERT_OK(ValidateArrayFull(*data));
  EXPECT_EQ(data->length, 3);
  auto chunked = Unwrap(integration_json::ChunkedArrayFromJSONString(int8(), {"[1, 2]", "[]", "[null]"}));
  EXPECT_EQ(chunked->num_chunks(), 3);
  EXPECT_EQ(chunked->length(), 3);
  Status bad_chunk = integration_json::ChunkedArrayFromJSONString(int8(), {"[1]", "[300]"}).status();
  EXPECT_NE(bad_chunk.ToString().find("chunk 1"), std::string::npos) << bad_chunk.ToString();

  Status st = integration_json::ArrayFromJSONString(int32(), "[1, 2,").status();
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("at byte"), std::string::npos) << st.ToString();
  st = integration_json::ArrayFromJSONString(struct_({field("a", int32())}), R"([{"a": 1}, {"a": "x"}])").status();
  EXPECT_NE(st.message().find("[1].a"), std::string::npos) << st.ToString();
  EXPECT_TRUE(integration_json::ArrayFromJSONString(nullptr, "[]").status().IsInvalid());
  EXPECT_TRUE(integration_json::RecordBatchFromJSONString(nullptr, "[]").status().IsInvalid());
}

TEST(JsonLiterals, NestingDepthIsBounded) {
  // Deep enough to overflow a recursive parser or printer: refused up front.
  std::string deep(200000, '[');
  deep += std::string(200000, ']');
  Status st = integration_json::ArrayFromJSONString(list(int32()), deep).status();
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("nested deeper than"), std::string::npos) << st.ToString();
  EXPECT_TRUE(integration_json::RecordBatchFromJSONString(PeopleSchema(), deep).status().IsInvalid());

  // Exactly the limit still parses (and fails only on the type); brackets in
  // strings do not count.
  std::string at_limit(integration_json::kMaxJsonNestingDepth, '[');
  at_limit += std::string(integration_json::kMaxJsonNestingDepth, ']');
  st = integration_json::ArrayFromJSONString(int32(), at_limit).status();
  EXPECT_EQ(st.message().find("nested deeper"), std::string::npos) << st.ToString();
  std::string quoted = "[\"" + std::string(1000, '[') + "\\\"\"]";
  auto strings = Unwrap(integration_json::ArrayFromJSONString(utf8(), quoted));
  EXPECT_EQ(strings->length, 1);

  // A list type nested as deep as the limit takes a literal as deep.
  DataTypePtr type = int32();
  std::string literal = "1";
  for (int i = 0; i < integration_json::kMaxJsonNestingDepth - 1; ++i) {
    type = list(type);
    literal = "[" + literal + "]";
  }
  auto nested = Unwrap(integration_json::ArrayFromJSONString(type, "[" + literal + "]"));
  EXPECT_EQ(nested->length, 1);
}

// --- Reading a whole IPC file into a table ---------------------------------------

TEST(FileReaderToTable, ReadsEveryBatchOfAFreshReader) {
  auto first = Unwrap(integration_json::RecordBatchFromJSONString(PeopleSchema(), R"([{"id": 1, "name": "a"}])"));
  auto second = Unwrap(integration_json::RecordBatchFromJSONString(
      PeopleSchema(), R"([{"id": 2, "name": "b"}, {"id": 3}])"));
  auto sink = Unwrap(io::BufferOutputStream::Create());
  auto writer = Unwrap(ipc::MakeFileWriter(sink.get(), PeopleSchema()));
  ASSERT_OK(writer->WriteRecordBatch(*first));
  ASSERT_OK(writer->WriteRecordBatch(*second));
  ASSERT_OK(writer->WriteRecordBatch(*second->Slice(0, 0)));
  ASSERT_OK(writer->Close());
  BufferPtr file = Unwrap(sink->Finish());

  std::unique_ptr<ipc::FileReader> reader = Unwrap(ipc::FileReader::Open(file));
  std::shared_ptr<Table> table = Unwrap(reader->ToTable());
  EXPECT_EQ(table->num_rows(), 3);
  EXPECT_EQ(table->column(0)->num_chunks(), 3);
  EXPECT_TRUE(table->Equals(*Unwrap(Table::FromRecordBatches({first, second}))));
  // The cursor is now at the end; ReadRecordBatch still reaches any batch.
  EXPECT_EQ(Unwrap(reader->Next()), nullptr);
  EXPECT_EQ(Unwrap(reader->ReadRecordBatch(1))->num_rows(), 2);

  // A reader that already handed out a batch converts the rest.
  auto partial = Unwrap(ipc::FileReader::Open(file));
  ASSERT_NE(Unwrap(partial->Next()), nullptr);
  EXPECT_EQ(Unwrap(partial->ToTable())->num_rows(), 2);

  // The same through the stream format and the base-class interface.
  auto stream = Unwrap(ipc::SerializeStream(PeopleSchema(), {first, second}));
  std::unique_ptr<RecordBatchReader> generic = Unwrap(ipc::StreamReader::Open(stream));
  EXPECT_TRUE(Unwrap(generic->ToTable())->Equals(*table));
}

TEST(FileReaderToTable, GoldFiles) {
  ALKAID_REQUIRE_TEST_DATA(dir);
  const std::string base = dir + "/arrow-testing/integration/1.0.0-littleendian/";
  int files = 0;
  for (const char* name : {"generated_primitive", "generated_nested", "generated_dictionary"}) {
    SCOPED_TRACE(name);
    const std::string path = base + name + ".arrow_file";
    if (!std::filesystem::exists(path)) continue;
    ++files;
    auto reader = Unwrap(ipc::FileReader::OpenMapped(path));
    const int batches = reader->num_record_batches();
    auto table = Unwrap(reader->ToTable());
    ASSERT_NE(table, nullptr);
    ASSERT_OK(table->ValidateFull());
    int64_t rows = 0;
    for (int i = 0; i < batches; ++i) rows += Unwrap(reader->ReadRecordBatch(i))->num_rows();
    EXPECT_EQ(table->num_rows(), rows);
    for (int c = 0; c < table->num_columns(); ++c) {
      EXPECT_EQ(table->column(c)->num_chunks(), batches);
      EXPECT_EQ(table->GetColumnByName(table->schema()->field(c)->name()),
                table->column(table->schema()->GetFieldIndex(table->schema()->field(c)->name())));
    }
    // Iterate every utf8 column of the file and check against GetView / IsNull.
    for (int c = 0; c < table->num_columns(); ++c) {
      if (table->column(c)->type()->id() != TypeId::kString) continue;
      for (int k = 0; k < table->column(c)->num_chunks(); ++k) {
        auto chunk = std::static_pointer_cast<StringArray>(table->column(c)->chunk(k));
        int64_t i = 0;
        for (std::optional<std::string_view> s : *chunk) {
          ASSERT_EQ(s.has_value(), chunk->IsValid(i));
          if (s) {
            ASSERT_EQ(*s, chunk->GetView(i));
          }
          ++i;
        }
        EXPECT_EQ(i, chunk->length());
      }
    }
  }
  EXPECT_GT(files, 0) << "no gold files found under " << base;
}

// --- The umbrella header ------------------------------------------------------

// alkaid/api.h reaches every public header through umbrellas only: the api.h of each
// module folder and alkaid/<name>.h for a folder alkaid/<name>/ (builder.h, type.h). A
// header that only some other header happens to include does not count.
TEST(ApiHeader, IncludesEveryPublicHeader) {
  namespace fs = std::filesystem;
  const fs::path include_dir = fs::path(ALKAID_SOURCE_DIR) / "include";
  auto is_umbrella = [&](const std::string& name) {
    if (name == "alkaid/api.h" || name.ends_with("/api.h")) return true;
    const fs::path folder = include_dir / fs::path(name).replace_extension();
    return fs::is_directory(folder);
  };
  std::set<std::string> reached;
  std::vector<std::string> pending = {"alkaid/api.h"};
  while (!pending.empty()) {
    const std::string name = pending.back();
    pending.pop_back();
    if (!reached.insert(name).second || !is_umbrella(name)) continue;
    std::ifstream in(include_dir / name);
    ASSERT_TRUE(in) << "cannot open " << name;
    const std::string prefix = "#include \"";
    for (std::string line; std::getline(in, line);) {
      if (!line.starts_with(prefix)) continue;
      const size_t end = line.find('"', prefix.size());
      if (end == std::string::npos) continue;
      pending.push_back(line.substr(prefix.size(), end - prefix.size()));
    }
  }
  int headers = 0;
  for (const auto& entry : fs::recursive_directory_iterator(include_dir / "alkaid")) {
    if (entry.path().extension() != ".h") continue;
    const std::string name = fs::relative(entry.path(), include_dir).generic_string();
    ++headers;
    EXPECT_TRUE(reached.count(name) > 0)
        << name << " is not included by alkaid/api.h or by one of the api.h or folder "
        << "umbrellas it includes";
  }
  EXPECT_GT(headers, 30);
}

// --- The README's "A first program" ---------------------------------------------------

Status ReadmeProgram(const std::string& path, std::ostream& out) {
  // Two columns from builders.
  Int32Builder ids;
  StringBuilder names;
  ALKAID_RETURN_NOT_OK(ids.AppendValues(std::vector<int32_t>{1, 2, 3}));
  ALKAID_RETURN_NOT_OK(names.AppendValues(std::vector<std::string>{"ada", "grace", ""},
                                          std::vector<bool>{true, true, false}));
  std::shared_ptr<Array> id_array, name_array;
  ALKAID_RETURN_NOT_OK(ids.Finish(&id_array));
  ALKAID_RETURN_NOT_OK(names.Finish(&name_array));

  // A record batch, written to an IPC file.
  auto people = schema({field("id", int32()), field("name", utf8())});
  ALKAID_ASSIGN_OR_RAISE(auto batch, RecordBatch::MakeChecked(people, 3, {id_array, name_array}));
  ALKAID_ASSIGN_OR_RAISE(auto sink, io::FileOutputStream::Open(path));
  ALKAID_ASSIGN_OR_RAISE(auto writer, ipc::MakeFileWriter(sink.get(), people));
  ALKAID_RETURN_NOT_OK(writer->WriteRecordBatch(*batch));
  ALKAID_RETURN_NOT_OK(writer->Close());
  ALKAID_RETURN_NOT_OK(sink->Close());

  // Read back as a table and iterate a column.
  ALKAID_ASSIGN_OR_RAISE(auto reader, ipc::FileReader::OpenMapped(path));
  ALKAID_ASSIGN_OR_RAISE(auto table, reader->ToTable());
  auto column = table->GetColumnByName("name");
  for (int c = 0; c < column->num_chunks(); ++c) {
    auto chunk = std::static_pointer_cast<StringArray>(column->chunk(c));
    for (std::optional<std::string_view> name : *chunk) out << name.value_or("(null)") << "\n";
  }
  return Status::OK();
}

TEST(Readme, UsingTheLibraryProgramRuns) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("alkaid_readme_" + std::to_string(::getpid()) + ".arrow"))
          .string();
  std::ostringstream out;
  Status st = ReadmeProgram(path, out);
  std::remove(path.c_str());
  ASSERT_OK(st);
  EXPECT_EQ(out.str(), "ada\ngrace\n(null)\n");
}

}  // namespace
}  // namespace alkaid
