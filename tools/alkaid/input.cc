#include "input.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

namespace alkaid::cli {

namespace {

constexpr size_t kSniffBytes = 4096;
// Text whose first two lines do not fit in kSniffBytes is looked at again
// with up to this many bytes (CSV with a wide header, JSON Lines with long
// objects).
constexpr size_t kSniffMaxBytes = size_t{1} << 20;

bool HasFileMagic(std::string_view v) {
  return v.substr(0, 6) == "ARROW1" || v.substr(0, 7) == "ALKAID1";
}

// Text: no NUL and no control bytes other than tab, CR, LF (UTF-8 bytes
// above 0x7F are fine).
bool LooksLikeText(std::string_view v) {
  for (unsigned char c : v)
    if (c < 0x20 && c != '\t' && c != '\r' && c != '\n') return false;
  return !v.empty();
}

std::string_view FirstLine(std::string_view v) {
  size_t nl = v.find('\n');
  return nl == std::string_view::npos ? v : v.substr(0, nl);
}

std::string_view TrimLeft(std::string_view v) {
  size_t i = 0;
  while (i < v.size() && (v[i] == ' ' || v[i] == '\t' || v[i] == '\r' || v[i] == '\n')) ++i;
  return v.substr(i);
}

std::string_view TrimRight(std::string_view v) {
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r')) v.remove_suffix(1);
  return v;
}

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

Result<std::vector<int>> ResolveColumns(const Schema& schema, const std::vector<std::string>& names) {
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

// Text whose first two lines are not both within `head` (the sniffer
// could not compare them).
bool FirstLinesCut(std::string_view head) {
  if (!LooksLikeText(head)) return false;
  std::string_view body = TrimLeft(head);
  size_t nl = body.find('\n');
  return nl == std::string_view::npos || body.find('\n', nl + 1) == std::string_view::npos;
}

// `cut`: text whose first lines were longer than the bytes looked at.
Status NotArrow(DataKind kind, bool cut) {
  switch (kind) {
    case DataKind::kEmpty: return Status::Invalid("the input is empty");
    case DataKind::kText:
      if (cut) {
        return Status::Invalid("this is text whose first lines are longer than the ",
                               kSniffMaxBytes, " bytes looked at, so its format is not known: "
                               "CSV is read by `alkaid from-csv`, JSON Lines by "
                               "`alkaid from-jsonl`");
      }
      return Status::Invalid("this is text, not Arrow IPC data (an IPC file starts with ARROW1, a "
                             "stream with an FFFFFFFF marker)");
    default: return Status::Invalid("this is ", DataKindName(kind), ", not Arrow IPC data");
  }
}

}  // namespace

DataKind SniffDataKind(std::string_view head) {
  if (head.empty()) return DataKind::kEmpty;
  if (HasFileMagic(head)) return DataKind::kIpcFile;
  if (head.substr(0, 4) == "PAR1") return DataKind::kParquet;
  if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
      static_cast<unsigned char>(head[1]) == 0x8b)
    return DataKind::kGzip;
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);  // UTF-8 byte order mark
  if (!LooksLikeText(head)) return DataKind::kIpcStream;
  std::string_view body = TrimLeft(head);
  if (body.empty()) return DataKind::kText;
  if (body[0] == '{') {
    std::string_view first = TrimRight(FirstLine(body));
    std::string_view next = TrimLeft(body.substr(first.size()));
    // One complete object per line, followed by another: JSON Lines.
    if (first.size() > 1 && first.back() == '}' && !next.empty() && next[0] == '{')
      return DataKind::kJsonLines;
    if (body.find("\"schema\"") != std::string_view::npos) return DataKind::kIntegrationJson;
    return DataKind::kJson;
  }
  if (body[0] == '[') return DataKind::kJson;
  // CSV: the first two lines hold the same number (> 0) of one delimiter.
  std::string_view first = FirstLine(body);
  if (first.size() == body.size()) return DataKind::kText;  // one line: cannot tell
  std::string_view second = FirstLine(body.substr(first.size() + 1));
  for (char delimiter : {',', ';', '\t', '|'}) {
    auto n = std::count(first.begin(), first.end(), delimiter);
    if (n > 0 && n == std::count(second.begin(), second.end(), delimiter)) return DataKind::kCsv;
  }
  return DataKind::kText;
}

