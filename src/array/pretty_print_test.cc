#include "alkaid/pretty_print.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "alkaid/decimal.h"
#include "alkaid/float16.h"
#include "src/array/compare_test_helpers.h"

namespace alkaid {
namespace {

using namespace compare_test;  // NOLINT

PrettyPrintOptions OneLine() {
  PrettyPrintOptions o;
  o.skip_new_lines = true;
  return o;
}

std::string Line(const ArrayDataPtr& a) { return PrettyPrintToString(*a, OneLine()); }

// Decimal array of the given width from unscaled text values.
ArrayDataPtr Decimals(const DataTypePtr& type, const std::vector<Opt<std::string>>& values) {
  const int width = type->byte_width();
  std::vector<uint8_t> bytes(values.size() * static_cast<size_t>(width));
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i]) {
      EXPECT_TRUE(DecimalFromString(*values[i], width, 0, bytes.data() + i * width).ok());
    }
  }
  int64_t nulls;
  auto validity = Validity(values, &nulls);
  return ArrayData::Make(type, static_cast<int64_t>(values.size()), {validity, Buf(bytes)}, nulls);
}

// ---------------------------------------------------------------------------
// Layout

TEST(PrettyPrintTest, MultiLinePrimitives) {
  EXPECT_EQ(PrettyPrintToString(*I32({1, N, 3})), "[\n  1,\n  null,\n  3\n]");
  EXPECT_EQ(PrettyPrintToString(*I32({})), "[]");
  EXPECT_EQ(Line(I32({1, N, 3})), "[1, null, 3]");
  EXPECT_EQ(Line(I32({})), "[]");
}

TEST(PrettyPrintTest, IndentNullRepAndStream) {
  PrettyPrintOptions o;
  o.indent = 4;
  o.null_rep = "NA";
  EXPECT_EQ(PrettyPrintToString(*I32({1, N}), o), "    [\n      1,\n      NA\n    ]");
  o.indent_size = 1;
  EXPECT_EQ(PrettyPrintToString(*I32({1}), o), "    [\n     1\n    ]");
  std::ostringstream os;
  ASSERT_TRUE(PrettyPrint(*I32({7}), OneLine(), &os).ok());
  EXPECT_EQ(os.str(), "[7]");
  PrettyPrintOptions bad;
  bad.window = -1;
  EXPECT_TRUE(PrettyPrint(*I32({7}), bad, &os).IsInvalid());
}

TEST(PrettyPrintTest, WindowTruncation) {
  std::vector<Opt<int32_t>> v;
  for (int i = 0; i < 10; ++i) v.push_back(i);
  PrettyPrintOptions o = OneLine();
  o.window = 2;
  EXPECT_EQ(PrettyPrintToString(*I32(v), o), "[0, 1, ..., 8, 9]");
  o.window = 5;  // exactly 2 * window: nothing elided
  EXPECT_EQ(PrettyPrintToString(*I32(v), o), "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]");
  o.window = 0;
  EXPECT_EQ(PrettyPrintToString(*I32(v), o), "[...]");
  PrettyPrintOptions m;
  m.window = 1;
  EXPECT_EQ(PrettyPrintToString(*I32({1, 2, 3}), m), "[\n  1,\n  ...,\n  3\n]");
}

TEST(PrettyPrintTest, NestedListsMultiLineAndContainerWindow) {
  auto t = list(int32());
  auto a = List<int32_t>(t, {0, 2, 2, 2, 7}, I32({1, 2, 3, 4, 5, 6, 7}), {true, false, true, true});
  EXPECT_EQ(PrettyPrintToString(*a),
            "[\n"
            "  [\n"
            "    1,\n"
            "    2\n"
            "  ],\n"
            "  null,\n"
            "  [],\n"
            "  [\n"
            "    3,\n"
            "    4,\n"
            "    ...,\n"
            "    6,\n"
            "    7\n"
            "  ]\n"
            "]");
  EXPECT_EQ(Line(a), "[[1, 2], null, [], [3, 4, ..., 6, 7]]");
  // FormatValue shows up to kFormatValueWindow elements at each end.
  EXPECT_EQ(FormatValue(*a, 3), "[3, 4, 5, 6, 7]");
  EXPECT_EQ(FormatValue(*a, 1), "null");
  PrettyPrintOptions o = OneLine();
  o.container_window = 0;
  EXPECT_EQ(PrettyPrintToString(*a, o), "[[...], null, [], [...]]");
}

