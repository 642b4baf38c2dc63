// Structs built by hand, C style, without alkaid (as another library would
// hand them over): each format string imports to the expected array; each
// malformed struct gets its own error naming the field path.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "alkaid/c_data/bridge.h"
#include "alkaid/compare.h"
#include "alkaid/extension.h"
#include "alkaid/validate.h"
#include "test_util/array_from_json.h"

namespace alkaid::c_data {
namespace {

using ::alkaid::testing::ArrayFromJSON;
using ::testing::HasSubstr;
using ::testing::Not;

// ---- plain C producer ------------------------------------------------------
// Every node is malloc'd; the top-level private_data points at a release
// counter (children have none). Buffers are static arrays of the test.

extern "C" void HandReleaseArray(struct ArrowArray* a) {
  for (int64_t i = 0; a->children && i < a->n_children; ++i) {
    if (a->children[i]->release) a->children[i]->release(a->children[i]);
    free(a->children[i]);
  }
  if (a->dictionary) {
    if (a->dictionary->release) a->dictionary->release(a->dictionary);
    free(a->dictionary);
  }
  free(a->buffers);
  free(a->children);
  if (a->private_data) ++*static_cast<int*>(a->private_data);
  a->release = NULL;
}

extern "C" void HandReleaseSchema(struct ArrowSchema* s) {
  for (int64_t i = 0; s->children && i < s->n_children; ++i) {
    if (s->children[i]->release) s->children[i]->release(s->children[i]);
    free(s->children[i]);
  }
  if (s->dictionary) {
    if (s->dictionary->release) s->dictionary->release(s->dictionary);
    free(s->dictionary);
  }
  free(s->children);
  s->release = NULL;
}

struct ArrowArray* HeapArray(struct ArrowArray a) {
  auto* p = static_cast<struct ArrowArray*>(malloc(sizeof(a)));
  *p = a;
  return p;
}
struct ArrowSchema* HeapSchema(struct ArrowSchema s) {
  auto* p = static_cast<struct ArrowSchema*>(malloc(sizeof(s)));
  *p = s;
  return p;
}

struct ArrowArray CArray(int64_t length, int64_t null_count, int64_t offset, int64_t n_buffers,
                         const void* b0 = NULL, const void* b1 = NULL, const void* b2 = NULL,
                         const void* b3 = NULL) {
  struct ArrowArray a;
  memset(&a, 0, sizeof(a));
  a.length = length;
  a.null_count = null_count;
  a.offset = offset;
  a.n_buffers = n_buffers;
  a.buffers = static_cast<const void**>(malloc(sizeof(void*) * 4));
  a.buffers[0] = b0;
  a.buffers[1] = b1;
  a.buffers[2] = b2;
  a.buffers[3] = b3;
  a.release = HandReleaseArray;
  return a;
}

void AddChild(struct ArrowArray* a, struct ArrowArray child) {
  a->children = static_cast<struct ArrowArray**>(
      realloc(a->children, sizeof(void*) * static_cast<size_t>(a->n_children + 1)));
  a->children[a->n_children++] = HeapArray(child);
}

struct ArrowSchema CSchema(const char* format, const char* name = "", int64_t flags = ARROW_FLAG_NULLABLE) {
  struct ArrowSchema s;
  memset(&s, 0, sizeof(s));
  s.format = format;
  s.name = name;
  s.flags = flags;
  s.release = HandReleaseSchema;
  return s;
}

void AddChild(struct ArrowSchema* s, struct ArrowSchema child) {
  s->children = static_cast<struct ArrowSchema**>(
      realloc(s->children, sizeof(void*) * static_cast<size_t>(s->n_children + 1)));
  s->children[s->n_children++] = HeapSchema(child);
}

// Validity of 4 slots: slot 1 null.
const uint8_t kValid4[8] = {0x0D};

// ---- import checks -----------------------------------------------------------

void ExpectImports(struct ArrowArray array, struct ArrowSchema schema, const DataTypePtr& type,
                   const std::string& json) {
  int released = 0;
  array.private_data = &released;
  auto expected = ArrayFromJSON(type, json);
  ASSERT_NE(expected, nullptr);
  {
    auto data = ImportArray(&array, &schema);
    ASSERT_TRUE(data.ok()) << data.status();
    EXPECT_TRUE((*data)->type->Equals(*type)) << (*data)->type->ToString() << " vs " << type->ToString();
    EXPECT_EQ(ArrayDiff(**data, *expected), "");
    EXPECT_LE(released, 1);  // 1 already when no buffer points into the struct
  }
  EXPECT_EQ(released, 1);
  EXPECT_EQ(schema.release, nullptr);
}

template <typename T>
void ExpectPrimitive(const char* format, const DataTypePtr& type, T v0, T v2, T v3,
                     const std::string& json) {
  SCOPED_TRACE(format);
  static thread_local T values[4];
  values[0] = v0;
  values[1] = T{};
  values[2] = v2;
  values[3] = v3;
  ExpectImports(CArray(4, 1, 0, 2, kValid4, values), CSchema(format), type, json);
}

TEST(CDataHandBuilt, Primitives) {
  ExpectImports(CArray(3, 3, 0, 0), CSchema("n"), null(), "[null, null, null]");
  static const uint8_t bits[1] = {0x09};  // slots 0 and 3 true
  ExpectImports(CArray(4, 1, 0, 2, kValid4, bits), CSchema("b"), boolean(),
                "[true, null, false, true]");
  ExpectPrimitive<int8_t>("c", int8(), -1, 2, 3, "[-1, null, 2, 3]");
  ExpectPrimitive<uint8_t>("C", uint8(), 255, 2, 3, "[255, null, 2, 3]");
  ExpectPrimitive<int16_t>("s", int16(), -1, 2, 3, "[-1, null, 2, 3]");
  ExpectPrimitive<uint16_t>("S", uint16(), 65535, 2, 3, "[65535, null, 2, 3]");
  ExpectPrimitive<int32_t>("i", int32(), -1, 2, 3, "[-1, null, 2, 3]");
  ExpectPrimitive<uint32_t>("I", uint32(), 7, 2, 3, "[7, null, 2, 3]");
  ExpectPrimitive<int64_t>("l", int64(), -1, 2, 3, "[-1, null, 2, 3]");
  ExpectPrimitive<uint64_t>("L", uint64(), 9, 2, 3, "[9, null, 2, 3]");
  ExpectPrimitive<uint16_t>("e", float16(), 0x3C00, 0x4000, 0xC000, "[1, null, 2, -2]");
  ExpectPrimitive<float>("f", float32(), 1.5f, 2, -3, "[1.5, null, 2, -3]");
  ExpectPrimitive<double>("g", float64(), 1.5, 2, -3, "[1.5, null, 2, -3]");
  ExpectPrimitive<int32_t>("tdD", date32(), 1, 2, 3, "[1, null, 2, 3]");
  ExpectPrimitive<int64_t>("tdm", date64(), 0, 86400000, 3 * 86400000LL, "[0, null, 86400000, 259200000]");
  ExpectPrimitive<int32_t>("tts", time32(TimeUnit::kSecond), 1, 2, 3, "[1, null, 2, 3]");
  ExpectPrimitive<int32_t>("ttm", time32(TimeUnit::kMilli), 1, 2, 3, "[1, null, 2, 3]");
  ExpectPrimitive<int64_t>("ttu", time64(TimeUnit::kMicro), 1, 2, 3, "[1, null, 2, 3]");
  ExpectPrimitive<int64_t>("ttn", time64(TimeUnit::kNano), 1, 2, 3, "[1, null, 2, 3]");
  ExpectPrimitive<int64_t>("tss:", timestamp(TimeUnit::kSecond), 1, 2, 3, "[1, null, 2, 3]");
  ExpectPrimitive<int64_t>("tsm:UTC", timestamp(TimeUnit::kMilli, "UTC"), 1, 2, 3, "[1, null, 2, 3]");
  ExpectPrimitive<int64_t>("tsu:Europe/Paris", timestamp(TimeUnit::kMicro, "Europe/Paris"), 1, 2,
                           3, "[1, null, 2, 3]");
  ExpectPrimitive<int64_t>("tsn:+07:00", timestamp(TimeUnit::kNano, "+07:00"), 1, 2, 3,
                           "[1, null, 2, 3]");
  ExpectPrimitive<int64_t>("tDs", duration(TimeUnit::kSecond), 1, 2, 3, "[1, null, 2, 3]");
  ExpectPrimitive<int64_t>("tDm", duration(TimeUnit::kMilli), 1, 2, 3, "[1, null, 2, 3]");
  ExpectPrimitive<int64_t>("tDu", duration(TimeUnit::kMicro), 1, 2, 3, "[1, null, 2, 3]");
  ExpectPrimitive<int64_t>("tDn", duration(TimeUnit::kNano), 1, 2, 3, "[1, null, 2, 3]");
  ExpectPrimitive<int32_t>("tiM", month_interval(), 1, 2, 3, "[1, null, 2, 3]");
  ExpectPrimitive<int64_t>("tiD", day_time_interval(), (int64_t{5} << 32) | 4, 0, 0,
                           "[[4, 5], null, [0, 0], [0, 0]]");
  ExpectPrimitive<int32_t>("d:9,2,32", decimal32(9, 2), 123, -1, 0, R"(["1.23", null, "-0.01", "0"])");
  ExpectPrimitive<int64_t>("d:18,2,64", decimal64(18, 2), 123, -1, 0, R"(["1.23", null, "-0.01", "0"])");
  static const char fsb[] = "abcdefghijkl";
  ExpectImports(CArray(4, 1, 0, 2, kValid4, fsb), CSchema("w:3"), fixed_size_binary(3),
                R"(["abc", null, "ghi", "jkl"])");
}

TEST(CDataHandBuilt, WideValues) {
  // decimal128 (default width) and decimal256: little-endian two's complement.
  static const int64_t d128[8] = {123, 0, 0, 0, -1, -1, 7, 0};
  ExpectImports(CArray(4, 1, 0, 2, kValid4, d128), CSchema("d:5,2"), decimal128(5, 2),
                R"(["1.23", null, "-0.01", "0.07"])");
  static const int64_t d256[16] = {5, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0};
  ExpectImports(CArray(4, 1, 0, 2, kValid4, d256), CSchema("d:40,1,256"), decimal256(40, 1),
                R"(["0.5", null, "-0.1", "0"])");
  struct MDN { int32_t m, d; int64_t ns; };
  static const MDN mdn[4] = {{1, 2, 3}, {0, 0, 0}, {-1, -2, -3}, {0, 0, 9}};
  ExpectImports(CArray(4, 1, 0, 2, kValid4, mdn), CSchema("tin"), month_day_nano_interval(),
                "[[1, 2, 3], null, [-1, -2, -3], [0, 0, 9]]");
}

TEST(CDataHandBuilt, BinaryAndViews) {
  static const int32_t off32[5] = {0, 2, 2, 2, 5};
  static const int64_t off64[5] = {0, 2, 2, 2, 5};
  static const char chars[] = "hiabc";
  ExpectImports(CArray(4, 1, 0, 3, kValid4, off32, chars), CSchema("z"), binary(),
                R"(["hi", null, "", "abc"])");
  ExpectImports(CArray(4, 1, 0, 3, kValid4, off32, chars), CSchema("u"), utf8(),
                R"(["hi", null, "", "abc"])");
  ExpectImports(CArray(4, 1, 0, 3, kValid4, off64, chars), CSchema("Z"), large_binary(),
                R"(["hi", null, "", "abc"])");
  ExpectImports(CArray(4, 1, 0, 3, kValid4, off64, chars), CSchema("U"), large_utf8(),
                R"(["hi", null, "", "abc"])");
  // Sliced: offset 1 over the same buffers.
  ExpectImports(CArray(3, 1, 1, 3, kValid4, off32, chars), CSchema("u"), utf8(),
                R"([null, "", "abc"])");
  // Empty, with null offsets and data pointers (allowed for length 0).
  ExpectImports(CArray(0, 0, 0, 3), CSchema("u"), utf8(), "[]");

  static const char long_data[] = "a string well over twelve bytes";
  static int32_t views[16];
  memset(views, 0, sizeof(views));
  views[0] = 3;
  memcpy(&views[1], "abc", 3);
  views[8] = 31;  // slot 2: out of line in data buffer 0 at offset 0
  memcpy(&views[9], long_data, 4);
  views[10] = 0;
  views[11] = 0;
  views[12] = 0;  // slot 3: empty
  static const int64_t sizes[1] = {31};
  ExpectImports(CArray(4, 1, 0, 4, kValid4, views, long_data, sizes), CSchema("vu"), utf8_view(),
                R"(["abc", null, "a string well over twelve bytes", ""])");
  ExpectImports(CArray(4, 1, 0, 4, kValid4, views, long_data, sizes), CSchema("vz"), binary_view(),
                R"(["abc", null, "a string well over twelve bytes", ""])");
  // No data buffers at all: validity, views, empty sizes buffer.
  static int32_t inline_views[4] = {2, 0x6968, 0, 0};  // "hi"
  ExpectImports(CArray(1, 0, 0, 3, NULL, inline_views, NULL), CSchema("vu"), utf8_view(),
                R"(["hi"])");
}

// ---- empty arrays from other producers ----------------------------------------
// An empty array has no slot to read, and producers leave its buffers as they
// are: the reference exports a binary column read from an IPC file whose
// offsets buffer has no bytes. Nothing of them may be read.

enum class EmptyBuffers {
  kNull,      // null pointers
  kZeroSize,  // malloc(0): ASan reports any read
  kGarbage,   // bytes that would make any offset read fail validation
};

// The buffers an empty array's producer hands over; freed after the test.
class EmptyProducer {
 public:
  explicit EmptyProducer(EmptyBuffers how) : how_(how) {}
  ~EmptyProducer() {
    for (void* p : allocations_) free(p);
  }
  const void* Buffer() {
    static const uint8_t kGarbage[64] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                         0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f};
    if (how_ == EmptyBuffers::kNull) return NULL;
    if (how_ == EmptyBuffers::kGarbage) return kGarbage;
    void* p = malloc(0);
    allocations_.push_back(p);
    return p;
  }

