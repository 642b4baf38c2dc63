#include "open_input.h"

#include "command.h"
#include "report.h"

namespace alkaid::cli {

namespace {

// Where data of a kind alkaid recognises but an Arrow command cannot read
// should go instead.
std::string WhereToSend(DataKind kind) {
  auto route = [](const char* sub, const char* what) -> std::string {
    if (FindCommand(sub) != nullptr) {
      std::string also = std::string(sub) == "from-json" ? "" : " (or `alkaid convert`)";
      return std::string("; ") + what + " is read by `alkaid " + sub + "`" + also;
    }
    return std::string("; this build of alkaid has no `") + sub + "` for " + what + " yet";
  };
  switch (kind) {
    case DataKind::kIntegrationJson: return route("from-json", "integration JSON");
    case DataKind::kCsv: return route("from-csv", "CSV");
    case DataKind::kJsonLines: return route("from-jsonl", "JSON Lines");
    case DataKind::kJson:
      return route("from-json", "integration JSON ({\"schema\", \"batches\"})") +
             route("from-jsonl", "one JSON object per line");
    case DataKind::kParquet:
      return "; alkaid does not read Parquet: convert it to Arrow IPC with pyarrow, DuckDB or Polars";
    case DataKind::kGzip:
      return "; decompress it first (from-json and validate --json read .json.gz directly)";
    default: return "";
  }
}

}  // namespace

Opened OpenOrReport(const Options& options, const std::vector<std::string>& columns,
                    const ipc::IpcReadOptions& ipc_options, const TextReadOptions* text) {
  const std::string& path = options.input;
  DataKind kind = DataKind::kIpcStream;
  auto input = Input::Open(path, columns, ipc_options, &kind, text);
  if (input.ok()) return {std::move(input).MoveValueUnsafe(), kExitOk};
  const Status& st = input.status();
  const std::string subject = InputName(path);
  // Text that was read as text failed in its reader: the reader's message
  // (with line and column) is the answer.
  const bool read_as_text = text != nullptr && text->format != InputFormat::kArrow &&
                            (kind == DataKind::kCsv || kind == DataKind::kJsonLines);
  if (!read_as_text && kind != DataKind::kIpcFile && kind != DataKind::kIpcStream &&
      kind != DataKind::kText && kind != DataKind::kEmpty)
    return {nullptr, Report(subject, Status::Invalid(st.message(), WhereToSend(kind)), kExitUsage)};
  return {nullptr, Report(subject, read_as_text ? WithHint(st, options) : st)};
}

}  // namespace alkaid::cli
