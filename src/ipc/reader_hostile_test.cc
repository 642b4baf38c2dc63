// Crafted inputs that try to multiply memory or time through the IPC
// readers (issue 10): footers repeating blocks, compression bombs, floods of
// dictionary deltas, V1 footers, footer blocks that lie about their lengths.
// Every input is built here; each test must answer in well under 5 s.
#include <chrono>
#include <cstring>

#include <gtest/gtest.h>

#include "alkaid/array.h"
#include "alkaid/ipc/compression.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/validate.h"
#include "src/ipc/read_budget.h"
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

constexpr int64_t kMiB = int64_t{1} << 20;

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// An 8-byte length prefix followed by a ZSTD frame of `bytes` zero bytes
// (computed once per size: compressing 64 MiB takes a few tens of ms).
std::string ZstdZeros(int64_t bytes) {
  static std::map<int64_t, std::string> cache;
  auto it = cache.find(bytes);
  if (it != cache.end()) return it->second;
  auto codec = Codec::Create(CompressionType::kZstd).ValueOrDie();
  std::vector<uint8_t> zeros(static_cast<size_t>(bytes), 0);
  std::string frame(static_cast<size_t>(codec->MaxCompressedLength(bytes)), '\0');
  int64_t n = codec->Compress(zeros.data(), bytes, reinterpret_cast<uint8_t*>(frame.data()),
                              static_cast<int64_t>(frame.size()))
                  .ValueOrDie();
  frame.resize(static_cast<size_t>(n));
  std::string encoded(8, '\0');
  std::memcpy(encoded.data(), &bytes, 8);
  encoded += frame;
  return cache.emplace(bytes, encoded).first->second;
}

SchemaPtr Int64Schema() { return schema({field("z", int64())}); }

// One int64 column of `bytes / 8` zeros, ZSTD-compressed.
std::string ZerosBatchBody(int64_t bytes, RecordBatchMeta* meta) {
  BodyBuilder body;
  meta->length = bytes / 8;
  meta->nodes = {{meta->length, 0}};
  meta->buffers = {body.Absent(), body.Add(ZstdZeros(bytes))};
  meta->compression = CompressionType::kZstd;
  return body.bytes();
}

// A file whose footer lists its single record batch block `times` times.
BufferPtr RepeatedBlockFile(int64_t batch_bytes, int times) {
  IpcBuilder b(Int64Schema());
  b.BeginFile();
  b.AddSchema();
  RecordBatchMeta meta;
  FileBlock block = b.AddRecordBatch(meta, ZerosBatchBody(batch_bytes, &meta));
  std::vector<FileBlock> batches(static_cast<size_t>(times), block);
  std::vector<FileBlock> none;
  return b.FinishFile("ARROW1", nullptr, &none, &batches);
}

// ===========================================================================
// Memory amplification

TEST(HostileFooter, RepeatedZstdBlockCostsOnce) {
  // 1,000 listings of one block of 64 MiB zeros: decoded once, every listing
  // returns the same batch, so reading all of them, one at a time or all
  // held, costs 64 MiB and a few milliseconds.
  BufferPtr file = RepeatedBlockFile(64 * kMiB, 1000);
  EXPECT_LT(file->size(), 32 * 1024);
  SystemMemoryPool pool;
  IpcReadOptions options;
  options.pool = &pool;
  auto start = std::chrono::steady_clock::now();
  auto reader = FileReader::Open(file, options).ValueOrDie();
  ASSERT_EQ(reader->num_record_batches(), 1000);
  std::vector<RecordBatchPtr> held;
  for (int i = 0; i < reader->num_record_batches(); ++i) {
    auto batch = reader->ReadRecordBatch(i);
    ASSERT_TRUE(batch.ok()) << batch.status();
    ASSERT_EQ((*batch)->num_rows(), 8 * kMiB);
    held.push_back(*batch);
  }
  EXPECT_LT(SecondsSince(start), 5.0);
  EXPECT_LE(pool.max_memory(), 65 * kMiB);
  EXPECT_EQ(held.front(), held.back());
}

// Reads every batch, dropping each before the next; -1 on an error.
int CountOneAtATime(RecordBatchReader* reader) {
  int n = 0;
  while (true) {
    auto batch = reader->Next();
    EXPECT_TRUE(batch.ok()) << batch.status();
    if (!batch.ok()) return -1;
    if (*batch == nullptr) return n;
    ++n;
  }
}

