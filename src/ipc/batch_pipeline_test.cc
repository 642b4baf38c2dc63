// Record batches decoded side by side (IpcReadOptions::use_threads,
// batch_pipeline.h). The suite names end in "Concurrency" so that CI runs
// them under ThreadSanitizer.
#include "batch_pipeline.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "alkaid/io/output.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/thread_pool.h"
#include "test_util/array_from_json.h"

namespace alkaid::ipc {
namespace {

using ::alkaid::testing::ArrayFromJSON;
using internal::BatchPipeline;

SchemaPtr SmallSchema() { return schema({field("i", int64())}); }

RecordBatchPtr SmallBatch(int k) {
  return RecordBatch::Make(SmallSchema(), 1, {ArrayFromJSON(int64(), "[" + std::to_string(k) + "]")});
}

int64_t ValueOf(const RecordBatchPtr& batch) {
  return batch->column_data(0)->buffers[1]->data_as<int64_t>()[batch->column_data(0)->offset];
}

// Claims jobs 0..n-1 (job `error_at` fails, claim `claim_error_at` fails);
// records how many jobs ran at once and which ran with codec threads allowed.
struct FakeReader {
  int n = 12;
  int error_at = -1;
  int claim_error_at = -1;
  int sleep_us = 300;
  int claimed = 0;
  std::atomic<int> running{0};
  std::atomic<int> max_running{0};
  std::atomic<int> finished{0};
  std::atomic<int> alone_runs{0};

