// MessageFramer: the one decoder of encapsulated message framing behind
// every IPC reader. See message_framer.h.
#include "message_framer.h"

#include <algorithm>
#include <cstring>

namespace alkaid::ipc::internal {

Status MessageFramer::OtherLength(int32_t length) {
  const int64_t at = start_ + consumed_ - 4;
  if (length == 0) {
    part_ = Part::kEndOfStream;
    need_ = 0;
    return Status::OK();
  }
  if (length < 0) {
    return Status::Invalid("negative metadata length ", length, " (length word at byte ", at,
                           ")");
  }
  return Status::Invalid("metadata length ", length, " does not fit: only ", limit_ - prefix_size_,
                         " bytes are left in ", input_, " after the ", prefix_size_,
                         "-byte prefix (length word at byte ", at, ")");
}

Status MessageFramer::OnMetadata(const uint8_t* data, std::shared_ptr<ResizableBuffer>* scratch) {
  const int64_t at = start_ + consumed_;
  const int64_t length = metadata_length_;
  if (reinterpret_cast<uintptr_t>(data) % 8 != 0) [[unlikely]] {
    // Legacy framing puts every flatbuffer at 4 mod 8; other inputs may put
    // it anywhere. One reused copy per reader.
    if (*scratch == nullptr || (*scratch)->capacity() < length) {
      ALKAID_ASSIGN_OR_RAISE(*scratch, AllocateBuffer(std::max<int64_t>(length, 4096), pool_));
    }
    std::memcpy((*scratch)->mutable_data(), data, static_cast<size_t>(length));
    data = (*scratch)->data();
  }
  const fb::Message* message;
  if (VerifyPlainBatchMessage(data, length)) [[likely]] {
    message = fb::GetMessage(data);
  } else {
    Result<const fb::Message*> verified =
        VerifyMessage(data, length, "message metadata", max_recursion_depth_);
    if (!verified.ok()) {
      return verified.status().WithContext("metadata at byte " + std::to_string(at));
    }
    message = *verified;
  }
  if (message->version() < kMinReadableMetadataVersion ||
      message->version() > kCurrentMetadataVersion) [[unlikely]] {
    return CheckMetadataVersion(message->version(), "message")
        .WithContext("metadata at byte " + std::to_string(at));
  }
  const int64_t body_length = message->bodyLength();
  if (body_length < 0) [[unlikely]] {
    return Status::Invalid("message body length is negative (", body_length,
                           ") in the metadata at byte ", at);
  }
  consumed_ += length;
  message_ = message;
  body_length_ = body_length;
  if (body_length == 0) {
    part_ = Part::kDone;
    need_ = 0;
  } else {
    part_ = Part::kBody;
    need_ = body_length;
  }
  return Status::OK();
}

Status MessageFramer::Truncated(int64_t got) const {
  const int64_t at = start_ + consumed_;
  switch (part_) {
    case Part::kPrefix:
      return Status::Invalid(input_, " ends inside a message prefix (", got,
                             " of 4 bytes, at byte ", at, ")");
    case Part::kLength:
      return Status::Invalid(input_, " ends inside a message length (", got,
                             " of 4 bytes, at byte ", at, ")");
    case Part::kMetadata:
      return Status::Invalid("metadata length ", metadata_length_, " exceeds the ", got,
                             " bytes left in ", input_, " (metadata at byte ", at, ")");
    case Part::kBody:
      return Status::Invalid("message body of ", body_length_, " bytes is truncated: only ", got,
                             " bytes left in ", input_, " (body at byte ", at, ")");
    default:
      return Status::Invalid(input_, " ends after a complete message");
  }
}

Status MessageFramer::MatchBlock(int64_t block_metadata_length, int64_t block_body_length) const {
  if (prefix_size_ + metadata_length_ != block_metadata_length) {
    return Status::Invalid("the block's metadata length ", block_metadata_length,
                           " disagrees with the message it points to (", prefix_size_,
                           "-byte prefix + ", metadata_length_, " bytes of metadata at byte ",
                           start_ + prefix_size_, ")");
  }
  if (body_length_ != block_body_length) {
    return Status::Invalid("the block's body length ", block_body_length,
                           " disagrees with the message's body length ", body_length_,
                           " (metadata at byte ", start_ + prefix_size_, ")");
  }
  return Status::OK();
}

}  // namespace alkaid::ipc::internal
