// The registry of sources and what they share: reading the first bytes of a
// file or of standard input, choosing the source, and the Input defaults.
//
// Adding a source: one file in this folder defining `extern const Source
// kNameSource` (see source.h) and one line in ALKAID_CLI_SOURCES below.
// Nothing else recognises formats: commands only call OpenInput.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <limits>

#include "options.h"
#include "source.h"
#include "text_sniff.h"

namespace alkaid::cli {

#define ALKAID_CLI_SOURCES(X) \
  X(kIpcSource)               \
  X(kParquetSource)           \
  X(kCsvSource)               \
  X(kJsonLinesSource)         \
  X(kIntegrationJsonSource)   \
  X(kFlightSource)

#define ALKAID_DECLARE_SOURCE(name) extern const Source name;
ALKAID_CLI_SOURCES(ALKAID_DECLARE_SOURCE)
#undef ALKAID_DECLARE_SOURCE

const std::vector<const Source*>& Sources() {
#define ALKAID_LIST_SOURCE(name) &name,
  static const std::vector<const Source*> sources = {ALKAID_CLI_SOURCES(ALKAID_LIST_SOURCE)};
#undef ALKAID_LIST_SOURCE
  return sources;
}

const Source* FindSource(const std::string& name) {
  const std::string& key = name == "arrow" ? std::string("ipc") : name;
  for (const Source* source : Sources())
    if (key == source->name) return source;
  return nullptr;
}

namespace {

constexpr size_t kSniffBytes = 4096;
// Text whose first two lines do not fit in kSniffBytes is looked at again
// with up to this many bytes (CSV with a wide header, long JSON objects).
constexpr size_t kSniffMaxBytes = size_t{1} << 20;

// Standard input with the bytes already taken for sniffing put back in
// front. Reads block only until the requested bytes arrive, so a stream
// reader on top sees each message as soon as the producer has written it.
class PrefixedStdin final : public io::InputStream {
 public:
  explicit PrefixedStdin(std::string prefix)
      : prefix_(std::move(prefix)), rest_(io::FdInputStream::Stdin()) {}

  Result<BufferPtr> Read(int64_t nbytes) override {
    if (nbytes < 0) return Status::Invalid("negative read size");
    if (prefix_used_ >= prefix_.size()) {
      ALKAID_ASSIGN_OR_RAISE(BufferPtr buf, rest_->Read(nbytes));
      position_ += buf->size();
      return buf;
    }
    ALKAID_ASSIGN_OR_RAISE(auto buf, AllocateBuffer(nbytes));
    ALKAID_ASSIGN_OR_RAISE(int64_t got, Read(nbytes, buf->mutable_data()));
    ALKAID_RETURN_NOT_OK(buf->Resize(got));
    return BufferPtr(std::move(buf));
  }

  Result<int64_t> Read(int64_t nbytes, void* out) override {
    if (nbytes < 0) return Status::Invalid("negative read size");
    auto* dst = static_cast<uint8_t*>(out);
    int64_t from_prefix =
        std::min<int64_t>(nbytes, static_cast<int64_t>(prefix_.size() - prefix_used_));
    if (from_prefix > 0) {
      std::memcpy(dst, prefix_.data() + prefix_used_, static_cast<size_t>(from_prefix));
      prefix_used_ += static_cast<size_t>(from_prefix);
    }
    int64_t got = from_prefix;
    if (got < nbytes) {
      ALKAID_ASSIGN_OR_RAISE(int64_t more, rest_->Read(nbytes - got, dst + got));
      got += more;
    }
    position_ += got;
    return got;
  }

  Result<int64_t> Tell() const override { return position_; }
  Status Close() override { return rest_->Close(); }
  bool closed() const override { return rest_->closed(); }

 private:
  std::string prefix_;
  size_t prefix_used_ = 0;
  std::shared_ptr<io::FdInputStream> rest_;
  int64_t position_ = 0;
};

// Appends standard input to `bytes` until it holds at least `min` bytes or
// the input ends (one read() may return fewer; never waits for more).
Status ReadStdin(std::string* bytes, size_t min) {
  char chunk[1 << 16];
  while (bytes->size() < min) {
    ssize_t n = ::read(0, chunk, sizeof(chunk));
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::IOError("reading standard input: ", std::strerror(errno));
    }
    bytes->append(chunk, static_cast<size_t>(n));
  }
  return Status::OK();
}

class FileBytes final : public InputBytes {
 public:
  static Result<std::unique_ptr<FileBytes>> Open(const std::string& path) {
    std::unique_ptr<FileBytes> f(new FileBytes());
    f->path_ = path;
    ALKAID_ASSIGN_OR_RAISE(f->file_, io::MemoryMappedFile::Open(path));
    ALKAID_ASSIGN_OR_RAISE(f->size_, f->file_->GetSize());
    for (size_t window = kSniffBytes;; window *= 16) {
      ALKAID_ASSIGN_OR_RAISE(BufferPtr bytes,
                             f->file_->ReadAt(0, std::min<int64_t>(f->size_, window)));
      f->head_.assign(bytes->view());
      if (f->head_.size() < window || window >= kSniffMaxBytes || !FirstLinesCut(f->head_)) break;
    }
    return f;
  }
  // Text is read front to back in blocks: a plain file stream keeps resident
  // memory at the reader's blocks (a mapping would count every page read).
  Result<std::shared_ptr<io::InputStream>> Stream() override {
    ALKAID_ASSIGN_OR_RAISE(auto stream, io::FdInputStream::Open(path_));
    return std::shared_ptr<io::InputStream>(std::move(stream));
  }
  Result<std::shared_ptr<io::RandomAccessFile>> RandomAccess() override {
    ALKAID_RETURN_NOT_OK(file_->Seek(0));
    return std::shared_ptr<io::RandomAccessFile>(file_);
  }
  int64_t size() const override { return size_; }

