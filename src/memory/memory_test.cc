#include "alkaid/memory.h"

#include <gtest/gtest.h>

#include "alkaid/bitmap.h"

#include <algorithm>
#include <random>
#include <span>

namespace alkaid {

TEST(MemoryPool, CountsBytesAndPeak) {
  SystemMemoryPool pool;
  {
    auto a = AllocateBuffer(100, &pool).ValueOrDie();
    EXPECT_EQ(a->capacity(), 128);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a->data()) % 64, 0u);
    EXPECT_GE(pool.bytes_allocated(), 100);
    auto b = AllocateBuffer(1000, &pool).ValueOrDie();
    EXPECT_GE(pool.max_memory(), 1100);
  }
  EXPECT_EQ(pool.bytes_allocated(), 0);
  EXPECT_GE(pool.max_memory(), 1100);
  EXPECT_EQ(pool.num_allocations(), 2);
}

TEST(MemoryPool, LimitRefusesLargeAllocation) {
  SystemMemoryPool pool(1024);
  auto r = AllocateBuffer(1 << 20, &pool);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsOutOfMemory());
  EXPECT_EQ(pool.bytes_allocated(), 0);
}

// Sizes from a few bytes to tens of megabytes (the large ones take a
// different allocation path): every step of growing and shrinking keeps the
// contents, reads zero past them and keeps the pool's count exact.
TEST(MemoryPool, ReallocateKeepsContentsAndZeroesTheRestAtAnySize) {
  SystemMemoryPool pool;
  const int64_t sizes[] = {64,       5 << 20, 9 << 20, 40 << 20, 12 << 20, (9 << 20) + 64,
                           30 << 20, 3 << 20, 128,     20 << 20};
  uint8_t* p = nullptr;
  ASSERT_TRUE(pool.Allocate(sizes[0], &p).ok());
  int64_t size = sizes[0];
  std::fill(p, p + size, uint8_t{0xAB});
  for (int64_t next : std::span(sizes).subspan(1)) {
    ASSERT_TRUE(pool.Reallocate(size, next, &p).ok()) << next;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    EXPECT_EQ(pool.bytes_allocated(), next);
    const int64_t kept = std::min(size, next);
    ASSERT_TRUE(std::all_of(p, p + kept, [](uint8_t b) { return b == 0xAB; })) << next;
    ASSERT_TRUE(std::all_of(p + kept, p + next, [](uint8_t b) { return b == 0; })) << next;
    // Fill everything, so a shrink that left stale bytes behind shows up as
    // non-zero bytes after the next growth.
    std::fill(p, p + next, uint8_t{0xAB});
    size = next;
  }
  pool.Free(p, size);
  EXPECT_EQ(pool.bytes_allocated(), 0);
}

TEST(Buffer, LargeBufferGrowsKeepingContents) {
  SystemMemoryPool pool;
  auto buf = AllocateBuffer(16 << 20, &pool).ValueOrDie();
  EXPECT_TRUE(std::all_of(buf->data(), buf->data() + buf->capacity(), [](uint8_t b) { return b == 0; }));
  buf->mutable_data()[0] = 1;
  buf->mutable_data()[(16 << 20) - 1] = 2;
  ASSERT_TRUE(buf->Resize(64 << 20).ok());
  EXPECT_EQ(buf->data()[0], 1);
  EXPECT_EQ(buf->data()[(16 << 20) - 1], 2);
  EXPECT_EQ(buf->data()[(16 << 20)], 0);
  EXPECT_EQ(buf->data()[(64 << 20) - 1], 0);
  EXPECT_EQ(pool.bytes_allocated(), 64 << 20);
  buf.reset();
  EXPECT_EQ(pool.bytes_allocated(), 0);
}

TEST(Buffer, PaddingIsZeroAndResizeKeepsContents) {
  auto buf = AllocateBuffer(3).ValueOrDie();
  std::memcpy(buf->mutable_data(), "abc", 3);
  for (int64_t i = 3; i < buf->capacity(); ++i) ASSERT_EQ(buf->data()[i], 0) << i;
  ASSERT_TRUE(buf->Resize(200).ok());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(buf->data()), 3), "abc");
  EXPECT_EQ(buf->capacity(), 256);
  for (int64_t i = 3; i < 256; ++i) ASSERT_EQ(buf->data()[i], 0) << i;
}

