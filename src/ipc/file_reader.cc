// FileReader: random access to the record batches of an IPC file through its
// footer, with projection reading only the selected columns' byte ranges.
#include "alkaid/ipc/reader.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <tuple>

#include "batch_pipeline.h"
#include "framed_message.h"
#include "message_framer.h"
#include "reader_core.h"

namespace alkaid::ipc {

using internal::fb::Message;
using internal::FramedMessage;
using internal::LoadLE32;
using internal::MessageFramer;
using internal::MessageLocation;
using Part = internal::MessageFramer::Part;

struct FileReader::State {
  std::shared_ptr<io::RandomAccessFile> owned_file;
  io::RandomAccessFile* file = nullptr;
  IpcReadOptions options;
  internal::ReaderCore core;
  int64_t file_size = 0;
  int64_t footer_offset = 0;  // end of the message region
  IpcDialect dialect = IpcDialect::kArrow;
  BufferPtr footer_buffer;
  std::vector<internal::FileBlock> dictionary_blocks;
  std::vector<internal::FileBlock> batch_blocks;
  MetadataPtr metadata;
  // Dictionaries are loaded once, by whichever ReadRecordBatch comes first;
  // the others wait on the mutex. After that the memo is only read.
  std::mutex dictionary_mutex;
  std::atomic<bool> dictionaries_loaded{false};
  Status dictionary_status;
  // Loader scratch for concurrent ReadRecordBatch calls: each call takes one
  // (or makes one) and puts it back, so a serial reader reuses one.
  std::mutex scratch_mutex;
  std::vector<std::unique_ptr<internal::BatchScratch>> free_scratch;
  // Record batch blocks the footer lists more than once (never in files a
  // writer made; a way to multiply work and memory in crafted ones): their
  // batch is decoded once and kept, so every listing returns the same
  // immutable batch and costs nothing more. Keyed by the whole block.
  using BlockKey = std::tuple<int64_t, int32_t, int64_t>;
  std::mutex repeated_mutex;
  std::map<BlockKey, RecordBatchPtr> repeated_batches;  // null until first read
  // The last batch a projection read, to tell a sequential scan (which gets
  // the next batch's ranges prefetched) from random access.
  std::atomic<int> last_projected{-1};
  // use_threads: Next()'s batches decoded side by side
  // (batch_pipeline.h); reset first by the destructor.
  std::unique_ptr<internal::BatchPipeline> pipeline;
  bool one_thread = false;  // use_threads, but the options allow one thread
};

FileReader::FileReader() : state_(std::make_unique<State>()) {}
FileReader::~FileReader() {
  // A batch a pool thread is decoding ends before anything it uses goes.
  if (state_) state_->pipeline.reset();
}

Result<std::unique_ptr<FileReader>> FileReader::Open(io::RandomAccessFile* file,
                                                     const IpcReadOptions& options) {
  if (file == nullptr) return Status::Invalid("FileReader::Open: null file");
  std::unique_ptr<FileReader> reader(new FileReader());
  reader->state_->file = file;
  reader->state_->options = internal::WithDefaultPool(options);
  ALKAID_RETURN_NOT_OK(reader->ReadFooter());
  return reader;
}

Result<std::unique_ptr<FileReader>> FileReader::Open(std::shared_ptr<io::RandomAccessFile> file,
                                                     const IpcReadOptions& options) {
  // The caller's reference keeps the file alive until the reader holds one.
  ALKAID_ASSIGN_OR_RAISE(std::unique_ptr<FileReader> reader, Open(file.get(), options));
  reader->state_->owned_file = std::move(file);
  return reader;
}

Result<std::unique_ptr<FileReader>> FileReader::Open(BufferPtr buffer,
                                                     const IpcReadOptions& options) {
  if (buffer == nullptr) return Status::Invalid("FileReader::Open: null buffer");
  return Open(std::make_shared<io::BufferReader>(std::move(buffer)), options);
}

Result<std::unique_ptr<FileReader>> FileReader::OpenMapped(const std::string& path,
                                                           const IpcReadOptions& options) {
  ALKAID_ASSIGN_OR_RAISE(auto mapped, io::MemoryMappedFile::Open(path));
  Result<std::unique_ptr<FileReader>> reader = Open(std::move(mapped), options);
  if (!reader.ok()) return reader.status().WithContext("'" + path + "'");
  return reader;
}

namespace {

// Reads exactly n bytes at offset or fails naming what was being read.
Result<BufferPtr> ReadExactlyAt(io::RandomAccessFile* file, int64_t offset, int64_t n,
                                const char* what) {
  ALKAID_ASSIGN_OR_RAISE(BufferPtr out, file->ReadAt(offset, n));
  if (out->size() != n) {
    return Status::Invalid("file ends inside the ", what, ": wanted ", n, " bytes at offset ",
                           offset, ", got ", out->size());
  }
  return out;
}

bool StartsWith(const BufferPtr& b, std::string_view prefix, int64_t at = 0) {
  return b->size() >= at + static_cast<int64_t>(prefix.size()) &&
         std::memcmp(b->data() + at, prefix.data(), prefix.size()) == 0;
}


// Files written by Arrow releases around 0.14 carry a V1 footer around V4
// messages. The footer's own version is then meaningless: what matters is
// the version of the messages, which each one states (and which is checked
// whenever one is read). For such footers the schema message that opens
// the file must be V4 or V5, so that a genuinely old file is still refused.
Status CheckOldFooter(io::RandomAccessFile* file, int64_t footer_offset,
                      internal::fb::MetadataVersion footer_version,
                      const IpcReadOptions& options) {
  const int64_t start = internal::kFileHeaderSize;
  const int64_t available = footer_offset - start;
  Status refused = Status::Invalid(
      "file footer: metadata version ", static_cast<int>(footer_version) + 1,
      " is not supported (only V4 and V5, or an older footer around V4/V5 messages)");
  // The first message, framed as any block would be.
  ALKAID_ASSIGN_OR_RAISE(BufferPtr framed, file->ReadAt(start, std::min<int64_t>(available, 8)));
  MessageFramer framer(options.pool, options.max_recursion_depth, "the first message");
  framer.Begin(start, available);
  int64_t pos = 0;
  do {
    if (framed->size() - pos < 4) return refused;
    Status word = framer.OnWord(LoadLE32(framed->data() + pos));
    if (!word.ok()) return refused.WithContext(word.message());
    pos += 4;
  } while (framer.part() == Part::kLength);
  if (framer.part() != Part::kMetadata) return refused;
  ALKAID_ASSIGN_OR_RAISE(BufferPtr metadata, file->ReadAt(start + pos, framer.need()));
  if (metadata->size() < framer.need()) return refused;
  std::shared_ptr<ResizableBuffer> scratch;
  Status st = framer.OnMetadata(metadata->data(), &scratch);
  if (!st.ok()) return refused.WithContext(st.message());
  if (framer.message()->header_type() != internal::fb::MessageHeader::Schema) return refused;
  return Status::OK();
}

}  // namespace

Status FileReader::ReadFooter() {
  State& s = *state_;
  ALKAID_ASSIGN_OR_RAISE(s.file_size, s.file->GetSize());
  // A projection reads scattered ranges: no blind readahead over the columns
  // it leaves out, starting with the magic and the footer (a readahead
  // window of several megabytes around each would dwarf one column).
  // Undone below if every field turns out to be selected.
  const bool may_project = !s.options.included_fields.empty();
  if (may_project) ALKAID_RETURN_NOT_OK(s.file->Advise(io::AccessPattern::kRandom));
  constexpr int64_t kMinTrailer = 4 + 6;  // footer length + shortest magic
  if (s.file_size < internal::kFileHeaderSize + kMinTrailer) {
    return Status::Invalid("not an IPC file: ", s.file_size, " bytes is too small");
  }
  ALKAID_ASSIGN_OR_RAISE(BufferPtr header,
                         ReadExactlyAt(s.file, 0, internal::kFileHeaderSize, "leading magic"));
  std::string_view magic;
  if (StartsWith(header, internal::kAlkaidFileMagic)) {
    s.dialect = IpcDialect::kAlkaid;
    magic = internal::kAlkaidFileMagic;
  } else if (StartsWith(header, internal::kArrowFileMagic)) {
    s.dialect = IpcDialect::kArrow;
    magic = internal::kArrowFileMagic;
  } else {
    return Status::Invalid("not an IPC file: the leading bytes are not \"ARROW1\" or \"ALKAID1\"");
  }
  const int64_t magic_size = static_cast<int64_t>(magic.size());
  const int64_t trailer_size = 4 + magic_size;
  if (s.file_size < internal::kFileHeaderSize + trailer_size) {
    return Status::Invalid("not an IPC file: ", s.file_size, " bytes is too small");
  }
  ALKAID_ASSIGN_OR_RAISE(BufferPtr trailer, ReadExactlyAt(s.file, s.file_size - trailer_size,
                                                          trailer_size, "file trailer"));
  if (!StartsWith(trailer, magic, 4)) {
    return Status::Invalid("the file starts with \"", magic,
                           "\" but does not end with the same magic");
  }
  const int32_t footer_length = static_cast<int32_t>(LoadLE32(trailer->data()));
  const int64_t max_footer = s.file_size - internal::kFileHeaderSize - trailer_size;
  if (footer_length <= 0 || footer_length > max_footer) {
    return Status::Invalid("footer length ", footer_length, " is out of range: the file of ",
                           s.file_size, " bytes leaves room for 1..", max_footer);
  }
  s.footer_offset = s.file_size - trailer_size - footer_length;
  ALKAID_ASSIGN_OR_RAISE(s.footer_buffer,
                         ReadExactlyAt(s.file, s.footer_offset, footer_length, "footer"));
  if (reinterpret_cast<uintptr_t>(s.footer_buffer->data()) % 8 != 0) {
    ALKAID_ASSIGN_OR_RAISE(s.footer_buffer, Buffer::Copy(s.footer_buffer->data(),
                                                         s.footer_buffer->size(), s.options.pool));
  }
  flatbuffers::Verifier verifier(s.footer_buffer->data(),
                                 static_cast<size_t>(s.footer_buffer->size()),
                                 /*max_depth=*/internal::VerifierDepth(s.options.max_recursion_depth),
                                 /*max_tables=*/internal::VerifierMaxTables(footer_length));
  if (!internal::fb::VerifyFooterBuffer(verifier)) {
    return Status::SerializationError("footer flatbuffer of ", footer_length, " bytes at offset ",
                                      s.footer_offset, " failed verification");
  }
  const internal::fb::Footer* footer = internal::fb::GetFooter(s.footer_buffer->data());
  if (footer->schema() == nullptr) return Status::Invalid("file footer has no schema");
  if (footer->version() < internal::fb::MetadataVersion::V4) {
    ALKAID_RETURN_NOT_OK(CheckOldFooter(s.file, s.footer_offset, footer->version(), s.options));
  } else {
    ALKAID_RETURN_NOT_OK(internal::CheckMetadataVersion(footer->version(), "file footer"));
  }
  ALKAID_RETURN_NOT_OK(s.core.Init(footer->schema(), s.options, /*is_file=*/true)
                           .WithContext("file footer schema"));
  s.core.budget()->SetInput(s.file_size);
  if (may_project && !s.core.projects()) {
    ALKAID_RETURN_NOT_OK(s.file->Advise(io::AccessPattern::kNormal));
  }
  ALKAID_RETURN_NOT_OK(
      internal::ReadFileBlocks(footer->dictionaries(), "dictionary block", &s.dictionary_blocks));
  ALKAID_RETURN_NOT_OK(
      internal::ReadFileBlocks(footer->recordBatches(), "record batch block", &s.batch_blocks));
  ALKAID_ASSIGN_OR_RAISE(s.metadata,
                         internal::ReadKeyValueMetadata(footer->custom_metadata(), "file footer"));
  auto check_blocks = [&](const std::vector<internal::FileBlock>& blocks, const char* what) {
    for (size_t i = 0; i < blocks.size(); ++i) {
      const auto& b = blocks[i];
      // offset, metadata and body lengths are non-negative (ReadFileBlocks).
      if (b.offset < internal::kFileHeaderSize || b.offset > s.footer_offset ||
          b.metadata_length > s.footer_offset - b.offset ||
          b.body_length > s.footer_offset - b.offset - b.metadata_length) {
        return Status::Invalid(what, " ", i, " [offset ", b.offset, ", metadata ",
                               b.metadata_length, " bytes, body ", b.body_length,
                               " bytes] lies outside the message region [8, ", s.footer_offset,
                               ")");
      }
    }
    return Status::OK();
  };
  ALKAID_RETURN_NOT_OK(check_blocks(s.dictionary_blocks, "dictionary block"));
  ALKAID_RETURN_NOT_OK(check_blocks(s.batch_blocks, "record batch block"));
  std::map<State::BlockKey, int> listings;
  for (const auto& b : s.batch_blocks) ++listings[{b.offset, b.metadata_length, b.body_length}];
  for (const auto& [key, count] : listings) {
    if (count > 1) s.repeated_batches.emplace(key, nullptr);
  }
  return Status::OK();
}

namespace {

// Reads the whole body of a block into out->body_buffer. A body the file had
// to copy (no zero-copy support) is charged to `budget`.
Status ReadBlockBody(io::RandomAccessFile* file, const internal::FileBlock& block,
                     const internal::ReadBudgetPtr& budget, FramedMessage* out) {
  internal::Charge charge;
  if (!file->supports_zero_copy()) {
    ALKAID_ASSIGN_OR_RAISE(charge, internal::Charge::Take(budget, block.body_length,
                                                          "reading a message body"));
  }
  ALKAID_ASSIGN_OR_RAISE(out->body_buffer,
                         ReadExactlyAt(file, block.offset + block.metadata_length,
                                       block.body_length, "message body"));
  out->body_buffer = internal::AttachCharge(std::move(out->body_buffer), std::move(charge));
  return Status::OK();
}

// Reads and frames the message a footer block points at: the block is
// a bounded input for the same framer the stream reader uses, and its
// lengths must be the message's own. With `skip_body` the body is left
// unread (out->body stays null). A body the file had to copy (no zero-copy
// support) is charged to `budget`.
Status ReadBlockMessage(io::RandomAccessFile* file, const internal::FileBlock& block,
                        const IpcReadOptions& options, const internal::ReadBudgetPtr& budget,
                        FramedMessage* out,
                        bool (*skip_body)(const Message&, const void*) = nullptr,
                        const void* skip_arg = nullptr) {
  ALKAID_ASSIGN_OR_RAISE(out->metadata,
                         ReadExactlyAt(file, block.offset, block.metadata_length, "block metadata"));
  const uint8_t* framed = out->metadata->data();
  const int64_t size = out->metadata->size();
  MessageFramer framer(options.pool, options.max_recursion_depth, "the block's metadata");
  framer.Begin(block.offset, block.metadata_length);
  int64_t pos = 0;
  do {
    if (size - pos < 4) return framer.Truncated(size - pos);
    ALKAID_RETURN_NOT_OK(framer.OnWord(LoadLE32(framed + pos)));
    pos += 4;
  } while (framer.part() == Part::kLength);
  if (framer.part() == Part::kEndOfStream) {
    return Status::Invalid("the block points at an end-of-stream marker (byte ", block.offset,
                           "), not a message");
  }
  ALKAID_RETURN_NOT_OK(framer.OnMetadata(framed + pos, &out->scratch));
  out->message = framer.message();
  ALKAID_RETURN_NOT_OK(framer.MatchBlock(block.metadata_length, block.body_length));
  out->wire_size = framer.wire_size();
  out->body = internal::MessageBody{};
  out->body_buffer.reset();
  out->body_skipped = skip_body != nullptr && skip_body(*out->message, skip_arg);
  if (!out->body_skipped && block.body_length > 0) {
    ALKAID_RETURN_NOT_OK(ReadBlockBody(file, block, budget, out));
    out->body = internal::MessageBody::Of(out->body_buffer);
  }
  return Status::OK();
}


// Dictionaries that projection made unnecessary are not even read.
bool IsUnneededDictionary(const Message& message, const void* memo) {
  const auto* batch = message.header_as_DictionaryBatch();
  if (batch == nullptr) return false;
  const auto* entry = static_cast<const internal::DictionaryMemo*>(memo)->Find(batch->id());
  return entry != nullptr && !entry->needed;
}

}  // namespace

Status FileReader::LoadDictionaries() {
  State& s = *state_;
  if (s.dictionaries_loaded.load(std::memory_order_acquire)) return s.dictionary_status;
  std::lock_guard<std::mutex> lock(s.dictionary_mutex);
  if (s.dictionaries_loaded.load(std::memory_order_relaxed)) return s.dictionary_status;
  s.dictionary_status = LoadDictionariesLocked();
  s.dictionaries_loaded.store(true, std::memory_order_release);
  return s.dictionary_status;
}

Status FileReader::LoadDictionariesLocked() {
  State& s = *state_;
  // A footer may list one block many times. A block is decoded once: later
  // listings reuse the decoded values (which are immutable), so a delta
  // listed N times costs its bytes N times in the final dictionary (what the
  // format says it means) but is read, decompressed and validated only once.
  // Dictionaries whose values hold other dictionaries are decoded each time,
  // since they capture the nested dictionaries current at that point.
  std::map<int64_t, internal::DecodedDictionary> decoded_blocks;
  FramedMessage message;
  for (size_t i = 0; i < s.dictionary_blocks.size(); ++i) {
    const auto& block = s.dictionary_blocks[i];
    MessageLocation where{"dictionary block", static_cast<int64_t>(i), block.offset};
    s.core.stats().num_messages.fetch_add(1, std::memory_order_relaxed);
    auto cached = decoded_blocks.find(block.offset);
    if (cached != decoded_blocks.end()) {
      ALKAID_RETURN_NOT_OK(s.core.ApplyDictionary(cached->second, where));
      continue;
    }
    Status st = ReadBlockMessage(s.file, block, s.options, s.core.budget(), &message,
                                 IsUnneededDictionary, &s.core.memo());
    if (st.ok() &&
        message.message->header_type() != internal::fb::MessageHeader::DictionaryBatch) {
      st = Status::Invalid("expected a dictionary batch, found ",
                           internal::fb::EnumNameMessageHeader(message.message->header_type()));
    }
    ALKAID_RETURN_NOT_OK(internal::AtLocation(st, where));
    internal::DecodedDictionary dict;
    if (message.body_skipped) {
      dict.id = message.message->header_as_DictionaryBatch()->id();
      dict.is_delta = message.message->header_as_DictionaryBatch()->isDelta();
      dict.skipped = true;
    } else {
      ALKAID_ASSIGN_OR_RAISE(dict, s.core.DecodeDictionaryBatch(*message.message, message.body,
                                                                where));
    }
    ALKAID_RETURN_NOT_OK(s.core.ApplyDictionary(dict, where));
    const internal::DictionaryMemo::Entry* entry = s.core.memo().Find(dict.id);
    if (entry != nullptr && entry->nested_ids.empty()) {
      decoded_blocks.emplace(block.offset, std::move(dict));
    }
  }
  return s.core.MaterializeDictionaries();
}

Result<RecordBatchPtr> FileReader::ReadRecordBatch(int i) {
  State& s = *state_;
  if (i < 0 || static_cast<size_t>(i) >= s.batch_blocks.size()) {
    return Status::IndexError("record batch index ", i, " is out of range: the file has ",
                              s.batch_blocks.size());
  }
  ALKAID_RETURN_NOT_OK(LoadDictionaries());
  const auto& block = s.batch_blocks[static_cast<size_t>(i)];
  RecordBatchPtr* repeated = nullptr;
  if (!s.repeated_batches.empty()) {
    auto it = s.repeated_batches.find({block.offset, block.metadata_length, block.body_length});
    if (it != s.repeated_batches.end()) {
      repeated = &it->second;
      std::lock_guard<std::mutex> lock(s.repeated_mutex);
      if (*repeated != nullptr) return *repeated;
    }
  }
  ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, ReadRecordBatchBlock(i));
  if (repeated != nullptr) {
    std::lock_guard<std::mutex> lock(s.repeated_mutex);
    if (*repeated == nullptr) *repeated = batch;
    return *repeated;
  }
  return batch;
}

