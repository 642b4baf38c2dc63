// The dictionary encoder: a memo table of the distinct values of a column
// chunk (open addressing, entries stored back to back in one buffer) and the
// indices of each page, written as a bit-width byte and RLE/bit-packed runs.
#include <algorithm>
#include <vector>

#include "decoders_internal.h"
#include "rle.h"

namespace alkaid::parquet::internal {

namespace {

inline uint64_t Mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}

// Hash of a byte string, 8 bytes per step.
inline uint64_t HashBytes(const uint8_t* p, int64_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ static_cast<uint64_t>(n);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) h = Mix(h ^ LoadLE<uint64_t>(p + i)) * 0x9e3779b97f4a7c15ULL;
  // The last 1..7 bytes without a variable-length copy: two overlapping
  // 4-byte loads, or the first, middle and last byte.
  const int64_t rest = n - i;
  uint64_t tail = 0;
  if (rest >= 4) {
    tail = LoadLE<uint32_t>(p + i) | static_cast<uint64_t>(LoadLE<uint32_t>(p + n - 4)) << 32;
  } else if (rest > 0) {
    tail = p[i] | static_cast<uint64_t>(p[i + rest / 2]) << 8 |
           static_cast<uint64_t>(p[n - 1]) << 16;
  }
  return Mix(h ^ tail ^ (static_cast<uint64_t>(rest) << 56));
}

class DictEncoder final : public BinaryEncoder<DictEncoder, DictionaryEncoder> {
  friend BinaryEncoder;

 public:
  DictEncoder(PhysicalType type, int width, int64_t limit, MemoryPool* pool)
      : BinaryEncoder(type, width, limit),
        pool_(pool),
        entries_(pool),
        entry_offsets_(pool),
        indices_(pool) {
    slots_.assign(1024, -1);
    if (type_ == PhysicalType::kByteArray) (void)entry_offsets_.Append("\0\0\0\0\0\0\0\0", 8);
  }

  Status Put(const uint8_t* values, int64_t n, const uint8_t* valid_bits,
             int64_t valid_offset) override {
    if (value_width_ == 0) return Unsupported("fixed-width input");
    ALKAID_RETURN_NOT_OK(indices_.Reserve(n * 4));
    if (value_width_ == 4) return PutInts<uint32_t>(values, n, valid_bits, valid_offset);
    if (value_width_ == 8) return PutInts<uint64_t>(values, n, valid_bits, valid_offset);
    Status status;
    VisitSetBits(valid_bits, valid_offset, n, [&](int64_t i) {
      if (!status.ok()) return;
      const uint8_t* v = values + i * value_width_;
      status = Add(v, value_width_, HashFixed(v));
    });
    return status;
  }

  int64_t EstimatedSize() const override {
    return 1 + RleBitPackedEncoder::MaxEncodedSize(num_values_, IndexBitWidth());
  }

  Result<BufferPtr> FinishPage() override {
    const int width = IndexBitWidth();
    RleBitPackedEncoder rle(width, pool_);
    ALKAID_RETURN_NOT_OK(rle.Put(indices_.data_as_int32(), num_values_));
    alkaid::BufferBuilder out(pool_);
    const auto width_byte = static_cast<uint8_t>(width);
    ALKAID_RETURN_NOT_OK(out.Append(&width_byte, 1));
    ALKAID_RETURN_NOT_OK(rle.FinishInto(&out, false).status());
    indices_.Reset();
    return out.Finish();
  }

  int64_t dictionary_byte_size() const override {
    return type_ == PhysicalType::kByteArray ? entries_.size() + 4 * num_entries_
                                             : entries_.size();
  }
  int64_t num_entries() const override { return num_entries_; }

  Result<BufferPtr> FlushDictionary() override {
    if (type_ != PhysicalType::kByteArray) return Buffer::Copy(entries_.data(), entries_.size(), pool_);
    alkaid::BufferBuilder out(pool_);
    ALKAID_RETURN_NOT_OK(out.Reserve(dictionary_byte_size()));
    const auto* offsets = reinterpret_cast<const int64_t*>(entry_offsets_.data());
    for (int64_t e = 0; e < num_entries_; ++e) {
      out.UnsafeAppendValue(static_cast<uint32_t>(offsets[e + 1] - offsets[e]));
      out.UnsafeAppend(entries_.data() + offsets[e], offsets[e + 1] - offsets[e]);
    }
    return out.Finish();
  }

 private:
  // indices_ as int32 values.
  struct Indices : alkaid::BufferBuilder {
    using BufferBuilder::BufferBuilder;
    const int32_t* data_as_int32() const { return reinterpret_cast<const int32_t*>(data()); }
  };

  int IndexBitWidth() const {
    if (num_entries_ == 0) return 0;
    // One entry still gets one bit, as common readers expect.
    return std::max(1, DictionaryIndexBitWidth(num_entries_));
  }

  uint64_t HashFixed(const uint8_t* v) const {
    if (value_width_ == 4) return Mix(LoadLE<uint32_t>(v) * 0x9e3779b97f4a7c15ULL);
    if (value_width_ == 8) return Mix(LoadLE<uint64_t>(v) * 0x9e3779b97f4a7c15ULL);
    return HashBytes(v, value_width_);
  }

  const uint8_t* EntryData(int32_t e, int64_t* length) const {
    if (type_ != PhysicalType::kByteArray) {
      *length = value_width_;
      return entries_.data() + static_cast<int64_t>(e) * value_width_;
    }
    const auto* offsets = reinterpret_cast<const int64_t*>(entry_offsets_.data());
    *length = offsets[e + 1] - offsets[e];
    return entries_.data() + offsets[e];
  }

