// `alkaid head FILE`: the first rows, reading only the batches they are in.
#include "command.h"
#include "print_rows.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInputArgument(cmd, options, kInputHelp);
  AddInputOptions(cmd, options);
  AddOption(cmd, "-n", &options->rows, "Rows to print", kShowDefault);
  AddColumnsOption(cmd, options, "Comma-separated column names to show");
  AddDisplayOptions(cmd, options);
}

int Run(const Options& options) { return PrintFirstRows(options, "-n", options.rows); }

}  // namespace

extern const Command kHeadCommand = {
    "head", "Print the first rows (reads only the batches needed)", AddOptions, Run};

}  // namespace alkaid::cli
