// Tests of ValidateArray / ValidateArrayFull / ValidateUtf8:
// lists, struct, map, unions, dictionaries, run-end encoded.
//
// Pattern: build a valid array by hand from buffers, check that it passes both
// levels, then break exactly one thing and check the level that must catch it,
// the Invalid code, and the rule and location named in the message.
// Buffers are exact-size heap allocations (no padding), so a sanitizer build
// sees any read past the end.

#include "src/array/validate_test_helpers.h"

#include <chrono>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace alkaid {
namespace {

using namespace validate_test;  // NOLINT

// ---------------------------------------------------------------------------
// Lists

TEST(ValidateTest, ListValid) {
  auto type = list(int32());
  ExpectValid(*ListOf(type, {0, 2, 2, 3}, Int32s({1, 2, 3})));
  ExpectValid(*ListOf(type, {0, 2, 2, 3}, Int32s({1, 2, 3}), "101"));
  ExpectValid(*ListOf(type, {0, 2, 2, 3}, Int32s({1, 2, 3}))->Slice(1, 2));
  ExpectValid(*ArrayData::Make(type, 0, {nullptr, nullptr}, {Int32s({})}, 0));
}

TEST(ValidateTest, ListOffsetsPastChild) {
  auto a = ListOf(list(int32()), {0, 2, 2, 4}, Int32s({1, 2, 3}));
  ExpectDataInvalid(*a, {"list array at <root>: offset[3] = 4 is past the end of the child "
                         "array (3 slots)"});
}

TEST(ValidateTest, ListOffsetsDecrease) {
  auto a = ListOf(list(int32()), {0, 2, 1, 3}, Int32s({1, 2, 3}));
  ExpectDataInvalid(*a, {"offset[2] = 1 is less than offset[1] = 2 (offsets must not decrease)"});
}

// The order checks of offsets and run ends take a wide path from 64 values
// on (AVX2 where the CPU has it) and a narrow one below; each must find a
// single value out of order wherever it sits, including the tails the wide
// path leaves to scalar code.
template <typename O>
void ExpectEveryDecreaseFound(const DataTypePtr& type) {
  for (int64_t n : {1, 2, 7, 8, 9, 62, 63, 64, 65, 66, 71, 72, 127, 128, 129, 200}) {
    // Offsets 2, 4, ..., 2n + 2: every string two bytes, the first at byte 2.
    std::vector<O> offsets(static_cast<size_t>(n + 1));
    for (int64_t k = 0; k <= n; ++k) offsets[static_cast<size_t>(k)] = static_cast<O>(2 * k + 2);
    const BufferPtr chars = Str(std::string(static_cast<size_t>(2 * n + 2), 'a'));
    ExpectValid(*ArrayData::Make(type, n, {nullptr, Values(offsets), chars}, 0));
    for (int64_t j = 1; j <= n; ++j) {
      std::vector<O> bad = offsets;
      bad[static_cast<size_t>(j)] = static_cast<O>(bad[static_cast<size_t>(j - 1)] - 1);
      const std::string where = "offset[" + std::to_string(j) + "] = " + std::to_string(2 * j - 1);
      ExpectDataInvalid(*ArrayData::Make(type, n, {nullptr, Values(bad), chars}, 0),
                        {where, "(offsets must not decrease)"});
      // An equal neighbour (an empty string) is in order.
      std::vector<O> equal = offsets;
      equal[static_cast<size_t>(j)] = equal[static_cast<size_t>(j - 1)];
      ExpectValid(*ArrayData::Make(type, n, {nullptr, Values(equal), chars}, 0));
    }
  }
}

template <typename R>
void ExpectEveryRepeatedRunEndFound(const DataTypePtr& run_end_type) {
  auto type = run_end_encoded(run_end_type, int32());
  for (int64_t m : {3, 8, 9, 63, 64, 65, 66, 100, 130}) {
    // Runs of one slot, the last reaching past the array's m slots.
    std::vector<R> ends(static_cast<size_t>(m));
    for (int64_t k = 0; k < m; ++k) ends[static_cast<size_t>(k)] = static_cast<R>(k + 1);
    ends.back() = static_cast<R>(m + 10);
    const ArrayDataPtr values = Int32s(std::vector<int32_t>(static_cast<size_t>(m), 7));
    ExpectValid(*ArrayData::Make(type, m, BufferVector{}, ArrayDataVector{Primitive<R>(run_end_type, ends), values}, 0));
    for (int64_t j = 1; j + 1 < m; ++j) {
      std::vector<R> bad = ends;
      bad[static_cast<size_t>(j)] = bad[static_cast<size_t>(j - 1)];
      ExpectDataInvalid(*ArrayData::Make(type, m, BufferVector{}, ArrayDataVector{Primitive<R>(run_end_type, bad), values}, 0),
                        {"run_ends[" + std::to_string(j) + "] = " + std::to_string(j),
                         "(run ends must strictly increase)"});
    }
  }
}

TEST(ValidateTest, OrderChecksFindEveryValueOutOfPlace) {
  ExpectEveryDecreaseFound<int32_t>(utf8());
  ExpectEveryDecreaseFound<int32_t>(binary());
  ExpectEveryDecreaseFound<int64_t>(large_utf8());
  ExpectEveryDecreaseFound<int64_t>(large_binary());
  ExpectEveryRepeatedRunEndFound<int16_t>(int16());
  ExpectEveryRepeatedRunEndFound<int32_t>(int32());
  ExpectEveryRepeatedRunEndFound<int64_t>(int64());
}

TEST(ValidateTest, LargeListOffsets) {
  auto type = large_list(int32());
  auto a = ArrayData::Make(type, 2, {nullptr, Values(std::vector<int64_t>{0, 1, 3})},
                           {Int32s({1, 2, 3})}, 0);
  ExpectValid(*a);
  Poke<int64_t>(a->buffers[1], 0, -4);
  ExpectDataInvalid(*a, {"large_list array", "offset[0] = -4 is negative"});
}

TEST(ValidateTest, ListChildCountAndType) {
  auto a = ListOf(list(int32()), {0, 1}, Int32s({1}));
  a->child_data.clear();
  ExpectStructureInvalid(*a, {"expected 1 child arrays (one per field), got 0"});
  auto b = ListOf(list(int32()), {0, 1}, Primitive<int64_t>(int64(), {1}));
  ExpectStructureInvalid(*b, {"child 0 ('item') has type int64 but the field declares int32"});
  auto c = ListOf(list(int32()), {0, 1}, Int32s({1}));
  c->child_data[0] = nullptr;
  ExpectStructureInvalid(*c, {"child 0 ('item') is null"});
}

TEST(ValidateTest, ListViewValidOutOfOrderAndShared) {
  auto type = list_view(int32());
  auto a = ArrayData::Make(
      type, 3,
      {Bits("101"), Values(std::vector<int32_t>{2, 99, 0}), Values(std::vector<int32_t>{2, -7, 4})},
      {Int32s({1, 2, 3, 4})}, 1);
  // The null slot's offset/size are garbage: the spec still requires them in range.
  ExpectDataInvalid(*a, {"slot 1: offset 99 is outside the child array of length 4"});
  Poke<int32_t>(a->buffers[1], 1, 4);
  ExpectDataInvalid(*a, {"slot 1: size -7 is negative"});
  Poke<int32_t>(a->buffers[2], 1, 0);
  ExpectValid(*a);
}

TEST(ValidateTest, ListViewRangeOverrun) {
  auto type = large_list_view(int32());
  auto a = ArrayData::Make(
      type, 2, {nullptr, Values(std::vector<int64_t>{0, 3}), Values(std::vector<int64_t>{2, 1})},
      {Int32s({1, 2, 3, 4})}, 0);
  ExpectValid(*a);
  Poke<int64_t>(a->buffers[2], 1, 2);
  ExpectDataInvalid(*a, {"large_list_view array",
                         "slot 1: offset 3 + size 2 is past the end of "
                         "the child array of length 4"});
  Poke<int64_t>(a->buffers[2], 1, std::numeric_limits<int64_t>::max());
  ExpectDataInvalid(*a, {"slot 1: offset 3 + size 9223372036854775807"});
  Poke<int64_t>(a->buffers[2], 1, 0);
  Poke<int64_t>(a->buffers[1], 0, -1);
  ExpectDataInvalid(*a, {"slot 0: offset -1 is outside"});
}

TEST(ValidateTest, ListViewSizesBufferTooSmall) {
  auto a = ArrayData::Make(
      list_view(int32()), 2,
      {nullptr, Values(std::vector<int32_t>{0, 1}), Values(std::vector<int32_t>{1})},
      {Int32s({1, 2})}, 0);
  ExpectStructureInvalid(*a, {"buffer 2 (sizes) has 4 bytes but 8 are needed"});
}

TEST(ValidateTest, FixedSizeListChildLength) {
  auto type = fixed_size_list(int32(), 2);
  auto a = ArrayData::Make(type, 3, {nullptr}, {Int32s({1, 2, 3, 4, 5, 6})}, 0);
  ExpectValid(*a);
  ExpectValid(*a->Slice(1, 2));
  a->child_data[0] = Int32s({1, 2, 3, 4, 5});
  ExpectStructureInvalid(*a, {"fixed_size_list array",
                              "child 0 ('item') has length 5 but needs "
                              "at least (offset + length) * list_size = 6"});
  auto neg = ArrayData::Make(std::make_shared<FixedSizeListType>(int32(), -1), 0, {nullptr},
                             {Int32s({})}, 0);
  ExpectStructureInvalid(*neg, {"list_size -1 is negative"});
  auto huge = ArrayData::Make(fixed_size_list(int32(), std::numeric_limits<int32_t>::max()),
                              int64_t{1} << 40, {nullptr}, {Int32s({})}, 0);
  ExpectStructureInvalid(*huge, {"overflows a 64-bit integer"});
}

// ---------------------------------------------------------------------------
// Struct and map

TEST(ValidateTest, StructChildLength) {
  auto type = struct_({field("a", int32()), field("b", utf8())});
  auto a = Struct(type, {Int32s({1, 2, 3}), Strings(utf8(), {"x", "y", "z"})}, 3, "110");
  ExpectValid(*a);
  ExpectValid(*a->Slice(1, 2));
  a->child_data[1] = Strings(utf8(), {"x", "y"});
  ExpectStructureInvalid(*a, {"struct array at <root>: child 1 ('b') has length 2 but needs at "
                              "least offset + length = 3"});
}

TEST(ValidateTest, StructChildTypeMismatchAndCount) {
  auto type = struct_({field("a", int32()), field("b", utf8())});
  auto a = Struct(type, {Int32s({1})}, 1);
  ExpectStructureInvalid(*a, {"expected 2 child arrays (one per field), got 1"});
  auto b = Struct(type, {Int32s({1}), Int32s({1})}, 1);
  ExpectStructureInvalid(*b, {"child 1 ('b') has type int32 but the field declares string"});
}

TEST(ValidateTest, StructBufferCount) {
  auto type = struct_({field("a", int32())});
  auto a = Struct(type, {Int32s({1})}, 1);
  a->buffers.push_back(nullptr);
  ExpectStructureInvalid(*a, {"expected 1 buffers, got 2"});
}


TEST(ValidateTest, MapValidAndKeyRules) {
  auto type = map(utf8(), int32());
  auto a = MakeMap(type, Strings(utf8(), {"a", "b", "c"}), Int32s({1, 2, 3}, "101"), {0, 2, 3});
  ExpectValid(*a);
  // Keys with a declared null count.
  auto b = MakeMap(type, Strings(utf8(), {"a", "b", "c"}, "110"), Int32s({1, 2, 3}), {0, 2, 3});
  ExpectStructureInvalid(*b, {"map array at <root>: map keys must not be null"});
  // Keys whose bitmap has a null though the count is unknown.
  b->child_data[0]->child_data[0]->null_count = kUnknownNullCount;
  ExpectDataInvalid(*b, {"map keys must not be null, the key array has 1 nulls"});
  // Map offsets are list offsets into the entries.
  auto c = MakeMap(type, Strings(utf8(), {"a"}), Int32s({1}), {0, 2});
  ExpectDataInvalid(*c,
                    {"map array", "offset[1] = 2 is past the end of the child array (1 slots)"});
}

// ---------------------------------------------------------------------------
// Unions



TEST(ValidateTest, SparseUnionValid) {
  ExpectValid(*SparseUnion({2, 5, 5, 2}));
  ExpectValid(*SparseUnion({2, 5, 5, 2})->Slice(1, 3));
}

TEST(ValidateTest, SparseUnionUndeclaredTypeId) {
  ExpectDataInvalid(*SparseUnion({2, 5, 3, 2}),
                    {"sparse_union array at <root>: slot 2: type id 3 is not declared by the "
                     "union (type codes [2, 5])"});
  ExpectDataInvalid(*SparseUnion({2, -1}), {"slot 1: type id -1 is not declared"});
  // The broken slot lies outside this slice.
  ExpectValid(*SparseUnion({2, 5, 3, 2})->Slice(0, 2));
  ExpectDataInvalid(*SparseUnion({2, 5, 3, 2})->Slice(1, 3),
                    {"slot 1 (physical index 2): type id 3"});
}

TEST(ValidateTest, SparseUnionChildTooShort) {
  auto a = SparseUnion({2, 5, 5});
  a->child_data[1] = Strings(utf8(), {"a", "b"});
  ExpectStructureInvalid(*a, {"child 1 ('s') has length 2 but needs at least offset + length = 3"});
}

TEST(ValidateTest, UnionHasNoValidityOrNullCount) {
  auto a = SparseUnion({2, 5});
  a->buffers.insert(a->buffers.begin(), nullptr);
  ExpectStructureInvalid(*a, {"expected 1 buffers, got 2"});
  auto b = SparseUnion({2, 5});
  b->null_count = 1;
  ExpectStructureInvalid(*b, {"null_count 1 must be 0"});
  auto c = SparseUnion({2, 5});
  c->buffers[0] = Truncated(c->buffers[0], 1);
  ExpectStructureInvalid(*c, {"buffer 0 (type ids) has 1 bytes but 2 are needed"});
}


TEST(ValidateTest, DenseUnionOffsets) {
  ExpectValid(*DenseUnion({0, 7, 7, 0, 7}, {0, 0, 1, 1, 2}));
  // Per-child offsets out of order are allowed (a SHOULD in the spec).
  ExpectValid(*DenseUnion({7, 7}, {2, 0}));
  ExpectDataInvalid(*DenseUnion({0, 7, 0}, {0, 0, 2}),
                    {"dense_union array at <root>: slot 2: dense union offset 2 is outside "
                     "child 0 ('i') of length 2"});
  ExpectDataInvalid(*DenseUnion({0, 7}, {0, -1}),
                    {"slot 1: dense union offset -1 is outside child 1 ('s')"});
  ExpectDataInvalid(*DenseUnion({0, 1}, {0, 0}), {"slot 1: type id 1 is not declared"});
  auto short_offsets = DenseUnion({0, 7}, {0});
  ExpectStructureInvalid(*short_offsets, {"buffer 1 (values) has 4 bytes but 8 are needed"});
}

// ---------------------------------------------------------------------------
// Dictionaries


TEST(ValidateTest, DictionaryValid) {
  ExpectValid(*DictArray<int8_t>(int8(), {0, 2, 1}));
  ExpectValid(*DictArray<uint64_t>(uint64(), {0, 2, 1}));
  ExpectValid(*DictArray<int32_t>(int32(), {0, -5, 1}, "101"));  // null slot may hold anything
}

TEST(ValidateTest, DictionariesValidatedSkipsTheDictionaryButNotTheIndices) {
  // A reader validates each dictionary once when it arrives and tells
  // validation not to repeat it for every batch using it.
  auto a = DictArray<int8_t>(int8(), {0, 2, 1});
  a->dictionary = Strings(utf8(), {"x", "\xff", "z"});  // invalid UTF-8 in the dictionary
  ValidateOptions options;
  EXPECT_FALSE(ValidateArray(*a, options).ok());
  options.dictionaries_validated = true;
  EXPECT_TRUE(ValidateArray(*a, options).ok()) << ValidateArray(*a, options);
  auto out_of_range = DictArray<int8_t>(int8(), {0, 3});
  Status st = ValidateArray(*out_of_range, options);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(st.message(), HasSubstr("dictionary index 3 is outside the dictionary of length 3"));
}

TEST(ValidateTest, DictionarySignedIndexOutOfRange) {
  ExpectDataInvalid(*DictArray<int8_t>(int8(), {0, 3, 1}),
                    {"dictionary array at <root>: slot 1: dictionary index 3 is outside the "
                     "dictionary of length 3"});
  ExpectDataInvalid(*DictArray<int16_t>(int16(), {-1}), {"slot 0: dictionary index -1"});
  ExpectDataInvalid(*DictArray<int64_t>(int64(), {0, 1, std::numeric_limits<int64_t>::min()}),
                    {"slot 2: dictionary index -9223372036854775808"});
}

TEST(ValidateTest, DictionaryUnsignedIndexOutOfRange) {
  ExpectDataInvalid(*DictArray<uint8_t>(uint8(), {200}), {"slot 0: dictionary index 200"});
  ExpectDataInvalid(*DictArray<uint32_t>(uint32(), {0, 3}), {"slot 1: dictionary index 3"});
  ExpectDataInvalid(*DictArray<uint64_t>(uint64(), {std::numeric_limits<uint64_t>::max()}),
                    {"dictionary index 18446744073709551615"});
}

TEST(ValidateTest, DictionaryIndicesWithManyNulls) {
  std::vector<int32_t> indices;
  std::string validity;
  for (int i = 0; i < 150; ++i) {
    bool valid = i < 64 || i % 2 == 0;
    indices.push_back(valid ? i % 3 : 1000);
    validity += valid ? '1' : '0';
  }
  ExpectValid(*DictArray<int32_t>(int32(), indices, validity));
  indices[100] = 3;
  ExpectDataInvalid(*DictArray<int32_t>(int32(), indices, validity),
                    {"slot 100: dictionary index 3"});
}

TEST(ValidateTest, DictionaryPresenceAndType) {
  auto a = DictArray<int8_t>(int8(), {0});
  a->dictionary = nullptr;
  ExpectStructureInvalid(*a, {"the dictionary values are missing"});
  auto b = DictArray<int8_t>(int8(), {0});
  b->dictionary = Int32s({1});
  ExpectStructureInvalid(*b, {"dictionary values have type int32 but the type declares string"});
}

TEST(ValidateTest, DictionaryValuesAreValidatedToo) {
  auto a = DictArray<int8_t>(int8(), {0});
  a->dictionary = Strings(utf8(), {"x", "\xFF"});
  ExpectDataInvalid(*a, {"string array at <root>.<dictionary>: slot 1 is not valid UTF-8"});
  a->dictionary->buffers[1] = Truncated(a->dictionary->buffers[1], 4);
  ExpectStructureInvalid(*a, {"string array at <root>.<dictionary>: buffer 1 (offsets)"});
}

// ---------------------------------------------------------------------------
// Run-end encoded


TEST(ValidateTest, RunEndEncodedValid) {
  ExpectValid(*Ree({2, 5, 6}, {1, 2, 3}, 6));
  ExpectValid(*Ree({2, 5, 6}, {1, 2, 3}, 4, 2));
  ExpectValid(*Ree({2, 5, 9}, {1, 2, 3}, 6));  // runs may extend past the end
  ExpectValid(*Ree({}, {}, 0));
  auto type16 = run_end_encoded(int16(), utf8());
  auto a = ArrayData::Make(type16, 3, {},
                           {Primitive<int16_t>(int16(), {1, 3}), Strings(utf8(), {"a", "b"})}, 0);
  ExpectValid(*a);
}

TEST(ValidateTest, RunEndNotPositive) {
  ExpectDataInvalid(*Ree({0, 5}, {1, 2}, 5),
                    {"run_end_encoded array at <root>: run_ends[0] = 0 must be positive"});
  ExpectDataInvalid(*Ree({-3, 5}, {1, 2}, 5), {"run_ends[0] = -3 must be positive"});
}

TEST(ValidateTest, RunEndsNotIncreasing) {
  ExpectDataInvalid(*Ree({2, 2, 6}, {1, 2, 3}, 6),
                    {"run_ends[1] = 2 is not greater than run_ends[0] = 2 (run ends must "
                     "strictly increase)"});
  auto type = run_end_encoded(int64(), int32());
  auto a =
      ArrayData::Make(type, 6, {}, {Primitive<int64_t>(int64(), {3, 6, 4}), Int32s({1, 2, 3})}, 0);
  ExpectDataInvalid(*a, {"run_ends[2] = 4 is not greater than run_ends[1] = 6"});
}

TEST(ValidateTest, RunEndsMustCoverOffsetPlusLength) {
  ExpectDataInvalid(*Ree({2, 5}, {1, 2}, 6),
                    {"the last run end 5 does not cover offset + length = 6"});
  ExpectDataInvalid(*Ree({2, 5}, {1, 2}, 4, 2), {"does not cover offset + length = 6"});
}

TEST(ValidateTest, RunEndChildrenRules) {
  ExpectStructureInvalid(*Ree({}, {}, 3), {"length is 3 but there are no runs"});
  ExpectStructureInvalid(*Ree({2, 4}, {1}, 4),
                         {"run_ends has length 2 but values has only 1 (each run needs a value)"});
  auto a = Ree({2, 4}, {1, 2}, 4);
  a->child_data.pop_back();
  ExpectStructureInvalid(*a, {"expected 2 child arrays (one per field), got 1"});
  auto b = Ree({2, 4}, {1, 2}, 4);
  b->buffers.push_back(nullptr);
  ExpectStructureInvalid(*b, {"expected 0 buffers, got 1"});
  auto c = Ree({2, 4}, {1, 2}, 4);
  c->null_count = 1;
  ExpectStructureInvalid(*c, {"null_count 1 must be 0"});
  auto d = Ree({2, 4}, {1, 2}, 4);
  d->child_data[0] = Int32s({2, 4}, "10");
  ExpectStructureInvalid(*d, {"run_ends must not contain nulls, null_count is 1"});
  d->child_data[0]->null_count = kUnknownNullCount;
  ExpectDataInvalid(*d, {"run_ends must not contain nulls, found 1"});
  auto e = ArrayData::Make(std::make_shared<RunEndEncodedType>(int8(), int32()), 0, {},
                           {Primitive<int8_t>(int8(), {}), Int32s({})}, 0);
  ExpectStructureInvalid(*e, {"run end type must be int16, int32 or int64, got int8"});
}

// Values past the last run are never read; the reference accepts them too.
TEST(ValidateTest, RunEndValuesMayBeLonger) {
  ExpectValid(*Ree({2, 4}, {1, 2, 3}, 4));
  ExpectValid(*Ree({2}, {1, 2, 3, 4}, 2));
}

TEST(ValidateTest, RunEndParentNullCountMustBeZero) {
  auto a = Ree({2, 4}, {1, 2}, 4);
  a->null_count = 2;
  ExpectStructureInvalid(*a, {"null_count 2 must be 0"});
}

// An empty array needs no offsets, but one it does carry must be >= 0.
TEST(ValidateTest, EmptyBinaryWithNegativeOffset) {
  auto a = ArrayData::Make(utf8(), 0, {nullptr, Values(std::vector<int32_t>{-1}), Str("")}, 0);
  ExpectDataInvalid(*a, {"offset[0] = -1 is negative"});
  auto b = ArrayData::Make(binary(), 0, {nullptr, Values(std::vector<int32_t>{0}), Str("")}, 0);
  ExpectValid(*b);
  auto c = ArrayData::Make(large_binary(), 0, {nullptr, nullptr, nullptr}, 0);
  ExpectValid(*c);
}

TEST(ValidateTest, RunEndsChildIsReadAtItsOwnOffset) {
  auto a = Ree({9, 2, 5}, {0, 1, 2}, 5);
  a->child_data[0] = a->child_data[0]->Slice(1, 2);
  a->child_data[1] = a->child_data[1]->Slice(1, 2);
  ExpectValid(*a);
}

}  // namespace
}  // namespace alkaid
