// Streams record batches through a pipe: a producer thread writes the Arrow IPC stream format
// into one end, and the consumer feeds whatever read() returns into a push decoder
// (ipc::StreamDecoder), which calls back as soon as a schema or a whole batch has arrived.
// The same consumer loop works for a socket or any other byte source that delivers data in
// pieces of arbitrary size.
#include <unistd.h>

#include <cstdint>
#include <iostream>
#include <memory>
#include <thread>

#include "alkaid/array.h"
#include "alkaid/builder.h"
#include "alkaid/io/output.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/type.h"

namespace {

// The producer: three batches of two rows each, written as a stream to `fd`.
alkaid::Status Produce(int fd) {
  auto schema = alkaid::schema({alkaid::field("seq", alkaid::int32()),
                                alkaid::field("label", alkaid::utf8())});
  ALKAID_ASSIGN_OR_RAISE(auto sink, alkaid::io::FileOutputStream::FromDescriptor(fd, true));
  ALKAID_ASSIGN_OR_RAISE(auto writer, alkaid::ipc::MakeStreamWriter(sink.get(), schema));
  for (int b = 0; b < 3; ++b) {
    alkaid::Int32Builder seq;
    alkaid::StringBuilder label;
    for (int i = 0; i < 2; ++i) {
      ALKAID_RETURN_NOT_OK(seq.Append(b * 2 + i));
      ALKAID_RETURN_NOT_OK(label.Append(i == 0 ? "even" : "odd"));
    }
    ALKAID_ASSIGN_OR_RAISE(auto seq_data, seq.Finish());
    ALKAID_ASSIGN_OR_RAISE(auto label_data, label.Finish());
    ALKAID_RETURN_NOT_OK(
        writer->WriteRecordBatch(*alkaid::RecordBatch::Make(schema, 2, {seq_data, label_data})));
  }
  ALKAID_RETURN_NOT_OK(writer->Close());  // the end-of-stream marker
  return sink->Close();                   // closes the pipe: the reader sees end of file
}

// The consumer's callbacks. They run on the thread that calls Consume().
class PrintBatches : public alkaid::ipc::StreamDecoder::Listener {
 public:
  alkaid::Status OnSchema(const alkaid::SchemaPtr& schema) override {
    std::cout << "schema: " << schema->ToString() << "\n";
    return alkaid::Status::OK();
  }
  alkaid::Status OnRecordBatch(alkaid::RecordBatchPtr batch) override {
    alkaid::Int32Array seq(batch->column_data(0));
    alkaid::StringArray label(batch->column_data(1));
    std::cout << "batch " << batches_++ << ":";
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      std::cout << " (" << seq.Value(i) << ", " << label.GetView(i) << ")";
    }
    std::cout << "\n";
    return alkaid::Status::OK();
  }
  alkaid::Status OnEOS() override {
    std::cout << "end of stream after " << batches_ << " batches\n";
    return alkaid::Status::OK();
  }

 private:
  int batches_ = 0;
};

alkaid::Status Consume(int fd) {
  alkaid::ipc::StreamDecoder decoder(std::make_shared<PrintBatches>());
  // Small reads on purpose: the decoder keeps partial messages until they are complete.
  uint8_t chunk[100];
  for (;;) {
    ssize_t n = read(fd, chunk, sizeof(chunk));
    if (n < 0) return alkaid::Status::IOError("read from pipe failed");
    if (n == 0) break;
    // This overload copies what it must keep, so `chunk` can be reused at once.
    ALKAID_RETURN_NOT_OK(decoder.Consume(chunk, n));
  }
  close(fd);
  if (!decoder.finished()) return alkaid::Status::Invalid("stream ended before its end marker");
  return alkaid::Status::OK();
}

}  // namespace

int main() {
  int fds[2];
  if (pipe(fds) != 0) {
    std::cerr << "error: pipe() failed\n";
    return 1;
  }
  alkaid::Status produced;
  std::thread producer([&] { produced = Produce(fds[1]); });
  alkaid::Status consumed = Consume(fds[0]);
  producer.join();
  for (const alkaid::Status& st : {produced, consumed}) {
    if (!st.ok()) {
      std::cerr << "error: " << st.ToString() << "\n";
      return 1;
    }
  }
  return 0;
}
