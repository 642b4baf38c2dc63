// Arrow Flight in one process: a server that serves one record batch for the ticket "stations",
// and a client that connects to it over loopback TCP, fetches the batch with DoGet and prints
// its rows. Between two machines only the location changes.
//
// Built against the libalkaid-flight-dev package: find_package(alkaid COMPONENTS flight) and
// alkaid::flight with CMake, `pkg-config alkaid-flight` otherwise.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "alkaid/array.h"
#include "alkaid/builder.h"
#include "alkaid/flight/api.h"
#include "alkaid/status.h"
#include "alkaid/table.h"

namespace {

using alkaid::Result;
using alkaid::Status;
namespace flight = alkaid::flight;

Result<alkaid::RecordBatchPtr> Stations() {
  auto schema = alkaid::schema({alkaid::field("station", alkaid::utf8()),
                                alkaid::field("rain_mm", alkaid::int32())});
  alkaid::StringBuilder station;
  alkaid::Int32Builder rain;
  const char* names[] = {"Aberdeen", "Bergen", "Cork"};
  const int millimetres[] = {12, 31, 7};
  for (int i = 0; i < 3; ++i) {
    ALKAID_RETURN_NOT_OK(station.Append(names[i]));
    ALKAID_RETURN_NOT_OK(rain.Append(millimetres[i]));
  }
  ALKAID_ASSIGN_OR_RAISE(auto station_data, station.Finish());
  ALKAID_ASSIGN_OR_RAISE(auto rain_data, rain.Finish());
  return alkaid::RecordBatch::Make(schema, 3, {station_data, rain_data});
}

// The server: DoGet is the only RPC it serves (the others answer NotImplemented).
class StationServer : public flight::FlightServerBase {
 public:
  explicit StationServer(alkaid::RecordBatchPtr batch) : batch_(std::move(batch)) {}

  Result<std::unique_ptr<flight::FlightDataStream>> DoGet(const flight::ServerCallContext&,
                                                          const flight::Ticket& ticket) override {
    if (ticket.ticket != "stations") return Status::KeyError("no data for ticket '", ticket.ticket, "'");
    ALKAID_ASSIGN_OR_RAISE(auto reader,
                           alkaid::RecordBatchReader::Make({batch_}, batch_->schema()));
    return flight::MakeRecordBatchStream(std::move(reader));
  }

 private:
  alkaid::RecordBatchPtr batch_;
};

Status Run() {
  ALKAID_ASSIGN_OR_RAISE(auto batch, Stations());
  StationServer server(batch);
  flight::ServerOptions options;
  options.location = "grpc://127.0.0.1:0";  // port 0: the system picks a free port
  ALKAID_RETURN_NOT_OK(server.Init(options));  // serving from here on, on gRPC's threads

  ALKAID_ASSIGN_OR_RAISE(auto client, flight::FlightClient::Connect(
                                          flight::Location::ForGrpcTcp("127.0.0.1", server.port())));
  ALKAID_ASSIGN_OR_RAISE(auto stream, client->DoGet(flight::Ticket{"stations"}));
  ALKAID_ASSIGN_OR_RAISE(auto schema, stream->GetSchema());
  std::cout << "schema: " << schema->ToString() << "\n";
  int64_t rows = 0;
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(auto chunk, stream->Next());
    if (!chunk) break;  // the server finished the stream
    alkaid::StringArray stations(chunk->batch->column_data(0));
    alkaid::Int32Array rain(chunk->batch->column_data(1));
    for (int64_t i = 0; i < chunk->batch->num_rows(); ++i, ++rows) {
      std::cout << stations.GetView(i) << ": " << rain.Value(i) << " mm\n";
    }
  }
  std::cout << rows << " rows over Flight\n";

  // A ticket the server does not know: its KeyError reaches the client with its kind.
  auto missing = client->DoGet(flight::Ticket{"nowhere"});
  Status st = missing.ok() ? (*missing)->Next().status() : missing.status();
  std::cout << "unknown ticket: " << st.ToString() << "\n";

  ALKAID_RETURN_NOT_OK(client->Close());
  return server.Shutdown();
}

}  // namespace

int main() {
  Status st = Run();
  if (!st.ok()) {
    std::cerr << "error: " << st.ToString() << "\n";
    return 1;
  }
  return 0;
}
