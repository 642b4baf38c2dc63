// The file writer through alkaid's own reader: every Arrow type Parquet holds comes back
// equal (the ARROW:schema key restores the exact types) under every layout setting —
// codecs, page versions, dictionary with fallback, the value encodings, small pages and
// row groups, threads; the footer's facts (row groups, encodings, statistics, page index,
// key-value metadata, created_by); and the API's errors and atomic file writes.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/compare.h"
#include "alkaid/integration_json/array_from_json.h"
#include "alkaid/io/output.h"
#include "alkaid/parquet/reader.h"
#include "alkaid/parquet/writer.h"
#include "alkaid/version.h"
#include "src/parquet/parquet_test_util.h"
#include "src/parquet/writer/writer_test_util.h"
#include "test_util/temp_path.h"

namespace alkaid::parquet {
namespace {

namespace fs = std::filesystem;

// Writes `table` to memory and reads it back whole.
Result<std::shared_ptr<Table>> RoundTrip(const Table& table, const WriterProperties& props,
                                         std::unique_ptr<FileReader>* reader_out = nullptr) {
  ALKAID_ASSIGN_OR_RAISE(BufferPtr file, WriteTableToBuffer(table, props));
  ALKAID_ASSIGN_OR_RAISE(auto reader, FileReader::Open(file));
  ALKAID_ASSIGN_OR_RAISE(auto back, reader->ReadTable());
  ALKAID_RETURN_NOT_OK(back->ValidateFull());
  if (reader_out != nullptr) *reader_out = std::move(reader);
  return back;
}

struct Layout {
  const char* name;
  void (*apply)(WriterProperties*);
};

const Layout kLayouts[] = {
    {"Defaults", [](WriterProperties*) {}},
    {"Uncompressed", [](WriterProperties* p) { p->compression = Compression::kUncompressed; }},
    {"GzipV2", [](WriterProperties* p) {
       p->compression = Compression::kGzip;
       p->data_page_version = DataPageVersion::kV2;
     }},
    {"ZstdV2Checksums", [](WriterProperties* p) {
       p->compression = Compression::kZstd;
       p->data_page_version = DataPageVersion::kV2;
       p->page_checksums = true;
     }},
    {"Lz4Raw", [](WriterProperties* p) { p->compression = Compression::kLz4Raw; }},
    {"Brotli", [](WriterProperties* p) { p->compression = Compression::kBrotli; }},
    {"Lz4Hadoop", [](WriterProperties* p) { p->compression = Compression::kLz4; }},
    {"PlainOnly", [](WriterProperties* p) { p->dictionary = false; }},
    {"DictionaryFallback", [](WriterProperties* p) { p->dictionary_page_size_limit = 64; }},
    {"Delta", [](WriterProperties* p) {
       p->dictionary = false;
       p->encoding = Encoding::kDeltaBinaryPacked;
       p->columns["str"].encoding = Encoding::kDeltaByteArray;
       p->columns["large_str"].encoding = Encoding::kDeltaLengthByteArray;
       p->columns["bin"].encoding = Encoding::kDeltaLengthByteArray;
       p->columns["fsb"].encoding = Encoding::kDeltaByteArray;
       p->columns["list_list"].encoding = Encoding::kDeltaBinaryPacked;
     }},
    {"ByteStreamSplit", [](WriterProperties* p) {
       p->dictionary = false;
       p->encoding = Encoding::kByteStreamSplit;
       p->columns["bool"].encoding = Encoding::kRle;
     }},
    {"TinyPagesAndGroups", [](WriterProperties* p) {
       p->data_page_size = 256;
       p->data_page_row_limit = 37;
       p->max_row_group_rows = 333;
     }},
    {"ThreadsV2", [](WriterProperties* p) {
       p->use_threads = true;
       p->data_page_version = DataPageVersion::kV2;
       p->max_row_group_rows = 500;
     }},
    {"NoStatisticsNoIndex", [](WriterProperties* p) {
       p->statistics = false;
       p->page_index = false;
     }},
};

class ParquetWriteRoundTrip : public ::testing::TestWithParam<Layout> {};

TEST_P(ParquetWriteRoundTrip, EveryTypeComesBackEqual) {
  FieldVector fields = testing::WritableFields();
  auto batch = testing::RandomBatch(fields, 1500, 11);
  ASSERT_NE(batch, nullptr);
  ASSERT_OK_AND_ASSIGN(auto table, Table::FromRecordBatches({batch}));
  WriterProperties props;
  GetParam().apply(&props);
  std::unique_ptr<FileReader> reader;
  ASSERT_OK_AND_ASSIGN(auto back, RoundTrip(*table, props, &reader));
  testing::ExpectTablesEqual(*table, *back);
  const int64_t groups = (table->num_rows() + props.max_row_group_rows - 1) / props.max_row_group_rows;
  EXPECT_EQ(reader->num_row_groups(), groups);
}

TEST_P(ParquetWriteRoundTrip, SlicedBatchesAndManyChunks) {
  FieldVector fields = testing::WritableFields();
  auto batch = testing::RandomBatch(fields, 900, 23, 0.4);
  ASSERT_NE(batch, nullptr);
  // Chunks at odd offsets: every column's offset is non-zero and its bitmaps unaligned.
  std::vector<RecordBatchPtr> pieces;
  for (int64_t at = 3; at < batch->num_rows(); at += 211) {
    pieces.push_back(batch->Slice(at, std::min<int64_t>(211, batch->num_rows() - at)));
  }
  ASSERT_OK_AND_ASSIGN(auto table, Table::FromRecordBatches(batch->schema(), pieces));
  WriterProperties props;
  GetParam().apply(&props);
  ASSERT_OK_AND_ASSIGN(auto back, RoundTrip(*table, props));
  testing::ExpectTablesEqual(*table, *back);
}

INSTANTIATE_TEST_SUITE_P(Layouts, ParquetWriteRoundTrip, ::testing::ValuesIn(kLayouts),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ParquetWriter, EmptyTableAndZeroRowBatches) {
  FieldVector fields = {field("a", int32()), field("l", list(utf8()))};
  auto batch = testing::RandomBatch(fields, 0, 1);
  ASSERT_OK_AND_ASSIGN(auto table, Table::FromRecordBatches(schema(fields), {batch}));
  std::unique_ptr<FileReader> reader;
  ASSERT_OK_AND_ASSIGN(auto back, RoundTrip(*table, {}, &reader));
  EXPECT_EQ(back->num_rows(), 0);
  EXPECT_EQ(reader->num_row_groups(), 0);
  EXPECT_TRUE(back->schema()->Equals(*table->schema()));
}

TEST(ParquetWriter, RowGroupsFollowLimitsAndNewRowGroup) {
  FieldVector fields = {field("a", int64()), field("s", utf8())};
  auto batch = testing::RandomBatch(fields, 1000, 3);
  io::BufferOutputStream sink;
  WriterProperties props;
  props.max_row_group_rows = 400;
  ASSERT_OK_AND_ASSIGN(auto writer, FileWriter::Open(&sink, batch->schema(), props));
  ASSERT_OK(writer->WriteRecordBatch(*batch->Slice(0, 100)));
  ASSERT_OK(writer->NewRowGroup());  // 100
  ASSERT_OK(writer->NewRowGroup());  // nothing open: no empty group
  ASSERT_OK(writer->WriteRecordBatch(*batch->Slice(100, 900)));  // 400, 400, 100
  EXPECT_EQ(writer->num_rows(), 1000);
  EXPECT_EQ(writer->num_row_groups(), 3);
  ASSERT_OK(writer->Close());
  ASSERT_OK(writer->Close());  // a second Close does nothing
  EXPECT_EQ(writer->num_row_groups(), 4);
  EXPECT_FALSE(writer->WriteRecordBatch(*batch).ok());
  ASSERT_OK_AND_ASSIGN(auto file, sink.Finish());
  ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(file));
  ASSERT_EQ(reader->num_row_groups(), 4);
  const int64_t expect_rows[] = {100, 400, 400, 100};
  for (int g = 0; g < 4; ++g) {
    EXPECT_EQ(reader->metadata().row_group(g).num_rows(), expect_rows[g]);
    EXPECT_EQ(reader->metadata().row_group(g).ordinal(), g);
  }
  ASSERT_OK_AND_ASSIGN(auto back, reader->ReadTable());
  ASSERT_OK_AND_ASSIGN(auto table, Table::FromRecordBatches({batch}));
  testing::ExpectTablesEqual(*table, *back);
}

TEST(ParquetWriter, RowGroupByteLimit) {
  FieldVector fields = {field("s", utf8())};
  auto batch = testing::RandomBatch(fields, 4000, 5);
  ASSERT_OK_AND_ASSIGN(auto table, Table::FromRecordBatches({batch}));
  WriterProperties props;
  props.dictionary = false;
  props.compression = Compression::kUncompressed;
  props.data_page_size = 1024;
  props.max_row_group_bytes = 8 * 1024;
  std::unique_ptr<FileReader> reader;
  // Batches of 100 rows: the limit is looked at after each.
  io::BufferOutputStream sink;
  ASSERT_OK_AND_ASSIGN(auto writer, FileWriter::Open(&sink, table->schema(), props));
  for (int64_t at = 0; at < 4000; at += 100) ASSERT_OK(writer->WriteRecordBatch(*batch->Slice(at, 100)));
  ASSERT_OK(writer->Close());
  ASSERT_OK_AND_ASSIGN(auto file, sink.Finish());
  ASSERT_OK_AND_ASSIGN(reader, FileReader::Open(file));
  EXPECT_GT(reader->num_row_groups(), 3);
  for (int g = 0; g < reader->num_row_groups(); ++g) {
    EXPECT_LT(reader->metadata().row_group(g).total_compressed_size(), 8 * 1024 + 4096);
  }
  ASSERT_OK_AND_ASSIGN(auto back, reader->ReadTable());
  testing::ExpectTablesEqual(*table, *back);
}

TEST(ParquetWriter, FooterFacts) {
  FieldVector fields = {field("id", int64(), false), field("name", utf8()),
                        field("score", float64())};
  auto batch = testing::RandomBatch(fields, 3000, 9);
  auto meta = KeyValueMetadata::Make({{"origin", "test"}});
  auto with_meta = batch->schema()->WithMetadata(meta);
  ASSERT_OK_AND_ASSIGN(auto table,
                       Table::FromRecordBatches(
                           {RecordBatch::Make(with_meta, batch->num_rows(), batch->columns())}));
  WriterProperties props;
  props.key_value_metadata = KeyValueMetadata::Make({{"writer.note", "hello"}});
  props.max_row_group_rows = 1000;
  props.columns["name"].dictionary = false;
  props.columns["score"].statistics = false;
  props.columns["id"].compression = Compression::kUncompressed;
  std::unique_ptr<FileReader> reader;
  ASSERT_OK_AND_ASSIGN(auto back, RoundTrip(*table, props, &reader));
  const FileMetaData& md = reader->metadata();
  EXPECT_EQ(md.created_by(), std::string("alkaid version ") + Version());
  EXPECT_EQ(md.num_rows(), 3000);
  EXPECT_EQ(md.num_row_groups(), 3);
  ASSERT_NE(md.key_value_metadata(), nullptr);
  EXPECT_EQ(md.key_value_metadata()->Get("origin").ValueOr(""), "test");
  EXPECT_EQ(md.key_value_metadata()->Get("writer.note").ValueOr(""), "hello");
  EXPECT_TRUE(md.key_value_metadata()->Get("ARROW:schema").ok());
  // The schema's own metadata comes back on the read schema.
  ASSERT_NE(back->schema()->metadata(), nullptr);
  EXPECT_EQ(back->schema()->metadata()->Get("origin").ValueOr(""), "test");

  for (int g = 0; g < 3; ++g) {
    auto group = md.row_group(g);
    auto id = group.column(0);
    EXPECT_EQ(id.compression(), Compression::kUncompressed);
    EXPECT_EQ(group.column(1).compression(), Compression::kSnappy);
    // Dictionary for id (and its RLE_DICTIONARY pages); plain strings for name.
    auto has = [](const std::vector<Encoding>& list, Encoding e) {
      return std::find(list.begin(), list.end(), e) != list.end();
    };
    EXPECT_TRUE(has(id.encodings(), Encoding::kRleDictionary));
    EXPECT_TRUE(id.dictionary_page_offset().has_value());
    EXPECT_FALSE(has(group.column(1).encodings(), Encoding::kRleDictionary));
    EXPECT_FALSE(group.column(1).dictionary_page_offset().has_value());
    EXPECT_FALSE(id.encoding_stats().empty());
    // Statistics: id's bounds are the row group's own min and max.
    ASSERT_TRUE(id.has_statistics());
    Statistics stats = id.statistics();
    ASSERT_TRUE(stats.has_min_max());
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    const auto* values = batch->column_data(0)->GetValues<int64_t>(1);
    for (int64_t i = g * 1000; i < (g + 1) * 1000; ++i) {
      lo = std::min(lo, values[i]);
      hi = std::max(hi, values[i]);
    }
    int64_t got_lo, got_hi;
    ASSERT_EQ(stats.min->size(), 8u);
    std::memcpy(&got_lo, stats.min->data(), 8);
    std::memcpy(&got_hi, stats.max->data(), 8);
    EXPECT_EQ(got_lo, lo);
    EXPECT_EQ(got_hi, hi);
    EXPECT_EQ(stats.null_count, 0);
    EXPECT_GT(group.column(1).statistics().null_count.value_or(0), 0);
    EXPECT_FALSE(group.column(2).has_statistics());
    // Page index for every chunk, after the row groups.
    for (int c = 0; c < 3; ++c) {
      auto chunk = group.column(c);
      ASSERT_TRUE(chunk.offset_index_offset().has_value()) << c;
      // No statistics, no ColumnIndex (it holds the pages' bounds).
      ASSERT_EQ(chunk.column_index_offset().has_value(), c != 2) << c;
      EXPECT_GT(*chunk.offset_index_offset(), md.row_group(2).column(2).data_page_offset());
      EXPECT_GT(*chunk.offset_index_length(), 0);
    }
  }
  testing::ExpectTablesEqual(*table, *back);
}

TEST(ParquetWriter, StatisticsFollowEachColumnsOrder) {
  // Unsigned integers order above every signed value; NaN does not count; strings bytewise.
  auto u = integration_json::ArrayFromJSONString(uint32(), "[1, 4000000000, null, 7]").ValueOrDie();
  auto f = integration_json::ArrayFromJSONString(float64(), R"([1.5, "NaN", -2.0, null])").ValueOrDie();
  auto s = integration_json::ArrayFromJSONString(utf8(), R"(["b", "\u00e9", "a", null])").ValueOrDie();
  auto sch = schema({field("u", uint32()), field("f", float64()), field("s", utf8())});
  ASSERT_OK_AND_ASSIGN(auto table,
                       Table::FromRecordBatches({RecordBatch::Make(sch, 4, {u, f, s})}));
  std::unique_ptr<FileReader> reader;
  ASSERT_OK_AND_ASSIGN(auto back, RoundTrip(*table, {}, &reader));
  auto group = reader->metadata().row_group(0);
  auto text = [&](int c, const std::string& bytes) {
    return FormatStatisticsValue(group.column(c).descriptor(), bytes);
  };
  Statistics su = group.column(0).statistics();
  ASSERT_TRUE(su.has_min_max());
  EXPECT_EQ(text(0, *su.min), "1");
  EXPECT_EQ(text(0, *su.max), "4000000000");
  EXPECT_EQ(su.null_count, 1);
  Statistics sf = group.column(1).statistics();
  ASSERT_TRUE(sf.has_min_max());
  EXPECT_EQ(text(1, *sf.min), "-2");
  EXPECT_EQ(text(1, *sf.max), "1.5");
  Statistics ss = group.column(2).statistics();
  ASSERT_TRUE(ss.has_min_max());
  EXPECT_EQ(*ss.min, "a");
  EXPECT_EQ(*ss.max, "\xc3\xa9");
  testing::ExpectTablesEqual(*table, *back);
}

TEST(ParquetWriter, Errors) {
  // Unions have no Parquet form; the error names the field.
  auto union_schema =
      schema({field("ok", int32()), field("u", sparse_union({field("a", int32())}, {0}))});
  io::BufferOutputStream sink;
  auto opened = FileWriter::Open(&sink, union_schema, {});
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.status().code(), StatusCode::kNotImplemented);
  EXPECT_NE(opened.status().message().find("u"), std::string::npos) << opened.status();