  // An empty array of `format` (length 0 at `offset`), its children empty too.
  struct ArrowArray Array(const std::string& format, int64_t offset = 0) {
    int64_t n_buffers = 2;
    if (format == "z" || format == "u" || format == "Z" || format == "U" || format == "vz" ||
        format == "vu" || format == "+vl" || format == "+vL") {
      n_buffers = 3;  // views: validity, views and the (empty) sizes of no data buffer
    } else if (format == "+s" || format.rfind("+w", 0) == 0) {
      n_buffers = 1;
    }
    struct ArrowArray a = CArray(0, 0, offset, n_buffers, Buffer(), Buffer(), Buffer());
    return a;
  }

 private:
  EmptyBuffers how_;
  std::vector<void*> allocations_;
};

struct EmptyCase {
  std::string name;
  DataTypePtr type;
  // Builds the schema and the array of the producer.
  std::function<void(EmptyProducer*, struct ArrowSchema*, struct ArrowArray*)> make;
};

std::vector<EmptyCase> EmptyCases() {
  std::vector<EmptyCase> cases;
  const std::pair<const char*, DataTypePtr> leaves[] = {
      {"z", binary()},       {"u", utf8()},       {"Z", large_binary()},
      {"U", large_utf8()},   {"vz", binary_view()}, {"vu", utf8_view()}};
  for (const auto& [format, type] : leaves) {
    const char* f = format;  // a literal: outlives the schema
    cases.push_back({f, type, [f](EmptyProducer* p, struct ArrowSchema* s, struct ArrowArray* a) {
                       *s = CSchema(f);
                       *a = p->Array(f);
                     }});
  }
  const std::pair<const char*, DataTypePtr> lists[] = {
      {"+l", list(int32())},          {"+L", large_list(int32())},
      {"+vl", list_view(int32())},    {"+vL", large_list_view(int32())},
      {"+w:2", fixed_size_list(int32(), 2)}};
  for (const auto& [format, type] : lists) {
    const char* f = format;
    cases.push_back({f, type, [f](EmptyProducer* p, struct ArrowSchema* s, struct ArrowArray* a) {
                       *s = CSchema(f);
                       AddChild(s, CSchema("i", "item"));
                       *a = p->Array(f);
                       AddChild(a, p->Array("i"));
                     }});
  }
  cases.push_back({"+m", map(utf8(), int32()), [](EmptyProducer* p, struct ArrowSchema* s, struct ArrowArray* a) {
                     struct ArrowSchema entries = CSchema("+s", "entries", 0);
                     AddChild(&entries, CSchema("u", "key", 0));
                     AddChild(&entries, CSchema("i", "value"));
                     *s = CSchema("+m");
                     AddChild(s, entries);
                     struct ArrowArray e = p->Array("+s");
                     AddChild(&e, p->Array("u"));
                     AddChild(&e, p->Array("i"));
                     *a = p->Array("+m");
                     AddChild(a, e);
                   }});
  // Each of those nested in a struct and in a list (whose offsets are empty
  // too), the parent at a non-zero offset.
  auto nest = [](const EmptyCase& inner, const char* format, const char* child, int64_t offset,
                 const std::string& name, DataTypePtr type) {
    return EmptyCase{name, std::move(type),
                     [=](EmptyProducer* p, struct ArrowSchema* s, struct ArrowArray* a) {
                       struct ArrowSchema cs;
                       struct ArrowArray ca;
                       inner.make(p, &cs, &ca);
                       cs.name = child;
                       *s = CSchema(format);
                       AddChild(s, cs);
                       *a = p->Array(format, offset);
                       AddChild(a, ca);
                     }};
  };
  const size_t plain = cases.size();
  for (size_t i = 0; i < plain; ++i) {
    const EmptyCase inner = cases[i];
    cases.push_back(nest(inner, "+s", "x", 2, "struct<" + inner.name + ">",
                         struct_({field("x", inner.type)})));
    cases.push_back(nest(inner, "+l", "item", 3, "list<" + inner.name + ">",
                         list(field("item", inner.type))));
  }
  return cases;
}

TEST(CDataHandBuilt, EmptyArraysReadNoBuffer) {
  int checked = 0;
  for (EmptyBuffers how : {EmptyBuffers::kNull, EmptyBuffers::kZeroSize, EmptyBuffers::kGarbage}) {
    for (const EmptyCase& c : EmptyCases()) {
      SCOPED_TRACE(c.name + " with buffers " +
                   (how == EmptyBuffers::kNull ? "null" : how == EmptyBuffers::kZeroSize ? "of 0 bytes" : "of garbage"));
      EmptyProducer producer(how);
      struct ArrowSchema schema;
      struct ArrowArray array;
      c.make(&producer, &schema, &array);
      ValidateOptions full;
      full.full = true;
      auto data = ImportArray(&array, &schema);
      if (!data.ok()) {
        ADD_FAILURE() << data.status();
        continue;
      }
      EXPECT_TRUE((*data)->type->Equals(*c.type)) << (*data)->type->ToString();
      EXPECT_EQ((*data)->length, 0);
      EXPECT_TRUE(ValidateArray(**data, full).ok());
      auto expected = ArrayFromJSON(c.type, "[]");
      ASSERT_NE(expected, nullptr);
      EXPECT_EQ(ArrayDiff(**data, *expected), "");
      // What alkaid exports of it is as complete as strict consumers want:
      // an offsets buffer holds its one zero.
      struct ArrowArray out;
      ASSERT_TRUE(ExportArray(**data, &out).ok());
      EXPECT_EQ(out.offset, 0);
      const auto& spec = (*data)->storage_type().layout().buffers;
      for (size_t b = 0; b < spec.size(); ++b) {
        if (!spec[b].offsets_plus_one) continue;
        ASSERT_NE(out.buffers[b], nullptr);
        int64_t first = -1;
        std::memcpy(&first, out.buffers[b], static_cast<size_t>(spec[b].byte_width));
        if (spec[b].byte_width == 4) first = static_cast<int32_t>(first);
        EXPECT_EQ(first, 0);
      }
      auto again = ImportArray(&out, c.type);
      ASSERT_TRUE(again.ok()) << again.status();
      EXPECT_EQ(ArrayDiff(**again, *expected), "");
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3 * 36);
}

TEST(CDataHandBuilt, Nested) {
  static const int16_t items[5] = {1, 2, 3, 4, 5};
  static const int32_t off32[5] = {0, 2, 2, 2, 5};
  static const int64_t off64[5] = {0, 2, 2, 2, 5};
  static const int32_t lv_off[4] = {3, 0, 0, 0};
  static const int32_t lv_size[4] = {2, 0, 0, 1};
  static const int64_t lv_off64[4] = {3, 0, 0, 0};
  static const int64_t lv_size64[4] = {2, 0, 0, 1};
  struct Case {
    const char* format;
    const void* b1;
    const void* b2;
    int64_t n_buffers;
    DataTypePtr type;
    const char* json;
  };
  const Case cases[] = {
      {"+l", off32, nullptr, 2, list(int16()), "[[1, 2], null, [], [3, 4, 5]]"},
      {"+L", off64, nullptr, 2, large_list(int16()), "[[1, 2], null, [], [3, 4, 5]]"},
      {"+vl", lv_off, lv_size, 3, list_view(int16()), "[[4, 5], null, [], [1]]"},
      {"+vL", lv_off64, lv_size64, 3, large_list_view(int16()), "[[4, 5], null, [], [1]]"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.format);
    struct ArrowArray a = CArray(4, 1, 0, c.n_buffers, kValid4, c.b1, c.b2);
    AddChild(&a, CArray(5, 0, 0, 2, NULL, items));
    struct ArrowSchema s = CSchema(c.format);
    AddChild(&s, CSchema("s", "item"));
    ExpectImports(a, s, c.type, c.json);
  }
  {
    struct ArrowArray a = CArray(2, 1, 0, 1, kValid4);
    AddChild(&a, CArray(4, 0, 0, 2, NULL, items));
    struct ArrowSchema s = CSchema("+w:2");
    AddChild(&s, CSchema("s", "item"));
    ExpectImports(a, s, fixed_size_list(int16(), 2), "[[1, 2], null]");
  }
  {
    static const int32_t ints[4] = {1, 2, 3, 4};
    struct ArrowArray a = CArray(4, 1, 0, 1, kValid4);
    AddChild(&a, CArray(4, 0, 0, 2, NULL, ints));
    AddChild(&a, CArray(4, 0, 0, 2, NULL, items));
    struct ArrowSchema s = CSchema("+s");
    AddChild(&s, CSchema("i", "a"));
    AddChild(&s, CSchema("s", "b", 0));
    ExpectImports(a, s, struct_({field("a", int32()), field("b", int16(), false)}),
                  R"([{"a": 1, "b": 1}, null, {"a": 3, "b": 3}, {"a": 4, "b": 4}])");
  }
  {
    // map<utf8, int16>: entries struct<key not null, value>.
    static const int32_t map_off[3] = {0, 2, 3};
    static const int32_t key_off[4] = {0, 1, 2, 3};
    struct ArrowArray a = CArray(2, 0, 0, 2, NULL, map_off);
    struct ArrowArray entries = CArray(3, 0, 0, 1, NULL);
    AddChild(&entries, CArray(3, 0, 0, 3, NULL, key_off, "xyz"));
    AddChild(&entries, CArray(3, 0, 0, 2, NULL, items));
    AddChild(&a, entries);
    struct ArrowSchema s = CSchema("+m", "", ARROW_FLAG_NULLABLE | ARROW_FLAG_MAP_KEYS_SORTED);
    struct ArrowSchema es = CSchema("+s", "entries", 0);
    AddChild(&es, CSchema("u", "key", 0));
    AddChild(&es, CSchema("s", "value"));
    AddChild(&s, es);
    ExpectImports(a, s, map(utf8(), int16(), true), R"([[["x", 1], ["y", 2]], [["z", 3]]])");
  }
  {
    static const int8_t type_ids[4] = {4, 8, 4, 8};
    static const int32_t ints[4] = {10, 0, 30, 0};
    static const int32_t str_off[5] = {0, 0, 2, 2, 3};
    struct ArrowArray a = CArray(4, 0, 0, 1, type_ids);
    AddChild(&a, CArray(4, 0, 0, 2, NULL, ints));
    AddChild(&a, CArray(4, 0, 0, 3, NULL, str_off, "abc"));
    struct ArrowSchema s = CSchema("+us:4,8");
    AddChild(&s, CSchema("i", "i"));
    AddChild(&s, CSchema("u", "s"));
    ExpectImports(a, s, sparse_union({field("i", int32()), field("s", utf8())}, {4, 8}),
                  R"([[4, 10], [8, "ab"], [4, 30], [8, "c"]])");
  }
  {
    static const int8_t type_ids[3] = {0, 1, 0};
    static const int32_t offsets[3] = {0, 0, 1};
    static const int32_t ints[2] = {10, 20};
    static const int32_t str_off[2] = {0, 2};
    struct ArrowArray a = CArray(3, 0, 0, 2, type_ids, offsets);
    AddChild(&a, CArray(2, 0, 0, 2, NULL, ints));
    AddChild(&a, CArray(1, 0, 0, 3, NULL, str_off, "ab"));
    struct ArrowSchema s = CSchema("+ud:0,1");
    AddChild(&s, CSchema("i", "i"));
    AddChild(&s, CSchema("u", "s"));
    ExpectImports(a, s, dense_union({field("i", int32()), field("s", utf8())}),
                  R"([[0, 10], [1, "ab"], [0, 20]])");
  }
  {
    static const int32_t run_ends[2] = {2, 5};
    static const int16_t values[2] = {7, 9};
    struct ArrowArray a = CArray(5, 0, 0, 0);
    AddChild(&a, CArray(2, 0, 0, 2, NULL, run_ends));
    AddChild(&a, CArray(2, 0, 0, 2, NULL, values));
    struct ArrowSchema s = CSchema("+r");
    AddChild(&s, CSchema("i", "run_ends", 0));
    AddChild(&s, CSchema("s", "values"));
    ExpectImports(a, s, run_end_encoded(int32(), int16()), "[7, 7, 9, 9, 9]");
  }
  {
    static const int8_t indices[4] = {1, 0, 0, 1};
    static const int32_t off[3] = {0, 1, 3};
    struct ArrowArray a = CArray(4, 1, 0, 2, kValid4, indices);
    a.dictionary = HeapArray(CArray(2, 0, 0, 3, NULL, off, "pqr"));
    struct ArrowSchema s = CSchema("c", "", ARROW_FLAG_NULLABLE | ARROW_FLAG_DICTIONARY_ORDERED);
    s.dictionary = HeapSchema(CSchema("u"));
    ExpectImports(a, s, dictionary(int8(), utf8(), true), R"(["qr", null, "p", "qr"])");
  }
}

TEST(CDataHandBuilt, MisalignedBuffersAreCopied) {
  alignas(8) static uint8_t raw[1 + 4 * 8];
  int64_t v[4] = {1, 2, 3, 4};
  memcpy(raw + 1, v, sizeof(v));
  struct ArrowArray a = CArray(4, 0, 0, 2, NULL, raw + 1);
  int released = 0;
  a.private_data = &released;
  auto data = ImportArray(&a, int64());
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_NE((*data)->buffers[1]->data(), raw + 1);
  EXPECT_EQ(reinterpret_cast<uintptr_t>((*data)->buffers[1]->data()) % 8, 0u);
  EXPECT_TRUE(ArrayEquals(**data, *ArrayFromJSON(int64(), "[1, 2, 3, 4]")));
}

// ---- malformed structs -------------------------------------------------------

void ExpectArrayError(struct ArrowArray a, const DataTypePtr& type, const std::string& what) {
  int released = 0;
  a.private_data = &released;
  auto data = ImportArray(&a, type);
  ASSERT_FALSE(data.ok()) << "expected an error containing: " << what;
  EXPECT_THAT(data.status().message(), HasSubstr(what));
  EXPECT_THAT(data.status().message(), Not(HasSubstr(": : ")));  // context added once
  EXPECT_EQ(released, 1);
  EXPECT_EQ(a.release, nullptr);
}

void ExpectSchemaError(struct ArrowSchema s, const std::string& what) {
  auto type = ImportType(&s);
  ASSERT_FALSE(type.ok()) << "expected an error containing: " << what;
  EXPECT_THAT(type.status().message(), HasSubstr(what));
  EXPECT_THAT(type.status().message(), Not(HasSubstr(": : ")));  // context added once
  EXPECT_EQ(s.release, nullptr);
}

TEST(CDataMalformed, Arrays) {
  static const int32_t ints[4] = {1, 2, 3, 4};
  static const int32_t bad_off[3] = {0, 5, 2};
  ExpectArrayError(CArray(4, 0, 0, 3, NULL, ints), int32(), "n_buffers is 3, the format needs 2");
  ExpectArrayError(CArray(-1, 0, 0, 2, NULL, ints), int32(), "negative length -1");
  ExpectArrayError(CArray(4, 0, -2, 2, NULL, ints), int32(), "negative offset -2");
  ExpectArrayError(CArray(4, -5, 0, 2, NULL, ints), int32(), "null_count -5 is below -1");
  ExpectArrayError(CArray(4, 9, 0, 2, kValid4, ints), int32(), "null_count 9 exceeds length 4");
  ExpectArrayError(CArray(4, 1, 0, 2, NULL, ints), int32(),
                   "validity buffer is null but null_count is 1");
  ExpectArrayError(CArray(4, 0, 0, 2, NULL, NULL), int32(), "buffer 1 is null but must hold 16 bytes");
  ExpectArrayError(CArray(INT64_MAX, 0, 2, 2, NULL, ints), int32(), "offset + length overflows");
  ExpectArrayError(CArray(2, 0, 0, 3, NULL, bad_off, "abcdef"), utf8(), "<root>");
  {
    // A released struct cannot be imported (and is not released again).
    struct ArrowArray a = CArray(4, 0, 0, 2, NULL, ints);
    HandReleaseArray(&a);
    auto data = ImportArray(&a, int32());
    EXPECT_THAT(data.status().message(), HasSubstr("struct is released"));
  }
  {
    // Child count against the type, with the path of the failing child.
    struct ArrowArray a = CArray(4, 0, 0, 1, NULL);
    AddChild(&a, CArray(4, 0, 0, 2, NULL, ints));
    ExpectArrayError(a, struct_({field("x", int32()), field("y", int32())}),
                     "n_children is 1, the format needs 2");
  }
  {
    struct ArrowArray a = CArray(4, 0, 0, 1, NULL);
    AddChild(&a, CArray(4, 0, 0, 2, NULL, NULL));
    ExpectArrayError(a, struct_({field("x", int32())}), "<root>.x");
  }
  {
    struct ArrowArray a = CArray(4, 0, 0, 2, NULL, ints);
    ExpectArrayError(a, dictionary(int32(), utf8()), "dictionary is null");
  }
  {
    struct ArrowArray a = CArray(4, 0, 0, 2, NULL, ints);
    a.dictionary = HeapArray(CArray(1, 0, 0, 2, NULL, ints));
    ExpectArrayError(a, int32(), "dictionary is set for a type that is not dictionary encoded");
  }
  {
    // Dictionary index out of range: caught by full validation.
    struct ArrowArray a = CArray(4, 0, 0, 2, NULL, ints);
    a.dictionary = HeapArray(CArray(1, 0, 0, 2, NULL, ints));
    ExpectArrayError(a, dictionary(int32(), int32()), "<root>");
  }
  {
    // Views: sizes buffer missing and a negative size.
    static int32_t views[4] = {20, 0, 0, 0};
    static const int64_t neg[1] = {-3};
    ExpectArrayError(CArray(1, 0, 0, 2, NULL, views), utf8_view(),
                     "n_buffers is 2, the format needs at least 3");
    ExpectArrayError(CArray(1, 0, 0, 4, NULL, views, "x", neg), utf8_view(),
                     "variadic data buffer 0 has negative size -3");
    static const int64_t small[1] = {4};
    ExpectArrayError(CArray(1, 0, 0, 4, NULL, views, "abcd", small), utf8_view(), "<root>");
  }
  {
    // Invalid UTF-8 is found by full validation, and let through without it.
    static const int32_t off[2] = {0, 1};
    static const char bad[] = "\xff";
    ExpectArrayError(CArray(1, 0, 0, 3, NULL, off, bad), utf8(), "UTF-8");
    struct ArrowArray a = CArray(1, 0, 0, 3, NULL, off, bad);
    ImportOptions trusted;
    trusted.validate_full = false;
    EXPECT_TRUE(ImportArray(&a, utf8(), trusted).ok());
  }
  {
    // Offsets inconsistent with the (structurally checked) data size.
    static const int32_t off[3] = {0, -4, 2};
    ImportOptions trusted;
    trusted.validate_full = false;
    struct ArrowArray a = CArray(2, 0, 0, 3, NULL, off, "ab");
    EXPECT_TRUE(ImportArray(&a, utf8(), trusted).ok());
    ExpectArrayError(CArray(2, 0, 0, 3, NULL, off, "ab"), utf8(), "offset");
  }
  {
    // Device other than the CPU.
    struct ArrowDeviceArray d;
    memset(&d, 0, sizeof(d));
    d.array = CArray(4, 0, 0, 2, NULL, ints);
    int released = 0;
    d.array.private_data = &released;
    d.device_type = ARROW_DEVICE_METAL;
    auto data = ImportDeviceArray(&d, int32());
    EXPECT_TRUE(data.status().IsNotImplemented());
    EXPECT_EQ(released, 1);
  }
  {
    // The caller's type is checked before the struct is read, and the error
    // says that it was the given type that failed.
    DataTypePtr deep = int32();
    for (int i = 0; i < kDefaultMaxRecursionDepth + 1; ++i) deep = list(deep);
    ExpectArrayError(CArray(4, 0, 0, 2, NULL, ints), deep, "type given for import: ");
  }
}

TEST(CDataMalformed, Schemas) {
  ExpectSchemaError(CSchema("Q"), "unknown format string 'Q'");
  ExpectSchemaError(CSchema("+x"), "unknown format string '+x'");
  ExpectSchemaError(CSchema("d:3"), "unknown format string 'd:3'");
  ExpectSchemaError(CSchema("d:3,1,48"), "decimal bit width must be 32, 64, 128 or 256");
  ExpectSchemaError(CSchema("d:99,1,32"), "precision");
  ExpectSchemaError(CSchema("w:x"), "bad number 'x'");
  ExpectSchemaError(CSchema("w:-3"), "");
  ExpectSchemaError(CSchema("tsq:"), "unknown time unit 'q'");
  ExpectSchemaError(CSchema("ttn1"), "unknown format string");
  ExpectSchemaError(CSchema("+us:1,"), "trailing comma");
  ExpectSchemaError(CSchema("+ud:200"), "out of range");
  ExpectSchemaError(CSchema("+l"), "format '+l' needs 1 children, got 0");
  {
    struct ArrowSchema s = CSchema("+s");
    AddChild(&s, CSchema("+l", "outer"));
    ExpectSchemaError(s, "ArrowSchema at <root>.outer: format '+l' needs 1 children");
  }
  {
    struct ArrowSchema s = CSchema("i");
    AddChild(&s, CSchema("i", "child"));
    ExpectSchemaError(s, "format 'i' needs 0 children, got 1");
  }
  {
    struct ArrowSchema s = CSchema("u");
    s.dictionary = HeapSchema(CSchema("u"));
    ExpectSchemaError(s, "dictionary index format 'u' is not an integer type");
  }
  {
    struct ArrowSchema s = CSchema("+r");
    AddChild(&s, CSchema("f", "run_ends"));
    AddChild(&s, CSchema("i", "values"));
    ExpectSchemaError(s, "");
  }
  {
    struct ArrowSchema s = CSchema("i");
    s.n_children = 2;  // but no children array
    ExpectSchemaError(s, "n_children is 2 but children is null");
  }
  {
    // A child handed over already released: refused by position, without
    // reading its name (a released struct's pointers may be dangling; the
    // fuzz target found the path being built from it).
    struct ArrowSchema s = CSchema("+s");
    AddChild(&s, CSchema("i", "a"));
    AddChild(&s, CSchema("i", "stale_name"));
    s.children[1]->release(s.children[1]);
    auto type = ImportType(&s);
    ASSERT_FALSE(type.ok());
    EXPECT_THAT(type.status().message(), HasSubstr("ArrowSchema at <root>.[1]: struct is released"));
    EXPECT_THAT(type.status().message(), Not(HasSubstr("stale_name")));
    EXPECT_EQ(s.release, nullptr);
  }
  {
    struct ArrowSchema s = CSchema("i");
    s.format = NULL;
    ExpectSchemaError(s, "format is null");
  }
  {
    static const int32_t md[3] = {1, -7, 0};
    struct ArrowSchema s = CSchema("i");
    s.metadata = reinterpret_cast<const char*>(md);
    ExpectSchemaError(s, "negative key length -7");
  }
  {
    // A registered extension rejecting its storage.
    std::string md;
    auto put = [&](int32_t n) { md.append(reinterpret_cast<const char*>(&n), 4); };
    put(1);
    put(20);
    md += "ARROW:extension:name";
    put(10);
    md += "arrow.uuid";
    RegisterCanonicalExtensionTypes();
    struct ArrowSchema s = CSchema("i");
    s.metadata = md.data();
    ExpectSchemaError(s, "extension type");
  }
  {
    // Deep nesting is refused, not recursed into without bound.
    struct ArrowSchema s = CSchema("i");
    for (int i = 0; i < 100; ++i) {
      struct ArrowSchema parent = CSchema("+l");
      AddChild(&parent, s);
      s = parent;
    }
    ExpectSchemaError(s, "nested deeper than 64 levels");
  }
}

}  // namespace
}  // namespace alkaid::c_data
