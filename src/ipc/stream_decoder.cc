// StreamDecoder: the push API over an IPC stream (stream_message_decoder.h does the
// work).
#include "alkaid/ipc/reader.h"

#include "stream_message_decoder.h"

namespace alkaid::ipc {

// The public class names its decoder without naming the internal one.
class StreamDecoder::Impl : public internal::StreamMessageDecoder {
 public:
  using StreamMessageDecoder::StreamMessageDecoder;
};

StreamDecoder::StreamDecoder(std::shared_ptr<Listener> listener, const IpcReadOptions& options)
    : decoder_(std::make_unique<Impl>(std::move(listener), options)) {}
StreamDecoder::~StreamDecoder() = default;

Status StreamDecoder::Consume(const uint8_t* data, int64_t size) {
  if (size < 0) return Status::Invalid("StreamDecoder::Consume: negative size ", size);
  if (size == 0) return Status::OK();
  // The caller's memory is only valid during this call: everything kept is copied.
  auto view = std::make_shared<Buffer>(data, size);
  return decoder_->Consume(view, /*may_keep=*/false);
}

Status StreamDecoder::Consume(BufferPtr buffer) {
  return decoder_->Consume(buffer, /*may_keep=*/true);
}

int64_t StreamDecoder::next_required_size() const { return decoder_->next_required_size(); }
const SchemaPtr& StreamDecoder::schema() const { return decoder_->schema(); }
const DictionaryIds& StreamDecoder::dictionary_ids() const { return decoder_->dictionary_ids(); }
bool StreamDecoder::finished() const { return decoder_->finished(); }
ReadStats StreamDecoder::stats() const { return decoder_->stats(); }

}  // namespace alkaid::ipc
