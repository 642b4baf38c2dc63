// `alkaid get grpc://HOST:PORT/PATH [OUT]`: a flight's data to a file (IPC
// file or stream, or Parquet) or to standard output. The output appears only
// once the whole stream arrived (a temporary file renamed at the end), so a
// server that fails mid-stream leaves no partial file.
#include "command.h"
#include "conversion.h"
#include "report.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddOption(cmd, "URL", &options->input, "grpc://HOST:PORT/PATH or grpc+tls://...", kRequired);
  AddOption(cmd, "OUT", &options->output, "Output path; standard output when absent");
  AddColumnsOption(cmd, options, "Comma-separated column names to keep");
  AddWriteOptions(cmd, options);
  AddFlightClientOptions(cmd, &options->flight);
}

int Run(const Options& options) {
  if (!IsFlightUrl(options.input))
    return Report("get", Status::KeyError("'", options.input,
                                          "' is not a Flight URL (grpc://HOST:PORT/PATH); "
                                          "`alkaid convert` copies files"),
                  kExitUsage);
  Options with_output = options;
  if (with_output.output.empty()) with_output.output = "-";
  return ConvertInput(with_output);
}

}  // namespace

extern const Command kGetCommand = {
    "get", "Download a flight from a Flight server to a file or standard output", AddOptions, Run};

}  // namespace alkaid::cli
