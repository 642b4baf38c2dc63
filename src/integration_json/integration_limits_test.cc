// Integration JSON on hostile input: nesting of any depth, values that pass
// each array's own checks but break the layout (dictionary indices), and
// output the streaming writer must refuse rather than try to build.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "alkaid/integration_json/integration.h"
#include "test_util/temp_path.h"

namespace alkaid::integration_json {
namespace {

using ::testing::HasSubstr;

// A schema whose one field is a list nested `depth` levels deep.
std::string DeepListSchema(int depth) {
  std::string out = R"({"schema": {"fields": [)";
  for (int i = 0; i < depth; ++i) out += R"({"name": "x", "type": {"name": "list"}, "children": [)";
  out += R"({"name": "x", "type": {"name": "int", "isSigned": true, "bitWidth": 32}, "children": []})";
  for (int i = 0; i < depth; ++i) out += "]}";
  out += R"(]}, "batches": []})";
  return out;
}

TEST(IntegrationJsonLimits, DeepSchemasAreRefusedAtAnyDepth) {
  EXPECT_TRUE(ParseIntegrationJson(DeepListSchema(20)).ok());
  for (int depth : {65, 100, 5000, 10000, 100000}) {
    auto file = ParseIntegrationJson(DeepListSchema(depth));
    ASSERT_FALSE(file.ok()) << depth;
    EXPECT_THAT(file.status().message(), HasSubstr("deeper than")) << depth;
  }
  // The type limit follows the option.
  IntegrationReadOptions options;
  options.max_recursion_depth = 10;
  auto shallow = ParseIntegrationJson(DeepListSchema(12), options);
  ASSERT_FALSE(shallow.ok());
  EXPECT_THAT(shallow.status().message(), HasSubstr("type nesting deeper than the limit of 10"));
}

TEST(IntegrationJsonLimits, DeepTextAnywhereIsRefusedBeforeParsing) {
  // Deep arrays where a buffer is expected, and deep objects in metadata.
  const int depth = 100000;
  std::string arrays = std::string(depth, '[') + std::string(depth, ']');
  std::string text = R"({"schema": {"fields": []}, "batches": [{"count": 0, "columns": )" + arrays + "}]}";
  auto file = ParseIntegrationJson(text);
  ASSERT_FALSE(file.ok());
  EXPECT_THAT(file.status().message(), HasSubstr("nested deeper than"));
  EXPECT_THAT(file.status().message(), HasSubstr("byte offset"));

  std::string objects;
  for (int i = 0; i < depth; ++i) objects += R"({"a": )";
  objects += "1" + std::string(depth, '}');
  auto meta = ParseIntegrationJson(R"({"schema": {"fields": [], "metadata": )" + objects + R"(}, "batches": []})");
  ASSERT_FALSE(meta.ok());
  EXPECT_THAT(meta.status().message(), HasSubstr("nested deeper than"));

  // Brackets inside strings do not count.
  std::string quoted = R"({"schema": {"fields": [], "metadata": [{"key": ")" + std::string(depth, '[') +
                       R"(", "value": "\"{{{"}]}, "batches": []})";
  EXPECT_TRUE(ParseIntegrationJson(quoted).ok()) << ParseIntegrationJson(quoted).status();
}

std::string DictionaryFile(int64_t index) {
  return R"({"schema": {"fields": [{"name": "a", "nullable": true, "type": {"name": "utf8"}, "children": [], )"
         R"("dictionary": {"id": 0, "indexType": {"name": "int", "isSigned": true, "bitWidth": 32}, "isOrdered": false}}]}, )"
         R"("dictionaries": [{"id": 0, "data": {"count": 1, "columns": [{"name": "DICT0", "count": 1, "VALIDITY": [1], "OFFSET": [0, 1], "DATA": ["x"]}]}}], )"
         R"("batches": [{"count": 2, "columns": [{"name": "a", "count": 2, "VALIDITY": [1, 1], "DATA": [0, )" +
         std::to_string(index) + "]}]}]}";
}

TEST(IntegrationJsonLimits, WhatIsBuiltIsFullyValidated) {
  EXPECT_TRUE(ParseIntegrationJson(DictionaryFile(0)).ok());
  auto bad = ParseIntegrationJson(DictionaryFile(100000));
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("batches[0].columns[0](a)"));
  EXPECT_THAT(bad.status().message(), HasSubstr("100000"));
}