SchemaPtr NullColumns(int n) {
  FieldVector fields;
  for (int i = 0; i < n; ++i) fields.push_back(field("n" + std::to_string(i), null()));
  return schema(fields);
}

RecordBatchMeta NullColumnsMeta(int n, int64_t length) {
  RecordBatchMeta meta;
  meta.length = length;
  meta.nodes.assign(static_cast<size_t>(n), {length, length});
  return meta;
}

TEST(HostileFooter, RepeatedBlocksOfNullColumns) {
  // Uncompressed: 20,000 null columns (no buffers, one node each) listed 300
  // times. Costs one batch, not 300.
  constexpr int kColumns = 20000;
  IpcBuilder b(NullColumns(kColumns));
  b.BeginFile();
  b.AddSchema();
  RecordBatchMeta meta = NullColumnsMeta(kColumns, 1000);
  FileBlock block = b.AddRecordBatch(meta, "");
  std::vector<FileBlock> batches(300, block);
  std::vector<FileBlock> none;
  BufferPtr file = b.FinishFile("ARROW1", nullptr, &none, &batches);
  auto start = std::chrono::steady_clock::now();
  auto reader = FileReader::Open(file).ValueOrDie();
  std::vector<RecordBatchPtr> held;
  for (int i = 0; i < reader->num_record_batches(); ++i) {
    auto batch = reader->ReadRecordBatch(i);
    ASSERT_TRUE(batch.ok()) << batch.status();
    held.push_back(*batch);
  }
  EXPECT_LT(SecondsSince(start), 5.0);
  EXPECT_EQ(held.front(), held.back());
}

TEST(HostileStream, ManyNodesCountAgainstTheBudget) {
  // Distinct messages of many null columns: each batch's ArrayData is
  // charged per node, so holding them reaches the budget while reading one
  // at a time does not.
  constexpr int kColumns = 10000;
  IpcBuilder b(NullColumns(kColumns));
  b.AddSchema();
  RecordBatchMeta meta = NullColumnsMeta(kColumns, 5);
  for (int i = 0; i < 40; ++i) b.AddRecordBatch(meta, "");
  b.AddEndOfStream();
  BufferPtr stream = b.FinishStream();
  IpcReadOptions options;
  options.memory_budget = 20 * int64_t{kColumns} * internal::kNodeCharge;  // 20 batches' worth
  {
    auto reader = StreamReader::Open(stream, options).ValueOrDie();
    EXPECT_EQ(CountOneAtATime(reader.get()), 40);
  }
  auto reader = StreamReader::Open(stream, options).ValueOrDie();
  auto all = reader->ReadAll();
  EXPECT_ERROR_CONTAINS(all, "IpcReadOptions::memory_budget");
  ASSERT_NE(all.status().detail(), nullptr);
  EXPECT_EQ(all.status().detail()->options, std::vector<std::string>{"memory_budget"});
}

TEST(HostileStream, ZstdZerosOneAtATimeWithinBudget) {
  // 40 batches each of 64 MiB zeros (a legitimate, highly compressible
  // stream of ~100 KB). Read one at a time: peak one batch.
  IpcBuilder b(Int64Schema());
  b.AddSchema();
  RecordBatchMeta meta;
  std::string body = ZerosBatchBody(64 * kMiB, &meta);
  for (int i = 0; i < 40; ++i) b.AddRecordBatch(meta, body);
  b.AddEndOfStream();
  BufferPtr stream = b.FinishStream();
  EXPECT_LT(stream->size(), 256 * 1024);

  SystemMemoryPool pool;
  IpcReadOptions options;
  options.pool = &pool;
  auto start = std::chrono::steady_clock::now();
  auto reader = StreamReader::Open(stream, options).ValueOrDie();
  EXPECT_EQ(CountOneAtATime(reader.get()), 40);
  EXPECT_LE(pool.max_memory(), 65 * kMiB);
  std::printf("40 x 64 MiB zstd batches one at a time: %.2f s, peak %lld MiB\n",
              SecondsSince(start), static_cast<long long>(pool.max_memory() / kMiB));

  // Holding every batch: refused at the budget (1 GiB for an input this
  // small), with an error naming the option, instead of taking 2.5 GiB.
  reader = StreamReader::Open(stream, options).ValueOrDie();
  auto all = reader->ReadAll();
  ASSERT_FALSE(all.ok());
  EXPECT_EQ(all.status().code(), StatusCode::kOutOfMemory);
  EXPECT_NE(all.status().message().find("memory budget of 1073741824 bytes"), std::string::npos)
      << all.status();
  EXPECT_NE(all.status().message().find("IpcReadOptions::memory_budget"), std::string::npos);
  EXPECT_LE(pool.max_memory(), 1024 * kMiB + kMiB);
  reader.reset();
  EXPECT_EQ(pool.bytes_allocated(), 0);
}