TEST(PrettyPrintTest, StructsMapsAndNesting) {
  auto st = struct_({field("a", int32()), field("b", utf8())});
  auto s = Struct(st, 3, {I32({1, 2, 3}), Utf8({"x", "y", N})}, {true, false, true});
  EXPECT_EQ(Line(s), "[{a: 1, b: \"x\"}, null, {a: 3, b: null}]");
  EXPECT_EQ(FormatValue(*s, 0), "{a: 1, b: \"x\"}");
  EXPECT_EQ(PrettyPrintToString(*s->Slice(2, 1)),
            "[\n"
            "  {\n"
            "    a: 3,\n"
            "    b: null\n"
            "  }\n"
            "]");

  auto mt = map(utf8(), int32());
  auto entries = Struct(mt->field(0)->type(), 3, {Utf8({"k1", "k2", "k3"}), I32({1, N, 3})});
  auto m = List<int32_t>(mt, {0, 2, 2, 3}, entries, {true, true, false});
  EXPECT_EQ(Line(m), "[{\"k1\": 1, \"k2\": null}, {}, null]");

  // list<struct<a: int32, b: list<int32>>>
  auto inner = list(int32());
  auto st2 = struct_({field("a", int32()), field("b", inner)});
  auto b = List<int32_t>(inner, {0, 1, 3}, I32({4, 5, 6}));
  auto lst = List<int32_t>(list(st2), {0, 2}, Struct(st2, 2, {I32({40, 50}), b}));
  EXPECT_EQ(Line(lst), "[[{a: 40, b: [4]}, {a: 50, b: [5, 6]}]]");
  EXPECT_EQ(PrettyPrintToString(*lst),
            "[\n"
            "  [\n"
            "    {\n"
            "      a: 40,\n"
            "      b: [\n"
            "        4\n"
            "      ]\n"
            "    },\n"
            "    {\n"
            "      a: 50,\n"
            "      b: [\n"
            "        5,\n"
            "        6\n"
            "      ]\n"
            "    }\n"
            "  ]\n"
            "]");
}

TEST(PrettyPrintTest, ListViewsAndFixedSizeLists) {
  auto lv = ListView<int32_t>(list_view(int32()), {1, 0}, {2, 0}, I32({1, 2, 3}), {true, false});
  EXPECT_EQ(Line(lv), "[[2, 3], null]");
  auto fl = FixedList(fixed_size_list(int32(), 2), 3, I32({1, 2, 3, 4, 5, 6}), {true, false, true});
  EXPECT_EQ(Line(fl), "[[1, 2], null, [5, 6]]");
  EXPECT_EQ(Line(fl->Slice(2, 1)), "[[5, 6]]");
}

// ---------------------------------------------------------------------------
// Scalars

TEST(PrettyPrintTest, StringsAndBinary) {
  EXPECT_EQ(Line(Utf8({"plain", "q\"uote", "back\\slash", "nl\nt\tcr\r", std::string("\x01\x7f", 2), "",
                       N, "h\xC3\xA9"})),
            "[\"plain\", \"q\\\"uote\", \"back\\\\slash\", \"nl\\nt\\tcr\\r\", \"\\x01\\x7F\", \"\", null, "
            "\"h\xC3\xA9\"]");
  EXPECT_EQ(Line(Str<int32_t>(binary(), {std::string("hi\n", 3), "", N})), "[68690A, \"\", null]");
  EXPECT_EQ(Line(Str<int64_t>(large_utf8(), {"a"}, "prefix")), "[\"a\"]");
  EXPECT_EQ(Line(Views(utf8_view(), {"short", "a string that is long", N}, 2, 1, "pad")),
            "[\"short\", \"a string that is long\", null]");
  EXPECT_EQ(Line(Views(binary_view(), {"ab"})), "[6162]");
  auto fsb = ArrayData::Make(fixed_size_binary(2), 2, {nullptr, Buffer::FromString(std::string("\x01\xAB\xFF\x00", 4))}, 0);
  EXPECT_EQ(Line(fsb), "[01AB, FF00]");
}