namespace {

// Body bytes closer than this are read together: one request instead of two
// costs less than the gap it reads for nothing.
constexpr int64_t kCoalesceGap = 8 * 1024;

// One contiguous run of body bytes read for a projection, and where it goes
// in the partial body.
struct BodySegment {
  int64_t begin;  // in the message body
  int64_t end;
  int64_t dest = 0;
};

// The selected buffers' byte ranges of a body, sorted and merged across gaps
// smaller than kCoalesceGap. Empty buffers need no bytes.
void CoalesceRanges(const internal::RecordBatchMeta& meta, const std::vector<uint32_t>& indices,
                    std::vector<BodySegment>* out) {
  out->clear();
  for (uint32_t index : indices) {
    const internal::BufferMeta& b = meta.buffers[index];
    if (b.length > 0) out->push_back({b.offset, b.offset + b.length});
  }
  std::sort(out->begin(), out->end(),
            [](const BodySegment& a, const BodySegment& b) { return a.begin < b.begin; });
  size_t n = 0;
  for (const BodySegment& r : *out) {
    if (n > 0 && r.begin <= (*out)[n - 1].end + kCoalesceGap) {
      (*out)[n - 1].end = std::max((*out)[n - 1].end, r.end);
    } else {
      (*out)[n++] = r;
    }
  }
  out->resize(n);
}

// The body of a projected record batch from a file that copies what it
// reads: only the selected columns' buffers are read, into one 64-byte
// aligned buffer where each run keeps its offset modulo 64 (so every buffer
// is exactly as aligned as in the whole body). False in *used when reading
// the whole body is as good (or the header is for ReadRecordBatch to refuse).
Status ReadPartialBody(io::RandomAccessFile* file, const internal::FileBlock& block,
                       const Message& message, const internal::ReaderCore& core,
                       MemoryPool* pool, internal::BatchScratch* scratch,
                       internal::PartialBody* partial, BufferPtr* body, bool* used) {
  *used = false;
  const int64_t body_length = block.body_length;
  if (!core.SelectedBuffers(message, body_length, scratch, &partial->indices).ok()) {
    return Status::OK();
  }
  std::vector<BodySegment> segments;
  CoalesceRanges(scratch->meta, partial->indices, &segments);
  int64_t cursor = 0;
  for (BodySegment& seg : segments) {
    const int64_t phase = seg.begin & 63;
    cursor = ((cursor + 63) & ~int64_t{63}) + phase;
    seg.dest = cursor;
    cursor += seg.end - seg.begin;
  }
  // Nearly everything selected: one read of the whole body is cheaper.
  if (cursor >= body_length - body_length / 8) return Status::OK();
  const int64_t file_body = block.offset + block.metadata_length;
  if (segments.size() > 1) {
    std::vector<io::ReadRange> ranges;
    ranges.reserve(segments.size());
    for (const BodySegment& seg : segments) {
      ranges.push_back({file_body + seg.begin, seg.end - seg.begin});
    }
    ALKAID_RETURN_NOT_OK(file->WillNeed(ranges));
  }
  ALKAID_ASSIGN_OR_RAISE(internal::Charge charge,
                         internal::Charge::Take(core.budget(), cursor, "reading a message body"));
  ALKAID_ASSIGN_OR_RAISE(auto buffer, AllocateBuffer(cursor, pool));
  for (const BodySegment& seg : segments) {
    const int64_t n = seg.end - seg.begin;
    ALKAID_ASSIGN_OR_RAISE(int64_t got,
                           file->ReadAt(file_body + seg.begin, n, buffer->mutable_data() + seg.dest));
    if (got != n) {
      return Status::Invalid("file ends inside the message body: wanted ", n, " bytes at offset ",
                             file_body + seg.begin, ", got ", got);
    }
  }
  // Each selected buffer moves with the run holding it.
  partial->declared_size = body_length;
  partial->offsets.resize(partial->indices.size());
  for (size_t k = 0; k < partial->indices.size(); ++k) {
    const internal::BufferMeta& b = scratch->meta.buffers[partial->indices[k]];
    int64_t moved = 0;
    if (b.length > 0) {
      auto seg = std::upper_bound(segments.begin(), segments.end(), b.offset,
                                  [](int64_t off, const BodySegment& r) { return off < r.begin; });
      --seg;  // the last run starting at or before the buffer holds it whole
      moved = seg->dest + (b.offset - seg->begin);
    }
    partial->offsets[k] = moved;
  }
  *body = internal::AttachCharge(BufferPtr(std::move(buffer)), std::move(charge));
  *used = true;
  return Status::OK();
}

// A mapped (zero-copy) file and a projection: tells the file which pages of
// the body the selected buffers occupy, so that it fetches exactly those
// (the reader advised AccessPattern::kRandom, so page faults read nothing
// else ahead).
Status AdviseSelectedBuffers(io::RandomAccessFile* file, const internal::FileBlock& block,
                             const Message& message, const internal::ReaderCore& core,
                             internal::BatchScratch* scratch) {
  std::vector<uint32_t> indices;
  // A header that does not fit the schema is reported by the load itself.
  if (!core.SelectedBuffers(message, block.body_length, scratch, &indices).ok()) {
    return Status::OK();
  }
  std::vector<BodySegment> segments;
  CoalesceRanges(scratch->meta, indices, &segments);
  const int64_t file_body = block.offset + block.metadata_length;
  std::vector<io::ReadRange> ranges;
  ranges.reserve(segments.size());
  for (const BodySegment& seg : segments) {
    ranges.push_back({file_body + seg.begin, seg.end - seg.begin});
  }
  return file->WillNeed(ranges);
}

constexpr int64_t kPrefetchMinBody = int64_t{1} << 20;

// Hints the selected ranges of a batch that is likely read next. Problems
// are left for the read itself to report.
void PrefetchSelected(io::RandomAccessFile* file, const internal::FileBlock& block,
                      const IpcReadOptions& options, const internal::ReaderCore& core,
                      internal::BatchScratch* scratch) {
  FramedMessage message;
  Status st = ReadBlockMessage(file, block, options, core.budget(), &message,
                               +[](const Message&, const void*) { return true; });
  if (!st.ok() || message.message->header_type() != internal::fb::MessageHeader::RecordBatch) {
    return;
  }
  (void)AdviseSelectedBuffers(file, block, *message.message, core, scratch);
}

}  // namespace

