// IPC readers: the streaming format (pull: StreamReader; push: StreamDecoder)
// and the random-access file format (FileReader).
//
// Input is untrusted. Message metadata goes through the Flatbuffers verifier
// before any access; every node, buffer and variadic count is checked against
// the schema and the body; decompression is capped; and each record batch is
// validated (ValidateArrayFull, or only ValidateArray when
// IpcReadOptions::validate_full is false) before it is handed out. Buffers
// are zero-copy slices of the input whenever alignment, compression and byte
// order allow. Big-endian data is converted to native order on load.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "alkaid/dictionary_ids.h"
#include "alkaid/export.h"
#include "alkaid/io/input.h"
#include "alkaid/ipc/options.h"
#include "alkaid/record_batch_reader.h"
#include "alkaid/table.h"

namespace alkaid::ipc {

struct ALKAID_EXPORT ReadStats {
  int64_t num_messages = 0;               // schema, dictionary and record batch messages
  int64_t num_record_batches = 0;
  int64_t num_dictionary_batches = 0;     // deltas included
  int64_t num_dictionary_deltas = 0;
  int64_t num_replaced_dictionaries = 0;  // non-delta batches for an id already defined
};

namespace internal {
class ReaderCore;
class MessageDecoder;
}  // namespace internal

// Reads a stream: the schema message first, then dictionary and record batch
// messages until the end-of-stream marker (or the end of the input).
class ALKAID_EXPORT StreamReader : public RecordBatchReader {
 public:
  ~StreamReader() override;

  // `stream` must outlive the reader. Reads the schema message before
  // returning.
  static Result<std::unique_ptr<StreamReader>> Open(
      io::InputStream* stream, const IpcReadOptions& options = IpcReadOptions::Defaults());
  static Result<std::unique_ptr<StreamReader>> Open(
      std::shared_ptr<io::InputStream> stream,
      const IpcReadOptions& options = IpcReadOptions::Defaults());
  // A whole stream in memory; batches are zero-copy slices of `buffer`.
  static Result<std::unique_ptr<StreamReader>> Open(
      BufferPtr buffer, const IpcReadOptions& options = IpcReadOptions::Defaults());

  // The schema of the batches returned (projected, native byte order).
  const SchemaPtr& schema() const override;
  // Dictionary ids of the dictionary-encoded fields of schema().
  const DictionaryIds& dictionary_ids() const;

  // The next batch, or nullptr at the end-of-stream marker or at the end of
  // the input. Dictionary batches in between are applied on the way.
  Result<RecordBatchPtr> Next() override;
  // Every remaining batch.
  Result<std::vector<RecordBatchPtr>> ReadAll();

  const ReadStats& stats() const;

 private:
  StreamReader();
  Status ReadSchema();
  Result<bool> ReadOneMessage();

  struct State;
  std::unique_ptr<State> state_;
};

// Reads the file format: magic ("ARROW1" or "ALKAID1"), footer, and record
// batches by index. Dictionaries (all blocks of the footer, in order; deltas
// appended, replacements refused) are loaded before the first batch is read.
class ALKAID_EXPORT FileReader : public RecordBatchReader {
 public:
  ~FileReader() override;

  // `file` must outlive the reader.
  static Result<std::unique_ptr<FileReader>> Open(
      io::RandomAccessFile* file, const IpcReadOptions& options = IpcReadOptions::Defaults());
  static Result<std::unique_ptr<FileReader>> Open(
      std::shared_ptr<io::RandomAccessFile> file,
      const IpcReadOptions& options = IpcReadOptions::Defaults());
  // A whole file in memory; batches are zero-copy slices of `buffer`.
  static Result<std::unique_ptr<FileReader>> Open(
      BufferPtr buffer, const IpcReadOptions& options = IpcReadOptions::Defaults());
  // Memory-maps `path`; batches point into the mapping, which stays alive as
  // long as any of their buffers does.
  static Result<std::unique_ptr<FileReader>> OpenMapped(
      const std::string& path, const IpcReadOptions& options = IpcReadOptions::Defaults());

  const SchemaPtr& schema() const override;
  const DictionaryIds& dictionary_ids() const;
  int num_record_batches() const;
  int num_dictionaries() const;
  // The footer's custom metadata (nullptr when absent).
  const MetadataPtr& metadata() const;
  IpcDialect dialect() const;

  Result<RecordBatchPtr> ReadRecordBatch(int i);
  // RecordBatchReader: the batches in file order, starting at batch 0; each
  // call advances a cursor of its own (independent of ReadRecordBatch).
  Result<RecordBatchPtr> Next() override;
  // Every batch of the file, whatever the cursor.
  Result<std::vector<RecordBatchPtr>> ReadAll();

  const ReadStats& stats() const;

 private:
  FileReader();
  Status ReadFooter();
  Status LoadDictionaries();

  struct State;
  std::unique_ptr<State> state_;
  int next_batch_ = 0;  // Next()'s cursor
};

// Push-style stream decoding for data arriving in arbitrary pieces (sockets):
// hand every piece to Consume() and receive schema, batches and the end of
// the stream through the listener as soon as they are complete.
class ALKAID_EXPORT StreamDecoder {
 public:
  class Listener {
   public:
    virtual ~Listener() = default;
    virtual Status OnSchema(const SchemaPtr& /*schema*/) { return Status::OK(); }
    virtual Status OnRecordBatch(RecordBatchPtr batch) = 0;
    virtual Status OnEOS() { return Status::OK(); }
  };

  explicit StreamDecoder(std::shared_ptr<Listener> listener,
                         const IpcReadOptions& options = IpcReadOptions::Defaults());
  ~StreamDecoder();

  // Copies what it has to keep.
  Status Consume(const uint8_t* data, int64_t size);
  // Keeps references into `buffer` (zero-copy) where a whole message part
  // lies inside it.
  Status Consume(BufferPtr buffer);

  // Bytes still needed to complete the part being decoded (prefix, metadata
  // or body); 0 after the end of the stream or an error.
  int64_t next_required_size() const;
  // nullptr until the schema message was decoded.
  const SchemaPtr& schema() const;
  const DictionaryIds& dictionary_ids() const;
  bool finished() const;
  const ReadStats& stats() const;

 private:
  std::unique_ptr<internal::MessageDecoder> decoder_;
};

}  // namespace alkaid::ipc
