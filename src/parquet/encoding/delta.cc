// DELTA_BINARY_PACKED (INT32, INT64): the integer stream reader and writer,
// and the value decoder and encoder over them.
#include <algorithm>
#include <limits>

#include "bit_packing.h"
#include "decoders_internal.h"
#include "delta_internal.h"

namespace alkaid::parquet::internal {

// Readers accept up to this many miniblocks per block (writers use 4 or 8).
constexpr int64_t kMaxMiniblocks = 256;

template <typename T>
Status DeltaInts<T>::Error(const char* what, int64_t offset) const {
  return DecodeError(encoding_, type_, what, base_offset_ + offset);
}

template <typename T>
Status DeltaInts<T>::Init(const uint8_t* data, int64_t size, Encoding encoding, PhysicalType type,
                          int64_t base_offset) {
  data_ = data;
  size_ = size;
  encoding_ = encoding;
  type_ = type;
  base_offset_ = base_offset;
  read_ = 0;
  miniblock_ = miniblocks_ = 0;
  miniblock_left_ = 0;
  delta_pos_ = delta_count_ = 0;
  const uint8_t* p = data;
  const uint8_t* end = data + size;
  uint64_t block_size, miniblocks, total;
  int64_t first;
  if (!ReadUleb128(&p, end, &block_size) || !ReadUleb128(&p, end, &miniblocks) ||
      !ReadUleb128(&p, end, &total) || !ReadZigZag(&p, end, &first)) {
    return Error("truncated or malformed delta header", 0);
  }
  if (block_size == 0 || block_size % 128 != 0 || block_size > (uint64_t{1} << 31)) {
    return Error("block size is not a positive multiple of 128 (up to 2^31)", 0);
  }
  if (miniblocks == 0 || miniblocks > static_cast<uint64_t>(kMaxMiniblocks) ||
      block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0) {
    return Error("miniblock count does not divide the block into multiples of 32 values (or is above 256)", 0);
  }
  if (total > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) {
    return Error("value count above 2^31 - 1", 0);
  }
  values_per_miniblock_ = static_cast<int64_t>(block_size / miniblocks);
  miniblocks_ = static_cast<int64_t>(miniblocks);
  miniblock_ = miniblocks_;  // no block loaded yet
  total_ = static_cast<int64_t>(total);
  last_ = static_cast<U>(first);
  pos_ = p - data;
  return Status::OK();
}

template <typename T>
Status DeltaInts<T>::NextBlock() {
  const uint8_t* p = data_ + pos_;
  const uint8_t* end = data_ + size_;
  int64_t min_delta;
  if (!ReadZigZag(&p, end, &min_delta)) return Error("truncated block header (min delta)", pos_);
  if (end - p < miniblocks_) return Error("truncated block header (bit widths)", p - data_);
  std::memcpy(widths_, p, static_cast<size_t>(miniblocks_));
  min_delta_ = static_cast<U>(min_delta);
  pos_ = p + miniblocks_ - data_;
  miniblock_ = 0;
  return Status::OK();
}

template <typename T>
Status DeltaInts<T>::NextMiniblock() {
  if (miniblock_ >= miniblocks_) ALKAID_RETURN_NOT_OK(NextBlock());
  width_ = widths_[miniblock_];
  if (width_ > static_cast<int>(sizeof(T) * 8)) {
    return Error("miniblock bit width is wider than the type", pos_);
  }
  miniblock_data_ = pos_;
  miniblock_left_ = values_per_miniblock_;
  // A miniblock always takes its full size, padding included (Encodings.md).
  pos_ += values_per_miniblock_ * width_ / 8;
  ++miniblock_;
  return Status::OK();
}

template <typename T>
Status DeltaInts<T>::Get(int64_t n, T* out) {
  if (n < 0 || n > left()) return Error("more values asked for than the stream holds", pos_);
  int64_t done = 0;
  if (read_ == 0 && n > 0) {
    out[done++] = static_cast<T>(last_);
    ++read_;
  }
  while (done < n) {
    if (delta_pos_ < delta_count_) {
      const int64_t k = std::min<int64_t>(n - done, delta_count_ - delta_pos_);
      U v = last_;
      const U min_delta = min_delta_;
      for (int64_t i = 0; i < k; ++i) {
        v += min_delta + static_cast<U>(deltas_[delta_pos_ + i]);
        out[done + i] = static_cast<T>(v);
      }
      last_ = v;
      delta_pos_ += static_cast<int>(k);
      done += k;
      read_ += k;
      continue;
    }
    if (miniblock_left_ == 0) {
      ALKAID_RETURN_NOT_OK(NextMiniblock());
      continue;
    }
    // The next 32 deltas, or fewer at the end of the stream.
    const int64_t count = std::min<int64_t>({32, miniblock_left_, left()});
    const int64_t bytes = BitPackedBytes(count, width_);
    if (bytes > size_ - miniblock_data_) return Error("miniblock runs past the end of the data", miniblock_data_);
    if constexpr (sizeof(T) == 4) {
      UnpackBits32(data_ + miniblock_data_, width_, count, deltas_, size_ - miniblock_data_);
    } else {
      UnpackBits64(data_ + miniblock_data_, width_, count, deltas_, size_ - miniblock_data_);
    }
    miniblock_data_ += 4 * width_;
    miniblock_left_ = count < 32 ? 0 : miniblock_left_ - 32;
    delta_pos_ = 0;
    delta_count_ = static_cast<int>(count);
  }
  return Status::OK();
}

template <typename T>
int64_t DeltaInts<T>::bytes_used() const {
  return std::min(pos_, size_);
}

template class DeltaInts<int32_t>;
template class DeltaInts<int64_t>;

template <typename T>
Status WriteDeltaInts(const T* values, int64_t n, alkaid::BufferBuilder* out) {
  using U = std::make_unsigned_t<T>;
  constexpr int64_t kBlock = 128;
  constexpr int64_t kMiniblocks = 4;
  constexpr int64_t kPerMiniblock = kBlock / kMiniblocks;
  // Header, then per block at most: min delta, widths, and 128 values of 64 bits.
  const int64_t blocks = n > 1 ? (n - 2) / kBlock + 1 : 0;
  ALKAID_RETURN_NOT_OK(out->Reserve(40 + blocks * (10 + kMiniblocks + kBlock * 8)));
  uint8_t* start = out->mutable_data() + out->size();
  uint8_t* p = start;
  p += WriteUleb128(kBlock, p);
  p += WriteUleb128(kMiniblocks, p);
  p += WriteUleb128(static_cast<uint64_t>(n), p);
  p += WriteZigZag(n > 0 ? static_cast<int64_t>(values[0]) : 0, p);
  U deltas[kBlock];
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t first = 1 + b * kBlock;
    const int64_t count = std::min(kBlock, n - first);
    for (int64_t i = 0; i < count; ++i) {
      deltas[i] = static_cast<U>(values[first + i]) - static_cast<U>(values[first + i - 1]);
    }
    // Frame of reference: the smallest delta as a signed value of T.
    T min_delta = static_cast<T>(deltas[0]);
    for (int64_t i = 1; i < count; ++i) min_delta = std::min(min_delta, static_cast<T>(deltas[i]));
    for (int64_t i = 0; i < count; ++i) deltas[i] -= static_cast<U>(min_delta);
    for (int64_t i = count; i < kBlock; ++i) deltas[i] = 0;
    p += WriteZigZag(static_cast<int64_t>(min_delta), p);
    uint8_t* widths = p;
    p += kMiniblocks;
    for (int64_t m = 0; m < kMiniblocks; ++m) {
      const int64_t from = m * kPerMiniblock;
      if (from >= count) {
        widths[m] = 0;  // not needed: no bytes follow for it
        continue;
      }
      U max = 0;
      for (int64_t i = from; i < from + kPerMiniblock; ++i) max |= deltas[i];
      const int width = BitWidthOf(max);
      widths[m] = static_cast<uint8_t>(width);
      if constexpr (sizeof(T) == 4) {
        p += PackBits32(deltas + from, width, kPerMiniblock, p);
      } else {
        p += PackBits64(deltas + from, width, kPerMiniblock, p);
      }
    }
  }
  out->UnsafeAdvance(p - start);
  return Status::OK();
}

