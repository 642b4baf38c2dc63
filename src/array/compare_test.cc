#include "alkaid/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "alkaid/float16.h"
#include "src/array/compare_test_helpers.h"
#include "test_util/array_from_json.h"

namespace alkaid {
namespace {

using namespace compare_test;  // NOLINT

// Asserts equality both ways, with an empty diff.
void ExpectEqual(const ArrayDataPtr& a, const ArrayDataPtr& b, const EqualOptions& o = {}) {
  EXPECT_TRUE(ArrayEquals(*a, *b, o));
  EXPECT_TRUE(ArrayEquals(*b, *a, o));
  EXPECT_EQ(ArrayDiff(*a, *b, o), "");
}

void ExpectDiff(const ArrayDataPtr& a, const ArrayDataPtr& b, const std::string& diff,
                const EqualOptions& o = {}) {
  EXPECT_FALSE(ArrayEquals(*a, *b, o));
  EXPECT_FALSE(ArrayEquals(*b, *a, o));
  EXPECT_EQ(ArrayDiff(*a, *b, o), diff);
}

// ---------------------------------------------------------------------------
// Types, lengths, primitives

TEST(CompareTest, TypeAndLengthMismatch) {
  ExpectDiff(I32({1, 2}), I64({1, 2}), "type mismatch: int32 vs int64");
  ExpectDiff(I32({1, 2}), I32({1, 2, 3}), "length 2 vs 3");
  ExpectEqual(I32({}), I32({}));
}

TEST(CompareTest, MetadataOnlyWhenAsked) {
  auto md = KeyValueMetadata::Make({{"k", "v"}});
  auto t1 = struct_({field("a", int32(), true, md)});
  auto t2 = struct_({field("a", int32())});
  auto a = Struct(t1, 2, {I32({1, 2})});
  auto b = Struct(t2, 2, {I32({1, 2})});
  ExpectEqual(a, b);
  EqualOptions o;
  o.check_metadata = true;
  EXPECT_FALSE(ArrayEquals(*a, *b, o));
  EXPECT_EQ(ArrayDiff(*a, *b, o).rfind("type mismatch: ", 0), 0u);
}

TEST(CompareTest, IntegersValuesAndNulls) {
  ExpectEqual(I32({1, N, 3}), I32({1, N, 3}));
  ExpectDiff(I32({1, 7, 3}), I32({1, 8, 3}), "at [1]: 7 vs 8");
  ExpectDiff(I32({1, N, 3}), I32({1, 2, 3}), "at [1]: null vs 2");
  ExpectDiff(I32({1, 2, N}), I32({1, N, 3}), "at [1]: 2 vs null");
  // A value difference before a null difference is reported first.
  ExpectDiff(I32({5, N, 3}), I32({6, 2, 3}), "at [0]: 5 vs 6");
}

TEST(CompareTest, MaskedGarbageIgnored) {
  ExpectEqual(I32({1, N, 3}, /*garbage=*/111), I32({1, N, 3}, /*garbage=*/-5));
  ExpectEqual(Bools({true, N, false}, true), Bools({true, N, false}, false));
  ExpectEqual(Utf8({"a", N, "c"}, "", "garbage"), Utf8({"a", N, "c"}));
}

TEST(CompareTest, NullCountDisagreeingWithBitmapIsInvalid) {
  // A bitmap with cleared bits but null_count 0 is an invalid array, and
  // comparison validates before it reads anything.
  auto a = ArrayData::Make(int32(), 2, {Bits({false, false}), Buf<int32_t>({1, 2})}, 0);
  EXPECT_FALSE(ArrayEquals(*a, *I32({1, 2})));
  EXPECT_EQ(ArrayDiff(*a, *I32({1, 2})),
            "left array is invalid: int32 array at <root>: null_count is 0 but the validity "
            "bitmap marks 2 of 2 slots as null");
}

TEST(CompareTest, AllFixedWidthTypesBytewise) {
  ExpectDiff(Prim<int8_t>(int8(), {1, -2}), Prim<int8_t>(int8(), {1, -3}), "at [1]: -2 vs -3");
  ExpectDiff(Prim<uint64_t>(uint64(), {std::numeric_limits<uint64_t>::max()}),
             Prim<uint64_t>(uint64(), {0}), "at [0]: 18446744073709551615 vs 0");
  ExpectDiff(Prim<int32_t>(date32(), {0, 1}), Prim<int32_t>(date32(), {0, 2}),
             "at [1]: 1970-01-02 vs 1970-01-03");
  ExpectDiff(Prim<int64_t>(timestamp(TimeUnit::kMilli), {1500}),
             Prim<int64_t>(timestamp(TimeUnit::kMilli), {1501}),
             "at [0]: 1970-01-01T00:00:01.500 vs 1970-01-01T00:00:01.501");
  ExpectDiff(Prim<int64_t>(duration(TimeUnit::kSecond), {3}), Prim<int64_t>(duration(TimeUnit::kSecond), {4}),
             "at [0]: 3s vs 4s");
  ExpectDiff(Prim<MonthDayNanoInterval>(month_day_nano_interval(), {MonthDayNanoInterval{1, 2, 3}}),
             Prim<MonthDayNanoInterval>(month_day_nano_interval(), {MonthDayNanoInterval{1, 2, 4}}),
             "at [0]: 1M2d3ns vs 1M2d4ns");
  ExpectEqual(Prim<DayTimeInterval>(day_time_interval(), {DayTimeInterval{1, 2}, N}),
              Prim<DayTimeInterval>(day_time_interval(), {DayTimeInterval{1, 2}, N}));
  // Types with different parameters never compare equal.
  ExpectDiff(Prim<int64_t>(timestamp(TimeUnit::kMilli), {1}), Prim<int64_t>(timestamp(TimeUnit::kMicro), {1}),
             "type mismatch: timestamp[ms] vs timestamp[us]");
}

TEST(CompareTest, DecimalAndFixedSizeBinary) {
  auto dec = decimal128(10, 2);
  auto a = ArrayData::Make(dec, 2, {nullptr, Buf<int64_t>({12345, 0, -5, -1})}, 0);
  auto b = ArrayData::Make(dec, 2, {nullptr, Buf<int64_t>({12345, 0, -6, -1})}, 0);
  ExpectEqual(a, a->Slice(0, 2));
  ExpectDiff(a, b, "at [1]: -0.05 vs -0.06");
  auto fsb = fixed_size_binary(3);
  auto c = ArrayData::Make(fsb, 2, {nullptr, Buffer::FromString("abcdef")}, 0);
  auto d = ArrayData::Make(fsb, 2, {nullptr, Buffer::FromString("abcdeg")}, 0);
  ExpectDiff(c, d, "at [1]: 646566 vs 646567");
  // Slice of a longer array vs a fresh one.
  auto e = ArrayData::Make(fsb, 1, {nullptr, Buffer::FromString("def")}, 0);
  ExpectEqual(c->Slice(1, 1), e);
  auto zero = fixed_size_binary(0);
  ExpectEqual(ArrayData::Make(zero, 3, {nullptr, nullptr}, 0), ArrayData::Make(zero, 3, {nullptr, nullptr}, 0));
}

TEST(CompareTest, Booleans) {
  ExpectEqual(Bools({true, false, N}), Bools({true, false, N}));
  ExpectDiff(Bools({true, false, true}), Bools({true, true, true}), "at [1]: false vs true");
  std::vector<Opt<bool>> many;
  for (int i = 0; i < 200; ++i) many.push_back(i % 7 == 0 ? Opt<bool>() : Opt<bool>(i % 3 == 0));
  auto full = Bools(many);
  std::vector<Opt<bool>> tail(many.begin() + 13, many.begin() + 190);
  ExpectEqual(full->Slice(13, 177), Bools(tail));
  tail[100] = !*many[113];  // slot 113 is valid (113 % 7 != 0)
  ExpectDiff(full->Slice(13, 177), Bools(tail),
             std::string("at [100]: ") + (*many[113] ? "true vs false" : "false vs true"));
}

TEST(CompareTest, NullType) {
  auto a = ArrayData::Make(null(), 3, {}, 3);
  auto b = ArrayData::Make(null(), 3, {}, 3);
  ExpectEqual(a, b);
  ExpectDiff(a, ArrayData::Make(null(), 4, {}, 4), "length 3 vs 4");
}

// ---------------------------------------------------------------------------
// Floats

TEST(CompareTest, FloatsExactByDefault) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ExpectEqual(F64({0.0, 1.5}), F64({-0.0, 1.5}));
  ExpectDiff(F64({nan}), F64({nan}), "at [0]: nan vs nan");
  ExpectDiff(F64({1.0}), F64({1.0000001}), "at [0]: 1 vs 1.0000001");
  const double inf = std::numeric_limits<double>::infinity();
  ExpectEqual(F64({inf, -inf}), F64({inf, -inf}));
}

TEST(CompareTest, FloatOptions) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EqualOptions nans;
  nans.with_nans_equal();
  ExpectEqual(F64({nan, 1}), F64({nan, 1}), nans);
  ExpectDiff(F64({nan}), F64({1}), "at [0]: nan vs 1", nans);

