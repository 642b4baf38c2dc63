// What hostile JSON Lines text may cost: sparse lines over a wide schema
// (each left-out key is a null), wide objects with their keys out of schema
// order, and size hints carried from one block to the next. Each case runs
// through every tier of the reader: the line scanner, the On-Demand path
// (scanner off) and the DOM path (a field name the faster tiers do not take).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>

#include "alkaid/jsonl/api.h"
#include "alkaid/io/input.h"
#include "alkaid/memory.h"
#include "src/text/text_test_helpers.h"

namespace alkaid::jsonl {
namespace {

using ::testing::HasSubstr;

enum class Tier { kScanner, kOnDemand, kDom };

const char* TierName(Tier t) {
  return t == Tier::kScanner ? "scanner" : t == Tier::kOnDemand ? "on_demand" : "dom";
}

// The name of field i: the DOM tier alone reads names holding a backslash.
std::string Key(Tier tier, int i) {
  return (tier == Tier::kDom ? "k\\\\" : "k") + std::to_string(i);
}

// One object with keys [from, to) (step +1 or -1), each with value 1.
std::string Object(Tier tier, int from, int to) {
  std::string s = "{";
  const int step = from <= to ? 1 : -1;
  for (int i = from; i != to; i += step) {
    if (s.size() > 1) s += ',';
    s += '"' + Key(tier, i) + "\":1";
  }
  return s + "}";
}

Result<TablePtr> ReadIn(Tier tier, const std::string& text, ReadOptions options) {
  if (tier == Tier::kOnDemand) ::setenv("ALKAID_JSONL_SCANNER", "0", 1);
  auto table = ReadString(text, options);
  ::unsetenv("ALKAID_JSONL_SCANNER");
  return table;
}

class JsonlLimits : public ::testing::TestWithParam<Tier> {
 protected:
  // `text` on one thread, its columns from `pool_` (whose peak the tests
  // check), on this test's tier.
  Result<TablePtr> ReadCounted(const std::string& text, ReadOptions options = {}) {
    options.pool = &pool_;
    options.num_threads = 1;
    return ReadIn(GetParam(), text, options);
  }
  SystemMemoryPool pool_;
};

// A line naming 2,000 fields, then 100,000 lines of "{}": 300 KB of text
// that would be 100,001 rows x 2,000 int64 columns (1.6 GB).
TEST_P(JsonlLimits, SparseLinesOverAWideSchemaAreRefusedWithinTheAllowance) {
  std::string text = Object(GetParam(), 0, 2000) + "\n";
  for (int i = 0; i < 100000; ++i) text += "{}\n";
  auto table = ReadCounted(text);
  ASSERT_FALSE(table.ok());
  EXPECT_TRUE(table.status().IsInvalid()) << table.status().ToString();
  // The allowance is max(4 Mi, 16 x the text's bytes) nulls, 2,000 a line
  // after the first: the line that would go beyond it is named.
  const int64_t allowance = std::max<int64_t>(4 << 20, 16 * static_cast<int64_t>(text.size()));
  EXPECT_THAT(table.status().message(),
              HasSubstr("JSON Lines line " + std::to_string(2 + allowance / 2000) +
                        ": left-out keys need more than the " + std::to_string(allowance) +
                        " nulls"));
  EXPECT_THAT(table.status().message(), HasSubstr("missing_nulls_per_byte"));
  // 4.9 M nulls of 8 bytes and their bits, and the slots reserved for the
  // rows that could still come: far from the 1.6 GB of the whole table.
  EXPECT_LT(pool_.max_memory(), 96 << 20);
}

// The same inside a list: elements "{}" of a struct of 1,000 fields.
TEST_P(JsonlLimits, SparseElementsAreCountedToo) {
  std::string text = "{\"a\":[" + Object(GetParam(), 0, 1000) + "]}\n{\"a\":[{}";
  for (int i = 0; i < 100000; ++i) text += ",{}";
  text += "]}\n";
  auto table = ReadCounted(text);
  ASSERT_FALSE(table.ok());
  EXPECT_THAT(table.status().message(), HasSubstr("JSON Lines line 2: field a["));
  EXPECT_THAT(table.status().message(), HasSubstr("left-out keys need more than"));
  EXPECT_LT(pool_.max_memory(), 96 << 20);
}

// Within the allowance, sparse input reads; without a limit (0 per byte),
// as much as the pool allows.
TEST_P(JsonlLimits, SparseInputWithinTheAllowanceReads) {
  // 500 fields, each line holding 5 of them: about 8 nulls per byte.
  std::string text = Object(GetParam(), 0, 500) + "\n";
  for (int i = 0; i < 20000; ++i) {
    const int from = (i * 5) % 500;
    text += Object(GetParam(), from, from + 5) + "\n";
  }
  ReadOptions options;
  options.num_threads = 1;
  auto table = ReadIn(GetParam(), text, options);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ((*table)->num_rows(), 20001);
  EXPECT_EQ((*table)->num_columns(), 500);

  std::string dense_head = Object(GetParam(), 0, 2000) + "\n";
  std::string sparse = dense_head;
  for (int i = 0; i < 3000; ++i) sparse += "{}\n";
  options.missing_nulls_floor = 0;
  options.missing_nulls_per_byte = 1;
  EXPECT_FALSE(ReadIn(GetParam(), sparse, options).ok());
  options.missing_nulls_per_byte = 0;
  auto unlimited = ReadIn(GetParam(), sparse, options);
  ASSERT_TRUE(unlimited.ok()) << unlimited.status().ToString();
  EXPECT_EQ((*unlimited)->num_rows(), 3001);
  EXPECT_EQ((*unlimited)->column(1999)->null_count(), 3000);

  options.missing_nulls_per_byte = -1;
  EXPECT_TRUE(ReadIn(GetParam(), sparse, options).status().IsInvalid());
}

// Keys in reverse schema order in objects of 20,000 fields: a scan of the
// names per key would be 2 x 10^9 compares; hashed, it costs about what
// keys in order do.
TEST_P(JsonlLimits, WideObjectsWithKeysOutOfOrderReadInLinearTime) {
  constexpr int kFields = 20000;
  const std::string head = Object(GetParam(), 0, kFields) + "\n";
  std::string forward = head, backward = head;
  for (int i = 0; i < 10; ++i) {
    forward += Object(GetParam(), 0, kFields) + "\n";
    backward += Object(GetParam(), kFields - 1, -1) + "\n";
  }
  ReadOptions options;
  options.num_threads = 1;
  auto seconds = [&](const std::string& text) {
    const auto start = std::chrono::steady_clock::now();
    auto table = ReadIn(GetParam(), text, options);
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    if (table.ok()) {
      EXPECT_EQ((*table)->column(kFields - 1)->null_count(), 0);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const double in_order = seconds(forward);
  const double reversed = seconds(backward);
  EXPECT_LT(reversed, 3 * in_order + 0.25) << "in order " << in_order << " s";
}

// One line of 30,000 list elements filling the first block, then short
// lines: the next block's reservations must not scale the long line's
// element count by the short lines' count (about 10^9 elements).
TEST_P(JsonlLimits, ShortLinesAfterALongLineReserveWhatTheirBlockHolds) {
  constexpr int64_t kBlock = 64 << 10;
  std::string text = "{\"" + Key(GetParam(), 0) + "\":[1";
  while (static_cast<int64_t>(text.size()) < kBlock - 8) text += ",1";
  text += "]}\n";
  for (int i = 0; i < 60000; ++i) text += "{\"" + Key(GetParam(), 0) + "\":[]}\n";
  ReadOptions options;
  options.block_size = kBlock;
  auto table = ReadCounted(text, options);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ((*table)->num_rows(), 60001);
  EXPECT_LT(pool_.max_memory(), 32 << 20);
}

INSTANTIATE_TEST_SUITE_P(Tiers, JsonlLimits,
                         ::testing::Values(Tier::kScanner, Tier::kOnDemand, Tier::kDom),
                         [](const ::testing::TestParamInfo<Tier>& info) {
                           return std::string(TierName(info.param));
                         });


// Each field of an inferred schema (nested ones too) is a column of every
// batch, about a kilobyte however few its rows: the keys a sample names are
// capped by max_columns, counted as they are met.
TEST(JsonlWidth, InferredSchemaIsCappedByMaxColumns) {
  std::string wide = Object(Tier::kScanner, 0, 100'001) + "\n";  // one over the default
  SystemMemoryPool pool;
  ReadOptions o;
  o.pool = &pool;
  o.num_threads = 1;
  auto refused = ReadString(wide, o);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.status().IsInvalid());
  EXPECT_THAT(refused.status().message(),
              HasSubstr("JSON Lines line 1: the keys of the lines so far name more fields "
                        "(nested ones included), more than max_columns (100000)"));
  EXPECT_LT(pool.max_memory(), 32 << 20);

  // Nested fields count: 3 keys over two lines, each an object of 2 keys.
  const std::string nested =
      "{\"a\":{\"x\":1,\"y\":2}}\n{\"b\":{\"x\":1},\"c\":{\"x\":[{\"z\":1}]}}\n";
  o.max_columns = 8;  // a, a.x, a.y, b, b.x, c, c.x, its items, c.x[].z: 9
  auto nine = ReadString(nested, o);
  ASSERT_FALSE(nine.ok());
  EXPECT_THAT(nine.status().message(), HasSubstr("JSON Lines line 2: "));
  o.max_columns = 9;
  ASSERT_TRUE(ReadString(nested, o).ok());

  o.max_columns = 0;
  auto all = ReadString(wide, o);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ((*all)->num_columns(), 100'001);

  // A given schema is the caller's word on the width.
  FieldVector fields;
  for (int i = 0; i < 20; ++i) fields.push_back(field(Key(Tier::kScanner, i), int64()));
  o.schema = schema(fields);
  o.max_columns = 10;
  auto given = ReadString(Object(Tier::kScanner, 0, 20) + "\n", o);
  ASSERT_TRUE(given.ok()) << given.status().ToString();
  EXPECT_EQ((*given)->num_columns(), 20);

  o.max_columns = -1;
  EXPECT_FALSE(ReadString(nested, o).ok());
}

// A schema of more than 16,384 fields: blocks hold at least 64 bytes a field,
// so batches are not a handful of lines each.
TEST(JsonlWidth, WideSchemaIsReadInBlocksOfEnoughLines) {
  constexpr int kFields = 20'000;
  constexpr int kLines = 150;  // 3 M nulls: within the allowance's floor
  FieldVector fields;
  for (int i = 0; i < kFields; ++i) fields.push_back(field(Key(Tier::kScanner, i), int64()));
  std::string text;
  for (int i = 0; i < kLines; ++i) text += Object(Tier::kScanner, 0, 1) + "\n";
  for (int width : {kFields, 100}) {
    ReadOptions o;
    o.schema = schema(FieldVector(fields.begin(), fields.begin() + width));
    o.block_size = 64;  // a few lines a block as given
    o.num_threads = 1;
    auto reader = *MakeReader(std::make_shared<io::BufferReader>(Buffer::FromString(text)), o);
    auto [batches, rows] = ::alkaid::testing::CountBatches(*reader);
    EXPECT_EQ(rows, kLines);
    if (width == kFields) {
      EXPECT_LE(batches, 2);  // the first block as given, then one of 1.28 MB
    } else {
      EXPECT_GE(batches, 20);
    }
  }
}

}  // namespace
}  // namespace alkaid::jsonl
