// do_exchange:echo: DoExchange with command "echo" sends back every message it receives: the
// batch, its app_metadata, or both. The client sends four batches of ten int32 values (column
// "x", not nullable; batch i holds i .. i + 9), app_metadata "i" on the even ones, and reads
// each echo before sending the next.
#include "alkaid/compare.h"

#include "../scenario.h"
#include "scenario_util.h"

namespace alkaid::flight_integration {

namespace {

class EchoServer final : public flight::FlightServerBase {
 public:
  Status DoExchange(const flight::ServerCallContext&, flight::FlightMessageReader& reader,
                    flight::FlightMessageWriter& writer) override {
    const auto& descriptor = reader.descriptor();
    if (descriptor.type != flight::FlightDescriptor::Type::kCmd) {
      return Status::Invalid("DoExchange needs a command descriptor");
    }
    if (descriptor.cmd != "echo") {
      return Status::NotImplemented("DoExchange command '", descriptor.cmd, "'");
    }
    bool begun = false;
    while (true) {
      ALKAID_ASSIGN_OR_RAISE(auto chunk, reader.Next());
      if (!chunk) return Status::OK();
      std::string_view metadata = chunk->app_metadata ? chunk->app_metadata->view() : "";
      if (chunk->batch && !begun) {
        ALKAID_RETURN_NOT_OK(writer.Begin(chunk->batch->schema()));
        begun = true;
      }
      if (chunk->batch && chunk->app_metadata) {
        ALKAID_RETURN_NOT_OK(writer.WriteWithMetadata(*chunk->batch, metadata));
      } else if (chunk->batch) {
        ALKAID_RETURN_NOT_OK(writer.WriteRecordBatch(*chunk->batch));
      } else if (chunk->app_metadata) {
        ALKAID_RETURN_NOT_OK(writer.WriteMetadata(metadata));
      }
    }
  }
};

class DoExchangeEchoScenario final : public Scenario {
 public:
  Result<std::unique_ptr<flight::FlightServerBase>> MakeServer(flight::ServerOptions*) override {
    return std::make_unique<EchoServer>();
  }

  Status RunClient(const std::string& host, int port) override {
    ALKAID_ASSIGN_OR_RAISE(auto client, ConnectTo(host, port));
    ALKAID_ASSIGN_OR_RAISE(auto call,
                           client->DoExchange(flight::FlightDescriptor::Command("echo")));
    auto x = IntegerSchema("x", int32());
    ALKAID_RETURN_NOT_OK(call.writer->Begin(x));
    for (int i = 0; i < 4; ++i) {
      std::vector<int64_t> values;
      for (int v = 0; v < 10; ++v) values.push_back(i + v);
      ALKAID_ASSIGN_OR_RAISE(auto batch, IntegerBatch(x, values));
      std::string metadata = std::to_string(i);
      bool with_metadata = i % 2 == 0;
      if (with_metadata) {
        ALKAID_RETURN_NOT_OK(call.writer->WriteWithMetadata(*batch, metadata));
      } else {
        ALKAID_RETURN_NOT_OK(call.writer->WriteRecordBatch(*batch));
      }
      ALKAID_ASSIGN_OR_RAISE(auto echo, call.reader->Next());
      if (!echo || !echo->batch) return Status::Invalid("batch ", i, ": no batch echoed");
      if (!echo->batch->schema()->Equals(*x) ||
          !ArrayEquals(*echo->batch->column_data(0), *batch->column_data(0))) {
        return Status::Invalid("batch ", i, ": the echo differs: ",
                               ArrayDiff(*echo->batch->column_data(0), *batch->column_data(0)));
      }
      if (with_metadata) {
        if (!echo->app_metadata) return Status::Invalid("batch ", i, ": app_metadata missing");
        std::string got(echo->app_metadata->view());
        if (got != metadata) {
          return Status::Invalid("batch ", i, ": app_metadata '", got, "', expected '", metadata,
                                 "'");
        }
      } else if (echo->app_metadata) {
        return Status::Invalid("batch ", i, ": app_metadata echoed but none was sent");
      }
    }
    ALKAID_RETURN_NOT_OK(call.writer->DoneWriting());
    return call.writer->Close();
  }
};

}  // namespace

std::unique_ptr<Scenario> MakeDoExchangeEchoScenario() {
  return std::make_unique<DoExchangeEchoScenario>();
}

}  // namespace alkaid::flight_integration