  EqualOptions tol;
  tol.with_atol(0.01);
  ExpectEqual(F64({1.0, 2.0}), F64({1.005, 1.995}), tol);
  ExpectDiff(F64({1.0}), F64({1.02}), "at [0]: 1 vs 1.02", tol);
  ExpectDiff(F64({nan}), F64({nan}), "at [0]: nan vs nan", tol);
  tol.with_nans_equal();
  ExpectEqual(F64({nan}), F64({nan}), tol);
  const double inf = std::numeric_limits<double>::infinity();
  ExpectDiff(F64({inf}), F64({1e308}), "at [0]: inf vs 1e+308", tol);

  const float fnan = std::numeric_limits<float>::quiet_NaN();
  ExpectEqual(F32({fnan, 2.5f, N}), F32({fnan, 2.5f, N}), nans);
  ExpectDiff(F32({2.5f}), F32({2.25f}), "at [0]: 2.5 vs 2.25");
}

TEST(CompareTest, HalfFloatsCompareByValue) {
  auto h = [](std::vector<Opt<float>> values) {
    std::vector<Opt<uint16_t>> bits;
    for (auto v : values) bits.push_back(v ? Opt<uint16_t>(FloatToHalf(*v)) : Opt<uint16_t>());
    return Prim<uint16_t>(float16(), bits);
  };
  ExpectEqual(h({0.0f, 1.5f, N}), h({-0.0f, 1.5f, N}));
  ExpectDiff(h({1.5f}), h({1.75f}), "at [0]: 1.5 vs 1.75");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ExpectDiff(h({nan}), h({nan}), "at [0]: nan vs nan");
  ExpectEqual(h({nan}), h({nan}), EqualOptions().with_nans_equal());
  ExpectEqual(h({1.0f}), h({1.0009765625f}), EqualOptions().with_atol(0.001));
}

