#include "default_scenario.h"

#include <iostream>
#include <map>
#include <mutex>

#include "alkaid/compare.h"
#include "alkaid/integration_json/integration.h"

namespace alkaid::flight_integration {

namespace {

using flight::FlightDescriptor;
using flight::FlightStreamChunk;

std::string_view AsText(const Buffer& buffer) {
  return {reinterpret_cast<const char*>(buffer.data()), static_cast<size_t>(buffer.size())};
}

struct Upload {
  SchemaPtr schema;
  std::vector<RecordBatchPtr> batches;
};

// DoGet's answer: the stored batches, each with its index as app_metadata
// (what the reference server sends and its client checks).
class NumberedBatchStream : public flight::FlightDataStream {
 public:
  explicit NumberedBatchStream(Upload upload) : upload_(std::move(upload)) {}
  SchemaPtr schema() const override { return upload_.schema; }
  Result<std::optional<FlightStreamChunk>> Next() override {
    if (next_ >= upload_.batches.size()) return std::optional<FlightStreamChunk>();
    FlightStreamChunk chunk;
    chunk.batch = upload_.batches[next_];
    chunk.app_metadata = Buffer::FromString(std::to_string(next_));
    ++next_;
    return std::optional<FlightStreamChunk>(std::move(chunk));
  }

 private:
  Upload upload_;
  size_t next_ = 0;
};

class IntegrationServer : public flight::FlightServerBase {
 public:
  Result<flight::FlightInfo> GetFlightInfo(const flight::ServerCallContext&,
                                           const FlightDescriptor& descriptor) override {
    if (descriptor.type != FlightDescriptor::Type::kPath || descriptor.path.empty()) {
      return Status::Invalid("GetFlightInfo: expected a path descriptor, got ",
                             descriptor.ToString());
    }
    ALKAID_ASSIGN_OR_RAISE(Upload upload, Find(descriptor.path[0]));
    flight::FlightInfo info;
    ALKAID_RETURN_NOT_OK(info.SetSchema(*upload.schema));
    info.descriptor = descriptor;
    flight::FlightEndpoint endpoint;
    endpoint.ticket.ticket = descriptor.path[0];
    // The reference names the server by its IPv4 loopback address.
    endpoint.locations.push_back(flight::Location::ForGrpcTcp("127.0.0.1", port()));
    info.endpoints.push_back(std::move(endpoint));
    info.total_records = 0;
    for (const auto& batch : upload.batches) info.total_records += batch->num_rows();
    info.total_bytes = -1;
    return info;
  }

  Result<std::unique_ptr<flight::FlightDataStream>> DoGet(const flight::ServerCallContext&,
                                                          const flight::Ticket& ticket) override {
    ALKAID_ASSIGN_OR_RAISE(Upload upload, Find(ticket.ticket));
    return std::unique_ptr<flight::FlightDataStream>(
        std::make_unique<NumberedBatchStream>(std::move(upload)));
  }

  Status DoPut(const flight::ServerCallContext&, flight::FlightMessageReader& reader,
               flight::FlightMetadataWriter& writer) override {
    const FlightDescriptor& descriptor = reader.descriptor();
    if (descriptor.type != FlightDescriptor::Type::kPath || descriptor.path.empty()) {
      return Status::Invalid("DoPut: expected a path descriptor, got ", descriptor.ToString());
    }
    Upload upload;
    ALKAID_ASSIGN_OR_RAISE(upload.schema, reader.GetSchema());
    while (true) {
      ALKAID_ASSIGN_OR_RAISE(auto chunk, reader.Next());
      if (!chunk) break;
      if (chunk->batch) upload.batches.push_back(std::move(chunk->batch));
      if (chunk->app_metadata) {
        ALKAID_RETURN_NOT_OK(writer.WriteMetadata(AsText(*chunk->app_metadata)));
      }
    }
    // Kept only once the whole upload arrived cleanly.
    std::lock_guard<std::mutex> lock(mutex_);
    uploads_[descriptor.path[0]] = std::move(upload);
    return Status::OK();
  }

 private:
  Result<Upload> Find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = uploads_.find(key);
    if (it == uploads_.end()) return Status::KeyError("no flight was uploaded under '", key, "'");
    return it->second;
  }

  std::mutex mutex_;
  std::map<std::string, Upload> uploads_;
};

// Says which column of batch `index` differs and how.
Status CompareBatch(const RecordBatch& expected, const RecordBatch& actual, size_t index) {
  if (expected.Equals(actual)) return Status::OK();
  if (expected.num_rows() != actual.num_rows() ||
      expected.num_columns() != actual.num_columns()) {
    return Status::Invalid("batch ", index, ": ", actual.num_rows(), " rows and ",
                           actual.num_columns(), " columns, expected ", expected.num_rows(),
                           " and ", expected.num_columns());
  }
  for (int i = 0; i < expected.num_columns(); ++i) {
    std::string diff = ArrayDiff(*expected.column_data(i), *actual.column_data(i));
    if (!diff.empty()) {
      return Status::Invalid("batch ", index, " column ", i, " (",
                             expected.schema()->field(i)->name(), "): ", diff);
    }
  }
  return Status::Invalid("batch ", index, " differs (schema: ", actual.schema()->ToString(),
                         ")");
}

// DoGet `ticket` from `client`; the stream must hold exactly `expected`,
// batch i carrying app_metadata "i".
Status ConsumeEndpoint(flight::FlightClient& client, const flight::Ticket& ticket,
                       const integration_json::IntegrationFile& expected) {
  ALKAID_ASSIGN_OR_RAISE(auto stream, client.DoGet(ticket));
  ALKAID_ASSIGN_OR_RAISE(SchemaPtr schema, stream->GetSchema());
  if (!schema->Equals(*expected.schema, /*check_metadata=*/true)) {
    return Status::Invalid("DoGet schema ", schema->ToString(), " differs from the file's ",
                           expected.schema->ToString());
  }
  size_t index = 0;
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(auto chunk, stream->Next());
    if (!chunk) break;
    if (!chunk->batch) continue;  // metadata alone carries no data to compare
    if (index >= expected.batches.size()) {
      return Status::Invalid("DoGet returned more than the ", expected.batches.size(),
                             " batches uploaded");
    }
    ALKAID_RETURN_NOT_OK(CompareBatch(*expected.batches[index], *chunk->batch, index));
    std::string metadata = chunk->app_metadata ? std::string(AsText(*chunk->app_metadata)) : "";
    if (metadata != std::to_string(index)) {
      return Status::Invalid("batch ", index, ": app_metadata '", metadata, "', expected '",
                             index, "'");
    }
    ++index;
  }
  if (index != expected.batches.size()) {
    return Status::Invalid("DoGet returned ", index, " batches, expected ",
                           expected.batches.size());
  }
  return Status::OK();
}

