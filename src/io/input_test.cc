#include "alkaid/io/input.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

namespace alkaid::io {
namespace {

namespace fs = std::filesystem;

// A temporary file removed when the test ends.
class TempFile {
 public:
  explicit TempFile(const std::string& contents) {
    static int counter = 0;
    path_ = (fs::temp_directory_path() /
             ("alkaid_input_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
                .string();
    std::ofstream out(path_, std::ios::binary);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string Str(const BufferPtr& b) { return std::string(b->view()); }

TEST(BufferReader, ReadsAreZeroCopySlices) {
  auto parent = Buffer::FromString("hello, world");
  BufferReader reader(parent);
  ASSERT_TRUE(reader.supports_zero_copy());
  auto first = reader.Read(5).ValueOrDie();
  EXPECT_EQ(Str(first), "hello");
  EXPECT_EQ(first->data(), parent->data());
  auto rest = reader.Read(100).ValueOrDie();
  EXPECT_EQ(Str(rest), ", world");
  EXPECT_EQ(rest->data(), parent->data() + 5);
  EXPECT_EQ(reader.Tell().ValueOrDie(), 12);
  EXPECT_EQ(reader.Read(4).ValueOrDie()->size(), 0);
}

TEST(BufferReader, SlicesKeepParentAlive) {
  BufferPtr slice;
  {
    auto parent = Buffer::FromString("abcdefgh");
    BufferReader reader(parent);
    slice = reader.ReadAt(2, 3).ValueOrDie();
  }
  EXPECT_EQ(Str(slice), "cde");
}

TEST(BufferReader, ReadAtIntoMemoryAndBounds) {
  BufferReader reader(Buffer::FromString("0123456789"));
  char out[8] = {};
  EXPECT_EQ(reader.ReadAt(7, 8, out).ValueOrDie(), 3);
  EXPECT_EQ(std::string(out, 3), "789");
  EXPECT_EQ(reader.ReadAt(20, 4).ValueOrDie()->size(), 0);
  EXPECT_TRUE(reader.ReadAt(-1, 4).status().IsInvalid());
  EXPECT_TRUE(reader.ReadAt(0, -4).status().IsInvalid());
  EXPECT_EQ(reader.GetSize().ValueOrDie(), 10);
  ASSERT_TRUE(reader.Seek(4).ok());
  EXPECT_EQ(Str(reader.Read(2).ValueOrDie()), "45");
  EXPECT_FALSE(reader.Seek(11).ok());
  ASSERT_TRUE(reader.Close().ok());
  EXPECT_TRUE(reader.closed());
  EXPECT_FALSE(reader.Read(1).ok());
}

TEST(ReadableFile, ReadsCopiesIntoAlignedBuffers) {
  TempFile file("The quick brown fox");
  auto f = ReadableFile::Open(file.path()).ValueOrDie();
  EXPECT_EQ(f->GetSize().ValueOrDie(), 19);
  auto b = f->Read(3).ValueOrDie();
  EXPECT_EQ(Str(b), "The");
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b->data()) % kAlignment, 0u);
  EXPECT_EQ(Str(f->ReadAt(10, 5).ValueOrDie()), "brown");
  EXPECT_EQ(f->Tell().ValueOrDie(), 3);  // ReadAt does not move the position
  EXPECT_EQ(Str(f->Read(1000).ValueOrDie()), " quick brown fox");
  EXPECT_EQ(f->Read(10).ValueOrDie()->size(), 0);
  // A huge requested length does not allocate beyond the file size.
  EXPECT_EQ(f->ReadAt(0, int64_t{1} << 50).ValueOrDie()->size(), 19);
  ASSERT_TRUE(f->Close().ok());
  EXPECT_FALSE(f->ReadAt(0, 1).ok());
}

TEST(ReadableFile, MissingFileIsIOErrorNamingPath) {
  auto r = ReadableFile::Open("/nonexistent/alkaid/file.arrow");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsIOError());
  EXPECT_NE(r.status().message().find("/nonexistent/alkaid/file.arrow"), std::string::npos);
  EXPECT_NE(r.status().message().find("No such file"), std::string::npos);
}

TEST(ReadableFile, DirectoryIsIOError) {
  auto r = ReadableFile::Open(fs::temp_directory_path().string());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsIOError());
}

TEST(MemoryMappedFile, BuffersPointIntoTheMapping) {
  TempFile file("0123456789abcdef");
  auto m = MemoryMappedFile::Open(file.path()).ValueOrDie();
  ASSERT_TRUE(m->supports_zero_copy());
  const uint8_t* base = m->buffer()->data();
  ASSERT_NE(base, nullptr);
  EXPECT_EQ(m->GetSize().ValueOrDie(), 16);
  auto b = m->ReadAt(4, 6).ValueOrDie();
  EXPECT_EQ(b->data(), base + 4);
  EXPECT_EQ(Str(b), "456789");
  auto s = m->Read(2).ValueOrDie();
  EXPECT_EQ(s->data(), base);
  EXPECT_EQ(Str(s), "01");
}

// Kilobytes of the mapping starting at `base` that this process has mapped
// in its page tables (the Rss line of /proc/self/smaps); -1 if not found.
int64_t MappedRssKb(const uint8_t* base) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool in_mapping = false;
  while (std::getline(smaps, line)) {
    unsigned long long from = 0, to = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx ", &from, &to) == 2 && line.find(':') > line.find(' ')) {
      in_mapping = from == reinterpret_cast<uintptr_t>(base);
      continue;
    }
    long long kb = 0;
    if (in_mapping && std::sscanf(line.c_str(), "Rss: %lld kB", &kb) == 1) return kb;
  }
  return -1;
}

