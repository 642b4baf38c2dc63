// `alkaid tail FILE`: the last rows. An IPC file is read backwards from its
// footer and a Parquet file from its last row groups, loading only what
// holds those rows; other input is read through, keeping just the batches
// that cover them (Input::LastRows).
#include <algorithm>

#include "command.h"
#include "open_input.h"
#include "report.h"
#include "table_printer.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInputArgument(cmd, options, kInputHelp);
  AddInputOptions(cmd, options);
  AddOption(cmd, "-n", &options->rows, "Rows to print", kShowDefault);
  AddDisplayOptions(cmd, options);
}

int Run(const Options& options) {
  auto n = ParseRowCount("-n", options.rows);
  if (!n.ok()) return Report("tail", n.status(), kExitUsage);
  auto printer = MakePrinter(options.display, options.input);
  if (!printer.ok()) return Report("--format", printer.status(), kExitUsage);
  auto [input, code] = OpenOrReport(options, {});
  if (!input) return code;
  const std::string subject = InputName(options.input);
  int64_t batches_read = 0, total = -1;
  auto last = input->LastRows(*n, &batches_read, &total);
  if (!last.ok()) return Report(subject, WithHint(last.status(), options));
  std::vector<RecordBatchPtr> kept = std::move(last).MoveValueUnsafe();
  int64_t kept_rows = 0;
  for (const auto& batch : kept) kept_rows += batch->num_rows();
  Status st = (*printer)->Begin(*input->schema());
  PrintSummary summary;
  summary.batches_read = batches_read;
  summary.total_rows = total;
  int64_t skip = std::max<int64_t>(0, kept_rows - *n);
  for (auto& batch : kept) {
    if (!st.ok()) break;
    RecordBatchPtr rows = batch;
    if (skip > 0) {
      int64_t drop = std::min(skip, rows->num_rows());
      rows = rows->Slice(drop);
      skip -= drop;
    }
    st = (*printer)->PrintBatch(*rows);
    summary.rows_printed += rows->num_rows();
    batch.reset();
  }
  if (st.ok()) {
    summary.note = "last " + std::to_string(*n);
    st = (*printer)->End(summary);
  }
  return st.ok() ? kExitOk : Report(subject, st);
}

}  // namespace

extern const Command kTailCommand = {
    "tail", "Print the last rows (IPC and Parquet files: reads only the last batches)",
    AddOptions, Run};

}  // namespace alkaid::cli
