// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY, both directions.
//
// The decoders allocate nothing per page: SetData walks the length streams
// once to check them (lengths non-negative, bytes present, prefixes no longer
// than the previous value, the decoded size bounded) and to find where the
// bytes start, then the batches read the streams again from the start.
#include <algorithm>
#include <string>

#include "decoders_internal.h"
#include "delta_internal.h"

namespace alkaid::parquet::internal {

namespace {

// DELTA_BYTE_ARRAY can rebuild far more bytes than it stores (long shared
// prefixes cost almost nothing). A page may decode to at most this many times
// its encoded size, or kMinDecodedLimit bytes, whichever is more.
constexpr int64_t kMaxExpansion = 1024;
constexpr int64_t kMinDecodedLimit = int64_t{64} << 20;
constexpr int kChunk = 256;

// A length stream read a chunk at a time, for batches of any size.
class LengthReader {
 public:
  Status Init(const uint8_t* data, int64_t size, Encoding encoding, PhysicalType type,
              int64_t base) {
    pos_ = count_ = 0;
    return ints_.Init(data, size, encoding, type, base);
  }
  int64_t total() const { return ints_.total(); }
  int64_t bytes_used() const { return ints_.bytes_used(); }
  // The next length; the caller reads at most total() of them.
  Result<int32_t> Next() {
    if (pos_ == count_) ALKAID_RETURN_NOT_OK(Refill());
    return buf_[pos_++];
  }
  // The lengths read ahead (refilling when none are): *available of them at
  // the result; Consume says how many were used.
  Result<const int32_t*> Peek(int* available) {
    if (pos_ == count_) ALKAID_RETURN_NOT_OK(Refill());
    *available = count_ - pos_;
    return buf_ + pos_;
  }
  void Consume(int k) { pos_ += k; }

 private:
  // Reads the next chunk of lengths into buf_.
  Status Refill() {
    count_ = static_cast<int>(std::min<int64_t>(kChunk, ints_.left()));
    ALKAID_RETURN_NOT_OK(ints_.Get(count_, buf_));
    pos_ = 0;
    return Status::OK();
  }
  DeltaInts<int32_t> ints_;
  int32_t buf_[kChunk];
  int pos_ = 0;
  int count_ = 0;
};

// The batch loop of both decoders' DecodeBinary. Each round: `peek()` says how many values
// the length streams have read ahead, `length(i)` the size of the i-th; as many as the
// offsets can still address (at most n in all) get their bytes (and `slack` more) reserved at
// once, and `write(fit)` appends and consumes them. Stops after n values or at the first that
// does not fit; returns how many were decoded, also taken off *values_left.
template <typename Offset, typename Peek, typename Length, typename Write>
Result<int64_t> DecodeBatches(BinaryAppender<Offset>* appender, int64_t n, int64_t slack,
                              int64_t* values_left, Peek&& peek, Length&& length, Write&& write) {
  int64_t done = 0;
  while (done < n) {
    ALKAID_ASSIGN_OR_RAISE(const int available, peek());
    const int k = static_cast<int>(std::min<int64_t>(available, n - done));
    int64_t total = 0;
    int fit = 0;
    const int64_t room = appender->room();
    for (; fit < k && total + length(fit) <= room; ++fit) total += length(fit);
    ALKAID_RETURN_NOT_OK(appender->Reserve(fit, total + slack));
    ALKAID_RETURN_NOT_OK(write(fit));
    done += fit;
    *values_left -= fit;
    if (fit < k) break;
  }
  return done;
}

class DeltaLengthDecoder final : public ValueDecoder {
 public:
  DeltaLengthDecoder() : ValueDecoder(PhysicalType::kByteArray, Encoding::kDeltaLengthByteArray, 0) {}