TEST(HostileStream, ZstdBombRefusedByPerMessageCap) {
  // One buffer declaring 4 GiB (and a node justifying it): refused from the
  // declared size before anything is allocated.
  IpcBuilder b(Int64Schema());
  b.AddSchema();
  RecordBatchMeta meta;
  std::string encoded = ZstdZeros(64 * 1024);
  const int64_t declared = int64_t{4} << 30;
  std::memcpy(encoded.data(), &declared, 8);
  BodyBuilder body;
  meta.length = declared / 8;
  meta.nodes = {{meta.length, 0}};
  meta.buffers = {body.Absent(), body.Add(encoded)};
  meta.compression = CompressionType::kZstd;
  b.AddRecordBatch(meta, body.bytes());
  b.AddEndOfStream();
  SystemMemoryPool pool;
  IpcReadOptions options;
  options.pool = &pool;
  auto start = std::chrono::steady_clock::now();
  auto read = testing::ReadStream(b.FinishStream(), options);
  EXPECT_LT(SecondsSince(start), 1.0);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("IpcReadOptions::max_decompressed_message_bytes"),
            std::string::npos)
      << read.status();
  ASSERT_NE(read.status().detail(), nullptr);
  EXPECT_EQ(read.status().detail()->options,
            std::vector<std::string>{"max_decompressed_message_bytes"});
  EXPECT_LT(pool.max_memory(), kMiB);
  // Raising the cap lets the declared size through to the codec, which finds
  // the frame far shorter than declared (still without a 4 GiB allocation
  // beyond the budget: 4 GiB > the 1 GiB budget).
  options.max_decompressed_message_bytes = int64_t{8} << 30;
  read = testing::ReadStream(b.FinishStream(), options);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("memory budget"), std::string::npos) << read.status();
}

// ===========================================================================
// Dictionary deltas

SchemaPtr Int64DictSchema() { return schema({field("d", dictionary(int32(), int64()))}); }
SchemaPtr Utf8DictSchema() { return schema({field("d", dictionary(int32(), utf8()))}); }

std::string ZerosDictBody(int64_t bytes, bool delta, testing::DictionaryBatchMeta* meta) {
  BodyBuilder body;
  meta->id = 0;
  meta->is_delta = delta;
  meta->data.length = bytes / 8;
  meta->data.nodes = {{meta->data.length, 0}};
  meta->data.buffers = {body.Absent(), body.Add(ZstdZeros(bytes))};
  meta->data.compression = CompressionType::kZstd;
  return body.bytes();
}

std::string Utf8DictBody(const std::vector<std::string>& values, bool delta,
                         testing::DictionaryBatchMeta* meta) {
  return testing::Utf8DictBody(values, 0, delta, meta);
}

std::string Int32IndicesBody(const std::vector<int32_t>& indices, RecordBatchMeta* meta) {
  BodyBuilder body;
  meta->length = static_cast<int64_t>(indices.size());
  meta->nodes = {{meta->length, 0}};
  meta->buffers = {body.Absent(), body.AddValues(indices)};
  return body.bytes();
}

TEST(HostileDeltas, StreamOfHugeDeltasRefusedQuickly) {
  // 30 deltas of 64 MiB each: refused by the budget (256 MiB here, a quarter
  // of the default floor, so the work before the refusal takes well under a
  // second even on a busy machine) once the dictionary would outgrow it.
  IpcBuilder b(Int64DictSchema());
  b.AddSchema();
  testing::DictionaryBatchMeta dm;
  std::string body = ZerosDictBody(64 * kMiB, false, &dm);
  b.AddDictionaryBatch(dm, body);
  body = ZerosDictBody(64 * kMiB, true, &dm);
  for (int i = 0; i < 30; ++i) b.AddDictionaryBatch(dm, body);
  RecordBatchMeta rm;
  b.AddRecordBatch(rm, Int32IndicesBody({0}, &rm));
  b.AddEndOfStream();
  SystemMemoryPool pool;
  IpcReadOptions options;
  options.pool = &pool;
  options.memory_budget = 256 * kMiB;
  auto start = std::chrono::steady_clock::now();
  auto read = testing::ReadStream(b.FinishStream(), options);
  EXPECT_LT(SecondsSince(start), 5.0);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("IpcReadOptions::memory_budget"), std::string::npos)
      << read.status();
  EXPECT_LE(pool.max_memory(), 256 * kMiB + kMiB);
}