// For a buffer a codec fills at once: exact size, counted by the pool,
// padding zero at every size (heap and page-mapped), contents kept on a
// later Resize.
TEST(Buffer, ResizeForOverwriteClearsOnlyThePadding) {
  SystemMemoryPool pool;
  for (int64_t size : {int64_t{0}, int64_t{1}, int64_t{63}, int64_t{64}, int64_t{1000},
                       (int64_t{8} << 20) + 5}) {
    ResizableBuffer buf(&pool);
    ASSERT_TRUE(buf.ResizeForOverwrite(size).ok()) << size;
    EXPECT_EQ(buf.size(), size);
    EXPECT_EQ(buf.capacity(), RoundUpToMultipleOf64(size));
    EXPECT_EQ(pool.bytes_allocated(), RoundUpToMultipleOf64(size));
    if (size > 0) std::memset(buf.mutable_data(), 0xAB, static_cast<size_t>(size));
    for (int64_t i = size; i < buf.capacity(); ++i) ASSERT_EQ(buf.data()[i], 0) << size << " " << i;
    ASSERT_TRUE(buf.Resize(size + 100).ok());
    for (int64_t i = 0; i < size; ++i) ASSERT_EQ(buf.data()[i], 0xAB) << size << " " << i;
    for (int64_t i = size; i < size + 100; ++i) ASSERT_EQ(buf.data()[i], 0) << size << " " << i;
  }
  EXPECT_EQ(pool.bytes_allocated(), 0);
  ResizableBuffer buf(&pool);
  EXPECT_FALSE(buf.ResizeForOverwrite(-1).ok());
  SystemMemoryPool small(100);
  ResizableBuffer refused(&small);
  EXPECT_TRUE(refused.ResizeForOverwrite(1000).IsOutOfMemory());
}

TEST(Buffer, SliceSharesParent) {
  std::shared_ptr<Buffer> parent = Buffer::FromString("hello world");
  auto slice = SliceBuffer(parent, 6, 5);
  EXPECT_EQ(slice->view(), "world");
  EXPECT_EQ(slice->data(), parent->data() + 6);
  std::weak_ptr<Buffer> weak = parent;
  parent.reset();
  EXPECT_FALSE(weak.expired());  // kept alive by the slice
  EXPECT_EQ(slice->view(), "world");
  EXPECT_FALSE(SliceBufferSafe(slice, 3, 5).ok());
}

TEST(Bitmap, CountCopyAndOps) {
  std::vector<uint8_t> bits(40, 0);
  for (int i = 0; i < 320; i += 3) bit_util::SetBit(bits.data(), i);
  int64_t expect = 0;
  for (int i = 5; i < 300; ++i) expect += (i % 3 == 0);
  EXPECT_EQ(bit_util::CountSetBits(bits.data(), 5, 295), expect);

  std::vector<uint8_t> dst(40, 0xFF);
  bit_util::CopyBitmap(bits.data(), 7, 200, dst.data(), 13);
  for (int i = 0; i < 200; ++i) ASSERT_EQ(bit_util::GetBit(dst.data(), 13 + i), (7 + i) % 3 == 0) << i;
  for (int i = 0; i < 13; ++i) ASSERT_TRUE(bit_util::GetBit(dst.data(), i));  // untouched
  ASSERT_TRUE(bit_util::GetBit(dst.data(), 213));
  EXPECT_TRUE(bit_util::BitmapEquals(bits.data(), 7, dst.data(), 13, 200));
  EXPECT_FALSE(bit_util::BitmapEquals(bits.data(), 8, dst.data(), 13, 200));

  std::vector<uint8_t> a(16, 0), b(16, 0), out(16, 0);
  for (int i = 0; i < 128; i += 2) bit_util::SetBit(a.data(), i);
  for (int i = 0; i < 128; i += 4) bit_util::SetBit(b.data(), i);
  bit_util::BitmapAnd(a.data(), 0, b.data(), 0, 128, out.data(), 0);
  EXPECT_EQ(bit_util::CountSetBits(out.data(), 0, 128), 32);
  bit_util::BitmapOr(a.data(), 1, b.data(), 1, 100, out.data(), 3);
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(bit_util::GetBit(out.data(), 3 + i), ((1 + i) % 2 == 0) || ((1 + i) % 4 == 0));
}

