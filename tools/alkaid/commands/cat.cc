// `alkaid cat FILE`: the data, batch by batch as it is read.
#include "command.h"
#include "print_rows.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInputArgument(cmd, options, kInputHelp);
  AddInputOptions(cmd, options);
  AddColumnsOption(cmd, options, "Comma-separated column names to show");
  AddOption(cmd, "--limit", &options->limit,
            "Print at most N rows (reads only the batches needed)");
  AddDisplayOptions(cmd, options);
}

int Run(const Options& options) { return PrintFirstRows(options, "--limit", options.limit); }

}  // namespace

extern const Command kCatCommand = {"cat", "Print the data, batch by batch as it is read",
                                    AddOptions, Run};

}  // namespace alkaid::cli
