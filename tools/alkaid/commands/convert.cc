// `alkaid convert IN OUT`: any input alkaid reads (recognised by content or
// named by --input-format) to an IPC file or stream or to Parquet, with
// compression, dialect, row groups and columns.
#include "command.h"
#include "conversion.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInOut(cmd, options, kInputHelp);
  AddColumnsOption(cmd, options, "Comma-separated column names to keep");
  AddInputOptions(cmd, options);
  AddWriteOptions(cmd, options);
}

int Run(const Options& options) { return ConvertInput(options); }

}  // namespace

extern const Command kConvertCommand = {
    "convert",
    "Convert between IPC, Parquet, CSV, JSON Lines and integration JSON input and IPC or "
    "Parquet output (format, compression, row groups, dialect, columns)",
    AddOptions, Run};

}  // namespace alkaid::cli
