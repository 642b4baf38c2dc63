// Internal: the encoding of one compressed body buffer (BodyCompression method
// BUFFER, described in alkaid/ipc/compression.h): an int64 little-endian
// uncompressed length, then one codec frame, or -1 and the raw bytes. The
// whole-message halves that spread buffers over threads are
// body_compression.cc and body_decompression.cc. Not installed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "alkaid/ipc/compression.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"

namespace alkaid::ipc::internal {

// One shared, immutable, non-null empty buffer (for empty body buffers).
const BufferPtr& EmptyBodyBuffer();

// A buffer of exactly `size` bytes for a decompressor to fill: sized from
// the declared length up front, and not cleared first (the codec writes every
// byte, or the buffer is dropped).
Result<std::shared_ptr<ResizableBuffer>> DecompressionOutput(int64_t size, MemoryPool* pool);

// The body buffer encoding of `input` into `out`, the frame made by
// compress(input, size, output, capacity). With `may_stop`, 0 from compress
// means it stopped early, and then so does this, returning false.
template <typename CompressFn>
Result<bool> EncodeBodyBuffer(const Codec& codec, ByteRange input, ResizableBuffer* out,
                              const CompressFn& compress, bool may_stop = false) {
  if (input.size == 0) {
    ALKAID_RETURN_NOT_OK(out->Resize(0));
    return true;
  }
  const int64_t bound = codec.MaxCompressedLength(input.size);
  // Sized for the worst case first; the final Resize below zeroes whatever
  // the codec did not fill, so the bytes past size() stay zero.
  ALKAID_RETURN_NOT_OK(out->Resize(kBodyBufferPrefixSize + std::max(bound, input.size)));
  uint8_t* dst = out->mutable_data();
  ALKAID_ASSIGN_OR_RAISE(int64_t compressed,
                         compress(input.data, input.size, dst + kBodyBufferPrefixSize, bound));
  if (may_stop && compressed == 0) return false;
  int64_t prefix = input.size;
  if (compressed >= input.size) {
    // No gain: store raw so readers skip decompression entirely.
    prefix = kBodyBufferUncompressed;
    compressed = input.size;
    std::memcpy(dst + kBodyBufferPrefixSize, input.data, static_cast<size_t>(input.size));
  }
  std::memcpy(dst, &prefix, sizeof(prefix));
  ALKAID_RETURN_NOT_OK(out->Resize(kBodyBufferPrefixSize + compressed));
  return true;
}

// EncodeBodyBuffer with the codec's one-call Compress.
Status CompressBodyBufferInto(const Codec& codec, ByteRange input, ResizableBuffer* out);

// Decodes a non-empty body buffer: a raw one as a zero-copy slice past the
// prefix, a compressed one (after its declared size passed
// `max_decompressed_size`) into a new buffer by decompress(src, src_size,
// dst, declared), which returns whether it finished (false: it stopped
// early, and the result is null).
template <typename DecompressFn>
Result<BufferPtr> DecodeBodyBuffer(const BufferPtr& encoded, int64_t max_decompressed_size,
                                   MemoryPool* pool, const DecompressFn& decompress) {
  ALKAID_ASSIGN_OR_RAISE(int64_t declared,
                         ReadBodyBufferPrefix({encoded->data(), encoded->size()}));
  const int64_t src_size = encoded->size() - kBodyBufferPrefixSize;
  if (declared == kBodyBufferUncompressed) {
    return SliceBuffer(encoded, kBodyBufferPrefixSize, src_size);
  }
  if (declared > max_decompressed_size) {
    return Status::OutOfMemory("compressed body buffer declares ", declared,
                               " bytes, above the allowed ", max_decompressed_size);
  }
  ALKAID_ASSIGN_OR_RAISE(auto out, DecompressionOutput(declared, pool));
  ALKAID_ASSIGN_OR_RAISE(bool finished, decompress(encoded->data() + kBodyBufferPrefixSize,
                                                   src_size, out->mutable_data(), declared));
  if (!finished) return BufferPtr();
  return BufferPtr(std::move(out));
}

}  // namespace alkaid::ipc::internal
