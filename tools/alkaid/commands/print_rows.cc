#include "print_rows.h"

#include "open_input.h"
#include "report.h"
#include "table_printer.h"

namespace alkaid::cli {

int PrintFirstRows(const Options& options, const std::string& limit_option,
                   const std::string& limit_text) {
  int64_t limit = -1;
  if (!limit_text.empty()) {
    auto parsed = ParseRowCount(limit_option, limit_text);
    if (!parsed.ok()) return Report(options.command, parsed.status(), kExitUsage);
    limit = *parsed;
  }
  auto names = SplitColumns(options.columns);
  if (!names.ok()) return Report("--columns", names.status(), kExitUsage);
  auto printer = MakePrinter(options.display, options.input);
  if (!printer.ok()) return Report("--format", printer.status(), kExitUsage);
  auto [input, code] = OpenOrReport(options, *names);
  if (!input) return code;
  const std::string subject = InputName(options.input);
  Status st = (*printer)->Begin(*input->schema());
  PrintSummary summary;
  bool stopped = false;
  while (st.ok()) {
    if (limit >= 0 && summary.rows_printed >= limit) {
      stopped = true;
      break;
    }
    auto batch = input->Next();
    if (!batch.ok()) return Report(subject, WithHint(batch.status(), options));
    if (*batch == nullptr) break;
    ++summary.batches_read;
    RecordBatchPtr rows = *batch;
    if (limit >= 0 && rows->num_rows() > limit - summary.rows_printed)
      rows = rows->Slice(0, limit - summary.rows_printed);
    st = (*printer)->PrintBatch(*rows);
    summary.rows_printed += rows->num_rows();
  }
  if (!st.ok()) return Report(subject, st);
  if (stopped) {
    summary.note = "--limit " + std::to_string(limit);
  } else {
    summary.total_rows = summary.rows_printed;
  }
  st = (*printer)->End(summary);
  return st.ok() ? kExitOk : Report(subject, st);
}

}  // namespace alkaid::cli
