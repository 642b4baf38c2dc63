// Tests of ValidateArray / ValidateArrayFull / ValidateUtf8:
// lengths, offsets, null counts, generic buffer rules.
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
// Lengths, offsets, null counts, generic buffer rules

TEST(ValidateTest, ValidPrimitiveArrayPasses) {
  ExpectValid(*Int32s({1, 2, 3}));
  ExpectValid(*Int32s({1, 2, 3}, "101"));
  ExpectValid(*Int32s({}));
}

TEST(ValidateTest, NegativeLengthAndOffset) {
  auto a = Int32s({1, 2, 3});
  a->length = -1;
  ExpectStructureInvalid(*a, {"int32 array at <root>", "length -1 is negative"});
  a = Int32s({1, 2, 3});
  a->offset = -2;
  ExpectStructureInvalid(*a, {"offset -2 is negative"});
}

TEST(ValidateTest, OffsetPlusLengthOverflowIsRejected) {
  auto a = Int32s({1, 2, 3});
  a->offset = std::numeric_limits<int64_t>::max() - 1;
  a->length = 3;
  a->null_count = 0;
  ExpectStructureInvalid(*a, {"overflows a 64-bit integer"});
}

TEST(ValidateTest, HugeLengthIsRejectedWithoutReading) {
  auto a = Int32s({1, 2, 3});
  a->length = int64_t{1} << 40;
  ExpectStructureInvalid(*a, {"buffer 1 (values) has 12 bytes but 4398046511104 are needed"});
  // The byte count itself overflows 64 bits.
  auto b = Primitive<int64_t>(int64(), {1, 2});
  b->length = int64_t{1} << 61;
  ExpectStructureInvalid(*b, {"buffer 1 (values) would need more than 2^63 bytes"});
}

TEST(ValidateTest, NullCountOutOfRange) {
  auto a = Int32s({1, 2, 3}, "101");
  a->null_count = -2;
  ExpectStructureInvalid(*a, {"null_count -2 is neither -1"});
  a->null_count = 4;
  ExpectStructureInvalid(*a, {"null_count 4 is neither -1", "length = 3"});
}

TEST(ValidateTest, PositiveNullCountNeedsBitmap) {
  auto a = Int32s({1, 2, 3});
  a->null_count = 1;
  ExpectStructureInvalid(*a, {"null_count is 1 but there is no validity bitmap (buffer 0)"});
  a->null_count = kUnknownNullCount;  // unknown without a bitmap means no nulls
  ExpectValid(*a);
}

TEST(ValidateTest, ValidityBitmapTooSmall) {
  auto a = Int32s(std::vector<int32_t>(9, 7), "111111111");
  a->buffers[0] = Truncated(a->buffers[0], 1);
  ExpectStructureInvalid(*a, {"buffer 0 (validity bitmap) has 1 bytes but 2 are needed", "9 bits"});
}

TEST(ValidateTest, NullCountMustMatchBitmap) {
  auto a = Int32s({1, 2, 3, 4}, "1001");
  ExpectValid(*a);
  a->null_count = 1;
  ExpectDataInvalid(*a, {"null_count is 1 but the validity bitmap marks 2 of 4 slots as null"});
  a->null_count = kUnknownNullCount;
  ExpectValid(*a);
  // Only the sliced range counts.
  auto sliced = Int32s({1, 2, 3, 4}, "1001")->Slice(1, 2);
  sliced->null_count = 2;
  ExpectValid(*sliced);
  sliced->null_count = 1;
  ExpectDataInvalid(*sliced, {"marks 2 of 2 slots as null"});
}

TEST(ValidateTest, WrongBufferCount) {
  auto a = Int32s({1});
  a->buffers.pop_back();
  ExpectStructureInvalid(*a, {"expected 2 buffers, got 1"});
  auto n = ArrayData::Make(null(), 3, {nullptr}, 3);
  ExpectStructureInvalid(*n, {"null array", "expected 0 buffers, got 1"});
  auto v = Views(utf8_view(), {"a"});
  v->buffers.resize(1);
  ExpectStructureInvalid(*v, {"expected at least 2 buffers, got 1"});
}

TEST(ValidateTest, BufferWithSizeButNoMemory) {
  auto a = Int32s({1, 2});
  a->buffers[1] = std::make_shared<Buffer>(nullptr, 8);
  ExpectStructureInvalid(*a, {"buffer 1 has size 8 but no memory"});
}

