// Batches read one ahead on a pool thread (IpcReadOptions::prefetch_next_batch,
// reader_prefetch.h). The suite names end in "Concurrency" so that CI runs
// them under ThreadSanitizer.
#include "reader_prefetch.h"

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "test_util/array_from_json.h"

namespace alkaid::ipc {
namespace {

using ::alkaid::testing::ArrayFromJSON;
using internal::BatchPrefetcher;

SchemaPtr TestSchema() { return schema({field("i", int64()), field("s", utf8())}); }

RecordBatchPtr MakeBatch(int b) {
  const int rows = 2000 + 100 * b;
  std::string ints = "[", strs = "[";
  for (int r = 0; r < rows; ++r) {
    const char* sep = r == 0 ? "" : ",";
    ints += sep + std::to_string(int64_t{r} * (b + 1));
    strs += std::string(sep) + "\"s" + std::to_string((r * 7 + b) % 301) + "\"";
  }
  ints += "]";
  strs += "]";
  return RecordBatch::Make(TestSchema(), rows,
                           {ArrayFromJSON(int64(), ints), ArrayFromJSON(utf8(), strs)});
}

std::vector<RecordBatchPtr> Batches(int n) {
  std::vector<RecordBatchPtr> out;
  for (int b = 0; b < n; ++b) out.push_back(MakeBatch(b));
  return out;
}

// Results 0..n-1 where result `error_at` is an error; counts the calls and
// the most calls ever made ahead of what Next() handed out.
struct Source {
  int n = 8;
  int error_at = -1;
  std::atomic<int> calls{0};
  std::atomic<int> handed_out{0};
  std::atomic<int> max_ahead{0};
  std::atomic<bool> concurrent{false};
  std::atomic<int> inside{0};