// ---------------------------------------------------------------------------
// Slices and random layouts

TEST(CompareTest, RandomSlicesMatchFreshCopies) {
  std::mt19937 rng(42);
  std::vector<Opt<int32_t>> values;
  for (int i = 0; i < 300; ++i) {
    if (rng() % 4 == 0) {
      values.push_back(N);
    } else {
      values.push_back(static_cast<int32_t>(rng() % 1000));
    }
  }
  auto full = I32(values, /*garbage=*/999999);
  for (int trial = 0; trial < 50; ++trial) {
    const int64_t off = rng() % 150;
    const int64_t len = rng() % (300 - off);
    std::vector<Opt<int32_t>> part(values.begin() + off, values.begin() + off + len);
    ExpectEqual(full->Slice(off, len), I32(part));
    if (len == 0) continue;
    const int64_t k = rng() % len;
    if (!part[static_cast<size_t>(k)]) continue;
    auto expected = "at [" + std::to_string(k) + "]: " + std::to_string(*part[static_cast<size_t>(k)]) + " vs " +
                    std::to_string(*part[static_cast<size_t>(k)] + 1);
    part[static_cast<size_t>(k)] = *part[static_cast<size_t>(k)] + 1;
    ExpectDiff(full->Slice(off, len), I32(part), expected);
  }
}

TEST(CompareTest, SliceAgainstSlice) {
  auto a = I32({9, 1, 2, N, 4, 8});
  auto b = I32({1, 2, N, 4});
  ExpectEqual(a->Slice(1, 4), b);
  ExpectEqual(a->Slice(1, 4), b->Slice(0, 4));
  ExpectDiff(a->Slice(0, 4), b, "at [0]: 9 vs 1");
  ExpectEqual(a->Slice(2, 2), b->Slice(1, 2));
}

TEST(CompareTest, LargeNoNullFastPath) {
  std::vector<Opt<int64_t>> v;
  for (int i = 0; i < 5000; ++i) v.push_back(i * 3);
  auto a = I64(v);
  ExpectEqual(a, I64(v));
  v[4321] = -1;
  ExpectDiff(a, I64(v), "at [4321]: 12963 vs -1");
}

// ---------------------------------------------------------------------------
// Binary-like

TEST(CompareTest, StringsWithShiftedOffsets) {
  auto a = Utf8({"ab", N, "", "xyz"});
  auto b = Utf8({"ab", N, "", "xyz"}, /*prefix=*/"PREFIX", /*garbage=*/"zz");
  ExpectEqual(a, b);
  ExpectDiff(a, Utf8({"ab", N, "", "xy"}), "at [3]: \"xyz\" vs \"xy\"");
  ExpectDiff(a, Utf8({"ac", N, "", "xyz"}), "at [0]: \"ab\" vs \"ac\"");
  ExpectDiff(a, Utf8({"ab", "", "", "xyz"}), "at [1]: null vs \"\"");
  // Slices.
  auto c = Utf8({"q", "ab", N, "", "xyz", "r"});
  ExpectEqual(c->Slice(1, 4), a);
  ExpectEqual(c->Slice(1, 4), b->Slice(0, 4));
}

