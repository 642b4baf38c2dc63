// `alkaid stats FILE`: per column, its type, nulls, distinct values, min,
// max and mean (stats.h).
#include <iostream>

#include "command.h"
#include "open_input.h"
#include "report.h"
#include "stats.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInputArgument(cmd, options, kInputHelp);
  AddInputOptions(cmd, options);
  AddColumnsOption(cmd, options, "Comma-separated column names");
}

int Run(const Options& options) {
  auto names = SplitColumns(options.columns);
  if (!names.ok()) return Report("--columns", names.status(), kExitUsage);
  auto [input, code] = OpenOrReport(options, *names);
  if (!input) return code;
  StatsCollector stats(*input->schema());
  while (true) {
    auto batch = input->Next();
    if (!batch.ok()) return Report(InputName(options.input), WithHint(batch.status(), options));
    if (*batch == nullptr) break;
    stats.Add(**batch);
  }
  stats.Print(&std::cout);
  return kExitOk;
}

}  // namespace

extern const Command kStatsCommand = {
    "stats",
    "Per column: type, nulls, distinct values (estimate), min and max (numbers, times, "
    "decimals, strings and binary bytewise), mean of numbers",
    AddOptions, Run};

}  // namespace alkaid::cli
