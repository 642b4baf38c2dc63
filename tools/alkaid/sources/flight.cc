// grpc:// and grpc+tls:// URLs: the data of a Flight server. The schema comes
// from GetSchema and the row count from GetFlightInfo when the server knows
// it, so `schema` and `count` fetch no data; batches come from DoGet on each
// endpoint in turn, started by the first read.
#include "source.h"

namespace alkaid::cli {

namespace {

class FlightReader final : public RecordBatchReader {
 public:
  FlightReader(std::unique_ptr<FlightConnection> conn, SchemaPtr schema)
      : conn_(std::move(conn)), schema_(std::move(schema)) {}

  const SchemaPtr& schema() const override { return schema_; }

  Result<RecordBatchPtr> Next() override {
    if (!started_) {
      started_ = true;
      ALKAID_ASSIGN_OR_RAISE(flight::FlightInfo info, Info());
      endpoints_ = info.endpoints;
    }
    while (true) {
      if (stream_ == nullptr) {
        if (next_endpoint_ >= endpoints_.size()) return RecordBatchPtr();
        ALKAID_ASSIGN_OR_RAISE(stream_, conn_->client->DoGet(endpoints_[next_endpoint_++].ticket,
                                                             conn_->call));
      }
      ALKAID_ASSIGN_OR_RAISE(auto chunk, stream_->Next());
      if (!chunk.has_value()) {
        stream_.reset();
        continue;
      }
      if (chunk->batch != nullptr) {
        if (!chunk->batch->schema()->Equals(*schema_, /*check_metadata=*/false))
          return Status::Invalid(conn_->url.rel, ": the server sent batches of another schema (",
                                 chunk->batch->schema()->ToString(), ") than GetSchema's");
        return chunk->batch;
      }
    }
  }

  // Rows the server announces before any data moved; -1 when it does not know.
  Result<int64_t> AnnouncedRows() {
    if (started_) return -1;
    ALKAID_ASSIGN_OR_RAISE(flight::FlightInfo info, Info());
    return info.total_records;
  }

 private:
  Result<flight::FlightInfo> Info() {
    if (!info_.has_value()) {
      ALKAID_ASSIGN_OR_RAISE(
          info_, conn_->client->GetFlightInfo(flight::FlightDescriptor::Path(conn_->url.path),
                                              conn_->call));
    }
    return *info_;
  }

  std::unique_ptr<FlightConnection> conn_;
  SchemaPtr schema_;
  std::optional<flight::FlightInfo> info_;
  std::vector<flight::FlightEndpoint> endpoints_;
  size_t next_endpoint_ = 0;
  bool started_ = false;
  std::unique_ptr<flight::FlightStreamReader> stream_;
};

class FlightInput final : public ReaderInput {
 public:
  static Result<std::unique_ptr<Input>> Open(const std::string& url,
                                             const SourceOptions& options) {
    ALKAID_ASSIGN_OR_RAISE(auto conn, ConnectFlight(url, options.flight, /*need_path=*/true));
    ALKAID_ASSIGN_OR_RAISE(
        flight::SchemaResult answer,
        conn->client->GetSchema(flight::FlightDescriptor::Path(conn->url.path), conn->call));
    ALKAID_ASSIGN_OR_RAISE(SchemaPtr schema, answer.GetSchema());
    auto reader = std::make_unique<FlightReader>(std::move(conn), std::move(schema));
    std::unique_ptr<FlightInput> in(new FlightInput());
    in->flight_ = reader.get();
    ALKAID_RETURN_NOT_OK(in->Init(std::move(reader), "Flight stream at " + url, options.columns,
                                  /*project=*/true, nullptr));
    return std::unique_ptr<Input>(std::move(in));
  }

  Result<int64_t> CountRows() override {
    ALKAID_ASSIGN_OR_RAISE(int64_t rows, flight_->AnnouncedRows());
    if (rows >= 0) return rows;
    return Input::CountRows();
  }

 private:
  FlightReader* flight_ = nullptr;  // owned by the ReaderInput
};

int Sniff(std::string_view, const std::string& path) { return IsFlightUrl(path) ? 100 : 0; }

Result<std::unique_ptr<Input>> Open(InputBytes* bytes, const SourceOptions& options) {
  if (!IsFlightUrl(bytes->path()))
    return Status::Invalid(bytes->path(), ": the flight format reads grpc:// URLs only");
  return FlightInput::Open(bytes->path(), options);
}

}  // namespace

extern const Source kFlightSource = {"flight", "a Flight stream (grpc:// URL)", 0, Sniff, Open};

}  // namespace alkaid::cli