TEST(PrettyPrintTest, BooleansAndIntegers) {
  EXPECT_EQ(Line(Bools({true, N, false})), "[true, null, false]");
  EXPECT_EQ(Line(Prim<int8_t>(int8(), {-128, 127})), "[-128, 127]");
  EXPECT_EQ(Line(Prim<uint8_t>(uint8(), {255})), "[255]");
  EXPECT_EQ(Line(Prim<int64_t>(int64(), {std::numeric_limits<int64_t>::min()})), "[-9223372036854775808]");
  EXPECT_EQ(Line(Prim<uint64_t>(uint64(), {std::numeric_limits<uint64_t>::max()})), "[18446744073709551615]");
  EXPECT_EQ(Line(ArrayData::Make(null(), 2, {}, 2)), "[null, null]");
}

TEST(PrettyPrintTest, Floats) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(Line(F64({1.5, -0.0, 0.1, 1e20, inf, -inf, std::numeric_limits<double>::quiet_NaN(), N})),
            "[1.5, -0, 0.1, 1e+20, inf, -inf, nan, null]");
  EXPECT_EQ(Line(F32({0.1f, 3.0f})), "[0.1, 3]");
  auto h = Prim<uint16_t>(float16(), {FloatToHalf(1.5f), FloatToHalf(-2.0f), 0x7C00, 0x7E00, 0x0001});
  EXPECT_EQ(Line(h), "[1.5, -2, inf, nan, 5.9604645e-08]");
}

TEST(PrettyPrintTest, Decimals) {
  EXPECT_EQ(Line(Decimals(decimal128(10, 2), {"12345", "-12345", "5", "-5", "0", N})),
            "[123.45, -123.45, 0.05, -0.05, 0.00, null]");
  EXPECT_EQ(Line(Decimals(decimal32(5, 0), {"-7", "99999"})), "[-7, 99999]");
  EXPECT_EQ(Line(Decimals(decimal64(18, 3), {"-1", "1000"})), "[-0.001, 1.000]");
  EXPECT_EQ(Line(Decimals(decimal256(76, 10),
                          {"1234567890123456789012345678901234567890123456789012345678901234567890123456"})),
            "[123456789012345678901234567890123456789012345678901234567890123456.7890123456]");
  EXPECT_EQ(Line(Decimals(decimal128(5, -2), {"123", "0"})), "[12300, 0]");
}

TEST(PrettyPrintTest, DatesAndTimes) {
  EXPECT_EQ(Line(Prim<int32_t>(date32(), {0, 19782, -1, 11016, -719528, N})),
            "[1970-01-01, 2024-02-29, 1969-12-31, 2000-02-29, 0000-01-01, null]");
  // Years outside 0..9999 as ISO 8601 expanded years, as the CSV and JSON Lines writers print them.
  EXPECT_EQ(Line(Prim<int32_t>(date32(), {-719529, 2932896, 2932897})),
            "[-0001-12-31, 9999-12-31, +10000-01-01]");
  EXPECT_EQ(Line(Prim<int64_t>(date64(), {86400000LL * 19782, -1})), "[2024-02-29, 1969-12-31]");
  EXPECT_EQ(Line(Prim<int32_t>(time32(TimeUnit::kSecond), {0, 49627})), "[00:00:00, 13:47:07]");
  EXPECT_EQ(Line(Prim<int32_t>(time32(TimeUnit::kMilli), {49627250})), "[13:47:07.250]");
  EXPECT_EQ(Line(Prim<int64_t>(time64(TimeUnit::kMicro), {1})), "[00:00:00.000001]");
  EXPECT_EQ(Line(Prim<int64_t>(time64(TimeUnit::kNano), {86399999999999LL})), "[23:59:59.999999999]");
  // Not times of day: the raw count, also at the int64 end where seconds * 10^9 overflows.
  EXPECT_EQ(Line(Prim<int64_t>(time64(TimeUnit::kNano), {std::numeric_limits<int64_t>::min(), -1})),
            "[-9223372036854775808ns, -1ns]");
}