TEST(HostileDeltas, FooterRepeatingHugeDeltaRefusedQuickly) {
  IpcBuilder b(Int64DictSchema());
  b.BeginFile();
  b.AddSchema();
  testing::DictionaryBatchMeta dm;
  FileBlock base = b.AddDictionaryBatch(dm, ZerosDictBody(64 * kMiB, false, &dm));
  FileBlock delta = b.AddDictionaryBatch(dm, ZerosDictBody(64 * kMiB, true, &dm));
  RecordBatchMeta rm;
  b.AddRecordBatch(rm, Int32IndicesBody({0}, &rm));
  std::vector<FileBlock> dicts{base};
  for (int i = 0; i < 30; ++i) dicts.push_back(delta);
  BufferPtr file = b.FinishFile("ARROW1", nullptr, &dicts);
  SystemMemoryPool pool;
  IpcReadOptions options;
  options.pool = &pool;
  auto start = std::chrono::steady_clock::now();
  auto read = testing::ReadFile(file, options);
  EXPECT_LT(SecondsSince(start), 2.0);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("IpcReadOptions::memory_budget"), std::string::npos)
      << read.status();
  // The delta block was decoded once, not 30 times.
  EXPECT_LE(pool.max_memory(), 129 * kMiB);
}

TEST(HostileDeltas, FooterRepeatingTinyDelta300000Times) {
  // Appending must be amortized linear: 300,000 one-value deltas.
  IpcBuilder b(Utf8DictSchema());
  b.BeginFile();
  b.AddSchema();
  testing::DictionaryBatchMeta dm;
  FileBlock base = b.AddDictionaryBatch(dm, Utf8DictBody({"base"}, false, &dm));
  FileBlock delta = b.AddDictionaryBatch(dm, Utf8DictBody({"x"}, true, &dm));
  RecordBatchMeta rm;
  b.AddRecordBatch(rm, Int32IndicesBody({0, 1, 300000}, &rm));
  std::vector<FileBlock> dicts{base};
  dicts.insert(dicts.end(), 300000, delta);
  BufferPtr file = b.FinishFile("ARROW1", nullptr, &dicts);
  auto start = std::chrono::steady_clock::now();
  auto read = testing::ReadFile(file);
  const double seconds = SecondsSince(start);
  ASSERT_TRUE(read.ok()) << read.status();
  std::printf("300,000 repeated tiny deltas: %.3f s\n", seconds);
  EXPECT_LT(seconds, 2.0);
  const ArrayDataPtr& dict = (*read)[0]->column_data(0)->dictionary;
  ASSERT_EQ(dict->length, 300001);
  auto values = std::static_pointer_cast<StringArray>(MakeArray(dict));
  EXPECT_EQ(values->GetString(0), "base");
  EXPECT_EQ(values->GetString(300000), "x");
}

