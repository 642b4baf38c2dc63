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
  Options forced = options;
  forced.input_format = "jsonl";
  return ConvertInput(forced);
}

}  // namespace

extern const Command kFromJsonlCommand = {
    "from-jsonl", "Convert JSON Lines (one object per line) to an IPC file or stream", AddOptions,
    Run};

}  // namespace alkaid::cli
