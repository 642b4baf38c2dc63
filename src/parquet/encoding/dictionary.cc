// Dictionary-encoded pages: the decoder (dictionary page decoded once, data
// pages gathered from it) and the encoder (memo table, indices, fallback).
#include <algorithm>

#include "decoders_internal.h"
#include "rle.h"

namespace alkaid::parquet::internal {

namespace {

constexpr int kIndexChunk = 1024;

class DictDecoder final : public DictionaryDecoder {
 public:
  DictDecoder(PhysicalType type, int width, MemoryPool* pool)
      : DictionaryDecoder(type, Encoding::kRleDictionary, width), pool_(pool) {}

  Status SetDictionary(int64_t num_values, const uint8_t* data, int64_t size) override {
    if (num_values < 0) return Status::Invalid("dictionary page with ", num_values, " values");
    dict_ = DecodedDictionary{};
    bool_bytes_.reset();
    std::unique_ptr<ValueDecoder> plain = MakePlainDecoder(type_, value_width_);
    ALKAID_RETURN_NOT_OK(plain->SetData(num_values, data, size));
    if (type_ == PhysicalType::kByteArray) {
      alkaid::BufferBuilder offsets(pool_), bytes(pool_);
      ALKAID_RETURN_NOT_OK(offsets.Append("\0\0\0\0", 4));
      BinaryOutput out{&offsets, &bytes, false};
      ALKAID_ASSIGN_OR_RAISE(int64_t got, plain->DecodeBinary(num_values, &out));
      if (got < num_values) return Status::Invalid("dictionary page data passes 2 GiB");
      ALKAID_ASSIGN_OR_RAISE(dict_.offsets, offsets.Finish());
      // Room to read 16 bytes from any entry's start (DecodeBinary's short copies).
      ALKAID_RETURN_NOT_OK(bytes.Reserve(16));
      ALKAID_ASSIGN_OR_RAISE(dict_.values, bytes.Finish());
    } else if (type_ == PhysicalType::kBoolean) {
      ALKAID_ASSIGN_OR_RAISE(dict_.values, AllocateBuffer((num_values + 7) / 8, pool_));
      ALKAID_RETURN_NOT_OK(plain->DecodeBits(num_values, dict_.values->mutable_data(), 0));
      // Gathering bits goes through one byte per entry.
      ALKAID_ASSIGN_OR_RAISE(bool_bytes_, AllocateBuffer(num_values, pool_));
      for (int64_t i = 0; i < num_values; ++i) {
        bool_bytes_->mutable_data()[i] = GetBit(dict_.values->data(), i) ? 1 : 0;
      }
    } else {
      // The count is checked against the bytes before anything is allocated.
      if (num_values > size / value_width_) {
        return Status::Invalid("dictionary page of ", num_values, " ", PhysicalTypeName(type_),
                               " values has only ", size, " bytes");
      }
      ALKAID_ASSIGN_OR_RAISE(dict_.values, AllocateBuffer(num_values * value_width_, pool_));
      ALKAID_RETURN_NOT_OK(plain->Decode(num_values, dict_.values->mutable_data()));
    }
    dict_.length = num_values;
    return Status::OK();
  }

  const DecodedDictionary& dictionary() const override { return dict_; }

  Status SetData(int64_t num_values, const uint8_t* data, int64_t size) override {
    values_left_ = num_values;
    pending_pos_ = pending_count_ = 0;
    if (size == 0) {
      // A page of nulls only may carry no index data at all.
      rle_.Reset(data, 0, 0);
      return Status::OK();
    }
    if (data[0] > 32) {
      return DecodeError(encoding_, type_, "index bit width " + std::to_string(data[0]) +
                                                " is above 32", 0);
    }
    rle_.Reset(data + 1, size - 1, data[0]);
    return Status::OK();
  }

  Status Decode(int64_t n, uint8_t* out) override {
    if (value_width_ == 0) return Unsupported("fixed-width values");
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    int64_t done = 0;
    uint32_t idx[kIndexChunk];
    while (done < n && pending_pos_ < pending_count_) {
      const int64_t k = std::min<int64_t>(n - done, kIndexChunk);
      ALKAID_RETURN_NOT_OK(NextIndices(k, idx));
      for (int64_t i = 0; i < k; ++i) {
        std::memcpy(out + (done + i) * value_width_,
                    dict_.values->data() + static_cast<int64_t>(idx[i]) * value_width_,
                    static_cast<size_t>(value_width_));
      }
      done += k;
    }
    if (done < n) {
      ALKAID_ASSIGN_OR_RAISE(int64_t got,
                             rle_.GetGathered(n - done, DictBytes(), dict_.length, value_width_,
                                              out + done * value_width_));
      if (got < n - done) return Ended(done + got, n);
    }
    values_left_ -= n;
    return Status::OK();
  }

  Status DecodeBits(int64_t n, uint8_t* bits, int64_t bit_offset) override {
    if (type_ != PhysicalType::kBoolean) return Unsupported("bits");
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    uint32_t idx[kIndexChunk];
    for (int64_t done = 0; done < n;) {
      const int64_t k = std::min<int64_t>(n - done, kIndexChunk);
      ALKAID_RETURN_NOT_OK(NextIndices(k, idx));
      const uint8_t* values = bool_bytes_->data();
      for (int64_t i = 0; i < k; ++i) SetBitTo(bits, bit_offset + done + i, values[idx[i]] != 0);
      done += k;
    }
    values_left_ -= n;
    return Status::OK();
  }

