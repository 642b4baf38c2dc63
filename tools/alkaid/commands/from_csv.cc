// `alkaid from-csv IN OUT`: CSV to an IPC file or stream, block by block,
// with types inferred or given.
#include "command.h"
#include "conversion.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInOut(cmd, options, "CSV file, '-' for stdin");
  AddColumnsOption(cmd, options, "Comma-separated column names to read, in this order");
  AddTextOptions(cmd, &options->text, kCsvText);
  AddWriteOptions(cmd, options);
}

int Run(const Options& options) {
  Options forced = options;
  forced.input_format = "csv";
  return ConvertInput(forced);
}

}  // namespace

extern const Command kFromCsvCommand = {
    "from-csv",
    "Convert CSV to an IPC file or stream, block by block (types inferred or given)", AddOptions,
    Run};

}  // namespace alkaid::cli