TEST(ValidateTest, MissingValuesBuffer) {
  auto a = Int32s({1, 2});
  a->buffers[1] = nullptr;
  ExpectStructureInvalid(*a, {"buffer 1 (values) is missing but 8 bytes are needed"});
  auto empty = Int32s({});
  empty->buffers[1] = nullptr;  // nothing to hold
  ExpectValid(*empty);
}

TEST(ValidateTest, SlicedArraysAreCheckedAgainstOffsetPlusLength) {
  auto a = Int32s({1, 2, 3, 4});
  ExpectValid(*a->Slice(1, 3));
  EXPECT_EQ(a->Slice(2, 3)->length, 2);  // slices clamp, so build the overrun by hand
  auto past = std::make_shared<ArrayData>(*a);
  past->offset = 2;
  past->length = 3;  // reaches slot 5 of a 4-slot buffer
  ExpectStructureInvalid(*past, {"has 16 bytes but 20 are needed", "offset + length = 5"});
}

TEST(ValidateTest, EveryFixedWidthTypeChecksItsValueBufferSize) {
  struct Case {
    DataTypePtr type;
    int width;
  };
  std::vector<Case> cases = {{int8(), 1},
                             {uint8(), 1},
                             {int16(), 2},
                             {uint16(), 2},
                             {int32(), 4},
                             {uint32(), 4},
                             {int64(), 8},
                             {uint64(), 8},
                             {float16(), 2},
                             {float32(), 4},
                             {float64(), 8},
                             {date32(), 4},
                             {date64(), 8},
                             {time32(TimeUnit::kMilli), 4},
                             {time64(TimeUnit::kNano), 8},
                             {timestamp(TimeUnit::kMicro, "UTC"), 8},
                             {duration(TimeUnit::kSecond), 8},
                             {month_interval(), 4},
                             {day_time_interval(), 8},
                             {month_day_nano_interval(), 16},
                             {decimal32(9, 2), 4},
                             {decimal64(18, 2), 8},
                             {decimal128(38, 2), 16},
                             {decimal256(76, 2), 32},
                             {fixed_size_binary(3), 3}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.type->ToString());
    const int64_t length = 5;
    std::vector<uint8_t> bytes(static_cast<size_t>(length * c.width), 0);
    auto a = ArrayData::Make(c.type, length, {Bits("10111"), Values(bytes)}, 1);
    ExpectValid(*a);
    a->buffers[1] = Truncated(a->buffers[1], length * c.width - 1);
    ExpectStructureInvalid(*a, {"buffer 1 (values) has " + std::to_string(length * c.width - 1) +
                                " bytes but " + std::to_string(length * c.width) + " are needed"});
  }
}

TEST(ValidateTest, BooleanValueBitmapSize) {
  auto a = ArrayData::Make(boolean(), 9, {nullptr, Bits("101010101")}, 0);
  ExpectValid(*a);
  a->buffers[1] = Truncated(a->buffers[1], 1);
  ExpectStructureInvalid(*a,
                         {"bool array", "buffer 1 (value bitmap) has 1 bytes but 2 are needed"});
}

TEST(ValidateTest, NullTypeNullCountEqualsLength) {
  ExpectValid(*ArrayData::Make(null(), 3, {}, 3));
  ExpectValid(*ArrayData::Make(null(), 3, {}, kUnknownNullCount));
  auto a = ArrayData::Make(null(), 3, {}, 0);
  ExpectStructureInvalid(*a, {"null_count 0 must equal length 3"});
}

TEST(ValidateTest, LeafTypesHaveNoChildrenOrDictionary) {
  auto a = Int32s({1});
  a->child_data.push_back(Int32s({1}));
  ExpectStructureInvalid(*a, {"expected 0 child arrays (one per field), got 1"});
  auto b = Int32s({1});
  b->dictionary = Int32s({1});
  ExpectStructureInvalid(*b, {"has dictionary values but the type is not a dictionary"});
}

TEST(ValidateTest, InvalidTypeParameters) {
  auto fsb = ArrayData::Make(std::make_shared<FixedSizeBinaryType>(-1), 0, {nullptr, nullptr}, 0);
  ExpectStructureInvalid(*fsb, {"invalid type", "byte width -1 is negative"});
  auto dec = ArrayData::Make(decimal128(0, 0), 0, {nullptr, nullptr}, 0);
  ExpectStructureInvalid(*dec, {"precision 0 is outside [1, 38]"});
  auto t32 =
      ArrayData::Make(std::make_shared<Time32Type>(TimeUnit::kNano), 0, {nullptr, nullptr}, 0);
  ExpectStructureInvalid(*t32, {"time32 unit must be seconds or milliseconds"});
  auto dict = ArrayData::Make(dictionary(float32(), utf8()), 0, {nullptr, nullptr}, 0);
  dict->dictionary = Strings(utf8(), {});
  ExpectStructureInvalid(*dict, {"dictionary index type must be an integer type, got float"});
  auto uni = ArrayData::Make(sparse_union({field("a", int32()), field("b", int32())}, {3, 3}), 0,
                             {nullptr}, {Int32s({}), Int32s({})}, 0);
  ExpectStructureInvalid(*uni, {"union type code 3 is used twice"});
}

