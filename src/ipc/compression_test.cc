#include "alkaid/ipc/compression.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>

namespace alkaid::ipc {
namespace {

std::vector<uint8_t> Repetitive(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>((i / 7) % 13);
  return v;
}

std::vector<uint8_t> Random(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

int64_t Prefix(const Buffer& b) {
  int64_t p;
  std::memcpy(&p, b.data(), 8);
  return p;
}

class CodecTest : public ::testing::TestWithParam<CompressionType> {
 protected:
  std::unique_ptr<Codec> codec_ = Codec::Create(GetParam()).ValueOrDie();
};

TEST_P(CodecTest, RawRoundTrip) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{100}, size_t{1} << 16, size_t{3} << 20}) {
    auto input = Repetitive(n);
    std::vector<uint8_t> compressed(static_cast<size_t>(codec_->MaxCompressedLength(n)));
    auto size = codec_->Compress(input.data(), static_cast<int64_t>(n), compressed.data(),
                                 static_cast<int64_t>(compressed.size()));
    ASSERT_TRUE(size.ok()) << size.status().ToString();
    std::vector<uint8_t> output(n + 1);
    auto got = codec_->Decompress(compressed.data(), *size, output.data(), static_cast<int64_t>(n));
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(*got, static_cast<int64_t>(n));
    if (n > 0) {
      EXPECT_EQ(std::memcmp(output.data(), input.data(), n), 0);
    }
  }
}

TEST_P(CodecTest, BodyBufferRoundTrip) {
  SystemMemoryPool pool;
  auto input = Repetitive(10000);
  BufferPtr encoded = CompressBodyBuffer(*codec_, {input.data(), 10000}, &pool).ValueOrDie();
  EXPECT_EQ(Prefix(*encoded), 10000);
  EXPECT_LT(encoded->size(), 2000);
  BufferPtr decoded = DecompressBodyBuffer(*codec_, encoded, 10000, &pool).ValueOrDie();
  ASSERT_EQ(decoded->size(), 10000);
  EXPECT_EQ(std::memcmp(decoded->data(), input.data(), 10000), 0);
  encoded.reset();
  decoded.reset();
  EXPECT_EQ(pool.bytes_allocated(), 0);
}

TEST_P(CodecTest, IncompressibleIsStoredRaw) {
  auto input = Random(64, 1);
  BufferPtr encoded = CompressBodyBuffer(*codec_, {input.data(), 64}).ValueOrDie();
  ASSERT_EQ(encoded->size(), 8 + 64);
  EXPECT_EQ(Prefix(*encoded), -1);
  EXPECT_EQ(std::memcmp(encoded->data() + 8, input.data(), 64), 0);
  BufferPtr decoded = DecompressBodyBuffer(*codec_, encoded, 0).ValueOrDie();
  // Raw buffers come back as a zero-copy slice, regardless of the cap.
  EXPECT_EQ(decoded->data(), encoded->data() + 8);
  EXPECT_EQ(decoded->size(), 64);
}

TEST_P(CodecTest, EmptyBufferHasNoPrefix) {
  BufferPtr encoded = CompressBodyBuffer(*codec_, {nullptr, 0}).ValueOrDie();
  EXPECT_EQ(encoded->size(), 0);
  BufferPtr decoded = DecompressBodyBuffer(*codec_, encoded, 0).ValueOrDie();
  EXPECT_EQ(decoded->size(), 0);
  EXPECT_EQ(*ReadBodyBufferPrefix({nullptr, 0}), 0);
}

TEST_P(CodecTest, CorruptInputIsAnErrorNotACrash) {
  auto input = Repetitive(50000);
  BufferPtr encoded = CompressBodyBuffer(*codec_, {input.data(), 50000}).ValueOrDie();
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::string bytes(encoded->view());
    // Flip a few bytes after the prefix, or truncate.
    if (trial % 4 == 0) {
      bytes.resize(8 + rng() % (bytes.size() - 8));
    } else {
      for (int k = 0; k < 3; ++k) bytes[8 + rng() % (bytes.size() - 8)] ^= static_cast<char>(1 + rng() % 255);
    }
    auto result = DecompressBodyBuffer(*codec_, Buffer::FromString(bytes), 1 << 20);
    if (result.ok()) {
      // A flip in a literal can decode; the size must still be exact.
      EXPECT_EQ((*result)->size(), 50000);
    } else {
      EXPECT_TRUE(result.status().IsSerializationError()) << result.status().ToString();
    }
  }
  // Pure garbage.
  std::string garbage(200, '\x5A');
  int64_t declared = 100;
  std::memcpy(garbage.data(), &declared, 8);
  auto result = DecompressBodyBuffer(*codec_, Buffer::FromString(garbage), 1 << 20);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsSerializationError());
}

