// JSON Lines reading of halffloat, dictionary and run-end encoded columns
// (read as their values, then encoded), nested ones included.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "alkaid/jsonl/api.h"
#include "src/text/text_test_helpers.h"

namespace alkaid::jsonl {
namespace {

using ::alkaid::testing::ExpectTablesEqual;
using ::alkaid::testing::MakeTable;
using ::testing::HasSubstr;

TEST(JsonlTypes, HalfFloatDictionaryRunEndRoundTrip) {
  auto s = schema({
      field("half", float16()),
      field("dict", dictionary(int16(), utf8())),
      field("ree", run_end_encoded(int64(), int32())),
      field("nested", struct_({field("tags", list(dictionary(int8(), large_utf8()))),
                               field("r", run_end_encoded(int32(), boolean()))})),
  });
  auto t = MakeTable(s, {"[1.5, null, -65504, 0.5]", R"(["a", null, "b", "a"])", "[7, 7, null, 8]",
                         R"([{"tags": ["x", "y", "x"], "r": true}, null,
                             {"tags": null, "r": null}, {"tags": [], "r": true}])"});
  auto text = WriteToString(*t);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  ReadOptions o;
  o.schema = s;
  for (int threads : {1, 2}) {
    o.num_threads = threads;
    o.block_size = threads == 1 ? 1 << 20 : 64;
    auto back = ReadString(*text, o);
    ASSERT_TRUE(back.ok()) << back.status().ToString() << "\n" << *text;
    ExpectTablesEqual(**back, *t);
  }
}

TEST(JsonlTypes, HalfFloatOutOfRangeIsAnError) {
  ReadOptions o;
  o.schema = schema({field("h", float16())});
  auto r = ReadString("{\"h\": 1}\n{\"h\": 1e6}\n", o);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("line 2"));
  EXPECT_THAT(r.status().message(), HasSubstr("halffloat"));
}

TEST(JsonlTypes, DictionaryOverflowSaysWhichField) {
  ReadOptions o;
  o.schema = schema({field("d", dictionary(int8(), int64()))});
  std::string text;
  for (int i = 0; i < 200; ++i) text += "{\"d\": " + std::to_string(i) + "}\n";
  auto r = ReadString(text, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCapacityError) << r.status().ToString();
  EXPECT_THAT(r.status().message(), HasSubstr("field d"));
}

}  // namespace
}  // namespace alkaid::jsonl