TEST(PrettyPrintTest, Timestamps) {
  const int64_t t = 1709214427;  // 2024-02-29T13:47:07Z
  EXPECT_EQ(Line(Prim<int64_t>(timestamp(TimeUnit::kSecond), {t, 0})),
            "[2024-02-29T13:47:07, 1970-01-01T00:00:00]");
  EXPECT_EQ(Line(Prim<int64_t>(timestamp(TimeUnit::kMilli), {t * 1000 + 5, -1})),
            "[2024-02-29T13:47:07.005, 1969-12-31T23:59:59.999]");
  EXPECT_EQ(Line(Prim<int64_t>(timestamp(TimeUnit::kMicro, "UTC"), {t * 1000000})),
            "[2024-02-29T13:47:07.000000Z]");
  EXPECT_EQ(Line(Prim<int64_t>(timestamp(TimeUnit::kNano, "+05:30"), {t * 1000000000LL + 1})),
            "[2024-02-29T19:17:07.000000001+05:30]");
  EXPECT_EQ(Line(Prim<int64_t>(timestamp(TimeUnit::kSecond, "-08:00"), {t})), "[2024-02-29T05:47:07-08:00]");
  EXPECT_EQ(Line(Prim<int64_t>(timestamp(TimeUnit::kSecond, "Europe/Paris"), {t})),
            "[2024-02-29T13:47:07Z[Europe/Paris]]");
}

TEST(PrettyPrintTest, DurationsAndIntervals) {
  EXPECT_EQ(Line(Prim<int64_t>(duration(TimeUnit::kMilli), {15, -3})), "[15ms, -3ms]");
  EXPECT_EQ(Line(Prim<int64_t>(duration(TimeUnit::kNano), {7})), "[7ns]");
  EXPECT_EQ(Line(Prim<int32_t>(month_interval(), {2, -1})), "[2M, -1M]");
  EXPECT_EQ(Line(Prim<DayTimeInterval>(day_time_interval(), {DayTimeInterval{3, 400}})), "[3d400ms]");
  EXPECT_EQ(Line(Prim<MonthDayNanoInterval>(month_day_nano_interval(), {MonthDayNanoInterval{2, 3, 400000}, N})),
            "[2M3d400000ns, null]");
}

// ---------------------------------------------------------------------------
// Encodings

TEST(PrettyPrintTest, UnionsShowTypeCodes) {
  auto t = sparse_union({field("i", int32()), field("s", utf8())}, {3, 7});
  auto a = SparseUnion(t, {3, 7, 3}, {I32({1, 0, N}), Utf8({"", "x", ""})});
  EXPECT_EQ(Line(a), "[3: 1, 7: \"x\", 3: null]");
  EXPECT_EQ(Line(a->Slice(1, 2)), "[7: \"x\", 3: null]");
  auto d = DenseUnion(dense_union({field("i", int32()), field("s", utf8())}), {1, 0}, {0, 1},
                      {I32({5, 6}), Utf8({"y"})});
  EXPECT_EQ(Line(d), "[1: \"y\", 0: 6]");
}

TEST(PrettyPrintTest, DictionaryAndRunEndDecoded) {
  auto dt = dictionary(int8(), utf8());
  auto d = Dict(dt, {1, N, 0, 2}, Utf8({"a", "b", N}));
  EXPECT_EQ(Line(d), "[\"b\", null, \"a\", null]");
  EXPECT_EQ(FormatValue(*d, 0), "\"b\"");
  auto r = Ree(run_end_encoded(int32(), int32()), 5, I32({2, 3, 5}), I32({7, N, 9}));
  EXPECT_EQ(Line(r), "[7, 7, null, 9, 9]");
  EXPECT_EQ(Line(r->Slice(1, 3)), "[7, null, 9]");
  auto ext = I32({1, N});
  ext->type = std::make_shared<TestExtType>(int32());
  EXPECT_EQ(Line(ext), "[1, null]");
}

// ---------------------------------------------------------------------------
// Decimal text and half floats (shared helpers)