  Result<int64_t> DecodeBinary(int64_t n, BinaryOutput* out) override {
    if (type_ != PhysicalType::kByteArray) return Unsupported("binary values");
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    return WithOffsetType(*out, [&]<typename Offset>() -> Result<int64_t> {
      BinaryAppender<Offset> appender(out);
      const auto* offsets = dict_.offsets->data_as<int32_t>();
      const uint8_t* bytes = dict_.values->data();
      int64_t done = 0;
      while (done < n) {
        const int64_t k = std::min<int64_t>(n - done, kIndexChunk);
        ALKAID_RETURN_NOT_OK(NextIndices(k, pending_));
        // The bytes these values need, and how many of them the offsets can still address.
        int64_t total = 0;
        int64_t fit = 0;
        const int64_t room = appender.room();
        for (; fit < k; ++fit) {
          const int64_t length = offsets[pending_[fit] + 1] - offsets[pending_[fit]];
          if (total + length > room) break;
          total += length;
        }
        ALKAID_RETURN_NOT_OK(appender.Reserve(fit, total + appender.kSlack));
        for (int64_t i = 0; i < fit; ++i) {
          const uint32_t e = pending_[i];
          // The dictionary's bytes have kSlack readable bytes past their end (SetDictionary).
          appender.UnsafeAppendShort(bytes + offsets[e], offsets[e + 1] - offsets[e], true);
        }
        appender.ZeroSlack();
        done += fit;
        values_left_ -= fit;
        if (fit < k) {
          // Keep the decoded indices that did not fit for the next call.
          pending_pos_ = static_cast<int>(fit);
          pending_count_ = static_cast<int>(k);
          break;
        }
      }
      return done;
    });
  }

  Status DecodeIndices(int64_t n, int32_t* out) override {
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    ALKAID_RETURN_NOT_OK(NextIndices(n, reinterpret_cast<uint32_t*>(out)));
    values_left_ -= n;
    return Status::OK();
  }

  Status DecodeIndicesSpaced(int64_t n, int64_t null_count, const uint8_t* valid_bits,
                             int64_t valid_offset, int32_t* out) override {
    ALKAID_RETURN_NOT_OK(CheckSpaced(n, null_count));
    ALKAID_RETURN_NOT_OK(DecodeIndices(n - null_count, out));
    if (null_count > 0) {
      SpreadValues(reinterpret_cast<uint8_t*>(out), n, n - null_count, valid_bits, valid_offset, 4);
    }
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    const int64_t from_pending = std::min<int64_t>(n, pending_count_ - pending_pos_);
    pending_pos_ += static_cast<int>(from_pending);
    ALKAID_ASSIGN_OR_RAISE(int64_t got, rle_.Skip(n - from_pending));
    if (got < n - from_pending) return Ended(from_pending + got, n);
    values_left_ -= n;
    return Status::OK();
  }

 private:
  Status Ended(int64_t got, int64_t n) const {
    return DecodeError(encoding_, type_,
                       "the indices end after " + std::to_string(got) + " of " +
                           std::to_string(n) + " values",
                       1 + rle_.byte_offset());
  }
  const uint8_t* DictBytes() const {
    return type_ == PhysicalType::kBoolean ? bool_bytes_->data()
           : dict_.values ? dict_.values->data() : nullptr;
  }

  // The next `n` indices, from the pending ones first, each checked against
  // the dictionary's size (one maximum per batch).
  Status NextIndices(int64_t n, uint32_t* out) {
    int64_t done = std::min<int64_t>(n, pending_count_ - pending_pos_);
    if (done > 0) {
      std::memmove(out, pending_ + pending_pos_, static_cast<size_t>(done) * 4);
      pending_pos_ += static_cast<int>(done);
    }
    const int64_t offset = rle_.byte_offset();
    ALKAID_ASSIGN_OR_RAISE(int64_t got, rle_.GetBatch(n - done, out + done));
    if (got < n - done) return Ended(done + got, n);
    uint32_t max = 0;
    for (int64_t i = 0; i < n; ++i) max = std::max(max, out[i]);
    if (n > 0 && max >= dict_.length) {
      return DecodeError(encoding_, type_,
                         "index " + std::to_string(max) + " is past the dictionary of " +
                             std::to_string(dict_.length) + " entries",
                         1 + offset);
    }
    return Status::OK();
  }

  MemoryPool* pool_;
  DecodedDictionary dict_;
  std::shared_ptr<ResizableBuffer> bool_bytes_;
  RleBitPackedDecoder rle_;
  // Indices decoded by DecodeBinary that did not fit in the output's offsets.
  uint32_t pending_[kIndexChunk];
  int pending_pos_ = 0;
  int pending_count_ = 0;
};

}  // namespace

std::unique_ptr<DictionaryDecoder> MakeDictionaryDecoderImpl(PhysicalType type, int value_width,
                                                             MemoryPool* pool) {
  return std::make_unique<DictDecoder>(type, value_width, pool);
}

}  // namespace alkaid::parquet::internal