  Status SetData(int64_t num_values, const uint8_t* data, int64_t size) override {
    ALKAID_RETURN_NOT_OK(lengths_.Init(data, size, encoding_, type_, 0));
    if (lengths_.total() > num_values) {
      return DecodeError(encoding_, type_,
                         std::to_string(lengths_.total()) + " lengths for a page of " +
                             std::to_string(num_values) + " values",
                         0);
    }
    // Check every length and find where the bytes start.
    int64_t sum = 0;
    for (int64_t i = 0; i < lengths_.total();) {
      int k;
      ALKAID_ASSIGN_OR_RAISE(const int32_t* lens, lengths_.Peek(&k));
      int32_t min = 0;
      for (int j = 0; j < k; ++j) {
        sum += lens[j];
        min = std::min(min, lens[j]);
      }
      if (min < 0) return DecodeError(encoding_, type_, "negative length", 0);
      lengths_.Consume(k);
      i += k;
    }
    const int64_t start = lengths_.bytes_used();
    if (sum > size - start) {
      return DecodeError(encoding_, type_,
                         "lengths add up to " + std::to_string(sum) + " bytes, but " +
                             std::to_string(size - start) + " follow them",
                         start);
    }
    ALKAID_RETURN_NOT_OK(lengths_.Init(data, size, encoding_, type_, 0));
    bytes_ = data + start;
    end_ = data + size;
    values_left_ = lengths_.total();
    return Status::OK();
  }

  Result<int64_t> DecodeBinary(int64_t n, BinaryOutput* out) override {
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    return WithOffsetType(*out, [&]<typename Offset>() -> Result<int64_t> {
      BinaryAppender<Offset> appender(out);
      const int32_t* lens = nullptr;
      return DecodeBatches(
          &appender, n, appender.kSlack, &values_left_,
          [&]() -> Result<int> {  // the lengths read ahead
            int available = 0;
            ALKAID_ASSIGN_OR_RAISE(lens, lengths_.Peek(&available));
            return available;
          },
          [&](int i) -> int64_t { return lens[i]; },
          [&](int fit) {
            for (int i = 0; i < fit; ++i) {
              appender.UnsafeAppendShort(bytes_, lens[i], end_ - bytes_ >= appender.kSlack);
              bytes_ += lens[i];
            }
            appender.ZeroSlack();
            lengths_.Consume(fit);
            return Status::OK();
          });
    });
  }

  Status Skip(int64_t n) override {
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    for (int64_t i = 0; i < n; ++i) {
      ALKAID_ASSIGN_OR_RAISE(int32_t length, lengths_.Next());
      bytes_ += length;
    }
    values_left_ -= n;
    return Status::OK();
  }

 private:
  LengthReader lengths_;
  const uint8_t* bytes_ = nullptr;
  const uint8_t* end_ = nullptr;
};

class DeltaByteArrayDecoder final : public ValueDecoder {
 public:
  DeltaByteArrayDecoder(PhysicalType type, int width, MemoryPool* pool)
      : ValueDecoder(type, Encoding::kDeltaByteArray, width), last_(pool) {}

