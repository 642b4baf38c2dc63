// LZ4 frame and Zstandard codecs plus the per-buffer body encoding of IPC.
#include "alkaid/ipc/compression.h"

#include <lz4frame.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <cstring>
#include <thread>

#include "alkaid/thread_pool.h"

namespace alkaid::ipc {

namespace {

// Highest LZ4 level (LZ4HC_CLEVEL_MAX in lz4hc.h); higher values act the same.
constexpr int kLz4MaxLevel = 12;

// A valid address for zero-length buffers (memcpy with a null pointer is UB
// even for zero bytes).
const uint8_t kEmptyBytes[8] = {};

BufferPtr EmptyBuffer() { return std::make_shared<Buffer>(kEmptyBytes, 0); }

// Contexts are reused per thread: creating one per call would cost more than
// compressing a small buffer.
struct Lz4DctxDeleter {
  void operator()(LZ4F_dctx* ctx) const { LZ4F_freeDecompressionContext(ctx); }
};
struct ZstdCctxDeleter {
  void operator()(ZSTD_CCtx* ctx) const { ZSTD_freeCCtx(ctx); }
};
struct ZstdDctxDeleter {
  void operator()(ZSTD_DCtx* ctx) const { ZSTD_freeDCtx(ctx); }
};

Result<LZ4F_dctx*> ThreadLz4Dctx() {
  thread_local std::unique_ptr<LZ4F_dctx, Lz4DctxDeleter> ctx;
  if (!ctx) {
    LZ4F_dctx* raw = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&raw, LZ4F_VERSION))) {
      return Status::OutOfMemory("cannot create an LZ4 decompression context");
    }
    ctx.reset(raw);
  } else {
    LZ4F_resetDecompressionContext(ctx.get());
  }
  return ctx.get();
}

Result<ZSTD_CCtx*> ThreadZstdCctx() {
  thread_local std::unique_ptr<ZSTD_CCtx, ZstdCctxDeleter> ctx;
  if (!ctx) ctx.reset(ZSTD_createCCtx());
  if (!ctx) return Status::OutOfMemory("cannot create a zstd compression context");
  return ctx.get();
}

Result<ZSTD_DCtx*> ThreadZstdDctx() {
  thread_local std::unique_ptr<ZSTD_DCtx, ZstdDctxDeleter> ctx;
  if (!ctx) ctx.reset(ZSTD_createDCtx());
  if (!ctx) return Status::OutOfMemory("cannot create a zstd decompression context");
  return ctx.get();
}

class Lz4FrameCodec final : public Codec {
 public:
  explicit Lz4FrameCodec(int level) : level_(level) {}
  CompressionType type() const override { return CompressionType::kLz4Frame; }
  int level() const override { return level_; }

  int64_t MaxCompressedLength(int64_t input_size) const override {
    LZ4F_preferences_t prefs = Preferences(input_size);
    return static_cast<int64_t>(LZ4F_compressFrameBound(static_cast<size_t>(input_size), &prefs));
  }

  Result<int64_t> Compress(const uint8_t* input, int64_t input_size, uint8_t* output,
                           int64_t output_capacity) const override {
    LZ4F_preferences_t prefs = Preferences(input_size);
    size_t n = LZ4F_compressFrame(output, static_cast<size_t>(output_capacity), input,
                                  static_cast<size_t>(input_size), &prefs);
    if (LZ4F_isError(n)) {
      return Status::CapacityError("LZ4 frame compression of ", input_size, " bytes failed: ",
                                   LZ4F_getErrorName(n));
    }
    return static_cast<int64_t>(n);
  }