TEST(HostileDeltas, StreamOfManyTinyDeltasIsLinear) {
  // 100,000 deltas before a batch, then more deltas interleaved with
  // batches: every batch sees exactly the dictionary so far.
  IpcBuilder b(Utf8DictSchema());
  b.AddSchema();
  testing::DictionaryBatchMeta dm;
  b.AddDictionaryBatch(dm, Utf8DictBody({"v0"}, false, &dm));
  std::string delta = Utf8DictBody({"d"}, true, &dm);
  testing::DictionaryBatchMeta delta_meta = dm;
  for (int i = 0; i < 100000; ++i) b.AddDictionaryBatch(delta_meta, delta);
  RecordBatchMeta rm;
  b.AddRecordBatch(rm, Int32IndicesBody({0, 100000}, &rm));
  b.AddDictionaryBatch(dm, Utf8DictBody({"e", "f"}, true, &dm));
  b.AddRecordBatch(rm, Int32IndicesBody({100001, 100002}, &rm));
  b.AddDictionaryBatch(dm, Utf8DictBody({"r"}, false, &dm));  // replacement
  b.AddDictionaryBatch(dm, Utf8DictBody({"s"}, true, &dm));
  b.AddRecordBatch(rm, Int32IndicesBody({1, 0}, &rm));
  b.AddEndOfStream();
  auto start = std::chrono::steady_clock::now();
  auto reader = StreamReader::Open(b.FinishStream()).ValueOrDie();
  auto read = reader->ReadAll();
  const double seconds = SecondsSince(start);
  ASSERT_TRUE(read.ok()) << read.status();
  // Each of the 100,000 messages is decoded and validated (~0.3 s in
  // release); re-concatenating per delta would copy ~5e9 values instead.
  EXPECT_LT(seconds, 5.0);
  ASSERT_EQ(read->size(), 3u);
  auto strings = [](const RecordBatch& batch) {
    DictionaryArray array(batch.column_data(0));
    auto dict = std::static_pointer_cast<StringArray>(array.dictionary());
    std::vector<std::string> out;
    for (int64_t i = 0; i < array.length(); ++i) out.push_back(dict->GetString(array.GetValueIndex(i)));
    return out;
  };
  EXPECT_EQ(strings(*(*read)[0]), (std::vector<std::string>{"v0", "d"}));
  EXPECT_EQ((*read)[0]->column_data(0)->dictionary->length, 100001);
  EXPECT_EQ(strings(*(*read)[1]), (std::vector<std::string>{"e", "f"}));
  EXPECT_EQ(strings(*(*read)[2]), (std::vector<std::string>{"s", "r"}));
  EXPECT_EQ((*read)[2]->column_data(0)->dictionary->length, 2);
  EXPECT_EQ(reader->stats().num_dictionary_deltas, 100002);
  EXPECT_EQ(reader->stats().num_replaced_dictionaries, 1);
}

TEST(HostileDeltas, StreamAlternatingDeltasAndBatchesIsLinear) {
  // delta, batch, delta, batch, ... 100,000 times: every batch needs the
  // dictionary current, so each delta must cost O(delta), not O(dictionary).
  // With nulls, so that validity bitmaps are grown too.
  IpcBuilder b(Utf8DictSchema());
  b.AddSchema();
  testing::DictionaryBatchMeta dm;
  b.AddDictionaryBatch(dm, Utf8DictBody({"v0"}, false, &dm));
  BodyBuilder delta_body;
  testing::DictionaryBatchMeta null_delta;
  null_delta.id = 0;
  null_delta.is_delta = true;
  null_delta.data.length = 1;
  null_delta.data.nodes = {{1, 1}};
  null_delta.data.buffers = {delta_body.Add(std::string(1, '\0')),
                             delta_body.AddValues(std::vector<int32_t>{0, 0}), delta_body.Absent()};
  const std::string null_bytes = delta_body.bytes();
  testing::DictionaryBatchMeta value_delta;
  const std::string value_bytes = Utf8DictBody({"w"}, true, &value_delta);
  constexpr int kPairs = 100000;
  for (int i = 1; i <= kPairs; ++i) {
    if (i % 2 == 0) {
      b.AddDictionaryBatch(null_delta, null_bytes);
    } else {
      b.AddDictionaryBatch(value_delta, value_bytes);
    }
    RecordBatchMeta rm;
    b.AddRecordBatch(rm, Int32IndicesBody({i, 0}, &rm));
  }
  b.AddEndOfStream();
  BufferPtr stream = b.FinishStream();
  auto start = std::chrono::steady_clock::now();
  auto reader = StreamReader::Open(stream).ValueOrDie();
  int batches = 0;
  RecordBatchPtr last;
  double first_half = 0;
  while (true) {
    auto next = reader->Next();
    ASSERT_TRUE(next.ok()) << next.status();
    if (*next == nullptr) break;
    last = *next;  // one batch held at a time, as validate and cat do
    if (++batches == kPairs / 2) first_half = SecondsSince(start);
  }
  const double seconds = SecondsSince(start);
  std::printf("100,000 alternating deltas and batches: %.3f s (first half %.3f s)\n", seconds,
              first_half);
  // Linear work takes as long for the second half as for the first; work
  // that grows with the dictionary (a copy per delta) takes 3x as long.
  // The ratio, not a time, so that slow machines and sanitizer builds pass.
  EXPECT_LT(seconds - first_half, 2.0 * first_half + 0.25);
  EXPECT_LT(seconds, 60.0);
  ASSERT_EQ(batches, kPairs);
  const ArrayDataPtr& dict = last->column_data(0)->dictionary;
  ASSERT_EQ(dict->length, kPairs + 1);
  EXPECT_TRUE(ValidateArrayFull(*dict).ok());
  EXPECT_EQ(dict->GetNullCount(), kPairs / 2);
  auto values = std::static_pointer_cast<StringArray>(MakeArray(dict));
  EXPECT_EQ(values->GetString(0), "v0");
  EXPECT_EQ(values->GetString(kPairs - 1), "w");
  EXPECT_TRUE(values->IsNull(kPairs));
}

