// Shared by the CSV reader tests: reading text, and comparing columns.
#pragma once

#include <gtest/gtest.h>

#include <string_view>

#include "alkaid/csv/api.h"
#include "src/text/text_test_helpers.h"

namespace alkaid::csv::test {

// `text` read with `options`; a failed read fails the test (and is null).
inline TablePtr Read(std::string_view text, const ReadOptions& options = {}) {
  return ::alkaid::testing::ExpectTable(ReadString(text, options), text);
}

// The error of reading `text`; a read that succeeds fails the test.
inline Status ReadError(std::string_view text, const ReadOptions& options = {}) {
  return ::alkaid::testing::ExpectError(ReadString(text, options), text);
}

// The single combined column i of a table.
inline ArrayDataPtr Col(const TablePtr& t, int i) {
  auto r = t->column(i)->Combine();
  EXPECT_TRUE(r.ok());
  return *r;
}

// Column i of `t` has type `type` and the values of `json`.
inline void ExpectColumn(const TablePtr& t, int i, const DataTypePtr& type,
                         std::string_view json) {
  ASSERT_NE(t, nullptr);
  ASSERT_LT(i, t->num_columns());
  EXPECT_TRUE(t->schema()->field(i)->type()->Equals(type))
      << "column " << i << " is " << t->schema()->field(i)->type()->ToString() << ", expected "
      << type->ToString();
  auto expected = ::alkaid::testing::ArrayFromJSON(type, json);
  auto got = Col(t, i);
  EXPECT_TRUE(MakeArray(got)->Equals(*MakeArray(expected)))
      << "got " << MakeArray(got)->ToString() << "\nexpected " << MakeArray(expected)->ToString();
}

}  // namespace alkaid::csv::test
