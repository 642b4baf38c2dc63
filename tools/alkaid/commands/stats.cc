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
  AddFlag(cmd, "--exact", &options->exact,
          "Read every column's data, even where a Parquet footer's statistics give its "
          "nulls, min and max");
}

// Columns whose nulls, min and max the input's metadata states are taken from
// it; the returned columns (all when metadata says nothing) must be read.
Result<std::vector<int>> FromMetadata(Input* input, StatsCollector* stats) {
  std::vector<int> all(static_cast<size_t>(input->schema()->num_fields()));
  for (size_t c = 0; c < all.size(); ++c) all[c] = static_cast<int>(c);
  ALKAID_ASSIGN_OR_RAISE(auto summaries, input->Summaries());
  if (summaries.size() != all.size()) return all;
  std::vector<int> read;
  for (int c : all) {
    if (!summaries[static_cast<size_t>(c)]) read.push_back(c);
  }
  if (read.size() == all.size() || (!read.empty() && !input->SelectColumns(read))) return all;
  for (int c : all) {
    const auto& s = summaries[static_cast<size_t>(c)];
    if (s) stats->AddFromMetadata(c, s->nulls, s->values, s->bounds.get());
  }
  if (read.empty()) {
    ALKAID_ASSIGN_OR_RAISE(int64_t rows, input->CountRows());
    stats->SetRows(rows);
  }
  return read;
}

int Run(const Options& options) {
  auto names = SplitColumns(options.columns);
  if (!names.ok()) return Report("--columns", names.status(), kExitUsage);
  auto [input, code] = OpenOrReport(options, *names);
  if (!input) return code;
  StatsCollector stats(*input->schema());
  std::vector<int> read;  // empty: every column
  if (!options.exact) {
    auto columns = FromMetadata(input.get(), &stats);
    if (!columns.ok()) return Report(InputName(options.input), columns.status());
    read = std::move(*columns);
    if (read.empty() && input->schema()->num_fields() > 0) {
      stats.Print(&std::cout);
      return kExitOk;
    }
    if (read.size() == static_cast<size_t>(input->schema()->num_fields())) read.clear();
  }
  while (true) {
    auto batch = input->Next();
    if (!batch.ok()) return Report(InputName(options.input), WithHint(batch.status(), options));
    if (*batch == nullptr) break;
    stats.Add(**batch, read);
  }
  stats.Print(&std::cout);
  return kExitOk;
}

}  // namespace

extern const Command kStatsCommand = {
    "stats",
    "Per column: type, nulls, distinct values (estimate), min and max (numbers, times, "
    "decimals, strings and binary bytewise), mean of numbers; on Parquet files nulls, min "
    "and max come from the footer's statistics where they are exact (--exact reads pages)",
    AddOptions, Run};

}  // namespace alkaid::cli