Result<RecordBatchPtr> FileReader::ReadRecordBatchBlock(int i) {
  State& s = *state_;
  const auto& block = s.batch_blocks[static_cast<size_t>(i)];
  MessageLocation where{"record batch block", i, block.offset};
  FramedMessage message;
  // A projection from a file that copies what it reads: the body is read
  // below, buffer by buffer, instead of whole.
  const bool partial_read = s.core.projects() && !s.file->supports_zero_copy();
  Status st = ReadBlockMessage(s.file, block, s.options, s.core.budget(), &message,
                               partial_read ? +[](const Message& m, const void*) {
                                 return m.header_type() == internal::fb::MessageHeader::RecordBatch;
                               } : nullptr);
  if (st.ok() && message.message->header_type() != internal::fb::MessageHeader::RecordBatch) {
    st = Status::Invalid("expected a record batch, found ",
                         internal::fb::EnumNameMessageHeader(message.message->header_type()));
  }
  ALKAID_RETURN_NOT_OK(internal::AtLocation(st, where));
  s.core.stats().num_messages.fetch_add(1, std::memory_order_relaxed);
  // Per-call loader state, so that several threads may read batches at once.
  std::unique_ptr<internal::BatchScratch> scratch;
  {
    std::lock_guard<std::mutex> lock(s.scratch_mutex);
    if (!s.free_scratch.empty()) {
      scratch = std::move(s.free_scratch.back());
      s.free_scratch.pop_back();
    }
  }
  if (scratch == nullptr) scratch = std::make_unique<internal::BatchScratch>();
  internal::PartialBody partial;
  bool use_partial = false;
  if (message.body_skipped) {
    st = ReadPartialBody(s.file, block, *message.message, s.core, s.options.pool, scratch.get(),
                         &partial, &message.body_buffer, &use_partial);
    if (st.ok() && !use_partial) {
      st = ReadBlockBody(s.file, block, s.core.budget(), &message);
    }
    if (st.ok()) message.body = internal::MessageBody::Of(message.body_buffer);
  } else if (s.core.projects() && message.body.size > 0) {
    // A mapped file: ask for exactly the selected buffers' pages (the
    // mapping was advised MADV_RANDOM, so nothing else is read ahead).
    st = AdviseSelectedBuffers(s.file, block, *message.message, s.core, scratch.get());
  }
  if (!st.ok()) {
    std::lock_guard<std::mutex> lock(s.scratch_mutex);
    s.free_scratch.push_back(std::move(scratch));
    return internal::AtLocation(st, where);
  }
  Result<RecordBatchPtr> batch =
      s.core.ReadRecordBatch(*message.message, message.body, where, scratch.get(),
                             use_partial ? &partial : nullptr);
  // A projection scanning a file in order: while the caller works on this
  // batch, the file fetches the next one's selected ranges. Only for large
  // bodies, where reading the next metadata twice costs nothing by
  // comparison (and never for memory, where there is nothing to fetch).
  if (batch.ok() && s.core.projects() && block.body_length >= kPrefetchMinBody &&
      static_cast<size_t>(i) + 1 < s.batch_blocks.size() &&
      s.last_projected.exchange(i, std::memory_order_relaxed) == i - 1) {
    PrefetchSelected(s.file, s.batch_blocks[static_cast<size_t>(i) + 1], s.options, s.core,
                     scratch.get());
  }
  {
    std::lock_guard<std::mutex> lock(s.scratch_mutex);
    s.free_scratch.push_back(std::move(scratch));
  }
  return batch;
}