TEST_P(CodecTest, DeclaredSizeMismatchIsAnError) {
  auto input = Repetitive(4096);
  BufferPtr encoded = CompressBodyBuffer(*codec_, {input.data(), 4096}).ValueOrDie();
  for (int64_t wrong : {int64_t{4095}, int64_t{4097}, int64_t{1}, int64_t{0}}) {
    std::string bytes(encoded->view());
    std::memcpy(bytes.data(), &wrong, 8);
    auto result = DecompressBodyBuffer(*codec_, Buffer::FromString(bytes), 1 << 20);
    ASSERT_FALSE(result.ok()) << "declared " << wrong;
    EXPECT_TRUE(result.status().IsSerializationError()) << result.status().ToString();
  }
}

TEST_P(CodecTest, CapIsCheckedBeforeAllocating) {
  SystemMemoryPool pool;
  std::string bytes(16, '\0');
  int64_t huge = int64_t{1} << 50;
  std::memcpy(bytes.data(), &huge, 8);
  auto result = DecompressBodyBuffer(*codec_, Buffer::FromString(bytes), 1 << 20, &pool);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsOutOfMemory());
  EXPECT_EQ(pool.num_allocations(), 0);

  // The list form caps the sum.
  auto input = Repetitive(1000);
  BufferPtr a = CompressBodyBuffer(*codec_, {input.data(), 1000}).ValueOrDie();
  std::vector<BufferPtr> out;
  Status st = DecompressBodyBuffers(*codec_, {a, a, a}, &out, 2500, {}, &pool, 10);
  EXPECT_TRUE(st.IsOutOfMemory());
  EXPECT_NE(st.message().find("body buffer 12"), std::string::npos) << st.ToString();
  EXPECT_TRUE(DecompressBodyBuffers(*codec_, {a, a, a}, &out, 3000, {}, &pool).ok());
}

TEST_P(CodecTest, ParallelMatchesSerial) {
  std::vector<std::vector<uint8_t>> inputs;
  std::vector<ByteRange> ranges;
  for (int i = 0; i < 12; ++i) {
    inputs.push_back(i % 3 == 0 ? Random(200000 + i, i) : Repetitive(300000 + 1000 * i));
  }
  inputs.push_back({});
  for (const auto& v : inputs) ranges.push_back({v.data(), static_cast<int64_t>(v.size())});

  std::vector<std::shared_ptr<ResizableBuffer>> serial, parallel;
  ASSERT_TRUE(CompressBodyBuffers(*codec_, ranges, &serial).ok());
  ParallelOptions threads;
  threads.use_threads = true;
  threads.num_threads = 4;
  threads.min_parallel_bytes = 0;
  ASSERT_TRUE(CompressBodyBuffers(*codec_, ranges, &parallel, threads).ok());
  ASSERT_EQ(serial.size(), parallel.size());
  for (size_t i = 0; i < serial.size(); ++i) {
    EXPECT_TRUE(serial[i]->Equals(*parallel[i])) << "buffer " << i;
  }
  std::vector<BufferPtr> decoded;
  const std::vector<BufferPtr> encoded(parallel.begin(), parallel.end());
  ASSERT_TRUE(DecompressBodyBuffers(*codec_, encoded, &decoded, int64_t{1} << 30, threads).ok());
  for (size_t i = 0; i < inputs.size(); ++i) {
    ASSERT_EQ(decoded[i]->size(), static_cast<int64_t>(inputs[i].size()));
    if (!inputs[i].empty()) {
      EXPECT_EQ(std::memcmp(decoded[i]->data(), inputs[i].data(), inputs[i].size()), 0);
    }
  }
}