TEST(DecimalTextTest, RoundTripAllWidths) {
  struct Case {
    const char* text;
    int width;
    int32_t scale;
    const char* printed;
  };
  const Case cases[] = {
      {"123.45", 16, 2, "123.45"},
      {"-0.05", 8, 2, "-0.05"},
      {".5", 4, 1, "0.5"},
      {"+7", 4, 0, "7"},
      {"1.2e3", 8, 0, "1200"},
      {"1.5E-2", 8, 3, "0.015"},
      {"-0", 4, 2, "0.00"},
      {"2147483647", 4, 0, "2147483647"},
      {"-2147483648", 4, 0, "-2147483648"},
      {"-9223372036854775808", 8, 0, "-9223372036854775808"},
      {"170141183460469231731687303715884105727", 16, 0, "170141183460469231731687303715884105727"},
      {"-170141183460469231731687303715884105728", 16, 0, "-170141183460469231731687303715884105728"},
      {"-5789604461865809771178549250434395392663499233282028201972879200395656481996.8", 32, 1,
       "-5789604461865809771178549250434395392663499233282028201972879200395656481996.8"},
      {"1.50", 4, 1, "1.5"},
  };
  for (const auto& c : cases) {
    uint8_t bytes[32] = {};
    ASSERT_TRUE(DecimalFromString(c.text, c.width, c.scale, bytes).ok()) << c.text;
    EXPECT_EQ(DecimalToString(bytes, c.width, c.scale), c.printed) << c.text;
  }
}

TEST(DecimalTextTest, Errors) {
  uint8_t bytes[32];
  EXPECT_TRUE(DecimalFromString("2147483648", 4, 0, bytes).IsInvalid());
  EXPECT_TRUE(DecimalFromString("-2147483649", 4, 0, bytes).IsInvalid());
  EXPECT_TRUE(DecimalFromString("1.234", 8, 2, bytes).IsInvalid());
  EXPECT_TRUE(DecimalFromString("", 8, 2, bytes).IsInvalid());
  EXPECT_TRUE(DecimalFromString("-", 8, 2, bytes).IsInvalid());
  EXPECT_TRUE(DecimalFromString("1x", 8, 2, bytes).IsInvalid());
  EXPECT_TRUE(DecimalFromString("1e", 8, 2, bytes).IsInvalid());
  EXPECT_TRUE(DecimalFromString("1", 3, 0, bytes).IsInvalid());
  EXPECT_TRUE(DecimalFromString("1e100", 32, 0, bytes).IsInvalid());
  EXPECT_TRUE(DecimalFromString("0e100000", 32, 0, bytes).ok());
  EXPECT_TRUE(DecimalFromString("1.000000", 4, 2, bytes).ok());
  const int32_t v = 12345;
  EXPECT_EQ(DecimalDigitCount(reinterpret_cast<const uint8_t*>(&v), 4), 5);
}

TEST(Float16Test, Conversions) {
  EXPECT_EQ(HalfToFloat(0x3C00), 1.0f);
  EXPECT_EQ(HalfToFloat(0xC000), -2.0f);
  EXPECT_EQ(HalfToFloat(0x7BFF), 65504.0f);
  EXPECT_EQ(HalfToFloat(0x0001), 5.9604644775390625e-8f);
  EXPECT_EQ(HalfToFloat(0x0400), 6.103515625e-5f);
  EXPECT_TRUE(std::isinf(HalfToFloat(0x7C00)));
  EXPECT_TRUE(std::isnan(HalfToFloat(0x7E00)));
  EXPECT_EQ(FloatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7C00);  // rounds up to infinity
  EXPECT_EQ(FloatToHalf(1e-10f), 0x0000);
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(FloatToHalf(1.0009765625f), 0x3C01);
  EXPECT_EQ(FloatToHalf(1.00048828125f), 0x3C00);  // tie rounds to even
  EXPECT_EQ(FloatToHalf(1.00146484375f), 0x3C02);  // tie rounds to even (up)
  EXPECT_EQ(FloatToHalf(std::numeric_limits<float>::quiet_NaN()) & 0x7E00, 0x7E00);
  // Every finite half survives a round trip through float.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const uint16_t h = static_cast<uint16_t>(bits);
    if ((h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0) continue;  // NaN payloads
    ASSERT_EQ(FloatToHalf(HalfToFloat(h)), h) << bits;
  }
}

// --- Bounded formatting (a cell of a table) ----------------------------------

// A buffer of `size` bytes of `fill`.
BufferPtr Filled(int64_t size, char fill) {
  auto buffer = AllocateBuffer(size).ValueOrDie();
  std::memset(buffer->mutable_data(), fill, static_cast<size_t>(size));
  return buffer;
}

