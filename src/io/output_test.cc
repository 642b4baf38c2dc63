#include "alkaid/io/output.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace alkaid::io {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("alkaid_output_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

TEST(BufferOutputStream, WritesGrowAndFinish) {
  SystemMemoryPool pool;
  auto stream = BufferOutputStream::Create(16, &pool).ValueOrDie();
  std::string expected;
  for (int i = 0; i < 1000; ++i) {
    std::string piece = "chunk" + std::to_string(i);
    ASSERT_TRUE(stream->Write(piece.data(), static_cast<int64_t>(piece.size())).ok());
    expected += piece;
  }
  EXPECT_EQ(*stream->Tell(), static_cast<int64_t>(expected.size()));
  EXPECT_GE(stream->capacity(), static_cast<int64_t>(expected.size()));
  BufferPtr out = stream->Finish().ValueOrDie();
  EXPECT_EQ(out->view(), expected);
  EXPECT_TRUE(stream->closed());
  EXPECT_TRUE(stream->Write("x", 1).IsIOError());
  out.reset();
  EXPECT_EQ(pool.bytes_allocated(), 0);
}

TEST(BufferOutputStream, WriteVAndBufferOverload) {
  auto stream = BufferOutputStream::Create(0).ValueOrDie();
  const IoSlice slices[] = {{"ab", 2}, {nullptr, 0}, {"cde", 3}};
  ASSERT_TRUE(stream->WriteV(slices).ok());
  ASSERT_TRUE(stream->Write(Buffer::FromString("fg")).ok());
  EXPECT_TRUE(stream->Write(BufferPtr()).IsInvalid());
  EXPECT_TRUE(stream->Write("x", -1).IsInvalid());
  EXPECT_EQ(*stream->Tell(), 7);
  EXPECT_EQ(stream->Finish().ValueOrDie()->view(), "abcdefg");
  ASSERT_TRUE(stream->Reset(8).ok());
  ASSERT_TRUE(stream->Write("z", 1).ok());
  EXPECT_EQ(stream->Finish().ValueOrDie()->view(), "z");
}

TEST(FixedSizeBufferWriter, WritesUntilFull) {
  auto target = AllocateBuffer(8).ValueOrDie();
  FixedSizeBufferWriter writer(target);
  ASSERT_TRUE(writer.Write("12345", 5).ok());
  EXPECT_TRUE(writer.Write("6789", 4).IsIOError());  // would overflow: nothing written
  EXPECT_EQ(*writer.Tell(), 5);
  const IoSlice slices[] = {{"67", 2}, {"8", 1}};
  ASSERT_TRUE(writer.WriteV(slices).ok());
  EXPECT_EQ(target->view(), "12345678");
  ASSERT_TRUE(writer.Seek(1).ok());
  ASSERT_TRUE(writer.Write("X", 1).ok());
  EXPECT_EQ(target->view(), "1X345678");
  EXPECT_TRUE(writer.Seek(9).IsIndexError());
  ASSERT_TRUE(writer.Close().ok());
  EXPECT_TRUE(writer.Write("a", 1).IsIOError());
}

TEST(FixedSizeBufferWriter, ImmutableBufferHasNoRoom) {
  FixedSizeBufferWriter writer(Buffer::FromString("abc"));
  EXPECT_TRUE(writer.Write("a", 1).IsIOError());
}

// Pieces large enough to take the cache-bypassing copy path, written at
// destination offsets that are not 16-byte aligned, with lengths that leave
// a ragged tail: every byte must still land where it belongs.
std::vector<uint8_t> Pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  uint32_t x = seed * 2654435761u + 1;
  for (auto& b : v) {
    x = x * 1103515245u + 12345u;
    b = static_cast<uint8_t>(x >> 16);
  }
  return v;
}

