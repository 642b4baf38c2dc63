// Bit unpacking kernels, one per bit width, and bit packing.
//
// A group of 32 values of width W occupies exactly 4 * W bytes, so every group
// starts on a byte boundary. The kernel for width W reads each value with one
// (or, past 56 bits, two) unaligned 64-bit loads at a constant offset; with W
// known at compile time the loop unrolls into loads, shifts and masks. A load
// may reach up to 8 bytes past the value, so groups that end within 16 bytes
// of the input's end are copied into a zeroed local block first: nothing is
// ever read past the input.
#include "bit_packing.h"

#include <algorithm>
#include <array>
#include <utility>

namespace alkaid::parquet::internal {

namespace {

template <typename Out, int W>
inline void UnpackGroup(const uint8_t* in, Out* out) {
  if constexpr (W == 0) {
    for (int i = 0; i < 32; ++i) out[i] = 0;
  } else {
    constexpr uint64_t kMask = W == 64 ? ~uint64_t{0} : (uint64_t{1} << W) - 1;
#pragma GCC unroll 32
    for (int i = 0; i < 32; ++i) {
      const int bit = i * W;
      const int byte = bit >> 3;
      const int shift = bit & 7;
      uint64_t word = LoadLE<uint64_t>(in + byte) >> shift;
      if constexpr (W > 56) {
        if (shift != 0) word |= LoadLE<uint64_t>(in + byte + 8) << (64 - shift);
      }
      out[i] = static_cast<Out>(word & kMask);
    }
  }
}

template <typename Out>
using GroupKernel = void (*)(const uint8_t*, Out*);

template <typename Out, size_t... W>
constexpr auto MakeKernels(std::index_sequence<W...>) {
  return std::array<GroupKernel<Out>, sizeof...(W)>{&UnpackGroup<Out, static_cast<int>(W)>...};
}

constexpr auto kKernels32 = MakeKernels<uint32_t>(std::make_index_sequence<33>());
constexpr auto kKernels64 = MakeKernels<uint64_t>(std::make_index_sequence<65>());

template <typename Out>
void Unpack(const uint8_t* in, int bit_width, int64_t count, Out* out, int64_t readable,
            GroupKernel<Out> kernel) {
  if (bit_width == 0) {  // no bytes at all (the input may be null)
    std::fill(out, out + count, Out{0});
    return;
  }
  const int64_t group_bytes = 4 * bit_width;
  const int64_t total_bytes = BitPackedBytes(count, bit_width);
  int64_t done = 0;
  // Whole groups with 16 readable bytes behind them read the input directly.
  while (done + 32 <= count && (done / 32 + 1) * group_bytes + 16 <= readable) {
    kernel(in + (done / 32) * group_bytes, out + done);
    done += 32;
  }
  // The rest, a group at a time, from a zero-padded copy.
  while (done < count) {
    alignas(8) uint8_t block[4 * 64 + 16] = {};
    const int64_t offset = (done / 32) * group_bytes;
    std::memcpy(block, in + offset, static_cast<size_t>(std::min(group_bytes, total_bytes - offset)));
    const int64_t n = std::min<int64_t>(32, count - done);
    if (n == 32) {
      kernel(block, out + done);
    } else {
      Out tmp[32];
      kernel(block, tmp);
      std::copy(tmp, tmp + n, out + done);
    }
    done += n;
  }
}

template <typename In>
int64_t Pack(const In* in, int bit_width, int64_t count, uint8_t* out) {
  const int64_t total = BitPackedBytes(count, bit_width);
  if (bit_width == 0) return 0;
  const uint64_t mask = bit_width == 64 ? ~uint64_t{0} : (uint64_t{1} << bit_width) - 1;
  // Bits accumulate in `acc` (low bits first) and leave it a byte at a time.
  unsigned __int128 acc = 0;
  int bits = 0;
  int64_t pos = 0;
  for (int64_t i = 0; i < count; ++i) {
    acc |= static_cast<unsigned __int128>(static_cast<uint64_t>(in[i]) & mask) << bits;
    bits += bit_width;
    while (bits >= 64) {
      StoreLE<uint64_t>(out + pos, static_cast<uint64_t>(acc));
      pos += 8;
      acc >>= 64;
      bits -= 64;
    }
  }
  while (bits > 0) {
    out[pos++] = static_cast<uint8_t>(acc);
    acc >>= 8;
    bits -= 8;
  }
  return total;
}

}  // namespace

void UnpackBits32(const uint8_t* in, int bit_width, int64_t count, uint32_t* out,
                  int64_t readable) {
  Unpack(in, bit_width, count, out, readable, kKernels32[bit_width]);
}

void UnpackBits64(const uint8_t* in, int bit_width, int64_t count, uint64_t* out,
                  int64_t readable) {
  Unpack(in, bit_width, count, out, readable, kKernels64[bit_width]);
}

int64_t PackBits32(const uint32_t* in, int bit_width, int64_t count, uint8_t* out) {
  return Pack(in, bit_width, count, out);
}

int64_t PackBits64(const uint64_t* in, int bit_width, int64_t count, uint8_t* out) {
  return Pack(in, bit_width, count, out);
}

void UnpackBitsMsbFirst(const uint8_t* in, int bit_width, int64_t count, int16_t* out) {
  int64_t bit = 0;
  for (int64_t i = 0; i < count; ++i) {
    int value = 0;
    for (int b = 0; b < bit_width; ++b, ++bit) {
      value = (value << 1) | ((in[bit >> 3] >> (7 - (bit & 7))) & 1);
    }
    out[i] = static_cast<int16_t>(value);
  }
}

}  // namespace alkaid::parquet::internal