Result<int64_t> FileReader::CountRows() {
  State& s = *state_;
  int64_t rows = 0;
  for (size_t i = 0; i < s.batch_blocks.size(); ++i) {
    const auto& block = s.batch_blocks[i];
    MessageLocation where{"record batch block", static_cast<int64_t>(i), block.offset};
    FramedMessage message;
    Status st = ReadBlockMessage(s.file, block, s.options, s.core.budget(), &message,
                                 +[](const Message&, const void*) { return true; });
    if (st.ok() && message.message->header_type() != internal::fb::MessageHeader::RecordBatch) {
      st = Status::Invalid("expected a record batch, found ",
                           internal::fb::EnumNameMessageHeader(message.message->header_type()));
    }
    if (st.ok()) st = internal::AddRowsOf(*message.message, &rows);
    ALKAID_RETURN_NOT_OK(internal::AtLocation(st, where));
  }
  return rows;
}

namespace {
// A pipeline over the record batch blocks from *cursor on, each batch a
// ReadRecordBatch (which may run on several threads at once); null when the
// options allow one thread only.
std::unique_ptr<internal::BatchPipeline> MakeFilePipeline(
    FileReader* reader, const std::vector<internal::FileBlock>& blocks,
    const IpcReadOptions& options, int* cursor) {
  const int window = internal::PipelineWindow(options);
  if (window < 2) return nullptr;
  using Claimed = internal::BatchPipeline::Claimed;
  auto claim = [reader, &blocks, cursor](const std::function<void()>&) -> Claimed {
    Claimed out;
    if (static_cast<size_t>(*cursor) >= blocks.size()) {
      out.ready.emplace(RecordBatchPtr());
      return out;
    }
    const int i = (*cursor)++;
    out.small = blocks[static_cast<size_t>(i)].body_length < internal::kPipelineMinBody;
    out.job = [reader, i] { return reader->ReadRecordBatch(i); };
    return out;
  };
  return std::make_unique<internal::BatchPipeline>(std::move(claim), window);
}
}  // namespace