TEST(BufferOutputStream, LargePiecesAtUnalignedOffsets) {
  const auto a = Pattern(3, 1), b = Pattern((1 << 20) + 13, 2), c = Pattern(262144 + 7, 3);
  auto stream = BufferOutputStream::Create(0).ValueOrDie();
  ASSERT_TRUE(stream->Write(a.data(), 3).ok());
  const IoSlice slices[] = {{b.data(), static_cast<int64_t>(b.size())},
                            {a.data(), 1},
                            {c.data(), static_cast<int64_t>(c.size())}};
  ASSERT_TRUE(stream->WriteV(slices).ok());
  ASSERT_TRUE(stream->Write(b.data() + 5, 300000).ok());
  std::vector<uint8_t> expected(a);
  expected.insert(expected.end(), b.begin(), b.end());
  expected.push_back(a[0]);
  expected.insert(expected.end(), c.begin(), c.end());
  expected.insert(expected.end(), b.begin() + 5, b.begin() + 5 + 300000);
  BufferPtr out = stream->Finish().ValueOrDie();
  ASSERT_EQ(out->size(), static_cast<int64_t>(expected.size()));
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), out->data()));
}

// Pages of the allocation from `from` to its capacity that are resident.
int64_t ResidentPagesFrom(const Buffer& buffer, int64_t from) {
  const int64_t page = ::sysconf(_SC_PAGESIZE);
  const auto base = reinterpret_cast<uintptr_t>(buffer.data());
  if (base % static_cast<uintptr_t>(page) != 0) return -1;
  const int64_t start = (from + page - 1) / page * page;
  const int64_t end = buffer.capacity() / page * page;
  if (end <= start) return 0;
  std::vector<unsigned char> resident(static_cast<size_t>((end - start) / page));
  if (::mincore(const_cast<uint8_t*>(buffer.data()) + start, static_cast<size_t>(end - start),
                resident.data()) != 0) {
    return -1;
  }
  return std::count_if(resident.begin(), resident.end(), [](unsigned char r) { return r & 1; });
}

// A large stream (its pages faulted in a window ahead of the writes): every
// byte lands where it belongs, whether the stream started large or grew,
// and after Finish the pages past the end that were faulted in ahead but
// never written are given back and read as zero.
TEST(BufferOutputStream, LargeStreamFaultsAheadAndGivesBackTheRest) {
  const auto piece = Pattern(1300001, 9);
  for (int64_t initial : {int64_t{0}, int64_t{64} << 20}) {
    SystemMemoryPool pool;
    auto stream = BufferOutputStream::Create(initial, &pool).ValueOrDie();
    std::vector<uint8_t> expected;
    for (int i = 0; i < 15; ++i) {
      const size_t n = piece.size() - static_cast<size_t>(i) * 1000;
      if (i % 3 == 0) {
        ASSERT_TRUE(stream->Write(piece.data(), static_cast<int64_t>(n)).ok());
      } else {
        const IoSlice slices[] = {{piece.data(), static_cast<int64_t>(n)}, {piece.data(), 5}};
        ASSERT_TRUE(stream->WriteV(slices).ok());
        expected.insert(expected.end(), piece.begin(), piece.begin() + static_cast<ptrdiff_t>(n));
        expected.insert(expected.end(), piece.begin(), piece.begin() + 5);
        continue;
      }
      expected.insert(expected.end(), piece.begin(), piece.begin() + static_cast<ptrdiff_t>(n));
    }
    BufferPtr out = stream->Finish().ValueOrDie();
    ASSERT_EQ(out->size(), static_cast<int64_t>(expected.size()));
    ASSERT_TRUE(std::equal(expected.begin(), expected.end(), out->data())) << initial;
    if (initial > 0) {
      ASSERT_GE(out->capacity(), out->size() + (int64_t{4} << 20));
    }
    EXPECT_EQ(ResidentPagesFrom(*out, out->size()), 0) << "initial capacity " << initial;
    const uint8_t* tail = out->data() + out->size();
    EXPECT_TRUE(std::all_of(tail, out->data() + out->capacity(), [](uint8_t b) { return b == 0; }));
    // The stream starts over cleanly.
    ASSERT_TRUE(stream->Reset(int64_t{16} << 20).ok());
    ASSERT_TRUE(stream->Write(piece.data(), 100).ok());
    EXPECT_TRUE(std::equal(piece.begin(), piece.begin() + 100, stream->Finish().ValueOrDie()->data()));
    out.reset();
    EXPECT_EQ(pool.bytes_allocated(), 0);
  }
}

