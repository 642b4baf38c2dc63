// What writing and reading integration JSON costs in memory: a batch and a
// fixed buffer, whatever the batch's length or the document's size. Each
// case runs in a child process so its peak resident memory is its own.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "alkaid/integration_json/integration.h"
#include "alkaid/io/output.h"
#include "test_util/sanitizers.h"

namespace alkaid::integration_json {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

// Resident memory now, from /proc/self/statm.
int64_t CurrentRssBytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * ::sysconf(_SC_PAGESIZE);
}

struct ChildUsage {
  bool ok = false;
  int64_t start_rss = 0;  // when `work` began
  int64_t peak_rss = 0;   // the child's high-water mark
};

// Runs `work` in a child process; its peak RSS comes back through a pipe.
ChildUsage RunInChild(const std::function<bool()>& work) {
  int fds[2];
  if (::pipe(fds) != 0) return {};
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    int64_t report[3] = {0, CurrentRssBytes(), 0};
    report[0] = work() ? 1 : 0;
    struct rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    report[2] = static_cast<int64_t>(usage.ru_maxrss) * 1024;
    ssize_t n = ::write(fds[1], report, sizeof(report));
    ::_exit(n == sizeof(report) ? 0 : 1);
  }
  ::close(fds[1]);
  int64_t report[3] = {0, 0, 0};
  ssize_t n = ::read(fds[0], report, sizeof(report));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ChildUsage out;
  out.ok = n == sizeof(report) && WIFEXITED(status) && WEXITSTATUS(status) == 0 && report[0] == 1;
  out.start_rss = report[1];
  out.peak_rss = report[2];
  return out;
}

// An int64 column of `n` values (i % 1000, so every page is touched).
RecordBatchPtr Int64Batch(int64_t n, MemoryPool* pool) {
  auto values = AllocateBuffer(n * 8, pool).ValueOrDie();
  auto* v = values->mutable_data_as<int64_t>();
  for (int64_t i = 0; i < n; ++i) v[i] = i % 1000;
  auto schema = std::make_shared<Schema>(FieldVector{field("v", int64())});
  return RecordBatch::Make(schema, n, {ArrayData::Make(int64(), n, {nullptr, values}, 0)});
}

// The bound: a batch of 2^26 int64 values (512 MiB) goes to JSON in
// at most 1.2 times its own size plus a few MiB. Before, the writer built a
// document per column: about 16 times the text, some 20 GB here.
TEST(IntegrationJsonMemory, WritingABatchCostsTheBatchAndABuffer) {
  if (alkaid::testing::kSanitizedBuild)
    GTEST_SKIP() << "peak RSS is only meaningful without sanitizer shadow memory";
  const int64_t n = int64_t{1} << 26;
  const int64_t batch_bytes = n * 8;
  int64_t text_bytes = 0;
  SystemMemoryPool pool;
  ChildUsage usage = RunInChild([&] {
    auto batch = Int64Batch(n, &pool);
    io::MockOutputStream sink;  // counts the text, keeps none of it
    auto writer = IntegrationJsonWriter::Open(&sink, batch->schema(), DictionaryIds(), {});
    if (!writer.ok() || !(*writer)->WriteRecordBatch(*batch).ok() || !(*writer)->Close().ok()) return false;
    // The writer allocated nothing from the pool beyond the batch.
    if (pool.max_memory() != batch_bytes) return false;
    text_bytes = *sink.Tell();
    std::printf("[ measure  ] %lld values: %lld bytes of JSON\n", static_cast<long long>(n),
                static_cast<long long>(text_bytes));
    return text_bytes > 20 * batch_bytes / 8;
  });
  ASSERT_TRUE(usage.ok);
  const int64_t used = usage.peak_rss - usage.start_rss;
  std::printf("[ measure  ] batch %lld MiB, peak RSS above the start %lld MiB\n",
              static_cast<long long>(batch_bytes / kMiB), static_cast<long long>(used / kMiB));
  EXPECT_LE(used, batch_bytes * 12 / 10 + 4 * kMiB);
}

// Reading a document of many batches one at a time holds one batch (and the
// parser's chunk of text), not the document: 8 batches of 4 MiB of values
// in 100 MB of text stay within 32 MiB. Before, parsing held about 17 bytes
// per byte of text (1.7 GB here).
TEST(IntegrationJsonMemory, ReadingBatchByBatchCostsABatch) {
  if (alkaid::testing::kSanitizedBuild)
    GTEST_SKIP() << "peak RSS is only meaningful without sanitizer shadow memory";
  const int64_t n = int64_t{1} << 19;
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("alkaid_json_memory_" + std::to_string(::getpid()) + ".json"))
                               .string();
  {
    auto batch = Int64Batch(n, default_memory_pool());
    std::ofstream out(path, std::ios::binary);
    auto writer = IntegrationJsonWriter::Open(&out, batch->schema(), DictionaryIds(), {});
    ASSERT_TRUE(writer.ok());
    for (int b = 0; b < 8; ++b) ASSERT_TRUE((*writer)->WriteRecordBatch(*batch).ok());
    ASSERT_TRUE((*writer)->Close().ok());
  }
  const int64_t text_bytes = static_cast<int64_t>(std::filesystem::file_size(path));
  ChildUsage usage = RunInChild([&] {
    auto reader = IntegrationJsonReader::OpenFile(path);
    if (!reader.ok()) return false;
    int batches = 0;
    while (true) {
      auto batch = (*reader)->Next();
      if (!batch.ok()) return false;
      if (*batch == nullptr) break;
      if ((*batch)->num_rows() != n) return false;
      ++batches;
    }
    return batches == 8;
  });
  std::filesystem::remove(path);
  ASSERT_TRUE(usage.ok);
  const int64_t used = usage.peak_rss - usage.start_rss;
  std::printf("[ measure  ] %lld MB of text in 8 batches of %lld MiB: peak RSS above the start %lld MiB\n",
              static_cast<long long>(text_bytes / 1000000), static_cast<long long>(n * 8 / kMiB),
              static_cast<long long>(used / kMiB));
  EXPECT_GT(text_bytes, 80 * kMiB);
  EXPECT_LE(used, 32 * kMiB);
}

}  // namespace
}  // namespace alkaid::integration_json
