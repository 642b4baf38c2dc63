// Whole-buffer gzip through zlib, and reading a file that may be gzipped.
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "alkaid/integration_json/integration.h"

namespace alkaid::integration_json {

namespace {

// zlib counts in uInt; feed it at most this much per call so huge inputs work.
constexpr size_t kMaxChunk = size_t{1} << 30;

// One zlib call, inflate or deflate as `call(last)` makes it (`last`: this chunk ends the input),
// over the next at most kMaxChunk bytes of `in` and of the room left in `out`; `consumed` and
// `produced` move on by what it used. Returns the call's zlib code.
template <typename Call>
int ZlibStep(z_stream* stream, std::string_view in, size_t* consumed, std::string* out,
             size_t* produced, Call&& call) {
  const size_t in_chunk = std::min(in.size() - *consumed, kMaxChunk);
  const size_t out_chunk = std::min(out->size() - *produced, kMaxChunk);
  stream->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + *consumed));
  stream->avail_in = static_cast<uInt>(in_chunk);
  stream->next_out = reinterpret_cast<Bytef*>(out->data() + *produced);
  stream->avail_out = static_cast<uInt>(out_chunk);
  const int rc = call(*consumed + in_chunk == in.size());
  *consumed += in_chunk - stream->avail_in;
  *produced += out_chunk - stream->avail_out;
  return rc;
}

}  // namespace

bool LooksGzipped(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<uint8_t>(bytes[0]) == 0x1f &&
         static_cast<uint8_t>(bytes[1]) == 0x8b;
}

// Throws std::bad_alloc when memory runs out (the caller turns it into a
// Status); everything else is reported as a Status.
static Result<std::string> GzipDecompressUnchecked(std::string_view compressed, int64_t max_size) {
  z_stream stream;
  std::memset(&stream, 0, sizeof(stream));
  // 16 + MAX_WBITS: expect a gzip header and trailer.
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
    return Status::OutOfMemory("gzip: cannot initialize zlib inflate");
  std::string out;
  out.resize(static_cast<size_t>(
      std::min<int64_t>(static_cast<int64_t>(compressed.size()) * 4 + 1024, std::max<int64_t>(max_size, 1))));
  size_t consumed = 0;
  size_t produced = 0;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    if (produced == out.size()) {
      if (static_cast<int64_t>(produced) >= max_size) {
        inflateEnd(&stream);
        return Status::CapacityError("gzip: decompresses to more than ", max_size,
                                     " bytes (from ", compressed.size(), " compressed bytes)");
      }
      out.resize(static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(out.size()) * 2, max_size)));
    }
    rc = ZlibStep(&stream, compressed, &consumed, &out, &produced,
                  [&stream](bool) { return inflate(&stream, Z_NO_FLUSH); });
    if (rc == Z_BUF_ERROR && consumed == compressed.size() && stream.avail_out != 0) {
      inflateEnd(&stream);
      return Status::SerializationError("gzip: stream truncated after ", consumed,
                                        " compressed bytes (", produced,
                                        " bytes decompressed); the end marker is missing");
    }
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      std::string why = stream.msg ? stream.msg : "corrupt data";
      inflateEnd(&stream);
      return Status::SerializationError("gzip: ", why, " at compressed byte ", consumed);
    }
  }
  inflateEnd(&stream);
  out.resize(produced);
  return out;
}

Result<std::string> GzipDecompress(std::string_view compressed, int64_t max_size) {
  try {
    return GzipDecompressUnchecked(compressed, max_size);
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("gzip: out of memory decompressing ", compressed.size(), " bytes");
  }
}

namespace {

// Throws std::bad_alloc when memory runs out (GzipCompress turns it into a
// Status); the zlib stream is ended on every path, exceptions included.
Result<std::string> GzipCompressUnchecked(std::string_view bytes, int level) {
  z_stream stream;
  std::memset(&stream, 0, sizeof(stream));
  if (deflateInit2(&stream, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return Status::Invalid("gzip: cannot initialize zlib deflate at level ", level);
  struct EndDeflate {
    z_stream* stream;
    ~EndDeflate() { deflateEnd(stream); }
  } end_deflate{&stream};
  std::string out;
  out.resize(deflateBound(&stream, static_cast<uLong>(std::min(bytes.size(), kMaxChunk))) + 64);
  size_t consumed = 0;
  size_t produced = 0;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    if (produced == out.size()) out.resize(out.size() * 2);
    rc = ZlibStep(&stream, bytes, &consumed, &out, &produced, [&stream](bool last) {
      return deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH);
    });
    if (rc == Z_STREAM_ERROR) {
      return Status::UnknownError("gzip: zlib deflate failed");
    }
  }
  out.resize(produced);
  return out;
}

}  // namespace

Result<std::string> GzipCompress(std::string_view bytes, int level) {
  try {
    return GzipCompressUnchecked(bytes, level);
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("gzip: out of memory compressing ", bytes.size(), " bytes");
  }
}

Result<std::string> MaybeGunzip(std::string bytes, const IntegrationReadOptions& options) {
  if (!LooksGzipped(bytes)) return bytes;
  const auto compressed = static_cast<int64_t>(bytes.size());
  const int64_t cap = options.MaxGunzipBytes(compressed);
  auto text = GzipDecompress(bytes, cap);
  if (!text.ok() && text.status().code() == StatusCode::kCapacityError) {
    return Status::CapacityError(text.status().message(), "; integration JSON may inflate to ",
                                 options.gunzip_ratio, " times its compressed size (at least ",
                                 options.gunzip_floor_bytes,
                                 " bytes): gunzip it first to read it anyway");
  }
  return text;
}

Result<std::string> ReadMaybeGzip(const std::string& path, const IntegrationReadOptions& options) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr)
    return Status::IOError("cannot open '", path, "': ", std::strerror(errno));
  std::string bytes;
  char chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), file)) > 0) bytes.append(chunk, n);
  bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) return Status::IOError("error while reading '", path, "'");
  auto text = MaybeGunzip(std::move(bytes), options);
  if (!text.ok()) return text.status().WithContext(path);
  return text;
}

}  // namespace alkaid::integration_json
