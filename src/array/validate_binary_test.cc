// Tests of ValidateArray / ValidateArrayFull / ValidateUtf8: variable-size binary and binary views.
//
// Pattern: build a valid array by hand from buffers, check that it passes both
// levels, then break exactly one thing and check the level that must catch it,
// the Invalid code, and the rule and location named in the message.
// Buffers are exact-size heap allocations (no padding), so a sanitizer build
// sees any read past the end.

#include "src/util/sanitizers.h"
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
#if ALKAID_ADDRESS_SANITIZER || ALKAID_THREAD_SANITIZER
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

}  // namespace
}  // namespace alkaid