template Status WriteDeltaInts(const int32_t*, int64_t, alkaid::BufferBuilder*);
template Status WriteDeltaInts(const int64_t*, int64_t, alkaid::BufferBuilder*);

namespace {

template <typename T>
class DeltaBinaryPackedDecoder final : public ValueDecoder {
 public:
  explicit DeltaBinaryPackedDecoder(PhysicalType type)
      : ValueDecoder(type, Encoding::kDeltaBinaryPacked, sizeof(T)) {}

  Status SetData(int64_t num_values, const uint8_t* data, int64_t size) override {
    ALKAID_RETURN_NOT_OK(ints_.Init(data, size, encoding_, type_, 0));
    values_left_ = std::min(num_values, ints_.total());
    return Status::OK();
  }

  Status Decode(int64_t n, uint8_t* out) override {
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    ALKAID_RETURN_NOT_OK(ints_.Get(n, reinterpret_cast<T*>(out)));
    values_left_ -= n;
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    T tmp[256];
    for (int64_t done = 0; done < n;) {
      const int64_t k = std::min<int64_t>(256, n - done);
      ALKAID_RETURN_NOT_OK(ints_.Get(k, tmp));
      done += k;
    }
    values_left_ -= n;
    return Status::OK();
  }

 private:
  DeltaInts<T> ints_;
};

template <typename T>
class DeltaBinaryPackedEncoder final : public ValueEncoder {
 public:
  DeltaBinaryPackedEncoder(PhysicalType type, MemoryPool* pool)
      : ValueEncoder(type, Encoding::kDeltaBinaryPacked, sizeof(T)), values_(pool), pool_(pool) {}