  Status SetData(int64_t num_values, const uint8_t* data, int64_t size) override {
    ALKAID_RETURN_NOT_OK(prefixes_.Init(data, size, encoding_, type_, 0));
    // bytes_used is only final once every prefix length was read: walk them first.
    const int64_t count = prefixes_.total();
    if (count > num_values) {
      return DecodeError(encoding_, type_,
                         std::to_string(count) + " prefix lengths for a page of " +
                             std::to_string(num_values) + " values",
                         0);
    }
    for (int64_t i = 0; i < count;) {
      int k;
      ALKAID_RETURN_NOT_OK(prefixes_.Peek(&k).status());
      prefixes_.Consume(k);
      i += k;
    }
    const int64_t suffixes_at = prefixes_.bytes_used();
    ALKAID_RETURN_NOT_OK(suffixes_.Init(data + suffixes_at, size - suffixes_at, encoding_, type_,
                                        suffixes_at));
    if (suffixes_.total() != count) {
      return DecodeError(encoding_, type_,
                         std::to_string(count) + " prefix lengths but " +
                             std::to_string(suffixes_.total()) + " suffix lengths",
                         suffixes_at);
    }
    // Walk both streams: every prefix within the previous value, every suffix
    // present, and the decoded size within bounds.
    ALKAID_RETURN_NOT_OK(prefixes_.Init(data, size, encoding_, type_, 0));
    int64_t previous = 0;
    int64_t suffix_bytes = 0;
    int64_t decoded = 0;
    const int64_t limit = std::max(kMinDecodedLimit, kMaxExpansion * size);
    for (int64_t i = 0; i < count;) {
      int have_prefixes = 0, have_suffixes = 0;
      ALKAID_ASSIGN_OR_RAISE(const int32_t* prefixes, prefixes_.Peek(&have_prefixes));
      ALKAID_ASSIGN_OR_RAISE(const int32_t* suffixes, suffixes_.Peek(&have_suffixes));
      const int k = std::min(have_prefixes, have_suffixes);
      for (int j = 0; j < k; ++j, ++i) {
        const int32_t prefix = prefixes[j], suffix = suffixes[j];
        if (prefix < 0 || suffix < 0 || prefix > previous) {
          return DecodeError(encoding_, type_,
                             "value " + std::to_string(i) + " has prefix length " +
                                 std::to_string(prefix) + " and suffix length " +
                                 std::to_string(suffix) + " after a value of " +
                                 std::to_string(previous) + " bytes",
                             0);
        }
        previous = prefix + suffix;
        if (value_width_ > 0 && previous != value_width_) {
          return DecodeError(encoding_, type_,
                             "value " + std::to_string(i) + " has " + std::to_string(previous) +
                                 " bytes, not the column's " + std::to_string(value_width_),
                             0);
        }
        suffix_bytes += suffix;
        decoded += previous;
      }
      if (decoded > limit) {
        return DecodeError(encoding_, type_,
                           "values would decode to more than " + std::to_string(limit) +
                               " bytes (" + std::to_string(kMaxExpansion) +
                               " times the page's size)",
                           0);
      }
      prefixes_.Consume(k);
      suffixes_.Consume(k);
    }
    const int64_t bytes_at = suffixes_at + suffixes_.bytes_used();
    if (suffix_bytes > size - bytes_at) {
      return DecodeError(encoding_, type_,
                         "suffixes add up to " + std::to_string(suffix_bytes) + " bytes, but " +
                             std::to_string(size - bytes_at) + " follow them",
                         bytes_at);
    }
    ALKAID_RETURN_NOT_OK(prefixes_.Init(data, size, encoding_, type_, 0));
    ALKAID_RETURN_NOT_OK(suffixes_.Init(data + suffixes_at, size - suffixes_at, encoding_, type_,
                                        suffixes_at));
    bytes_ = data + bytes_at;
    last_.Reset();
    values_left_ = count;
    return Status::OK();
  }

  Status Decode(int64_t n, uint8_t* out) override {
    if (value_width_ == 0) return Unsupported("fixed-width values");
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    for (int64_t i = 0; i < n; ++i) {
      ALKAID_RETURN_NOT_OK(NextValue());
      std::memcpy(out + i * value_width_, last_.data(), static_cast<size_t>(value_width_));
    }
    values_left_ -= n;
    return Status::OK();
  }

  Result<int64_t> DecodeBinary(int64_t n, BinaryOutput* out) override {
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    return WithOffsetType(*out, [&]<typename Offset>() -> Result<int64_t> {
      BinaryAppender<Offset> appender(out);
      const int32_t* prefixes = nullptr;
      const int32_t* suffixes = nullptr;
      return DecodeBatches(
          &appender, n, /*slack=*/0, &values_left_,
          [&]() -> Result<int> {  // as many values as both length streams have read ahead
            int have_prefixes = 0, have_suffixes = 0;
            ALKAID_ASSIGN_OR_RAISE(prefixes, prefixes_.Peek(&have_prefixes));
            ALKAID_ASSIGN_OR_RAISE(suffixes, suffixes_.Peek(&have_suffixes));
            return std::min(have_prefixes, have_suffixes);
          },
          [&](int i) { return int64_t{prefixes[i]} + suffixes[i]; },
          [&](int fit) -> Status {
            // Each value is the previous one's prefix (read from where it was just
            // written; the first from last_) followed by its suffix.
            const uint8_t* previous = last_.data();
            for (int i = 0; i < fit; ++i) {
              uint8_t* dst = appender.data_tail();
              // (Empty values may have null pointers on both sides: no call for them.)
              if (prefixes[i] > 0) std::memmove(dst, previous, static_cast<size_t>(prefixes[i]));
              if (suffixes[i] > 0) {
                std::memcpy(dst + prefixes[i], bytes_, static_cast<size_t>(suffixes[i]));
              }
              bytes_ += suffixes[i];
              appender.UnsafeCommit(prefixes[i] + suffixes[i]);
              previous = dst;
            }
            if (fit > 0) {
              const int64_t length = prefixes[fit - 1] + suffixes[fit - 1];
              last_.Reset();
              ALKAID_RETURN_NOT_OK(last_.Append(previous, length));
            }
            prefixes_.Consume(fit);
            suffixes_.Consume(fit);
            return Status::OK();
          });
    });
  }