  Result<int64_t> Decompress(const uint8_t* input, int64_t input_size, uint8_t* output,
                             int64_t output_size) const override {
    ALKAID_ASSIGN_OR_RAISE(LZ4F_dctx * ctx, ThreadLz4Dctx());
    int64_t in_pos = 0;
    int64_t out_pos = 0;
    while (true) {
      size_t out_avail = static_cast<size_t>(output_size - out_pos);
      size_t in_avail = static_cast<size_t>(input_size - in_pos);
      size_t hint = LZ4F_decompress(ctx, output + out_pos, &out_avail, input + in_pos, &in_avail,
                                    nullptr);
      if (LZ4F_isError(hint)) {
        return Status::SerializationError("corrupt LZ4 frame at input byte ", in_pos, ": ",
                                          LZ4F_getErrorName(hint));
      }
      in_pos += static_cast<int64_t>(in_avail);
      out_pos += static_cast<int64_t>(out_avail);
      if (hint == 0) break;  // frame complete
      if (in_avail == 0 && out_avail == 0) {
        if (in_pos == input_size) {
          return Status::SerializationError("LZ4 frame is truncated after ", input_size,
                                            " input bytes");
        }
        return Status::SerializationError("LZ4 frame holds more than the declared ",
                                          output_size, " bytes");
      }
    }
    if (out_pos != output_size) {
      return Status::SerializationError("LZ4 frame holds ", out_pos, " bytes, declared ",
                                        output_size);
    }
    if (in_pos != input_size) {
      return Status::SerializationError("LZ4 frame ends at byte ", in_pos, " of ", input_size,
                                        " (trailing data)");
    }
    return output_size;
  }

 private:
  LZ4F_preferences_t Preferences(int64_t input_size) const {
    LZ4F_preferences_t prefs;
    std::memset(&prefs, 0, sizeof(prefs));
    prefs.compressionLevel = level_;
    // Recording the size lets any reader check it before decompressing.
    prefs.frameInfo.contentSize = static_cast<unsigned long long>(input_size);
    return prefs;
  }

  int level_;
};

class ZstdCodec final : public Codec {
 public:
  explicit ZstdCodec(int level) : level_(level) {}
  CompressionType type() const override { return CompressionType::kZstd; }
  int level() const override { return level_; }

  int64_t MaxCompressedLength(int64_t input_size) const override {
    return static_cast<int64_t>(ZSTD_compressBound(static_cast<size_t>(input_size)));
  }

  Result<int64_t> Compress(const uint8_t* input, int64_t input_size, uint8_t* output,
                           int64_t output_capacity) const override {
    ALKAID_ASSIGN_OR_RAISE(ZSTD_CCtx * ctx, ThreadZstdCctx());
    size_t n = ZSTD_compressCCtx(ctx, output, static_cast<size_t>(output_capacity), input,
                                 static_cast<size_t>(input_size), level_);
    if (ZSTD_isError(n)) {
      return Status::CapacityError("zstd compression of ", input_size, " bytes failed: ",
                                   ZSTD_getErrorName(n));
    }
    return static_cast<int64_t>(n);
  }

  Result<int64_t> Decompress(const uint8_t* input, int64_t input_size, uint8_t* output,
                             int64_t output_size) const override {
    unsigned long long declared = ZSTD_getFrameContentSize(input, static_cast<size_t>(input_size));
    if (declared == ZSTD_CONTENTSIZE_ERROR) {
      return Status::SerializationError("input of ", input_size, " bytes is not a zstd frame");
    }
    if (declared != ZSTD_CONTENTSIZE_UNKNOWN &&
        declared != static_cast<unsigned long long>(output_size)) {
      return Status::SerializationError("zstd frame declares ", declared, " bytes, expected ",
                                        output_size);
    }
    ALKAID_ASSIGN_OR_RAISE(ZSTD_DCtx * ctx, ThreadZstdDctx());
    size_t n = ZSTD_decompressDCtx(ctx, output, static_cast<size_t>(output_size), input,
                                   static_cast<size_t>(input_size));
    if (ZSTD_isError(n)) {
      return Status::SerializationError("corrupt zstd frame: ", ZSTD_getErrorName(n));
    }
    if (static_cast<int64_t>(n) != output_size) {
      return Status::SerializationError("zstd frame holds ", n, " bytes, declared ", output_size);
    }
    return output_size;
  }

 private:
  int level_;
};

void WriteInt64LE(uint8_t* out, int64_t value) { std::memcpy(out, &value, 8); }

Result<std::shared_ptr<ResizableBuffer>> ReserveBuffer(int64_t capacity, MemoryPool* pool) {
  auto buffer = std::make_shared<ResizableBuffer>(pool);
  ALKAID_RETURN_NOT_OK(buffer->Reserve(capacity));
  return buffer;
}

}  // namespace

const char* CompressionTypeName(CompressionType type) {
  switch (type) {
    case CompressionType::kNone: return "none";
    case CompressionType::kLz4Frame: return "lz4_frame";
    case CompressionType::kZstd: return "zstd";
  }
  return "unknown";
}

