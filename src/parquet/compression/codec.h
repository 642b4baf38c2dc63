// Compression codecs of Parquet page bodies (UNCOMPRESSED, SNAPPY, GZIP,
// BROTLI, LZ4 with Hadoop framing, ZSTD, LZ4_RAW). Internal to the parquet
// module; the page reader and writer are the users.
//
// Decompression is into an exactly sized output: the page header states the
// uncompressed size, the caller allocates that many bytes, and a codec fails
// when the data would produce more or fewer bytes (never writes past `out`).
// Compression appends to a growing buffer. Errors name the codec and say what
// was wrong; the caller adds the row group, column and page.
//
// Codec objects are stateless and thread-safe: one Codec may be shared by any
// number of threads (library contexts are kept per thread where they help).
#pragma once

#include <cstdint>
#include <memory>

#include "alkaid/builder.h"
#include "alkaid/memory.h"
#include "alkaid/parquet/types.h"
#include "alkaid/status.h"
#include "alkaid/visibility.h"

namespace alkaid::parquet::internal {

/// Lets a codec pick its library's default level.
inline constexpr int kCodecDefaultLevel = -1000;

/// One compression codec.
class Codec {
 public:
  virtual ~Codec() = default;

  /// Decompresses `in_size` bytes into exactly `out_size` bytes at `out`.
  /// Fails (Invalid, naming the codec) on corrupt data, or when the data
  /// decompresses to more or fewer than `out_size` bytes.
  virtual Status Decompress(const uint8_t* in, int64_t in_size, uint8_t* out,
                            int64_t out_size) const = 0;

  /// Appends the compression of `in_size` bytes at `in` to `out`; returns
  /// the number of bytes appended.
  virtual Result<int64_t> Compress(const uint8_t* in, int64_t in_size,
                                   alkaid::BufferBuilder* out) const = 0;

  /// The most bytes Compress can append for `in_size` input bytes.
  virtual int64_t MaxCompressedSize(int64_t in_size) const = 0;

  Compression compression() const { return compression_; }

 protected:
  explicit Codec(Compression compression) : compression_(compression) {}
  Compression compression_;
};

/// The codec of `compression` at `level` (kCodecDefaultLevel: the library's
/// default; levels are checked against the library's range). LZO is refused
/// with NotImplemented.
ALKAID_EXPORT Result<std::unique_ptr<Codec>> MakeCodec(Compression compression,
                                                     int level = kCodecDefaultLevel);

/// Whether MakeCodec supports `compression` in this build.
ALKAID_EXPORT bool IsCodecAvailable(Compression compression);

/// Decompresses a page body with `codec` (null: uncompressed) into a new pool
/// buffer of exactly `uncompressed_size` bytes; an uncompressed body is handed
/// back as it is (a slice of `compressed`, zero-copy) after its size is checked.
ALKAID_EXPORT Result<BufferPtr> DecompressPage(const Codec* codec, const BufferPtr& compressed,
                                               int64_t uncompressed_size,
                                               MemoryPool* pool = default_memory_pool());

}  // namespace alkaid::parquet::internal
