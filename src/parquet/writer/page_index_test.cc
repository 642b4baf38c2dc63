// The page index the writer emits, read back through our thrift codec and checked against
// the pages themselves: OffsetIndex locations (offset, size including the page header,
// first row) that tile the chunk's data pages, and ColumnIndex entries (null pages, min and
// max per page, null counts, boundary order) equal to what the values of each page give.
// (DuckDB exposes no page index through SQL, so there is no cross-check against it.)
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/integration_json/array_from_json.h"
#include "alkaid/parquet/reader.h"
#include "alkaid/parquet/writer.h"
#include "src/parquet/parquet_test_util.h"
#include "src/parquet/thrift/parquet_types.h"
#include "src/parquet/thrift/thrift.h"

namespace alkaid::parquet {
namespace {

constexpr int64_t kRows = 130;

// Column "asc": int64 equal to the row, nulls at rows 3 and 57 and on rows 40..49 (a whole
// page with 10-row pages). Column "desc": strings counting down. Column "mixed": doubles in
// no order.
std::shared_ptr<Table> MakeTable() {
  std::string asc = "[", desc = "[", mixed = "[";
  for (int64_t i = 0; i < kRows; ++i) {
    const char* sep = i == 0 ? "" : ", ";
    const bool null = i == 3 || i == 57 || (i >= 40 && i < 50);
    asc += sep + (null ? std::string("null") : std::to_string(i));
    char text[16];
    std::snprintf(text, sizeof(text), "\"v%04d\"", static_cast<int>(1000 - i));
    desc += sep + std::string(i % 11 == 5 ? "null" : text);
    mixed += sep + std::to_string((i * 7919) % 101) + ".5";
  }
  FieldVector fields = {field("asc", int64()), field("desc", utf8()),
                        field("mixed", float64(), false)};
  ArrayDataVector columns = {
      integration_json::ArrayFromJSONString(int64(), asc + "]").ValueOrDie(),
      integration_json::ArrayFromJSONString(utf8(), desc + "]").ValueOrDie(),
      integration_json::ArrayFromJSONString(float64(), mixed + "]").ValueOrDie()};
  auto batch = RecordBatch::Make(schema(fields), kRows, std::move(columns));
  return Table::FromRecordBatches({batch}).ValueOrDie();
}

// The statistics bytes of slot i of a flat column (as the page index stores them).
std::string ValueBytes(const ArrayData& column, int64_t i) {
  if (column.type->id() == TypeId::kString) {
    const int32_t* offsets = column.GetValues<int32_t>(1);
    return std::string(reinterpret_cast<const char*>(column.buffers[2]->data()) + offsets[i],
                       static_cast<size_t>(offsets[i + 1] - offsets[i]));
  }
  return std::string(reinterpret_cast<const char*>(column.GetValues<uint8_t>(1)) + i * 8, 8);
}

// a < b in the column's order.
bool Less(const ArrayData& column, int64_t a, int64_t b) {
  switch (column.type->id()) {
    case TypeId::kInt64: return column.GetValues<int64_t>(1)[a] < column.GetValues<int64_t>(1)[b];
    case TypeId::kDouble: return column.GetValues<double>(1)[a] < column.GetValues<double>(1)[b];
    default: return ValueBytes(column, a) < ValueBytes(column, b);
  }
}

struct PageFacts {
  int64_t nulls = 0;
  std::optional<int64_t> min, max;  // slots of the smallest and largest value
};

void CheckChunk(const BufferPtr& file, const RowGroupMetaData& group, int c,
                const ArrayData& column, int64_t first_row, int* null_pages_seen) {
  SCOPED_TRACE("column " + std::to_string(c));
  const ColumnChunkMetaData chunk = group.column(c);
  ASSERT_TRUE(chunk.offset_index_offset().has_value());
  ASSERT_TRUE(chunk.column_index_offset().has_value());
  ASSERT_OK_AND_ASSIGN(auto offsets, thrift::DeserializeThrift<format::OffsetIndex>(
                                         file->data() + *chunk.offset_index_offset(),
                                         static_cast<size_t>(*chunk.offset_index_length())));
  ASSERT_OK_AND_ASSIGN(auto index, thrift::DeserializeThrift<format::ColumnIndex>(
                                       file->data() + *chunk.column_index_offset(),
                                       static_cast<size_t>(*chunk.column_index_length())));
  const auto& pages = offsets.page_locations;
  ASSERT_GE(pages.size(), 3u);
  // The locations tile the data pages: from the first data page (after any dictionary page)
  // to the end of the chunk, each size covering its header and body.
  EXPECT_EQ(pages.front().offset, chunk.data_page_offset());
  EXPECT_EQ(pages.back().offset + pages.back().compressed_page_size,
            chunk.start_offset() + chunk.total_compressed_size());
  EXPECT_EQ(pages.front().first_row_index, 0);
  std::vector<int64_t> page_rows;
  for (size_t k = 0; k < pages.size(); ++k) {
    SCOPED_TRACE("page " + std::to_string(k));
    const format::PageLocation& at = pages[k];
    format::PageHeader header;
    size_t header_size = 0;
    ASSERT_OK(thrift::DeserializeThrift(file->data() + at.offset,
                                        static_cast<size_t>(at.compressed_page_size), &header,
                                        &header_size));
    EXPECT_EQ(static_cast<int64_t>(header_size) + header.compressed_page_size,
              at.compressed_page_size);
    int64_t rows = 0;
    if (header.type == format::PageType::kDataPage) {
      rows = header.data_page_header->num_values;  // flat column: one value per row
    } else {
      ASSERT_EQ(header.type, format::PageType::kDataPageV2);
      rows = header.data_page_header_v2->num_rows;
    }
    page_rows.push_back(rows);
    if (k + 1 < pages.size()) {
      EXPECT_EQ(pages[k + 1].offset, at.offset + at.compressed_page_size);
      EXPECT_EQ(pages[k + 1].first_row_index, at.first_row_index + rows);
    } else {
      EXPECT_EQ(at.first_row_index + rows, group.num_rows());
    }
  }
  // What each page's values give.
  std::vector<PageFacts> facts(pages.size());
  for (size_t k = 0; k < pages.size(); ++k) {
    const int64_t begin = first_row + pages[k].first_row_index;
    for (int64_t i = begin; i < begin + page_rows[k]; ++i) {
      PageFacts& f = facts[k];
      if (column.IsNull(i)) {
        ++f.nulls;
        continue;
      }
      if (!f.min || Less(column, i, *f.min)) f.min = i;
      if (!f.max || Less(column, *f.max, i)) f.max = i;
    }
  }
  ASSERT_EQ(index.null_pages.size(), pages.size());
  ASSERT_EQ(index.min_values.size(), pages.size());
  ASSERT_EQ(index.max_values.size(), pages.size());
  ASSERT_TRUE(index.null_counts.has_value());
  ASSERT_EQ(index.null_counts->size(), pages.size());
  for (size_t k = 0; k < pages.size(); ++k) {
    SCOPED_TRACE("page " + std::to_string(k));
    const PageFacts& f = facts[k];
    EXPECT_EQ((*index.null_counts)[k], f.nulls);
    EXPECT_EQ(index.null_pages[k], !f.min.has_value());
    if (!f.min) {
      ++*null_pages_seen;
      EXPECT_EQ(index.min_values[k], "");  // a null page's bounds are empty
      EXPECT_EQ(index.max_values[k], "");
      continue;
    }
    EXPECT_EQ(index.min_values[k], ValueBytes(column, *f.min));
    EXPECT_EQ(index.max_values[k], ValueBytes(column, *f.max));
  }
  // Boundary order over the pages that have values.
  bool ascending = true, descending = true;
  std::optional<size_t> previous;
  for (size_t k = 0; k < pages.size(); ++k) {
    if (!facts[k].min) continue;
    if (previous) {
      const PageFacts& p = facts[*previous];
      const PageFacts& f = facts[k];
      if (Less(column, *f.min, *p.min) || Less(column, *f.max, *p.max)) ascending = false;
      if (Less(column, *p.min, *f.min) || Less(column, *p.max, *f.max)) descending = false;
    }
    previous = k;
  }
  const format::BoundaryOrder expected = ascending    ? format::BoundaryOrder::kAscending
                                         : descending ? format::BoundaryOrder::kDescending
                                                      : format::BoundaryOrder::kUnordered;
  EXPECT_EQ(index.boundary_order, expected);
  // The three columns are built to have one order each.
  const format::BoundaryOrder designed[] = {format::BoundaryOrder::kAscending,
                                            format::BoundaryOrder::kDescending,
                                            format::BoundaryOrder::kUnordered};
  EXPECT_EQ(index.boundary_order, designed[c]);
}

TEST(ParquetPageIndex, MatchesThePagesItIndexes) {
  auto table = MakeTable();
  for (auto version : {DataPageVersion::kV1, DataPageVersion::kV2}) {
    for (bool dictionary : {false, true}) {
      SCOPED_TRACE(std::string(version == DataPageVersion::kV1 ? "v1" : "v2") +
                   (dictionary ? " dictionary" : " plain"));
      WriterProperties props;
      props.data_page_version = version;
      props.dictionary = dictionary;
      props.data_page_row_limit = 10;
      props.max_row_group_rows = 70;
      ASSERT_OK_AND_ASSIGN(BufferPtr file, WriteTableToBuffer(*table, props));
      ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(file));
      const FileMetaData& md = reader->metadata();
      ASSERT_EQ(md.num_row_groups(), 2);
      int null_pages = 0;
      int64_t first_row = 0;
      for (int g = 0; g < md.num_row_groups(); ++g) {
        SCOPED_TRACE("row group " + std::to_string(g));
        const RowGroupMetaData group = md.row_group(g);
        for (int c = 0; c < 3; ++c) {
          auto column = table->column(c)->chunk(0);
          CheckChunk(file, group, c, *column->data(), first_row, &null_pages);
        }
        first_row += group.num_rows();
      }
      EXPECT_EQ(null_pages, 1);  // rows 40..49 of "asc"
    }
  }
}

}  // namespace
}  // namespace alkaid::parquet
