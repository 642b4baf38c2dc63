// Where integration JSON text comes from: memory, a file, either gzipped,
// handed out in chunks so that no reader needs the whole text at once.
#include <zlib.h>

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "json_pull_parser.h"

namespace alkaid::integration_json::internal {

namespace {

class MemorySource final : public TextSource {
 public:
  explicit MemorySource(std::string_view text) : text_(text) {}
  Result<std::string_view> Next() override {
    std::string_view out = text_.substr(pos_);
    pos_ = text_.size();
    return out;
  }
  Status Seek(int64_t offset) override {
    if (offset < 0 || static_cast<size_t>(offset) > text_.size())
      return Status::Invalid("integration JSON: offset ", offset, " is outside the text");
    pos_ = static_cast<size_t>(offset);
    return Status::OK();
  }

 protected:
  std::string_view text_;
  size_t pos_ = 0;
};

class OwnedSource final : public TextSource {
 public:
  explicit OwnedSource(std::string text) : text_(std::move(text)), view_(text_) {}
  Result<std::string_view> Next() override { return view_.Next(); }
  Status Seek(int64_t offset) override { return view_.Seek(offset); }

 private:
  std::string text_;
  MemorySource view_;
};

constexpr size_t kChunk = size_t{1} << 20;

class FileSource final : public TextSource {
 public:
  FileSource(std::FILE* file, std::string path) : file_(file), path_(std::move(path)), buffer_(kChunk) {}
  ~FileSource() override { std::fclose(file_); }
  Result<std::string_view> Next() override {
    size_t n = std::fread(buffer_.data(), 1, buffer_.size(), file_);
    if (n == 0 && std::ferror(file_)) return Status::IOError("error while reading '", path_, "'");
    return std::string_view(buffer_.data(), n);
  }
  Status Seek(int64_t offset) override {
    if (fseeko(file_, static_cast<off_t>(offset), SEEK_SET) != 0)
      return Status::IOError("cannot seek in '", path_, "': ", std::strerror(errno));
    return Status::OK();
  }

 private:
  std::FILE* file_;
  std::string path_;
  std::vector<char> buffer_;
};

// Inflates a gzip member as it is read. Going back restarts the inflation
// (gzip has no index); the reader does that at most once or twice.
class GunzipSource final : public TextSource {
 public:
  GunzipSource(std::unique_ptr<TextSource> compressed, int64_t compressed_size,
               const IntegrationReadOptions& options)
      : compressed_(std::move(compressed)), compressed_size_(compressed_size),
        cap_(options.MaxGunzipBytes(compressed_size)), options_(options), out_(kChunk) {
    std::memset(&stream_, 0, sizeof(stream_));
    // 16 + MAX_WBITS: expect a gzip header and trailer.
    ready_ = inflateInit2(&stream_, 16 + MAX_WBITS) == Z_OK;
  }
  ~GunzipSource() override {
    if (ready_) inflateEnd(&stream_);
  }

  Result<std::string_view> Next() override {
    std::string_view out = pending_;
    pending_ = {};
    if (out.empty()) {
      ALKAID_ASSIGN_OR_RAISE(out, Inflate());
    }
    position_ += static_cast<int64_t>(out.size());
    return out;
  }

  Status Seek(int64_t offset) override {
    if (offset < position_) ALKAID_RETURN_NOT_OK(Restart());
    while (true) {
      if (pending_.empty()) {
        ALKAID_ASSIGN_OR_RAISE(pending_, Inflate());
        if (pending_.empty()) {
          if (offset == position_) return Status::OK();
          return Status::Invalid("integration JSON: offset ", offset, " is past the end of the text");
        }
      }
      const int64_t end = position_ + static_cast<int64_t>(pending_.size());
      if (offset < end) {
        pending_.remove_prefix(static_cast<size_t>(offset - position_));
        position_ = offset;
        return Status::OK();
      }
      position_ = end;
      pending_ = {};
    }
  }

 private:
  Status Restart() {
    ALKAID_RETURN_NOT_OK(compressed_->Seek(0));
    if (inflateReset(&stream_) != Z_OK) return Status::UnknownError("gzip: cannot restart zlib inflate");
    stream_.avail_in = 0;
    input_done_ = ended_ = false;
    consumed_ = inflated_ = position_ = 0;
    pending_ = {};
    return Status::OK();
  }