TEST(IntegrationJsonLimits, StreamingWriterMatchesTheWholeDocument) {
  auto file = ParseIntegrationJson(DictionaryFile(0));
  ASSERT_TRUE(file.ok()) << file.status();
  // Two batches, so separators between batches are exercised too.
  file->batches.push_back(file->batches[0]);
  auto whole = WriteIntegrationJson(*file);
  ASSERT_TRUE(whole.ok()) << whole.status();

  std::ostringstream out;
  auto writer = IntegrationJsonWriter::Open(&out, file->schema, file->dictionary_ids, file->dictionaries);
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (const auto& batch : file->batches) ASSERT_TRUE((*writer)->WriteRecordBatch(*batch).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_EQ(out.str(), *whole);
  EXPECT_EQ((*writer)->bytes_written(), static_cast<int64_t>(whole->size()));
  EXPECT_TRUE(ParseIntegrationJson(out.str()).ok());

  // No batches, no dictionaries.
  auto empty_schema = std::make_shared<Schema>(FieldVector{field("n", int32())});
  std::ostringstream empty;
  auto w2 = IntegrationJsonWriter::Open(&empty, empty_schema, DictionaryIds(), {});
  ASSERT_TRUE(w2.ok());
  ASSERT_TRUE((*w2)->Close().ok());
  auto whole_empty = WriteIntegrationJson(*empty_schema, {});
  ASSERT_TRUE(whole_empty.ok());
  EXPECT_EQ(empty.str(), *whole_empty);
}

TEST(IntegrationJsonLimits, HugeLogicalColumnsAreRefusedUpFront) {
  // struct<null> of 2^62 slots needs no buffers, but its JSON would need a
  // VALIDITY array of 2^62 entries.
  const int64_t n = int64_t{1} << 62;
  auto child = ArrayData::Make(null(), n, BufferVector{}, n);
  auto type = struct_({field("n", null())});
  auto column = ArrayData::Make(type, n, BufferVector{nullptr}, 0);
  column->child_data.push_back(child);
  auto schema = std::make_shared<Schema>(FieldVector{field("s", type)});
  auto batch = RecordBatch::Make(schema, n, {column});

  std::ostringstream out;
  IntegrationWriteOptions options;
  options.max_column_bytes = int64_t{1} << 30;
  auto writer = IntegrationJsonWriter::Open(&out, schema, DictionaryIds(), {}, options);
  ASSERT_TRUE(writer.ok());
  Status st = (*writer)->WriteRecordBatch(*batch);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kCapacityError) << st.message();
  EXPECT_THAT(st.message(), HasSubstr("column 0 ('s'"));

  // The total budget alone refuses it too.
  IntegrationWriteOptions total;
  total.max_output_bytes = int64_t{1} << 40;
  std::ostringstream out2;
  auto writer2 = IntegrationJsonWriter::Open(&out2, schema, DictionaryIds(), {}, total);
  ASSERT_TRUE(writer2.ok());
  EXPECT_EQ((*writer2)->WriteRecordBatch(*batch).code(), StatusCode::kCapacityError);
}

TEST(IntegrationJsonLimits, GzipOutputIsCapped) {
  // 8 MiB of spaces compress to about 8 KiB.
  auto compressed = GzipCompress(std::string(size_t{8} << 20, ' '));
  ASSERT_TRUE(compressed.ok());
  auto capped = GzipDecompress(*compressed, int64_t{1} << 20);
  ASSERT_FALSE(capped.ok());
  EXPECT_EQ(capped.status().code(), StatusCode::kCapacityError);
  EXPECT_THAT(capped.status().message(), HasSubstr("more than 1048576 bytes"));
  auto whole = GzipDecompress(*compressed);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->size(), size_t{8} << 20);
  // Exactly at the cap is fine.
  auto exact = GzipDecompress(*compressed, int64_t{8} << 20);
  EXPECT_TRUE(exact.ok()) << exact.status().message();
}

// A small gzip file may not inflate far beyond its size: parsing holds
// about 17 bytes per byte of text, so 40 KB of zeros once cost 690 MB.
TEST(IntegrationJsonLimits, GzipInputInflatesOnlySoFar) {
  // A valid document padded with 8 MiB of spaces: about 8 KiB compressed.
  const std::string text = std::string(R"({"schema": {"fields": []}, "batches": [)") +
                           std::string(size_t{8} << 20, ' ') + "]}";
  auto compressed = GzipCompress(text);
  ASSERT_TRUE(compressed.ok());
  ASSERT_LT(compressed->size(), size_t{64} << 10);
  const std::string path = alkaid::testing::ProcessTempPath("gunzip_ratio.json.gz");
  std::ofstream(path, std::ios::binary) << *compressed;

  // The default floor (16 MiB) lets it through.
  auto whole = ReadIntegrationFile(path);
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  EXPECT_EQ(whole->batches.size(), 0u);

  // With a 1 MiB floor, 64 x 8 KiB = 512 KiB: refused before parsing, and
  // the message says what to do.
  IntegrationReadOptions small;
  small.gunzip_floor_bytes = int64_t{1} << 20;
  EXPECT_EQ(small.MaxGunzipBytes(static_cast<int64_t>(compressed->size())), int64_t{1} << 20);
  auto refused = ReadIntegrationFile(path, small);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kCapacityError);
  EXPECT_THAT(refused.status().message(), HasSubstr("more than 1048576 bytes"));
  EXPECT_THAT(refused.status().message(), HasSubstr("gunzip it first"));
  EXPECT_THAT(refused.status().message(), HasSubstr(path));

  // The ratio governs above the floor: 2,000 times lets 8 MiB through.
  small.gunzip_ratio = 2000;
  EXPECT_TRUE(ReadIntegrationFile(path, small).ok());
  // Plain text is not capped.
  auto plain = MaybeGunzip(text, small);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->size(), text.size());
  std::remove(path.c_str());

  // The cap never passes 2 GiB, and huge compressed sizes do not overflow.
  IntegrationReadOptions defaults;
  EXPECT_EQ(defaults.MaxGunzipBytes(0), int64_t{16} << 20);
  EXPECT_EQ(defaults.MaxGunzipBytes(int64_t{2} << 20), int64_t{128} << 20);
  EXPECT_EQ(defaults.MaxGunzipBytes(int64_t{1} << 40), int64_t{2} << 30);
  EXPECT_EQ(defaults.MaxGunzipBytes(INT64_MAX), int64_t{2} << 30);
}

}  // namespace
}  // namespace alkaid::integration_json
