// PLAIN (every physical type) and RLE booleans, both directions.
//
// PLAIN fixed-width values are the Arrow layout already (little-endian), so
// decoding them is one memcpy per batch; booleans are a bitmap copy; each
// BYTE_ARRAY value is a 4-byte length and its bytes, decoded in two passes
// over a batch (check every length and sum them, then reserve once and copy).
#include <algorithm>

#include "decoders_internal.h"
#include "rle.h"

namespace alkaid::parquet::internal {

namespace {

class PlainDecoder final : public ValueDecoder {
 public:
  PlainDecoder(PhysicalType type, int width) : ValueDecoder(type, Encoding::kPlain, width) {}

  Status SetData(int64_t num_values, const uint8_t* data, int64_t size) override {
    begin_ = pos_ = data;
    end_ = data + size;
    bit_pos_ = 0;
    values_left_ = num_values;
    return Status::OK();
  }

  Status Decode(int64_t n, uint8_t* out) override {
    if (value_width_ == 0) return Unsupported("fixed-width values");
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    const int64_t bytes = n * value_width_;
    if (bytes > end_ - pos_) return Short(n, bytes);
    if (bytes > 0) std::memcpy(out, pos_, static_cast<size_t>(bytes));
    pos_ += bytes;
    values_left_ -= n;
    return Status::OK();
  }

  Result<const uint8_t*> DecodeInPlace(int64_t n) override {
    if (value_width_ == 0) return nullptr;
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    const int64_t bytes = n * value_width_;
    if (bytes > end_ - pos_) return Short(n, bytes);
    const uint8_t* values = pos_;
    pos_ += bytes;
    values_left_ -= n;
    return values;
  }

  Status DecodeBits(int64_t n, uint8_t* bits, int64_t bit_offset) override {
    if (type_ != PhysicalType::kBoolean) return Unsupported("bits");
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    if (n > (end_ - begin_) * 8 - bit_pos_) return Short(n, (bit_pos_ + n + 7) / 8);
    CopyBitmap(begin_, bit_pos_, n, bits, bit_offset);
    bit_pos_ += n;
    values_left_ -= n;
    return Status::OK();
  }

  Result<int64_t> DecodeBinary(int64_t n, BinaryOutput* out) override {
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    if (type_ == PhysicalType::kFixedLenByteArray) return DecodeFixedAsBinary(n, out);
    if (type_ != PhysicalType::kByteArray) return Unsupported("binary values");
    return WithOffsetType(*out, [&]<typename Offset>() -> Result<int64_t> {
      BinaryAppender<Offset> appender(out);
      // Pass 1: check each length against the bytes left and stop where the
      // offsets would overflow.
      const uint8_t* p = pos_;
      int64_t total = 0;
      int64_t k = 0;
      const int64_t room = appender.room();
      for (; k < n; ++k) {
        if (end_ - p < 4) return Error("value " + std::to_string(k) + "'s length is cut off", p);
        const uint32_t length = LoadLE<uint32_t>(p);
        if (length > static_cast<uint64_t>(end_ - p - 4)) {
          return Error("length " + std::to_string(length) + " runs past the end of the page", p);
        }
        if (total + length > room) break;
        total += length;
        p += 4 + length;
      }
      // Pass 2: copy.
      ALKAID_RETURN_NOT_OK(appender.Reserve(k, total + appender.kSlack));
      for (int64_t i = 0; i < k; ++i) {
        const uint32_t length = LoadLE<uint32_t>(pos_);
        appender.UnsafeAppendShort(pos_ + 4, length, end_ - pos_ - 4 >= appender.kSlack);
        pos_ += 4 + length;
      }
      appender.ZeroSlack();
      values_left_ -= k;
      return k;
    });
  }

  Status Skip(int64_t n) override {
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    if (type_ == PhysicalType::kBoolean) {
      if (n > (end_ - begin_) * 8 - bit_pos_) return Short(n, (bit_pos_ + n + 7) / 8);
      bit_pos_ += n;
    } else if (type_ == PhysicalType::kByteArray) {
      for (int64_t i = 0; i < n; ++i) {
        if (end_ - pos_ < 4) return Error("value's length is cut off", pos_);
        const uint32_t length = LoadLE<uint32_t>(pos_);
        if (length > static_cast<uint64_t>(end_ - pos_ - 4)) {
          return Error("length " + std::to_string(length) + " runs past the end of the page", pos_);
        }
        pos_ += 4 + length;
      }
    } else {
      if (n * value_width_ > end_ - pos_) return Short(n, n * value_width_);
      pos_ += n * value_width_;
    }
    values_left_ -= n;
    return Status::OK();
  }