TEST(CompareTest, LargeAndBinaryTypes) {
  auto a = Str<int64_t>(large_utf8(), {"hello", "world"}, "xx");
  auto b = Str<int64_t>(large_utf8(), {"hello", "world"});
  ExpectEqual(a, b);
  ExpectDiff(Str<int32_t>(binary(), {std::string("\x01\x02", 2)}), Str<int32_t>(binary(), {std::string("\x01\x03", 2)}),
             "at [0]: 0102 vs 0103");
  ExpectDiff(Str<int64_t>(large_binary(), {"a"}), Str<int32_t>(binary(), {"a"}),
             "type mismatch: large_binary vs binary");
}

TEST(CompareTest, BinaryViews) {
  const std::string long1 = "this is a long string";
  const std::string long2 = "another quite long one";
  auto a = Views(utf8_view(), {"short", long1, N, long2, ""}, 1);
  auto b = Views(utf8_view(), {"short", long1, N, long2, ""}, 3, 1, "padding!");
  ExpectEqual(a, b);
  ExpectDiff(a, Views(utf8_view(), {"short", long1, N, "another quite long onE", ""}),
             "at [3]: \"another quite long one\" vs \"another quite long onE\"");
  ExpectDiff(a, Views(utf8_view(), {"shorT", long1, N, long2, ""}), "at [0]: \"short\" vs \"shorT\"");
  ExpectDiff(a, Views(utf8_view(), {"short", "Xhis is a long string", N, long2, ""}),
             "at [1]: \"this is a long string\" vs \"Xhis is a long string\"");
  ExpectEqual(a->Slice(1, 3), b->Slice(1, 3));
  ExpectDiff(Views(binary_view(), {"abc"}), Views(binary_view(), {"abd"}), "at [0]: 616263 vs 616264");
  // Garbage view under a null slot.
  auto c = Views(utf8_view(), {"x", "garbage-garbage"});
  c->buffers[0] = Bits({true, false});
  c->null_count = 1;
  ExpectEqual(c, Views(utf8_view(), {"x", N}));
}

// ---------------------------------------------------------------------------
// Lists

TEST(CompareTest, ListsWithShiftedOffsets) {
  auto t = list(int32());
  auto a = List<int32_t>(t, {0, 2, 2, 5}, I32({1, 2, 3, 4, 5}), {true, false, true});
  // Child has extra leading values, and the null slot covers garbage.
  auto b = List<int32_t>(t, {3, 5, 7, 10}, I32({7, 7, 7, 1, 2, 0, 0, 3, 4, 5}), {true, false, true});
  ExpectEqual(a, b);
  auto c = List<int32_t>(t, {0, 2, 2, 5}, I32({1, 2, 3, 4, 6}), {true, false, true});
  ExpectDiff(a, c, "at [2][2]: 5 vs 6");
  auto d = List<int32_t>(t, {0, 2, 2, 4}, I32({1, 2, 3, 4}), {true, false, true});
  ExpectDiff(a, d, "at [2]: [3, 4, 5] vs [3, 4] (length 3 vs 2)");
  auto e = List<int32_t>(t, {0, 2, 2, 5}, I32({1, N, 3, 4, 5}), {true, false, true});
  ExpectDiff(a, e, "at [0][1]: 2 vs null");
  // Sliced child, sliced parent.
  auto child = I32({0, 1, 2, 3, 4, 5})->Slice(1, 5);
  auto f = List<int32_t>(t, {0, 0, 2, 2, 5}, child, {true, true, false, true});
  ExpectEqual(f->Slice(1, 3), a);
  // Empty lists on both sides interleaved.
  auto g = List<int32_t>(t, {0, 0, 1, 1, 2}, I32({1, 2}));
  auto h = List<int32_t>(t, {5, 5, 6, 6, 7}, I32({0, 0, 0, 0, 0, 1, 3}));
  ExpectDiff(g, h, "at [3][0]: 2 vs 3");
}

TEST(CompareTest, LargeListAndMap) {
  auto t = large_list(utf8());
  auto a = List<int64_t>(t, {0, 1, 3}, Utf8({"a", "b", "c"}));
  auto b = List<int64_t>(t, {1, 2, 4}, Utf8({"z", "a", "b", "c"}));
  ExpectEqual(a, b);
  ExpectDiff(a, List<int64_t>(t, {0, 1, 3}, Utf8({"a", "b", "d"})), "at [1][1]: \"c\" vs \"d\"");

  auto mt = map(utf8(), int32());
  auto entries_type = mt->field(0)->type();
  auto entries = Struct(entries_type, 3, {Utf8({"k1", "k2", "k3"}), I32({1, N, 3})});
  auto m1 = List<int32_t>(mt, {0, 2, 3}, entries);
  auto entries2 = Struct(entries_type, 3, {Utf8({"k1", "k2", "k3"}), I32({1, 5, 3})});
  auto m2 = List<int32_t>(mt, {0, 2, 3}, entries2);
  ExpectDiff(m1, m2, "at [0][1].value: null vs 5");
  ExpectEqual(m1, List<int32_t>(mt, {0, 2, 3}, entries->Slice(0, 3)));
}