  // Bad properties name the setting.
  WriterProperties bad;
  bad.max_row_group_rows = 0;
  auto bad_open = FileWriter::Open(&sink, schema({field("a", int32())}), bad);
  ASSERT_FALSE(bad_open.ok());
  EXPECT_NE(bad_open.status().message().find("max_row_group_rows"), std::string::npos);
  WriterProperties bad_encoding;
  bad_encoding.columns["a"].encoding = Encoding::kDeltaByteArray;
  EXPECT_FALSE(FileWriter::Open(&sink, schema({field("a", int32())}), bad_encoding).ok());

  // A null in a non-nullable field, and a batch of another schema.
  auto sch = schema({field("a", int32(), false)});
  io::BufferOutputStream sink2;
  ASSERT_OK_AND_ASSIGN(auto writer, FileWriter::Open(&sink2, sch, {}));
  auto nulls = integration_json::ArrayFromJSONString(int32(), "[1, null]").ValueOrDie();
  Status st = writer->WriteRecordBatch(*RecordBatch::Make(sch, 2, {nulls}));
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("a"), std::string::npos) << st;
  io::BufferOutputStream sink3;
  ASSERT_OK_AND_ASSIGN(auto writer3, FileWriter::Open(&sink3, sch, {}));
  auto other = schema({field("a", int64(), false)});
  auto longs = integration_json::ArrayFromJSONString(int64(), "[1, 2]").ValueOrDie();
  st = writer3->WriteRecordBatch(*RecordBatch::Make(other, 2, {longs}));
  EXPECT_EQ(st.code(), StatusCode::kTypeError) << st;
}