  // Finds or inserts the value and appends its index (room reserved by the caller).
  Status Add(const uint8_t* v, int64_t length, uint64_t hash) {
    const size_t mask = slots_.size() - 1;
    size_t s = hash & mask;
    for (int32_t e; (e = slots_[s]) >= 0; s = (s + 1) & mask) {
      if (hashes_[e] == hash) {
        int64_t elen;
        const uint8_t* ev = EntryData(e, &elen);
        if (elen == length && std::memcmp(ev, v, static_cast<size_t>(length)) == 0) {
          indices_.UnsafeAppendValue(e);
          ++num_values_;
          return Status::OK();
        }
      }
    }
    ALKAID_ASSIGN_OR_RAISE(int32_t e, Insert(v, length, hash, s));
    indices_.UnsafeAppendValue(e);
    ++num_values_;
    return Status::OK();
  }

  // Adds a new entry at the empty slot `s` its probe ended on.
  Result<int32_t> Insert(const uint8_t* v, int64_t length, uint64_t hash, size_t s) {
    if (num_entries_ >= std::numeric_limits<int32_t>::max() - 1) {
      return Status::CapacityError("dictionary encoder: more than 2^31 - 2 distinct values");
    }
    const auto e = static_cast<int32_t>(num_entries_);
    ALKAID_RETURN_NOT_OK(entries_.Append(v, length));
    if (type_ == PhysicalType::kByteArray) {
      const int64_t end = entries_.size();
      ALKAID_RETURN_NOT_OK(entry_offsets_.Append(&end, sizeof(end)));
    }
    hashes_.push_back(hash);
    slots_[s] = e;
    ++num_entries_;
    // At most a quarter full: most lookups then end on their first slot.
    if (num_entries_ * 4 > static_cast<int64_t>(slots_.size())) Grow();
    return e;
  }

  void Grow() {
    std::vector<int32_t> slots(slots_.size() * 2, -1);
    const size_t mask = slots.size() - 1;
    for (int32_t e = 0; e < num_entries_; ++e) {
      size_t s = hashes_[e] & mask;
      while (slots[s] >= 0) s = (s + 1) & mask;
      slots[s] = e;
    }
    slots_ = std::move(slots);
  }

  // 4- and 8-byte values: compared as integers (bit patterns, so -0.0 and
  // each NaN payload are entries of their own), nothing but the insertion of
  // a new entry can fail.
  template <typename T>
  Status PutInts(const uint8_t* values, int64_t n, const uint8_t* valid_bits,
                 int64_t valid_offset) {
    // The table in locals: the found path touches no member.
    auto* out = reinterpret_cast<int32_t*>(indices_.mutable_data() + indices_.size());
    int64_t count = 0;
    const int32_t* slots = slots_.data();
    size_t mask = slots_.size() - 1;
    const uint8_t* entries = entries_.data();
    Status status;
    VisitSetBits(valid_bits, valid_offset, n, [&](int64_t i) {
      const uint8_t* p = values + i * static_cast<int64_t>(sizeof(T));
      const T v = LoadLE<T>(p);
      const uint64_t hash = Mix(static_cast<uint64_t>(v) * 0x9e3779b97f4a7c15ULL);
      size_t s = hash & mask;
      for (int32_t e; (e = slots[s]) >= 0; s = (s + 1) & mask) {
        if (LoadLE<T>(entries + static_cast<int64_t>(e) * sizeof(T)) == v) {
          out[count++] = e;
          return;
        }
      }
      if (!status.ok()) return;
      auto inserted = Insert(p, sizeof(T), hash, s);
      if (!inserted.ok()) {
        status = inserted.status();
        return;
      }
      out[count++] = *inserted;
      slots = slots_.data();
      mask = slots_.size() - 1;
      entries = entries_.data();
    });
    indices_.UnsafeAdvance(count * 4);
    num_values_ += count;
    return status;
  }

  template <typename Offset>
  Status PutBinaryImpl(const Offset* offsets, const uint8_t* data, int64_t n,
                       const uint8_t* valid_bits, int64_t valid_offset) {
    ALKAID_RETURN_NOT_OK(indices_.Reserve(n * 4));
    Status status;
    VisitSetBits(valid_bits, valid_offset, n, [&](int64_t i) {
      if (!status.ok()) return;
      const uint8_t* v = data + offsets[i];
      const int64_t length = offsets[i + 1] - offsets[i];
      status = Add(v, length, HashBytes(v, length));
    });
    return status;
  }

  MemoryPool* pool_;
  // The distinct values back to back; for BYTE_ARRAY, entry_offsets_ holds
  // num_entries_ + 1 int64 offsets into them.
  alkaid::BufferBuilder entries_;
  alkaid::BufferBuilder entry_offsets_;
  std::vector<uint64_t> hashes_;  // per entry
  std::vector<int32_t> slots_;    // open addressing: entry or -1, power-of-two size
  int64_t num_entries_ = 0;
  Indices indices_;               // int32 index per value of the current page
};

}  // namespace

std::unique_ptr<DictionaryEncoder> MakeDictionaryEncoderImpl(PhysicalType type, int value_width,
                                                             int64_t byte_limit, MemoryPool* pool) {
  return std::make_unique<DictEncoder>(type, value_width, byte_limit, pool);
}

}  // namespace alkaid::parquet::internal