// Many buffers of mixed sizes on several threads, with the process-wide pool
// (second attempts allowed) and with a pool of the caller's (no second
// attempts): every buffer decodes to its input, and a pool buffer leaks no
// allocation.
TEST_P(CodecTest, ManyBuffersDecodeOnThreads) {
  std::vector<std::vector<uint8_t>> inputs;
  for (int i = 0; i < 200; ++i) {
    const size_t n = i % 10 == 0 ? size_t{600000} + static_cast<size_t>(i) : size_t{1000} * static_cast<size_t>(i % 37);
    inputs.push_back(i % 7 == 0 ? Random(n, static_cast<uint32_t>(i)) : Repetitive(n));
  }
  std::vector<BufferPtr> encoded;
  for (const auto& v : inputs) {
    encoded.push_back(CompressBodyBuffer(*codec_, {v.data(), static_cast<int64_t>(v.size())}).ValueOrDie());
  }
  encoded.push_back(nullptr);  // stays null
  for (int threads : {2, 3, 8}) {
    ParallelOptions parallel;
    parallel.use_threads = true;
    parallel.num_threads = threads;
    parallel.min_parallel_bytes = 0;
    SystemMemoryPool own_pool;
    for (MemoryPool* pool : {default_memory_pool(), static_cast<MemoryPool*>(&own_pool)}) {
      std::vector<BufferPtr> decoded;
      ASSERT_TRUE(DecompressBodyBuffers(*codec_, encoded, &decoded, int64_t{1} << 30, parallel, pool).ok());
      ASSERT_EQ(decoded.size(), encoded.size());
      EXPECT_EQ(decoded.back(), nullptr);
      for (size_t i = 0; i < inputs.size(); ++i) {
        ASSERT_NE(decoded[i], nullptr) << "buffer " << i;
        ASSERT_EQ(decoded[i]->size(), static_cast<int64_t>(inputs[i].size())) << "buffer " << i;
        if (!inputs[i].empty()) {
          ASSERT_EQ(std::memcmp(decoded[i]->data(), inputs[i].data(), inputs[i].size()), 0)
              << "buffer " << i << ", " << threads << " threads";
        }
        // The padding of a decoded buffer reads as zero.
        const int64_t size = decoded[i]->size();
        for (int64_t b = size; b < decoded[i]->capacity(); ++b) {
          ASSERT_EQ(decoded[i]->data()[b], 0) << "buffer " << i << " padding byte " << b;
        }
      }
    }
    EXPECT_EQ(own_pool.bytes_allocated(), 0);
  }
}

// Second attempts leave nothing behind: right after the call, a pool of the
// caller's holds exactly the decoded buffers (what a serial decode holds), so
// no losing attempt still owns, or will later free, an allocation.
TEST_P(CodecTest, LosingAttemptsAreCleanedUpBeforeReturn) {
  // One large buffer that both threads may end up decoding, and small ones.
  std::vector<std::vector<uint8_t>> inputs;
  inputs.push_back(Repetitive(4000000));
  for (int i = 0; i < 6; ++i) inputs.push_back(Random(20000, static_cast<uint32_t>(i)));
  for (int i = 0; i < 6; ++i) inputs.push_back(Repetitive(30000 + 1000 * static_cast<size_t>(i)));
  std::vector<BufferPtr> encoded;
  for (const auto& v : inputs) {
    encoded.push_back(CompressBodyBuffer(*codec_, {v.data(), static_cast<int64_t>(v.size())}).ValueOrDie());
  }
  int64_t serial_bytes = 0;
  {
    SystemMemoryPool pool;
    std::vector<BufferPtr> decoded;
    ASSERT_TRUE(DecompressBodyBuffers(*codec_, encoded, &decoded, int64_t{1} << 30, ParallelOptions{},
                                      &pool)
                    .ok());
    serial_bytes = pool.bytes_allocated();
    ASSERT_GT(serial_bytes, 4000000);
  }
  ParallelOptions parallel;
  parallel.use_threads = true;
  parallel.num_threads = 2;
  parallel.min_parallel_bytes = 0;
  for (int round = 0; round < 30; ++round) {
    auto pool = std::make_unique<SystemMemoryPool>();
    std::vector<BufferPtr> decoded;
    ASSERT_TRUE(DecompressBodyBuffers(*codec_, encoded, &decoded, int64_t{1} << 30, parallel,
                                      pool.get())
                    .ok());
    ASSERT_EQ(pool->bytes_allocated(), serial_bytes) << "round " << round;
    for (size_t i = 0; i < inputs.size(); ++i) {
      ASSERT_EQ(decoded[i]->size(), static_cast<int64_t>(inputs[i].size()));
      ASSERT_EQ(std::memcmp(decoded[i]->data(), inputs[i].data(), inputs[i].size()), 0) << i;
    }
    decoded.clear();
    ASSERT_EQ(pool->bytes_allocated(), 0) << "round " << round;
    pool.reset();  // a losing attempt freeing into it later would be a use after free (ASan)
  }
}