// Every kernel against a bit-by-bit reference over random offsets and lengths,
// so each fast path (aligned, unaligned, partial tail) is exercised.
TEST(Bitmap, RandomizedAgainstReference) {
  std::mt19937_64 rng(7);
  std::vector<uint8_t> a(64), b(64);
  for (auto& x : a) x = static_cast<uint8_t>(rng());
  for (auto& x : b) x = static_cast<uint8_t>(rng());
  for (int iter = 0; iter < 2000; ++iter) {
    int64_t len = static_cast<int64_t>(rng() % 300);
    int64_t ao = static_cast<int64_t>(rng() % 100), bo = static_cast<int64_t>(rng() % 100);
    int64_t oo = static_cast<int64_t>(rng() % 100);
    int64_t expect_count = 0;
    for (int64_t i = 0; i < len; ++i) expect_count += bit_util::GetBit(a.data(), ao + i);
    ASSERT_EQ(bit_util::CountSetBits(a.data(), ao, len), expect_count);

    std::vector<uint8_t> out(64, 0xA5), ref(64, 0xA5);
    bit_util::BitmapAnd(a.data(), ao, b.data(), bo, len, out.data(), oo);
    for (int64_t i = 0; i < len; ++i)
      bit_util::SetBitTo(ref.data(), oo + i, bit_util::GetBit(a.data(), ao + i) && bit_util::GetBit(b.data(), bo + i));
    ASSERT_EQ(out, ref) << "and len=" << len << " offsets " << ao << "," << bo << "," << oo;

    std::fill(out.begin(), out.end(), 0x3C);
    std::fill(ref.begin(), ref.end(), 0x3C);
    bit_util::CopyBitmap(a.data(), ao, len, out.data(), oo);
    for (int64_t i = 0; i < len; ++i) bit_util::SetBitTo(ref.data(), oo + i, bit_util::GetBit(a.data(), ao + i));
    ASSERT_EQ(out, ref) << "copy len=" << len;
    ASSERT_TRUE(bit_util::BitmapEquals(a.data(), ao, out.data(), oo, len));

    bit_util::InvertBitmap(a.data(), ao, len, out.data(), oo);
    for (int64_t i = 0; i < len; ++i) bit_util::SetBitTo(ref.data(), oo + i, !bit_util::GetBit(a.data(), ao + i));
    ASSERT_EQ(out, ref) << "invert len=" << len;

    std::vector<int64_t> seen, expect;
    bit_util::VisitSetBits(a.data(), ao, len, [&](int64_t i) { seen.push_back(i); });
    for (int64_t i = 0; i < len; ++i) if (bit_util::GetBit(a.data(), ao + i)) expect.push_back(i);
    ASSERT_EQ(seen, expect);
  }
}

}  // namespace alkaid

namespace alkaid {
namespace {

TEST(Bitmap, PopcountWordMatchesABitLoop) {
  std::mt19937_64 rng(7);
  std::vector<uint64_t> words = {0, ~uint64_t{0}, 1, uint64_t{1} << 63, 0x5555555555555555ull,
                                 0xAAAAAAAAAAAAAAAAull, 0x0F0F0F0F0F0F0F0Full};
  for (int i = 0; i < 1000; ++i) words.push_back(rng() & rng());
  for (uint64_t w : words) {
    int bits = 0;
    for (int b = 0; b < 64; ++b) bits += static_cast<int>((w >> b) & 1);
    EXPECT_EQ(bit_util::PopcountWord(w), bits) << std::hex << w;
  }
}

}  // namespace
}  // namespace alkaid
