// Arrow integration JSON ({"schema", "batches", "dictionaries"}), plain or
// gzip-compressed: read one batch at a time from a file; standard input is
// held in memory (the reader may need to read the document twice).
#include "alkaid/integration_json/integration.h"
#include "source.h"
#include "text_sniff.h"

namespace alkaid::cli {

namespace {

bool IsGzip(std::string_view head) {
  return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
         static_cast<unsigned char>(head[1]) == 0x8b;
}

int Sniff(std::string_view head, const std::string&) {
  // Compressed: only this source reads gzip, so it is tried (and its error
  // says what the data is when it is not integration JSON).
  if (IsGzip(head)) return 20;
  if (!LooksLikeText(head) || LooksLikeJsonLines(head)) return 0;
  std::string_view body = TextBody(head);
  if (body.empty() || body[0] != '{') return 0;
  return body.find("\"schema\"") != std::string_view::npos ? 90 : 0;
}

// The reader as a RecordBatchReader, so that ReaderInput hands out (and
// projects) its batches.
class IntegrationBatches final : public RecordBatchReader {
 public:
  explicit IntegrationBatches(std::unique_ptr<integration_json::IntegrationJsonReader> reader)
      : reader_(std::move(reader)) {}
  const SchemaPtr& schema() const override { return reader_->schema(); }
  Result<RecordBatchPtr> Next() override { return reader_->Next(); }
  const DictionaryIds& dictionary_ids() const { return reader_->dictionary_ids(); }

 private:
  std::unique_ptr<integration_json::IntegrationJsonReader> reader_;
};

Result<std::unique_ptr<Input>> Open(InputBytes* bytes, const SourceOptions& options) {
  auto open = [bytes]() -> Result<std::unique_ptr<integration_json::IntegrationJsonReader>> {
    if (!bytes->is_stdin())
      return integration_json::IntegrationJsonReader::OpenFile(bytes->path());
    ALKAID_ASSIGN_OR_RAISE(auto all, bytes->RandomAccess());
    ALKAID_ASSIGN_OR_RAISE(int64_t size, all->GetSize());
    ALKAID_ASSIGN_OR_RAISE(BufferPtr text, all->ReadAt(0, size));
    return integration_json::IntegrationJsonReader::OpenText(std::string(text->view()));
  };
  auto reader = open();
  if (!reader.ok() && IsGzip(bytes->head()))
    return Status::Invalid("this is gzip-compressed data that is not integration JSON (",
                           reader.status().message(), "); decompress it first");
  ALKAID_RETURN_NOT_OK(reader.status());
  auto batches = std::make_unique<IntegrationBatches>(std::move(reader).MoveValueUnsafe());
  DictionaryIds ids = batches->dictionary_ids();
  ALKAID_ASSIGN_OR_RAISE(auto in, ReaderInput::Make(std::move(batches), "integration JSON",
                                                    options.columns, /*project=*/true, nullptr));
  if (options.columns.empty()) in->set_dictionary_ids(std::move(ids));
  in->set_size(bytes->size());
  return in;
}

}  // namespace

extern const Source kIntegrationJsonSource = {"json", "Arrow integration JSON", 0, Sniff,
                                              Open};

}  // namespace alkaid::cli
