// Several threads reading batches of one FileReader at once (issue 10): the
// results must equal a serial read, with no data race (CI runs the suites
// ending in "Concurrency" under ThreadSanitizer).
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "test_util/array_from_json.h"

namespace alkaid::ipc {
namespace {

using ::alkaid::testing::ArrayFromJSON;

constexpr int kBatches = 24;
constexpr int kThreads = 4;

SchemaPtr TestSchema() {
  return schema({field("i", int64()), field("s", utf8()),
                 field("d", dictionary(int32(), utf8())),
                 field("l", list(dictionary(int8(), utf8())))});
}

// Batch b: large enough for compression (and use_threads) to engage; its
// dictionaries grow with b, so the file carries deltas.
RecordBatchPtr MakeBatch(int b) {
  const int rows = 3000 + 100 * b;
  std::string ints = "[", strs = "[", dict = "[", lists = "[";
  for (int r = 0; r < rows; ++r) {
    const char* sep = r == 0 ? "" : ",";
    ints += sep + std::to_string(int64_t{r} * (b + 1));
    strs += std::string(sep) + "\"s" + std::to_string((r * 7 + b) % 501) + "\"";
    dict += (r > 100 && r % 13 == 0) ? std::string(sep) + "null"
                        : std::string(sep) + "\"v" + std::to_string(r % (b + 2)) + "\"";
    lists += std::string(sep) + "[\"w" + std::to_string(r % (b + 1)) + "\"]";
  }
  ints += "]";
  strs += "]";
  dict += "]";
  lists += "]";
  auto s = TestSchema();
  return RecordBatch::Make(s, rows,
                           {ArrayFromJSON(int64(), ints), ArrayFromJSON(utf8(), strs),
                            ArrayFromJSON(s->field(2)->type(), dict),
                            ArrayFromJSON(s->field(3)->type(), lists)});
}

const std::vector<RecordBatchPtr>& Batches() {
  static const std::vector<RecordBatchPtr> batches = [] {
    std::vector<RecordBatchPtr> out;
    for (int b = 0; b < kBatches; ++b) out.push_back(MakeBatch(b));
    return out;
  }();
  return batches;
}

struct Case {
  CompressionType compression;
  bool use_threads;
  bool mapped;
};

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  return std::string(CompressionTypeName(info.param.compression)) +
         (info.param.use_threads ? "_threads" : "") + (info.param.mapped ? "_mapped" : "_buffer");
}

class FileReaderConcurrency : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    IpcWriteOptions write;
    write.compression = GetParam().compression;
    auto bytes = SerializeFile(TestSchema(), Batches(), write);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    file_bytes_ = *bytes;
    path_ = (std::filesystem::temp_directory_path() /
             ("alkaid_concurrency_" + std::to_string(::getpid()) + "_" + CaseName({GetParam(), 0}) +
              ".arrow"))
                .string();
    std::ofstream out(path_, std::ios::binary);
    out.write(reinterpret_cast<const char*>(file_bytes_->data()), file_bytes_->size());
    out.close();
    ASSERT_TRUE(out.good());
  }
  void TearDown() override { std::remove(path_.c_str()); }

  std::unique_ptr<FileReader> Open() {
    IpcReadOptions options;
    options.use_threads = GetParam().use_threads;
    options.num_threads = 3;
    auto reader = GetParam().mapped ? FileReader::OpenMapped(path_, options)
                                    : FileReader::Open(file_bytes_, options);
    EXPECT_TRUE(reader.ok()) << reader.status();
    return reader.ok() ? std::move(reader).MoveValueUnsafe() : nullptr;
  }

  BufferPtr file_bytes_;
  std::string path_;
};

TEST_P(FileReaderConcurrency, ThreadsReadEveryBatchLikeASerialRead) {
  std::vector<RecordBatchPtr> serial;
  {
    auto reader = Open();
    ASSERT_NE(reader, nullptr);
    // Base dictionaries for both ids plus deltas.
    EXPECT_GT(reader->num_dictionaries(), 2);
    auto all = reader->ReadAll();
    ASSERT_TRUE(all.ok()) << all.status();
    serial = *all;
  }
  ASSERT_EQ(serial.size(), static_cast<size_t>(kBatches));
  for (int b = 0; b < kBatches; ++b) ASSERT_TRUE(serial[b]->Equals(*Batches()[b])) << b;

  // A fresh reader, so that the threads also race to load the dictionaries.
  for (int round = 0; round < 3; ++round) {
    auto reader = Open();
    ASSERT_NE(reader, nullptr);
    std::vector<std::vector<RecordBatchPtr>> got(kThreads,
                                                 std::vector<RecordBatchPtr>(kBatches));
    std::vector<std::string> errors(kThreads);
    std::atomic<int> stats_reads{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        // Each thread walks the batches in its own order.
        for (int k = 0; k < kBatches; ++k) {
          const int b = (t % 2 == 0) ? (k * (t + 1) + round) % kBatches : kBatches - 1 - k;
          auto batch = reader->ReadRecordBatch(b);
          if (!batch.ok()) {
            errors[t] = batch.status().ToString();
            return;
          }
          got[t][b] = *batch;
          if (reader->stats().num_record_batches > 0) stats_reads.fetch_add(1);
        }
      });
    }
    for (auto& thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t) {
      ASSERT_TRUE(errors[t].empty()) << "thread " << t << ": " << errors[t];
      for (int b = 0; b < kBatches; ++b) {
        if (got[t][b] == nullptr) continue;  // an order may skip some indices
        EXPECT_TRUE(got[t][b]->Equals(*serial[b])) << "thread " << t << " batch " << b;
      }
    }
    EXPECT_GT(stats_reads.load(), 0);
    EXPECT_EQ(reader->stats().num_dictionary_batches, reader->num_dictionaries());
  }
}

TEST_P(FileReaderConcurrency, ReaderMayGoAwayWhileBatchesAreUsed) {
  std::vector<RecordBatchPtr> kept(kBatches);
  {
    auto reader = Open();
    ASSERT_NE(reader, nullptr);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int b = t; b < kBatches; b += kThreads) {
          auto batch = reader->ReadRecordBatch(b);
          if (batch.ok()) kept[b] = *batch;
        }
      });
    }
    for (auto& thread : threads) thread.join();
  }
  for (int b = 0; b < kBatches; ++b) {
    ASSERT_NE(kept[b], nullptr) << b;
    EXPECT_TRUE(kept[b]->Equals(*Batches()[b])) << b;
    EXPECT_TRUE(kept[b]->ValidateFull().ok());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Files, FileReaderConcurrency,
    ::testing::Values(Case{CompressionType::kNone, false, false},
                      Case{CompressionType::kNone, false, true},
                      Case{CompressionType::kLz4Frame, false, false},
                      Case{CompressionType::kLz4Frame, false, true},
                      Case{CompressionType::kLz4Frame, true, true},
                      Case{CompressionType::kZstd, false, false},
                      Case{CompressionType::kZstd, false, true},
                      Case{CompressionType::kZstd, true, false},
                      Case{CompressionType::kZstd, true, true}),
    CaseName);

}  // namespace
}  // namespace alkaid::ipc