// ===========================================================================
// Footers

BufferPtr SmallFile(fb::MetadataVersion footer_version, fb::MetadataVersion message_version) {
  IpcBuilder b(schema({field("i", int32())}), false, message_version);
  b.set_footer_version(footer_version);
  b.BeginFile();
  b.AddSchema();
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 3;
  meta.nodes = {{3, 0}};
  meta.buffers = {body.Absent(), body.AddValues(std::vector<int32_t>{1, 2, 3})};
  b.AddRecordBatch(meta, body.bytes());
  return b.FinishFile();
}

TEST(OldFooters, V1FooterAroundV4OrV5MessagesIsRead) {
  for (auto version : {fb::MetadataVersion::V4, fb::MetadataVersion::V5}) {
    auto read = testing::ReadFile(SmallFile(fb::MetadataVersion::V1, version));
    ASSERT_TRUE(read.ok()) << read.status();
    ASSERT_EQ(read->size(), 1u);
    EXPECT_EQ((*read)[0]->num_rows(), 3);
  }
}

TEST(OldFooters, V1FooterAroundV3MessagesIsRefused) {
  EXPECT_ERROR_CONTAINS(
      testing::ReadFile(SmallFile(fb::MetadataVersion::V1, fb::MetadataVersion::V3)),
      "metadata version");
}

TEST(OldFooters, FileWrittenByTheWriterWithPatchedFooterVersion) {
  // A real file from the writer whose footer is rebuilt with version V1.
  auto batch = RecordBatch::Make(schema({field("s", utf8())}), 2,
                                 {ArrayFromJSON(utf8(), R"(["a", "b"])")});
  BufferPtr file = SerializeFile(batch->schema(), {batch}).ValueOrDie();
  auto reader = FileReader::Open(file).ValueOrDie();
  ASSERT_EQ(reader->num_record_batches(), 1);
  // Locate the footer and rewrite it with the same blocks but version V1.
  const int64_t size = file->size();
  int32_t footer_length;
  std::memcpy(&footer_length, file->data() + size - 10, 4);
  const int64_t footer_offset = size - 10 - footer_length;
  const auto* footer = fb::GetFooter(file->data() + footer_offset);
  std::vector<FileBlock> dicts, batches;
  ASSERT_TRUE(internal::ReadFileBlocks(footer->dictionaries(), "d", &dicts).ok());
  ASSERT_TRUE(internal::ReadFileBlocks(footer->recordBatches(), "b", &batches).ok());
  flatbuffers::FlatBufferBuilder fbb;
  ASSERT_TRUE(internal::BuildFooter(&fbb, *reader->schema(), reader->dictionary_ids(),
                                    IpcDialect::kArrow, dicts, batches, nullptr,
                                    fb::MetadataVersion::V1)
                  .ok());
  std::string patched(reinterpret_cast<const char*>(file->data()),
                      static_cast<size_t>(footer_offset));
  patched.append(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
  int32_t length = static_cast<int32_t>(fbb.GetSize());
  patched.append(reinterpret_cast<const char*>(&length), 4);
  patched += "ARROW1";
  auto read = testing::ReadFile(Buffer::FromString(patched));
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 1u);
  EXPECT_TRUE((*read)[0]->Equals(*batch));
}