// Seconds spent in bounded FormatValue calls (not in building the inputs).
double bounded_seconds = 0;

// Formats slot 0 of `data` within `max_bytes`; checks the cut and the size.
std::string Bounded(const ArrayData& data, int64_t max_bytes, bool expect_cut,
                    const PrettyPrintOptions& options = PrettyPrintOptions()) {
  bool cut = !expect_cut;
  const auto start = std::chrono::steady_clock::now();
  std::string text = FormatValue(data, 0, options, max_bytes, &cut);
  bounded_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(cut, expect_cut) << text;
  EXPECT_LE(static_cast<int64_t>(text.size()), max_bytes) << text;
  return text;
}

// The work is the budget, not the value: a 64 MiB string, a list of ten
// million numbers or a value nested 60 deep each cost a few hundred bytes.
// (Formatted whole, the string alone is 64 MiB of text and about a second.)
TEST(FormatValueBounded, HugeValuesCostOnlyTheBudget) {
  const int64_t big = int64_t{64} << 20;
  bounded_seconds = 0;
  auto offsets = Buf(std::vector<int32_t>{0, static_cast<int32_t>(big)});
  auto text = ArrayData::Make(utf8(), 1, {nullptr, offsets, Filled(big, 'x')}, 0);
  EXPECT_EQ(Bounded(*text, 100, true), "\"" + std::string(99, 'x'));
  auto bytes = ArrayData::Make(binary(), 1, {nullptr, offsets, Filled(big, 'x')}, 0);
  EXPECT_EQ(Bounded(*bytes, 10, true), "7878787878");

  // A view into the same 64 MiB (the 16,000 views over one buffer).
  BinaryViewValue view{};
  view.ref.size = static_cast<int32_t>(big);
  std::memcpy(view.ref.prefix, "xxxx", 4);
  auto views = ArrayData::Make(utf8_view(), 1,
                               {nullptr, Buf(std::vector<BinaryViewValue>{view}), text->buffers[2]}, 0);
  EXPECT_EQ(Bounded(*views, 50, true).size(), 50u);

  // Ten million elements, all of them shown (no window).
  const int64_t n = 10'000'000;
  auto numbers = ArrayData::Make(int32(), n, {nullptr, Filled(n * 4, 0)}, 0);
  auto list_of = ArrayData::Make(list(int32()), 1,
                                 {nullptr, Buf(std::vector<int32_t>{0, static_cast<int32_t>(n)})},
                                 {numbers}, 0);
  PrettyPrintOptions everything;
  everything.container_window = n;
  EXPECT_EQ(Bounded(*list_of, 12, true, everything), "[0, 0, 0, 0,");

  // 60 levels of single-element lists around the 64 MiB string.
  ArrayDataPtr nested = text;
  for (int level = 0; level < 60; ++level) {
    nested = ArrayData::Make(list(nested->type), 1, {nullptr, Buf(std::vector<int32_t>{0, 1})},
                             {nested}, 0);
  }
  EXPECT_EQ(Bounded(*nested, 64, true), std::string(60, '[') + "\"xxx");
  EXPECT_LT(bounded_seconds, 0.05);  // whole, the string alone is about a second
}

TEST(FormatValueBounded, ShortValuesAreWholeAndCutsKeepCharacters) {
  auto words = Utf8({"h\xC3\xA9h\xC3\xA9", "ab"});
  // Whole when it fits, the same text as the unbounded form.
  bool cut = true;
  EXPECT_EQ(FormatValue(*words, 1, PrettyPrintOptions(), 4, &cut), "\"ab\"");
  EXPECT_FALSE(cut);
  EXPECT_EQ(FormatValue(*words, 0, PrettyPrintOptions(), 100, &cut),
            FormatValue(*words, 0, PrettyPrintOptions()));
  // "\"h" then the two bytes of U+00E9: a budget of 3 stops before them.
  EXPECT_EQ(Bounded(*words, 3, true), "\"h");
  EXPECT_EQ(Bounded(*words, 4, true), "\"h\xC3\xA9");
  EXPECT_EQ(Bounded(*words, 0, true), "");
}

}  // namespace
}  // namespace alkaid
