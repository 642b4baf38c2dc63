// Seeds for the libFuzzer targets (fuzz/) covering the hostile classes of
// issue 10: footers repeating blocks, compressed bodies and bombs, delta
// floods, views, run-end encoding, old footers, lying block lengths.
//
// As a test: every seed must read to valid batches or a clean error.
// As a seed generator: with ALKAID_WRITE_FUZZ_SEEDS=<dir> set, the seeds are
// also written there (*.stream for fuzz_ipc_stream / fuzz_ipc_decoder,
// *.arrow_file for fuzz_ipc_file):
//   ALKAID_WRITE_FUZZ_SEEDS=/tmp/seeds build/release/alkaid_ipc_test --gtest_filter='FuzzSeeds.*'
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "src/ipc/reader_test_util.h"
#include "test_util/array_from_json.h"

namespace alkaid::ipc {
namespace {

using ::alkaid::testing::ArrayFromJSON;
using testing::BodyBuilder;
using testing::IpcBuilder;
using internal::FileBlock;
using internal::RecordBatchMeta;
namespace fb = internal::fb;

struct Seed {
  std::string name;  // ends in .stream or .arrow_file
  BufferPtr bytes;
};

std::string Compressed(CompressionType type, const std::string& raw) {
  auto codec = Codec::Create(type).ValueOrDie();
  std::string frame(static_cast<size_t>(codec->MaxCompressedLength(static_cast<int64_t>(raw.size()))),
                    '\0');
  int64_t n = codec->Compress(reinterpret_cast<const uint8_t*>(raw.data()),
                              static_cast<int64_t>(raw.size()),
                              reinterpret_cast<uint8_t*>(frame.data()),
                              static_cast<int64_t>(frame.size()))
                  .ValueOrDie();
  frame.resize(static_cast<size_t>(n));
  std::string out(8, '\0');
  const int64_t size = static_cast<int64_t>(raw.size());
  std::memcpy(out.data(), &size, 8);
  return out + frame;
}

// Both formats of the same batches, written by the writer.
void AddWritten(std::vector<Seed>* seeds, const std::string& name, const SchemaPtr& schema,
                const std::vector<RecordBatchPtr>& batches, const IpcWriteOptions& options) {
  seeds->push_back({name + ".stream", SerializeStream(schema, batches, options).ValueOrDie()});
  seeds->push_back({name + ".arrow_file", SerializeFile(schema, batches, options).ValueOrDie()});
}

RecordBatchPtr Batch(const SchemaPtr& schema, const std::vector<std::string>& json) {
  ArrayDataVector columns;
  for (int i = 0; i < schema->num_fields(); ++i) {
    columns.push_back(ArrayFromJSON(schema->field(i)->type(), json[static_cast<size_t>(i)]));
  }
  return RecordBatch::Make(schema, columns.empty() ? 0 : columns[0]->length, columns);
}

std::vector<Seed> MakeSeeds() {
  std::vector<Seed> seeds;

  // Compressed bodies of every codec, with nested and dictionary columns
  // whose dictionaries grow (deltas).
  {
    auto s = schema({field("i", int64()), field("s", utf8()),
                     field("d", dictionary(int16(), utf8())),
                     field("l", list(dictionary(int8(), utf8())))});
    std::vector<RecordBatchPtr> batches = {
        Batch(s, {"[1, 2, null]", R"(["a", "bb", null])", R"(["x", null, "y"])",
                  R"([["p"], null, ["q", "p"]])"}),
        Batch(s, {"[3, 4, 5]", R"(["ccc", "", "e"])", R"(["x", "y", "z"])",
                  R"([["p"], ["q"], ["r"]])"}),
        Batch(s, {"[4, 5, 6, 7]", R"(["", "d", "e", "f"])", R"(["x", "y", "z", "w"])",
                  R"([["p", "q"], [], ["r"], ["s"]])"})};
    for (CompressionType c : {CompressionType::kNone, CompressionType::kLz4Frame,
                              CompressionType::kZstd}) {
      IpcWriteOptions options;
      options.compression = c;
      AddWritten(&seeds, std::string("deltas_") + CompressionTypeName(c), s, batches, options);
    }
  }

  // Compressed text, binary and list columns long enough (80 slots) for the
  // reader to check them as they are decompressed (ScanBuffer): one batch
  // all ASCII, one with two- and three-byte characters and nulls.
  {
    auto s = schema({field("s", utf8()), field("ls", large_utf8()), field("b", binary()),
                     field("l", list(int16()))});
    std::vector<RecordBatchPtr> batches;
    for (const bool ascii : {true, false}) {
      std::string text = "[", lists = "[";
      for (int i = 0; i < 80; ++i) {
        const char* sep = i == 0 ? "" : ", ";
        if (!ascii && i % 7 == 3) {
          text += std::string(sep) + "null";
        } else {
          text += std::string(sep) + "\"" + std::string(static_cast<size_t>(i % 5), 'a') +
                  (!ascii && i % 3 == 0 ? "\u00e9\u4e2d" : "") + std::to_string(i) + "\"";
        }
        lists += std::string(sep) + (i % 4 == 0 ? "[]" : "[" + std::to_string(i) + ", 1]");
      }
      text += "]";
      lists += "]";
      batches.push_back(Batch(s, {text, text, text, lists}));
    }
    for (CompressionType c : {CompressionType::kLz4Frame, CompressionType::kZstd}) {
      IpcWriteOptions options;
      options.compression = c;
      AddWritten(&seeds, std::string("scanned_") + CompressionTypeName(c), s, batches, options);
    }
  }

  // Views (inline and out-of-line) and run-end encoding.
  {
    auto s = schema({field("v", utf8_view()), field("b", binary_view())});
    auto batch = Batch(s, {R"(["short", null, "a value longer than twelve bytes", ""])",
                           R"(["", "0123456789abcdef", null, "xyz"])"});
    AddWritten(&seeds, "views", s, {batch}, IpcWriteOptions());
    IpcWriteOptions zstd;
    zstd.compression = CompressionType::kZstd;
    AddWritten(&seeds, "views_zstd", s, {batch}, zstd);
  }
  {
    auto ree = RunEndEncodedType::Make(int32(), utf8()).ValueOrDie();
    auto s = schema({field("r", ree)});
    // Logical values; the builder run-end encodes them.
    auto batch = Batch(s, {R"(["a", "a", "a", null, null, "b"])"});
    AddWritten(&seeds, "ree", s, {batch}, IpcWriteOptions());
  }

  // A footer repeating one ZSTD block (the same 64 KiB of zeros) 50 times.
  {
    IpcBuilder b(schema({field("z", int64())}));
    b.BeginFile();
    b.AddSchema();
    BodyBuilder body;
    RecordBatchMeta meta;
    meta.length = 8192;
    meta.nodes = {{8192, 0}};
    meta.buffers = {body.Absent(), body.Add(Compressed(CompressionType::kZstd,
                                                      std::string(65536, '\0')))};
    meta.compression = CompressionType::kZstd;
    FileBlock block = b.AddRecordBatch(meta, body.bytes());
    std::vector<FileBlock> none, batches(50, block);
    seeds.push_back({"repeated_zstd_block.arrow_file",
                     b.FinishFile("ARROW1", nullptr, &none, &batches)});
  }

  // Many null columns, the block listed 20 times.
  {
    FieldVector fields;
    for (int i = 0; i < 300; ++i) fields.push_back(field("n" + std::to_string(i), null()));
    IpcBuilder b(schema(fields));
    b.BeginFile();
    b.AddSchema();
    RecordBatchMeta meta;
    meta.length = 7;
    meta.nodes.assign(300, {7, 7});
    FileBlock block = b.AddRecordBatch(meta, "");
    std::vector<FileBlock> none, batches(20, block);
    seeds.push_back({"repeated_null_columns.arrow_file",
                     b.FinishFile("ARROW1", nullptr, &none, &batches)});
  }

  // A ZSTD buffer declaring 1 GiB (node justifying it).
  {
    IpcBuilder b(schema({field("z", int8())}));
    b.AddSchema();
    std::string encoded = Compressed(CompressionType::kZstd, std::string(4096, '\0'));
    const int64_t declared = int64_t{1} << 30;
    std::memcpy(encoded.data(), &declared, 8);
    BodyBuilder body;
    RecordBatchMeta meta;
    meta.length = declared;
    meta.nodes = {{declared, 0}};
    meta.buffers = {body.Absent(), body.Add(encoded)};
    meta.compression = CompressionType::kZstd;
    b.AddRecordBatch(meta, body.bytes());
    b.AddEndOfStream();
    seeds.push_back({"zstd_bomb.stream", b.FinishStream()});
  }

  // Delta floods: a stream of 200 tiny deltas; a footer repeating one.
  {
    auto s = schema({field("d", dictionary(int32(), utf8()))});
    IpcBuilder stream(s);
    stream.AddSchema();
    testing::DictionaryBatchMeta dm;
    stream.AddDictionaryBatch(dm, testing::Utf8DictBody({"base"}, 0, false, &dm));
    std::string delta = testing::Utf8DictBody({"d"}, 0, true, &dm);
    testing::DictionaryBatchMeta delta_meta = dm;
    for (int i = 0; i < 200; ++i) stream.AddDictionaryBatch(delta_meta, delta);
    BodyBuilder body;
    RecordBatchMeta rm;
    rm.length = 2;
    rm.nodes = {{2, 0}};
    rm.buffers = {body.Absent(), body.AddValues(std::vector<int32_t>{0, 200})};
    stream.AddRecordBatch(rm, body.bytes());
    stream.AddEndOfStream();
    seeds.push_back({"delta_flood.stream", stream.FinishStream()});

    IpcBuilder file(s);
    file.BeginFile();
    file.AddSchema();
    FileBlock base = file.AddDictionaryBatch(dm, testing::Utf8DictBody({"base"}, 0, false, &dm));
    FileBlock d = file.AddDictionaryBatch(delta_meta, delta);
    file.AddRecordBatch(rm, body.bytes());
    std::vector<FileBlock> dicts{base};
    dicts.insert(dicts.end(), 200, d);
    seeds.push_back({"repeated_delta.arrow_file", file.FinishFile("ARROW1", nullptr, &dicts)});

    // Deltas alternating with batches (each batch forces the dictionary
    // current), every other delta a null: the in-place growth path.
    IpcBuilder alternating(s);
    alternating.AddSchema();
    alternating.AddDictionaryBatch(dm, testing::Utf8DictBody({"base"}, 0, false, &dm));
    BodyBuilder null_body;
    testing::DictionaryBatchMeta null_meta = delta_meta;
    null_meta.data.length = 1;
    null_meta.data.nodes = {{1, 1}};
    null_meta.data.buffers = {null_body.Add(std::string(1, '\0')),
                              null_body.AddValues(std::vector<int32_t>{0, 0}), null_body.Absent()};
    for (int i = 1; i <= 100; ++i) {
      if (i % 2 == 0) {
        alternating.AddDictionaryBatch(null_meta, null_body.bytes());
      } else {
        alternating.AddDictionaryBatch(delta_meta, delta);
      }
      BodyBuilder indices;
      RecordBatchMeta im;
      im.length = 2;
      im.nodes = {{2, 0}};
      im.buffers = {indices.Absent(), indices.AddValues(std::vector<int32_t>{0, i})};
      alternating.AddRecordBatch(im, indices.bytes());
    }
    alternating.AddEndOfStream();
    seeds.push_back({"alternating_deltas.stream", alternating.FinishStream()});
  }

  // A V1 footer around V5 messages; a block whose body length lies.
  {
    IpcBuilder b(schema({field("i", int32())}));
    b.set_footer_version(fb::MetadataVersion::V1);
    b.BeginFile();
    b.AddSchema();
    BodyBuilder body;
    RecordBatchMeta meta;
    meta.length = 3;
    meta.nodes = {{3, 0}};
    meta.buffers = {body.Absent(), body.AddValues(std::vector<int32_t>{1, 2, 3})};
    FileBlock block = b.AddRecordBatch(meta, body.bytes());
    IpcBuilder lying = b;
    seeds.push_back({"v1_footer.arrow_file", b.FinishFile()});
    block.body_length -= 8;
    std::vector<FileBlock> none, batches{block};
    lying.set_footer_version(fb::MetadataVersion::V5);
    seeds.push_back({"body_length_lie.arrow_file",
                     lying.FinishFile("ARROW1", nullptr, &none, &batches)});
  }
  return seeds;
}

// Reads a seed the way the fuzz targets do.
Status ReadSeed(const Seed& seed) {
  const bool is_file = seed.name.ends_with(".arrow_file");
  if (is_file) {
    ALKAID_ASSIGN_OR_RAISE(auto reader, FileReader::Open(seed.bytes));
    for (int i = 0; i < reader->num_record_batches(); ++i) {
      ALKAID_ASSIGN_OR_RAISE(auto batch, reader->ReadRecordBatch(i));
      ALKAID_RETURN_NOT_OK(batch->ValidateFull());
    }
    return Status::OK();
  }
  ALKAID_ASSIGN_OR_RAISE(auto reader, StreamReader::Open(seed.bytes));
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(auto batch, reader->Next());
    if (!batch) return Status::OK();
    ALKAID_RETURN_NOT_OK(batch->ValidateFull());
  }
}

TEST(FuzzSeeds, EverySeedReadsOrFailsCleanly) {
  std::vector<Seed> seeds = MakeSeeds();
  int ok = 0;
  for (const Seed& seed : seeds) {
    Status st = ReadSeed(seed);
    if (st.ok()) ++ok;
    // The hostile ones are refused; everything else must read.
    const bool hostile = seed.name.starts_with("zstd_bomb") ||
                         seed.name.starts_with("body_length_lie");
    EXPECT_EQ(st.ok(), !hostile) << seed.name << ": " << st;
  }
  EXPECT_GT(ok, 10);
  if (const char* dir = std::getenv("ALKAID_WRITE_FUZZ_SEEDS")) {
    std::filesystem::create_directories(dir);
    for (const Seed& seed : seeds) {
      std::ofstream out(std::filesystem::path(dir) / seed.name, std::ios::binary);
      out.write(reinterpret_cast<const char*>(seed.bytes->data()), seed.bytes->size());
      ASSERT_TRUE(out.good()) << seed.name;
    }
    std::printf("wrote %zu seeds to %s\n", seeds.size(), dir);
  }
}

}  // namespace
}  // namespace alkaid::ipc
