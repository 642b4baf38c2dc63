// FileReader as a user calls it, on files built page by page (reader_test_file.h): flat and
// nested columns, projection, row-group selection and statistics skipping, dictionary
// reads, binary layouts, batch reader, threads, ARROW:schema restoration, metadata.
#include <gtest/gtest.h>

#include "alkaid/ipc/writer.h"
#include "src/parquet/reader_test_file.h"
#include "src/parquet/reader_test_util.h"
#include "src/parquet/schema/arrow_schema_key.h"

namespace alkaid::parquet {
namespace {

using testing::CanonicalRows;
using testing::Leaf;
using testing::Plain;
using testing::PlainStrings;
using testing::Root;
using testing::TestChunk;
using testing::TestFileBuilder;
using testing::TestPage;
using R = Repetition;

std::string Hex(const std::string& s) {
  return testing::Hex(reinterpret_cast<const uint8_t*>(s.data()), static_cast<int64_t>(s.size()));
}

Result<std::unique_ptr<FileReader>> Open(const std::string& bytes, ReaderOptions options = {}) {
  return FileReader::Open(Buffer::FromString(bytes), options);
}

LogicalType StringType() {
  LogicalType t;
  t.kind = LogicalType::Kind::kString;
  return t;
}

// Two row groups of (id: required int32, x: optional int64, s: optional string).
TestFileBuilder FlatFile() {
  TestFileBuilder b;
  b.schema = {Root(3), Leaf("id", PhysicalType::kInt32, R::kRequired),
              Leaf("x", PhysicalType::kInt64, R::kOptional),
              Leaf("s", PhysicalType::kByteArray, R::kOptional, StringType())};
  for (int g = 0; g < 2; ++g) {
    std::vector<int32_t> ids = {g * 3 + 0, g * 3 + 1, g * 3 + 2};
    TestChunk id{{}, {TestPage{3, {}, {}, Plain(ids)}}};
    TestChunk x{{}, {TestPage{3, {}, {1, 0, 1}, Plain(std::vector<int64_t>{10 * g, 10 * g + 2})}}};
    TestChunk s{{}, {TestPage{3, {}, {0, 1, 1}, PlainStrings({"b" + std::to_string(g), "c"})}}};
    b.row_groups.push_back({id, x, s});
    b.rows.push_back(3);
  }
  return b;
}

TEST(ParquetReader, FlatColumnsWithNulls) {
  ASSERT_OK_AND_ASSIGN(auto reader, Open(FlatFile().Build()));
  EXPECT_EQ(reader->schema()->ToString(),
            alkaid::schema({field("id", int32(), false), field("x", int64()),
                            field("s", utf8())})->ToString());
  ASSERT_OK_AND_ASSIGN(auto table, reader->ReadTable());
  ASSERT_OK(table->ValidateFull());
  EXPECT_EQ(table->num_rows(), 6);
  EXPECT_EQ(table->column(0)->num_chunks(), 2);
  auto rows = CanonicalRows(*table);
  EXPECT_EQ(rows[0], "0|0|null");
  EXPECT_EQ(rows[1], "1|null|" + Hex("b0"));
  EXPECT_EQ(rows[5], "5|12|" + Hex("c"));
  EXPECT_EQ(reader->CountRows(), 6);
}

TEST(ParquetReader, ProjectionAndRowGroups) {
  std::string file = FlatFile().Build();
  ReaderOptions options;
  options.columns = {"s", "id"};  // file order is kept
  options.row_groups = {1};
  ASSERT_OK_AND_ASSIGN(auto reader, Open(file, options));
  ASSERT_OK_AND_ASSIGN(auto table, reader->ReadTable());
  ASSERT_EQ(table->num_columns(), 2);
  EXPECT_EQ(table->schema()->field(0)->name(), "id");
  EXPECT_EQ(table->num_rows(), 3);
  EXPECT_EQ(CanonicalRows(*table)[0], "3|null");
  ASSERT_OK_AND_ASSIGN(auto one, reader->ReadRowGroup(0, {"x"}));
  EXPECT_EQ(CanonicalRows(*one)[2], "2");
  options = {};
  options.column_indices = {1};
  ASSERT_OK_AND_ASSIGN(reader, Open(file, options));
  EXPECT_EQ(reader->projected_schema()->field(0)->name(), "x");
  options = {};
  options.columns = {"nope"};
  auto missing = Open(file, options);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kKeyError);
  options = {};
  options.row_groups = {2};
  EXPECT_EQ(Open(file, options).status().code(), StatusCode::kIndexError);
}

TEST(ParquetReader, StatisticsSkipRowGroups) {
  TestFileBuilder b = FlatFile();
  b.edit_footer = [](format::FileMetaData* md) {
    for (int g = 0; g < 2; ++g) {
      auto& meta = *md->row_groups[static_cast<size_t>(g)].columns[0].meta_data;
      format::Statistics s;
      int32_t lo = g * 3, hi = g * 3 + 2;
      s.min_value = testing::PlainBytes(&lo, 4);
      s.max_value = testing::PlainBytes(&hi, 4);
      s.null_count = 0;
      meta.statistics = s;
      auto& x = *md->row_groups[static_cast<size_t>(g)].columns[1].meta_data;
      x.statistics.emplace();
      x.statistics->null_count = 1;
    }
  };
  std::string file = b.Build();
  auto selected = [&](std::vector<ColumnPredicate> filter) {
    ReaderOptions options;
    options.filter = std::move(filter);
    auto reader = Open(file, options);
    return reader.ok() ? (*reader)->selected_row_groups() : std::vector<int>{-1};
  };
  using Op = ColumnPredicate::Op;
  EXPECT_EQ(selected({{"id", Op::kEqual, int64_t{4}}}), std::vector<int>{1});
  EXPECT_EQ(selected({{"id", Op::kLess, int64_t{3}}}), std::vector<int>{0});
  EXPECT_EQ(selected({{"id", Op::kGreaterEqual, int64_t{2}}}), (std::vector<int>{0, 1}));
  EXPECT_EQ(selected({{"id", Op::kGreater, int64_t{5}}}), std::vector<int>{});
  EXPECT_EQ(selected({{"id", Op::kLessEqual, 0.5}}), std::vector<int>{0});
  EXPECT_EQ(selected({{"id", Op::kIsNull, {}}}), std::vector<int>{});
  EXPECT_EQ(selected({{"x", Op::kIsNull, {}}}), (std::vector<int>{0, 1}));
  // No statistics: nothing can be skipped.
  EXPECT_EQ(selected({{"s", Op::kEqual, std::string("zz")}}), (std::vector<int>{0, 1}));
  ReaderOptions bad;
  bad.filter = {{"id", Op::kEqual, std::string("text")}};
  EXPECT_EQ(Open(file, bad).status().code(), StatusCode::kTypeError);
}

// A dictionary page and an RLE_DICTIONARY data page, then a PLAIN page (the writer's
// fallback once the dictionary grew too large).
TestFileBuilder DictionaryFile() {
  TestFileBuilder b;
  b.schema = {Root(1), Leaf("s", PhysicalType::kByteArray, R::kOptional, StringType())};
  TestChunk chunk;
  chunk.dictionary = TestPage{2, {}, {}, PlainStrings({"red", "green"})};
  // Indices 1, 0, 1 (bit width 1: one bit-packed group of 8).
  std::string indices = std::string("\x01", 1) + std::string("\x03\x05", 2);
  chunk.pages.push_back(TestPage{4, {}, {1, 1, 0, 1}, indices, Encoding::kRleDictionary});
  chunk.pages.push_back(TestPage{2, {}, {1, 1}, PlainStrings({"blue", "red"})});
  b.row_groups = {{chunk}};
  b.rows = {6};
  return b;
}

TEST(ParquetReader, DictionaryColumnsDecodedOrKept) {
  std::string file = DictionaryFile().Build();
  ASSERT_OK_AND_ASSIGN(auto reader, Open(file));
  ASSERT_OK_AND_ASSIGN(auto plain, reader->ReadTable());
  auto expect = CanonicalRows(*plain);
  ASSERT_EQ(expect.size(), 6u);
  EXPECT_EQ(expect[0], Hex("green"));
  EXPECT_EQ(expect[2], "null");
  EXPECT_EQ(expect[4], Hex("blue"));
  ReaderOptions options;
  options.read_dictionary = {"s"};
  ASSERT_OK_AND_ASSIGN(reader, Open(file, options));
  EXPECT_EQ(reader->schema()->field(0)->type()->ToString(),
            dictionary(int32(), utf8())->ToString());
  ASSERT_OK_AND_ASSIGN(auto dict, reader->ReadTable());
  ASSERT_OK(dict->ValidateFull());
  EXPECT_EQ(CanonicalRows(*dict), expect);
  // The dictionary page's two values, then the fallback page's two.
  EXPECT_EQ(dict->column(0)->chunks()[0]->dictionary->length, 4);
}

TEST(ParquetReader, BinaryLayouts) {
  std::string file = FlatFile().Build();
  ASSERT_OK_AND_ASSIGN(auto base, Open(file));
  ASSERT_OK_AND_ASSIGN(auto expect, base->ReadTable());
  for (auto layout : {BinaryReadType::kLarge, BinaryReadType::kView}) {
    ReaderOptions options;
    options.binary_type = layout;
    ASSERT_OK_AND_ASSIGN(auto reader, Open(file, options));
    ASSERT_OK_AND_ASSIGN(auto table, reader->ReadTable());
    ASSERT_OK(table->ValidateFull());
    EXPECT_EQ(table->schema()->field(2)->type()->id(),
              layout == BinaryReadType::kLarge ? TypeId::kLargeString : TypeId::kStringView);
    EXPECT_EQ(CanonicalRows(*table), CanonicalRows(*expect));
  }
}

// A list<struct<a: int32, b: optional string>> column and a map, nested three ways.
TestFileBuilder NestedFile() {
  TestFileBuilder b;
  LogicalType map_type;
  map_type.kind = LogicalType::Kind::kMap;
  b.schema = {Root(2),
              testing::Group("l", 1, R::kOptional, LogicalType::Kind::kList),
              testing::Group("list", 1, R::kRepeated),
              testing::Group("element", 2, R::kOptional),
              Leaf("a", PhysicalType::kInt32, R::kRequired),
              Leaf("b", PhysicalType::kByteArray, R::kOptional, StringType()),
              testing::Group("m", 1, R::kOptional, LogicalType::Kind::kMap),
              testing::Group("key_value", 2, R::kRepeated),
              Leaf("key", PhysicalType::kByteArray, R::kRequired, StringType()),
              Leaf("value", PhysicalType::kInt32, R::kOptional)};
  // Rows: [{1,"x"}, null, {2,null}], null, [], [{3,"y"}]
  // l levels: def max 4 for b (l opt 1, list rep 2, element opt 3, b opt 4), a max 3.
  TestChunk a{{}, {TestPage{6, {0, 1, 1, 0, 0, 0}, {3, 2, 3, 0, 1, 3},
                            Plain(std::vector<int32_t>{1, 2, 3})}}};
  TestChunk bb{{}, {TestPage{6, {0, 1, 1, 0, 0, 0}, {4, 2, 3, 0, 1, 4},
                             PlainStrings({"x", "y"})}}};
  // m: {"k": 1, "j": null}, null, {}, {"z": 5}
  TestChunk key{{}, {TestPage{5, {0, 1, 0, 0, 0}, {2, 2, 0, 1, 2}, PlainStrings({"k", "j", "z"})}}};
  TestChunk value{{}, {TestPage{5, {0, 1, 0, 0, 0}, {3, 2, 0, 1, 3},
                                Plain(std::vector<int32_t>{1, 5})}}};
  b.row_groups = {{a, bb, key, value}};
  b.rows = {4};
  return b;
}

TEST(ParquetReader, NestedListsStructsMaps) {
  ASSERT_OK_AND_ASSIGN(auto reader, Open(NestedFile().Build()));
  ASSERT_OK_AND_ASSIGN(auto table, reader->ReadTable());
  ASSERT_OK(table->ValidateFull());
  auto rows = CanonicalRows(*table);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0], "[{1," + Hex("x") + "},null,{2,null}]|[{" + Hex("k") + ",1},{" + Hex("j") +
                         ",null}]");
  EXPECT_EQ(rows[1], "null|null");
  EXPECT_EQ(rows[2], "[]|[]");
  EXPECT_EQ(rows[3], "[{3," + Hex("y") + "}]|[{" + Hex("z") + ",5}]");
  EXPECT_EQ(table->schema()->field(1)->type()->id(), TypeId::kMap);
  // Projection inside the list's struct element.
  ReaderOptions options;
  options.columns = {"l.list.element.b"};
  ASSERT_OK_AND_ASSIGN(reader, Open(NestedFile().Build(), options));
  ASSERT_OK_AND_ASSIGN(auto pruned, reader->ReadTable());
  ASSERT_OK(pruned->ValidateFull());
  EXPECT_EQ(CanonicalRows(*pruned)[0], "[{" + Hex("x") + "},null,{null}]");
}