const char* DataKindName(DataKind kind) {
  switch (kind) {
    case DataKind::kIpcFile: return "an Arrow IPC file";
    case DataKind::kIpcStream: return "an Arrow IPC stream";
    case DataKind::kParquet: return "a Parquet file";
    case DataKind::kIntegrationJson: return "Arrow integration JSON";
    case DataKind::kJson: return "JSON";
    case DataKind::kJsonLines: return "JSON Lines text";
    case DataKind::kCsv: return "CSV text";
    case DataKind::kGzip: return "gzip-compressed data";
    case DataKind::kText: return "text";
    case DataKind::kEmpty: return "empty";
  }
  return "unknown";
}

Input::~Input() = default;

Result<std::unique_ptr<Input>> Input::Open(const std::string& path,
                                           const std::vector<std::string>& columns,
                                           const ipc::IpcReadOptions& base_options, DataKind* kind,
                                           const TextReadOptions* text) {
  std::unique_ptr<Input> in(new Input());
  ipc::IpcReadOptions options = base_options;
  std::string head;
  if (path == "-") {
    ALKAID_RETURN_NOT_OK(ReadStdin(&head, 8));
    // Text: on until its first two lines are in (or 1 MiB, or the end).
    while (head.size() < kSniffMaxBytes && FirstLinesCut(head)) {
      const size_t before = head.size();
      ALKAID_RETURN_NOT_OK(ReadStdin(&head, before + 1));
      if (head.size() == before) break;
    }
  } else {
    ALKAID_ASSIGN_OR_RAISE(in->source_, io::MemoryMappedFile::Open(path));
    ALKAID_ASSIGN_OR_RAISE(in->size_, in->source_->GetSize());
    for (size_t window = kSniffBytes;; window *= 16) {
      ALKAID_ASSIGN_OR_RAISE(BufferPtr bytes,
                             in->source_->ReadAt(0, std::min<int64_t>(in->size_, window)));
      head.assign(bytes->view());
      if (head.size() < window || window >= kSniffMaxBytes || !FirstLinesCut(head)) break;
    }
  }
  *kind = SniffDataKind(head);
  if (text != nullptr) {
    // A forced text format wins over the content; a forced "arrow" keeps
    // text from being read as a table.
    DataKind text_kind = DataKind::kEmpty;
    if (text->format == InputFormat::kCsv) text_kind = DataKind::kCsv;
    else if (text->format == InputFormat::kJsonLines) text_kind = DataKind::kJsonLines;
    else if (text->format == InputFormat::kAuto &&
             (*kind == DataKind::kCsv || *kind == DataKind::kJsonLines))
      text_kind = *kind;
    if (text_kind != DataKind::kEmpty) {
      *kind = text_kind;
      std::shared_ptr<io::InputStream> source;
      if (path == "-") {
        in->stream_source_ = std::make_shared<PrefixedStdin>(std::move(head));
        source = in->stream_source_;
      } else {
        // Text is read front to back in blocks: a plain file stream keeps
        // resident memory at the reader's blocks (a mapping would count every
        // page read so far).
        in->source_.reset();
        ALKAID_ASSIGN_OR_RAISE(in->stream_source_, io::FdInputStream::Open(path));
        source = in->stream_source_;
      }
      ALKAID_RETURN_NOT_OK(in->OpenText(text_kind, std::move(source), columns, *text));
      return in;
    }
  }
  if (*kind != DataKind::kIpcFile && *kind != DataKind::kIpcStream) {
    return NotArrow(*kind, head.size() >= kSniffMaxBytes && FirstLinesCut(head));
  }

  if (path == "-") {
    if (*kind == DataKind::kIpcFile) {
      // The file format needs random access: hold standard input in memory.
      std::string all = std::move(head);
      ALKAID_RETURN_NOT_OK(ReadStdin(&all, std::numeric_limits<size_t>::max()));
      in->size_ = static_cast<int64_t>(all.size());
      in->source_ = std::make_shared<io::BufferReader>(Buffer::FromString(std::move(all)));
    } else {
      // A stream is decoded as it arrives; the projection is applied to each
      // batch because the stream cannot be read twice to learn the schema.
      in->stream_source_ = std::make_shared<PrefixedStdin>(std::move(head));
      ALKAID_ASSIGN_OR_RAISE(in->stream_, ipc::StreamReader::Open(in->stream_source_, options));
      in->schema_ = in->stream_->schema();
      in->ids_ = in->stream_->dictionary_ids();
      if (!columns.empty()) {
        ALKAID_ASSIGN_OR_RAISE(in->project_, ResolveColumns(*in->schema_, columns));
        FieldVector fields;
        for (int i : in->project_) fields.push_back(in->schema_->field(i));
        in->schema_ = std::make_shared<Schema>(std::move(fields), in->schema_->metadata());
        in->ids_ = DictionaryIds::AssignSequential(*in->schema_);
      }
      return in;
    }
  }

  if (*kind == DataKind::kIpcFile) {
    if (!columns.empty()) {
      ALKAID_ASSIGN_OR_RAISE(auto probe, ipc::FileReader::Open(in->source_, options));
      ALKAID_ASSIGN_OR_RAISE(options.included_fields, ResolveColumns(*probe->schema(), columns));
    }
    ALKAID_ASSIGN_OR_RAISE(in->file_, ipc::FileReader::Open(in->source_, options));
    in->schema_ = in->file_->schema();
    in->ids_ = in->file_->dictionary_ids();
    return in;
  }
  if (!columns.empty()) {
    ALKAID_RETURN_NOT_OK(in->source_->Seek(0));
    ALKAID_ASSIGN_OR_RAISE(auto probe, ipc::StreamReader::Open(in->source_.get(), options));
    ALKAID_ASSIGN_OR_RAISE(options.included_fields, ResolveColumns(*probe->schema(), columns));
  }
  ALKAID_RETURN_NOT_OK(in->source_->Seek(0));
  ALKAID_ASSIGN_OR_RAISE(in->stream_, ipc::StreamReader::Open(in->source_.get(), options));
  in->schema_ = in->stream_->schema();
  in->ids_ = in->stream_->dictionary_ids();
  return in;
}