  Status Put(const uint8_t* values, int64_t n, const uint8_t* valid_bits,
             int64_t valid_offset) override {
    ALKAID_RETURN_NOT_OK(values_.Reserve(n * static_cast<int64_t>(sizeof(T))));
    if (valid_bits == nullptr) {
      values_.UnsafeAppend(values, n * static_cast<int64_t>(sizeof(T)));
      num_values_ += n;
      return Status::OK();
    }
    VisitSetBits(valid_bits, valid_offset, n, [&](int64_t i) {
      values_.UnsafeAppend(values + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
      ++num_values_;
    });
    return Status::OK();
  }

  int64_t EstimatedSize() const override { return values_.size() + 16; }

  Result<BufferPtr> FinishPage() override {
    alkaid::BufferBuilder out(pool_);
    ALKAID_RETURN_NOT_OK(
        WriteDeltaInts(reinterpret_cast<const T*>(values_.data()), num_values_, &out));
    values_.Reset();
    return out.Finish();
  }

 private:
  alkaid::BufferBuilder values_;
  MemoryPool* pool_;
};

}  // namespace

std::unique_ptr<ValueDecoder> MakeDeltaBinaryPackedDecoder(PhysicalType type, MemoryPool*) {
  if (type == PhysicalType::kInt32) return std::make_unique<DeltaBinaryPackedDecoder<int32_t>>(type);
  return std::make_unique<DeltaBinaryPackedDecoder<int64_t>>(type);
}

std::unique_ptr<ValueEncoder> MakeDeltaBinaryPackedEncoder(PhysicalType type, MemoryPool* pool) {
  if (type == PhysicalType::kInt32) {
    return std::make_unique<DeltaBinaryPackedEncoder<int32_t>>(type, pool);
  }
  return std::make_unique<DeltaBinaryPackedEncoder<int64_t>>(type, pool);
}

}  // namespace alkaid::parquet::internal