 private:
  std::shared_ptr<io::MemoryMappedFile> file_;
  int64_t size_ = 0;
};

class StdinBytes final : public InputBytes {
 public:
  static Result<std::unique_ptr<StdinBytes>> Open() {
    std::unique_ptr<StdinBytes> s(new StdinBytes());
    s->path_ = "-";
    ALKAID_RETURN_NOT_OK(ReadStdin(&s->head_, 8));
    // Text: on until its first two lines are in (or 1 MiB, or the end).
    while (s->head_.size() < kSniffMaxBytes && FirstLinesCut(s->head_)) {
      const size_t before = s->head_.size();
      ALKAID_RETURN_NOT_OK(ReadStdin(&s->head_, before + 1));
      if (s->head_.size() == before) break;
    }
    return s;
  }
  Result<std::shared_ptr<io::InputStream>> Stream() override {
    return std::shared_ptr<io::InputStream>(std::make_shared<PrefixedStdin>(std::move(head_)));
  }
  // Formats that need random access hold standard input in memory.
  Result<std::shared_ptr<io::RandomAccessFile>> RandomAccess() override {
    std::string all = std::move(head_);
    ALKAID_RETURN_NOT_OK(ReadStdin(&all, std::numeric_limits<size_t>::max()));
    return std::shared_ptr<io::RandomAccessFile>(
        std::make_shared<io::BufferReader>(Buffer::FromString(std::move(all))));
  }
  int64_t size() const override { return -1; }
};

// A grpc:// URL: no bytes to read here; the flight source opens it.
class UrlBytes final : public InputBytes {
 public:
  explicit UrlBytes(const std::string& url) { path_ = url; }
  Result<std::shared_ptr<io::InputStream>> Stream() override { return NotBytes(); }
  Result<std::shared_ptr<io::RandomAccessFile>> RandomAccess() override { return NotBytes(); }
  int64_t size() const override { return -1; }

 private:
  Status NotBytes() const {
    return Status::Invalid(path_, " is a Flight URL: read it with --input-format auto or flight");
  }
};

// What input no source reads is, for the error: NotImplemented for formats
// alkaid knows but does not read, Invalid for the rest.
Status NotReadable(std::string_view head) {
  if (head.empty()) return Status::Invalid("the input is empty");
  if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
      static_cast<unsigned char>(head[1]) == 0x8b)
    return Status::NotImplemented("this is gzip-compressed data of no format alkaid reads "
                                  "compressed (integration JSON is); decompress it first");
  std::string_view body = TextBody(head);
  if (!body.empty() && (body[0] == '{' || body[0] == '['))
    return Status::NotImplemented("this is JSON, but neither integration JSON ({\"schema\", "
                                  "\"batches\"}) nor JSON Lines (one object per line); "
                                  "--input-format jsonl reads a single object as one row");
  if (head.size() >= kSniffMaxBytes && FirstLinesCut(head))
    return Status::Invalid("this is text whose first lines are longer than the ", kSniffMaxBytes,
                           " bytes looked at, so its format is not known; --input-format csv "
                           "or jsonl says what it is");
  return Status::Invalid("this is text of no format alkaid recognises (CSV needs two lines with "
                         "the same number of delimiters); --input-format csv or jsonl says what "
                         "it is");
}