// A large read has the 8 MiB after it mapped by a background thread (the
// page tables fill without the reader touching them); with the pattern
// advised random, or populating switched off, nothing is mapped ahead.
TEST(MemoryMappedFile, LargeReadsPopulateTheRangeAfterThem) {
  TempFile file(std::string(size_t{24} << 20, 'x'));
  for (int mode = 0; mode < 3; ++mode) {
    auto m = MemoryMappedFile::Open(file.path()).ValueOrDie();
    if (mode == 1) {
      ASSERT_TRUE(m->Advise(AccessPattern::kRandom).ok());
    }
    if (mode == 2) m->set_populate_ahead(false);
    const uint8_t* base = m->buffer()->data();
    ASSERT_EQ(MappedRssKb(base), 0) << "mode " << mode;
    auto b = m->ReadAt(0, int64_t{1} << 20).ValueOrDie();  // not touched
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(mode == 0 ? 20 : 1);
    int64_t rss = 0;
    while (std::chrono::steady_clock::now() < deadline) {
      rss = MappedRssKb(base);
      if (mode == 0 && rss >= 8 * 1024) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (mode == 0) {
      EXPECT_GE(rss, 8 * 1024) << "the 8 MiB after the read were not mapped ahead";
      EXPECT_LE(rss, 12 * 1024) << "mapped far beyond the window";
    } else {
      EXPECT_EQ(rss, 0) << "mapped ahead in mode " << mode;
    }
    EXPECT_EQ(b->data()[12345], 'x');
  }
}

TEST(MemoryMappedFile, BuffersOutliveTheReader) {
  TempFile file("mapped bytes stay valid");
  BufferPtr b;
  {
    auto m = MemoryMappedFile::Open(file.path()).ValueOrDie();
    b = m->ReadAt(7, 5).ValueOrDie();
    ASSERT_TRUE(m->Close().ok());
  }
  EXPECT_EQ(Str(b), "bytes");
}

TEST(MemoryMappedFile, EmptyFile) {
  TempFile file("");
  auto m = MemoryMappedFile::Open(file.path()).ValueOrDie();
  EXPECT_EQ(m->GetSize().ValueOrDie(), 0);
  EXPECT_EQ(m->Read(10).ValueOrDie()->size(), 0);
}

TEST(MemoryMappedFile, MissingFileIsIOError) {
  auto r = MemoryMappedFile::Open("/nonexistent/mapped.arrow");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsIOError());
  EXPECT_NE(r.status().message().find("/nonexistent/mapped.arrow"), std::string::npos);
}

