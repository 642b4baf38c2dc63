// Opening whatever the user hands the CLI: an IPC file or an IPC stream,
// told apart by content (the leading magic), from a path or from stdin ("-").
// Batches are read one at a time; nothing here keeps a batch once it is
// handed out. Other formats (Parquet, CSV, JSON, JSON Lines, gzip) are
// recognised from their first bytes so the error can say what they are;
// subcommands that convert text (from-csv, from-jsonl, convert) pass
// TextReadOptions and get CSV and JSON Lines read through the library's
// streaming readers instead.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/csv/api.h"
#include "alkaid/dictionary_ids.h"
#include "alkaid/io/input.h"
#include "alkaid/ipc/options.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/jsonl/api.h"
#include "alkaid/record_batch_reader.h"
#include "alkaid/table.h"
#include "text_options.h"

namespace alkaid::cli {

enum class DataKind {
  kIpcFile,
  kIpcStream,  // also anything binary we cannot name: the stream reader judges it
  kParquet,
  kIntegrationJson,
  kJson,
  kJsonLines,
  kCsv,
  kGzip,
  kText,  // text of no format we know
  kEmpty,
};

// Classifies the first bytes of an input (up to a few KiB are looked at).
DataKind SniffDataKind(std::string_view head);
// "a Parquet file", "CSV text", ...
const char* DataKindName(DataKind kind);

class Input {
 public:
  ~Input();
  // `columns` (names) projects the read; unknown names fail with KeyError.
  // Fails with IOError when the path cannot be opened, and with Invalid
  // naming the format when the bytes are not Arrow IPC (see kind()).
  // With `text`, CSV and JSON Lines (recognised, or forced by text->format)
  // are read as tables too; *kind then tells which was read.
  static Result<std::unique_ptr<Input>> Open(const std::string& path,
                                             const std::vector<std::string>& columns,
                                             const ipc::IpcReadOptions& options, DataKind* kind,
                                             const TextReadOptions* text = nullptr);

  bool is_file_format() const { return file_ != nullptr; }
  // Batches in the input when known up front (an IPC file), else -1.
  int64_t num_batches() const { return file_ ? file_->num_record_batches() : -1; }
  // CSV or JSON Lines read through a text reader.
  bool is_text() const { return text_ != nullptr; }
  const SchemaPtr& schema() const { return schema_; }
  // Dictionary ids of schema()'s dictionary-encoded fields.
  const DictionaryIds& dictionary_ids() const { return ids_; }
  // IPC file only (nullptr for streams): random access to the batches.
  ipc::FileReader* file() const { return file_.get(); }
  // Batch i of a file, projected.
  Result<RecordBatchPtr> ReadBatch(int i);
  // The next batch in order (nullptr at the end); for stdin this blocks only
  // until the next message has arrived.
  Result<RecordBatchPtr> Next();
  // Rows of the remaining batches. IPC input is counted from the record
  // batch headers (no body is decompressed or validated); text is parsed.
  Result<int64_t> CountRows();
  // Size of the input in bytes (-1 for standard input) and bytes of a stream
  // consumed so far (-1 for files, whose batches are read by index).
  int64_t size() const { return size_; }
  int64_t position() const;

 private:
  Input() = default;
  Result<RecordBatchPtr> Project(RecordBatchPtr batch) const;
  Status OpenText(DataKind kind, std::shared_ptr<io::InputStream> source,
                  const std::vector<std::string>& columns, const TextReadOptions& text);

  std::shared_ptr<io::RandomAccessFile> source_;
  std::shared_ptr<io::InputStream> stream_source_;
  std::unique_ptr<ipc::FileReader> file_;
  std::unique_ptr<ipc::StreamReader> stream_;
  std::unique_ptr<RecordBatchReader> text_;
  SchemaPtr schema_;
  DictionaryIds ids_;
  std::vector<int> project_;  // stdin streams, JSON Lines: projection applied per batch
  int next_batch_ = 0;
  int64_t size_ = -1;
};

}  // namespace alkaid::cli