TEST(ParquetWriter, WriteTableReplacesTheFileOnlyOnSuccess) {
  fs::path dir = fs::path(alkaid::testing::ProcessTempPath("pqw_atomic"));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "t.parquet").string();
  {
    std::ofstream old(path);
    old << "old contents";
  }
  FieldVector fields = {field("a", int32(), false)};
  auto good = testing::RandomBatch(fields, 10, 1);
  ASSERT_OK_AND_ASSIGN(auto table, Table::FromRecordBatches({good}));

  // A failing write (a null in a non-nullable column) leaves the old file and no other.
  auto nulls = integration_json::ArrayFromJSONString(int32(), "[1, null]").ValueOrDie();
  ASSERT_OK_AND_ASSIGN(auto bad_table, Table::FromRecordBatches(
                                           {RecordBatch::Make(schema(fields), 2, {nulls})}));
  EXPECT_FALSE(WriteTable(*bad_table, path).ok());
  std::ifstream in(path);
  std::string contents((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(contents, "old contents");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);

  ASSERT_OK(WriteTable(*table, path));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  ASSERT_OK_AND_ASSIGN(auto back, ReadTable(path));
  testing::ExpectTablesEqual(*table, *back);

  // A directory that does not exist: an error naming the path, nothing written.
  Status st = WriteTable(*table, (dir / "missing" / "t.parquet").string());
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("missing"), std::string::npos) << st;
  fs::remove_all(dir);
}

// The fuzz target's check (fuzz/fuzz_parquet_roundtrip.cc) on fixed pseudo-random inputs:
// every combination of columns, settings and data it can pick comes back equal.
TEST(ParquetWriter, FuzzRoundTripReplay) {
  std::mt19937_64 rng(2026);
  int written = 0;
  for (int i = 0; i < 300; ++i) {
    std::vector<uint8_t> input(16 + rng() % 16);
    for (auto& b : input) b = static_cast<uint8_t>(rng());
    input[8] = static_cast<uint8_t>(rng() % 200);  // mostly small batches: quick
    input[9] = 0;
    std::string difference = testing::RoundTripOnce(input.data(), input.size());
    EXPECT_EQ(difference, "") << "input " << i;
    if (difference.empty()) ++written;
  }
  EXPECT_EQ(written, 300);
  // Short inputs ask for nothing.
  const uint8_t tiny[3] = {1, 2, 3};
  EXPECT_EQ(testing::RoundTripOnce(tiny, sizeof(tiny)), "");
}

}  // namespace
}  // namespace alkaid::parquet