TEST(CompareTest, ListViews) {
  auto t = list_view(int32());
  // [[1, 2], null, [2, 3], []]
  auto child = I32({1, 2, 3});
  auto a = ListView<int32_t>(t, {0, 0, 1, 0}, {2, 0, 2, 0}, child, {true, false, true, true});
  // The same values laid out separately, in reverse order, with garbage.
  auto child2 = I32({2, 3, 9, 1, 2});
  auto b = ListView<int32_t>(t, {3, 2, 0, 4}, {2, 1, 2, 0}, child2, {true, false, true, true});
  ExpectEqual(a, b);
  auto c = ListView<int32_t>(t, {3, 2, 0, 4}, {2, 1, 2, 0}, I32({2, 4, 9, 1, 2}), {true, false, true, true});
  ExpectDiff(a, c, "at [2][1]: 3 vs 4");
  auto d = ListView<int32_t>(t, {0, 0, 1, 0}, {2, 0, 2, 1}, child, {true, false, true, true});
  ExpectDiff(a, d, "at [3]: [] vs [1] (length 0 vs 1)");
  ExpectEqual(a->Slice(2, 2), b->Slice(2, 2));

  auto lt = large_list_view(int32());
  ExpectEqual(ListView<int64_t>(lt, {1}, {2}, child), ListView<int64_t>(lt, {0}, {2}, I32({2, 3})));
}

TEST(CompareTest, FixedSizeLists) {
  auto t = fixed_size_list(int32(), 2);
  auto a = FixedList(t, 3, I32({1, 2, 9, 9, 5, 6}), {true, false, true});
  auto b = FixedList(t, 3, I32({1, 2, 0, 0, 5, 6}), {true, false, true});
  ExpectEqual(a, b);
  auto c = FixedList(t, 3, I32({1, 2, 0, 0, 5, 7}), {true, false, true});
  ExpectDiff(a, c, "at [2][1]: 6 vs 7");
  // Sliced parent: slot offset multiplies into the child.
  auto d = FixedList(t, 2, I32({5, 6, 1, 1}));
  ExpectEqual(a->Slice(2, 1), d->Slice(0, 1));
  ExpectDiff(a->Slice(2, 1), d->Slice(1, 1), "at [0][0]: 5 vs 1");
}

// ---------------------------------------------------------------------------
// Structs and nesting

TEST(CompareTest, StructsHiddenChildValues) {
  auto t = struct_({field("a", int32()), field("b", utf8())});
  auto a = Struct(t, 3, {I32({1, 2, 3}), Utf8({"x", "y", "z"})}, {true, false, true});
  auto b = Struct(t, 3, {I32({1, 99, 3}), Utf8({"x", "hidden", "z"})}, {true, false, true});
  ExpectEqual(a, b);
  auto c = Struct(t, 3, {I32({1, 2, 3}), Utf8({"x", "y", "w"})}, {true, false, true});
  ExpectDiff(a, c, "at [2].b: \"z\" vs \"w\"");
  auto d = Struct(t, 3, {I32({1, 2, 3}), Utf8({"x", "y", "z"})});
  ExpectDiff(a, d, "at [1]: null vs {a: 2, b: \"y\"}");
  // The lowest slot wins even when a later field holds it.
  auto e = Struct(t, 3, {I32({1, 2, 4}), Utf8({"q", "y", "z"})}, {true, false, true});
  ExpectDiff(a, e, "at [0].b: \"x\" vs \"q\"");
  // Struct slices apply to children.
  auto f = Struct(t, 2, {I32({3, 3}), Utf8({"z", "z"})});
  ExpectEqual(a->Slice(2, 1), f->Slice(1, 1));
}

TEST(CompareTest, NestedThreeLevels) {
  // list<struct<a: int32, b: list<int32>>>
  auto inner = list(int32());
  auto st = struct_({field("a", int32()), field("b", inner)});
  auto t = list(st);
  auto make = [&](int32_t v) {
    auto b = List<int32_t>(inner, {0, 2, 3, 3}, I32({1, 2, 3}), {true, true, false});
    auto s = Struct(st, 3, {I32({10, 20, 30}), b});
    auto bv = List<int32_t>(inner, {0, 1, 3}, I32({4, v, 6}));
    auto s2 = Struct(st, 2, {I32({40, 50}), bv});
    (void)s;
    return List<int32_t>(t, {0, 0, 2}, s2);
  };
  ExpectEqual(make(5), make(5));
  ExpectDiff(make(5), make(7), "at [1][1].b[0]: 5 vs 7");
  EXPECT_EQ(ArrayDiff(*make(5), *make(7)), "at [1][1].b[0]: 5 vs 7");
}

