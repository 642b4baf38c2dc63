// StreamReader: pulls an IPC stream from an InputStream, or parses one held
// in memory in place, one message at a time.
#include "alkaid/ipc/reader.h"

#include <algorithm>
#include <cstring>
#include <functional>

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

namespace {

constexpr int64_t kScratchMetadataLimit = 64 * 1024;

// Where the bytes of a stream come from. Any InputStream goes through its
// virtual interface; a whole stream already in memory is parsed in place,
// which matters when batches are small and per-message overhead dominates.
class StreamSource {
 public:
  StreamSource(io::InputStream* in, MemoryPool* pool) : in_(in), pool_(pool) {}
  // A 4-byte word into out; fewer bytes (*got) only at the end of the input.
  Status ReadWord(uint8_t* out, int64_t* got) {
    ALKAID_ASSIGN_OR_RAISE(*got, in_->Read(4, out));
    return Status::OK();
  }
  // Up to n bytes of metadata, valid while `out` is.
  Status ReadMetadata(int64_t n, FramedMessage* out, const uint8_t** data, int64_t* got) {
    if (n <= kScratchMetadataLimit) {
      if (!out->scratch || out->scratch->capacity() < n) {
        ALKAID_ASSIGN_OR_RAISE(out->scratch, AllocateBuffer(std::max<int64_t>(n, 4096), pool_));
      }
      ALKAID_ASSIGN_OR_RAISE(*got, in_->Read(n, out->scratch->mutable_data()));
      *data = out->scratch->data();
      return Status::OK();
    }
    // Large metadata: the stream decides how to deliver it (incremental
    // growth for pipes), never trusting the length.
    ALKAID_ASSIGN_OR_RAISE(out->metadata, in_->Read(n));
    *got = out->metadata->size();
    *data = out->metadata->data();
    return Status::OK();
  }
  Status ReadBody(int64_t n, FramedMessage* out) {
    ALKAID_ASSIGN_OR_RAISE(out->body_buffer, in_->Read(n));
    out->body = internal::MessageBody::Of(out->body_buffer);
    return Status::OK();
  }

 private:
  io::InputStream* in_;
  MemoryPool* pool_;
};

class MemorySource {
 public:
  MemorySource(const BufferPtr& buffer, int64_t* position) : buffer_(buffer), position_(position) {}
  Status ReadWord(uint8_t* out, int64_t* got) {
    *got = Take(4);
    const uint8_t* from = buffer_->data() + *position_ - *got;
    if (*got == 4) [[likely]] {
      std::memcpy(out, from, 4);  // a constant size: one load
    } else {
      std::memcpy(out, from, static_cast<size_t>(*got));
    }
    return Status::OK();
  }
  // The metadata in place: the stream's buffer outlives the message.
  Status ReadMetadata(int64_t n, FramedMessage*, const uint8_t** data, int64_t* got) {
    *got = Take(n);
    *data = buffer_->data() + *position_ - *got;
    return Status::OK();
  }
  // The body points into the stream's buffer, which keeps it alive.
  Status ReadBody(int64_t n, FramedMessage* out) {
    const int64_t got = Take(n);
    out->body = internal::MessageBody{buffer_->data() + *position_ - got, got, &buffer_};
    return Status::OK();
  }

 private:
  int64_t Take(int64_t n) {
    const int64_t got = std::min(n, buffer_->size() - *position_);
    *position_ += got;
    return got;
  }
  const BufferPtr& buffer_;
  int64_t* position_;
};

// Reads the next message of a stream through `framer`. *got is false at the
// end-of-stream marker or when the input ends cleanly between messages.
template <typename Source>
[[gnu::always_inline]] inline Status ReadFramedMessage(Source& in, MessageFramer* framer,
                                                FramedMessage* out, bool* got) {
  *got = false;
  uint8_t word[4];
  do {
    int64_t n = 0;
    ALKAID_RETURN_NOT_OK(in.ReadWord(word, &n));
    if (n < 4) [[unlikely]] {
      if (n == 0 && framer->part() == Part::kPrefix) return Status::OK();
      return framer->Truncated(n);
    }
    ALKAID_RETURN_NOT_OK(framer->OnWord(LoadLE32(word)));
  } while (framer->part() == Part::kLength);
  if (framer->part() == Part::kEndOfStream) return Status::OK();
  const uint8_t* metadata = nullptr;
  int64_t size = 0;
  ALKAID_RETURN_NOT_OK(in.ReadMetadata(framer->need(), out, &metadata, &size));
  if (size < framer->need()) [[unlikely]] return framer->Truncated(size);
  ALKAID_RETURN_NOT_OK(framer->OnMetadata(metadata, &out->scratch));
  out->message = framer->message();
  if (framer->part() == Part::kBody) {
    ALKAID_RETURN_NOT_OK(in.ReadBody(framer->need(), out));
    if (out->body.size < framer->need()) [[unlikely]] return framer->Truncated(out->body.size);
    framer->OnBody();
  } else {
    out->body = internal::MessageBody{};
  }
  out->wire_size = framer->wire_size();
  *got = true;
  return Status::OK();
}

}  // namespace