// Hints never change what reads return, accept any range (clamped to the
// file; empty, negative and out-of-range ones ignored) and fail only on a
// closed file.
template <typename File>
void CheckHints(File* file, const std::string& contents) {
  const int64_t size = static_cast<int64_t>(contents.size());
  const ReadRange ranges[] = {{0, 10},       {4096, 8192},         {size - 3, 100},
                              {size, 10},    {size + 4096, 1},     {-5, 10},
                              {10, -1},      {3, 0},               {1, INT64_MAX - 1}};
  EXPECT_TRUE(file->WillNeed(ranges).ok());
  EXPECT_TRUE(file->WillNeed({}).ok());
  for (AccessPattern p : {AccessPattern::kRandom, AccessPattern::kSequential,
                          AccessPattern::kNormal}) {
    EXPECT_TRUE(file->Advise(p).ok());
  }
  EXPECT_TRUE(file->Advise(AccessPattern::kRandom).ok());
  EXPECT_EQ(Str(file->ReadAt(5000, 7).ValueOrDie()), contents.substr(5000, 7));
  EXPECT_EQ(Str(file->ReadAt(size - 4, 100).ValueOrDie()), contents.substr(contents.size() - 4));
  ASSERT_TRUE(file->Close().ok());
  EXPECT_FALSE(file->WillNeed(ranges).ok());
  EXPECT_FALSE(file->Advise(AccessPattern::kNormal).ok());
}

std::string PatternBytes(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + i % 23);
  return s;
}

TEST(ReadableFile, HintsAreOnlyHints) {
  std::string contents = PatternBytes(3 * 4096 + 123);
  TempFile f(contents);
  auto file = ReadableFile::Open(f.path()).ValueOrDie();
  CheckHints(file.get(), contents);
}

TEST(MemoryMappedFile, HintsAreOnlyHints) {
  std::string contents = PatternBytes(5 * 4096 + 7);
  TempFile f(contents);
  auto file = MemoryMappedFile::Open(f.path()).ValueOrDie();
  CheckHints(file.get(), contents);
}

TEST(MemoryMappedFile, HintsOnAnEmptyFile) {
  TempFile f("");
  auto file = MemoryMappedFile::Open(f.path()).ValueOrDie();
  const ReadRange r{0, 100};
  EXPECT_TRUE(file->WillNeed({&r, 1}).ok());
  EXPECT_TRUE(file->Advise(AccessPattern::kRandom).ok());
}

TEST(BufferReader, HintsDoNothing) {
  std::string contents = PatternBytes(9000);
  BufferReader reader(reinterpret_cast<const uint8_t*>(contents.data()),
                      static_cast<int64_t>(contents.size()));
  const ReadRange r{0, 100};
  EXPECT_TRUE(reader.WillNeed({&r, 1}).ok());
  EXPECT_TRUE(reader.Advise(AccessPattern::kRandom).ok());
  EXPECT_EQ(Str(reader.ReadAt(5000, 7).ValueOrDie()), contents.substr(5000, 7));
}

TEST(FdInputStream, ReadsFromPipeInPieces) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::string payload(3000, 'x');
  payload[2999] = 'y';
  ASSERT_EQ(::write(fds[1], payload.data(), payload.size()), 3000);
  ::close(fds[1]);
  FdInputStream in(fds[0], /*owns_fd=*/true, "pipe");
  auto a = in.Read(1000).ValueOrDie();
  EXPECT_EQ(a->size(), 1000);
  // Asking for far more than is available returns what is there.
  auto b = in.Read(int64_t{1} << 40).ValueOrDie();
  EXPECT_EQ(b->size(), 2000);
  EXPECT_EQ(b->data()[1999], 'y');
  EXPECT_EQ(in.Tell().ValueOrDie(), 3000);
  char c;
  EXPECT_EQ(in.Read(1, &c).ValueOrDie(), 0);
  ASSERT_TRUE(in.Close().ok());
  EXPECT_FALSE(in.Read(1).ok());
}

TEST(FdInputStream, OpenMissingFile) {
  auto r = FdInputStream::Open("/nonexistent/stream.arrows");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsIOError());
}

TEST(FdInputStream, OpenFileReadsAll) {
  TempFile file("stream contents");
  auto in = FdInputStream::Open(file.path()).ValueOrDie();
  EXPECT_EQ(Str(in->Read(6).ValueOrDie()), "stream");
  EXPECT_EQ(Str(in->Read(100).ValueOrDie()), " contents");
}

}  // namespace
}  // namespace alkaid::io