  BatchPipeline::Claim Claim() {
    return [this](const std::function<void()>&) {
      BatchPipeline::Claimed out;
      const int k = claimed++;
      if (k == claim_error_at) {
        out.ready.emplace(Status::Invalid("message ", k, " is cut"));
        return out;
      }
      if (k >= n) {
        out.ready.emplace(RecordBatchPtr());
        return out;
      }
      out.job = [this, k]() -> Result<RecordBatchPtr> {
        const int now = running.fetch_add(1) + 1;
        for (int seen = max_running.load(); now > seen && !max_running.compare_exchange_weak(seen, now);) {
        }
        if (internal::CodecThreadsAllowedHere()) alone_runs.fetch_add(1);
        std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
        running.fetch_sub(1);
        finished.fetch_add(1);
        if (k == error_at) return Status::Invalid("batch ", k, " is broken");
        return SmallBatch(k);
      };
      return out;
    };
  }
};

TEST(PipelineConcurrency, ResultsAndErrorsComeInClaimOrder) {
  FakeReader fake;
  fake.error_at = 5;
  BatchPipeline pipeline(fake.Claim(), 2);
  for (int k = 0; k < fake.n; ++k) {
    auto r = pipeline.Next();
    if (k == 5) {
      ASSERT_FALSE(r.ok());
      EXPECT_NE(r.status().ToString().find("batch 5 is broken"), std::string::npos);
      continue;
    }
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_NE(*r, nullptr);
    EXPECT_EQ(ValueOf(*r), k);
  }
  auto end = pipeline.Next();
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(*end, nullptr);
  EXPECT_LE(fake.max_running.load(), 4) << "at most twice the window in flight";
  // Only the batches with nothing beside them may spread their buffers.
  EXPECT_LE(fake.alone_runs.load(), 2);
}

TEST(PipelineConcurrency, AfterAReadyErrorClaimingGoesOnAsASerialReaderWould) {
  FakeReader fake;
  fake.claim_error_at = 3;
  BatchPipeline pipeline(fake.Claim(), 2);
  for (int k = 0; k < 3; ++k) {
    auto r = pipeline.Next();
    ASSERT_TRUE(r.ok() && *r != nullptr);
    EXPECT_EQ(ValueOf(*r), k);
  }
  EXPECT_EQ(fake.claimed, 4) << "nothing is claimed past a ready result";
  auto err = pipeline.Next();
  ASSERT_FALSE(err.ok());
  EXPECT_NE(err.status().ToString().find("message 3 is cut"), std::string::npos);
  // The next call claims again: job 4 comes (value 4; claim 3 made no job).
  auto r = pipeline.Next();
  ASSERT_TRUE(r.ok() && *r != nullptr);
  EXPECT_EQ(ValueOf(*r), 4);
}

// Every pool thread is stuck: the caller runs every job itself.
TEST(PipelineConcurrency, ABusyPoolNeverStallsTheCaller) {
  std::atomic<bool> release{false};
  std::atomic<int> stuck{0};
  std::atomic<int> left{0};
  const int pool_threads = std::max(ThreadPoolSize(), 1);
  for (int t = 0; t < pool_threads; ++t) {
    RunInBackground([&] {
      stuck.fetch_add(1);
      while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      left.fetch_add(1);
    });
  }
  while (stuck.load() < pool_threads) std::this_thread::yield();
  FakeReader fake;
  {
    BatchPipeline pipeline(fake.Claim(), 2);
    for (int k = 0; k < fake.n; ++k) {
      auto r = pipeline.Next();
      ASSERT_TRUE(r.ok() && *r != nullptr);
      EXPECT_EQ(ValueOf(*r), k);
    }
    EXPECT_EQ(fake.finished.load(), fake.n);
    EXPECT_EQ(fake.max_running.load(), 1) << "only the caller ran jobs";
  }
  release.store(true);
  // The stuck tasks use this frame's variables until they have left.
  while (left.load() < pool_threads) std::this_thread::yield();
}

TEST(PipelineConcurrency, DrainWaitsForEveryClaimedJob) {
  std::atomic<int> finished{0};
  int claimed = 0;
  bool drained_all = true;
  BatchPipeline pipeline(
      [&](const std::function<void()>& drain) {
        BatchPipeline::Claimed out;
        const int k = claimed++;
        if (k % 3 == 2) {  // "a dictionary" before every third batch
          drain();
          if (finished.load() != k) drained_all = false;
        }
        out.job = [&finished, k]() -> Result<RecordBatchPtr> {
          std::this_thread::sleep_for(std::chrono::microseconds(200));
          finished.fetch_add(1);
          return SmallBatch(k);
        };
        return out;
      },
      2);
  for (int k = 0; k < 30; ++k) {
    auto r = pipeline.Next();
    ASSERT_TRUE(r.ok() && *r != nullptr);
    EXPECT_EQ(ValueOf(*r), k);
  }
  EXPECT_TRUE(drained_all);
}

TEST(PipelineConcurrency, DestructionCancelsQueuedJobsAndWaitsForRunningOnes) {
  for (int round = 0; round < 20; ++round) {
    auto fake = std::make_unique<FakeReader>();
    fake->sleep_us = 2000;
    {
      BatchPipeline pipeline(fake->Claim(), 2);
      ASSERT_TRUE(pipeline.Next().ok());
    }
    // Nothing runs any more: the fake (which jobs use) can go.
    EXPECT_EQ(fake->running.load(), 0);
  }
}

// --- through the readers -------------------------------------------------

SchemaPtr BigSchema() {
  return schema({field("i", int64()), field("s", utf8()), field("d", dictionary(int16(), utf8()))});
}

// Batches whose compressed bodies are well over the 64 KiB below which the
// readers decode batches one by one; the dictionary grows (a delta) after
// batch 2 and is replaced after batch 5 (unless `one_dictionary`).
std::vector<RecordBatchPtr> BigBatches(int n, bool one_dictionary = false) {
  std::mt19937_64 rng(7);
  auto type = BigSchema()->field(2)->type();
  auto dict1 = ArrayFromJSON(utf8(), R"(["red", "green"])");
  auto dict2 = ArrayFromJSON(utf8(), R"(["red", "green", "blue"])");
  auto dict3 = ArrayFromJSON(utf8(), R"(["x", "y", "z", "w"])");
  std::vector<RecordBatchPtr> out;
  for (int b = 0; b < n; ++b) {
    const int rows = 30000 + 1000 * b;
    std::string ints = "[", strs = "[", idx = "[";
    const int64_t dict_size = b < 3 || one_dictionary ? 2 : b < 6 ? 3 : 4;
    for (int r = 0; r < rows; ++r) {
      const char* sep = r == 0 ? "" : ",";
      const uint64_t x = rng();
      ints += sep + std::to_string(static_cast<int64_t>(x >> 1));
      strs += std::string(sep) + "\"" + std::to_string(x % 1000003) + "\"";
      idx += sep + std::to_string(static_cast<int64_t>(x >> 40) % dict_size);
    }
    auto indices = ArrayFromJSON(int16(), idx + "]");
    indices->type = type;
    indices->dictionary = b < 3 || one_dictionary ? dict1 : b < 6 ? dict2 : dict3;
    out.push_back(RecordBatch::Make(BigSchema(), rows,
                                    {ArrayFromJSON(int64(), ints + "]"), ArrayFromJSON(utf8(), strs + "]"),
                                     indices}));
  }
  return out;
}

IpcReadOptions Threads(int n) {
  IpcReadOptions options;
  options.use_threads = n > 1;
  options.num_threads = n;
  return options;
}

BufferPtr BigStream(CompressionType codec, const std::vector<RecordBatchPtr>& batches) {
  IpcWriteOptions write;
  write.compression = codec;
  io::BufferOutputStream sink;
  auto writer = MakeStreamWriter(&sink, BigSchema(), write).ValueOrDie();
  for (const auto& b : batches) EXPECT_TRUE(writer->WriteRecordBatch(*b).ok());
  EXPECT_TRUE(writer->Close().ok());
  return sink.Finish().ValueOrDie();
}

std::vector<std::string> ReadStreamOutcomes(const BufferPtr& bytes, int threads) {
  std::vector<std::string> out;
  auto reader = StreamReader::Open(bytes, Threads(threads));
  if (!reader.ok()) return {"open: " + reader.status().ToString()};
  for (int guard = 0; guard < 100; ++guard) {
    auto batch = (*reader)->Next();
    if (!batch.ok()) {
      out.push_back("error: " + batch.status().ToString());
      continue;  // a serial reader goes on too
    }
    if (*batch == nullptr) break;
    out.push_back(std::to_string((*batch)->num_rows()) + " " + (*batch)->ToString().substr(0, 200));
  }
  return out;
}

TEST(PipelineConcurrency, StreamReaderGivesTheSameBatchesAndErrorsInOrder) {
  const auto batches = BigBatches(9);
  for (CompressionType codec : {CompressionType::kLz4Frame, CompressionType::kZstd}) {
    BufferPtr bytes = BigStream(codec, batches);
    ASSERT_GT(bytes->size() / 9, 64 * 1024) << "batches this small are not pipelined";
    for (int threads : {2, 3}) {
      auto reader = StreamReader::Open(bytes, Threads(threads)).ValueOrDie();
      for (const auto& expected : batches) {
        auto batch = reader->Next();
        ASSERT_TRUE(batch.ok()) << batch.status();
        ASSERT_NE(*batch, nullptr);
        ASSERT_TRUE((*batch)->Equals(*expected));
      }
      auto end = reader->Next();
      ASSERT_TRUE(end.ok());
      EXPECT_EQ(*end, nullptr);
      EXPECT_EQ(reader->stats().num_dictionary_deltas, 1);
      EXPECT_EQ(reader->stats().num_replaced_dictionaries, 1);
    }
    // Cut inside batch 5, and a byte flipped inside batch 3's body: the same
    // batches and errors, in the same order, as one thread gives.
    const std::vector<RecordBatchPtr> first5(batches.begin(), batches.begin() + 5);
    const int64_t batch5_at = BigStream(codec, first5)->size() - 8;
    BufferPtr cut = SliceBuffer(bytes, 0, batch5_at + 5000);
    const auto serial = ReadStreamOutcomes(cut, 1);
    ASSERT_GE(serial.size(), 6u);
    EXPECT_EQ(serial[5].rfind("error: ", 0), 0u) << serial[5];
    EXPECT_EQ(ReadStreamOutcomes(cut, 2), serial);
    const std::vector<RecordBatchPtr> first3(batches.begin(), batches.begin() + 3);
    const int64_t batch3_at = BigStream(codec, first3)->size() - 8;
    auto flipped = AllocateBuffer(bytes->size()).ValueOrDie();
    std::memcpy(flipped->mutable_data(), bytes->data(), static_cast<size_t>(bytes->size()));
    // The magic number of batch 3's first compressed frame.
    const uint8_t magic[2][4] = {{0x04, 0x22, 0x4D, 0x18}, {0x28, 0xB5, 0x2F, 0xFD}};
    const uint8_t* m = magic[codec == CompressionType::kZstd ? 1 : 0];
    int64_t at = batch3_at;
    while (at + 4 <= bytes->size() && std::memcmp(bytes->data() + at, m, 4) != 0) ++at;
    ASSERT_LT(at + 4, bytes->size());
    flipped->mutable_data()[at] ^= 0x5A;
    const auto serial_flipped = ReadStreamOutcomes(flipped, 1);
    ASSERT_GE(serial_flipped.size(), 4u);
    EXPECT_EQ(serial_flipped[3].rfind("error: ", 0), 0u) << serial_flipped[3];
    EXPECT_EQ(ReadStreamOutcomes(flipped, 2), serial_flipped);
  }
}

// The first batch is claimed and not yet started when the next message, a
// dictionary replacement, is framed: it must still be decoded with the
// dictionary it was sent with.
TEST(PipelineConcurrency, ADictionaryBatchWaitsForTheBatchesClaimedBeforeIt) {
  const auto all = BigBatches(7);
  const std::vector<RecordBatchPtr> batches = {all[2], all[6], all[6]};
  for (CompressionType codec : {CompressionType::kLz4Frame, CompressionType::kNone}) {
    BufferPtr bytes = BigStream(codec, batches);
    for (int round = 0; round < 5; ++round) {
      auto reader = StreamReader::Open(bytes, Threads(2)).ValueOrDie();
      for (const auto& expected : batches) {
        auto batch = reader->Next();
        ASSERT_TRUE(batch.ok()) << batch.status();
        ASSERT_NE(*batch, nullptr);
        ASSERT_TRUE((*batch)->Equals(*expected));
      }
      EXPECT_EQ(reader->stats().num_replaced_dictionaries, 1);
    }
  }
}

TEST(PipelineConcurrency, FileReaderNextReadAllAndEarlyDestruction) {
  // The file format keeps one dictionary.
  const auto batches = BigBatches(8, /*one_dictionary=*/true);
  IpcWriteOptions write;
  write.compression = CompressionType::kZstd;
  BufferPtr bytes = SerializeFile(BigSchema(), batches, write).ValueOrDie();
  {
    auto reader = FileReader::Open(bytes, Threads(2)).ValueOrDie();
    ASSERT_TRUE(reader->Next().ok());  // Next()'s cursor is ReadAll's own business
    auto all = reader->ReadAll().ValueOrDie();
    ASSERT_EQ(all.size(), batches.size());
    for (size_t i = 0; i < all.size(); ++i) ASSERT_TRUE(all[i]->Equals(*batches[i]));
    for (size_t i = 1; i < batches.size(); ++i) {
      auto batch = reader->Next();
      ASSERT_TRUE(batch.ok()) << batch.status();
      ASSERT_NE(*batch, nullptr);
      ASSERT_TRUE((*batch)->Equals(*batches[i]));
    }
    auto end = reader->Next();
    ASSERT_TRUE(end.ok());
    EXPECT_EQ(*end, nullptr);
  }
  // Readers destroyed right after their first batch, with later ones being
  // decoded on a pool thread (ASan and TSan watch this one).
  BufferPtr stream = BigStream(CompressionType::kLz4Frame, BigBatches(4));
  for (int round = 0; round < 10; ++round) {
    auto file = FileReader::Open(bytes, Threads(2)).ValueOrDie();
    ASSERT_TRUE(file->Next().ok());
    auto reader = StreamReader::Open(stream, Threads(2)).ValueOrDie();
    ASSERT_TRUE(reader->Next().ok());
  }
}

TEST(PipelineConcurrency, CountRowsCountsTheBatchesDecodedAhead) {
  const auto batches = BigBatches(6);
  BufferPtr bytes = BigStream(CompressionType::kLz4Frame, batches);
  int64_t total = 0;
  for (const auto& b : batches) total += b->num_rows();
  for (int round = 0; round < 10; ++round) {
    auto reader = StreamReader::Open(bytes, Threads(2)).ValueOrDie();
    auto first = reader->Next();
    ASSERT_TRUE(first.ok() && *first != nullptr);
    auto rows = reader->CountRows();
    ASSERT_TRUE(rows.ok()) << rows.status();
    EXPECT_EQ(*rows, total - batches[0]->num_rows());
    auto next = reader->Next();
    ASSERT_TRUE(next.ok());
    EXPECT_EQ(*next, nullptr);
  }
}

}  // namespace
}  // namespace alkaid::ipc