TEST(FixedSizeBufferWriter, LargePiecesAtUnalignedOffsets) {
  const auto big = Pattern(700001, 4);
  auto target = AllocateBuffer(700001 + 9).ValueOrDie();
  FixedSizeBufferWriter writer(target);
  ASSERT_TRUE(writer.Write("123456789", 9).ok());
  const IoSlice slices[] = {{big.data(), 400000}, {big.data() + 400000, 300001}};
  ASSERT_TRUE(writer.WriteV(slices).ok());
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(target->data()), 9), "123456789");
  EXPECT_TRUE(std::equal(big.begin(), big.end(), target->data() + 9));
}

TEST(MockOutputStream, CountsOnly) {
  MockOutputStream mock;
  ASSERT_TRUE(mock.Write("abc", 3).ok());
  const IoSlice slices[] = {{"ab", 2}, {"cdef", 4}};
  ASSERT_TRUE(mock.WriteV(slices).ok());
  EXPECT_EQ(*mock.Tell(), 9);
  ASSERT_TRUE(mock.Close().ok());
  EXPECT_TRUE(mock.Write("a", 1).IsIOError());
}

TEST(FileOutputStream, WriteAndGatherWrite) {
  const std::string path = TempPath("gather");
  {
    auto file = FileOutputStream::Open(path).ValueOrDie();
    ASSERT_TRUE(file->Write("head:", 5).ok());
    // More slices than IOV_MAX to exercise chunked writev.
    std::vector<std::string> pieces;
    for (int i = 0; i < 3000; ++i) pieces.push_back(std::to_string(i % 10));
    std::vector<IoSlice> slices;
    for (const auto& p : pieces) slices.push_back({p.data(), 1});
    slices.push_back({nullptr, 0});
    ASSERT_TRUE(file->WriteV(slices).ok());
    EXPECT_EQ(*file->Tell(), 3005);
    ASSERT_TRUE(file->Close().ok());
    EXPECT_TRUE(file->closed());
    EXPECT_TRUE(file->Close().ok());
    EXPECT_TRUE(file->Write("x", 1).IsIOError());
  }
  std::string content = ReadFile(path);
  ASSERT_EQ(content.size(), 3005u);
  EXPECT_EQ(content.substr(0, 8), "head:012");
  EXPECT_EQ(content.back(), '9');

  {  // Truncates on reopen; append mode continues at the end.
    auto file = FileOutputStream::Open(path).ValueOrDie();
    ASSERT_TRUE(file->Write("new", 3).ok());
  }
  {
    auto file = FileOutputStream::Open(path, /*append=*/true).ValueOrDie();
    EXPECT_EQ(*file->Tell(), 3);
    ASSERT_TRUE(file->Write("+more", 5).ok());
  }
  EXPECT_EQ(ReadFile(path), "new+more");
  std::remove(path.c_str());
}

TEST(FileOutputStream, OpenFailureNamesPath) {
  auto result = FileOutputStream::Open("/nonexistent-dir-alkaid/x.arrow");
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsIOError());
  EXPECT_NE(result.status().message().find("/nonexistent-dir-alkaid/x.arrow"), std::string::npos);
}

