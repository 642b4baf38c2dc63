/// @file
/// IPC readers: the streaming format (pull: StreamReader; push: StreamDecoder)
/// and the random-access file format (FileReader).
///
/// Input is untrusted. Message metadata goes through the Flatbuffers verifier
/// before any access; every node, buffer and variadic count is checked against
/// the schema and the body; decompression is capped; and each record batch is
/// validated (ValidateArrayFull, or only ValidateArray when
/// IpcReadOptions::validate_full is false) before it is handed out. Buffers
/// are zero-copy slices of the input whenever alignment, compression and byte
/// order allow. Big-endian data is converted to native order on load.
///
/// Memory: one message decompresses to at most
/// IpcReadOptions::max_decompressed_message_bytes (256 MiB by default), and a
/// reader holds at most its memory budget (IpcReadOptions::memory_budget*:
/// decompressed buffers, copies, dictionaries and the arrays of the batches
/// still referenced). What a caller drops stops counting, so reading batch by
/// batch never runs out of budget; keeping every batch of a hostile file
/// fails with OutOfMemory naming the option instead of exhausting memory.
/// Dictionary deltas are queued and concatenated once when next needed, so N
/// deltas cost time linear in the dictionary's final size.
///
/// Leniency: body buffers need not be aligned for their element type (the
/// format asks for 8-byte alignment; some writers do not provide it). A
/// misaligned buffer is copied into aligned memory (counted against the
/// budget) instead of being refused. A file footer whose version is V1-V3 is
/// accepted when the messages of the file are V4 or V5 (Arrow 0.14-era
/// writers). Stricter: a footer block whose metadata or body length disagrees
/// with the message it points to is refused.
///
/// Threads: see each class. Batches handed out are immutable and independent
/// of their reader: they may be used from any thread and outlive the reader.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "alkaid/dictionary_ids.h"
#include "alkaid/visibility.h"
#include "alkaid/io/input.h"
#include "alkaid/ipc/options.h"
#include "alkaid/record_batch_reader.h"
#include "alkaid/table.h"

namespace alkaid::ipc {

/// Counters of what a reader has decoded so far, for tests, tools and
/// monitoring. A plain value: stats() returns a snapshot copy.
struct ALKAID_EXPORT ReadStats {
  int64_t num_messages = 0;               ///< schema, dictionary and record batch messages
  int64_t num_record_batches = 0;         ///< record batch messages decoded
  int64_t num_dictionary_batches = 0;     ///< deltas included
  int64_t num_dictionary_deltas = 0;      ///< dictionary batches appended to an existing one
  int64_t num_replaced_dictionaries = 0;  ///< non-delta batches for an id already defined
};

/// Reads a stream: the schema message first, then dictionary and record batch
/// messages until the end-of-stream marker (or the end of the input).
///
/// Threads: one thread at a time (reading is sequential by nature); the
/// const accessors may be called concurrently with each other.
class ALKAID_EXPORT StreamReader : public RecordBatchReader {
 public:
  ~StreamReader() override;

  /// `stream` must outlive the reader. Reads the schema message before
  /// returning.
  static Result<std::unique_ptr<StreamReader>> Open(
      io::InputStream* stream, const IpcReadOptions& options = IpcReadOptions::Defaults());
  /// Fails when the input does not start with a valid schema message.
  /// Same as the other Open, but the reader shares ownership of `stream`.
  static Result<std::unique_ptr<StreamReader>> Open(
      std::shared_ptr<io::InputStream> stream,
      const IpcReadOptions& options = IpcReadOptions::Defaults());
  /// A whole stream in memory; batches are zero-copy slices of `buffer`.
  static Result<std::unique_ptr<StreamReader>> Open(
      BufferPtr buffer, const IpcReadOptions& options = IpcReadOptions::Defaults());

  /// The schema of the batches returned (projected, native byte order).
  const SchemaPtr& schema() const override;
  /// Dictionary ids of the dictionary-encoded fields of schema().
  const DictionaryIds& dictionary_ids() const;

