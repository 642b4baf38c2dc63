// Tests of ValidateArray / ValidateArrayFull / ValidateUtf8.
//
// Pattern: build a valid array by hand from buffers, check that it passes both
// levels, then break exactly one thing and check the level that must catch it,
// the Invalid code, and the rule and location named in the message.
// Buffers are exact-size heap allocations (no padding), so a sanitizer build
// sees any read past the end.
#include "alkaid/validate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "alkaid/type.h"
#include "alkaid/utf8.h"
#include "test_util/array_from_json.h"

namespace alkaid {
namespace {

using ::testing::HasSubstr;

// ---------------------------------------------------------------------------
// Buffer and array helpers

BufferPtr Bytes(const void* data, size_t size) {
  std::shared_ptr<uint8_t[]> memory(new uint8_t[size == 0 ? 1 : size]);
  if (size > 0) std::memcpy(memory.get(), data, size);
  return std::make_shared<Buffer>(memory.get(), static_cast<int64_t>(size),
                                  std::shared_ptr<const void>(memory, memory.get()));
}

BufferPtr Str(std::string_view s) { return Bytes(s.data(), s.size()); }

template <typename T>
BufferPtr Values(const std::vector<T>& values) {
  return Bytes(values.data(), values.size() * sizeof(T));
}

// "1101" -> bit i set when character i is '1'.
BufferPtr Bits(std::string_view bits) {
  std::vector<uint8_t> bytes((bits.size() + 7) / 8, 0);
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i] == '1') bytes[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
  return Values(bytes);
}

// Test buffers are our own heap copies, so writing to them is fine.
uint8_t* Mutable(const BufferPtr& buffer) { return const_cast<uint8_t*>(buffer->data()); }

template <typename T>
void Poke(const BufferPtr& buffer, int64_t index, T value) {
  std::memcpy(Mutable(buffer) + index * static_cast<int64_t>(sizeof(T)), &value, sizeof(T));
}

BufferPtr Truncated(const BufferPtr& buffer, int64_t size) {
  return Bytes(buffer->data(), static_cast<size_t>(size));
}

int64_t CountZeros(std::string_view bits) {
  int64_t n = 0;
  for (char c : bits) n += c == '0';
  return n;
}

template <typename T>
ArrayDataPtr Primitive(DataTypePtr type, const std::vector<T>& values,
                       std::string_view validity = "") {
  BufferPtr bitmap = validity.empty() ? nullptr : Bits(validity);
  int64_t nulls = validity.empty() ? 0 : CountZeros(validity);
  return ArrayData::Make(std::move(type), static_cast<int64_t>(values.size()),
                         {bitmap, Values(values)}, nulls);
}

ArrayDataPtr Int32s(const std::vector<int32_t>& values, std::string_view validity = "") {
  return Primitive(int32(), values, validity);
}

// utf8/binary (int32 offsets) or large_utf8/large_binary (int64 offsets).
ArrayDataPtr Strings(const DataTypePtr& type, const std::vector<std::string>& values,
                     std::string_view validity = "") {
  std::string chars;
  std::vector<int64_t> offsets{0};
  for (const auto& v : values) {
    chars += v;
    offsets.push_back(static_cast<int64_t>(chars.size()));
  }
  BufferPtr offsets_buffer;
  if (type->id() == TypeId::kLargeString || type->id() == TypeId::kLargeBinary) {
    offsets_buffer = Values(offsets);
  } else {
    offsets_buffer = Values(std::vector<int32_t>(offsets.begin(), offsets.end()));
  }
  BufferPtr bitmap = validity.empty() ? nullptr : Bits(validity);
  return ArrayData::Make(type, static_cast<int64_t>(values.size()),
                         {bitmap, offsets_buffer, Str(chars)},
                         validity.empty() ? 0 : CountZeros(validity));
}

// binary_view / utf8_view; values longer than 12 bytes go to one data buffer.
ArrayDataPtr Views(const DataTypePtr& type, const std::vector<std::string>& values,
                   std::string_view validity = "") {
  std::string data;
  std::vector<BinaryViewValue> views(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    BinaryViewValue view;
    std::memset(&view, 0, sizeof(view));
    view.inlined.size = static_cast<int32_t>(values[i].size());
    if (values[i].size() <= 12) {
      std::memcpy(view.inlined.data, values[i].data(), values[i].size());
    } else {
      std::memcpy(view.ref.prefix, values[i].data(), 4);
      view.ref.buffer_index = 0;
      view.ref.offset = static_cast<int32_t>(data.size());
      data += values[i];
    }
    views[i] = view;
  }
  BufferPtr bitmap = validity.empty() ? nullptr : Bits(validity);
  return ArrayData::Make(type, static_cast<int64_t>(values.size()),
                         {bitmap, Values(views), Str(data)},
                         validity.empty() ? 0 : CountZeros(validity));
}

ArrayDataPtr ListOf(const DataTypePtr& type, const std::vector<int32_t>& offsets,
                    ArrayDataPtr child, std::string_view validity = "") {
  BufferPtr bitmap = validity.empty() ? nullptr : Bits(validity);
  return ArrayData::Make(type, static_cast<int64_t>(offsets.size()) - 1, {bitmap, Values(offsets)},
                         {std::move(child)}, validity.empty() ? 0 : CountZeros(validity));
}

ArrayDataPtr Struct(const DataTypePtr& type, ArrayDataVector children, int64_t length,
                    std::string_view validity = "") {
  BufferPtr bitmap = validity.empty() ? nullptr : Bits(validity);
  return ArrayData::Make(type, length, {bitmap}, std::move(children),
                         validity.empty() ? 0 : CountZeros(validity));
}

// ---------------------------------------------------------------------------
// Expectations

void ExpectValid(const ArrayData& data) {
  Status structural = ValidateArray(data);
  EXPECT_TRUE(structural.ok()) << structural.ToString();
  Status full = ValidateArrayFull(data);
  EXPECT_TRUE(full.ok()) << full.ToString();
}

void ExpectMessageHas(const Status& st, std::initializer_list<std::string_view> parts) {
  ASSERT_TRUE(st.IsInvalid()) << st.ToString();
  for (auto part : parts) EXPECT_THAT(st.message(), HasSubstr(std::string(part)));
}

// Caught by the structural level (and therefore by the full level too).
void ExpectStructureInvalid(const ArrayData& data, std::initializer_list<std::string_view> parts) {
  ExpectMessageHas(ValidateArray(data), parts);
  ExpectMessageHas(ValidateArrayFull(data), parts);
}

// Structurally sound; only the full level reads the values that are wrong.
void ExpectDataInvalid(const ArrayData& data, std::initializer_list<std::string_view> parts) {
  Status structural = ValidateArray(data);
  EXPECT_TRUE(structural.ok()) << structural.ToString();
  ExpectMessageHas(ValidateArrayFull(data), parts);
}

// ---------------------------------------------------------------------------
// UTF-8

bool Utf8(std::string_view s) {
  return ValidateUtf8(reinterpret_cast<const uint8_t*>(s.data()), static_cast<int64_t>(s.size()));
}

int64_t FirstBad(std::string_view s) {
  return FindInvalidUtf8(reinterpret_cast<const uint8_t*>(s.data()),
                         static_cast<int64_t>(s.size()));
}

TEST(ValidateUtf8Test, AcceptsAsciiAndMultiByte) {
  EXPECT_TRUE(Utf8(""));
  EXPECT_TRUE(Utf8("hello, world, this is a longer ASCII run of text!"));
  EXPECT_TRUE(Utf8("caf\xC3\xA9"));            // U+00E9
  EXPECT_TRUE(Utf8("\xE2\x82\xAC 5"));         // U+20AC euro
  EXPECT_TRUE(Utf8("\xF0\x9D\x84\x9E clef"));  // U+1D11E
  EXPECT_TRUE(Utf8("\xF4\x8F\xBF\xBF"));       // U+10FFFF, the last code point
  EXPECT_TRUE(Utf8("\xED\x9F\xBF"));           // U+D7FF, just below surrogates
  EXPECT_TRUE(Utf8("\xEE\x80\x80"));           // U+E000, just above surrogates
  EXPECT_TRUE(Utf8(std::string(1000, 'a') + "\xE4\xB8\xAD" + std::string(37, 'b')));
  EXPECT_TRUE(ValidateUtf8(nullptr, 0));
  EXPECT_FALSE(ValidateUtf8(nullptr, -1));
}

TEST(ValidateUtf8Test, RejectsMalformedSequences) {
  EXPECT_FALSE(Utf8("\x80"));              // lone continuation byte
  EXPECT_FALSE(Utf8("\xC0\x80"));          // overlong NUL
  EXPECT_FALSE(Utf8("\xC1\xBF"));          // overlong 2-byte
  EXPECT_FALSE(Utf8("\xE0\x80\x80"));      // overlong 3-byte
  EXPECT_FALSE(Utf8("\xE0\x9F\xBF"));      // overlong 3-byte (U+07FF)
  EXPECT_FALSE(Utf8("\xF0\x80\x80\x80"));  // overlong 4-byte
  EXPECT_FALSE(Utf8("\xF0\x8F\xBF\xBF"));  // overlong 4-byte (U+FFFF)
  EXPECT_FALSE(Utf8("\xED\xA0\x80"));      // U+D800 surrogate
  EXPECT_FALSE(Utf8("\xED\xBF\xBF"));      // U+DFFF surrogate
  EXPECT_FALSE(Utf8("\xF4\x90\x80\x80"));  // U+110000
  EXPECT_FALSE(Utf8("\xF5\x80\x80\x80"));  // lead byte never valid
  EXPECT_FALSE(Utf8("\xFF"));
  EXPECT_FALSE(Utf8("\xE2\x82"));      // truncated at the end
  EXPECT_FALSE(Utf8("\xF0\x9D\x84"));  // truncated 4-byte
  EXPECT_FALSE(Utf8("\xC3"));
  EXPECT_FALSE(Utf8("\xC3 x"));  // continuation missing mid-text
  EXPECT_FALSE(Utf8("\xE2\x28\xA1"));
}

TEST(ValidateUtf8Test, ReportsPositionOfFirstBadSequence) {
  EXPECT_EQ(FirstBad("abc"), -1);
  EXPECT_EQ(FirstBad(std::string(100, 'x') + "\xC3\xA9\xFFzz"), 102);
  EXPECT_EQ(FirstBad(std::string(21, 'x') + "\x80"), 21);  // past a 16+ byte word run
  EXPECT_EQ(FirstBad("\xE2\x82\xAC\xE2\x82"), 3);
}

TEST(ValidateUtf8Test, ReportsWhetherInputWasAsciiOnly) {
  bool ascii_only = false;
  std::string text(40, 'a');
  EXPECT_EQ(FindInvalidUtf8(reinterpret_cast<const uint8_t*>(text.data()), 40, &ascii_only), -1);
  EXPECT_TRUE(ascii_only);
  text[33] = '\xC3';
  text[34] = '\xA9';
  EXPECT_EQ(FindInvalidUtf8(reinterpret_cast<const uint8_t*>(text.data()), 40, &ascii_only), -1);
  EXPECT_FALSE(ascii_only);
}

// Reference decoder by code point arithmetic, to cross-check the fast one.
bool ReferenceUtf8(const uint8_t* s, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint32_t c = s[i];
    size_t len;
    uint32_t cp;
    if (c < 0x80) {
      len = 1;
      cp = c;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else
      return false;
    if (i + len > n) return false;
    for (size_t k = 1; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

TEST(ValidateUtf8Test, MatchesReferenceOnAllTwoByteInputsAndRandomLongerOnes) {
  uint8_t buf[2];
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      buf[0] = static_cast<uint8_t>(a);
      buf[1] = static_cast<uint8_t>(b);
      ASSERT_EQ(ValidateUtf8(buf, 2), ReferenceUtf8(buf, 2)) << a << " " << b;
    }
  }
  std::mt19937 rng(42);
  // Bias bytes toward the interesting lead and continuation ranges.
  const uint8_t kPool[] = {'a',  0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC2,
                           0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xC0, 0xFF};
  for (int iter = 0; iter < 200000; ++iter) {
    uint8_t s[20];
    size_t n = rng() % 20;
    for (size_t k = 0; k < n; ++k) s[k] = kPool[rng() % sizeof(kPool)];
    ASSERT_EQ(ValidateUtf8(s, static_cast<int64_t>(n)), ReferenceUtf8(s, n));
  }
}

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

// ---------------------------------------------------------------------------
// Variable-size binary

TEST(ValidateTest, BinaryValidAndEmpty) {
  for (const auto& type : {binary(), utf8(), large_binary(), large_utf8()}) {
    SCOPED_TRACE(type->ToString());
    ExpectValid(*Strings(type, {"ab", "", "cde"}));
    ExpectValid(*Strings(type, {"ab", "", "cde"}, "101"));
    // An empty array may have no offsets at all.
    ExpectValid(*ArrayData::Make(type, 0, {nullptr, nullptr, nullptr}, 0));
  }
}

TEST(ValidateTest, BinaryOffsetsBufferTooSmall) {
  auto a = Strings(utf8(), {"ab", "", "cde"});
  a->buffers[1] = Truncated(a->buffers[1], 12);
  ExpectStructureInvalid(*a, {"buffer 1 (offsets) has 12 bytes but 16 are needed",
                              "offset + length + 1 = 3 + 1 offsets of 4 bytes"});
  auto large = Strings(large_binary(), {"ab"});
  large->buffers[1] = Truncated(large->buffers[1], 8);
  ExpectStructureInvalid(*large, {"buffer 1 (offsets) has 8 bytes but 16 are needed"});
}

TEST(ValidateTest, BinaryFirstOffsetNegative) {
  auto a = Strings(binary(), {"ab", "", "cde"});
  Poke<int32_t>(a->buffers[1], 0, -1);
  ExpectDataInvalid(*a, {"binary array at <root>", "offset[0] = -1 is negative"});
}

TEST(ValidateTest, BinaryOffsetsDecrease) {
  auto a = Strings(utf8(), {"ab", "", "cde"});
  Poke<int32_t>(a->buffers[1], 2, 1);  // offsets 0, 2, 1, 5
  ExpectDataInvalid(*a, {"string array at <root>: offset[2] = 1 is less than offset[1] = 2 "
                         "(offsets must not decrease)"});
  auto large = Strings(large_utf8(), {"ab", "", "cde"});
  Poke<int64_t>(large->buffers[1], 3, 1);
  ExpectDataInvalid(*large, {"large_string array", "offset[3] = 1 is less than offset[2] = 2"});
}

TEST(ValidateTest, BinaryLastOffsetPastData) {
  auto a = Strings(binary(), {"ab", "", "cde"});
  Poke<int32_t>(a->buffers[1], 3, 6);
  ExpectDataInvalid(*a, {"offset[3] = 6 is past the end of the data buffer (5 bytes)"});
}

TEST(ValidateTest, SlicedBinaryChecksOnlyItsOffsets) {
  auto a = Strings(binary(), {"ab", "", "cde", "f"});
  Poke<int32_t>(a->buffers[1], 0, 9);  // offset 0 lies outside the slice below
  ExpectValid(*a->Slice(1, 3));
  auto b = Strings(binary(), {"ab", "", "cde", "f"});
  Poke<int32_t>(b->buffers[1], 3, 1);
  ExpectDataInvalid(*b->Slice(1, 3),
                    {"offset[2] = 1 (physical index 3) is less than offset[1] = 2"});
}

TEST(ValidateTest, StringInvalidUtf8NamesSlot) {
  auto a = Strings(utf8(), {"ok", "caf\xC3\xA9", "bad\xC3(", "fine"});
  ExpectDataInvalid(*a, {"slot 2 is not valid UTF-8: malformed sequence at byte 3 of the value "
                         "(byte 10 of the data buffer)"});
  auto large = Strings(large_utf8(), {"\xED\xA0\x80"});
  ExpectDataInvalid(*large, {"slot 0 is not valid UTF-8"});
  // Binary is never checked.
  ExpectValid(*Strings(binary(), {"\xFF\xFE"}));
}

TEST(ValidateTest, StringInvalidUtf8InNullSlotIsIgnored) {
  ExpectValid(*Strings(utf8(), {"ok", "\xFF\xFF", "x"}, "101"));
  ExpectDataInvalid(*Strings(utf8(), {"ok", "\xFF\xFF", "x"}, "111"), {"slot 1"});
}

TEST(ValidateTest, StringCharacterSplitAcrossSlotsIsInvalid) {
  // Together the bytes form a valid "é", but neither slot is valid alone.
  auto a = Strings(utf8(), {"a\xC3", "\xA9z"});
  ExpectDataInvalid(*a, {"slot 0 is not valid UTF-8: malformed sequence at byte 1"});
}

TEST(ValidateTest, StringUtf8WithManyNullsUsesWordPath) {
  std::vector<std::string> values;
  std::string validity;
  for (int i = 0; i < 200; ++i) {
    bool valid = i < 64 || i % 3 != 0;  // one all-valid word, then mixed words
    values.push_back(valid ? "v\xE2\x82\xAC" + std::to_string(i) : "\xFF");
    validity += valid ? '1' : '0';
  }
  ExpectValid(*Strings(utf8(), values, validity));
  values[151] = "x\xC3";  // 151 % 3 != 0: a valid slot in a mixed word
  ExpectDataInvalid(*Strings(utf8(), values, validity), {"slot 151 is not valid UTF-8"});
  values[151] = "ok";
  values[10] = "\xC3";  // inside the all-valid first word
  ExpectDataInvalid(*Strings(utf8(), values, validity), {"slot 10 is not valid UTF-8"});
}

// ---------------------------------------------------------------------------
// Binary views

TEST(ValidateTest, ViewsValid) {
  ExpectValid(*Views(binary_view(), {"short", "", "a string longer than twelve", "x"}));
  ExpectValid(*Views(utf8_view(), {"short", "caf\xC3\xA9 au lait, s'il vous pla\xC3\xAEt"}, "11"));
  ExpectValid(
      *Views(utf8_view(), {"short", "caf\xC3\xA9 au lait, s'il vous pla\xC3\xAEt"})->Slice(1, 1));
}

TEST(ValidateTest, ViewsBufferTooSmall) {
  auto a = Views(binary_view(), {"a", "b"});
  a->buffers[1] = Truncated(a->buffers[1], 31);
  ExpectStructureInvalid(*a, {"buffer 1 (views) has 31 bytes but 32 are needed"});
}

TEST(ValidateTest, ViewNegativeSize) {
  auto a = Views(binary_view(), {"a", "b"});
  Poke<int32_t>(a->buffers[1], 4, -5);  // size field of view 1
  ExpectDataInvalid(*a, {"view of slot 1 has negative size -5"});
}

TEST(ValidateTest, ViewBadBufferIndex) {
  auto a = Views(binary_view(), {"a", "this one is out of line"});
  Poke<int32_t>(a->buffers[1], 6, 1);  // buffer_index of view 1 (int32 #6)
  ExpectDataInvalid(*a, {"view of slot 1 refers to data buffer 1 but there are 1 data buffers"});
  Poke<int32_t>(a->buffers[1], 6, -1);
  ExpectDataInvalid(*a, {"refers to data buffer -1"});
}

TEST(ValidateTest, ViewOffsetOverrun) {
  auto a = Views(binary_view(), {"this one is out of line"});  // 23 bytes at offset 0
  Poke<int32_t>(a->buffers[1], 3, 1);
  ExpectDataInvalid(*a, {"view of slot 0 covers bytes [1, 24) outside data buffer 0 of 23 bytes"});
  Poke<int32_t>(a->buffers[1], 3, -1);
  ExpectDataInvalid(*a, {"covers bytes [-1, 22)"});
  // Offset near INT32_MAX must not wrap around.
  Poke<int32_t>(a->buffers[1], 3, std::numeric_limits<int32_t>::max());
  ExpectDataInvalid(*a, {"outside data buffer 0 of 23 bytes"});
}

TEST(ValidateTest, ViewPrefixMismatch) {
  auto a = Views(binary_view(), {"this one is out of line"});
  Mutable(a->buffers[1])[5] = 'X';
  ExpectDataInvalid(*a, {"view of slot 0 has prefix 74586973 but its data starts with 74686973"});
}

// Masked slots may hold any bytes: a null view is never read.
TEST(ValidateTest, NullViewsAreNotChecked) {
  auto a = Views(binary_view(), {"a", "this one is out of line"}, "10");
  Poke<int32_t>(a->buffers[1], 4, -5);  // slot 1: negative size
  ExpectValid(*a);
  Poke<int32_t>(a->buffers[1], 4, 23);
  Poke<int32_t>(a->buffers[1], 6, 7);  // slot 1: data buffer 7 of 1
  ExpectValid(*a);
  Poke<int32_t>(a->buffers[1], 6, 0);
  Poke<int32_t>(a->buffers[1], 7, 1000);  // slot 1: bytes [1000, 1023) of 23
  ExpectValid(*a);
  auto s = Views(utf8_view(), {"ok", "\xFF\xFF not UTF-8 at all \xFF"}, "10");
  Poke<int32_t>(s->buffers[1], 7, 2);  // also starts inside the (bad) bytes
  ExpectValid(*s);
  // The same slots, once valid, are errors.
  a->buffers[0] = Bits("11");
  a->null_count = 0;
  ExpectDataInvalid(*a, {"view of slot 1 covers bytes [1000, 1023) outside data buffer 0"});
}

// The format zero-pads inline values; only non-null slots are held to it.
TEST(ValidateTest, InlineViewPaddingMustBeZero) {
  auto a = Views(binary_view(), {"abc"});
  ExpectValid(*a);
  Mutable(a->buffers[1])[4 + 3] = 'x';  // first byte after the value
  ExpectDataInvalid(*a, {"inline view of slot 0 has size 3 but byte 3 of its inline data is 120",
                         "must be zero"});
  a->buffers[0] = Bits("0");
  a->null_count = 1;
  ExpectValid(*a);
}

// The views of `a` (offset 0, no nulls) `times` over, sharing its data
// buffers: they then cover more bytes than the buffers hold, and validation
// decodes the buffers once instead of each view (its other method).
ArrayDataPtr RepeatViews(const ArrayDataPtr& a, int times) {
  std::string views;
  for (int t = 0; t < times; ++t)
    views.append(reinterpret_cast<const char*>(a->buffers[1]->data()),
                 static_cast<size_t>(a->length * 16));
  BufferVector buffers = a->buffers;
  buffers[0] = nullptr;
  buffers[1] = Str(views);
  return ArrayData::Make(a->type, a->length * times, std::move(buffers), 0);
}

// Both UTF-8 methods must agree, to the message.
void ExpectViewsValid(const ArrayDataPtr& a) {
  ExpectValid(*a);
  ExpectValid(*RepeatViews(a, 3));
}
void ExpectViewsInvalid(const ArrayDataPtr& a, std::initializer_list<std::string_view> parts) {
  ExpectDataInvalid(*a, parts);
  ExpectDataInvalid(*RepeatViews(a, 3), parts);
}

// Views of a utf8_view must start and end on character boundaries of data
// that decodes. (Words of slot 0: [0] size, [1] prefix, [2] buffer, [3] offset.)
TEST(ValidateTest, StringViewCharacterBoundaries) {
  // Bytes 13-14 of the value are one character, C3 A9.
  const std::string value = "abcdefghijklm\xC3\xA9xyz";
  ExpectViewsValid(Views(utf8_view(), {value}));

  auto a = Views(utf8_view(), {value});
  Poke<int32_t>(a->buffers[1], 0, 13);  // ends before the lead byte: fine
  ExpectViewsValid(a);
  Poke<int32_t>(a->buffers[1], 0, 14);  // ends between C3 and A9
  ExpectViewsInvalid(a, {"slot 0 is not valid UTF-8: malformed sequence at byte 13 of the value",
                         "(byte 13 of data buffer 0)"});
  Poke<int32_t>(a->buffers[1], 0, 15);
  ExpectViewsValid(a);

  // Starts on the continuation byte A9.
  auto b = Views(utf8_view(), {"ab" + value});
  std::memcpy(Mutable(b->buffers[1]) + 4, "\xA9xyz", 4);
  Poke<int32_t>(b->buffers[1], 3, 16);
  Poke<int32_t>(b->buffers[1], 0, 0);
  Poke<int32_t>(b->buffers[1], 0, 4 + 13);  // [16, 20) would be inline: keep 13+ bytes
  Poke<int32_t>(b->buffers[1], 3, 2 + 14);
  b->buffers[2] = Str("ab" + value + std::string(20, 'q'));
  ExpectViewsInvalid(b, {"slot 0 is not valid UTF-8: malformed sequence at byte 0 of the value",
                         "(byte 16 of data buffer 0)"});
}

// Data buffers may hold bytes that are not UTF-8 where no view points; the
// views themselves are still checked, precisely.
TEST(ValidateTest, StringViewGarbageOutsideViews) {
  std::string data = std::string("\xFF\xFE") + "abcdefghijklmnop" + "\xFF" + "qrstuvwxyz0123456789";
  BinaryViewValue v[2];
  std::memset(v, 0, sizeof(v));
  v[0].ref.size = 16;
  std::memcpy(v[0].ref.prefix, "abcd", 4);
  v[0].ref.offset = 2;
  v[1].ref.size = 20;
  std::memcpy(v[1].ref.prefix, "qrst", 4);
  v[1].ref.offset = 19;
  auto a = ArrayData::Make(utf8_view(), 2,
                           {nullptr, Values(std::vector<BinaryViewValue>{v[0], v[1]}), Str(data)}, 0);
  ExpectViewsValid(a);
  // Slot 1 grown by one byte at the front takes in the 0xFF.
  v[1].ref.size = 21;
  v[1].ref.offset = 18;
  std::memcpy(v[1].ref.prefix, "\xFFqrs", 4);
  auto b = ArrayData::Make(utf8_view(), 2,
                           {nullptr, Values(std::vector<BinaryViewValue>{v[0], v[1]}), Str(data)}, 0);
  ExpectViewsInvalid(b, {"slot 1 is not valid UTF-8: malformed sequence at byte 0 of the value",
                         "(byte 18 of data buffer 0)"});
  // Slot 0 grown at the end takes in the 0xFF too.
  v[1] = v[0];
  v[0].ref.size = 17;
  auto c = ArrayData::Make(utf8_view(), 2,
                           {nullptr, Values(std::vector<BinaryViewValue>{v[0], v[1]}), Str(data)}, 0);
  ExpectViewsInvalid(c, {"slot 0 is not valid UTF-8: malformed sequence at byte 16 of the value",
                         "(byte 18 of data buffer 0)"});
}

// Sanitizers slow every byte access by an order of magnitude or more; the
// time bounds below are about the algorithm (linear vs a terabyte of work).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr double kTimeScale = 30;
#else
constexpr double kTimeScale = 1;
#endif

// 16,000 views of one 64 MiB buffer: linear in the buffer, not in the sum of
// the view lengths (that would be a terabyte of decoding).
TEST(ValidateTest, StringViewsSharingOneBufferAreLinear) {
  constexpr int64_t kBytes = int64_t{64} << 20;
  constexpr int kViews = 16000;
  std::string data;
  data.reserve(kBytes);
  while (static_cast<int64_t>(data.size()) + 3 <= kBytes) data += "\xC3\xA9z";  // U+00E9, z
  data.resize(kBytes, 'z');
  std::vector<BinaryViewValue> views(kViews);
  for (int i = 0; i < kViews; ++i) {
    std::memset(&views[i], 0, sizeof(views[i]));
    // Every view starts on a character (multiples of 3) and runs to the end.
    const int32_t start = static_cast<int32_t>(3 * (i % 1000));
    views[i].ref.size = static_cast<int32_t>(kBytes - start);
    std::memcpy(views[i].ref.prefix, data.data() + start, 4);
    views[i].ref.offset = start;
  }
  auto a = ArrayData::Make(utf8_view(), kViews, {nullptr, Values(views), Str(data)}, 0);
  auto started = std::chrono::steady_clock::now();
  Status st = ValidateArrayFull(*a);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_LT(seconds, kTimeScale * 2.0);
  // Also when the buffer holds a bad byte outside every view (the per-range
  // path): put one in the first 3 bytes, which views starting at 3 or later
  // skip, and move view 0 off it.
  std::memcpy(Mutable(a->buffers[2]), "\xFF\xFF\xFF", 3);
  std::memcpy(Mutable(a->buffers[1]) + 4, data.data() + 3, 4);
  Poke<int32_t>(a->buffers[1], 3, 3);
  Poke<int32_t>(a->buffers[1], 0, static_cast<int32_t>(kBytes - 3));
  for (int i = 1000; i < kViews; i += 1000) {
    std::memcpy(Mutable(a->buffers[1]) + 16 * i + 4, data.data() + 3, 4);
    Poke<int32_t>(a->buffers[1], 4 * i + 3, 3);
    Poke<int32_t>(a->buffers[1], 4 * i, static_cast<int32_t>(kBytes - 3));
  }
  started = std::chrono::steady_clock::now();
  st = ValidateArrayFull(*a);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_LT(seconds, kTimeScale * 2.0);
  // And a malformed byte inside all of them is reported at once.
  Mutable(a->buffers[2])[kBytes - 2] = 0xFF;
  started = std::chrono::steady_clock::now();
  ExpectDataInvalid(*a, {"slot 0 is not valid UTF-8", "(byte 67108862 of data buffer 0)"});
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_LT(seconds, kTimeScale * 4.0);
}

TEST(ValidateTest, StringViewInvalidUtf8) {
  ExpectDataInvalid(*Views(utf8_view(), {"ok", "in\xC3line"}), {"slot 1 is not valid UTF-8"});
  ExpectDataInvalid(*Views(utf8_view(), {"out of line and \xED\xA0\x80 bad"}),
                    {"slot 0 is not valid UTF-8: malformed sequence at byte 16"});
  ExpectValid(*Views(utf8_view(), {"ok", "in\xC3line"}, "10"));
  ExpectValid(*Views(binary_view(), {"ok", "in\xC3line"}));
}

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

ArrayDataPtr MakeMap(const DataTypePtr& map_type, ArrayDataPtr keys, ArrayDataPtr items,
                     const std::vector<int32_t>& offsets) {
  const DataTypePtr& entries_type = map_type->field(0)->type();
  int64_t n = keys->length;
  auto entries = Struct(entries_type, {std::move(keys), std::move(items)}, n);
  return ListOf(map_type, offsets, entries);
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

DataTypePtr TwoMemberSparse() {
  return sparse_union({field("i", int32()), field("s", utf8())}, {2, 5});
}

ArrayDataPtr SparseUnion(const std::vector<int8_t>& ids) {
  int64_t n = static_cast<int64_t>(ids.size());
  std::vector<int32_t> ints(ids.size(), 7);
  std::vector<std::string> strs(ids.size(), "s");
  return ArrayData::Make(TwoMemberSparse(), n, {Values(ids)}, {Int32s(ints), Strings(utf8(), strs)},
                         0);
}

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

ArrayDataPtr DenseUnion(const std::vector<int8_t>& ids, const std::vector<int32_t>& offsets) {
  auto type = dense_union({field("i", int32()), field("s", utf8())}, {0, 7});
  return ArrayData::Make(type, static_cast<int64_t>(ids.size()), {Values(ids), Values(offsets)},
                         {Int32s({10, 20}), Strings(utf8(), {"a", "b", "c"})}, 0);
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

template <typename I>
ArrayDataPtr DictArray(const DataTypePtr& index_type, const std::vector<I>& indices,
                       std::string_view validity = "") {
  auto a = Primitive(dictionary(index_type, utf8()), indices, validity);
  a->dictionary = Strings(utf8(), {"x", "y", "z"});
  return a;
}

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

ArrayDataPtr Ree(const std::vector<int32_t>& run_ends, const std::vector<int32_t>& values,
                 int64_t length, int64_t offset = 0) {
  auto type = run_end_encoded(int32(), int32());
  return ArrayData::Make(type, length, {}, {Int32s(run_ends), Int32s(values)}, 0, offset);
}

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

// ---------------------------------------------------------------------------
// Paths, extension types, depth

TEST(ValidateTest, NestedPathThreeLevelsDeep) {
  auto inner_type = struct_({field("b", utf8())});
  auto list_type = list(inner_type);
  auto outer_type = struct_({field("x", int32()), field("a", list_type)});
  auto make = [&](const std::string& bad) {
    auto inner = Struct(inner_type, {Strings(utf8(), {"ok", bad, "fine"})}, 3);
    auto lists = ListOf(list_type, {0, 1, 3}, inner);
    return Struct(outer_type, {Int32s({1, 2}), lists}, 2);
  };
  ExpectValid(*make("good"));
  auto a = make("bad\xF5");
  ExpectDataInvalid(*a, {"string array at <root>.a.item.b: slot 1 is not valid UTF-8"});
  Status named = ValidateArrayFull(*a, "col");
  ExpectMessageHas(named, {"string array at col.a.item.b: slot 1"});
  auto b = make("good");
  b->child_data[1]->child_data[0]->child_data[0]->buffers[1] = Str("tiny");
  Status st = ValidateArray(*b, "col");
  ExpectMessageHas(st, {"string array at col.a.item.b: buffer 1 (offsets) has 4 bytes but 16"});
}

TEST(ValidateTest, UnnamedFieldsAreNamedByIndex) {
  auto type = struct_({field("", int32()), field("", int32())});
  auto a = Struct(type, {Int32s({1}), Int32s({1})}, 1);
  a->child_data[1]->offset = -1;
  ExpectStructureInvalid(*a, {"int32 array at <root>.[1]: offset -1 is negative"});
}

class TestInt32Extension : public ExtensionType {
 public:
  TestInt32Extension() : ExtensionType(int32()) {}
  std::string extension_name() const override { return "test.int32_ext"; }
  std::string Serialize() const override { return ""; }
  Result<DataTypePtr> Deserialize(DataTypePtr, const std::string&) const override {
    return std::make_shared<TestInt32Extension>();
  }
};

TEST(ValidateTest, ExtensionIsValidatedAsStorage) {
  auto type = std::make_shared<TestInt32Extension>();
  auto a = ArrayData::Make(type, 3, {Bits("110"), Values(std::vector<int32_t>{1, 2, 3})}, 1);
  ExpectValid(*a);
  a->buffers[1] = Truncated(a->buffers[1], 8);
  ExpectStructureInvalid(*a, {"int32 array at <root>: buffer 1 (values) has 8 bytes but 12"});
  auto b = ArrayData::Make(type, 3, {Bits("110"), Values(std::vector<int32_t>{1, 2, 3})}, 2);
  ExpectDataInvalid(*b, {"null_count is 2 but the validity bitmap marks 1"});
}

ArrayDataPtr NestedEmptyLists(int levels) {
  DataTypePtr type = int32();
  ArrayDataPtr data = Int32s({});
  for (int i = 0; i < levels; ++i) {
    type = list(type);
    data = ArrayData::Make(type, 0, {nullptr, nullptr}, {data}, 0);
  }
  return data;
}

TEST(ValidateTest, NestingDepthIsBounded) {
  ExpectValid(*NestedEmptyLists(60));
  ExpectStructureInvalid(*NestedEmptyLists(70), {"nested deeper than 64 levels"});
}

// One limit, set by the caller: readers pass theirs down so that whatever
// they load at a raised depth also validates.
TEST(ValidateTest, MaxRecursionDepthOption) {
  auto deep = NestedEmptyLists(70);
  ValidateOptions options;
  EXPECT_EQ(options.max_recursion_depth, kDefaultMaxRecursionDepth);
  ExpectMessageHas(ValidateArray(*deep, options), {"nested deeper than 64 levels"});
  options.max_recursion_depth = 80;
  EXPECT_TRUE(ValidateArray(*deep, options).ok()) << ValidateArray(*deep, options).ToString();
  EXPECT_TRUE(ValidateType(*deep->type, 80).ok());
  EXPECT_FALSE(ValidateType(*deep->type).ok());

  auto shallow = NestedEmptyLists(10);
  EXPECT_TRUE(ValidateArray(*shallow, ValidateOptions{}).ok());
  options.max_recursion_depth = 5;
  ExpectMessageHas(ValidateArray(*shallow, options), {"deeper than 5 levels"});
  ExpectMessageHas(ValidateType(*shallow->type, 5), {"deeper than 5 levels"});
  options.max_recursion_depth = -1;
  ExpectMessageHas(ValidateArray(*shallow, options), {"max_recursion_depth must be >= 0"});
}

// ---------------------------------------------------------------------------
// Builders' output must validate (cross-check with the JSON literal helper).

TEST(ValidateTest, ArraysFromJsonValidate) {
  struct Case {
    DataTypePtr type;
    const char* json;
  };
  std::vector<Case> cases = {
      {int64(), "[1, null, 3]"},
      {utf8(), R"(["a", null, "caf\u00e9"])"},
      {utf8_view(), R"(["short", "a string that is long", null])"},
      {list(int32()), "[[1, 2], null, []]"},
      {struct_({field("a", int32()), field("b", utf8())}), R"([{"a": 1, "b": "x"}, null])"},
      {map(utf8(), int32()), R"([[["k", 1]], null, []])"},
      {dictionary(int32(), utf8()), R"(["a", "b", "a", null])"},
      {run_end_encoded(int32(), utf8()), R"(["a", "a", "b", null])"},
      {dense_union({field("i", int32()), field("s", utf8())}, {0, 1}), R"([[0, 1], [1, "x"]])"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.type->ToString());
    auto result = testing::ArrayFromJSONString(c.type, c.json);
    if (!result.ok()) {
      ADD_FAILURE() << "ArrayFromJSON failed: " << result.status().ToString();
      continue;
    }
    ExpectValid(**result);
  }
}

// ---------------------------------------------------------------------------
// Garbage input: random corruption of valid arrays must yield OK or Invalid,
// never a crash or an out-of-bounds read (run under ASan to see the latter).

BufferPtr CorruptCopy(const BufferPtr& buffer, std::mt19937_64& rng) {
  if (!buffer) return Str(std::string(8, '\xFF'));
  std::string bytes(buffer->view());
  switch (rng() % 4) {
    case 0:
      if (!bytes.empty()) bytes.resize(rng() % bytes.size());
      break;
    case 1:
      for (int k = 0; k < 3 && !bytes.empty(); ++k)
        bytes[rng() % bytes.size()] = static_cast<char>(rng());
      break;
    case 2: return nullptr;
    default:
      for (char& c : bytes) c = static_cast<char>(0xFF);
  }
  return Str(bytes);
}

int64_t GarbageInteger(std::mt19937_64& rng) {
  static const int64_t kPool[] = {0,
                                  1,
                                  2,
                                  3,
                                  7,
                                  64,
                                  -1,
                                  int64_t{1} << 31,
                                  int64_t{1} << 62,
                                  std::numeric_limits<int64_t>::max(),
                                  std::numeric_limits<int64_t>::min()};
  return kPool[rng() % (sizeof(kPool) / sizeof(kPool[0]))];
}

void Corrupt(ArrayData* data, std::mt19937_64& rng, int depth) {
  switch (rng() % 5) {
    case 0: data->length = GarbageInteger(rng); break;
    case 1: data->offset = GarbageInteger(rng); break;
    case 2: data->null_count = GarbageInteger(rng); break;
    default:
      if (!data->buffers.empty()) {
        size_t i = rng() % data->buffers.size();
        data->buffers[i] = CorruptCopy(data->buffers[i], rng);
      }
  }
  if (depth < 3 && !data->child_data.empty() && rng() % 2 == 0) {
    size_t i = rng() % data->child_data.size();
    if (data->child_data[i]) {
      auto copy = std::make_shared<ArrayData>(*data->child_data[i]);
      Corrupt(copy.get(), rng, depth + 1);
      data->child_data[i] = copy;
    }
  }
  if (data->dictionary && rng() % 2 == 0) {
    auto copy = std::make_shared<ArrayData>(*data->dictionary);
    Corrupt(copy.get(), rng, depth + 1);
    data->dictionary = copy;
  }
}

TEST(ValidateTest, RandomCorruptionNeverCrashes) {
  std::vector<ArrayDataPtr> seeds = {
      Int32s({1, 2, 3}, "101"),
      Strings(utf8(), {"ab", "", "caf\xC3\xA9"}, "110"),
      Strings(large_binary(), {"ab", "cd"}),
      Views(utf8_view(), {"short", "a long string out of line", "x"}),
      ListOf(list(int32()), {0, 2, 3}, Int32s({1, 2, 3})),
      ArrayData::Make(
          list_view(int32()), 2,
          {nullptr, Values(std::vector<int32_t>{0, 1}), Values(std::vector<int32_t>{1, 2})},
          {Int32s({1, 2, 3})}, 0),
      ArrayData::Make(fixed_size_list(int32(), 2), 2, {nullptr}, {Int32s({1, 2, 3, 4})}, 0),
      SparseUnion({2, 5, 2}),
      DenseUnion({0, 7, 7}, {0, 0, 1}),
      DictArray<int16_t>(int16(), {0, 2, 1}, "101"),
      Ree({2, 5}, {1, 2}, 5),
      MakeMap(map(utf8(), int32()), Strings(utf8(), {"a", "b"}), Int32s({1, 2}), {0, 1, 2}),
      ArrayData::Make(boolean(), 9, {Bits("111111110"), Bits("101010101")}, 1),
  };
  for (const auto& seed : seeds) ExpectValid(*seed);
  std::mt19937_64 rng(7);
  int invalid = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    ArrayData copy = *seeds[static_cast<size_t>(iter) % seeds.size()];
    Corrupt(&copy, rng, 0);
    Status structural = ValidateArray(copy);
    Status full = ValidateArrayFull(copy);
    ASSERT_TRUE(structural.ok() || structural.IsInvalid()) << structural.ToString();
    ASSERT_TRUE(full.ok() || full.IsInvalid()) << full.ToString();
    // Full validation never accepts what structural validation rejects.
    if (!structural.ok()) {
      ASSERT_FALSE(full.ok());
    }
    invalid += !full.ok();
  }
  EXPECT_GT(invalid, 5000);  // the corruption really does break things
}

}  // namespace
}  // namespace alkaid
