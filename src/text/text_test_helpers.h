// Test helpers shared by the CSV and JSON Lines tests.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "alkaid/ipc/reader.h"
#include "alkaid/table.h"
#include "test_util/array_from_json.h"
#include "test_util/test_data.h"

namespace alkaid::testing {

// The lines of `text` without their line feeds (the text after the last
// line feed, maybe empty, is the last line), and back.
inline std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t p = 0;
  while (p <= text.size()) {
    size_t e = text.find('\n', p);
    if (e == std::string::npos) e = text.size();
    lines.push_back(text.substr(p, e - p));
    p = e + 1;
  }
  return lines;
}
inline std::string JoinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += lines[i] + (i + 1 < lines.size() ? "\n" : "");
  return out;
}

// Reads `reader` to its end: how many batches and rows it gave (-1 batches
// after a failure, which is reported).
struct BatchCount {
  int64_t batches = 0;
  int64_t rows = 0;
};
inline BatchCount CountBatches(RecordBatchReader& reader) {
  BatchCount count;
  while (true) {
    auto batch = reader.Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok()) return {-1, count.rows};
    if (*batch == nullptr) return count;
    ++count.batches;
    count.rows += (*batch)->num_rows();
  }
}

// Column by column, so a failure names the column; NaNs compare equal.
inline void ExpectTablesEqual(const Table& got, const Table& want) {
  ASSERT_EQ(got.num_columns(), want.num_columns());
  EXPECT_EQ(got.num_rows(), want.num_rows());
  EXPECT_TRUE(got.schema()->Equals(*want.schema()))
      << got.schema()->ToString() << "\nvs\n" << want.schema()->ToString();
  for (int i = 0; i < got.num_columns(); ++i) {
    EXPECT_TRUE(got.column(i)->Equals(*want.column(i), EqualOptions::Defaults().with_nans_equal()))
        << "column " << i << " (" << want.schema()->field(i)->ToString() << ")\ngot "
        << got.column(i)->ToString() << "\nwant " << want.column(i)->ToString();
  }
}

inline TablePtr ExpectTable(Result<TablePtr> r, std::string_view input) {
  EXPECT_TRUE(r.ok()) << r.status().ToString() << "\ninput: " << input.substr(0, 200);
  return r.ok() ? *r : nullptr;
}

inline Status ExpectError(Result<TablePtr> r, std::string_view input) {
  EXPECT_FALSE(r.ok()) << "expected an error for: " << input.substr(0, 200);
  return r.status();
}

// One batch from per-column JSON literals.
inline TablePtr MakeTable(const SchemaPtr& schema, const std::vector<std::string>& json) {
  ArrayDataVector cols;
  for (int i = 0; i < schema->num_fields(); ++i) {
    cols.push_back(ArrayFromJSON(schema->field(i)->type(), json[static_cast<size_t>(i)]));
  }
  int64_t n = cols.empty() ? 0 : cols[0]->length;
  return *Table::FromRecordBatches(schema, {RecordBatch::Make(schema, n, cols)});
}

// The columns of a gold integration file that `keep` accepts, renamed c<i>
// so names are unique. Null when the gold files are absent.
inline TablePtr GoldColumns(const std::string& name, const std::function<bool(const DataType&)>& keep) {
  std::string dir = TestDataDir();
  if (dir.empty()) return nullptr;
  auto reader =
      ipc::FileReader::OpenMapped(dir + "/arrow-testing/integration/1.0.0-littleendian/" + name);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return nullptr;
  auto table = (*reader)->ToTable();
  EXPECT_TRUE(table.ok());
  if (!table.ok()) return nullptr;
  FieldVector fields;
  std::vector<ChunkedArrayPtr> cols;
  for (int i = 0; i < (*table)->num_columns(); ++i) {
    if (!keep(*(*table)->schema()->field(i)->type())) continue;
    fields.push_back((*table)->schema()->field(i)->WithName("c" + std::to_string(i)));
    cols.push_back((*table)->column(i));
  }
  EXPECT_FALSE(cols.empty());
  return std::make_shared<Table>(schema(fields), cols, (*table)->num_rows());
}

// The gold round trip of a text format: `table` written by `write` (table -> Result<string>)
// and read back by `read` (text, options -> Result<TablePtr>) under the table's own schema, in
// small blocks on two threads, must equal it.
template <typename ReadOptions, typename Write, typename Read>
void ExpectTextRoundTrip(const Table& table, Write write, Read read) {
  Result<std::string> text = write(table);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  ReadOptions o;
  o.schema = table.schema();
  o.block_size = 4096;
  o.num_threads = 2;
  Result<TablePtr> back = read(*text, o);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ExpectTablesEqual(**back, table);
}

}  // namespace alkaid::testing