// The same for compression: a losing attempt (the caller's own buffer, or
// the slot a pool thread was filling) is freed before the call returns, and
// the bytes are those of a serial compression.
TEST_P(CodecTest, LosingCompressionAttemptsAreCleanedUpBeforeReturn) {
  std::vector<std::vector<uint8_t>> inputs;
  inputs.push_back(Repetitive(3000000));
  for (int i = 0; i < 5; ++i) inputs.push_back(Random(30000, static_cast<uint32_t>(i)));
  for (int i = 0; i < 5; ++i) inputs.push_back(Repetitive(50000 + 1000 * static_cast<size_t>(i)));
  std::vector<ByteRange> ranges;
  for (const auto& v : inputs) ranges.push_back({v.data(), static_cast<int64_t>(v.size())});
  int64_t serial_bytes = 0;
  SystemMemoryPool serial_pool;  // declared first: outlives the buffers below
  std::vector<std::shared_ptr<ResizableBuffer>> serial;
  ASSERT_TRUE(CompressBodyBuffers(*codec_, ranges, &serial, ParallelOptions{}, &serial_pool).ok());
  serial_bytes = serial_pool.bytes_allocated();
  ParallelOptions parallel;
  parallel.use_threads = true;
  parallel.num_threads = 2;
  parallel.min_parallel_bytes = 0;
  for (int round = 0; round < 20; ++round) {
    auto pool = std::make_unique<SystemMemoryPool>();
    std::vector<std::shared_ptr<ResizableBuffer>> out;
    ASSERT_TRUE(CompressBodyBuffers(*codec_, ranges, &out, parallel, pool.get()).ok());
    ASSERT_EQ(pool->bytes_allocated(), serial_bytes) << "round " << round;
    for (size_t i = 0; i < inputs.size(); ++i) {
      ASSERT_TRUE(out[i]->Equals(*serial[i])) << "buffer " << i << ", round " << round;
    }
    out.clear();
    ASSERT_EQ(pool->bytes_allocated(), 0) << "round " << round;
    pool.reset();
  }
}

// An error in one buffer is reported with that buffer's index whichever
// thread decodes it, and the first failing index wins.
TEST_P(CodecTest, ErrorInOneBufferOnThreadsNamesIt) {
  auto input = Repetitive(300000);
  BufferPtr good = CompressBodyBuffer(*codec_, {input.data(), 300000}).ValueOrDie();
  std::string bytes(good->view());
  bytes.resize(bytes.size() / 2);  // truncated frame
  BufferPtr bad = Buffer::FromString(bytes);
  for (int threads : {1, 2, 4}) {
    ParallelOptions parallel;
    parallel.use_threads = threads > 1;
    parallel.num_threads = threads;
    parallel.min_parallel_bytes = 0;
    std::vector<BufferPtr> encoded(40, good);
    encoded[23] = bad;
    encoded[31] = bad;
    std::vector<BufferPtr> decoded;
    Status st = DecompressBodyBuffers(*codec_, encoded, &decoded, int64_t{1} << 30, parallel,
                                      default_memory_pool(), 100);
    ASSERT_FALSE(st.ok()) << threads << " threads";
    EXPECT_TRUE(st.IsSerializationError()) << st.ToString();
    EXPECT_NE(st.message().find("body buffer 123"), std::string::npos) << st.ToString();
  }
}

// A writer passes the same output vector for every batch: buffers nobody
// else holds are overwritten in place, with results identical to fresh ones
// and no stale bytes left behind the new, shorter contents.
TEST_P(CodecTest, BatchOutputIsReusedInPlace) {
  const auto big = Random(100000, 7), repetitive = Repetitive(80000), small = Random(300, 8);
  std::vector<std::shared_ptr<ResizableBuffer>> out;
  ASSERT_TRUE(CompressBodyBuffers(*codec_, std::vector<ByteRange>{{big.data(), 100000},
                                                                 {repetitive.data(), 80000},
                                                                 {small.data(), 300}},
                                  &out)
                  .ok());
  const uint8_t* first = out[0]->data();
  const std::shared_ptr<ResizableBuffer> held = out[2];
  const std::string held_bytes(held->view());

  const std::vector<ByteRange> second{{repetitive.data(), 5000}, {}, {big.data(), 100000}};
  ASSERT_TRUE(CompressBodyBuffers(*codec_, second, &out).ok());
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0]->data(), first);                // overwritten in place
  EXPECT_NE(out[2].get(), held.get());             // still referenced: left alone
  EXPECT_EQ(std::string(held->view()), held_bytes);
  for (size_t i = 0; i < second.size(); ++i) {
    BufferPtr fresh = CompressBodyBuffer(*codec_, second[i]).ValueOrDie();
    EXPECT_TRUE(out[i]->Equals(*fresh)) << "buffer " << i;
    const uint8_t* tail = out[i]->data() + out[i]->size();
    const int64_t spare = out[i]->capacity() - out[i]->size();
    EXPECT_TRUE(std::all_of(tail, tail + spare, [](uint8_t b) { return b == 0; })) << "buffer " << i;
  }
}