Result<RecordBatchPtr> FileReader::Next() {
  State& s = *state_;
  // Threads: batches decoded side by side (batch_pipeline.h).
  if (s.options.use_threads && !s.one_thread) {
    if (!s.pipeline) s.pipeline = MakeFilePipeline(this, s.batch_blocks, s.options, &next_batch_);
    if (s.pipeline) return s.pipeline->Next();
    s.one_thread = true;
  }
  if (next_batch_ >= num_record_batches()) return RecordBatchPtr();
  return ReadRecordBatch(next_batch_++);
}

Result<std::vector<RecordBatchPtr>> FileReader::ReadAll() {
  State& s = *state_;
  std::vector<RecordBatchPtr> out;
  out.reserve(s.batch_blocks.size());
  int cursor = 0;  // its own: Next()'s is left where it is
  std::unique_ptr<internal::BatchPipeline> pipeline =
      s.options.use_threads ? MakeFilePipeline(this, s.batch_blocks, s.options, &cursor) : nullptr;
  if (pipeline) {
    while (true) {
      ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, pipeline->Next());
      if (batch == nullptr) break;
      out.push_back(std::move(batch));
    }
    return out;
  }
  for (int i = 0; i < num_record_batches(); ++i) {
    ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, ReadRecordBatch(i));
    out.push_back(std::move(batch));
  }
  return out;
}

const SchemaPtr& FileReader::schema() const { return state_->core.schema(); }
const DictionaryIds& FileReader::dictionary_ids() const { return state_->core.dictionary_ids(); }
int FileReader::num_record_batches() const { return static_cast<int>(state_->batch_blocks.size()); }
int FileReader::num_dictionaries() const { return static_cast<int>(state_->dictionary_blocks.size()); }
const MetadataPtr& FileReader::metadata() const { return state_->metadata; }
IpcDialect FileReader::dialect() const { return state_->dialect; }
ReadStats FileReader::stats() const { return state_->core.stats_snapshot(); }

}  // namespace alkaid::ipc