Status Input::OpenText(DataKind kind, std::shared_ptr<io::InputStream> source,
                       const std::vector<std::string>& columns, const TextReadOptions& text) {
  if (kind == DataKind::kCsv) {
    // The CSV reader selects (and converts) only the named columns itself.
    csv::ReadOptions options = text.csv;
    if (!columns.empty()) options.include_columns = columns;
    ALKAID_ASSIGN_OR_RAISE(text_, csv::MakeReader(std::move(source), options));
    schema_ = text_->schema();
  } else {
    ALKAID_ASSIGN_OR_RAISE(text_, jsonl::MakeReader(std::move(source), text.jsonl));
    schema_ = text_->schema();
    if (!columns.empty()) {
      ALKAID_ASSIGN_OR_RAISE(project_, ResolveColumns(*schema_, columns));
      FieldVector fields;
      for (int i : project_) fields.push_back(schema_->field(i));
      schema_ = std::make_shared<Schema>(std::move(fields), schema_->metadata());
    }
  }
  ids_ = DictionaryIds::AssignSequential(*schema_);
  return Status::OK();
}

Result<RecordBatchPtr> Input::Project(RecordBatchPtr batch) const {
  if (batch == nullptr || project_.empty()) return batch;
  ALKAID_ASSIGN_OR_RAISE(auto selected, batch->SelectColumns(project_));
  return RecordBatch::Make(schema_, selected->num_rows(),
                           ArrayDataVector(selected->columns().begin(), selected->columns().end()));
}

Result<RecordBatchPtr> Input::ReadBatch(int i) {
  if (file_ == nullptr) return Status::Invalid("random access needs an IPC file");
  return file_->ReadRecordBatch(i);
}

Result<RecordBatchPtr> Input::Next() {
  if (file_ != nullptr) {
    if (next_batch_ >= file_->num_record_batches()) return RecordBatchPtr();
    return file_->ReadRecordBatch(next_batch_++);
  }
  ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, text_ != nullptr ? text_->Next() : stream_->Next());
  return Project(std::move(batch));
}

Result<int64_t> Input::CountRows() {
  if (file_ != nullptr) return file_->CountRows();
  if (stream_ != nullptr) return stream_->CountRows();
  int64_t rows = 0;
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, text_->Next());
    if (batch == nullptr) return rows;
    rows += batch->num_rows();
  }
}

int64_t Input::position() const {
  if (file_ != nullptr) return -1;  // batches are read by index, not in sequence
  Result<int64_t> at = stream_source_ != nullptr ? stream_source_->Tell()
                       : source_ != nullptr    ? source_->Tell()
                                               : Result<int64_t>(int64_t{-1});
  return at.ok() ? *at : -1;
}

}  // namespace alkaid::cli