Result<CompressionType> CompressionTypeFromName(std::string_view name) {
  if (name == "none" || name == "uncompressed") return CompressionType::kNone;
  if (name == "lz4_frame" || name == "lz4") return CompressionType::kLz4Frame;
  if (name == "zstd") return CompressionType::kZstd;
  return Status::Invalid("unknown compression '", name, "' (expected none, lz4 or zstd)");
}

Result<std::unique_ptr<Codec>> Codec::Create(CompressionType type, int level) {
  switch (type) {
    case CompressionType::kNone:
      return Status::Invalid("no codec exists for compression type 'none'");
    case CompressionType::kLz4Frame: {
      if (level == kDefaultCompressionLevel) level = 0;
      // Negative levels select LZ4's accelerated modes; above 12 is HC's maximum.
      if (level < -65536 || level > kLz4MaxLevel) {
        return Status::Invalid("LZ4 compression level must be in [-65536, 12], got ", level);
      }
      return std::unique_ptr<Codec>(new Lz4FrameCodec(level));
    }
    case CompressionType::kZstd: {
      if (level == kDefaultCompressionLevel) level = 1;
      if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
        return Status::Invalid("zstd compression level must be in [", ZSTD_minCLevel(), ", ",
                               ZSTD_maxCLevel(), "], got ", level);
      }
      return std::unique_ptr<Codec>(new ZstdCodec(level));
    }
  }
  return Status::Invalid("unknown compression type ", static_cast<int>(type));
}

Status ParallelFor(std::span<const int64_t> costs, const ParallelOptions& parallel,
                   const std::function<Status(int64_t)>& task) {
  const auto n = static_cast<int64_t>(costs.size());
  int64_t total = 0;
  for (int64_t c : costs) total += std::max<int64_t>(c, 0);
  int64_t threads = parallel.num_threads > 0
                        ? parallel.num_threads
                        : static_cast<int64_t>(std::thread::hardware_concurrency());
  threads = std::min(threads, n);
  if (!parallel.use_threads || threads <= 1 || total < parallel.min_parallel_bytes) {
    for (int64_t i = 0; i < n; ++i) ALKAID_RETURN_NOT_OK(task(i));
    return Status::OK();
  }
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return costs[static_cast<size_t>(a)] > costs[static_cast<size_t>(b)];
  });
  std::vector<Status> results(static_cast<size_t>(n));
  RunParallel(n, static_cast<int>(threads), [&](int64_t k) {
    const int64_t i = order[static_cast<size_t>(k)];
    results[static_cast<size_t>(i)] = task(i);
  });
  for (const Status& st : results) ALKAID_RETURN_NOT_OK(st);
  return Status::OK();
}

Status CompressBodyBufferInto(const Codec& codec, ByteRange input, ResizableBuffer* out) {
  if (input.size == 0) return out->Resize(0);
  const int64_t bound = codec.MaxCompressedLength(input.size);
  // Sized for the worst case first; the final Resize below zeroes whatever
  // the codec did not fill, so the bytes past size() stay zero.
  ALKAID_RETURN_NOT_OK(out->Resize(kBodyBufferPrefixSize + std::max(bound, input.size)));
  uint8_t* dst = out->mutable_data();
  ALKAID_ASSIGN_OR_RAISE(int64_t compressed,
                         codec.Compress(input.data, input.size, dst + kBodyBufferPrefixSize, bound));
  if (compressed >= input.size) {
    // No gain: store raw so readers skip decompression entirely.
    WriteInt64LE(dst, kBodyBufferUncompressed);
    std::memcpy(dst + kBodyBufferPrefixSize, input.data, static_cast<size_t>(input.size));
    return out->Resize(kBodyBufferPrefixSize + input.size);
  }
  WriteInt64LE(dst, input.size);
  return out->Resize(kBodyBufferPrefixSize + compressed);
}

Result<BufferPtr> CompressBodyBuffer(const Codec& codec, ByteRange input, MemoryPool* pool) {
  if (input.size == 0) return EmptyBuffer();
  auto out = std::make_shared<ResizableBuffer>(pool);
  ALKAID_RETURN_NOT_OK(CompressBodyBufferInto(codec, input, out.get()));
  return BufferPtr(std::move(out));
}