struct StreamReader::State {
  std::shared_ptr<io::InputStream> owned_stream;
  io::InputStream* stream = nullptr;
  // Set instead of `stream` for a stream held in memory.
  BufferPtr memory;
  int64_t memory_position = 0;
  IpcReadOptions options;
  internal::ReaderCore core;
  MessageFramer framer;
  FramedMessage message;
  MessageLocation where;  // of `message`
  int64_t message_index = 0;
  bool finished = false;
  // use_threads: batches decoded side by side (batch_pipeline.h); reset
  // first by the destructor.
  std::unique_ptr<internal::BatchPipeline> pipeline;
  bool one_thread = false;  // use_threads, but the options allow one thread
};

StreamReader::StreamReader() : state_(std::make_unique<State>()) {}
StreamReader::~StreamReader() {
  // A batch a pool thread is decoding ends before anything it uses goes.
  if (state_) state_->pipeline.reset();
}

Result<std::unique_ptr<StreamReader>> StreamReader::Open(io::InputStream* stream,
                                                         const IpcReadOptions& options) {
  if (stream == nullptr) return Status::Invalid("StreamReader::Open: null input stream");
  std::unique_ptr<StreamReader> reader(new StreamReader());
  reader->state_->stream = stream;
  reader->state_->options = internal::WithDefaultPool(options);
  ALKAID_RETURN_NOT_OK(reader->ReadSchema());
  return reader;
}

Result<std::unique_ptr<StreamReader>> StreamReader::Open(std::shared_ptr<io::InputStream> stream,
                                                         const IpcReadOptions& options) {
  // The caller's reference keeps the stream alive until the reader holds one.
  ALKAID_ASSIGN_OR_RAISE(std::unique_ptr<StreamReader> reader, Open(stream.get(), options));
  reader->state_->owned_stream = std::move(stream);
  return reader;
}

Result<std::unique_ptr<StreamReader>> StreamReader::Open(BufferPtr buffer,
                                                         const IpcReadOptions& options) {
  if (buffer == nullptr) return Status::Invalid("StreamReader::Open: null buffer");
  std::unique_ptr<StreamReader> reader(new StreamReader());
  reader->state_->memory = std::move(buffer);
  reader->state_->options = internal::WithDefaultPool(options);
  ALKAID_RETURN_NOT_OK(reader->ReadSchema());
  return reader;
}

namespace {
// Frames the next message of a stream reader's state `s` into *out (false at
// the end of the stream).
template <typename ReaderState>
// Frames the next message into `out`. At the end of the stream sets *got
// false and marks the reader finished; otherwise *where says where it sits.
[[gnu::always_inline]] inline Status ReadStreamMessage(ReaderState& s, FramedMessage* out,
                                                       bool* got, MessageLocation* where) {
  s.framer.Begin(s.framer.offset());
  Status st;
  if (s.memory != nullptr) {
    MemorySource source(s.memory, &s.memory_position);
    st = ReadFramedMessage(source, &s.framer, out, got);
  } else {
    StreamSource source(s.stream, s.options.pool);
    st = ReadFramedMessage(source, &s.framer, out, got);
  }
  if (!st.ok()) [[unlikely]] {
    return internal::AtLocation(st, {"stream message", s.message_index, s.framer.message_offset()});
  }
  if (!*got) {
    s.finished = true;
    return Status::OK();
  }
  *where = MessageLocation{"stream message", s.message_index, s.framer.message_offset()};
  ++s.message_index;
  return Status::OK();
}

// One record batch claimed by a stream reader's pipeline: its own framed
// message (the reader frames the next ones meanwhile) and loader scratch.
struct PendingBatch {
  FramedMessage message;
  internal::BatchScratch scratch;
  MessageLocation where;
};
}  // namespace

// Frames the next message (false at the end of the stream).
[[gnu::always_inline]] inline Status StreamReader::ReadOneMessage(bool* got) {
  return ReadStreamMessage(*state_, &state_->message, got, &state_->where);
}

// Open → schema: the first message must be one.
Status StreamReader::ReadSchema() {
  State& s = *state_;
  s.framer.Configure(s.options.pool, s.options.max_recursion_depth, "the stream");
  MessageLocation where{"stream message", 0, 0};
  bool got = false;
  ALKAID_RETURN_NOT_OK(ReadOneMessage(&got));
  if (!got) return Status::Invalid("the stream ends before its schema message");
  const Message& message = *s.message.message;
  if (message.header_type() != internal::fb::MessageHeader::Schema) {
    return internal::AtLocation(
        Status::Invalid("the first message must be a schema, not ",
                        internal::fb::EnumNameMessageHeader(message.header_type())),
        where);
  }
  ALKAID_RETURN_NOT_OK(
      internal::AtLocation(s.core.Init(message.header_as_Schema(), s.options, false), where));
  ++s.core.stats().num_messages;
  s.core.budget()->AddInput(s.message.wire_size);
  return Status::OK();
}