  Result<RecordBatchPtr> Produce() {
    if (inside.fetch_add(1) != 0) concurrent.store(true);
    const int k = calls.fetch_add(1);
    const int ahead = k - handed_out.load();
    if (ahead > max_ahead.load()) max_ahead.store(ahead);
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    inside.fetch_sub(1);
    if (k == error_at) return Status::Invalid("batch ", k, " is broken");
    if (k >= n) return RecordBatchPtr();
    return MakeBatch(k);
  }
};

TEST(PrefetchConcurrency, ResultsAndErrorsComeInOrderOneAhead) {
  Source source;
  source.error_at = 3;
  {
    BatchPrefetcher prefetch([&] { return source.Produce(); });
    for (int k = 0; k < 3; ++k) {
      auto r = prefetch.Next();
      ASSERT_TRUE(r.ok()) << r.status();
      ASSERT_NE(*r, nullptr);
      EXPECT_EQ((*r)->num_rows(), 2000 + 100 * k) << "batch " << k;
      source.handed_out.fetch_add(1);
      std::this_thread::sleep_for(std::chrono::milliseconds(2));  // the caller's own work
    }
    auto err = prefetch.Next();
    ASSERT_FALSE(err.ok()) << "the error of call 3 must come fourth";
    EXPECT_NE(err.status().message().find("batch 3 is broken"), std::string::npos);
    source.handed_out.fetch_add(1);
    // Nothing was started after the error: the next call runs now, in order.
    EXPECT_EQ(source.calls.load(), 4);
    for (int k = 4; k < 8; ++k) {
      auto r = prefetch.Next();
      ASSERT_TRUE(r.ok()) << r.status();
      ASSERT_NE(*r, nullptr);
      EXPECT_EQ((*r)->num_rows(), 2000 + 100 * k) << "batch " << k;
      source.handed_out.fetch_add(1);
    }
    auto end = prefetch.Next();
    ASSERT_TRUE(end.ok());
    EXPECT_EQ(*end, nullptr);
    EXPECT_EQ(source.calls.load(), 9) << "nothing is read ahead past the end";
  }
  EXPECT_LE(source.max_ahead.load(), 1) << "more than one batch was decoded ahead";
  EXPECT_FALSE(source.concurrent.load()) << "produce ran on two threads at once";
}

// Destroying the prefetcher while a pool thread is inside produce waits for
// it, and nothing runs afterwards.
TEST(PrefetchConcurrency, DestructionWaitsForTheBatchInProgress) {
  std::atomic<bool> started{false}, finished{false};
  std::atomic<int> calls{0};
  {
    BatchPrefetcher prefetch([&]() -> Result<RecordBatchPtr> {
      if (calls.fetch_add(1) == 1) {
        started.store(true);
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        finished.store(true);
      }
      return MakeBatch(0);
    });
    ASSERT_TRUE(prefetch.Next().ok());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!started.load() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    ASSERT_TRUE(started.load()) << "the next batch was not read ahead";
  }
  EXPECT_TRUE(finished.load()) << "the prefetcher was destroyed while produce still ran";
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(calls.load(), 2);
}

IpcReadOptions PrefetchOptions(bool on) {
  IpcReadOptions options;
  options.use_threads = on;
  options.num_threads = 2;
  options.prefetch_next_batch = on;
  return options;
}

std::vector<std::string> ReadStreamOutcomes(const BufferPtr& bytes, bool prefetch) {
  std::vector<std::string> out;
  auto reader = StreamReader::Open(bytes, PrefetchOptions(prefetch));
  if (!reader.ok()) return {"open: " + reader.status().ToString()};
  for (int guard = 0; guard < 100; ++guard) {
    auto batch = (*reader)->Next();
    if (!batch.ok()) {
      out.push_back("error: " + batch.status().ToString());
      break;
    }
    if (*batch == nullptr) break;
    out.push_back(std::to_string((*batch)->num_rows()));
  }
  return out;
}

TEST(PrefetchConcurrency, StreamReaderGivesTheSameBatchesAndErrorsInOrder) {
  const auto batches = Batches(10);
  IpcWriteOptions write;
  write.compression = CompressionType::kLz4Frame;
  BufferPtr bytes = SerializeStream(TestSchema(), batches, write).ValueOrDie();
  // The same batches, decoded one ahead.
  {
    auto reader = StreamReader::Open(bytes, PrefetchOptions(true)).ValueOrDie();
    for (const auto& expected : batches) {
      auto batch = reader->Next();
      ASSERT_TRUE(batch.ok()) << batch.status();
      ASSERT_NE(*batch, nullptr);
      ASSERT_TRUE((*batch)->Equals(*expected));
    }
    auto end = reader->Next();
    ASSERT_TRUE(end.ok());
    EXPECT_EQ(*end, nullptr);
  }
  // A stream cut inside batch 4: batches 0-3, then the error, exactly as
  // without prefetching.
  const std::vector<RecordBatchPtr> first4(batches.begin(), batches.begin() + 4);
  const int64_t batch4_at = SerializeStream(TestSchema(), first4, write).ValueOrDie()->size() - 8;
  BufferPtr cut = SliceBuffer(bytes, 0, batch4_at + 200);
  const auto serial = ReadStreamOutcomes(cut, false);
  const auto ahead = ReadStreamOutcomes(cut, true);
  ASSERT_EQ(serial.size(), 5u);
  EXPECT_EQ(serial[4].rfind("error: ", 0), 0u) << serial[4];
  EXPECT_EQ(ahead, serial);
}

TEST(PrefetchConcurrency, FileReaderNextAndEarlyDestruction) {
  const auto batches = Batches(12);
  IpcWriteOptions write;
  write.compression = CompressionType::kZstd;
  BufferPtr bytes = SerializeFile(TestSchema(), batches, write).ValueOrDie();
  {
    auto reader = FileReader::Open(bytes, PrefetchOptions(true)).ValueOrDie();
    for (const auto& expected : batches) {
      auto batch = reader->Next();
      ASSERT_TRUE(batch.ok()) << batch.status();
      ASSERT_NE(*batch, nullptr);
      ASSERT_TRUE((*batch)->Equals(*expected));
    }
    auto end = reader->Next();
    ASSERT_TRUE(end.ok());
    EXPECT_EQ(*end, nullptr);
  }
  // Readers destroyed right after their first batch, with the second being
  // decoded on a pool thread (ASan and TSan watch this one).
  for (int round = 0; round < 20; ++round) {
    auto file = FileReader::Open(bytes, PrefetchOptions(true)).ValueOrDie();
    ASSERT_TRUE(file->Next().ok());
    auto stream = StreamReader::Open(SerializeStream(TestSchema(), batches, write).ValueOrDie(),
                                     PrefetchOptions(true))
                      .ValueOrDie();
    ASSERT_TRUE(stream->Next().ok());
  }
}

}  // namespace
}  // namespace alkaid::ipc