 private:
  Status Short(int64_t n, int64_t bytes) const {
    return Error(std::to_string(n) + " values need " + std::to_string(bytes) + " bytes, but " +
                     std::to_string(end_ - pos_) + " are left",
                 pos_);
  }
  Status Error(const std::string& what, const uint8_t* at) const {
    return DecodeError(encoding_, type_, what, at - begin_);
  }

  Result<int64_t> DecodeFixedAsBinary(int64_t n, BinaryOutput* out) {
    return WithOffsetType(*out, [&]<typename Offset>() -> Result<int64_t> {
      BinaryAppender<Offset> appender(out);
      const int64_t k = std::min(n, appender.room() / std::max(value_width_, 1));
      if (k * value_width_ > end_ - pos_) return Short(k, k * value_width_);
      ALKAID_RETURN_NOT_OK(appender.Reserve(k, k * value_width_));
      for (int64_t i = 0; i < k; ++i) appender.UnsafeAppend(pos_ + i * value_width_, value_width_);
      pos_ += k * value_width_;
      values_left_ -= k;
      return k;
    });
  }

  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  int64_t bit_pos_ = 0;  // BOOLEAN: the next value's bit
};

// RLE booleans: a 4-byte length, then the hybrid encoding of bit width 1.
class RleBooleanDecoder final : public ValueDecoder {
 public:
  RleBooleanDecoder() : ValueDecoder(PhysicalType::kBoolean, Encoding::kRle, 0) {}

  Status SetData(int64_t num_values, const uint8_t* data, int64_t size) override {
    const uint8_t* runs;
    int64_t runs_size;
    ALKAID_RETURN_NOT_OK(ReadLengthPrefixed(data, size, "RLE BOOLEAN values", &runs, &runs_size)
                             .status());
    rle_.Reset(runs, runs_size, 1);
    values_left_ = num_values;
    return Status::OK();
  }

  Status DecodeBits(int64_t n, uint8_t* bits, int64_t bit_offset) override {
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    ALKAID_ASSIGN_OR_RAISE(int64_t got, rle_.GetBits(n, bits, bit_offset));
    if (got < n) return Ended(got, n);
    values_left_ -= n;
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    ALKAID_ASSIGN_OR_RAISE(int64_t got, rle_.Skip(n));
    if (got < n) return Ended(got, n);
    values_left_ -= n;
    return Status::OK();
  }

 private:
  Status Ended(int64_t got, int64_t n) const {
    return DecodeError(encoding_, type_,
                       "the runs end after " + std::to_string(got) + " of " + std::to_string(n) +
                           " values",
                       4 + rle_.byte_offset());
  }
  RleBitPackedDecoder rle_;
};

// ---------------------------------------------------------------------------
// Encoders

class PlainEncoder final : public BinaryEncoder<PlainEncoder, ValueEncoder> {
  friend BinaryEncoder;

 public:
  PlainEncoder(PhysicalType type, int width, MemoryPool* pool)
      : BinaryEncoder(type, Encoding::kPlain, width), out_(pool) {}

  Status Put(const uint8_t* values, int64_t n, const uint8_t* valid_bits,
             int64_t valid_offset) override {
    if (value_width_ == 0) return Unsupported("fixed-width input");
    const int w = value_width_;
    ALKAID_RETURN_NOT_OK(out_.Reserve(n * w));
    if (valid_bits == nullptr) {
      out_.UnsafeAppend(values, n * w);
      num_values_ += n;
      return Status::OK();
    }
    VisitSetBits(valid_bits, valid_offset, n, [&](int64_t i) {
      out_.UnsafeAppend(values + i * w, w);
      ++num_values_;
    });
    return Status::OK();
  }