TEST(CompareTest, DocumentedPathExample) {
  // struct<a: int32, b: list<int32>>: slot 2, field b, element 1.
  auto st = struct_({field("a", int32()), field("b", list(int32()))});
  auto l1 = List<int32_t>(list(int32()), {0, 1, 2, 4}, I32({1, 2, 3, N}));
  auto l2 = List<int32_t>(list(int32()), {0, 1, 2, 4}, I32({1, 2, 3, 4}));
  ExpectDiff(Struct(st, 3, {I32({1, 2, 3}), l1}), Struct(st, 3, {I32({1, 2, 3}), l2}), "at [2].b[1]: null vs 4");
}

// ---------------------------------------------------------------------------
// Unions

TEST(CompareTest, SparseUnions) {
  auto t = sparse_union({field("i", int32()), field("s", utf8())}, {3, 7});
  auto a = SparseUnion(t, {3, 7, 3}, {I32({1, 0, 3}), Utf8({"", "x", ""})});
  auto b = SparseUnion(t, {3, 7, 3}, {I32({1, 42, 3}), Utf8({"junk", "x", "junk"})});
  ExpectEqual(a, b);
  auto c = SparseUnion(t, {3, 3, 3}, {I32({1, 0, 3}), Utf8({"", "x", ""})});
  ExpectDiff(a, c, "at [1]: 7: \"x\" vs 3: 0");
  auto d = SparseUnion(t, {3, 7, 3}, {I32({1, 0, 4}), Utf8({"", "x", ""})});
  ExpectDiff(a, d, "at [2]: 3: 3 vs 3: 4");
  auto e = SparseUnion(t, {3, 7, 3}, {I32({1, 0, N}), Utf8({"", "x", ""})});
  ExpectDiff(a, e, "at [2]: 3: 3 vs 3: null");
  // Sliced unions: children are addressed with the union's offset.
  auto f = SparseUnion(t, {7, 3}, {I32({0, 3}), Utf8({"x", ""})});
  ExpectEqual(a->Slice(1, 2), f);
}

TEST(CompareTest, DenseUnions) {
  auto t = dense_union({field("i", int32()), field("s", utf8())});
  auto a = DenseUnion(t, {0, 1, 0, 0}, {0, 0, 1, 2}, {I32({1, 2, 3}), Utf8({"x"})});
  // Different child layout: reversed order, extra values.
  auto b = DenseUnion(t, {0, 1, 0, 0}, {3, 1, 2, 0}, {I32({3, 9, 2, 1}), Utf8({"y", "x"})});
  ExpectEqual(a, b);
  auto c = DenseUnion(t, {0, 1, 0, 0}, {3, 1, 2, 0}, {I32({4, 9, 2, 1}), Utf8({"y", "x"})});
  ExpectDiff(a, c, "at [3]: 0: 3 vs 0: 4");
  ExpectEqual(a->Slice(1, 3), b->Slice(1, 3));
  auto d = DenseUnion(t, {0, 1, 0, 1}, {0, 0, 1, 0}, {I32({1, 2}), Utf8({"x"})});
  ExpectDiff(a, d, "at [3]: 0: 3 vs 1: \"x\"");
}

TEST(CompareTest, UnionWithNestedChildReportsPath) {
  auto st = struct_({field("a", int32())});
  auto t = dense_union({field("s", st)});
  auto a = DenseUnion(t, {0, 0}, {0, 1}, {Struct(st, 2, {I32({1, 2})})});
  auto b = DenseUnion(t, {0, 0}, {0, 1}, {Struct(st, 2, {I32({1, 3})})});
  ExpectDiff(a, b, "at [1].a: 2 vs 3");
}

// ---------------------------------------------------------------------------
// Dictionaries, run-end encoding, extensions

TEST(CompareTest, DictionariesCompareDecodedValues) {
  auto t = dictionary(int8(), utf8());
  auto a = Dict(t, {0, 1, N, 0}, Utf8({"a", "b"}));
  auto b = Dict(t, {1, 0, N, 1}, Utf8({"b", "a"}), /*garbage=*/7);
  ExpectEqual(a, b);
  // Duplicate dictionary entries.
  ExpectEqual(Dict(t, {0, 1}, Utf8({"a", "a"})), Dict(t, {0, 0}, Utf8({"a"})));
  auto c = Dict(t, {1, 0, N, 0}, Utf8({"b", "a"}));
  ExpectDiff(a, c, "at [3]: \"a\" vs \"b\"");
  // A valid index pointing at a null dictionary value is a null slot.
  auto d = Dict(t, {0, 1, 2, 0}, Utf8({"a", "b", N}));
  ExpectEqual(a, d);
  ExpectDiff(a, Dict(t, {0, 2, N, 0}, Utf8({"a", "b", N})), "at [1]: \"b\" vs null");
  ExpectEqual(a->Slice(1, 3), b->Slice(1, 3));
  ExpectDiff(a, Dict(dictionary(int8(), large_utf8()), {0}, Str<int64_t>(large_utf8(), {"a"})),
             "type mismatch: dictionary<values=string, indices=int8> vs dictionary<values=large_string, "
             "indices=int8>");
}