TEST(ParquetReader, BatchReaderAndThreadsGiveTheSameRows) {
  std::string file = NestedFile().Build();
  TestFileBuilder flat = FlatFile();
  for (int threads : {1, 2}) {
    ReaderOptions options;
    options.num_threads = threads;
    options.batch_size = 2;
    ASSERT_OK_AND_ASSIGN(auto reader, Open(flat.Build(), options));
    ASSERT_OK_AND_ASSIGN(auto whole, reader->ReadTable());
    ASSERT_OK_AND_ASSIGN(auto batches, reader->GetRecordBatchReader());
    std::vector<RecordBatchPtr> got;
    for (;;) {
      ASSERT_OK_AND_ASSIGN(auto batch, batches->Next());
      if (batch == nullptr) break;
      EXPECT_LE(batch->num_rows(), 2);
      got.push_back(batch);
    }
    EXPECT_EQ(got.size(), 4u);  // 3 rows per row group: 2 + 1, twice
    ASSERT_OK_AND_ASSIGN(auto table, Table::FromRecordBatches(got));
    EXPECT_EQ(CanonicalRows(*table), CanonicalRows(*whole));
  }
}

TEST(ParquetReader, PageVersionsCodecsAndChecksums) {
  TestFileBuilder base = FlatFile();
  ASSERT_OK_AND_ASSIGN(auto expect_reader, Open(base.Build()));
  ASSERT_OK_AND_ASSIGN(auto expect, expect_reader->ReadTable());
  for (auto codec : {Compression::kUncompressed, Compression::kSnappy, Compression::kGzip,
                     Compression::kZstd, Compression::kLz4Raw, Compression::kBrotli}) {
    for (bool v2 : {false, true}) {
      TestFileBuilder b = FlatFile();
      for (auto& rg : b.row_groups) {
        for (auto& chunk : rg) {
          chunk.codec = codec;
          chunk.write_crc = true;
          for (auto& page : chunk.pages) page.v2 = v2;
        }
      }
      SCOPED_TRACE(std::string(CompressionName(codec)) + (v2 ? " v2" : " v1"));
      ASSERT_OK_AND_ASSIGN(auto reader, Open(b.Build()));
      ASSERT_OK_AND_ASSIGN(auto table, reader->ReadTable());
      EXPECT_EQ(CanonicalRows(*table), CanonicalRows(*expect));
    }
  }
}