// The batch loop: read the next message, decode it (dictionary batches are
// applied on the way). Inlined into Next(): it is the per-batch path.
[[gnu::always_inline]] inline Result<RecordBatchPtr> StreamReader::NextBatch() {
  State& s = *state_;
  while (!s.finished) {
    bool got = false;
    ALKAID_RETURN_NOT_OK(ReadOneMessage(&got));
    if (!got) break;
    const MessageLocation& where = s.where;
    RecordBatchPtr batch;
    ALKAID_RETURN_NOT_OK(s.core.HandleStreamMessage(*s.message.message, s.message.body,
                                                    s.message.wire_size, where, &batch));
    if (batch) return batch;
  }
  return RecordBatchPtr();
}

// Schema → batches.
Result<RecordBatchPtr> StreamReader::Next() {
  State& s = *state_;
  // Threads: batches decoded side by side (batch_pipeline.h).
  if (s.options.use_threads) [[unlikely]] return NextPipelined();
  return NextBatch();
}

// The batch loop split for the pipeline: framing and dictionaries here, in
// order; each record batch's decoding as a job.
Result<RecordBatchPtr> StreamReader::NextPipelined() {
  State& s = *state_;
  if (!s.pipeline) {
    const int window = s.one_thread ? 1 : internal::PipelineWindow(s.options);
    if (window < 2) {
      s.one_thread = true;
      return NextBatch();
    }
    using Claimed = internal::BatchPipeline::Claimed;
    auto claim = [this](const std::function<void()>& drain) -> Claimed {
      State& s = *state_;
      Claimed out;
      while (!s.finished) {
        auto p = std::make_shared<PendingBatch>();
        bool got = false;
        Status st = ReadStreamMessage(s, &p->message, &got, &p->where);
        if (!st.ok()) {
          out.ready.emplace(std::move(st));
          return out;
        }
        if (!got) break;
        const Message& message = *p->message.message;
        if (message.header_type() == internal::fb::MessageHeader::RecordBatch) {
          s.core.CountStreamMessage(p->message.wire_size);
          if (s.core.memo().has_pending()) {
            // Running batches read the dictionaries. (The dictionary batch
            // that left this pending drained them already; kept so that
            // the rule does not depend on that.)
            drain();
            st = internal::AtLocation(s.core.MaterializeDictionaries(), p->where);
            if (!st.ok()) {
              out.ready.emplace(std::move(st));
              return out;
            }
          }
          out.small = p->message.body.size < internal::kPipelineMinBody;
          out.job = [this, p]() -> Result<RecordBatchPtr> {
            RecordBatchPtr batch;
            ALKAID_RETURN_NOT_OK(state_->core.ReadRecordBatchInto(
                *p->message.message, p->message.body, p->where, &p->scratch, nullptr, &batch));
            return batch;
          };
          return out;
        }
        drain();  // a dictionary batch changes what running batches read
        RecordBatchPtr none;
        st = s.core.HandleStreamMessage(message, p->message.body, p->message.wire_size, p->where,
                                        &none);
        if (!st.ok()) {
          out.ready.emplace(std::move(st));
          return out;
        }
      }
      out.ready.emplace(RecordBatchPtr());
      return out;
    };
    s.pipeline = std::make_unique<internal::BatchPipeline>(std::move(claim), window);
  }
  return s.pipeline->Next();
}

Result<std::vector<RecordBatchPtr>> StreamReader::ReadAll() { return ReadRemaining(); }

Result<int64_t> StreamReader::CountRows() {
  State& s = *state_;
  int64_t rows = 0;
  // Batches the pipeline claimed are decoded and counted, in order;
  // nothing more is decoded.
  if (s.pipeline) {
    std::vector<Result<RecordBatchPtr>> ahead = s.pipeline->TakeAhead(false);
    s.pipeline.reset();
    for (auto& r : ahead) {
      ALKAID_RETURN_NOT_OK(r.status());
      if (*r != nullptr) rows += (*r)->num_rows();
    }
  }
  while (!s.finished) {
    bool got = false;
    ALKAID_RETURN_NOT_OK(ReadOneMessage(&got));
    if (!got) break;
    const MessageLocation& where = s.where;
    const Message& message = *s.message.message;
    switch (message.header_type()) {
      case internal::fb::MessageHeader::RecordBatch:
        ALKAID_RETURN_NOT_OK(internal::AtLocation(internal::AddRowsOf(message, &rows), where));
        break;
      case internal::fb::MessageHeader::DictionaryBatch: break;
      default:
        return internal::AtLocation(
            Status::Invalid("unexpected ", internal::fb::EnumNameMessageHeader(message.header_type()),
                            " message after the schema"),
            where);
    }
  }
  return rows;
}

const SchemaPtr& StreamReader::schema() const { return state_->core.schema(); }
const DictionaryIds& StreamReader::dictionary_ids() const { return state_->core.dictionary_ids(); }
ReadStats StreamReader::stats() const { return state_->core.stats_snapshot(); }

}  // namespace alkaid::ipc