  /// The next batch, or nullptr at the end-of-stream marker or at the end of
  /// the input. Dictionary batches in between are applied on the way.
  Result<RecordBatchPtr> Next() override;
  /// Every remaining batch; on an error the batches read before it are dropped.
  Result<std::vector<RecordBatchPtr>> ReadAll();

  /// The rows of the remaining record batches, summed from their message
  /// headers: every message is framed and its metadata verified, but bodies
  /// are not decompressed, loaded or validated (a stream read from an
  /// InputStream still reads past them) and dictionary batches are skipped.
  /// Afterwards Next() returns nullptr. Invalid for a negative length, a sum
  /// beyond int64, or a message other than a record or dictionary batch.
  Result<int64_t> CountRows();

  /// A snapshot of the counters.
  ReadStats stats() const;

 private:
  StreamReader();
  Status ReadSchema();
  Status ReadOneMessage(bool* got);
  Result<RecordBatchPtr> NextBatch();
  Result<RecordBatchPtr> NextPipelined();

  struct State;
  std::unique_ptr<State> state_;
};

/// Reads the file format: magic ("ARROW1" or "ALKAID1"), footer, and record
/// batches by index. Dictionaries (all blocks of the footer, in order; deltas
/// appended, replacements refused) are loaded before the first batch is read.
///
/// Projection (IpcReadOptions::included_fields leaving fields out) reads only
/// what the selected columns need. The file is advised
/// io::AccessPattern::kRandom before the footer is read (no readahead over
/// the other columns). A file that copies what it reads (ReadableFile) reads
/// each batch's metadata and then only the selected buffers' byte ranges
/// (ranges less than 8 KiB apart are read as one), into one 64-byte aligned
/// buffer that keeps every buffer's offset modulo 64; a zero-copy file
/// (MemoryMappedFile) is told those ranges with WillNeed before the batch
/// is loaded. Reading batches in order with bodies of 1 MiB or more also
/// hints the next batch's selected ranges. Validation is the same as for a
/// full read, and every buffer of the header is still checked against the
/// body length the message declares.
///
/// Threads: ReadRecordBatch may be called from several threads at once on one
/// reader (for any Open variant, OpenMapped included), for the same or
/// different indices: each call has its own loader state, dictionaries are
/// loaded exactly once (the first caller loads them; the others wait), codecs
/// keep their contexts per thread and the counters are atomic. schema(),
/// dictionary_ids(), num_record_batches(), num_dictionaries(), metadata(),
/// dialect(), stats() and ReadAll() may be called concurrently with it.
/// Next() advances a cursor of its own: one thread at a time. The underlying
/// RandomAccessFile must support concurrent ReadAt (the library's files and
/// BufferReader do: they are positionless for ReadAt).
class ALKAID_EXPORT FileReader : public RecordBatchReader {
 public:
  ~FileReader() override;

  /// `file` must outlive the reader.
  static Result<std::unique_ptr<FileReader>> Open(
      io::RandomAccessFile* file, const IpcReadOptions& options = IpcReadOptions::Defaults());
  /// Reads and checks the magic bytes and the footer before returning; a file
  /// that is truncated or whose footer does not verify gives an error here.
  /// Same as the other Open, but the reader shares ownership of `file`.
  static Result<std::unique_ptr<FileReader>> Open(
      std::shared_ptr<io::RandomAccessFile> file,
      const IpcReadOptions& options = IpcReadOptions::Defaults());
  /// A whole file in memory; batches are zero-copy slices of `buffer`.
  static Result<std::unique_ptr<FileReader>> Open(
      BufferPtr buffer, const IpcReadOptions& options = IpcReadOptions::Defaults());
  /// Memory-maps `path`; batches point into the mapping, which stays alive as
  /// long as any of their buffers does.
  static Result<std::unique_ptr<FileReader>> OpenMapped(
      const std::string& path, const IpcReadOptions& options = IpcReadOptions::Defaults());