TEST(ParquetReader, ArrowSchemaRestoresTypes) {
  TestFileBuilder b;
  LogicalType utc_micros;
  utc_micros.kind = LogicalType::Kind::kTimestamp;
  utc_micros.unit = TimeUnit::kMicro;
  utc_micros.is_adjusted_to_utc = true;
  LogicalType utc_millis = utc_micros;
  utc_millis.unit = TimeUnit::kMilli;
  LogicalType date;
  date.kind = LogicalType::Kind::kDate;
  b.schema = {Root(6),
              Leaf("ts", PhysicalType::kInt64, R::kOptional, utc_micros),
              Leaf("s", PhysicalType::kByteArray, R::kOptional, StringType()),
              Leaf("d", PhysicalType::kInt64, R::kOptional),
              Leaf("dict", PhysicalType::kByteArray, R::kOptional, StringType()),
              Leaf("day", PhysicalType::kInt32, R::kOptional, date),
              Leaf("sec", PhysicalType::kInt64, R::kOptional, utc_millis)};
  auto page64 = [](std::vector<int64_t> v) {
    return TestChunk{{}, {TestPage{2, {}, {1, 1}, Plain(v)}}};
  };
  b.row_groups = {{page64({1000000, 2000000}),
                   TestChunk{{}, {TestPage{2, {}, {1, 1}, PlainStrings({"a", "bc"})}}},
                   page64({5, -7}),
                   TestChunk{{}, {TestPage{2, {}, {1, 1}, PlainStrings({"u", "u"})}}},
                   TestChunk{{}, {TestPage{2, {}, {1, 1}, Plain(std::vector<int32_t>{1, 2})}}},
                   page64({3000, 4000})}};
  b.rows = {2};
  auto origin = alkaid::schema(
      {field("ts", timestamp(TimeUnit::kMicro, "Europe/Paris")), field("s", large_utf8()),
       field("d", duration(TimeUnit::kMilli)),
       field("dict", dictionary(int8(), utf8()), true,
             KeyValueMetadata::Make({{"origin", "kept"}})),
       field("day", date64()), field("sec", timestamp(TimeUnit::kSecond, "UTC"))});
  ASSERT_OK_AND_ASSIGN(std::string key, internal::EncodeArrowSchemaKey(*origin));
  b.key_value_metadata = {format::KeyValue{"ARROW:schema", key}, format::KeyValue{"user", "1"}};
  std::string file = b.Build();
  ASSERT_OK_AND_ASSIGN(auto reader, Open(file));
  ASSERT_OK_AND_ASSIGN(auto table, reader->ReadTable());
  ASSERT_OK(table->ValidateFull());
  EXPECT_TRUE(table->schema()->Equals(*origin)) << table->schema()->ToString();
  EXPECT_EQ(table->schema()->metadata()->FindKey("ARROW:schema"), -1);
  EXPECT_EQ(*table->schema()->metadata()->Get("user"), "1");
  EXPECT_EQ(*table->schema()->field(3)->metadata()->Get("origin"), "kept");
  auto rows = CanonicalRows(*table);
  EXPECT_EQ(rows[0], "1000000|" + Hex("a") + "|5000|" + Hex("u") + "|1|3000000");
  // Off: the file's own types.
  ReaderOptions options;
  options.use_arrow_schema = false;
  ASSERT_OK_AND_ASSIGN(reader, Open(file, options));
  EXPECT_EQ(reader->schema()->field(0)->type()->ToString(),
            timestamp(TimeUnit::kMicro, "UTC")->ToString());
  EXPECT_EQ(reader->schema()->metadata()->FindKey("ARROW:schema"), -1);
  // A damaged key is ignored.
  b.key_value_metadata = {format::KeyValue{"ARROW:schema", "not base64 !"}};
  ASSERT_OK_AND_ASSIGN(reader, Open(b.Build()));
  EXPECT_EQ(reader->schema()->field(1)->type()->id(), TypeId::kString);
}