TEST(CompareTest, RunEndEncodedComparesLogicalValues) {
  auto t = run_end_encoded(int32(), utf8());
  // ["a", "a", "a", null, "b", "b"]
  auto a = Ree(t, 6, I32({3, 4, 6}), Utf8({"a", N, "b"}));
  auto b = Ree(t, 6, I32({1, 3, 4, 5, 6}), Utf8({"a", "a", N, "b", "b"}));
  ExpectEqual(a, b);
  auto c = Ree(t, 6, I32({2, 3, 4, 6}), Utf8({"a", "c", N, "b"}));
  ExpectDiff(a, c, "at [2]: \"a\" vs \"c\"");
  auto d = Ree(t, 6, I32({3, 6}), Utf8({"a", "b"}));
  ExpectDiff(a, d, "at [3]: null vs \"b\"");
  // Slices start inside runs.
  auto e = Ree(t, 3, I32({1, 3}), Utf8({"a", "b"}));
  ExpectEqual(a->Slice(2, 4)->Slice(0, 1), e->Slice(0, 1));
  auto f = Ree(t, 4, I32({1, 2, 4}), Utf8({"a", N, "b"}));
  ExpectEqual(a->Slice(2, 4), f);
  ExpectEqual(a->Slice(2, 4), b->Slice(2, 4));
  auto t16 = run_end_encoded(int16(), int32());
  auto g = Ree(t16, 4, Prim<int16_t>(int16(), {2, 4}), I32({1, 2}));
  auto h = Ree(t16, 4, Prim<int16_t>(int16(), {1, 2, 3, 4}), I32({1, 1, 2, 2}));
  ExpectEqual(g, h);
  auto t64 = run_end_encoded(int64(), int32());
  ExpectDiff(Ree(t64, 2, I64({2}), I32({1})), Ree(t64, 2, I64({1, 2}), I32({1, 2})), "at [1]: 1 vs 2");
}

TEST(CompareTest, ExtensionsCompareStorage) {
  auto t = std::make_shared<TestExtType>(int32(), "p");
  auto a = I32({1, 2});
  a->type = t;
  auto b = I32({1, 2});
  b->type = t;
  ExpectEqual(a, b);
  auto c = I32({1, 3});
  c->type = std::make_shared<TestExtType>(int32(), "p");
  ExpectDiff(a, c, "at [1]: 2 vs 3");
  auto d = I32({1, 2});
  d->type = std::make_shared<TestExtType>(int32(), "q");
  EXPECT_FALSE(ArrayEquals(*a, *d));
  EXPECT_FALSE(ArrayEquals(*a, *I32({1, 2})));
  // Extension inside a struct.
  auto st = struct_({field("e", t)});
  ExpectDiff(Struct(st, 2, {a}), Struct(st, 2, {c}), "at [1].e: 2 vs 3");
}


// ---------------------------------------------------------------------------
// The first difference is the lowest slot, whatever kind of difference

TEST(CompareTest, FirstDifferenceIsLowestSlot) {
  ExpectDiff(Utf8({"ab", "x", "yyy"}), Utf8({"ac", "x", "yy"}), "at [0]: \"ab\" vs \"ac\"");
  auto t = list(int32());
  auto a = List<int32_t>(t, {0, 1, 2, 4}, I32({1, 2, 3, 4}));
  auto b = List<int32_t>(t, {0, 1, 2, 3}, I32({9, 2, 3}));
  ExpectDiff(a, b, "at [0][0]: 1 vs 9");
  auto c = List<int32_t>(t, {0, 1, 2, 3}, I32({1, 2, 3}));
  ExpectDiff(a, c, "at [2]: [3, 4] vs [3] (length 2 vs 1)");
  ExpectDiff(I32({1, 2, N}), I32({0, N, N}), "at [0]: 1 vs 0");
}

// ---------------------------------------------------------------------------
// Arrays from the JSON test literals (built by the builders)

using testing::ArrayFromJSON;

struct JsonCase {
  DataTypePtr type;
  const char* json;
};

