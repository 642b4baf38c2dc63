// The Flight server both Flight benchmarks run against: DoGet streams a fixed set of batches,
// DoPut reads every upload to its end and keeps nothing, so the figures are the transport's and
// not the cost of storing what arrives.
#pragma once

#include <utility>
#include <vector>

#include "alkaid/flight/api.h"
#include "alkaid/record_batch_reader.h"

namespace alkaid::bench {

class BatchServer : public flight::FlightServerBase {
 public:
  BatchServer(SchemaPtr schema, std::vector<RecordBatchPtr> batches)
      : schema_(std::move(schema)), batches_(std::move(batches)) {}

  const std::vector<RecordBatchPtr>& batches() const { return batches_; }

  Result<std::unique_ptr<flight::FlightDataStream>> DoGet(const flight::ServerCallContext&,
                                                          const flight::Ticket&) override {
    ALKAID_ASSIGN_OR_RAISE(auto reader, RecordBatchReader::Make(batches_, schema_));
    return flight::MakeRecordBatchStream(std::move(reader));
  }

  Status DoPut(const flight::ServerCallContext&, flight::FlightMessageReader& reader,
               flight::FlightMetadataWriter&) override {
    while (true) {
      ALKAID_ASSIGN_OR_RAISE(auto chunk, reader.Next());
      if (!chunk) return Status::OK();
    }
  }

 private:
  SchemaPtr schema_;
  std::vector<RecordBatchPtr> batches_;
};

}  // namespace alkaid::bench