TEST(ParquetReader, Int96Units) {
  TestFileBuilder b;
  b.schema = {Root(1), Leaf("t", PhysicalType::kInt96, R::kRequired)};
  // 2009-03-01 00:00:01.5 as nanoseconds of the day and the Julian day.
  std::string value(12, '\0');
  int64_t nanos = 1500000000;
  int32_t day = 2440588 + 14304;
  std::memcpy(value.data(), &nanos, 8);
  std::memcpy(value.data() + 8, &day, 4);
  b.row_groups = {{TestChunk{{}, {TestPage{1, {}, {}, value}}}}};
  b.rows = {1};
  std::string file = b.Build();
  for (auto [unit, text] : {std::pair{TimeUnit::kNano, "1235865601500000000"},
                            std::pair{TimeUnit::kMilli, "1235865601500"},
                            std::pair{TimeUnit::kSecond, "1235865601"}}) {
    ReaderOptions options;
    options.int96_unit = unit;
    ASSERT_OK_AND_ASSIGN(auto reader, Open(file, options));
    ASSERT_OK_AND_ASSIGN(auto table, reader->ReadTable());
    testing::CanonicalOptions raw;
    raw.time_resolution = testing::UnitsPerSecond(unit);
    EXPECT_EQ(CanonicalRows(*table, raw)[0], text);
  }
}