Status RoundTrip(flight::FlightClient& client, const std::string& json_path,
                 const integration_json::IntegrationFile& file) {
  const auto descriptor = FlightDescriptor::Path({json_path});

  // 1. Upload, each batch tagged with its index; the server echoes each tag.
  ALKAID_ASSIGN_OR_RAISE(auto put, client.DoPut(descriptor, file.schema));
  for (size_t i = 0; i < file.batches.size(); ++i) {
    const std::string tag = std::to_string(i);
    ALKAID_RETURN_NOT_OK(put.writer->WriteWithMetadata(*file.batches[i], tag));
    ALKAID_ASSIGN_OR_RAISE(auto ack, put.reader->Read());
    if (!ack) return Status::Invalid("DoPut: no PutResult for batch ", i);
    if (*ack != tag) {
      return Status::Invalid("DoPut: PutResult '", *ack, "' for batch ", i, ", expected '",
                             tag, "'");
    }
  }
  ALKAID_RETURN_NOT_OK(put.writer->DoneWriting());
  ALKAID_RETURN_NOT_OK(put.writer->Close());

  // 2. Where to read it back.
  ALKAID_ASSIGN_OR_RAISE(auto info, client.GetFlightInfo(descriptor));
  ALKAID_ASSIGN_OR_RAISE(SchemaPtr info_schema, info.GetSchema());
  if (!info_schema->Equals(*file.schema, /*check_metadata=*/true)) {
    return Status::Invalid("GetFlightInfo schema ", info_schema->ToString(),
                           " differs from the file's ", file.schema->ToString());
  }
  if (info.endpoints.empty()) return Status::Invalid("GetFlightInfo returned no endpoint");

  // 3. Every endpoint, from every location it names (this server when none).
  for (const auto& endpoint : info.endpoints) {
    if (endpoint.locations.empty()) {
      ALKAID_RETURN_NOT_OK(ConsumeEndpoint(client, endpoint.ticket, file));
      continue;
    }
    for (const auto& location : endpoint.locations) {
      if (location == flight::Location::ReuseConnection()) {
        ALKAID_RETURN_NOT_OK(ConsumeEndpoint(client, endpoint.ticket, file));
        continue;
      }
      ALKAID_ASSIGN_OR_RAISE(auto other, flight::FlightClient::Connect(location));
      Status st = ConsumeEndpoint(*other, endpoint.ticket, file);
      if (!st.ok()) return Status::Invalid("from ", location.uri, ": ", st.message());
      ALKAID_RETURN_NOT_OK(other->Close());
    }
  }
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<flight::FlightServerBase>> DefaultScenario::MakeServer(
    flight::ServerOptions*) {
  return std::unique_ptr<flight::FlightServerBase>(std::make_unique<IntegrationServer>());
}

Status DefaultScenario::RunOne(flight::FlightClient& client, const std::string& json_path) {
  // The reader's errors name the file already.
  ALKAID_ASSIGN_OR_RAISE(auto file, integration_json::ReadIntegrationFile(json_path));
  Status st = RoundTrip(client, json_path, file);
  return st.ok() ? st : st.WithContext(json_path);
}

Status DefaultScenario::RunClient(const std::string& host, int port) {
  if (json_paths_.empty()) return Status::Invalid("the default scenario needs -path FILE.json");
  ALKAID_ASSIGN_OR_RAISE(auto client,
                         flight::FlightClient::Connect(flight::Location::ForGrpcTcp(host, port)));
  // Every file is run even when one fails, so one run reports them all.
  Status first_failure;
  int failures = 0;
  for (const auto& path : json_paths_) {
    Status st = RunOne(*client, path);
    if (st.ok()) continue;
    // No server to talk to: stop here (the caller may retry the whole run).
    if (flight::FlightStatusCodeOf(st) == flight::FlightStatusCode::kUnavailable) return st;
    std::cerr << "FAILED " << st.ToString() << std::endl;
    if (failures++ == 0) first_failure = st;
  }
  ALKAID_RETURN_NOT_OK(client->Close());
  if (failures == 0) return Status::OK();
  if (json_paths_.size() == 1) return first_failure;
  return first_failure.WithContext(std::to_string(failures) + " of " +
                                   std::to_string(json_paths_.size()) +
                                   " files failed; the first");
}

}  // namespace alkaid::flight_integration
