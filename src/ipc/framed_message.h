// Internal: one framed IPC message as the stream and file readers hold it
// while they process it. Not installed.
#pragma once

#include <cstdint>
#include <memory>

#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "message_body.h"
#include "metadata.h"

namespace alkaid::ipc::internal {

// One framed message and what keeps its bytes alive while it is processed.
struct FramedMessage {
  FramedMessage() = default;
  // `body` may point at `body_buffer`: never copied or moved.
  FramedMessage(const FramedMessage&) = delete;
  FramedMessage& operator=(const FramedMessage&) = delete;

  BufferPtr metadata;  // when the source made a buffer for the metadata
  const fb::Message* message = nullptr;
  MessageBody body;
  BufferPtr body_buffer;  // owns `body` when the source made a buffer for it
  bool body_skipped = false;  // file reader: a dictionary nobody needs
  int64_t wire_size = 0;
  // Reused for small metadata read from a stream, and for metadata the
  // framer had to align: the flatbuffer is only needed while its message is
  // processed, so copying a few hundred bytes into aligned scratch memory is
  // cheaper than allocating a buffer per message.
  std::shared_ptr<ResizableBuffer> scratch;
};

// Adds the row count of a RecordBatch message's header to *rows (CountRows
// of both readers, which decode nothing else).
inline Status AddRowsOf(const fb::Message& message, int64_t* rows) {
  const auto* batch = message.header_as_RecordBatch();
  const int64_t length = batch->length();
  if (length < 0) return Status::Invalid("record batch length ", length, " is negative");
  if (__builtin_add_overflow(*rows, length, rows)) {
    return Status::Invalid("the record batches hold more than 2^63 rows in all");
  }
  return Status::OK();
}

}  // namespace alkaid::ipc::internal
