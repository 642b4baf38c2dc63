// Internal: the push-style stream state machine behind StreamDecoder: bytes
// pushed in chunks of any size go to the message framer part by part, and
// each whole message to the reader core. Not installed.
#pragma once

#include <cstdint>
#include <memory>

#include "alkaid/ipc/options.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/memory.h"
#include "message_framer.h"
#include "message_location.h"
#include "reader_core.h"

namespace alkaid::ipc::internal {

// Decodes an IPC stream pushed to it in chunks; one thread at a time.
class StreamMessageDecoder {
 public:
  StreamMessageDecoder(std::shared_ptr<StreamDecoder::Listener> listener,
                       const IpcReadOptions& options);

  // `may_keep`: the bytes stay valid and immutable (an owned Buffer), so
  // parts lying entirely inside them are used without copying.
  Status Consume(const BufferPtr& chunk, bool may_keep);

  int64_t next_required_size() const;
  const SchemaPtr& schema() const;
  const DictionaryIds& dictionary_ids() const;
  bool finished() const { return framer_.part() == MessageFramer::Part::kEndOfStream; }
  ReadStats stats() const;

 private:
  Status ConsumeUnchecked(const BufferPtr& chunk, bool may_keep);
  // Called with exactly framer_.need() bytes of a metadata or body part.
  Status OnPart(BufferPtr part);
  Status OnMessage(BufferPtr body);
  Status AppendToPending(const uint8_t* data, int64_t n);
  MessageLocation where() const {
    return {"stream message", message_index_, framer_.message_offset()};
  }

  std::shared_ptr<StreamDecoder::Listener> listener_;
  IpcReadOptions options_;
  std::unique_ptr<ReaderCore> core_;
  MessageFramer framer_;
  bool failed_ = false;
  std::shared_ptr<ResizableBuffer> pending_;
  int64_t pending_size_ = 0;
  uint8_t word_[4] = {};
  BufferPtr metadata_;
  std::shared_ptr<ResizableBuffer> aligned_;  // misaligned metadata, copied
  const fb::Message* message_ = nullptr;
  int64_t consumed_ = 0;        // bytes consumed so far (for error offsets)
  int64_t message_index_ = 0;
  Status error_;
};

}  // namespace alkaid::ipc::internal