TEST(FooterBlocks, BodyLengthMustMatchTheMessage) {
  IpcBuilder b(schema({field("i", int32())}));
  b.BeginFile();
  b.AddSchema();
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 3;
  meta.nodes = {{3, 0}};
  meta.buffers = {body.Absent(), body.AddValues(std::vector<int32_t>{1, 2, 3})};
  FileBlock block = b.AddRecordBatch(meta, body.bytes());
  b.AddRaw(std::string(64, '\0'));  // room for a longer lie
  std::vector<FileBlock> none;
  for (int64_t delta : {-8, 8}) {
    IpcBuilder copy = b;
    FileBlock lying = block;
    lying.body_length += delta;
    std::vector<FileBlock> batches{lying};
    auto read = testing::ReadFile(copy.FinishFile("ARROW1", nullptr, &none, &batches));
    EXPECT_ERROR_CONTAINS(read, "body length");
  }
  {
    IpcBuilder copy = b;
    FileBlock lying = block;
    lying.metadata_length += 8;
    lying.body_length -= 8;  // still inside the message region
    std::vector<FileBlock> batches{lying};
    EXPECT_ERROR_CONTAINS(testing::ReadFile(copy.FinishFile("ARROW1", nullptr, &none, &batches)),
                          "metadata length");
  }
  IpcBuilder copy = b;
  std::vector<FileBlock> batches{block};
  EXPECT_TRUE(testing::ReadFile(copy.FinishFile("ARROW1", nullptr, &none, &batches)).ok());
}

TEST(FooterBlocks, UnalignedBodyBuffersAreCopied) {
  // Documented leniency: a body buffer misaligned for its type is copied.
  IpcBuilder b(schema({field("i", int64())}));
  b.AddSchema();
  BodyBuilder body;
  RecordBatchMeta meta;
  meta.length = 2;
  meta.nodes = {{2, 0}};
  meta.buffers = {body.Absent(), body.AddValues(std::vector<int64_t>{7, 9}, /*misalign=*/4)};
  b.AddRecordBatch(meta, body.bytes());
  b.AddEndOfStream();
  auto read = testing::ReadStream(b.FinishStream());
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE((*read)[0]->column(0)->Equals(*MakeArray(ArrayFromJSON(int64(), "[7, 9]"))));
}

// ===========================================================================
// Depth

TEST(DepthLimit, OptionReachesSchemaReading) {
  // 20 nested lists: within the default, refused when the option is lowered.
  DataTypePtr type = int32();
  for (int i = 0; i < 20; ++i) type = list(type);
  auto s = schema({field("deep", type)});
  std::string bytes(SerializeSchema(*s).ValueOrDie()->view());
  bytes += std::string("\xff\xff\xff\xff\0\0\0\0", 8);
  BufferPtr stream = Buffer::FromString(bytes);
  auto reader = StreamReader::Open(stream);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_TRUE((*reader)->schema()->field(0)->type()->Equals(*type));
  IpcReadOptions read;
  read.max_recursion_depth = 10;
  EXPECT_FALSE(StreamReader::Open(stream, read).ok());
}

TEST(DepthLimit, RaisedOptionReadsAndValidatesDeeperBatches) {
  // 70 nested lists with a value: over the default of 64, read (schema, loader
  // and full validation) once the option allows it.
  // Built level by level (JSON literals are themselves depth-limited).
  DataTypePtr type = int32();
  ArrayDataPtr array = ArrayFromJSON(int32(), "[1]");
  ASSERT_NE(array, nullptr);
  for (int i = 0; i < 70; ++i) {
    type = list(type);
    array = ArrayData::Make(type, 1, {nullptr, Buffer::FromVector(std::vector<int32_t>{0, 1})},
                            {array}, 0);
  }
  auto s = schema({field("deep", type)});
  IpcWriteOptions write;
  write.max_recursion_depth = 80;
  auto bytes = SerializeStream(s, {RecordBatch::Make(s, 1, {array})}, write);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_FALSE(StreamReader::Open(*bytes).ok());  // default limit: refused
  IpcReadOptions read;
  read.max_recursion_depth = 80;
  auto reader = StreamReader::Open(*bytes, read);
  ASSERT_TRUE(reader.ok()) << reader.status();
  auto batch = (*reader)->Next();
  ASSERT_TRUE(batch.ok()) << batch.status();
  ASSERT_NE(*batch, nullptr);
  // (Equality itself validates with the default depth, so walk down by hand.)
  const ArrayData* level = (*batch)->column_data(0).get();
  for (int i = 0; i < 70; ++i) {
    ASSERT_EQ(level->length, 1);
    ASSERT_EQ(level->child_data.size(), 1u);
    level = level->child_data[0].get();
  }
  ASSERT_EQ(level->length, 1);
  EXPECT_EQ(level->GetValues<int32_t>(1)[0], 1);
}

}  // namespace
}  // namespace alkaid::ipc