  Status PutBits(const uint8_t* bits, int64_t bit_offset, int64_t n, const uint8_t* valid_bits,
                 int64_t valid_offset) override {
    if (type_ != PhysicalType::kBoolean) return Unsupported("bit input");
    ALKAID_RETURN_NOT_OK(out_.Reserve((num_values_ % 8 + n + 7) / 8 + 1));
    uint8_t* base = out_.mutable_data() + out_.size() - (num_values_ % 8 ? 1 : 0);
    int64_t at = num_values_ % 8;
    if (valid_bits == nullptr) {
      CopyBitmap(bits, bit_offset, n, base, at);
      at += n;
    } else {
      VisitSetBits(valid_bits, valid_offset, n, [&](int64_t i) {
        SetBitTo(base, at++, GetBit(bits, bit_offset + i));
      });
    }
    const int64_t added = at - num_values_ % 8;
    out_.UnsafeAdvance((at + 7) / 8 - (num_values_ % 8 ? 1 : 0));
    num_values_ += added;
    return Status::OK();
  }

  int64_t EstimatedSize() const override { return out_.size(); }

  Result<BufferPtr> FinishPage() override {
    return out_.Finish();
  }

 private:
  template <typename Offset>
  Status PutBinaryImpl(const Offset* offsets, const uint8_t* data, int64_t n,
                       const uint8_t* valid_bits, int64_t valid_offset) {
    ALKAID_RETURN_NOT_OK(out_.Reserve(4 * n + static_cast<int64_t>(offsets[n] - offsets[0])));
    Status status;
    VisitSetBits(valid_bits, valid_offset, n, [&](int64_t i) {
      const int64_t length = offsets[i + 1] - offsets[i];
      if (length > std::numeric_limits<int32_t>::max()) {
        status = Status::Invalid("PLAIN BYTE_ARRAY: value of ", length,
                                 " bytes is longer than Parquet allows (2^31 - 1)");
        return;
      }
      out_.UnsafeAppendValue(static_cast<uint32_t>(length));
      out_.UnsafeAppend(data + offsets[i], length);
      ++num_values_;
    });
    return status;
  }

  alkaid::BufferBuilder out_;
};

class RleBooleanEncoder final : public ValueEncoder {
 public:
  explicit RleBooleanEncoder(MemoryPool* pool)
      : ValueEncoder(PhysicalType::kBoolean, Encoding::kRle, 0), rle_(1, pool), pool_(pool) {}

  Status PutBits(const uint8_t* bits, int64_t bit_offset, int64_t n, const uint8_t* valid_bits,
                 int64_t valid_offset) override {
    uint8_t chunk[256];
    int k = 0;
    Status status;
    VisitSetBits(valid_bits, valid_offset, n, [&](int64_t i) {
      chunk[k++] = GetBit(bits, bit_offset + i) ? 1 : 0;
      if (k == 256) {
        if (status.ok()) status = rle_.Put(chunk, k);
        k = 0;
      }
    });
    ALKAID_RETURN_NOT_OK(status);
    ALKAID_RETURN_NOT_OK(rle_.Put(chunk, k));
    num_values_ = rle_.num_values();
    return Status::OK();
  }

  int64_t EstimatedSize() const override { return rle_.EstimatedSize(); }

  Result<BufferPtr> FinishPage() override {
    return rle_.Finish(/*length_prefix=*/true);
  }

 private:
  RleBitPackedEncoder rle_;
  MemoryPool* pool_;
};

}  // namespace

std::unique_ptr<ValueDecoder> MakePlainDecoder(PhysicalType type, int value_width) {
  return std::make_unique<PlainDecoder>(type, value_width);
}
std::unique_ptr<ValueDecoder> MakeRleBooleanDecoder() {
  return std::make_unique<RleBooleanDecoder>();
}
std::unique_ptr<ValueEncoder> MakePlainEncoder(PhysicalType type, int value_width,
                                               MemoryPool* pool) {
  return std::make_unique<PlainEncoder>(type, value_width, pool);
}
std::unique_ptr<ValueEncoder> MakeRleBooleanEncoder(MemoryPool* pool) {
  return std::make_unique<RleBooleanEncoder>(pool);
}

}  // namespace alkaid::parquet::internal
