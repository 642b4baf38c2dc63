// BYTE_STREAM_SPLIT (FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY): byte
// k of every value is in stream k; the streams follow each other, each as
// long as the page has values. Decoding interleaves the streams again; with
// the width known at compile time the inner loop is a fixed set of loads.
#include <algorithm>

#include "decoders_internal.h"

namespace alkaid::parquet::internal {

namespace {

template <int kWidth>
void Join(const uint8_t* streams, int64_t stride, int64_t first, int64_t n, uint8_t* out,
          int width) {
  if constexpr (kWidth > 0) width = kWidth;
  for (int64_t i = 0; i < n; ++i) {
    for (int k = 0; k < width; ++k) out[i * width + k] = streams[k * stride + first + i];
  }
}

template <int kWidth>
void Split(const uint8_t* values, int64_t n, uint8_t* streams, int64_t stride, int64_t first,
           int width) {
  if constexpr (kWidth > 0) width = kWidth;
  for (int64_t i = 0; i < n; ++i) {
    for (int k = 0; k < width; ++k) streams[k * stride + first + i] = values[i * width + k];
  }
}

class ByteStreamSplitDecoder final : public ValueDecoder {
 public:
  ByteStreamSplitDecoder(PhysicalType type, int width)
      : ValueDecoder(type, Encoding::kByteStreamSplit, width) {}

  Status SetData(int64_t num_values, const uint8_t* data, int64_t size) override {
    if (size % value_width_ != 0) {
      return DecodeError(encoding_, type_,
                         std::to_string(size) + " bytes are not a whole number of " +
                             std::to_string(value_width_) + "-byte values",
                         0);
    }
    stride_ = size / value_width_;
    if (stride_ > num_values) {
      return DecodeError(encoding_, type_,
                         std::to_string(stride_) + " values in a page of " +
                             std::to_string(num_values),
                         0);
    }
    data_ = data;
    next_ = 0;
    values_left_ = stride_;
    return Status::OK();
  }

  Status Decode(int64_t n, uint8_t* out) override {
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    switch (value_width_) {
      case 4: Join<4>(data_, stride_, next_, n, out, 4); break;
      case 8: Join<8>(data_, stride_, next_, n, out, 8); break;
      default: Join<0>(data_, stride_, next_, n, out, value_width_); break;
    }
    next_ += n;
    values_left_ -= n;
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    ALKAID_RETURN_NOT_OK(CheckCount(n));
    next_ += n;
    values_left_ -= n;
    return Status::OK();
  }

 private:
  const uint8_t* data_ = nullptr;
  int64_t stride_ = 0;  // values in the page: the length of each stream
  int64_t next_ = 0;
};

class ByteStreamSplitEncoder final : public ValueEncoder {
 public:
  ByteStreamSplitEncoder(PhysicalType type, int width, MemoryPool* pool)
      : ValueEncoder(type, Encoding::kByteStreamSplit, width), values_(pool), pool_(pool) {}

  Status Put(const uint8_t* values, int64_t n, const uint8_t* valid_bits,
             int64_t valid_offset) override {
    ALKAID_RETURN_NOT_OK(values_.Reserve(n * value_width_));
    VisitSetBits(valid_bits, valid_offset, n, [&](int64_t i) {
      values_.UnsafeAppend(values + i * value_width_, value_width_);
    });
    num_values_ = values_.size() / value_width_;
    return Status::OK();
  }

  int64_t EstimatedSize() const override { return values_.size(); }

  Result<BufferPtr> FinishPage() override {
    ALKAID_ASSIGN_OR_RAISE(auto out, AllocateBuffer(values_.size(), pool_));
    const int64_t n = num_values_;
    switch (value_width_) {
      case 4: Split<4>(values_.data(), n, out->mutable_data(), n, 0, 4); break;
      case 8: Split<8>(values_.data(), n, out->mutable_data(), n, 0, 8); break;
      default: Split<0>(values_.data(), n, out->mutable_data(), n, 0, value_width_); break;
    }
    values_.Reset();
    return BufferPtr(std::move(out));
  }

 private:
  alkaid::BufferBuilder values_;
  MemoryPool* pool_;
};

}  // namespace

std::unique_ptr<ValueDecoder> MakeByteStreamSplitDecoder(PhysicalType type, int value_width) {
  return std::make_unique<ByteStreamSplitDecoder>(type, value_width);
}
std::unique_ptr<ValueEncoder> MakeByteStreamSplitEncoder(PhysicalType type, int value_width,
                                                         MemoryPool* pool) {
  return std::make_unique<ByteStreamSplitEncoder>(type, value_width, pool);
}

}  // namespace alkaid::parquet::internal
