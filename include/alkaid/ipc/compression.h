/// @file
/// Body compression for IPC messages (BodyCompression method BUFFER).
///
/// Each body buffer is encoded on its own as
///   int64 little-endian uncompressed length | compressed bytes
/// where the length -1 means "the bytes that follow are stored raw" (used when
/// compressing would not make the buffer smaller), and an empty buffer is
/// written as zero bytes with no prefix at all. LZ4 uses the frame format
/// (lz4frame.h), one frame per buffer; ZSTD uses one zstd frame per buffer.
#pragma once

#include <ostream>

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "alkaid/thread_pool.h"
#include "alkaid/visibility.h"

namespace alkaid::ipc {

/// Body compression codec of an IPC message. The numbers are alkaid's own, not
/// the format's: kNone stands for a message without BodyCompression.
enum class CompressionType : int8_t {
  kNone,      ///< bodies stored raw
  kLz4Frame,  ///< LZ4 frame format, one frame per buffer
  kZstd,      ///< Zstandard, one frame per buffer
};

/// "none", "lz4_frame", "zstd".
ALKAID_EXPORT const char* CompressionTypeName(CompressionType type);
/// Writes CompressionTypeName(type) to `os`.
inline std::ostream& operator<<(std::ostream& os, CompressionType type) {
  return os << CompressionTypeName(type);
}
/// Accepts the names above plus "lz4" and "uncompressed" (case-sensitive).
ALKAID_EXPORT Result<CompressionType> CompressionTypeFromName(std::string_view name);

/// Lets the codec pick its library's default level.
inline constexpr int kDefaultCompressionLevel = std::numeric_limits<int>::min();

/// Stateless, thread-safe one-shot compressor for a single codec. Every call
/// works on caller-provided memory; a codec never allocates output buffers.
/// Get one with Create; several threads may share one Codec.
class ALKAID_EXPORT Codec {
 public:
  virtual ~Codec() = default;

  /// A codec for `type` (kNone is refused). `level` is passed to the library;
  /// kDefaultCompressionLevel selects its default. Out-of-range levels fail.
  static Result<std::unique_ptr<Codec>> Create(CompressionType type,
                                               int level = kDefaultCompressionLevel);

  /// The codec this object implements.
  virtual CompressionType type() const = 0;
  /// The level given to Create (kDefaultCompressionLevel when none was given).
  virtual int level() const = 0;

  /// Upper bound of Compress()'s output for `input_size` input bytes.
  virtual int64_t MaxCompressedLength(int64_t input_size) const = 0;

  /// Compresses [input, input + input_size) as one frame into `output`, which
  /// must hold at least MaxCompressedLength(input_size) bytes (anything less
  /// may fail with CapacityError). Returns the number of bytes written.
  virtual Result<int64_t> Compress(const uint8_t* input, int64_t input_size, uint8_t* output,
                                   int64_t output_capacity) const = 0;

  /// Decompresses one frame into `output`, which is exactly the expected
  /// decompressed size. Fails (never writes past output + output_size) when
  /// the input is corrupt, holds more or fewer bytes than output_size, or has
  /// trailing garbage. Returns output_size on success.
  virtual Result<int64_t> Decompress(const uint8_t* input, int64_t input_size, uint8_t* output,
                                     int64_t output_size) const = 0;
};

/// Size of the little-endian uncompressed-length prefix of an encoded buffer.
inline constexpr int64_t kBodyBufferPrefixSize = 8;
/// Prefix value meaning "stored uncompressed".
inline constexpr int64_t kBodyBufferUncompressed = -1;

/// How the buffers of one message are spread over threads (thread_pool.h;
/// the name is kept here for code written against alkaid::ipc).
using ::alkaid::ParallelOptions;

/// A borrowed byte range.
struct ALKAID_EXPORT ByteRange {
  const uint8_t* data = nullptr;  ///< first byte; may be null when size is 0
  int64_t size = 0;               ///< number of bytes at data
};

/// Encodes one body buffer as described at the top of this file: an empty
/// result for an empty input; prefix -1 plus a copy of the raw bytes when the
/// compressed form would not be smaller; otherwise prefix + compressed frame.
ALKAID_EXPORT Result<BufferPtr> CompressBodyBuffer(const Codec& codec, ByteRange input,
                                     MemoryPool* pool = default_memory_pool());

/// Encodes every input; out->size() == inputs.size() on success and (*out)[i]
/// holds the encoding of inputs[i], identical to what CompressBodyBuffer gives.
/// Buffers already in *out that nobody else references are overwritten in
/// place: a writer that passes the same vector for every batch allocates (and
/// page-faults) its compression space once, not once per buffer per batch.
ALKAID_EXPORT Status CompressBodyBuffers(const Codec& codec, std::span<const ByteRange> inputs,
                           std::vector<std::shared_ptr<ResizableBuffer>>* out,
                           const ParallelOptions& parallel = {},
                           MemoryPool* pool = default_memory_pool());

/// CompressBodyBuffers in two halves, so that a writer can write one message
/// while pool threads compress the next: Start hands the buffers to pool
/// threads (when CompressBodyBuffers would use threads) and returns at once;
/// Finish has the calling thread compress what nobody started, race what a
/// pool thread has in progress, wait, and return what CompressBodyBuffers
/// would have. The inputs, `*out` and the pool must stay valid and unchanged
/// until Finish returned; destroying a started object waits like Finish.
/// FinishResults and Release split Finish once more, for a writer that keeps
/// the inputs alive anyway and should not wait for a preempted pool thread.
/// One object is used by one thread at a time.
class ALKAID_EXPORT BodyCompression {
 public:
  /// Nothing started.
  BodyCompression();
  /// Waits for a started compression (its result is dropped).
  ~BodyCompression();
  /// Not copyable: pool threads may be working for it.
  BodyCompression(const BodyCompression&) = delete;
  /// Not assignable.
  BodyCompression& operator=(const BodyCompression&) = delete;