  Status Skip(int64_t n) override {
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    for (int64_t i = 0; i < n; ++i) ALKAID_RETURN_NOT_OK(NextValue());
    values_left_ -= n;
    return Status::OK();
  }

 private:
  Status NextValue() {
    ALKAID_ASSIGN_OR_RAISE(int32_t prefix, prefixes_.Next());
    ALKAID_ASSIGN_OR_RAISE(int32_t suffix, suffixes_.Next());
    return Build(prefix, suffix);
  }
  // last_ = last_[0, prefix) + the next `suffix` bytes (checked in SetData).
  Status Build(int32_t prefix, int32_t suffix) {
    ALKAID_RETURN_NOT_OK(last_.Reserve(prefix + suffix - last_.size()));
    last_.UnsafeAdvance(prefix - last_.size());
    last_.UnsafeAppend(bytes_, suffix);
    bytes_ += suffix;
    return Status::OK();
  }

  LengthReader prefixes_;
  LengthReader suffixes_;
  const uint8_t* bytes_ = nullptr;
  // The previous value, which the next one shares a prefix with.
  alkaid::BufferBuilder last_;
};

// ---------------------------------------------------------------------------
// Encoders

// Iterates the valid values of Put / PutBinary as byte strings.
template <typename Visit>
void ForEachFixed(const uint8_t* values, int64_t n, int width, const uint8_t* valid_bits,
                  int64_t valid_offset, Visit&& visit) {
  VisitSetBits(valid_bits, valid_offset, n,
               [&](int64_t i) { visit(values + i * width, static_cast<int64_t>(width)); });
}
template <typename Offset, typename Visit>
void ForEachBinary(const Offset* offsets, const uint8_t* data, int64_t n,
                   const uint8_t* valid_bits, int64_t valid_offset, Visit&& visit) {
  VisitSetBits(valid_bits, valid_offset, n, [&](int64_t i) {
    visit(data + offsets[i], static_cast<int64_t>(offsets[i + 1] - offsets[i]));
  });
}

// Appends one int32 to a builder used as a vector of lengths.
Status AppendLength(alkaid::BufferBuilder* lengths, int64_t length) {
  if (length > std::numeric_limits<int32_t>::max()) {
    return Status::Invalid("a BYTE_ARRAY value of ", length, " bytes is longer than Parquet allows");
  }
  const auto v = static_cast<int32_t>(length);
  return lengths->Append(&v, sizeof(v));
}

// Shared by both encoders: the suffix lengths and bytes, written as
// DELTA_LENGTH_BYTE_ARRAY.
class LengthsAndBytes {
 public:
  explicit LengthsAndBytes(MemoryPool* pool) : lengths_(pool), bytes_(pool) {}
  Status Add(const uint8_t* p, int64_t n) {
    ALKAID_RETURN_NOT_OK(AppendLength(&lengths_, n));
    return bytes_.Append(p, n);
  }
  int64_t count() const { return lengths_.size() / 4; }
  int64_t EstimatedSize() const { return lengths_.size() + bytes_.size(); }
  Status WriteTo(alkaid::BufferBuilder* out) {
    ALKAID_RETURN_NOT_OK(
        WriteDeltaInts(reinterpret_cast<const int32_t*>(lengths_.data()), count(), out));
    ALKAID_RETURN_NOT_OK(out->Append(bytes_.data(), bytes_.size()));
    lengths_.Reset();
    bytes_.Reset();
    return Status::OK();
  }

 private:
  alkaid::BufferBuilder lengths_;
  alkaid::BufferBuilder bytes_;
};

class DeltaLengthEncoder final : public BinaryEncoder<DeltaLengthEncoder, ValueEncoder> {
  friend BinaryEncoder;

 public:
  explicit DeltaLengthEncoder(MemoryPool* pool)
      : BinaryEncoder(PhysicalType::kByteArray, Encoding::kDeltaLengthByteArray, 0),
        values_(pool),
        pool_(pool) {}

