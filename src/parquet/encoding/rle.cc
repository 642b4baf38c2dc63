// The RLE/bit-packed hybrid: decoder, level decoder and encoder.
#include "rle.h"

#include <algorithm>
#include <limits>

#include "alkaid/bitmap.h"
#include "bit_packing.h"

namespace alkaid::parquet::internal {

namespace {

Status Corrupt(const char* what, int64_t offset) {
  return Status::Invalid("RLE/bit-packed hybrid: ", what, " at byte ", offset);
}

// The largest value in out[0, n), for one range check per batch.
template <typename T>
T MaxOf(const T* values, int64_t n) {
  T m = 0;
  for (int64_t i = 0; i < n; ++i) m = std::max(m, values[i]);
  return m;
}

}  // namespace

Result<int64_t> ReadLengthPrefixed(const uint8_t* data, int64_t size, const char* what,
                                   const uint8_t** runs, int64_t* runs_size) {
  if (size < 4) {
    return Status::Invalid(what, ": ", size, " bytes cannot hold the 4-byte length prefix");
  }
  const uint32_t length = LoadLE<uint32_t>(data);
  if (length > static_cast<uint64_t>(size - 4)) {
    return Status::Invalid(what, ": length prefix says ", length, " bytes, but only ", size - 4,
                           " follow it");
  }
  *runs = data + 4;
  *runs_size = length;
  return 4 + static_cast<int64_t>(length);
}

void RleBitPackedDecoder::Reset(const uint8_t* data, int64_t size, int bit_width) {
  begin_ = pos_ = data;
  end_ = data + size;
  bit_width_ = bit_width;
  rle_left_ = 0;
  packed_left_ = 0;
  group_pos_ = group_size_ = 0;
}

Result<bool> RleBitPackedDecoder::NextRun() {
  if (pos_ >= end_) return false;
  const int64_t header_offset = pos_ - begin_;
  uint64_t header;
  if (!ReadUleb128(&pos_, end_, &header)) return Corrupt("truncated or overlong run header", header_offset);
  const uint64_t count = header >> 1;
  // Runs are at most 2^31 - 1 values long (Encodings.md); longer ones could only be hostile.
  if (count > static_cast<uint64_t>(std::numeric_limits<int32_t>::max()) / ((header & 1) ? 8 : 1)) {
    return Corrupt("run longer than 2^31 - 1 values", header_offset);
  }
  if (header & 1) {
    // Bit-packed: count groups of 8 values, count * bit_width bytes. The last
    // run of a page may have been cut short by its writer: take the whole
    // values that are there.
    int64_t values = static_cast<int64_t>(count) * 8;
    const int64_t available = end_ - pos_;
    if (bit_width_ > 0 && BitPackedBytes(values, bit_width_) > available) {
      values = available * 8 / bit_width_;
    }
    packed_left_ = values;
    packed_pos_ = pos_;
    pos_ += BitPackedBytes(values, bit_width_);
  } else {
    const int value_bytes = (bit_width_ + 7) / 8;
    if (end_ - pos_ < value_bytes) return Corrupt("truncated RLE run value", pos_ - begin_);
    uint64_t value = 0;
    for (int i = 0; i < value_bytes; ++i) value |= static_cast<uint64_t>(pos_[i]) << (8 * i);
    if (bit_width_ < 64 && (value >> bit_width_) != 0) {
      return Corrupt("RLE run value wider than the bit width", pos_ - begin_);
    }
    pos_ += value_bytes;
    rle_value_ = value;
    rle_left_ = static_cast<int64_t>(count);
  }
  return true;
}

// Bit-packed values come out through `group_` (32 at a time) unless the caller
// wants whole groups and T is 32-bit, in which case they are unpacked in place.
template <typename T>
Result<int64_t> RleBitPackedDecoder::GetBatch(int64_t n, T* out) {
  int64_t done = 0;
  while (done < n) {
    if (rle_left_ > 0) {
      const int64_t k = std::min(n - done, rle_left_);
      std::fill(out + done, out + done + k, static_cast<T>(rle_value_));
      rle_left_ -= k;
      done += k;
    } else if (group_pos_ < group_size_) {
      const int64_t k = std::min<int64_t>(n - done, group_size_ - group_pos_);
      for (int64_t i = 0; i < k; ++i) out[done + i] = static_cast<T>(group_[group_pos_ + i]);
      group_pos_ += static_cast<int>(k);
      done += k;
    } else if (packed_left_ > 0) {
      // Whole groups: unpacked in place for 32-bit output, else through a
      // local block and narrowed (levels).
      if constexpr (sizeof(T) == 4) {
        const int64_t whole = std::min(n - done, packed_left_) & ~int64_t{31};
        if (whole > 0) {
          UnpackBits32(packed_pos_, bit_width_, whole, reinterpret_cast<uint32_t*>(out + done),
                       end_ - packed_pos_);
          packed_pos_ += BitPackedBytes(whole, bit_width_);
          packed_left_ -= whole;
          done += whole;
          continue;
        }
      } else {
        const int64_t whole = std::min<int64_t>({n - done, packed_left_, 256}) & ~int64_t{31};
        if (whole > 0) {
          uint32_t block[256];
          UnpackBits32(packed_pos_, bit_width_, whole, block, end_ - packed_pos_);
          for (int64_t i = 0; i < whole; ++i) out[done + i] = static_cast<T>(block[i]);
          packed_pos_ += BitPackedBytes(whole, bit_width_);
          packed_left_ -= whole;
          done += whole;
          continue;
        }
      }
      group_size_ = static_cast<int>(std::min<int64_t>(32, packed_left_));
      UnpackBits32(packed_pos_, bit_width_, group_size_, group_, end_ - packed_pos_);
      packed_pos_ += BitPackedBytes(group_size_, bit_width_);
      packed_left_ -= group_size_;
      group_pos_ = 0;
    } else {
      ALKAID_ASSIGN_OR_RAISE(bool more, NextRun());
      if (!more) break;
    }
  }
  return done;
}

template Result<int64_t> RleBitPackedDecoder::GetBatch(int64_t, int16_t*);
template Result<int64_t> RleBitPackedDecoder::GetBatch(int64_t, int32_t*);
template Result<int64_t> RleBitPackedDecoder::GetBatch(int64_t, uint32_t*);
template Result<int64_t> RleBitPackedDecoder::GetBatch(int64_t, uint8_t*);

namespace {

// dict[index] for a run of indices, each of `width` bytes; constant widths
// become single loads and stores.
template <int kWidth>
void GatherFixed(const uint32_t* indices, int64_t n, const uint8_t* dict, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(out + i * kWidth, dict + static_cast<int64_t>(indices[i]) * kWidth, kWidth);
  }
}

void Gather(const uint32_t* indices, int64_t n, const uint8_t* dict, int width, uint8_t* out) {
  switch (width) {
    case 1: return GatherFixed<1>(indices, n, dict, out);
    case 2: return GatherFixed<2>(indices, n, dict, out);
    case 4: return GatherFixed<4>(indices, n, dict, out);
    case 8: return GatherFixed<8>(indices, n, dict, out);
    case 12: return GatherFixed<12>(indices, n, dict, out);
    case 16: return GatherFixed<16>(indices, n, dict, out);
    default:
      for (int64_t i = 0; i < n; ++i) {
        std::memcpy(out + i * width, dict + static_cast<int64_t>(indices[i]) * width,
                    static_cast<size_t>(width));
      }
  }
}

// `value` repeated n times (an RLE run of one dictionary entry).
void Repeat(const uint8_t* value, int width, int64_t n, uint8_t* out) {
  if (width == 4 || width == 8) {
    uint64_t v = 0;
    std::memcpy(&v, value, static_cast<size_t>(width));
    if (width == 4) {
      std::fill(reinterpret_cast<uint32_t*>(out), reinterpret_cast<uint32_t*>(out) + n,
                static_cast<uint32_t>(v));
    } else {
      for (int64_t i = 0; i < n; ++i) std::memcpy(out + 8 * i, &v, 8);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) std::memcpy(out + i * width, value, static_cast<size_t>(width));
}

Status IndexOutOfRange(uint64_t index, int64_t dict_size, int64_t offset) {
  return Status::Invalid("RLE_DICTIONARY: index ", index, " is past the dictionary of ", dict_size,
                         " entries (run at byte ", offset, ")");
}

}  // namespace

// The loop GetGathered and GetBits share: RLE runs go to
// on_run(value, done, k); bit-packed values to on_packed(done, k), which
// consumes up to k of them (through GetBatch, or directly) and says how many.
template <typename OnRun, typename OnPacked>
Result<int64_t> RleBitPackedDecoder::VisitRuns(int64_t n, OnRun&& on_run, OnPacked&& on_packed) {
  int64_t done = 0;
  while (done < n) {
    if (rle_left_ > 0) {
      const int64_t k = std::min(n - done, rle_left_);
      ALKAID_RETURN_NOT_OK(on_run(rle_value_, done, k));
      rle_left_ -= k;
      done += k;
      continue;
    }
    if (group_pos_ >= group_size_ && packed_left_ == 0) {
      ALKAID_ASSIGN_OR_RAISE(bool more, NextRun());
      if (!more) break;
      continue;
    }
    // At most 256 values at a time, all from the current group or run.
    int64_t k = std::min<int64_t>(256, n - done);
    if (group_pos_ < group_size_) k = std::min<int64_t>(k, group_size_ - group_pos_);
    else k = std::min(k, packed_left_);
    ALKAID_ASSIGN_OR_RAISE(int64_t got, on_packed(done, k));
    done += got;
  }
  return done;
}

Result<int64_t> RleBitPackedDecoder::GetGathered(int64_t n, const uint8_t* dict, int64_t dict_size,
                                                 int value_width, uint8_t* out) {
  uint32_t indices[256];
  return VisitRuns(
      n,
      [&](uint64_t value, int64_t done, int64_t k) -> Status {
        if (value >= static_cast<uint64_t>(dict_size)) {
          return IndexOutOfRange(value, dict_size, byte_offset());
        }
        Repeat(dict + static_cast<int64_t>(value) * value_width, value_width, k,
               out + done * value_width);
        return Status::OK();
      },
      [&](int64_t done, int64_t k) -> Result<int64_t> {
        // Range-checked once per batch of indices.
        ALKAID_ASSIGN_OR_RAISE(int64_t got, GetBatch(k, indices));
        if (MaxOf(indices, got) >= static_cast<uint64_t>(dict_size)) {
          return IndexOutOfRange(MaxOf(indices, got), dict_size, byte_offset());
        }
        Gather(indices, got, dict, value_width, out + done * value_width);
        return got;
      });
}

Result<int64_t> RleBitPackedDecoder::GetBits(int64_t n, uint8_t* bits, int64_t bit_offset) {
  uint8_t values[256];
  return VisitRuns(
      n,
      [&](uint64_t value, int64_t done, int64_t k) -> Status {
        SetBitsTo(bits, bit_offset + done, k, value != 0);
        return Status::OK();
      },
      [&](int64_t done, int64_t k) -> Result<int64_t> {
        if (group_pos_ >= group_size_ && bit_width_ == 1 && ((bit_offset + done) & 7) == 0 &&
            k >= 8) {
          // Bit-packed booleans are already a bitmap: copy whole bytes.
          k &= ~int64_t{7};
          std::memcpy(bits + ((bit_offset + done) >> 3), packed_pos_, static_cast<size_t>(k >> 3));
          packed_pos_ += k >> 3;
          packed_left_ -= k;
          return k;
        }
        ALKAID_ASSIGN_OR_RAISE(int64_t got, GetBatch(k, values));
        for (int64_t i = 0; i < got; ++i) SetBitTo(bits, bit_offset + done + i, values[i] != 0);
        return got;
      });
}

Result<int64_t> RleBitPackedDecoder::Skip(int64_t n) {
  int64_t done = 0;
  while (done < n) {
    if (rle_left_ > 0) {
      const int64_t k = std::min(n - done, rle_left_);
      rle_left_ -= k;
      done += k;
    } else if (group_pos_ < group_size_) {
      const int64_t k = std::min<int64_t>(n - done, group_size_ - group_pos_);
      group_pos_ += static_cast<int>(k);
      done += k;
    } else if (packed_left_ > 0) {
      // Whole groups of 8 values are whole bytes: step over them.
      const int64_t k = std::min(n - done, packed_left_) & ~int64_t{7};
      if (k == 0) {
        group_size_ = static_cast<int>(std::min<int64_t>(32, packed_left_));
        UnpackBits32(packed_pos_, bit_width_, group_size_, group_);
        packed_pos_ += BitPackedBytes(group_size_, bit_width_);
        packed_left_ -= group_size_;
        group_pos_ = 0;
        continue;
      }
      packed_pos_ += k / 8 * bit_width_;
      packed_left_ -= k;
      done += k;
    } else {
      ALKAID_ASSIGN_OR_RAISE(bool more, NextRun());
      if (!more) break;
    }
  }
  return done;
}

// ---------------------------------------------------------------------------
// LevelDecoder

Result<int64_t> LevelDecoder::Reset(Encoding encoding, int16_t max_level, int64_t num_values,
                                    const uint8_t* data, int64_t size, bool length_prefixed,
                                    const char* what) {
  if (max_level < 0) return Status::Invalid(what, ": negative maximum level ", max_level);
  if (num_values < 0) return Status::Invalid(what, ": negative value count ", num_values);
  encoding_ = encoding;
  max_level_ = max_level;
  bit_width_ = BitWidthOf(static_cast<uint64_t>(max_level));
  what_ = what;
  if (encoding == Encoding::kRle) {
    const uint8_t* runs = data;
    int64_t runs_size = size;
    int64_t consumed = size;
    if (length_prefixed) {
      ALKAID_ASSIGN_OR_RAISE(consumed, ReadLengthPrefixed(data, size, what, &runs, &runs_size));
    }
    rle_.Reset(runs, runs_size, bit_width_);
    return consumed;
  }
  if (encoding == Encoding::kBitPacked) {
    const int64_t needed = BitPackedBytes(num_values, bit_width_);
    if (num_values > (int64_t{1} << 40) || needed > size) {
      return Status::Invalid(what, ": ", num_values, " BIT_PACKED levels of ", bit_width_,
                             " bits need ", needed, " bytes, but the page has ", size);
    }
    packed_ = data;
    packed_count_ = num_values;
    packed_next_ = 0;
    return needed;
  }
  return Status::Invalid(what, ": levels cannot be encoded as ", EncodingName(encoding));
}

Status LevelDecoder::Decode(int64_t n, int16_t* out) {
  if (encoding_ == Encoding::kRle) {
    const int64_t offset = rle_.byte_offset();
    ALKAID_ASSIGN_OR_RAISE(int64_t got, rle_.GetBatch(n, out));
    if (got < n) {
      return Status::Invalid(what_, ": the data ends after ", got, " of ", n,
                             " levels (run at byte ", rle_.byte_offset(), ")");
    }
    if (MaxOf(out, n) > max_level_) {
      return Status::Invalid(what_, ": level ", MaxOf(out, n), " is above the maximum ", max_level_,
                             " (runs from byte ", offset, ")");
    }
    return Status::OK();
  }
  if (n > packed_count_ - packed_next_) {
    return Status::Invalid(what_, ": asked for ", n, " levels, but only ",
                           packed_count_ - packed_next_, " are left");
  }
  // BIT_PACKED levels are few and deprecated: decode from the start of the
  // byte holding the next value.
  const int64_t first_bit = packed_next_ * bit_width_;
  const uint8_t* base = packed_ + first_bit / 8;
  const int skip = static_cast<int>(first_bit % 8);
  int64_t bit = skip;
  for (int64_t i = 0; i < n; ++i) {
    int value = 0;
    for (int b = 0; b < bit_width_; ++b, ++bit) {
      value = (value << 1) | ((base[bit >> 3] >> (7 - (bit & 7))) & 1);
    }
    if (value > max_level_) {
      return Status::Invalid(what_, ": level ", value, " is above the maximum ", max_level_);
    }
    out[i] = static_cast<int16_t>(value);
  }
  packed_next_ += n;
  return Status::OK();
}

// ---------------------------------------------------------------------------
// RleBitPackedEncoder

RleBitPackedEncoder::RleBitPackedEncoder(int bit_width, MemoryPool* pool)
    : bit_width_(bit_width), pool_(pool), values_(pool) {}

template <typename T>
Status RleBitPackedEncoder::Put(const T* values, int64_t n) {
  ALKAID_RETURN_NOT_OK(values_.Reserve(n * 4));
  auto* out = reinterpret_cast<uint32_t*>(values_.mutable_data() + values_.size());
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint32_t>(values[i]);
  values_.UnsafeAdvance(n * 4);
  return Status::OK();
}

template Status RleBitPackedEncoder::Put(const int16_t*, int64_t);
template Status RleBitPackedEncoder::Put(const int32_t*, int64_t);
template Status RleBitPackedEncoder::Put(const uint32_t*, int64_t);
template Status RleBitPackedEncoder::Put(const uint8_t*, int64_t);

int64_t RleBitPackedEncoder::EstimatedSize() const {
  return BitPackedBytes(num_values(), bit_width_) + 4;
}

int64_t RleBitPackedEncoder::MaxEncodedSize(int64_t n, int bit_width) {
  // Worst case: every 8 values a bit-packed run with its own header, or an
  // RLE run of 8 (header plus value bytes); plus the length prefix.
  const int64_t groups = (n + 7) / 8;
  return 4 + groups * (std::max(bit_width, (bit_width + 7) / 8) + 5);
}

namespace {

// Appends runs to `out` (which has room for MaxEncodedSize); returns the new end.
class RunWriter {
 public:
  RunWriter(uint8_t* out, int bit_width) : out_(out), pos_(out), bit_width_(bit_width) {}
  void Rle(uint32_t value, int64_t count) {
    pos_ += WriteUleb128(static_cast<uint64_t>(count) << 1, pos_);
    for (int i = 0; i < (bit_width_ + 7) / 8; ++i) *pos_++ = static_cast<uint8_t>(value >> (8 * i));
  }
  // `count` values; all but the final run have a multiple of 8.
  void Packed(const uint32_t* values, int64_t count) {
    const int64_t groups = (count + 7) / 8;
    pos_ += WriteUleb128(static_cast<uint64_t>(groups) << 1 | 1, pos_);
    uint32_t padded[8] = {};
    const int64_t whole = count & ~int64_t{7};
    pos_ += PackBits32(values, bit_width_, whole, pos_);
    if (whole < count) {
      std::copy(values + whole, values + count, padded);
      pos_ += PackBits32(padded, bit_width_, 8, pos_);
    }
  }
  int64_t size() const { return pos_ - out_; }