// Threaded calls on the same output vector (as a writer makes, batch after
// batch) order buffers by the previous call's compression times: whatever
// that order, including one remembered from a call with other sizes or
// another number of buffers, every buffer holds exactly what a serial
// compression gives, and nothing beyond the results stays allocated.
TEST_P(CodecTest, RepeatedThreadedCallsOnOneOutputMatchSerial) {
  std::vector<std::vector<uint8_t>> data;
  for (int i = 0; i < 6; ++i) {
    data.push_back(i % 2 == 0 ? Random(150000 + 7000 * static_cast<size_t>(i), static_cast<uint32_t>(i))
                              : Repetitive(400000 - 30000 * static_cast<size_t>(i)));
  }
  ParallelOptions parallel;
  parallel.use_threads = true;
  parallel.num_threads = 2;
  parallel.min_parallel_bytes = 0;
  SystemMemoryPool pool;
  std::vector<std::shared_ptr<ResizableBuffer>> out;
  for (int call = 0; call < 12; ++call) {
    // Rotate which input sits at which index; every fourth call has fewer buffers.
    std::vector<ByteRange> ranges;
    const size_t n = call % 4 == 3 ? 4 : data.size();
    for (size_t i = 0; i < n; ++i) {
      const auto& v = data[(i + static_cast<size_t>(call)) % data.size()];
      const int64_t size = static_cast<int64_t>(v.size()) - (call % 3) * 1000;
      ranges.push_back({v.data(), size});
    }
    ASSERT_TRUE(CompressBodyBuffers(*codec_, ranges, &out, parallel, &pool).ok()) << call;
    ASSERT_EQ(out.size(), n);
    int64_t held = 0;
    for (size_t i = 0; i < n; ++i) {
      BufferPtr serial = CompressBodyBuffer(*codec_, ranges[i]).ValueOrDie();
      ASSERT_TRUE(out[i]->Equals(*serial)) << "call " << call << ", buffer " << i;
      held += out[i]->capacity();
    }
    EXPECT_EQ(pool.bytes_allocated(), held) << "call " << call;
  }
  out.clear();
  EXPECT_EQ(pool.bytes_allocated(), 0);
}

INSTANTIATE_TEST_SUITE_P(Codecs, CodecTest,
                         ::testing::Values(CompressionType::kLz4Frame, CompressionType::kZstd),
                         [](const auto& info) { return std::string(CompressionTypeName(info.param)); });

TEST(Compression, LevelsAndNames) {
  EXPECT_FALSE(Codec::Create(CompressionType::kNone).ok());
  EXPECT_TRUE(Codec::Create(CompressionType::kZstd, 19).ok());
  EXPECT_FALSE(Codec::Create(CompressionType::kZstd, 1000).ok());
  EXPECT_FALSE(Codec::Create(CompressionType::kLz4Frame, 13).ok());
  EXPECT_EQ(Codec::Create(CompressionType::kLz4Frame, 9).ValueOrDie()->level(), 9);
  EXPECT_EQ(*CompressionTypeFromName("lz4"), CompressionType::kLz4Frame);
  EXPECT_EQ(*CompressionTypeFromName("zstd"), CompressionType::kZstd);
  EXPECT_EQ(*CompressionTypeFromName("none"), CompressionType::kNone);
  EXPECT_FALSE(CompressionTypeFromName("gzip").ok());
  EXPECT_STREQ(CompressionTypeName(CompressionType::kLz4Frame), "lz4_frame");
}

TEST(Compression, PrefixChecks) {
  const uint8_t short_bytes[4] = {1, 2, 3, 4};
  EXPECT_TRUE(ReadBodyBufferPrefix({short_bytes, 4}).status().IsSerializationError());
  int64_t bad = -5;
  uint8_t bytes[8];
  std::memcpy(bytes, &bad, 8);
  EXPECT_FALSE(ReadBodyBufferPrefix({bytes, 8}).ok());
}

}  // namespace
}  // namespace alkaid::ipc
