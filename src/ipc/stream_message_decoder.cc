// StreamMessageDecoder: the push-style stream state machine behind StreamDecoder.
#include "stream_message_decoder.h"

#include <algorithm>
#include <cstring>

namespace alkaid::ipc::internal {

using Part = MessageFramer::Part;

StreamMessageDecoder::StreamMessageDecoder(std::shared_ptr<StreamDecoder::Listener> listener,
                                           const IpcReadOptions& options)
    : listener_(std::move(listener)), options_(WithDefaultPool(options)) {
  framer_.Configure(options_.pool, options_.max_recursion_depth, "the stream");
  framer_.Begin(0);
}

const SchemaPtr& StreamMessageDecoder::schema() const {
  static const SchemaPtr kNone;
  return core_ ? core_->schema() : kNone;
}

const DictionaryIds& StreamMessageDecoder::dictionary_ids() const {
  static const DictionaryIds kNone;
  return core_ ? core_->dictionary_ids() : kNone;
}

ReadStats StreamMessageDecoder::stats() const {
  return core_ ? core_->stats_snapshot() : ReadStats();
}

int64_t StreamMessageDecoder::next_required_size() const {
  if (failed_) return 0;
  return framer_.need() - pending_size_;
}

Status StreamMessageDecoder::Consume(const BufferPtr& chunk, bool may_keep) {
  if (failed_) return error_;
  if (chunk == nullptr || chunk->size() == 0) return Status::OK();
  if (finished()) {
    error_ = Status::Invalid("StreamDecoder: ", chunk->size(),
                             " bytes arrived after the end-of-stream marker (byte ", consumed_, ")");
    failed_ = true;
    return error_;
  }
  Status st = ConsumeUnchecked(chunk, may_keep);
  if (!st.ok()) {
    error_ = st;
    failed_ = true;
    pending_.reset();
    pending_size_ = 0;
  }
  return st;
}

Status StreamMessageDecoder::AppendToPending(const uint8_t* data, int64_t n) {
  if (!pending_) {
    // Grow with the bytes that actually arrive: the length may be a lie.
    ALKAID_ASSIGN_OR_RAISE(pending_, AllocateBuffer(0, options_.pool));
    pending_size_ = 0;
  }
  int64_t wanted = pending_size_ + n;
  if (wanted > pending_->capacity()) {
    int64_t grown = std::min(framer_.need(), std::max(wanted, pending_->capacity() * 2));
    ALKAID_RETURN_NOT_OK(pending_->Reserve(grown));
  }
  ALKAID_RETURN_NOT_OK(pending_->Resize(wanted));
  std::memcpy(pending_->mutable_data() + pending_size_, data, static_cast<size_t>(n));
  pending_size_ = wanted;
  return Status::OK();
}

// Pushed bytes go to the framer part by part: prefix words are gathered in
// place, metadata and bodies used in place when the caller's buffer holds
// them whole, copied otherwise.
Status StreamMessageDecoder::ConsumeUnchecked(const BufferPtr& chunk, bool may_keep) {
  const uint8_t* data = chunk->data();
  const int64_t size = chunk->size();
  int64_t pos = 0;
  while (pos < size) {
    if (finished()) {
      return Status::Invalid("StreamDecoder: ", size - pos,
                             " bytes follow the end-of-stream marker (byte ", consumed_, ")");
    }
    const int64_t available = size - pos;
    const int64_t need = framer_.need();
    const Part part = framer_.part();
    if (part == Part::kPrefix || part == Part::kLength) {
      const int64_t take = std::min(available, need - pending_size_);
      std::memcpy(word_ + pending_size_, data + pos, static_cast<size_t>(take));
      pos += take;
      consumed_ += take;
      pending_size_ += take;
      if (pending_size_ == need) {
        pending_size_ = 0;
        ALKAID_RETURN_NOT_OK(AtLocation(framer_.OnWord(LoadLE32(word_)), where()));
        if (finished()) ALKAID_RETURN_NOT_OK(listener_->OnEOS());
      }
      continue;
    }
    if (pending_size_ == 0 && available >= need && may_keep) {
      // The whole part lies inside the caller's buffer: use it in place.
      BufferPtr in_place = (pos == 0 && need == size) ? chunk : SliceBuffer(chunk, pos, need);
      pos += need;
      consumed_ += need;
      ALKAID_RETURN_NOT_OK(OnPart(std::move(in_place)));
      continue;
    }
    const int64_t take = std::min(available, need - pending_size_);
    ALKAID_RETURN_NOT_OK(AppendToPending(data + pos, take));
    pos += take;
    consumed_ += take;
    if (pending_size_ == need) {
      BufferPtr whole = std::move(pending_);
      pending_.reset();
      pending_size_ = 0;
      ALKAID_RETURN_NOT_OK(OnPart(std::move(whole)));
    }
  }
  return Status::OK();
}

Status StreamMessageDecoder::OnPart(BufferPtr part) {
  if (framer_.part() == Part::kMetadata) {
    metadata_ = std::move(part);
    ALKAID_RETURN_NOT_OK(AtLocation(framer_.OnMetadata(metadata_->data(), &aligned_), where()));
    message_ = framer_.message();
    if (framer_.part() == Part::kDone) return OnMessage(nullptr);
    return Status::OK();
  }
  framer_.OnBody();
  return OnMessage(std::move(part));
}

Status StreamMessageDecoder::OnMessage(BufferPtr body) {
  const MessageLocation here = where();
  const int64_t wire_size = framer_.wire_size();
  const fb::Message& message = *message_;
  if (!core_) {
    if (message.header_type() != fb::MessageHeader::Schema) {
      return AtLocation(Status::Invalid("the first message must be a schema, not ",
                                        fb::EnumNameMessageHeader(message.header_type())),
                        here);
    }
    auto core = std::make_unique<ReaderCore>();
    ALKAID_RETURN_NOT_OK(AtLocation(core->Init(message.header_as_Schema(), options_, false), here));
    core_ = std::move(core);
    ++core_->stats().num_messages;
    core_->budget()->AddInput(wire_size);
    ALKAID_RETURN_NOT_OK(listener_->OnSchema(core_->schema()));
  } else {
    RecordBatchPtr batch;
    ALKAID_RETURN_NOT_OK(core_->HandleStreamMessage(message, internal::MessageBody::Of(body),
                                                    wire_size, here, &batch));
    if (batch) ALKAID_RETURN_NOT_OK(listener_->OnRecordBatch(std::move(batch)));
  }
  // Ready for the next message.
  ++message_index_;
  message_ = nullptr;
  metadata_.reset();
  framer_.Begin(consumed_);
  return Status::OK();
}

}  // namespace alkaid::ipc::internal