TEST(ParquetReader, MetadataView) {
  TestFileBuilder b = FlatFile();
  b.edit_footer = [](format::FileMetaData* md) {
    format::Statistics s;
    int32_t lo = -3, hi = 7;
    s.min_value = testing::PlainBytes(&lo, 4);
    s.max_value = testing::PlainBytes(&hi, 4);
    s.null_count = 0;
    md->row_groups[0].columns[0].meta_data->statistics = s;
    format::Statistics strings;
    strings.min = "a";  // legacy fields of a string column: not trusted
    strings.max = "z";
    md->row_groups[0].columns[2].meta_data->statistics = strings;
  };
  ASSERT_OK_AND_ASSIGN(auto reader, Open(b.Build()));
  const FileMetaData& md = reader->metadata();
  EXPECT_EQ(md.num_rows(), 6);
  EXPECT_EQ(md.num_row_groups(), 2);
  EXPECT_EQ(md.num_columns(), 3);
  EXPECT_EQ(md.created_by(), "alkaid test builder");
  EXPECT_NE(md.schema().ToString().find("optional binary s (STRING);"), std::string::npos)
      << md.schema().ToString();
  ColumnChunkMetaData id = md.row_group(0).column(0);
  EXPECT_EQ(id.path(), "id");
  EXPECT_EQ(id.num_values(), 3);
  EXPECT_EQ(id.compression(), Compression::kUncompressed);
  Statistics stats = id.statistics();
  ASSERT_TRUE(stats.has_min_max());
  EXPECT_EQ(FormatStatisticsValue(id.descriptor(), *stats.min), "-3");
  EXPECT_EQ(FormatStatisticsValue(id.descriptor(), *stats.max), "7");
  EXPECT_FALSE(md.row_group(0).column(2).statistics().has_min_max());
  EXPECT_EQ(md.schema().column(2).max_definition_level, 1);
}

}  // namespace
}  // namespace alkaid::parquet