 private:
  uint8_t* out_;
  uint8_t* pos_;
  int bit_width_;
};

}  // namespace

Result<int64_t> RleBitPackedEncoder::FinishInto(alkaid::BufferBuilder* out,
                                                bool length_prefix) {
  const int64_t n = num_values();
  const auto* v = reinterpret_cast<const uint32_t*>(values_.data());
  ALKAID_RETURN_NOT_OK(out->Reserve(MaxEncodedSize(n, bit_width_)));
  uint8_t* start = out->mutable_data() + out->size();
  RunWriter w(start + (length_prefix ? 4 : 0), bit_width_);
  // Values [literal, i) wait to be bit-packed; [i, j) is the run being looked at.
  int64_t literal = 0;
  int64_t i = 0;
  while (i < n) {
    int64_t j = i + 1;
    while (j < n && v[j] == v[i]) ++j;
    if (j - i >= 8) {
      // Pending literals must fill whole groups of 8: lend them the run's first values.
      const int64_t pad = (8 - (i - literal) % 8) % 8;
      if (j - i - pad >= 8) {
        if (i + pad > literal) w.Packed(v + literal, i + pad - literal);
        w.Rle(v[i], j - i - pad);
        literal = j;
      }
    }
    i = j;
  }
  if (literal < n) w.Packed(v + literal, n - literal);
  const int64_t body = w.size();
  if (length_prefix) StoreLE<uint32_t>(start, static_cast<uint32_t>(body));
  const int64_t total = body + (length_prefix ? 4 : 0);
  out->UnsafeAdvance(total);
  values_.Reset();
  return total;
}

Result<BufferPtr> RleBitPackedEncoder::Finish(bool length_prefix) {
  alkaid::BufferBuilder out(pool_);
  ALKAID_RETURN_NOT_OK(FinishInto(&out, length_prefix).status());
  return out.Finish();
}

}  // namespace alkaid::parquet::internal