TEST(FileOutputStream, FromDescriptorPipe) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  {
    auto out = FileOutputStream::FromDescriptor(fds[1], /*owns_fd=*/true).ValueOrDie();
    const IoSlice slices[] = {{"pi", 2}, {"pe", 2}};
    ASSERT_TRUE(out->WriteV(slices).ok());
    EXPECT_EQ(*out->Tell(), 4);
  }
  char buf[8] = {};
  EXPECT_EQ(::read(fds[0], buf, sizeof(buf)), 4);
  EXPECT_EQ(std::string(buf, 4), "pipe");
  ::close(fds[0]);
  EXPECT_TRUE(FileOutputStream::FromDescriptor(-1, false).status().IsInvalid());
}


// Aligned writes hold back what follows the last 2 MiB boundary until Flush,
// Close or destruction, and the file ends up byte for byte what was written,
// whatever mix of sizes, gather writes and flushes produced it.
TEST(FileOutputStream, AlignedWritesHoldBackTheTailAndKeepEveryByte) {
  const std::string path = TempPath("aligned");
  constexpr int64_t kStretch = int64_t{2} << 20;
  std::string expected;
  std::mt19937_64 rng(7);
  auto piece = [&](int64_t n) {
    std::string s(static_cast<size_t>(n), '\0');
    for (auto& c : s) c = static_cast<char>(rng());
    return s;
  };
  {
    auto file = FileOutputStream::Open(path, /*append=*/false, /*aligned_writes=*/true)
                    .ValueOrDie();
    // A small write stays in memory: nothing reached the file yet.
    std::string a = piece(1000);
    ASSERT_TRUE(file->Write(a.data(), static_cast<int64_t>(a.size())).ok());
    expected += a;
    EXPECT_EQ(ReadFile(path).size(), 0u);
    EXPECT_EQ(*file->Tell(), 1000);
    // Crossing the first boundary writes exactly up to it.
    std::string b = piece(kStretch + 5000), c = piece(700);
    const IoSlice two[] = {{b.data(), static_cast<int64_t>(b.size())}, {nullptr, 0},
                           {c.data(), static_cast<int64_t>(c.size())}};
    ASSERT_TRUE(file->WriteV(two).ok());
    expected += b + c;
    EXPECT_EQ(static_cast<int64_t>(ReadFile(path).size()), kStretch);
    // Flush writes the rest; later writes realign on the next boundary.
    ASSERT_TRUE(file->Flush().ok());
    EXPECT_EQ(ReadFile(path), expected);
    const auto flushed = static_cast<int64_t>(expected.size());
    for (int64_t n : {int64_t{1}, kStretch - 1, int64_t{3} * kStretch + 17, int64_t{64} << 10}) {
      std::string d = piece(n);
      ASSERT_TRUE(file->Write(d.data(), n).ok());
      expected += d;
      EXPECT_EQ(static_cast<int64_t>(ReadFile(path).size()),
                std::max(flushed, static_cast<int64_t>(expected.size()) / kStretch * kStretch));
    }
    EXPECT_EQ(*file->Tell(), static_cast<int64_t>(expected.size()));
    // No Close(): destruction writes the held bytes.
  }
  EXPECT_EQ(ReadFile(path), expected);
  {
    // Off (the default): every write reaches the file at once.
    auto file = FileOutputStream::Open(path).ValueOrDie();
    ASSERT_TRUE(file->Write("abc", 3).ok());
    EXPECT_EQ(ReadFile(path), "abc");
    ASSERT_TRUE(file->Close().ok());
  }
  std::remove(path.c_str());
}

// A pipe is never held back, even when aligned writes are asked for: a reader
// at the other end sees each write at once.
TEST(FileOutputStream, PipeIsNeverHeldBack) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  auto out = FileOutputStream::FromDescriptor(fds[1], /*owns_fd=*/true,
                                              /*aligned_writes=*/true).ValueOrDie();
  ASSERT_TRUE(out->Write("ping", 4).ok());
  char got[4] = {};
  ASSERT_EQ(::read(fds[0], got, 4), 4);
  EXPECT_EQ(std::string(got, 4), "ping");
  ASSERT_TRUE(out->Close().ok());
  ::close(fds[0]);
}

}  // namespace
}  // namespace alkaid::io