  /// Starts encoding every input into (*out)[i] (arguments as for
  /// CompressBodyBuffers). Invalid when already started.
  Status Start(const Codec& codec, std::span<const ByteRange> inputs,
               std::vector<std::shared_ptr<ResizableBuffer>>* out,
               const ParallelOptions& parallel = {}, MemoryPool* pool = default_memory_pool());
  /// Completes the encoding; OK and nothing done when not started.
  /// FinishResults, then Release.
  Status Finish();
  /// The first half of Finish: `*out` holds every result when it returns,
  /// but a pool thread whose attempt at a buffer lost the race to the
  /// caller's may still be reading that buffer's input (it stops at its next
  /// check, which a preempted thread makes only when it runs again). The
  /// inputs and the pool must then stay valid until Release, the next Start
  /// or destruction, whichever comes first; `*out` is free at once.
  Status FinishResults();
  /// True after FinishResults while such an attempt may still be running.
  bool lingering() const;
  /// Waits for attempts left running by FinishResults; nothing to do when
  /// there are none.
  void Release();
  /// True between Start and Finish (or FinishResults).
  bool started() const { return state_ != nullptr; }

 private:
  struct State;
  std::unique_ptr<State> state_;
  std::unique_ptr<State> lingering_;  // finished, with a losing attempt still out
};

/// Reads the prefix of an encoded buffer: 0 for an empty buffer, -1 for a raw
/// one, else the declared uncompressed length. Fails for a buffer shorter than
/// the prefix or a prefix below -1.
ALKAID_EXPORT Result<int64_t> ReadBodyBufferPrefix(ByteRange encoded);

/// Decodes one body buffer. An empty input gives an empty buffer; a raw (-1)
/// buffer gives a zero-copy slice of `encoded` past the prefix; otherwise a new
/// buffer of the declared size. Fails with OutOfMemory, before allocating,
/// when the declared size exceeds `max_decompressed_size`, and with
/// SerializationError when the data is corrupt or decompresses to a different
/// size than declared.
ALKAID_EXPORT Result<BufferPtr> DecompressBodyBuffer(const Codec& codec, const BufferPtr& encoded,
                                       int64_t max_decompressed_size,
                                       MemoryPool* pool = default_memory_pool());

/// Decodes every buffer (null entries stay null). The cap applies to the sum
/// of the declared sizes of all buffers and is checked before any allocation.
/// `buffer_index_base` is only used in error messages ("body buffer 7").
ALKAID_EXPORT Status DecompressBodyBuffers(const Codec& codec, const std::vector<BufferPtr>& encoded,
                             std::vector<BufferPtr>* out, int64_t max_total_decompressed_size,
                             const ParallelOptions& parallel = {},
                             MemoryPool* pool = default_memory_pool(),
                             int64_t buffer_index_base = 0);

/// The cost-ordered parallel loop the codecs use (thread_pool.h; the name is
/// kept here for code written against alkaid::ipc).
using ::alkaid::ParallelFor;

}  // namespace alkaid::ipc