  int64_t EstimatedSize() const override { return values_.EstimatedSize(); }
  Result<BufferPtr> FinishPage() override {
    alkaid::BufferBuilder out(pool_);
    ALKAID_RETURN_NOT_OK(values_.WriteTo(&out));
    return out.Finish();
  }

 private:
  template <typename Offset>
  Status PutBinaryImpl(const Offset* offsets, const uint8_t* data, int64_t n,
                       const uint8_t* valid_bits, int64_t valid_offset) {
    Status status;
    ForEachBinary(offsets, data, n, valid_bits, valid_offset, [&](const uint8_t* p, int64_t len) {
      if (status.ok()) status = values_.Add(p, len);
    });
    num_values_ = values_.count();
    return status;
  }
  LengthsAndBytes values_;
  MemoryPool* pool_;
};

class DeltaByteArrayEncoder final : public BinaryEncoder<DeltaByteArrayEncoder, ValueEncoder> {
  friend BinaryEncoder;

 public:
  DeltaByteArrayEncoder(PhysicalType type, int width, MemoryPool* pool)
      : BinaryEncoder(type, Encoding::kDeltaByteArray, width),
        prefixes_(pool),
        suffixes_(pool),
        pool_(pool) {}

  Status Put(const uint8_t* values, int64_t n, const uint8_t* valid_bits,
             int64_t valid_offset) override {
    if (value_width_ == 0) return Unsupported("fixed-width input");
    Status status;
    ForEachFixed(values, n, value_width_, valid_bits, valid_offset,
                 [&](const uint8_t* p, int64_t len) {
                   if (status.ok()) status = Add(p, len);
                 });
    return status;
  }
  int64_t EstimatedSize() const override {
    return prefixes_.size() + suffixes_.EstimatedSize();
  }
  Result<BufferPtr> FinishPage() override {
    alkaid::BufferBuilder out(pool_);
    ALKAID_RETURN_NOT_OK(WriteDeltaInts(reinterpret_cast<const int32_t*>(prefixes_.data()),
                                        prefixes_.size() / 4, &out));
    ALKAID_RETURN_NOT_OK(suffixes_.WriteTo(&out));
    prefixes_.Reset();
    last_.clear();
    return out.Finish();
  }

 private:
  template <typename Offset>
  Status PutBinaryImpl(const Offset* offsets, const uint8_t* data, int64_t n,
                       const uint8_t* valid_bits, int64_t valid_offset) {
    Status status;
    ForEachBinary(offsets, data, n, valid_bits, valid_offset, [&](const uint8_t* p, int64_t len) {
      if (status.ok()) status = Add(p, len);
    });
    return status;
  }
  Status Add(const uint8_t* p, int64_t len) {
    const int64_t max = std::min<int64_t>(len, static_cast<int64_t>(last_.size()));
    int64_t prefix = 0;
    while (prefix < max && static_cast<uint8_t>(last_[prefix]) == p[prefix]) ++prefix;
    ALKAID_RETURN_NOT_OK(AppendLength(&prefixes_, prefix));
    ALKAID_RETURN_NOT_OK(suffixes_.Add(p + prefix, len - prefix));
    last_.assign(reinterpret_cast<const char*>(p), static_cast<size_t>(len));
    ++num_values_;
    return Status::OK();
  }

  alkaid::BufferBuilder prefixes_;
  LengthsAndBytes suffixes_;
  std::string last_;
  MemoryPool* pool_;
};

}  // namespace

std::unique_ptr<ValueDecoder> MakeDeltaLengthByteArrayDecoder(MemoryPool*) {
  return std::make_unique<DeltaLengthDecoder>();
}
std::unique_ptr<ValueDecoder> MakeDeltaByteArrayDecoder(PhysicalType type, int value_width,
                                                        MemoryPool* pool) {
  return std::make_unique<DeltaByteArrayDecoder>(type, value_width, pool);
}
std::unique_ptr<ValueEncoder> MakeDeltaLengthByteArrayEncoder(MemoryPool* pool) {
  return std::make_unique<DeltaLengthEncoder>(pool);
}
std::unique_ptr<ValueEncoder> MakeDeltaByteArrayEncoder(PhysicalType type, int value_width,
                                                        MemoryPool* pool) {
  return std::make_unique<DeltaByteArrayEncoder>(type, value_width, pool);
}

}  // namespace alkaid::parquet::internal