  const SchemaPtr& schema() const override;
  /// Dictionary ids of the dictionary-encoded fields of schema(), by field path.
  const DictionaryIds& dictionary_ids() const;
  /// Number of record batches the footer lists (a block listed twice counts
  /// twice).
  int num_record_batches() const;
  /// Number of dictionary batch blocks the footer lists.
  int num_dictionaries() const;
  /// The footer's custom metadata (nullptr when absent).
  const MetadataPtr& metadata() const;
  /// The spelling the file was written with (told by its magic bytes).
  IpcDialect dialect() const;

  /// Batch i. A block the footer lists several times is decoded once: every
  /// listing returns the same batch.
  /// IndexError unless 0 <= i < num_record_batches().
  Result<RecordBatchPtr> ReadRecordBatch(int i);
  /// RecordBatchReader: the batches in file order, starting at batch 0; each
  /// call advances a cursor of its own (independent of ReadRecordBatch).
  Result<RecordBatchPtr> Next() override;
  /// Every batch of the file, whatever the cursor.
  Result<std::vector<RecordBatchPtr>> ReadAll();

  /// The rows of every record batch, summed from the batches' message
  /// headers (each block's metadata is read and verified; bodies are neither
  /// read, decompressed nor validated). Thread-safe like ReadRecordBatch.
  /// Invalid as ReadRecordBatch would be for a block that does not hold a
  /// record batch, and for a negative length or a sum beyond int64.
  Result<int64_t> CountRows();

  /// A snapshot of the counters.
  ReadStats stats() const;

 private:
  FileReader();
  Status ReadFooter();
  Status LoadDictionaries();
  Status LoadDictionariesLocked();
  Result<RecordBatchPtr> ReadRecordBatchBlock(int i);

  struct State;
  std::unique_ptr<State> state_;
  int next_batch_ = 0;  ///< Next()'s cursor
};

/// Push-style stream decoding for data arriving in arbitrary pieces (sockets):
/// hand every piece to Consume() and receive schema, batches and the end of
/// the stream through the listener as soon as they are complete.
///
/// Threads: one thread at a time; the listener is called on the thread that
/// calls Consume().
class ALKAID_EXPORT StreamDecoder {
 public:
  /// Receives what a StreamDecoder decodes. Called on the thread that calls
  /// Consume(), in stream order; an error a callback returns stops decoding and
  /// comes back from that Consume() call.
  class Listener {
   public:
    virtual ~Listener() = default;
    /// Called once, when the schema message is complete. Does nothing by default.
    virtual Status OnSchema(const SchemaPtr& /*schema*/) { return Status::OK(); }
    /// Called for each record batch, already validated; the listener may keep it.
    virtual Status OnRecordBatch(RecordBatchPtr batch) = 0;
    /// Called once at the end-of-stream marker. Does nothing by default.
    virtual Status OnEOS() { return Status::OK(); }
  };

  /// A decoder that reports to `listener` (shared so it stays alive as long as
  /// the decoder needs it).
  explicit StreamDecoder(std::shared_ptr<Listener> listener,
                         const IpcReadOptions& options = IpcReadOptions::Defaults());
  ~StreamDecoder();

  /// Feeds the next `size` bytes of the stream and copies what it has to keep;
  /// the decoder reports every message they complete before returning. Bad
  /// bytes give an error, and every later call returns that same error.
  Status Consume(const uint8_t* data, int64_t size);
  /// Keeps references into `buffer` (zero-copy) where a whole message part
  /// lies inside it.
  Status Consume(BufferPtr buffer);

  /// Bytes still needed to complete the part being decoded (prefix, metadata
  /// or body); 0 after the end of the stream or an error.
  int64_t next_required_size() const;
  /// nullptr until the schema message was decoded.
  const SchemaPtr& schema() const;
  /// Dictionary ids of the dictionary-encoded fields of schema() (empty until the
  /// schema was decoded).
  const DictionaryIds& dictionary_ids() const;
  /// True once the end-of-stream marker was decoded.
  bool finished() const;
  /// A snapshot of the counters.
  ReadStats stats() const;

 private:
  class Impl;  // the message decoder (src/ipc)
  std::unique_ptr<Impl> decoder_;
};

}  // namespace alkaid::ipc