std::vector<JsonCase> JsonCases() {
  return {
      {boolean(), "[true, null, false, true]"},
      {int16(), "[1, -2, null, 4]"},
      {uint32(), "[1, 2, null, 4000000000]"},
      {float32(), "[1.5, null, -0.25, 3]"},
      {float16(), "[1.5, null, -0.25, 3]"},
      {decimal128(10, 2), R"(["1.25", null, "-3.50", "0.05"])"},
      {decimal256(40, 3), R"(["1.250", null, "-3.500", "0.005"])"},
      {date32(), "[0, null, 19782, -1]"},
      {timestamp(TimeUnit::kNano, "UTC"), "[0, null, 1, 2]"},
      {month_day_nano_interval(), "[[1, 2, 3], null, [0, 0, 0], [-1, -2, -3]]"},
      {fixed_size_binary(2), R"(["ab", null, "cd", "ef"])"},
      {utf8(), R"(["a", null, "", "a longer string value"])"},
      {large_binary(), R"(["a", null, "", "bytes"])"},
      {utf8_view(), R"(["a", null, "a string longer than twelve", "x"])"},
      {list(int32()), "[[1, 2], null, [], [3]]"},
      {large_list_view(utf8()), R"([["a"], null, [], ["b", "c"]])"},
      {fixed_size_list(int32(), 2), "[[1, 2], null, [3, 4], [5, null]]"},
      {struct_({field("a", int32()), field("b", utf8())}), R"([{"a": 1, "b": "x"}, null, {"a": 2}, {"b": "y"}])"},
      {map(utf8(), int32()), R"([[["k", 1]], null, [], [["a", null], ["b", 2]]])"},
      {sparse_union({field("i", int32()), field("s", utf8())}, {2, 5}), R"([[2, 1], [5, "x"], [2, null], [5, "y"]])"},
      {dense_union({field("i", int32()), field("s", utf8())}, {2, 5}), R"([[2, 1], [5, "x"], [2, null], [5, "y"]])"},
      {dictionary(int16(), utf8()), R"(["a", "b", null, "a"])"},
      {run_end_encoded(int32(), int64()), "[1, 1, null, 2]"},
  };
}

TEST(CompareJsonTest, BuiltArraysEqualThemselvesAndSlices) {
  for (const auto& c : JsonCases()) {
    SCOPED_TRACE(c.type->ToString());
    auto a = ArrayFromJSON(c.type, c.json);
    auto b = ArrayFromJSON(c.type, c.json);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    ASSERT_EQ(a->length, 4);
    ExpectEqual(a, b);
    for (int64_t off = 0; off <= 4; ++off) {
      for (int64_t len = 0; off + len <= 4; ++len) {
        ExpectEqual(a->Slice(off, len), b->Slice(off, len));
      }
    }
    // Slot 1 and slot 2 differ in every case.
    EXPECT_FALSE(ArrayEquals(*a->Slice(1, 1), *b->Slice(2, 1)));
    EXPECT_EQ(ArrayDiff(*a->Slice(1, 1), *b->Slice(2, 1)).rfind("at [0]", 0), 0u)
        << ArrayDiff(*a->Slice(1, 1), *b->Slice(2, 1));
  }
}

TEST(CompareJsonTest, DiffsOnBuiltArrays) {
  auto t = list(struct_({field("a", int32()), field("b", list(utf8()))}));
  auto a = ArrayFromJSON(t, R"([[{"a": 1, "b": ["x"]}], [{"a": 2, "b": ["y", "z"]}]])");
  auto b = ArrayFromJSON(t, R"([[{"a": 1, "b": ["x"]}], [{"a": 2, "b": ["y", "w"]}]])");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ExpectDiff(a, b, "at [1][0].b[1]: \"z\" vs \"w\"");
  auto d1 = ArrayFromJSON(dictionary(int8(), utf8()), R"(["x", "y", "x"])");
  auto d2 = ArrayFromJSON(dictionary(int8(), utf8()), R"(["y", "x"])");
  ASSERT_NE(d1, nullptr);
  ASSERT_NE(d2, nullptr);
  // Different dictionaries ({x, y} vs {y, x}) with the same decoded values.
  ExpectEqual(d1->Slice(1, 2), d2);
  auto r1 = ArrayFromJSON(run_end_encoded(int16(), utf8()), R"(["a", "a", "b", "b", "b"])");
  auto r2 = ArrayFromJSON(run_end_encoded(int16(), utf8()), R"(["a", "b", "b", "b"])");
  ASSERT_NE(r1, nullptr);
  ASSERT_NE(r2, nullptr);
  ExpectEqual(r1->Slice(1, 4), r2);
  ExpectDiff(r1->Slice(0, 4), r2, "at [1]: \"a\" vs \"b\"");
}

}  // namespace
}  // namespace alkaid