  Result<std::string_view> Inflate() {
    if (!ready_) return Status::OutOfMemory("gzip: cannot initialize zlib inflate");
    while (!ended_) {
      if (stream_.avail_in == 0 && !input_done_) {
        ALKAID_ASSIGN_OR_RAISE(std::string_view in, compressed_->Next());
        input_done_ = in.empty();
        stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
        stream_.avail_in = static_cast<uInt>(in.size());
      }
      const uInt before_in = stream_.avail_in;
      stream_.next_out = reinterpret_cast<Bytef*>(out_.data());
      stream_.avail_out = static_cast<uInt>(out_.size());
      const int rc = inflate(&stream_, Z_NO_FLUSH);
      consumed_ += before_in - stream_.avail_in;
      const size_t produced = out_.size() - stream_.avail_out;
      if (rc == Z_STREAM_END) {
        ended_ = true;
      } else if (rc == Z_BUF_ERROR || (rc == Z_OK && produced == 0 && input_done_)) {
        if (input_done_ && stream_.avail_in == 0)
          return Status::SerializationError("gzip: stream truncated after ", consumed_,
                                            " compressed bytes (", inflated_,
                                            " bytes decompressed); the end marker is missing");
      } else if (rc != Z_OK) {
        return Status::SerializationError("gzip: ", stream_.msg ? stream_.msg : "corrupt data",
                                          " at compressed byte ", consumed_);
      }
      inflated_ += static_cast<int64_t>(produced);
      if (inflated_ > cap_)
        return Status::CapacityError("gzip: decompresses to more than ", cap_, " bytes (from ",
                                     compressed_size_, " compressed bytes); integration JSON may "
                                     "inflate to ", options_.gunzip_ratio,
                                     " times its compressed size (at least ",
                                     options_.gunzip_floor_bytes,
                                     " bytes): gunzip it first to read it anyway");
      if (produced > 0) return std::string_view(out_.data(), produced);
    }
    return std::string_view();
  }

  std::unique_ptr<TextSource> compressed_;
  int64_t compressed_size_;
  int64_t cap_;
  IntegrationReadOptions options_;
  std::vector<char> out_;
  z_stream stream_;
  bool ready_ = false;
  bool input_done_ = false;
  bool ended_ = false;
  int64_t consumed_ = 0;  // compressed bytes used
  int64_t inflated_ = 0;  // text bytes produced since the start
  int64_t position_ = 0;  // text offset of pending_ (or of the next byte inflated)
  std::string_view pending_;
};

// Keeps the compressed bytes alive under a gunzip source.
class OwnedGunzipSource final : public TextSource {
 public:
  OwnedGunzipSource(std::string bytes, const IntegrationReadOptions& options)
      : bytes_(std::move(bytes)),
        inner_(std::make_unique<MemorySource>(bytes_), static_cast<int64_t>(bytes_.size()), options) {}
  Result<std::string_view> Next() override { return inner_.Next(); }
  Status Seek(int64_t offset) override { return inner_.Seek(offset); }

 private:
  std::string bytes_;
  GunzipSource inner_;
};

}  // namespace

std::unique_ptr<TextSource> MemoryText(std::string_view text) {
  return std::make_unique<MemorySource>(text);
}

std::unique_ptr<TextSource> OwnedText(std::string text) {
  return std::make_unique<OwnedSource>(std::move(text));
}

std::unique_ptr<TextSource> MaybeGunzipText(std::string bytes, const IntegrationReadOptions& options) {
  if (!LooksGzipped(bytes)) return OwnedText(std::move(bytes));
  return std::make_unique<OwnedGunzipSource>(std::move(bytes), options);
}

Result<std::unique_ptr<TextSource>> FileText(const std::string& path,
                                             const IntegrationReadOptions& options) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return Status::IOError("cannot open '", path, "': ", std::strerror(errno));
  auto source = std::make_unique<FileSource>(file, path);
  char magic[2];
  const size_t n = std::fread(magic, 1, 2, file);
  ALKAID_RETURN_NOT_OK(source->Seek(0));
  if (!LooksGzipped(std::string_view(magic, n))) return std::unique_ptr<TextSource>(std::move(source));
  struct stat st;
  if (fstat(fileno(file), &st) != 0)
    return Status::IOError("cannot stat '", path, "': ", std::strerror(errno));
  return std::unique_ptr<TextSource>(
      std::make_unique<GunzipSource>(std::move(source), static_cast<int64_t>(st.st_size), options));
}

}  // namespace alkaid::integration_json::internal
