// Shared helpers of the C Data Interface tests.
#pragma once

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/c_data/abi.h"
#include "alkaid/type.h"
#include "src/c_data/format.h"

namespace alkaid::c_data {

struct TypeCase {
  std::string name;
  DataTypePtr type;
  std::string json;  // at least 3 slots, for slicing
};

// One array literal per type alkaid has (every C format string).
inline std::vector<TypeCase> AllTypeCases() {
  std::vector<TypeCase> c;
  auto add = [&](std::string name, DataTypePtr type, std::string json) {
    c.push_back({std::move(name), std::move(type), std::move(json)});
  };
  add("null", null(), "[null, null, null, null]");
  add("bool", boolean(), "[false, true, null, true, false, true, true, false, true, false]");
  add("int8", int8(), "[-1, null, 127, -128]");
  add("uint8", uint8(), "[255, null, 0, 7]");
  add("int16", int16(), "[-300, null, 32767, 5]");
  add("uint16", uint16(), "[65535, null, 0, 9]");
  add("int32", int32(), "[-70000, null, 2147483647, 3]");
  add("uint32", uint32(), "[4294967295, null, 0, 1]");
  add("int64", int64(), "[-5000000000, null, 9223372036854775807, 2]");
  add("uint64", uint64(), "[18446744073709551615, null, 0, 4]");
  add("float16", float16(), "[0.5, null, -4, 2]");
  add("float32", float32(), "[0.25, null, -8.5, 3e20]");
  add("float64", float64(), "[0.125, null, -16.5, 1e200]");
  add("decimal32", decimal32(9, 3), R"(["12.345", null, "-999999.999", "0"])");
  add("decimal64", decimal64(18, 2), R"(["12.34", null, "-9999999999999999.99", "1"])");
  add("decimal128", decimal128(38, 6), R"(["12.345678", null, "-1234567890123.000001", "2"])");
  add("decimal256", decimal256(76, 10), R"(["1.0000000001", null, "-98765432109876543210.5", "3"])");
  add("date32", date32(), "[1, null, 20000, -2]");
  add("date64", date64(), "[86400000, null, 0, -86400000]");
  add("time32_s", time32(TimeUnit::kSecond), "[1, null, 86399, 0]");
  add("time32_ms", time32(TimeUnit::kMilli), "[1, null, 86399999, 0]");
  add("time64_us", time64(TimeUnit::kMicro), "[1, null, 86399999999, 0]");
  add("time64_ns", time64(TimeUnit::kNano), "[1, null, 86399999999999, 0]");
  for (TimeUnit unit : {TimeUnit::kSecond, TimeUnit::kMilli, TimeUnit::kMicro, TimeUnit::kNano}) {
    std::string u = TimeUnitName(unit);
    add("timestamp_" + u, timestamp(unit), "[10, null, 1600000000, -7]");
    add("timestamp_utc_" + u, timestamp(unit, "UTC"), "[10, null, 1600000000, -7]");
    add("timestamp_zone_" + u, timestamp(unit, "America/New_York"), "[10, null, 1600000000, 1]");
    add("duration_" + u, duration(unit), "[10, null, -3600, 99]");
  }
  add("month_interval", month_interval(), "[2, null, -24, 0]");
  add("day_time_interval", day_time_interval(), "[[2, 3], null, [-1, -1], [0, 0]]");
  add("month_day_nano_interval", month_day_nano_interval(), "[[1, 1, 1], null, [-2, 3, -4], [0, 0, 0]]");
  add("fixed_size_binary", fixed_size_binary(4), R"(["abcd", null, "wxyz", "0000"])");
  add("binary", binary(), R"(["xy", null, "", "\u0000z"])");
  add("utf8", utf8(), R"(["ça", null, "", "va"])");
  add("large_binary", large_binary(), R"(["xy", null, "", "q"])");
  add("large_utf8", large_utf8(), R"(["ça", null, "", "va"])");
  add("binary_view", binary_view(), R"(["tiny", null, "this one is longer than twelve", "", "and so is this value here"])");
  add("utf8_view", utf8_view(), R"(["tiny", null, "this one is longer than twelve", "twelve chars"])");
  add("list", list(int16()), "[[1, 2], null, [], [3, null]]");
  add("large_list", large_list(utf8()), R"([["a"], null, [], ["b", "c"]])");
  add("list_view", list_view(int16()), "[[1, 2], null, [], [3, null]]");
  add("large_list_view", large_list_view(int16()), "[[1], null, [], [2, 3]]");
  add("fixed_size_list", fixed_size_list(int32(), 2), "[[1, 2], null, [3, null], [4, 5]]");
  add("struct", struct_({field("a", int32()), field("b", utf8(), false)}),
      R"([{"a": 1, "b": "x"}, null, {"a": null, "b": "y"}, {"a": 4, "b": "z"}])");
  add("map", map(utf8(), int32()), R"([[["k", 1], ["j", null]], null, [], [["z", 2]]])");
  add("map_sorted", map(int16(), utf8(), true), R"([[[1, "a"], [2, null]], null, [], [[3, "c"]]])");
  add("sparse_union", sparse_union({field("i", int32()), field("s", utf8())}, {3, 9}),
      R"([[3, 1], [9, "x"], [3, null], [9, "yy"]])");
  add("dense_union", dense_union({field("i", int32()), field("s", utf8())}, {0, 1}),
      R"([[0, 1], [1, "x"], [0, null], [1, "yy"]])");
  add("dictionary", dictionary(int32(), utf8()), R"(["a", "b", null, "a"])");
  add("dictionary_ordered", dictionary(uint16(), int64(), true), "[5, 6, null, 5]");
  add("dictionary_nested", dictionary(int8(), list(dictionary(int16(), utf8()))),
      R"([["x", "y"], null, ["y"], ["x", "y"]])");
  add("list_of_dictionary", list(dictionary(int8(), utf8())), R"([["p", "q"], null, ["q"], []])");
  add("ree_int16", run_end_encoded(int16(), utf8()), R"(["a", "a", null, "b", "b"])");
  add("ree_int32", run_end_encoded(int32(), int64()), "[1, 1, 1, null, 2]");
  add("ree_int64", run_end_encoded(int64(), float32()), "[1.5, 1.5, null, null, 2]");
  return c;
}

// Counts calls of an ArrowArray's release, forwarding to the original.
struct ReleaseCounter {
  int calls = 0;
  void (*original)(ArrowArray*) = nullptr;
  void* original_private = nullptr;
  void Wrap(ArrowArray* a) {
    original = a->release;
    original_private = a->private_data;
    a->private_data = this;
    a->release = &Trampoline;
  }
  static void Trampoline(ArrowArray* a) {
    auto* self = static_cast<ReleaseCounter*>(a->private_data);
    ++self->calls;
    a->private_data = self->original_private;
    a->release = self->original;
    self->original(a);
  }
};

inline MetadataPtr DecodeForTest(const char* bytes) {
  auto md = DecodeMetadata(bytes);
  EXPECT_TRUE(md.ok()) << md.status();
  return md.ok() && *md ? *md : std::make_shared<KeyValueMetadata>();
}

// Every integration gold file in arrow_file form, sorted.
inline std::vector<std::string> GoldFilePaths(const std::string& root) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  fs::path dir = fs::path(root) / "arrow-testing" / "integration";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (const auto& version : fs::directory_iterator(dir, ec)) {
    if (!version.is_directory()) continue;
    for (const auto& entry : fs::directory_iterator(version.path(), ec)) {
      if (entry.path().extension() == ".arrow_file") out.push_back(entry.path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// "<version>/<case>" of a gold file path.
inline std::string GoldCaseLabel(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p(path);
  return p.parent_path().filename().string() + "/" + p.stem().string();
}

inline std::string GoldCaseName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = GoldCaseLabel(info.param);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

}  // namespace alkaid::c_data