TEST(ValidateTest, TypesWithMissingPartsAreRejected) {
  auto a =
      Struct(struct_({field("a", int32()), field("b", nullptr)}), {Int32s({1}), Int32s({1})}, 1);
  ExpectStructureInvalid(*a,
                         {"struct array at <root>: field 1 ('b') of a struct type has no type"});
  auto b = Struct(struct_({field("a", int32()), nullptr}), {Int32s({1}), Int32s({1})}, 1);
  ExpectStructureInvalid(*b, {"field 1 of a struct type is null"});
  auto c = ArrayData::Make(dictionary(int8(), nullptr), 0, {nullptr, nullptr}, 0);
  ExpectStructureInvalid(*c, {"a dictionary type lacks its index or value type"});
  // A child whose own type is broken is caught before it is compared.
  auto d = Struct(struct_({field("s", struct_({field("x", int32())}))}),
                  {Struct(struct_({field("x", nullptr)}), {Int32s({1})}, 1)}, 1);
  ExpectStructureInvalid(*d, {"child 0 ('s'): field 0 ('x') of a struct type has no type"});
}

TEST(ValidateTest, ValidateTypeChecksTheWholeTreeOnce) {
  EXPECT_TRUE(ValidateType(*struct_({field("a", list(decimal128(10, 2))),
                                     field("m", map(utf8(), dictionary(int8(), utf8())))}))
                  .ok());
  // Parameters deep inside the tree, and missing parts, are found.
  Status bad_precision = ValidateType(*struct_({field("l", list(decimal128(0, 0)))}));
  EXPECT_FALSE(bad_precision.ok());
  EXPECT_THAT(bad_precision.message(), ::testing::HasSubstr("precision 0 is outside [1, 38]"));
  Status bad_union = ValidateType(*list(sparse_union({field("a", int8()), field("b", int8())}, {1, 1})));
  EXPECT_THAT(bad_union.message(), ::testing::HasSubstr("union type code 1 is used twice"));
  Status bad_dictionary = ValidateType(*dictionary(int8(), decimal256(99, 0)));
  EXPECT_THAT(bad_dictionary.message(), ::testing::HasSubstr("precision 99 is outside [1, 76]"));
  Status missing = ValidateType(*struct_({field("x", nullptr)}));
  EXPECT_THAT(missing.message(), ::testing::HasSubstr("field 0 ('x') of a struct type has no type"));
}

TEST(ValidateTest, ValidatedTypesSkipOnlyTypeChecks) {
  ValidateOptions trusted;
  trusted.types_validated = true;
  // The data is still checked in full...
  auto offsets_past_end = Strings(utf8(), {"ab", "cd"});
  offsets_past_end->buffers[2] = Truncated(offsets_past_end->buffers[2], 3);
  Status st = ValidateArray(*offsets_past_end, trusted);
  EXPECT_THAT(st.message(), ::testing::HasSubstr("is past the end of the data buffer"));
  trusted.full = false;
  EXPECT_TRUE(ValidateArray(*offsets_past_end, trusted).ok()) << "structural checks only";
  // ...and children must still have their fields' types.
  trusted.full = true;
  auto s = Struct(struct_({field("a", int32())}), {Strings(utf8(), {"x"})}, 1);
  st = ValidateArray(*s, trusted);
  EXPECT_THAT(st.message(), ::testing::HasSubstr("has type string but the field declares int32"));
  // What is skipped: the per-node parameter check, which the caller did.
  auto dec = ArrayData::Make(decimal128(0, 0), 0, {nullptr, nullptr}, 0);
  EXPECT_FALSE(ValidateArray(*dec, ValidateOptions{}).ok());
  EXPECT_TRUE(ValidateArray(*dec, trusted).ok());
  trusted.root_name = "col";
  st = ValidateArray(*offsets_past_end, trusted);
  EXPECT_THAT(st.message(), ::testing::HasSubstr("string array at col:"));
}

}  // namespace
}  // namespace alkaid
