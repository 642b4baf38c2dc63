// One body buffer encoded or decoded on the calling thread.
#include "body_buffer.h"

namespace alkaid::ipc {

namespace internal {

const BufferPtr& EmptyBodyBuffer() {
  alignas(kAlignment) static const uint8_t kZeros[kAlignment] = {};
  static const BufferPtr empty = std::make_shared<Buffer>(kZeros, 0);
  return empty;
}

Result<std::shared_ptr<ResizableBuffer>> DecompressionOutput(int64_t size, MemoryPool* pool) {
  auto buffer = std::make_shared<ResizableBuffer>(pool);
  ALKAID_RETURN_NOT_OK(buffer->ResizeForOverwrite(size));
  return buffer;
}

Status CompressBodyBufferInto(const Codec& codec, ByteRange input, ResizableBuffer* out) {
  return EncodeBodyBuffer(codec, input, out,
                          [&](const uint8_t* in, int64_t n, uint8_t* dst, int64_t cap) {
                            return codec.Compress(in, n, dst, cap);
                          })
      .status();
}

}  // namespace internal

Result<BufferPtr> CompressBodyBuffer(const Codec& codec, ByteRange input, MemoryPool* pool) {
  if (input.size == 0) return internal::EmptyBodyBuffer();
  auto out = std::make_shared<ResizableBuffer>(pool);
  ALKAID_RETURN_NOT_OK(internal::CompressBodyBufferInto(codec, input, out.get()));
  return BufferPtr(std::move(out));
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
  if (encoded == nullptr || encoded->size() == 0) {
    return encoded ? encoded : internal::EmptyBodyBuffer();
  }
  return internal::DecodeBodyBuffer(
      encoded, max_decompressed_size, pool,
      [&](const uint8_t* src, int64_t src_size, uint8_t* dst, int64_t size) -> Result<bool> {
        ALKAID_RETURN_NOT_OK(codec.Decompress(src, src_size, dst, size).status());
        return true;
      });
}

}  // namespace alkaid::ipc
