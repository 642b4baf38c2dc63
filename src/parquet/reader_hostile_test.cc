// Untrusted files: each check of the reader has a file that fails it, with an error that
// says where; random damage to valid files gives errors or valid tables, never a crash (run
// under the asan preset too).
#include <gtest/gtest.h>

#include <random>

#include "src/parquet/reader_test_file.h"
#include "src/parquet/reader_test_util.h"

namespace alkaid::parquet {
namespace {

using testing::Leaf;
using testing::Plain;
using testing::PlainStrings;
using testing::Root;
using testing::TestChunk;
using testing::TestFileBuilder;
using testing::TestPage;
using R = Repetition;

Status ReadAll(const std::string& bytes, ReaderOptions options = {}) {
  ALKAID_ASSIGN_OR_RAISE(auto reader, FileReader::Open(Buffer::FromString(bytes), options));
  ALKAID_ASSIGN_OR_RAISE(auto table, reader->ReadTable());
  return table->ValidateFull();
}

void ExpectError(const std::string& bytes, StatusCode code, const std::string& text,
                 ReaderOptions options = {}) {
  Status st = ReadAll(bytes, options);
  ASSERT_FALSE(st.ok()) << "accepted";
  EXPECT_EQ(st.code(), code) << st.ToString();
  EXPECT_NE(st.message().find(text), std::string::npos) << st.ToString();
}

TestFileBuilder Simple() {
  TestFileBuilder b;
  LogicalType str;
  str.kind = LogicalType::Kind::kString;
  b.schema = {Root(2), Leaf("x", PhysicalType::kInt64, R::kOptional),
              Leaf("s", PhysicalType::kByteArray, R::kRequired, str)};
  b.row_groups = {{TestChunk{{}, {TestPage{3, {}, {1, 0, 1}, Plain(std::vector<int64_t>{4, 5})}}},
                   TestChunk{{}, {TestPage{3, {}, {}, PlainStrings({"a", "b", "c"})}}}}};
  b.rows = {3};
  return b;
}

TEST(ParquetHostile, TheSimpleFileIsValid) { ASSERT_OK(ReadAll(Simple().Build())); }

TEST(ParquetHostile, FooterAndMagic) {
  std::string good = Simple().Build();
  ExpectError("PAR1", StatusCode::kInvalid, "too small");
  ExpectError(good.substr(0, good.size() - 1), StatusCode::kInvalid, "not a Parquet file");
  std::string encrypted = good;
  encrypted.replace(encrypted.size() - 4, 4, "PARE");
  ExpectError(encrypted, StatusCode::kNotImplemented, "encrypted Parquet files are not supported");
  std::string long_footer = good;
  uint32_t huge = 0x7fffffff;
  std::memcpy(long_footer.data() + long_footer.size() - 8, &huge, 4);
  ExpectError(long_footer, StatusCode::kInvalid, "footer length 2147483647 exceeds");
  std::string no_head = good;
  no_head[0] = 'X';
  ExpectError(no_head, StatusCode::kInvalid, "no PAR1 magic at its start");
  // A footer cut short: the Thrift decoder names where.
  std::string cut = good;
  uint32_t len;
  std::memcpy(&len, cut.data() + cut.size() - 8, 4);
  uint32_t shorter = len - 5;
  cut.erase(cut.size() - 8 - 5, 5);
  std::memcpy(cut.data() + cut.size() - 8, &shorter, 4);
  ExpectError(cut, StatusCode::kInvalid, "footer");
  TestFileBuilder plaintext = Simple();
  plaintext.edit_footer = [](format::FileMetaData* md) {
    md->encryption_algorithm.emplace();
    md->encryption_algorithm->AES_GCM_V1.emplace();
  };
  ExpectError(plaintext.Build(), StatusCode::kNotImplemented, "encrypted");
}

TEST(ParquetHostile, SchemaTrees) {
  TestFileBuilder b = Simple();
  b.schema[0].num_children = 5;  // more children than elements
  ExpectError(b.Build(), StatusCode::kInvalid, "declares 5 children but only 2 elements follow");
  // 10,000 nested groups.
  TestFileBuilder deep = Simple();
  deep.schema.clear();
  deep.schema.push_back(Root(1));
  for (int i = 0; i < 10000; ++i) {
    deep.schema.push_back(testing::Group("g" + std::to_string(i), 1, R::kOptional));
  }
  deep.schema.push_back(Leaf("x", PhysicalType::kInt64, R::kOptional));
  deep.row_groups.clear();
  deep.rows.clear();
  // The builder cannot lay out such a schema; encode the footer by hand.
  format::FileMetaData md;
  md.version = 1;
  md.schema = deep.schema;
  std::string footer;
  thrift::SerializeThrift(md, &footer);
  uint32_t n = static_cast<uint32_t>(footer.size());
  std::string file = "PAR1" + footer + testing::PlainBytes(&n, 4) + "PAR1";
  ExpectError(file, StatusCode::kInvalid, "nested deeper than");
  TestFileBuilder leafless = Simple();
  leafless.schema[1].type.reset();
  ExpectError(leafless.Build(), StatusCode::kInvalid, "leaf without a physical type");
  TestFileBuilder flba = Simple();
  flba.schema[1].type = static_cast<int32_t>(PhysicalType::kFixedLenByteArray);
  flba.schema[1].type_length = -4;
  ExpectError(flba.Build(), StatusCode::kInvalid, "type_length -4");
  TestFileBuilder annotated = Simple();
  LogicalType date;
  date.kind = LogicalType::Kind::kDate;
  internal::SetAnnotation(date, &annotated.schema[1]);  // DATE on INT64
  ExpectError(annotated.Build(), StatusCode::kTypeError, "cannot annotate INT64");
}

TEST(ParquetHostile, ColumnChunkRanges) {
  TestFileBuilder outside = Simple();
  outside.edit_footer = [](format::FileMetaData* md) {
    md->row_groups[0].columns[1].meta_data->data_page_offset = 1 << 30;
  };
  ExpectError(outside.Build(), StatusCode::kInvalid, "row group 0, column s: column chunk");
  TestFileBuilder into_footer = Simple();
  into_footer.edit_footer = [](format::FileMetaData* md) {
    md->row_groups[0].columns[1].meta_data->total_compressed_size += 20;
  };
  ExpectError(into_footer.Build(), StatusCode::kInvalid, "where the footer starts");
  TestFileBuilder columns = Simple();
  columns.edit_footer = [](format::FileMetaData* md) { md->row_groups[0].columns.pop_back(); };
  ExpectError(columns.Build(), StatusCode::kInvalid, "has 1 column chunks, the schema 2");
  TestFileBuilder rows = Simple();
  rows.edit_footer = [](format::FileMetaData* md) { md->row_groups[0].num_rows = 4; };
  ExpectError(rows.Build(), StatusCode::kInvalid, "the row group states 4");
  TestFileBuilder type = Simple();
  type.edit_footer = [](format::FileMetaData* md) {
    md->row_groups[0].columns[0].meta_data->type = static_cast<int32_t>(PhysicalType::kInt32);
  };
  ExpectError(type.Build(), StatusCode::kInvalid, "differs from the schema's INT64");
}

TEST(ParquetHostile, PageHeaders) {
  TestFileBuilder huge = Simple();
  huge.edit_page = [](int, int c, int, format::PageHeader* h) {
    if (c == 0) h->compressed_page_size = 0x7fffffff;
  };
  ExpectError(huge.Build(), StatusCode::kInvalid, "page 0 (byte 4 of the file): page claims");
  // A compressed page claiming to decompress to 2 GiB: refused by the budget before
  // anything is allocated.
  TestFileBuilder bomb = Simple();
  bomb.row_groups[0][0].codec = Compression::kSnappy;
  bomb.edit_page = [](int, int c, int, format::PageHeader* h) {
    if (c == 0) h->uncompressed_page_size = 0x7fffffff;
  };
  ExpectError(bomb.Build(), StatusCode::kOutOfMemory, "memory_budget");
  TestFileBuilder negative = Simple();
  negative.edit_page = [](int, int c, int, format::PageHeader* h) {
    if (c == 1) h->data_page_header->num_values = -1;
  };
  ExpectError(negative.Build(), StatusCode::kInvalid, "negative value count");
  TestFileBuilder crc = Simple();
  crc.row_groups[0][1].write_crc = true;
  crc.edit_page = [](int, int c, int, format::PageHeader* h) {
    if (c == 1) *h->crc ^= 1;
  };
  ExpectError(crc.Build(), StatusCode::kInvalid, "CRC mismatch");
  ReaderOptions no_crc;
  no_crc.verify_checksums = false;
  EXPECT_TRUE(ReadAll(crc.Build(), no_crc).ok());
  TestFileBuilder v2 = Simple();
  v2.row_groups[0][0].pages[0].v2 = true;
  v2.edit_page = [](int, int c, int, format::PageHeader* h) {
    if (c == 0) h->data_page_header_v2->definition_levels_byte_length = 1000;
  };
  ExpectError(v2.Build(), StatusCode::kInvalid, "level lengths of the v2 page exceed the page");
  TestFileBuilder garbage = Simple();
  garbage.edit_page = [](int, int c, int, format::PageHeader* h) {
    if (c == 1) h->type = static_cast<format::PageType>(9);  // skipped as unknown...
  };
  // ...so the chunk ends without its values.
  ExpectError(garbage.Build(), StatusCode::kInvalid, "ends after 0 of its 3 values");
}

TEST(ParquetHostile, LevelsAndValuesDisagree) {
  // More level entries than the levels encode.
  TestFileBuilder more = Simple();
  more.edit_page = [](int, int c, int, format::PageHeader* h) {
    if (c == 0) h->data_page_header->num_values = 300;
  };
  more.edit_footer = [](format::FileMetaData* md) {
    md->row_groups[0].columns[0].meta_data->num_values = 300;
  };
  ExpectError(more.Build(), StatusCode::kInvalid, "definition levels");
  // Levels promise three values, the page holds two.
  TestFileBuilder fewer = Simple();
  fewer.row_groups[0][0].pages[0].def = {1, 1, 1};
  ExpectError(fewer.Build(), StatusCode::kInvalid, "row group 0, column x, page 0");
  // A record that starts in the middle (repetition level 1 first).
  TestFileBuilder list;
  list.schema = {Root(1), Leaf("r", PhysicalType::kInt32, R::kRepeated)};
  list.row_groups = {{TestChunk{{}, {TestPage{2, {1, 0}, {1, 1},
                                              Plain(std::vector<int32_t>{1, 2})}}}}};
  list.rows = {1};
  ExpectError(list.Build(), StatusCode::kInvalid, "starts in the middle of a record");
  // A dictionary index past the dictionary.
  TestFileBuilder dict;
  LogicalType str;
  str.kind = LogicalType::Kind::kString;
  dict.schema = {Root(1), Leaf("s", PhysicalType::kByteArray, R::kRequired, str)};
  TestChunk chunk;
  chunk.dictionary = TestPage{2, {}, {}, PlainStrings({"a", "b"})};
  // Bit width 2, one RLE run of 2 values of index 3.
  chunk.pages.push_back(TestPage{2, {}, {}, std::string("\x02\x04\x03", 3), Encoding::kRleDictionary});
  dict.row_groups = {{chunk}};
  dict.rows = {2};
  ExpectError(dict.Build(), StatusCode::kInvalid, "row group 0, column s, page 1");
  ReaderOptions keep;
  keep.read_dictionary = {"s"};
  ExpectError(dict.Build(), StatusCode::kInvalid, "row group 0, column s, page 1", keep);
  // A data page without the dictionary it refers to.
  TestFileBuilder nodict = dict;
  nodict.row_groups[0][0].dictionary.reset();
  ExpectError(nodict.Build(), StatusCode::kInvalid, "without a dictionary page");
  // Invalid UTF-8 in a string column.
  TestFileBuilder utf8 = Simple();
  utf8.row_groups[0][1].pages[0].values = PlainStrings({"a", "\xc3", "\xa9"});
  ExpectError(utf8.Build(), StatusCode::kInvalid, "UTF-8");
}

TEST(ParquetHostile, MemoryBudget) {
  ReaderOptions tight;
  tight.memory_budget = 16;
  ExpectError(Simple().Build(), StatusCode::kOutOfMemory, "memory_budget", tight);
}

// Every single-byte change and every truncation of a small valid file with nested columns:
// an error or a valid table, never a crash, hang or sanitizer report.
TEST(ParquetHostile, EveryByteDamaged) {
  TestFileBuilder b;
  LogicalType str;
  str.kind = LogicalType::Kind::kString;
  b.schema = {Root(2), testing::Group("l", 1, R::kOptional, LogicalType::Kind::kList),
              testing::Group("list", 1, R::kRepeated),
              Leaf("element", PhysicalType::kInt32, R::kOptional),
              Leaf("s", PhysicalType::kByteArray, R::kOptional, str)};
  TestChunk l{{}, {TestPage{5, {0, 1, 0, 0, 1}, {3, 2, 0, 3, 3},
                            Plain(std::vector<int32_t>{1, 2, 3})}}};
  l.codec = Compression::kSnappy;
  TestChunk s;
  s.dictionary = TestPage{2, {}, {}, PlainStrings({"ab", "cd"})};
  s.pages.push_back(TestPage{3, {}, {1, 0, 1}, std::string("\x01\x03\x02", 3),
                             Encoding::kRleDictionary});
  s.pages.back().v2 = true;
  b.row_groups = {{l, s}};
  b.rows = {3};
  const std::string good = b.Build();
  ASSERT_OK(ReadAll(good));
  int accepted = 0;
  for (size_t i = 0; i < good.size(); ++i) {
    for (int delta : {1, 0x80, 0xff}) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] + delta);
      accepted += ReadAll(bad).ok();
    }
    accepted += ReadAll(good.substr(0, i)).ok();
  }
  EXPECT_LT(accepted, static_cast<int>(good.size()) * 4);
}

