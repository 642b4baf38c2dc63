// Internal: the read side of the framing of encapsulated IPC messages (see
// metadata.h for the byte layout). One decoder that the stream reader, the
// file reader's block reads and the push decoder (StreamDecoder) all drive,
// so that every input gets the same checks, the same limits and the same
// error messages. Not installed.
//
// A message is framed in parts. The caller feeds each part whole, in order,
// and gets told what comes next and how many bytes it needs:
//
//   kPrefix   4 bytes: the continuation marker, or (legacy) the length
//   kLength   4 bytes: the metadata length, after a continuation marker
//   kMetadata need() bytes: the Message flatbuffer and its padding
//   kBody     need() bytes: the body the flatbuffer declares
//
// ending in kDone (one message) or kEndOfStream (a zero length). Where the
// bytes come from (a pull stream, a file block, pushed chunks) is the
// caller's business; when its input ends early, Truncated() says so.
#pragma once

#include <cstdint>
#include <memory>

#include "alkaid/memory.h"
#include "metadata.h"

namespace alkaid::ipc::internal {

// Not installed. What the tests call through a shared library (BUILD_SHARED_LIBS=ON) is
// marked ALKAID_EXPORT; the rest stays hidden.

inline uint32_t LoadLE32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

class ALKAID_EXPORT MessageFramer {
 public:
  enum class Part : uint8_t { kPrefix, kLength, kMetadata, kBody, kDone, kEndOfStream };

  // `input` names where the bytes come from in error messages ("the
  // stream"); it must outlive the framer.
  MessageFramer(MemoryPool* pool, int max_recursion_depth, const char* input)
      : pool_(pool), max_recursion_depth_(max_recursion_depth), input_(input) {}
  MessageFramer() = default;
  void Configure(MemoryPool* pool, int max_recursion_depth, const char* input) {
    pool_ = pool;
    max_recursion_depth_ = max_recursion_depth;
    input_ = input;
  }

  // Starts a message at byte `offset` of the input. `limit` >= 0: the prefix
  // and the metadata must fit in that many bytes (a file block's metadata
  // length); a metadata length reaching past it fails as soon as it is read.
  void Begin(int64_t offset, int64_t limit = -1) {
    start_ = offset;
    limit_ = limit;
    consumed_ = 0;
    // prefix_size_, metadata_length_, body_length_ and message_ are set
    // by the parts that determine them, before anything reads them.
    part_ = Part::kPrefix;
    need_ = 4;
  }

  Part part() const { return part_; }
  // Bytes the current part needs (0 in kDone and kEndOfStream).
  int64_t need() const { return need_; }
  // Byte offset in the input of the message, and of the next byte expected.
  int64_t message_offset() const { return start_; }
  int64_t offset() const { return start_ + consumed_; }

  // A complete 4-byte word of a kPrefix or kLength part, little-endian.
  Status OnWord(uint32_t value) {
    consumed_ += 4;
    if (part_ == Part::kPrefix) {
      prefix_size_ = 4;
      if (value == kContinuationMarker) {
        part_ = Part::kLength;
        return Status::OK();
      }
    } else {
      prefix_size_ = 8;
    }
    const auto length = static_cast<int32_t>(value);
    if (length > 0 && (limit_ < 0 || length <= limit_ - prefix_size_)) [[likely]] {
      metadata_length_ = length;
      part_ = Part::kMetadata;
      need_ = length;
      return Status::OK();
    }
    return OtherLength(length);
  }

  // The need() bytes of a kMetadata part. They must stay valid (and so must
  // `*scratch`, where metadata that is not 8-byte aligned is copied, since
  // the flatbuffer accessors load scalars in place) as long as the returned
  // message is used. Verifies the flatbuffer and checks the metadata
  // version and the body length. The message is then message().
  Status OnMetadata(const uint8_t* data, std::shared_ptr<ResizableBuffer>* scratch);

  // The need() bytes of a kBody part arrived.
  void OnBody() {
    consumed_ += body_length_;
    part_ = Part::kDone;
    need_ = 0;
  }

  // The input ended `got` (< need()) bytes into the current part.
  [[gnu::cold]] Status Truncated(int64_t got) const;

  // A file block: its lengths must be the message's own (call once the
  // metadata is decoded).
  Status MatchBlock(int64_t block_metadata_length, int64_t block_body_length) const;

  const fb::Message* message() const { return message_; }
  int64_t prefix_size() const { return prefix_size_; }
  int64_t metadata_length() const { return metadata_length_; }
  int64_t body_length() const { return body_length_; }
  // Prefix + metadata + body.
  int64_t wire_size() const { return prefix_size_ + metadata_length_ + body_length_; }

 private:
  // Zero (end of stream), negative, or past the limit.
  Status OtherLength(int32_t length);

  MemoryPool* pool_ = nullptr;
  int max_recursion_depth_ = kDefaultMaxRecursionDepth;
  const char* input_ = "the input";
  int64_t start_ = 0;
  int64_t limit_ = -1;
  int64_t consumed_ = 0;
  int64_t prefix_size_ = 0;
  int64_t metadata_length_ = 0;
  int64_t body_length_ = 0;
  const fb::Message* message_ = nullptr;
  Part part_ = Part::kPrefix;
  int64_t need_ = 4;
};

}  // namespace alkaid::ipc::internal