// Text options given on the command line that do not apply to `source`.
Status CheckTextOptions(const CLI::App* app, const TextReadOptions& text, const Source& source) {
  if (app == nullptr) return Status::OK();
  for (const auto& [flag, formats] : text.applies_to) {
    if (!OptionGiven(app, flag) || (formats & source.options) != 0) continue;
    std::string kinds = (formats & kCsvText) && (formats & kJsonLinesText) ? "CSV and JSON Lines"
                        : (formats & kCsvText)                             ? "CSV"
                                                                           : "JSON Lines";
    return Status::KeyError(flag, " is an option for ", kinds, " input, and this is ", source.what);
  }
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<InputBytes>> OpenInputBytes(const std::string& path) {
  // A URL is known by its scheme before anything is opened.
  if (IsFlightUrl(path)) return std::unique_ptr<InputBytes>(std::make_unique<UrlBytes>(path));
  if (path == "-") {
    ALKAID_ASSIGN_OR_RAISE(auto bytes, StdinBytes::Open());
    return std::unique_ptr<InputBytes>(std::move(bytes));
  }
  ALKAID_ASSIGN_OR_RAISE(auto bytes, FileBytes::Open(path));
  return std::unique_ptr<InputBytes>(std::move(bytes));
}

Result<std::unique_ptr<Input>> OpenInput(const std::string& path, const std::string& format,
                                         const SourceOptions& options, const CLI::App* app,
                                         const Source** chosen) {
  *chosen = nullptr;
  ALKAID_ASSIGN_OR_RAISE(std::unique_ptr<InputBytes> bytes, OpenInputBytes(path));
  const Source* source = nullptr;
  if (format != "auto" && !format.empty()) {
    source = FindSource(format);
    if (source == nullptr) return Status::KeyError("unknown input format '", format, "'");
  } else {
    int best = 0;
    for (const Source* s : Sources()) {
      int confidence = s->sniff(bytes->head(), path);
      if (confidence > best) {
        best = confidence;
        source = s;
      }
    }
    if (source == nullptr) return NotReadable(bytes->head());
  }
  *chosen = source;
  ALKAID_RETURN_NOT_OK(CheckTextOptions(app, options.text, *source));
  return source->open(bytes.get(), options);
}

Result<std::vector<int>> ResolveColumns(const Schema& schema,
                                        const std::vector<std::string>& names) {
  std::vector<int> indices;
  for (const auto& name : names) {
    int i = schema.GetFieldIndex(name);
    if (i < 0) {
      std::string known;
      for (const auto& f : schema.fields()) known += (known.empty() ? "" : ", ") + f->name();
      return Status::KeyError("no column named '", name, "' (columns: ", known, ")");
    }
    indices.push_back(i);
  }
  return indices;
}

SchemaPtr ProjectSchema(const Schema& schema, const std::vector<int>& indices) {
  FieldVector fields;
  for (int i : indices) fields.push_back(schema.field(i));
  return std::make_shared<Schema>(std::move(fields), schema.metadata());
}

Result<int64_t> Input::CountRows() {
  int64_t rows = 0;
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, Next());
    if (batch == nullptr) return rows;
    rows += batch->num_rows();
  }
}

Result<std::vector<RecordBatchPtr>> Input::LastRows(int64_t n, int64_t* read, int64_t* total) {
  std::deque<RecordBatchPtr> kept;
  int64_t kept_rows = 0;
  *read = 0;
  *total = 0;
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, Next());
    if (batch == nullptr) break;
    ++*read;
    *total += batch->num_rows();
    kept_rows += batch->num_rows();
    kept.push_back(std::move(batch));
    // Drop batches from the front while the rest still cover n rows.
    while (!kept.empty() && kept_rows - kept.front()->num_rows() >= n) {
      kept_rows -= kept.front()->num_rows();
      kept.pop_front();
    }
  }
  return std::vector<RecordBatchPtr>(kept.begin(), kept.end());
}

Result<RecordBatchPtr> Input::ReadBatch(int) {
  return Status::Invalid("random access needs an IPC file");
}

Result<std::unique_ptr<Input>> ReaderInput::Make(std::unique_ptr<RecordBatchReader> reader,
                                                 std::string description,
                                                 const std::vector<std::string>& columns,
                                                 bool project,
                                                 std::shared_ptr<io::InputStream> stream) {
  std::unique_ptr<ReaderInput> in(new ReaderInput());
  ALKAID_RETURN_NOT_OK(
      in->Init(std::move(reader), std::move(description), columns, project, std::move(stream)));
  return std::unique_ptr<Input>(std::move(in));
}

Status ReaderInput::Init(std::unique_ptr<RecordBatchReader> reader, std::string description,
                         const std::vector<std::string>& columns, bool project,
                         std::shared_ptr<io::InputStream> stream) {
  schema_ = reader->schema();
  if (project && !columns.empty()) {
    ALKAID_ASSIGN_OR_RAISE(project_, ResolveColumns(*schema_, columns));
    schema_ = ProjectSchema(*schema_, project_);
  }
  ids_ = DictionaryIds::AssignSequential(*schema_);
  reader_ = std::move(reader);
  stream_ = std::move(stream);
  description_ = std::move(description);
  return Status::OK();
}

Result<RecordBatchPtr> ReaderInput::Next() {
  ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, reader_->Next());
  if (batch == nullptr || project_.empty()) return batch;
  ALKAID_ASSIGN_OR_RAISE(auto selected, batch->SelectColumns(project_));
  return RecordBatch::Make(schema_, selected->num_rows(),
                           ArrayDataVector(selected->columns().begin(), selected->columns().end()));
}

int64_t ReaderInput::position() const {
  if (stream_ == nullptr) return -1;
  Result<int64_t> at = stream_->Tell();
  return at.ok() ? *at : -1;
}

}  // namespace alkaid::cli
