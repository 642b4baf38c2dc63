// RecordBatchReader helpers and the in-memory reader.
#include "alkaid/record_batch_reader.h"

#include <utility>

namespace alkaid {

Result<std::vector<RecordBatchPtr>> RecordBatchReader::ReadRemaining() {
  std::vector<RecordBatchPtr> out;
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, Next());
    if (!batch) break;
    out.push_back(std::move(batch));
  }
  return out;
}

Result<TablePtr> RecordBatchReader::ToTable() {
  ALKAID_ASSIGN_OR_RAISE(std::vector<RecordBatchPtr> batches, ReadRemaining());
  return Table::FromRecordBatches(schema(), batches);
}

namespace {

class VectorReader final : public RecordBatchReader {
 public:
  VectorReader(SchemaPtr schema, std::vector<RecordBatchPtr> batches)
      : schema_(std::move(schema)), batches_(std::move(batches)) {}
  const SchemaPtr& schema() const override { return schema_; }
  Result<RecordBatchPtr> Next() override {
    if (next_ >= batches_.size()) return RecordBatchPtr();
    // Hand the batch over: the reader keeps no reference to what it returned.
    return std::move(batches_[next_++]);
  }

 private:
  SchemaPtr schema_;
  std::vector<RecordBatchPtr> batches_;
  size_t next_ = 0;
};

}  // namespace

Result<std::unique_ptr<RecordBatchReader>> RecordBatchReader::Make(
    std::vector<RecordBatchPtr> batches, SchemaPtr schema) {
  for (size_t i = 0; i < batches.size(); ++i) {
    if (batches[i] == nullptr) return Status::Invalid("record batch ", i, " is null");
  }
  if (schema == nullptr) {
    if (batches.empty()) {
      return Status::Invalid("RecordBatchReader::Make: no schema and no batch to take it from");
    }
    schema = batches[0]->schema();
  }
  for (size_t i = 0; i < batches.size(); ++i) {
    if (!batches[i]->schema()->Equals(*schema)) {
      return Status::Invalid("record batch ", i, " has schema ", batches[i]->schema()->ToString(),
                             " which differs from the reader's ", schema->ToString());
    }
  }
  return std::unique_ptr<RecordBatchReader>(
      std::make_unique<VectorReader>(std::move(schema), std::move(batches)));
}

}  // namespace alkaid
