// MessageDecoder: IPC messages handed over one at a time (metadata flatbuffer
// and body apart, as Arrow Flight carries them), decoded by the same reader
// core as every other alkaid IPC reader. MessageEncoder lives with the
// stream writer (writer.cc), whose messages it hands out unframed.
#include "alkaid/ipc/message.h"

#include <cstring>

#include "metadata.h"
#include "reader_core.h"

namespace alkaid::ipc {

namespace {

using internal::AtLocation;
using internal::MessageLocation;

class MessageDecoderImpl final : public MessageDecoder {
 public:
  explicit MessageDecoderImpl(const IpcReadOptions& options)
      : options_(internal::WithDefaultPool(options)) {}

  Result<Decoded> Consume(const BufferPtr& metadata, const BufferPtr& body) override {
    if (!error_.ok()) return error_;
    Decoded decoded;
    Status st = ConsumeUnchecked(metadata, body, &decoded);
    if (!st.ok()) {
      error_ = st;
      return st;
    }
    ++index_;
    return decoded;
  }

  const SchemaPtr& schema() const override {
    static const SchemaPtr kNone;
    return core_ ? core_->schema() : kNone;
  }

  ReadStats stats() const override { return core_ ? core_->stats_snapshot() : ReadStats(); }

 private:
  Status ConsumeUnchecked(const BufferPtr& metadata, const BufferPtr& body, Decoded* out) {
    const MessageLocation here{"message", index_, -1};
    ALKAID_ASSIGN_OR_RAISE(const internal::fb::Message* message, Verify(metadata, here));
    const int64_t body_length = message->bodyLength();
    const int64_t got = body == nullptr ? 0 : body->size();
    if (body_length < 0 || got != body_length) {
      return AtLocation(Status::Invalid("the body holds ", got, " bytes, the metadata says ",
                                        body_length),
                        here);
    }
    // What the message would take in a stream, for the memory budget.
    const int64_t wire_size =
        internal::FramedMetadataSize(metadata->size(), false) + body_length;
    const internal::fb::MessageHeader header = message->header_type();
    if (!core_) {
      if (header != internal::fb::MessageHeader::Schema) {
        return AtLocation(Status::Invalid("the first message must be a schema, not ",
                                          internal::fb::EnumNameMessageHeader(header)),
                          here);
      }
      auto core = std::make_unique<internal::ReaderCore>();
      ALKAID_RETURN_NOT_OK(
          AtLocation(core->Init(message->header_as_Schema(), options_, false), here));
      core_ = std::move(core);
      ++core_->stats().num_messages;
      core_->budget()->AddInput(wire_size);
      out->kind = MessageKind::kSchema;
      out->schema = core_->schema();
      return Status::OK();
    }
    RecordBatchPtr batch;
    ALKAID_RETURN_NOT_OK(core_->HandleStreamMessage(*message, internal::MessageBody::Of(body),
                                                    wire_size, here, &batch));
    if (header == internal::fb::MessageHeader::DictionaryBatch) {
      out->kind = MessageKind::kDictionaryBatch;
    } else {
      out->kind = MessageKind::kRecordBatch;
      out->batch = std::move(batch);
    }
    return Status::OK();
  }

  // The verified Message flatbuffer of `metadata` (copied first when it is
  // not 8-byte aligned, as flatbuffers reads it in place).
  Result<const internal::fb::Message*> Verify(const BufferPtr& metadata,
                                              const MessageLocation& here) {
    if (metadata == nullptr || metadata->size() == 0) {
      return AtLocation(Status::Invalid("the message has no metadata"), here);
    }
    const int64_t size = metadata->size();
    if (size > INT32_MAX) {
      return AtLocation(Status::Invalid("message metadata of ", size, " bytes exceeds 2 GiB"),
                        here);
    }
    const uint8_t* data = metadata->data();
    if (reinterpret_cast<uintptr_t>(data) % 8 != 0) {
      if (aligned_ == nullptr || aligned_->capacity() < size) {
        ALKAID_ASSIGN_OR_RAISE(aligned_, AllocateBuffer(size, options_.pool));
      }
      std::memcpy(aligned_->mutable_data(), data, static_cast<size_t>(size));
      data = aligned_->data();
    }
    Result<const internal::fb::Message*> verified =
        internal::VerifyMessage(data, size, "message metadata", options_.max_recursion_depth);
    if (!verified.ok()) return AtLocation(verified.status(), here);
    const internal::fb::Message* message = *verified;
    if (message->version() < internal::kMinReadableMetadataVersion ||
        message->version() > internal::kCurrentMetadataVersion) {
      return AtLocation(internal::CheckMetadataVersion(message->version(), "message"), here);
    }
    return message;
  }

  IpcReadOptions options_;
  std::unique_ptr<internal::ReaderCore> core_;
  std::shared_ptr<ResizableBuffer> aligned_;  // misaligned metadata, copied
  int64_t index_ = 0;
  Status error_;
};

}  // namespace

Result<std::unique_ptr<MessageDecoder>> MessageDecoder::Make(const IpcReadOptions& options) {
  return std::unique_ptr<MessageDecoder>(std::make_unique<MessageDecoderImpl>(options));
}

}  // namespace alkaid::ipc
