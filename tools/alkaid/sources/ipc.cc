// Arrow IPC: the file format (ARROW1 magic, batches read by index from the
// footer) and the stream format (read in order, as it arrives on stdin).
#include "alkaid/ipc/reader.h"
#include "source.h"
#include "text_sniff.h"

namespace alkaid::cli {

namespace {

bool HasFileMagic(std::string_view v) {
  return v.substr(0, 6) == "ARROW1" || v.substr(0, 7) == "ALKAID1";
}

int Sniff(std::string_view head, const std::string&) {
  if (HasFileMagic(head)) return 100;
  if (head.substr(0, 4) == "\xFF\xFF\xFF\xFF") return 90;  // continuation marker
  // Any other binary (a legacy stream without the marker, or damage): the
  // stream reader is the one to judge it, unless another source claims it.
  if (!head.empty() && !LooksLikeText(head)) return 1;
  return 0;
}

class IpcFileInput final : public Input {
 public:
  static Result<std::unique_ptr<Input>> Open(std::shared_ptr<io::RandomAccessFile> source,
                                             const SourceOptions& options, int64_t size) {
    std::unique_ptr<IpcFileInput> in(new IpcFileInput());
    ipc::IpcReadOptions ipc = options.ipc;
    if (!options.columns.empty()) {
      ALKAID_ASSIGN_OR_RAISE(auto probe, ipc::FileReader::Open(source, ipc));
      ALKAID_ASSIGN_OR_RAISE(ipc.included_fields,
                             ResolveColumns(*probe->schema(), options.columns));
    }
    ALKAID_ASSIGN_OR_RAISE(in->file_, ipc::FileReader::Open(source, ipc));
    in->schema_ = in->file_->schema();
    in->ids_ = in->file_->dictionary_ids();
    in->size_ = size;
    return std::unique_ptr<Input>(std::move(in));
  }
  std::string Describe() const override {
    int64_t n = num_batches();
    return "IPC file, " + std::to_string(n) + (n == 1 ? " batch" : " batches");
  }
  Result<RecordBatchPtr> Next() override {
    if (next_ >= file_->num_record_batches()) return RecordBatchPtr();
    return file_->ReadRecordBatch(next_++);
  }
  // From the record batch headers: nothing is decompressed or validated.
  Result<int64_t> CountRows() override { return file_->CountRows(); }
  // Backwards from the footer, loading only the batches that hold the rows.
  Result<std::vector<RecordBatchPtr>> LastRows(int64_t n, int64_t* read, int64_t* total) override {
    std::vector<RecordBatchPtr> kept;
    int64_t rows = 0;
    *read = 0;
    *total = -1;
    for (int i = file_->num_record_batches() - 1; i >= 0 && rows < n; --i) {
      ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, file_->ReadRecordBatch(i));
      ++*read;
      rows += batch->num_rows();
      kept.insert(kept.begin(), std::move(batch));
    }
    return kept;
  }
  int64_t num_batches() const override { return file_->num_record_batches(); }
  Result<RecordBatchPtr> ReadBatch(int i) override { return file_->ReadRecordBatch(i); }

 private:
  std::unique_ptr<ipc::FileReader> file_;
  int next_ = 0;
};

// Read in order; on standard input each batch as soon as it has arrived.
class IpcStreamInput final : public ReaderInput {
 public:
  static Result<std::unique_ptr<Input>> Open(InputBytes* bytes, const SourceOptions& options) {
    std::unique_ptr<IpcStreamInput> in(new IpcStreamInput());
    ipc::IpcReadOptions ipc = options.ipc;
    // A file is read through its mapping (batches point into it); standard
    // input as it arrives.
    auto open_source = [bytes]() -> Result<std::shared_ptr<io::InputStream>> {
      if (bytes->is_stdin()) return bytes->Stream();
      ALKAID_ASSIGN_OR_RAISE(auto file, bytes->RandomAccess());
      return std::shared_ptr<io::InputStream>(std::move(file));
    };
    ALKAID_ASSIGN_OR_RAISE(std::shared_ptr<io::InputStream> source, open_source());
    // A file is opened twice to select the columns in the reader (the
    // projection decodes nothing else); standard input cannot be read twice,
    // so there the batches are projected as they come.
    const bool select_in_reader = !bytes->is_stdin() && !options.columns.empty();
    if (select_in_reader) {
      ALKAID_ASSIGN_OR_RAISE(auto probe, ipc::StreamReader::Open(source, ipc));
      ALKAID_ASSIGN_OR_RAISE(ipc.included_fields,
                             ResolveColumns(*probe->schema(), options.columns));
      ALKAID_ASSIGN_OR_RAISE(source, open_source());
    }
    ALKAID_ASSIGN_OR_RAISE(auto stream, ipc::StreamReader::Open(source, ipc));
    in->stream_ = stream.get();
    DictionaryIds ids = stream->dictionary_ids();
    ALKAID_RETURN_NOT_OK(in->Init(std::move(stream), "IPC stream", options.columns,
                                  !select_in_reader, std::move(source)));
    if (options.columns.empty() || select_in_reader) in->ids_ = std::move(ids);
    in->size_ = bytes->size();
    return std::unique_ptr<Input>(std::move(in));
  }
  // From the record batch headers: nothing is decompressed or validated.
  Result<int64_t> CountRows() override { return stream_->CountRows(); }

 private:
  ipc::StreamReader* stream_ = nullptr;  // owned by reader_
};

Result<std::unique_ptr<Input>> Open(InputBytes* bytes, const SourceOptions& options) {
  if (HasFileMagic(bytes->head())) {
    ALKAID_ASSIGN_OR_RAISE(auto file, bytes->RandomAccess());
    int64_t size = bytes->size();
    if (size < 0) {
      ALKAID_ASSIGN_OR_RAISE(size, file->GetSize());
    }
    return IpcFileInput::Open(std::move(file), options, size);
  }
  return IpcStreamInput::Open(bytes, options);
}

}  // namespace

extern const Source kIpcSource = {"ipc", "an Arrow IPC file or stream", 0, Sniff, Open};

}  // namespace alkaid::cli
