// `alkaid put FILE grpc://HOST:PORT/PATH`: uploads any input alkaid reads
// (DoPut, batch by batch) and prints what the server answered. When the input
// fails to read part way, the upload is cancelled, so the server keeps
// nothing.
#include <iostream>

#include "command.h"
#include "open_input.h"
#include "report.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInputArgument(cmd, options, kInputHelp);
  AddOption(cmd, "URL", &options->output, "grpc://HOST:PORT/PATH or grpc+tls://...", kRequired);
  AddColumnsOption(cmd, options, "Comma-separated column names to send");
  AddInputOptions(cmd, options);
}

int Run(const Options& options) {
  auto names = SplitColumns(options.columns);
  if (!names.ok()) return Report("--columns", names.status(), kExitUsage);
  if (!IsFlightUrl(options.output))
    return Report("put", Status::KeyError("'", options.output,
                                          "' is not a Flight URL (grpc://HOST:PORT/PATH)"),
                  kExitUsage);
  // The input is opened first: an unreadable file never reaches the server.
  auto [input, code] = OpenOrReport(options, *names);
  if (!input) return code;
  auto conn = ConnectFlight(options.output, options.flight, /*need_path=*/true);
  if (!conn.ok()) return Report(options.output, conn.status());
  auto& c = **conn;
  auto call = c.client->DoPut(flight::FlightDescriptor::Path(c.url.path), input->schema(), c.call);
  if (!call.ok()) return Report(options.output, call.status());
  while (true) {
    auto batch = input->Next();
    if (!batch.ok()) {
      call->writer->Cancel();
      return Report(InputName(options.input), WithHint(batch.status(), options));
    }
    if (*batch == nullptr) break;
    Status st = call->writer->WriteRecordBatch(**batch);
    if (!st.ok()) {
      // The server ended the call: its status says why.
      Status closed = call->writer->Close();
      return Report(options.output, closed.ok() ? st : closed);
    }
  }
  Status st = call->writer->DoneWriting();
  std::vector<std::string> answers;
  while (st.ok()) {
    auto answer = call->reader->Read();
    if (!answer.ok()) {
      st = answer.status();
      break;
    }
    if (!answer->has_value()) break;
    answers.push_back(**answer);
  }
  Status closed = call->writer->Close();
  if (!closed.ok()) return Report(options.output, closed);
  if (!st.ok()) return Report(options.output, st);
  for (const auto& answer : answers) std::cout << answer << "\n";
  return kExitOk;
}

}  // namespace

extern const Command kPutCommand = {
    "put", "Upload a file (any format alkaid reads) to a Flight server", AddOptions, Run};

}  // namespace alkaid::cli
