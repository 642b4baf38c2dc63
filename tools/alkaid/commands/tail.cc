// `alkaid tail FILE`: the last rows. A file is read backwards from its
// footer and only the batches holding those rows are loaded; a stream is
// read through, keeping just enough batches to cover them.
#include <deque>

#include "command.h"
#include "open_input.h"
#include "report.h"
#include "table_printer.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInputArgument(cmd, options, "IPC file or stream, '-' for stdin");
  cmd->add_option("-n", options->rows, "Rows to print")->capture_default_str();
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
  std::deque<RecordBatchPtr> kept;
  int64_t kept_rows = 0, batches_read = 0, total = -1;
  if (input->is_file_format()) {
    for (int64_t i = input->num_batches() - 1; i >= 0 && kept_rows < *n; --i) {
      auto batch = input->ReadBatch(static_cast<int>(i));
      if (!batch.ok()) return Report(subject, batch.status());
      ++batches_read;
      kept_rows += (*batch)->num_rows();
      kept.push_front(std::move(*batch));
    }
  } else {
    total = 0;
    while (true) {
      auto batch = input->Next();
      if (!batch.ok()) return Report(subject, WithHint(batch.status(), options));
      if (*batch == nullptr) break;
      ++batches_read;
      total += (*batch)->num_rows();
      kept_rows += (*batch)->num_rows();
      kept.push_back(std::move(*batch));
      while (!kept.empty() && kept_rows - kept.front()->num_rows() >= *n) {
        kept_rows -= kept.front()->num_rows();
        kept.pop_front();
      }
    }
  }
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
    "tail", "Print the last rows (a file: reads only the last batches)", AddOptions, Run};

}  // namespace alkaid::cli
