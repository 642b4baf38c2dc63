// The input side of the tool: a registry of sources, one per format alkaid
// reads (sources/registry.cc lists them). Every reading command opens its
// input with OpenInput, which looks at the first bytes, asks each source how
// sure it is that they are its format, and lets the surest one open it.
//
// A source reads in bounded memory wherever its library streams: batches are
// handed out one at a time and not kept. Sources that know something from
// metadata alone (rows from an IPC footer or a Parquet footer) answer it
// without reading data.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/dictionary_ids.h"
#include "alkaid/io/input.h"
#include "alkaid/ipc/options.h"
#include "alkaid/record_batch_reader.h"
#include "alkaid/table.h"
#include "flight_client.h"
#include "text_options.h"

namespace alkaid::cli {

// How a command wants its input read.
struct SourceOptions {
  std::vector<std::string> columns;  // names to keep, in this order; empty: all
  ipc::IpcReadOptions ipc;
  TextReadOptions text;
  FlightSettings flight;  // grpc:// inputs
};

// The bytes of one input: its first bytes (what sources judge it by) and the
// ways to read the whole of it.
class InputBytes {
 public:
  virtual ~InputBytes() = default;
  const std::string& path() const { return path_; }  // "-": standard input
  bool is_stdin() const { return path_ == "-"; }
  // The first bytes (4 KiB, more for text whose first lines are long).
  std::string_view head() const { return head_; }
  // Front to back, from the first byte (once).
  virtual Result<std::shared_ptr<io::InputStream>> Stream() = 0;
  // Random access: a file is mapped; standard input is read into memory.
  virtual Result<std::shared_ptr<io::RandomAccessFile>> RandomAccess() = 0;
  // Size in bytes, -1 for standard input.
  virtual int64_t size() const = 0;

 protected:
  std::string path_;
  std::string head_;
};

// What an input's metadata states of one column without reading its data
// (Parquet: the footer's column-chunk statistics).
struct ColumnSummary {
  int64_t nulls = 0;
  int64_t values = 0;  // non-null
  // Values of the column's type, no nulls, among them the column's least and
  // greatest value (Parquet: each row group's min and max); null when the
  // column has no value or its type has no order stats shows.
  ArrayDataPtr bounds;
};

// One opened input: a schema, then batches in order.
class Input {
 public:
  virtual ~Input() = default;
  const SchemaPtr& schema() const { return schema_; }
  // Dictionary ids of schema()'s dictionary-encoded fields.
  const DictionaryIds& dictionary_ids() const { return ids_; }
  // What the input is, for `schema`'s first line ("IPC file, 3 batches").
  virtual std::string Describe() const = 0;
  // The next batch, nullptr at the end.
  virtual Result<RecordBatchPtr> Next() = 0;
  // Rows of the batches not read yet. Sources with metadata override this
  // to answer without decoding data; the default reads through.
  virtual Result<int64_t> CountRows();
  // Batches that cover the last `n` rows (the first may hold more), and in
  // *read the batches read and in *total the input's rows (-1: unknown).
  // The default reads through keeping only the batches that cover n rows.
  virtual Result<std::vector<RecordBatchPtr>> LastRows(int64_t n, int64_t* read, int64_t* total);
  // Per column of schema(), what the metadata states exactly (nullopt where
  // it cannot answer and the data must be read); empty when the input has no
  // such metadata (the default). Reads no data.
  virtual Result<std::vector<std::optional<ColumnSummary>>> Summaries() {
    return std::vector<std::optional<ColumnSummary>>();
  }
  // Makes Next() return batches of only these columns of schema() (indices,
  // in this order), before the first Next(). False where the input cannot.
  virtual bool SelectColumns(const std::vector<int>&) { return false; }
  // IPC files: batches known up front and read by index; -1 otherwise.
  virtual int64_t num_batches() const { return -1; }
  virtual Result<RecordBatchPtr> ReadBatch(int i);
  // Size of the input in bytes (-1: standard input) and bytes read so far
  // (-1 when not read in order), for progress.
  int64_t size() const { return size_; }
  void set_size(int64_t size) { size_ = size; }
  void set_dictionary_ids(DictionaryIds ids) { ids_ = std::move(ids); }
  virtual int64_t position() const { return -1; }

 protected:
  SchemaPtr schema_;
  DictionaryIds ids_;
  int64_t size_ = -1;
};

// An Input over a RecordBatchReader, projecting each batch to the columns
// when the reader could not select them itself.
class ReaderInput : public Input {
 public:
  // `project`: keep `columns` of each batch (else the reader selected them).
  // `stream` (may be null) tells position().
  static Result<std::unique_ptr<Input>> Make(std::unique_ptr<RecordBatchReader> reader,
                                             std::string description,
                                             const std::vector<std::string>& columns,
                                             bool project,
                                             std::shared_ptr<io::InputStream> stream);
  std::string Describe() const override { return description_; }
  Result<RecordBatchPtr> Next() override;
  int64_t position() const override;

 protected:
  ReaderInput() = default;
  Status Init(std::unique_ptr<RecordBatchReader> reader, std::string description,
              const std::vector<std::string>& columns, bool project,
              std::shared_ptr<io::InputStream> stream);
  std::unique_ptr<RecordBatchReader> reader_;

 private:
  std::shared_ptr<io::InputStream> stream_;
  std::string description_;
  std::vector<int> project_;
};

// A format alkaid reads.
//
// Adding a source: write sources/NAME.cc defining
//   extern const Source kNameSource = {"name", "a thing", options, Sniff, Open};
// and add one line to the list in sources/registry.cc. Sniff sees the first
// bytes and the path (the flight source answers 100 for a grpc:// URL, whose
// InputBytes has no bytes); Open builds an Input from InputBytes.
struct Source {
  const char* name;  // --input-format value
  const char* what;  // "a Parquet file", for messages
  // Which text options apply (TextFormats bits); others given with this
  // format are refused.
  unsigned options;
  // 0: not this format; 100: certain (a magic number); between: how likely.
  int (*sniff)(std::string_view head, const std::string& path);
  Result<std::unique_ptr<Input>> (*open)(InputBytes* bytes, const SourceOptions& options);
};

// Every source, in the order messages list them.
const std::vector<const Source*>& Sources();
// The source called `name` ("arrow" is "ipc"), or nullptr.
const Source* FindSource(const std::string& name);

// The bytes of `path` ("-": standard input), their head read.
Result<std::unique_ptr<InputBytes>> OpenInputBytes(const std::string& path);

// Opens `path` ("-": standard input) as `format` ("auto": by content).
// *chosen is set to the source used (nullptr when none was). Errors say what
// the input is when no source reads it.
Result<std::unique_ptr<Input>> OpenInput(const std::string& path, const std::string& format,
                                         const SourceOptions& options, const CLI::App* app,
                                         const Source** chosen);

// Column indices of `names` in `schema`; an unknown name is a KeyError
// listing the columns.
Result<std::vector<int>> ResolveColumns(const Schema& schema,
                                        const std::vector<std::string>& names);
// `schema` keeping the fields at `indices`.
SchemaPtr ProjectSchema(const Schema& schema, const std::vector<int>& indices);

}  // namespace alkaid::cli
