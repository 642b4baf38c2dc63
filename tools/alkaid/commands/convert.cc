// `alkaid convert IN OUT`: rewrite an IPC file or stream (format,
// compression, dialect, columns); CSV and JSON Lines input is recognised by
// content (or named by --input-format) and converted.
#include "command.h"
#include "conversion.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInOut(cmd, options, "IPC file or stream, CSV or JSON Lines; '-' for stdin");
  AddColumnsOption(cmd, options, "Comma-separated column names to keep");
  cmd->add_option("--input-format", options->input_format,
                  "What IN is: auto (by content), arrow, csv or jsonl")
      ->check(CLI::IsMember({"auto", "arrow", "csv", "jsonl"}))
      ->capture_default_str();
  AddWriteOptions(cmd, options);
}

int Run(const Options& options) {
  TextReadOptions text;
  if (options.input_format == "arrow") text.format = InputFormat::kArrow;
  else if (options.input_format == "csv") text.format = InputFormat::kCsv;
  else if (options.input_format == "jsonl") text.format = InputFormat::kJsonLines;
  return ConvertInput(options, text);
}

}  // namespace

extern const Command kConvertCommand = {
    "convert",
    "Rewrite an IPC file or stream (format, compression, dialect, columns); CSV and JSON Lines "
    "input is recognised and converted",
    AddOptions, Run};

}  // namespace alkaid::cli