TEST(ParquetHostile, RandomDamageOfGoldFiles) {
  std::string dir = testing::ParquetDataDir();
  if (dir.empty()) GTEST_SKIP() << "SKIPPED: parquet-testing not found (ALKAID_TEST_DATA)";
  std::mt19937 rng(7);
  for (const char* name : {"alltypes_plain.parquet", "nested_lists.snappy.parquet",
                           "nested_maps.snappy.parquet", "delta_byte_array.parquet",
                           "datapage_v2_empty_datapage.snappy.parquet",
                           "byte_stream_split.zstd.parquet", "nullable.impala.parquet"}) {
    auto file = io::MemoryMappedFile::Open(dir + "/" + name);
    ASSERT_TRUE(file.ok());
    ASSERT_OK_AND_ASSIGN(int64_t size, (*file)->GetSize());
    ASSERT_OK_AND_ASSIGN(auto bytes, (*file)->ReadAt(0, size));
    const std::string good(bytes->view());
    for (int round = 0; round < 300; ++round) {
      std::string bad = good;
      int flips = 1 + static_cast<int>(rng() % 8);
      for (int k = 0; k < flips; ++k) bad[rng() % bad.size()] = static_cast<char>(rng());
      (void)ReadAll(bad);
    }
  }
}

}  // namespace
}  // namespace alkaid::parquet
