// IpcWriteOptions::write_behind: a batch is compressed on pool threads while
// the writer writes the one before it. (Suite names hold "Threads" so the
// ThreadSanitizer build runs them.)
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/memory.h"
#include "test_util/array_from_json.h"

namespace alkaid::ipc {
namespace {

using testing::ArrayFromJSON;

// `rows` int64 values that compress (1 in 8 of them random).
ArrayDataPtr Int64Column(int64_t rows, uint64_t seed) {
  auto buffer = AllocateBuffer(rows * 8).ValueOrDie();
  std::mt19937_64 rng(seed);
  auto* v = reinterpret_cast<int64_t*>(buffer->mutable_data());
  for (int64_t i = 0; i < rows; ++i) v[i] = i % 8 == 0 ? static_cast<int64_t>(rng()) : i * 3 + static_cast<int64_t>(seed);
  return ArrayData::Make(int64(), rows, {nullptr, std::move(buffer)}, 0);
}

ArrayDataPtr DictColumn(const DataTypePtr& type, int64_t rows, const ArrayDataPtr& dictionary) {
  auto buffer = AllocateBuffer(rows).ValueOrDie();
  for (int64_t i = 0; i < rows; ++i) buffer->mutable_data()[i] = static_cast<uint8_t>(i % dictionary->length);
  auto data = ArrayData::Make(type, rows, {nullptr, std::move(buffer)}, 0);
  data->dictionary = dictionary;
  return data;
}

SchemaPtr TestSchema() {
  return schema({field("a", int64()), field("b", int64()), field("d", dictionary(int8(), utf8()))});
}

// Batch k of a sequence whose dictionary grows (deltas) and, with
// `replace`, is replaced halfway. Big enough (2 x 1.6 MB) to be compressed
// on several threads.
RecordBatchPtr MakeBatch(int k, bool replace) {
  static const ArrayDataPtr dicts[] = {
      ArrayFromJSON(utf8(), R"(["a", "b"])"), ArrayFromJSON(utf8(), R"(["a", "b", "c"])"),
      ArrayFromJSON(utf8(), R"(["x", "y"])")};
  const ArrayDataPtr& dict = replace && k >= 4 ? dicts[2] : k >= 2 ? dicts[1] : dicts[0];
  const int64_t rows = 200000 + k;  // sizes differ from batch to batch
  return RecordBatch::Make(TestSchema(), rows,
                           {Int64Column(rows, static_cast<uint64_t>(k)),
                            Int64Column(rows, static_cast<uint64_t>(100 + k)),
                            DictColumn(TestSchema()->field(2)->type(), rows, dict)});
}

IpcWriteOptions Options(CompressionType codec, bool behind) {
  IpcWriteOptions o;
  o.compression = codec;
  o.use_threads = behind;
  o.num_threads = 2;
  o.write_behind = behind;
  return o;
}

// Writes batches 0..n-1, each made just before its call and dropped right
// after it (only the writer may keep it alive).
BufferPtr Write(bool file, CompressionType codec, bool behind, int n, bool replace,
                WriteStats* stats = nullptr) {
  io::BufferOutputStream sink;
  auto writer = (file ? MakeFileWriter(&sink, TestSchema(), Options(codec, behind))
                      : MakeStreamWriter(&sink, TestSchema(), Options(codec, behind)))
                    .ValueOrDie();
  for (int k = 0; k < n; ++k) {
    Status st = writer->WriteRecordBatch(*MakeBatch(k, replace));
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  EXPECT_TRUE(writer->Close().ok());
  if (stats != nullptr) *stats = writer->stats();
  return sink.Finish().ValueOrDie();
}

std::vector<RecordBatchPtr> ReadBack(const BufferPtr& bytes, bool file) {
  if (file) return FileReader::Open(bytes).ValueOrDie()->ReadAll().ValueOrDie();
  auto reader = StreamReader::Open(bytes).ValueOrDie();
  std::vector<RecordBatchPtr> out;
  while (auto b = reader->Next().ValueOrDie()) out.push_back(b);
  return out;
}

TEST(WriteBehindThreads, ReadsBackAsTheSerialWriterWrote) {
  for (bool file : {false, true}) {
    for (CompressionType codec : {CompressionType::kLz4Frame, CompressionType::kZstd}) {
      SCOPED_TRACE(std::string(file ? "file " : "stream ") + (codec == CompressionType::kZstd ? "zstd" : "lz4"));
      const bool replace = !file;  // the file format cannot replace dictionaries
      WriteStats serial_stats, behind_stats;
      BufferPtr serial = Write(file, codec, false, 7, replace, &serial_stats);
      BufferPtr behind = Write(file, codec, true, 7, replace, &behind_stats);
      // Same messages in the same order (compressed frames may differ in
      // their bytes when a buffer was raced).
      EXPECT_EQ(behind_stats.num_record_batches, 7);
      EXPECT_EQ(behind_stats.num_messages, serial_stats.num_messages);
      EXPECT_EQ(behind_stats.num_dictionary_batches, serial_stats.num_dictionary_batches);
      EXPECT_EQ(behind_stats.num_dictionary_deltas, serial_stats.num_dictionary_deltas);
      EXPECT_EQ(behind_stats.num_replaced_dictionaries, serial_stats.num_replaced_dictionaries);
      EXPECT_EQ(behind_stats.bytes_written, behind->size());
      auto want = ReadBack(serial, file);
      auto got = ReadBack(behind, file);
      ASSERT_EQ(got.size(), 7u);
      ASSERT_EQ(want.size(), 7u);
      for (size_t k = 0; k < got.size(); ++k) {
        EXPECT_TRUE(got[k]->Equals(*want[k])) << "batch " << k;
        EXPECT_TRUE(got[k]->Equals(*MakeBatch(static_cast<int>(k), replace))) << "batch " << k;
      }
    }
  }
}

TEST(WriteBehindThreads, TheSinkIsOneBatchBehindUntilClose) {
  io::BufferOutputStream sink;
  auto writer = MakeStreamWriter(&sink, TestSchema(), Options(CompressionType::kLz4Frame, true))
                    .ValueOrDie();
  ASSERT_TRUE(writer->WriteRecordBatch(*MakeBatch(0, false)).ok());
  EXPECT_EQ(writer->stats().num_record_batches, 0);
  ASSERT_TRUE(writer->WriteRecordBatch(*MakeBatch(1, false)).ok());
  EXPECT_EQ(writer->stats().num_record_batches, 1);
  ASSERT_TRUE(writer->Close().ok());
  EXPECT_EQ(writer->stats().num_record_batches, 2);
  EXPECT_EQ(ReadBack(sink.Finish().ValueOrDie(), false).size(), 2u);
}

TEST(WriteBehindThreads, DestroyedWhileCompressing) {
  for (int n = 1; n <= 3; ++n) {
    io::BufferOutputStream sink;
    auto writer = MakeStreamWriter(&sink, TestSchema(), Options(CompressionType::kZstd, true))
                      .ValueOrDie();
    for (int k = 0; k < n; ++k) ASSERT_TRUE(writer->WriteRecordBatch(*MakeBatch(k, false)).ok());
    writer.reset();  // no Close: waits for the pool, writes nothing more
  }
}

// A sink that refuses every write after the first `budget` bytes.
class ShortSink final : public io::OutputStream {
 public:
  explicit ShortSink(int64_t budget) : budget_(budget) {}
  Status Write(const void*, int64_t nbytes) override {
    if (position_ + nbytes > budget_) return Status::IOError("disk full at byte ", budget_);
    position_ += nbytes;
    return Status::OK();
  }
  using io::OutputStream::Write;
  Result<int64_t> Tell() const override { return position_; }
  Status Close() override { return Status::OK(); }
  bool closed() const override { return false; }

 private:
  int64_t budget_;
  int64_t position_ = 0;
};

TEST(WriteBehindThreads, AnErrorWritingABatchComesFromTheNextCall) {
  ShortSink sink(64 << 10);  // the schema fits, no compressed batch does
  auto writer = MakeStreamWriter(&sink, TestSchema(), Options(CompressionType::kLz4Frame, true))
                    .ValueOrDie();
  // The dictionary batch (small) fits; batch 0 is only laid out.
  ASSERT_TRUE(writer->WriteRecordBatch(*MakeBatch(0, false)).ok());
  Status st = writer->WriteRecordBatch(*MakeBatch(1, false));
  ASSERT_TRUE(st.IsIOError()) << st.ToString();
  EXPECT_NE(st.message().find("record batch 0"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("disk full"), std::string::npos) << st.ToString();
  // The writer stays failed.
  EXPECT_TRUE(writer->WriteRecordBatch(*MakeBatch(2, false)).IsIOError());
  EXPECT_TRUE(writer->Close().IsIOError());
}

TEST(WriteBehindThreads, OffWithoutThreadsOrCompression) {
  // write_behind needs use_threads and a codec; otherwise each batch is in
  // the sink when the call returns.
  for (auto [codec, threads] : {std::pair{CompressionType::kNone, true},
                                std::pair{CompressionType::kZstd, false}}) {
    IpcWriteOptions o = Options(codec, true);
    o.use_threads = threads;
    io::BufferOutputStream sink;
    auto writer = MakeStreamWriter(&sink, TestSchema(), o).ValueOrDie();
    ASSERT_TRUE(writer->WriteRecordBatch(*MakeBatch(0, false)).ok());
    EXPECT_EQ(writer->stats().num_record_batches, 1);
  }
}

}  // namespace
}  // namespace alkaid::ipc
