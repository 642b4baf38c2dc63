// `alkaid from-jsonl IN OUT`: JSON Lines (one object per line) to an IPC
// file or stream.
#include "command.h"
#include "conversion.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInOut(cmd, options, "JSON Lines file, '-' for stdin");
  AddColumnsOption(cmd, options, "Comma-separated column names to read, in this order");
  AddTextOptions(cmd, &options->text, kJsonLinesText);
  AddWriteOptions(cmd, options);
}

int Run(const Options& options) {
  TextReadOptions text = options.text;
  text.format = InputFormat::kJsonLines;
  return ConvertInput(options, text);
}

}  // namespace

extern const Command kFromJsonlCommand = {
    "from-jsonl", "Convert JSON Lines (one object per line) to an IPC file or stream", AddOptions,
    Run};

}  // namespace alkaid::cli