Status CompressBodyBuffers(const Codec& codec, std::span<const ByteRange> inputs,
                           std::vector<std::shared_ptr<ResizableBuffer>>* out,
                           const ParallelOptions& parallel, MemoryPool* pool) {
  out->resize(inputs.size());
  std::vector<int64_t> costs(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    costs[i] = inputs[i].size;
    // A buffer still referenced elsewhere is left to its holder.
    std::shared_ptr<ResizableBuffer>& slot = (*out)[i];
    if (slot == nullptr || slot.use_count() > 1 || slot->pool() != pool) {
      slot = std::make_shared<ResizableBuffer>(pool);
    }
  }
  return ParallelFor(costs, parallel, [&](int64_t i) {
    const auto at = static_cast<size_t>(i);
    return CompressBodyBufferInto(codec, inputs[at], (*out)[at].get());
  });
}

Result<int64_t> ReadBodyBufferPrefix(ByteRange encoded) {
  if (encoded.size == 0) return 0;
  if (encoded.size < kBodyBufferPrefixSize) {
    return Status::SerializationError("compressed body buffer of ", encoded.size,
                                      " bytes is shorter than its 8-byte length prefix");
  }
  int64_t declared;
  std::memcpy(&declared, encoded.data, 8);
  if (declared < kBodyBufferUncompressed) {
    return Status::SerializationError("compressed body buffer declares a negative length (",
                                      declared, ")");
  }
  return declared;
}

Result<BufferPtr> DecompressBodyBuffer(const Codec& codec, const BufferPtr& encoded,
                                       int64_t max_decompressed_size, MemoryPool* pool) {
  if (encoded == nullptr || encoded->size() == 0) return encoded ? encoded : EmptyBuffer();
  ALKAID_ASSIGN_OR_RAISE(int64_t declared, ReadBodyBufferPrefix({encoded->data(), encoded->size()}));
  if (declared == kBodyBufferUncompressed) {
    return SliceBuffer(encoded, kBodyBufferPrefixSize, encoded->size() - kBodyBufferPrefixSize);
  }
  if (declared > max_decompressed_size) {
    return Status::OutOfMemory("compressed body buffer declares ", declared,
                               " bytes, above the allowed ", max_decompressed_size);
  }
  ALKAID_ASSIGN_OR_RAISE(auto out, ReserveBuffer(declared, pool));
  ALKAID_RETURN_NOT_OK(codec.Decompress(encoded->data() + kBodyBufferPrefixSize,
                                        encoded->size() - kBodyBufferPrefixSize,
                                        out->mutable_data(), declared));
  ALKAID_RETURN_NOT_OK(out->Resize(declared));
  return BufferPtr(std::move(out));
}

Status DecompressBodyBuffers(const Codec& codec, const std::vector<BufferPtr>& encoded,
                             std::vector<BufferPtr>* out, int64_t max_total_decompressed_size,
                             const ParallelOptions& parallel, MemoryPool* pool,
                             int64_t buffer_index_base) {
  // Check every declared size first so corrupt input never allocates.
  int64_t total = 0;
  std::vector<int64_t> costs(encoded.size(), 0);
  for (size_t i = 0; i < encoded.size(); ++i) {
    if (encoded[i] == nullptr) continue;
    auto declared = ReadBodyBufferPrefix({encoded[i]->data(), encoded[i]->size()});
    if (!declared.ok()) {
      return declared.status().WithContext("body buffer " +
                                           std::to_string(buffer_index_base + int64_t(i)));
    }
    if (*declared > 0) {
      if (*declared > max_total_decompressed_size - total) {
        return Status::OutOfMemory("body buffer ", buffer_index_base + int64_t(i),
                                   " declares ", *declared, " bytes; the buffers of this message "
                                   "would need more than the allowed ",
                                   max_total_decompressed_size);
      }
      total += *declared;
      costs[i] = *declared;
    }
  }
  out->assign(encoded.size(), nullptr);
  return ParallelFor(costs, parallel, [&](int64_t i) {
    const BufferPtr& in = encoded[static_cast<size_t>(i)];
    if (in == nullptr) return Status::OK();
    auto decoded = DecompressBodyBuffer(codec, in, max_total_decompressed_size, pool);
    if (!decoded.ok()) {
      return decoded.status().WithContext("body buffer " + std::to_string(buffer_index_base + i));
    }
    (*out)[static_cast<size_t>(i)] = std::move(*decoded);
    return Status::OK();
  });
}

}  // namespace alkaid::ipc
