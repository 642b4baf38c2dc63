// `alkaid`: inspect, validate and convert Arrow IPC files and streams, and
// convert Arrow integration JSON, CSV and JSON Lines to them.
//
// Exit codes: 0 success; 1 the data is invalid or differs from what was
// expected (or memory ran out); 2 usage errors (bad options, unknown columns,
// input of another format than the subcommand reads, output equal to the
// input) and I/O errors (missing file, unwritable output).
//
// Every subcommand reads one batch at a time and drops it before the next;
// `cat --limit`, `head` and `tail` (on a file) read only the batches they
// print; `schema` reads only the schema. Writing subcommands write to a
// temporary file beside the target and rename it over the target on success.
//
// Adding a subcommand: write a RunXxx function and register it in Main() next
// to the others. Adding an output format for `cat`: see table_printer.h.
#include <CLI/CLI.hpp>
#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <functional>
#include <iostream>
#include <memory>
#include <map>
#include <new>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "alkaid/compare.h"
#include "alkaid/csv/api.h"
#include "alkaid/extension.h"
#include "alkaid/io/output.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/integration_json/integration.h"
#include "alkaid/jsonl/api.h"
#include "alkaid/pretty_print.h"
#include "alkaid/version.h"
#include "alkaid/visit_type.h"
#include "input.h"
#include "output_file.h"
#include "table_printer.h"

namespace alkaid::cli {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitInvalid = 1;
constexpr int kExitUsage = 2;

// Subcommands registered in this build, for messages that point elsewhere.
std::set<std::string>& Subcommands() {
  static std::set<std::string> names;
  return names;
}

int ExitCodeFor(const Status& st) {
  return st.IsIOError() || st.IsKeyError() ? kExitUsage : kExitInvalid;
}

// How messages name an input path: "-" is standard input.
std::string InputName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

// "alkaid: SUBJECT: message", without repeating the subject when the
// message already starts with it.
int Report(const std::string& subject, const Status& st, int code) {
  std::string message = st.message();
  std::cerr << "alkaid: ";
  if (message.rfind(subject + ":", 0) != 0 && message.rfind(subject + " ", 0) != 0)
    std::cerr << subject << ": ";
  std::cerr << message << "\n";
  return code;
}
int Report(const std::string& subject, const Status& st) { return Report(subject, st, ExitCodeFor(st)); }

// ---------------------------------------------------------------------------
// Options shared by subcommands

Result<std::vector<std::string>> SplitColumns(const std::string& list) {
  std::vector<std::string> out;
  if (list.empty()) return out;
  size_t start = 0;
  while (true) {
    size_t comma = list.find(',', start);
    std::string name = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (name.empty()) return Status::KeyError("empty column name in --columns '", list, "'");
    out.push_back(std::move(name));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// Row counts are taken as text so "-1" or "ten" get a sentence, not a parser
// error about option names.
Result<int64_t> ParseRowCount(const std::string& option, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || v < 0)
    return Status::KeyError(option, " takes a number of rows (0 or more), got '", text, "'");
  return static_cast<int64_t>(v);
}

Result<ipc::CompressionType> ParseCompression(const std::string& name) {
  if (name == "none" || name.empty()) return ipc::CompressionType::kNone;
  if (name == "lz4") return ipc::CompressionType::kLz4Frame;
  if (name == "zstd") return ipc::CompressionType::kZstd;
  return Status::KeyError("unknown compression '", name, "' (expected none, lz4 or zstd)");
}

struct WriteSettings {
  std::string format = "file";
  std::string compression = "none";
  std::string dialect = "arrow";
};

struct DisplaySettings {
  std::string format = "table";
  int64_t max_width = -1;  // -1: from COLUMNS or the terminal
  int64_t max_cell = 40;
};

// Terminal width: --max-width, else $COLUMNS, else the tty's width; when
// stdout is not a terminal and COLUMNS is unset, lines are not limited (a
// file or pipe gets every column).
PrintOptions MakePrintOptions(const DisplaySettings& display, const std::string& path) {
  PrintOptions options;
  options.flush_each_batch = path == "-";
  options.max_cell = std::max<int64_t>(display.max_cell, 1);
  const bool tty = ::isatty(1) == 1;
  if (display.max_width >= 0) {
    options.max_width = display.max_width;
  } else if (const char* columns = std::getenv("COLUMNS"); columns != nullptr && std::atoll(columns) > 0) {
    options.max_width = std::atoll(columns);
  } else if (tty) {
    struct winsize ws {};
    if (::ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) options.max_width = ws.ws_col;
    else options.max_width = 80;
  }
  const char* no_color = std::getenv("NO_COLOR");
  options.color = tty && (no_color == nullptr || no_color[0] == '\0');
  return options;
}

// A line on stderr showing how far a conversion got, once it has run for a
// second, when stderr is a terminal; nothing otherwise.
class Progress {
 public:
  explicit Progress(std::string what)
      : what_(std::move(what)), enabled_(::isatty(2) == 1), start_(Clock::now()), last_(start_) {}
  ~Progress() { Finish(); }

  // `input` tells the totals: batches of a file, bytes of a stream.
  void Update(int64_t batches, int64_t rows, const Input* input) {
    if (!enabled_) return;
    auto now = Clock::now();
    if (now - start_ < std::chrono::seconds(1) || now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    std::cerr << "\r" << what_ << ": " << batches;
    if (input != nullptr && input->is_file_format())
      std::cerr << " of " << input->file()->num_record_batches();
    std::cerr << " batches, " << rows << " rows";
    const int64_t bytes = input != nullptr ? input->position() : -1;
    const int64_t total_bytes = input != nullptr ? input->size() : -1;
    if (bytes >= 0 && total_bytes > 0)
      std::cerr << ", " << (bytes >> 20) << " of " << (total_bytes >> 20) << " MiB ("
                << (100 * bytes / total_bytes) << "%)";
    std::cerr << "\x1b[K" << std::flush;
    shown_ = true;
  }
  void Finish() {
    if (shown_) std::cerr << "\r\x1b[K" << std::flush;
    shown_ = false;
  }

 private:
  using Clock = std::chrono::steady_clock;
  std::string what_;
  bool enabled_;
  bool shown_ = false;
  Clock::time_point start_, last_;
};

// ---------------------------------------------------------------------------
// Opening input

// Where data of a kind alkaid recognises but an Arrow subcommand cannot read
// should go instead.
std::string WhereToSend(DataKind kind) {
  auto route = [](const char* sub, const char* what) -> std::string {
    if (Subcommands().count(sub) != 0) {
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

struct Opened {
  std::unique_ptr<Input> input;
  int exit_code = kExitOk;
};

Status WithLimitHint(const Status& st, const std::string& command);

// `command`: the subcommand, for hints in a text reader's errors.
Opened OpenOrReport(const std::string& path, const std::vector<std::string>& columns,
                    const ipc::IpcReadOptions& options = ipc::IpcReadOptions(),
                    const TextReadOptions* text = nullptr, const std::string& command = "") {
  DataKind kind = DataKind::kIpcStream;
  auto input = Input::Open(path, columns, options, &kind, text);
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
  return {nullptr, Report(subject, read_as_text ? WithLimitHint(st, command) : st)};
}

// ---------------------------------------------------------------------------
// Writing IPC

Result<std::unique_ptr<ipc::RecordBatchWriter>> MakeIpcWriter(io::OutputStream* sink,
                                                              const SchemaPtr& schema,
                                                              const DictionaryIds& ids,
                                                              const WriteSettings& settings) {
  ipc::IpcWriteOptions options;
  ALKAID_ASSIGN_OR_RAISE(options.compression, ParseCompression(settings.compression));
  // Compressed output: batches are compressed on every core, each while the
  // one before it is written.
  options.use_threads = options.compression != ipc::CompressionType::kNone;
  options.write_behind = options.use_threads;
  if (settings.dialect == "alkaid") {
    options.dialect = ipc::IpcDialect::kAlkaid;
  } else if (settings.dialect != "arrow") {
    return Status::KeyError("unknown dialect '", settings.dialect, "' (expected arrow or alkaid)");
  }
  if (!ids.empty()) options.dictionary_ids = ids;
  if (settings.format == "file") return ipc::MakeFileWriter(sink, schema, options);
  if (settings.format == "stream") return ipc::MakeStreamWriter(sink, schema, options);
  return Status::KeyError("unknown format '", settings.format, "' (expected file or stream)");
}

// Writes what `next` yields (until it returns nullptr) to `out` through a
// temporary file; on any failure the target is left as it was.
Status WriteBatches(const std::string& out, const SchemaPtr& schema, const DictionaryIds& ids,
                    const WriteSettings& settings,
                    const std::function<Result<RecordBatchPtr>()>& next, const Input* input) {
  ALKAID_ASSIGN_OR_RAISE(auto file, OutputFile::Create(out));
  ALKAID_ASSIGN_OR_RAISE(auto writer, MakeIpcWriter(file->stream(), schema, ids, settings));
  Progress progress("alkaid: writing " + out);
  int64_t batches = 0, rows = 0;
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, next());
    if (batch == nullptr) break;
    ALKAID_RETURN_NOT_OK(writer->WriteRecordBatch(*batch));
    ++batches;
    rows += batch->num_rows();
    progress.Update(batches, rows, input);
  }
  ALKAID_RETURN_NOT_OK(writer->Close());
  progress.Finish();
  return file->Commit();
}

// ---------------------------------------------------------------------------
// Subcommands

int RunSchema(const std::string& path) {
  auto [input, code] = OpenOrReport(path, {});
  if (!input) return code;
  if (input->is_file_format()) {
    int n = input->file()->num_record_batches();
    std::cout << "IPC file, " << n << (n == 1 ? " batch\n" : " batches\n");
  } else {
    std::cout << "IPC stream\n";
  }
  std::cout << input->schema()->ToString(/*show_metadata=*/true) << "\n";
  for (const auto& [field_path, id] : input->dictionary_ids().entries()) {
    std::cout << "-- dictionary id " << id << " at field path";
    for (int i : field_path) std::cout << " " << i;
    std::cout << "\n";
  }
  return kExitOk;
}

Result<std::unique_ptr<BatchPrinter>> MakePrinter(const DisplaySettings& display,
                                                  const std::string& path) {
  const OutputFormat* format = FindOutputFormat(display.format);
  if (format == nullptr) return Status::KeyError("unknown output format '", display.format, "'");
  return format->make(MakePrintOptions(display, path), &std::cout);
}

// Prints the first `limit` rows (-1: all), reading no batch beyond them.
int RunCat(const std::string& path, const std::string& columns, const std::string& limit_text,
           const DisplaySettings& display) {
  int64_t limit = -1;
  if (!limit_text.empty()) {
    auto parsed = ParseRowCount("--limit", limit_text);
    if (!parsed.ok()) return Report("cat", parsed.status(), kExitUsage);
    limit = *parsed;
  }
  auto names = SplitColumns(columns);
  if (!names.ok()) return Report("--columns", names.status(), kExitUsage);
  auto printer = MakePrinter(display, path);
  if (!printer.ok()) return Report("--format", printer.status(), kExitUsage);
  auto [input, code] = OpenOrReport(path, *names);
  if (!input) return code;
  Status st = (*printer)->Begin(*input->schema());
  PrintSummary summary;
  bool stopped = false;
  while (st.ok()) {
    if (limit >= 0 && summary.rows_printed >= limit) {
      stopped = true;
      break;
    }
    auto batch = input->Next();
    if (!batch.ok()) return Report(InputName(path), batch.status());
    if (*batch == nullptr) break;
    ++summary.batches_read;
    RecordBatchPtr rows = *batch;
    if (limit >= 0 && rows->num_rows() > limit - summary.rows_printed)
      rows = rows->Slice(0, limit - summary.rows_printed);
    st = (*printer)->PrintBatch(*rows);
    summary.rows_printed += rows->num_rows();
  }
  if (!st.ok()) return Report(InputName(path), st);
  if (stopped) {
    summary.note = "--limit " + std::to_string(limit);
  } else {
    summary.total_rows = summary.rows_printed;
  }
  st = (*printer)->End(summary);
  return st.ok() ? kExitOk : Report(InputName(path), st);
}

// The last `n` rows: a file is read backwards from its footer and only the
// batches holding those rows are loaded; a stream is read through, keeping
// just enough batches to cover n rows.
int RunTail(const std::string& path, const std::string& n_text, const DisplaySettings& display) {
  auto n = ParseRowCount("-n", n_text);
  if (!n.ok()) return Report("tail", n.status(), kExitUsage);
  auto printer = MakePrinter(display, path);
  if (!printer.ok()) return Report("--format", printer.status(), kExitUsage);
  auto [input, code] = OpenOrReport(path, {});
  if (!input) return code;
  std::deque<RecordBatchPtr> kept;
  int64_t kept_rows = 0, batches_read = 0, total = -1;
  if (input->is_file_format()) {
    for (int i = input->file()->num_record_batches() - 1; i >= 0 && kept_rows < *n; --i) {
      auto batch = input->ReadBatch(i);
      if (!batch.ok()) return Report(InputName(path), batch.status());
      ++batches_read;
      kept_rows += (*batch)->num_rows();
      kept.push_front(std::move(*batch));
    }
  } else {
    total = 0;
    while (true) {
      auto batch = input->Next();
      if (!batch.ok()) return Report(InputName(path), batch.status());
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
  return st.ok() ? kExitOk : Report(InputName(path), st);
}

// Rows in the input. A file's batches are read one by one with structural
// checks only (the row count does not depend on the values).
int RunCount(const std::string& path) {
  ipc::IpcReadOptions options;
  options.validate_full = false;
  auto [input, code] = OpenOrReport(path, {}, options);
  if (!input) return code;
  // From the record batch headers: nothing is decompressed or validated
  // (`validate` checks the data).
  auto rows = input->CountRows();
  if (!rows.ok()) return Report(InputName(path), rows.status());
  std::cout << *rows << "\n";
  return kExitOk;
}

// Per-column statistics gathered batch by batch.
struct ColumnStats {
  int64_t values = 0;  // non-null
  int64_t nulls = 0;
  bool ordered = false;  // min and max apply
  bool numeric = false;  // mean applies
  long double min = 0, max = 0, sum = 0;
  std::string min_text, max_text;
};

struct StatsVisitor {
  const ArrayData& data;
  ColumnStats* stats;

  template <typename T>
  Status Visit(const T& type) {
    if constexpr (has_c_type_v<T>) {
      using C = typename T::c_type;
      if constexpr (std::is_arithmetic_v<C> && !std::is_same_v<C, bool> &&
                    !std::is_same_v<T, HalfFloatType>) {
        const C* values = data.GetValues<C>(1);
        const bool numeric = type.is_integer() || type.is_floating();
        int64_t min_at = -1, max_at = -1;
        for (int64_t i = 0; i < data.length; ++i) {
          if (data.null_count != 0 && data.IsNull(i)) continue;
          long double v = static_cast<long double>(values[i]);
          if (std::isnan(v)) continue;
          if (numeric) stats->sum += v;
          if (!stats->ordered || v < stats->min) stats->min = v, min_at = i;
          if (!stats->ordered || v > stats->max) stats->max = v, max_at = i;
          stats->ordered = true;
        }
        stats->numeric = numeric;
        if (min_at >= 0) stats->min_text = FormatValue(data, min_at);
        if (max_at >= 0) stats->max_text = FormatValue(data, max_at);
      }
    }
    return Status::OK();
  }
};

int RunStats(const std::string& path, const std::string& columns) {
  auto names = SplitColumns(columns);
  if (!names.ok()) return Report("--columns", names.status(), kExitUsage);
  auto [input, code] = OpenOrReport(path, *names);
  if (!input) return code;
  const Schema& schema = *input->schema();
  std::vector<ColumnStats> stats(static_cast<size_t>(schema.num_fields()));
  int64_t rows = 0, batches = 0;
  while (true) {
    auto batch = input->Next();
    if (!batch.ok()) return Report(InputName(path), batch.status());
    if (*batch == nullptr) break;
    ++batches;
    rows += (*batch)->num_rows();
    for (int c = 0; c < (*batch)->num_columns(); ++c) {
      const ArrayData& data = *(*batch)->column_data(c);
      ColumnStats& s = stats[static_cast<size_t>(c)];
      int64_t nulls = data.GetNullCount();
      s.nulls += nulls;
      s.values += data.length - nulls;
      StatsVisitor visitor{data, &s};
      (void)VisitTypeInline(*data.type, &visitor);
    }
  }
  std::vector<std::vector<std::string>> table = {{"column", "type", "nulls", "min", "max", "mean"}};
  for (int c = 0; c < schema.num_fields(); ++c) {
    const ColumnStats& s = stats[static_cast<size_t>(c)];
    std::ostringstream mean;
    if (s.numeric && s.values > 0) mean << static_cast<double>(s.sum / s.values);
    table.push_back({schema.field(c)->name(), schema.field(c)->type()->ToString(),
                     std::to_string(s.nulls), s.ordered ? s.min_text : "", s.ordered ? s.max_text : "",
                     mean.str()});
  }
  std::vector<int64_t> widths(table[0].size(), 0);
  for (auto& row : table)
    for (size_t i = 0; i < row.size(); ++i) {
      row[i] = ClipToWidth(row[i], 40);
      widths[i] = std::max(widths[i], DisplayWidth(row[i]));
    }
  for (const auto& row : table) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line.append(static_cast<size_t>(widths[i] - DisplayWidth(row[i]) + 2), ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::cout << line << "\n";
  }
  std::cout << rows << (rows == 1 ? " row, " : " rows, ") << batches
            << (batches == 1 ? " batch\n" : " batches\n");
  return kExitOk;
}

// Compares one batch against the expected JSON batch, printing the first
// difference with batch, column and row.
bool BatchEqualsJson(const std::string& path, const std::string& json_path, size_t b,
                     const RecordBatch& got, const RecordBatch& want) {
  if (got.num_rows() != want.num_rows()) {
    std::cerr << "alkaid: " << path << ": batch " << b << " has " << got.num_rows()
              << " rows, expected " << want.num_rows() << "\n";
    return false;
  }
  for (int c = 0; c < got.num_columns(); ++c) {
    std::string diff = ArrayDiff(*got.column_data(c), *want.column_data(c));
    if (!diff.empty()) {
      std::cerr << "alkaid: " << path << ": batch " << b << ", column " << c << " ('"
                << got.column_name(c) << "') differs from " << json_path << ": " << diff << "\n";
      return false;
    }
  }
  return true;
}

int RunValidate(const std::string& path, const std::string& json_path) {
  // The expected JSON is read a batch at a time, beside the batch it is compared with.
  std::unique_ptr<integration_json::IntegrationJsonReader> expected;
  if (!json_path.empty()) {
    auto opened = integration_json::IntegrationJsonReader::OpenFile(json_path);
    if (!opened.ok()) return Report(json_path, opened.status());
    expected = std::move(opened).MoveValueUnsafe();
  }
  // Reads the rest of the expected JSON: a broken file is reported before
  // any difference from it.
  auto drain = [&]() -> Status {
    while (true) {
      ALKAID_ASSIGN_OR_RAISE(auto batch, expected->Next());
      if (batch == nullptr) return Status::OK();
    }
  };
  auto [input, code] = OpenOrReport(path, {});  // full validation is the default
  if (!input) return code;
  if (expected && !input->schema()->Equals(*expected->schema(), /*check_metadata=*/true)) {
    if (Status st = drain(); !st.ok()) return Report(json_path, st);
    std::cerr << "alkaid: " << path << ": schema differs from " << json_path << "\nactual:\n"
              << input->schema()->ToString(true) << "\nexpected:\n"
              << expected->schema()->ToString(true) << "\n";
    return kExitInvalid;
  }
  int64_t rows = 0;
  size_t batches = 0;
  while (true) {
    auto batch = input->Next();
    if (!batch.ok()) return Report(InputName(path), batch.status());
    if (expected) {
      auto want = expected->Next();
      if (!want.ok()) return Report(json_path, want.status());
      if (*batch == nullptr && *want != nullptr) {
        if (Status st = drain(); !st.ok()) return Report(json_path, st);
        std::cerr << "alkaid: " << path << ": " << batches << " batches, but " << json_path << " has "
                  << expected->num_batches_read() << "\n";
        return kExitInvalid;
      }
      if (*batch != nullptr && *want == nullptr) {
        std::cerr << "alkaid: " << path << ": more batches than the " << batches << " of "
                  << json_path << "\n";
        return kExitInvalid;
      }
      if (*batch != nullptr && !BatchEqualsJson(path, json_path, batches, **batch, **want))
        return kExitInvalid;
    }
    if (*batch == nullptr) break;
    rows += (*batch)->num_rows();
    ++batches;
  }
  std::cout << path << ": valid (" << batches << " batches, " << rows << " rows"
            << (json_path.empty() ? "" : ", equal to " + json_path) << ")\n";
  return kExitOk;
}

struct JsonOutputSettings {
  int64_t max_output_bytes = int64_t{64} << 30;
  int64_t max_column_bytes = -1;  // memory does not depend on it: values are written one by one
};

bool HasDictionaries(const Schema& schema) {
  return !DictionaryIds::AssignSequential(schema).empty();
}

// Streams integration JSON to stdout. Integration JSON puts the dictionaries
// first, so when the schema has dictionary-encoded fields a first pass
// collects them (a file: from its first batch, which the reader gives every
// dictionary; a stream: from every batch; stdin is then held in memory).
int RunToJson(const std::string& path, const JsonOutputSettings& limits) {
  std::map<int64_t, ArrayDataPtr> dictionaries;
  auto [input, code] = OpenOrReport(path, {});
  if (!input) return code;
  if (HasDictionaries(*input->schema())) {
    if (path == "-" && !input->is_file_format())
      return Report(InputName(path),
                    Status::NotImplemented(
                        "to-json of a stream with dictionary-encoded fields needs two passes; "
                        "save standard input to a file first"),
                    kExitUsage);
    integration_json::IntegrationDictionaries collector(input->dictionary_ids());
    if (input->is_file_format()) {
      // The reader gives every batch of a file all of its dictionaries, so
      // the first batch has them; reading it by index leaves Next() alone.
      if (input->file()->num_record_batches() > 0) {
        auto batch = input->ReadBatch(0);
        if (!batch.ok()) return Report(InputName(path), batch.status());
        if (Status st = collector.Add(**batch); !st.ok()) return Report(InputName(path), st);
      }
    } else {
      auto [first_pass, first_code] = OpenOrReport(path, {});
      if (!first_pass) return first_code;
      while (true) {
        auto batch = first_pass->Next();
        if (!batch.ok()) return Report(InputName(path), batch.status());
        if (*batch == nullptr) break;
        if (Status st = collector.Add(**batch); !st.ok()) return Report(InputName(path), st);
      }
    }
    dictionaries = collector.Take();
  }
  integration_json::IntegrationWriteOptions options;
  options.max_output_bytes = limits.max_output_bytes;
  options.max_column_bytes = limits.max_column_bytes;
  auto writer = integration_json::IntegrationJsonWriter::Open(&std::cout, input->schema(), input->dictionary_ids(),
                                                  dictionaries, options);
  if (!writer.ok()) return Report(InputName(path), writer.status());
  Progress progress("alkaid: to-json " + path);
  int64_t batches = 0, rows = 0;
  while (true) {
    auto batch = input->Next();
    if (!batch.ok()) return Report(InputName(path), batch.status());
    if (*batch == nullptr) break;
    progress.Update(++batches, rows += (*batch)->num_rows(), input.get());
    Status st = (*writer)->WriteRecordBatch(**batch);
    if (!st.ok()) {
      std::cout << std::endl;
      if (st.code() == StatusCode::kCapacityError)
        st = Status::CapacityError(st.message(), " (raise --max-column-bytes or --max-output-bytes)");
      return Report(InputName(path), st);
    }
  }
  progress.Finish();
  Status st = (*writer)->Close();
  std::cout << "\n" << std::flush;
  if (!st.ok()) return Report(InputName(path), st);
  if (!std::cout) return Report(InputName(path), Status::IOError("writing standard output failed"));
  return kExitOk;
}

Result<integration_json::IntegrationFile> ReadJsonInput(const std::string& in) {
  if (in != "-") return integration_json::ReadIntegrationFile(in);
  std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  ALKAID_ASSIGN_OR_RAISE(text, integration_json::MaybeGunzip(std::move(text)));
  return integration_json::ParseIntegrationJson(text);
}

int RunFromJson(const std::string& in, const std::string& out, const WriteSettings& settings) {
  if (in != "-") {
    if (Status st = CheckDistinctFiles(in, out); !st.ok()) return Report(out, st, kExitUsage);
  }
  auto file = ReadJsonInput(in);
  if (!file.ok()) return Report(InputName(in), file.status());
  size_t next = 0;
  Status st = WriteBatches(
      out, file->schema, file->dictionary_ids, settings,
      [&]() -> Result<RecordBatchPtr> {
        if (next == file->batches.size()) return RecordBatchPtr();
        return std::move(file->batches[next++]);
      },
      nullptr);
  if (!st.ok()) return Report(out, st);
  return kExitOk;
}

// ---------------------------------------------------------------------------
// Text input options (from-csv, from-jsonl)

struct TextSettings {
  std::string delimiter = ",";
  std::string quote = "\"";
  bool no_header = false;
  std::string column_names;
  std::optional<std::string> nulls;
  std::string types;
  int64_t skip_rows = 0;
  int64_t inference_rows = 10000;
  int64_t block_size = 1 << 20;
  int threads = 0;
  bool fill_missing = false;
  bool ignore_unexpected = false;
  bool no_infer_temporal = false;
  int64_t missing_nulls_per_byte = jsonl::ReadOptions().missing_nulls_per_byte;
  int64_t max_columns = csv::ReadOptions().max_columns;
  // The same default in both readers (max_record_bytes, max_line_bytes).
  int64_t max_record_bytes = csv::ReadOptions().max_record_bytes;
};

// A one-byte delimiter or quote; "tab" and "\t" spell a tab.
Result<char> ParseSeparator(const std::string& option, const std::string& text) {
  if (text == "tab" || text == "\\t" || text == "\t") return '\t';
  if (option == "--quote" && (text.empty() || text == "none")) return '\0';
  if (text.size() != 1 || text[0] == '\n' || text[0] == '\r')
    return Status::KeyError(option, " takes one character (or 'tab'), got '", text, "'");
  return text[0];
}

// "a,b,,c" -> {"a", "b", "", "c"}: empty entries kept (an empty null spelling).
std::vector<std::string> SplitKeepingEmpty(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t comma = list.find(',', start);
    size_t length = comma == std::string::npos ? std::string::npos : comma - start;
    out.push_back(list.substr(start, length));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

Result<TimeUnit> ParseUnit(const std::string& text) {
  if (text == "s") return TimeUnit::kSecond;
  if (text == "ms") return TimeUnit::kMilli;
  if (text == "us") return TimeUnit::kMicro;
  if (text == "ns") return TimeUnit::kNano;
  return Status::KeyError("unknown time unit '", text, "' (expected s, ms, us or ns)");
}

// Type names for --types: the spellings of DataType::ToString() for the
// types a CSV column can be read as, plus a few common aliases.
Result<DataTypePtr> ParseTypeName(const std::string& text) {
  static const std::map<std::string, DataTypePtr (*)()> simple = {
      {"null", null},          {"bool", boolean},         {"boolean", boolean},
      {"int8", int8},          {"int16", int16},          {"int32", int32},
      {"int64", int64},        {"uint8", uint8},          {"uint16", uint16},
      {"uint32", uint32},      {"uint64", uint64},        {"float32", float32},
      {"float", float32},      {"float64", float64},      {"double", float64},
      {"utf8", utf8},          {"string", utf8},          {"large_utf8", large_utf8},
      {"large_string", large_utf8}, {"utf8_view", utf8_view}, {"string_view", utf8_view},
      {"binary", binary},      {"large_binary", large_binary}, {"binary_view", binary_view},
      {"date32", date32},      {"date64", date64}};
  if (auto it = simple.find(text); it != simple.end()) return it->second();
  // name[args] or name(args)
  size_t open = text.find_first_of("[(");
  char close = open != std::string::npos && text[open] == '[' ? ']' : ')';
  if (open == std::string::npos || text.back() != close)
    return Status::KeyError("unknown type '", text, "' (e.g. int64, float64, utf8, bool, date32, ",
                            "timestamp[ms], timestamp[us,UTC], decimal128(10,2))");
  std::string name = text.substr(0, open);
  std::vector<std::string> args = SplitKeepingEmpty(text.substr(open + 1, text.size() - open - 2));
  auto number = [&](size_t i) -> Result<int32_t> {
    char* end = nullptr;
    long v = std::strtol(args[i].c_str(), &end, 10);
    if (args[i].empty() || *end != '\0' || v < 0 || v > 1000)
      return Status::KeyError("bad number '", args[i], "' in type '", text, "'");
    return static_cast<int32_t>(v);
  };
  if (name == "timestamp" && (args.size() == 1 || args.size() == 2)) {
    ALKAID_ASSIGN_OR_RAISE(TimeUnit unit, ParseUnit(args[0]));
    return timestamp(unit, args.size() == 2 ? args[1] : "");
  }
  if ((name == "time32" || name == "time64" || name == "duration") && args.size() == 1) {
    ALKAID_ASSIGN_OR_RAISE(TimeUnit unit, ParseUnit(args[0]));
    if (name == "duration") return duration(unit);
    const bool wide = unit == TimeUnit::kMicro || unit == TimeUnit::kNano;
    if (wide != (name == "time64"))
      return Status::KeyError("type '", text, "': time32 takes s or ms, time64 us or ns");
    return wide ? time64(unit) : time32(unit);
  }
  if (name == "fixed_size_binary" && args.size() == 1) {
    ALKAID_ASSIGN_OR_RAISE(int32_t width, number(0));
    return fixed_size_binary(width);
  }
  if (name.rfind("decimal", 0) == 0 && args.size() == 2) {
    ALKAID_ASSIGN_OR_RAISE(int32_t precision, number(0));
    ALKAID_ASSIGN_OR_RAISE(int32_t scale, number(1));
    if (name == "decimal32" && precision <= 9) return decimal32(precision, scale);
    if (name == "decimal64" && precision <= 18) return decimal64(precision, scale);
    if ((name == "decimal128" || name == "decimal") && precision <= 38)
      return decimal128(precision, scale);
    if (name == "decimal256" && precision <= 76) return decimal256(precision, scale);
  }
  return Status::KeyError("unknown type '", text, "'");
}

// "name:type,name:type"; commas inside [] and () belong to the type.
Result<std::map<std::string, DataTypePtr>> ParseColumnTypes(const std::string& list) {
  std::map<std::string, DataTypePtr> out;
  std::vector<std::string> entries;
  int depth = 0;
  std::string current;
  for (char c : list) {
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      entries.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) entries.push_back(std::move(current));
  for (const auto& entry : entries) {
    size_t colon = entry.find(':');
    if (colon == std::string::npos || colon == 0)
      return Status::KeyError("--types entries are NAME:TYPE, got '", entry, "'");
    ALKAID_ASSIGN_OR_RAISE(out[entry.substr(0, colon)], ParseTypeName(entry.substr(colon + 1)));
  }
  return out;
}

Result<TextReadOptions> MakeTextReadOptions(const TextSettings& t) {
  TextReadOptions options;
  if (t.block_size < 1024) return Status::KeyError("--block-size must be at least 1024 bytes");
  if (t.inference_rows < 1) return Status::KeyError("--inference-rows must be at least 1");
  if (t.threads < 0) return Status::KeyError("--threads must be 0 (all cores) or more");
  if (t.skip_rows < 0) return Status::KeyError("--skip-rows must be 0 or more");
  if (t.missing_nulls_per_byte < 0)
    return Status::KeyError("--missing-nulls-per-byte must be 0 (no limit) or more");
  if (t.max_columns < 0) return Status::KeyError("--max-columns must be 0 (no limit) or more");
  if (t.max_record_bytes < 1)
    return Status::KeyError("--max-record-bytes and --max-line-bytes must be at least 1");
  csv::ReadOptions& c = options.csv;
  ALKAID_ASSIGN_OR_RAISE(c.delimiter, ParseSeparator("--delimiter", t.delimiter));
  ALKAID_ASSIGN_OR_RAISE(c.quote, ParseSeparator("--quote", t.quote));
  c.header = !t.no_header;
  if (!t.column_names.empty()) {
    ALKAID_ASSIGN_OR_RAISE(c.column_names, SplitColumns(t.column_names));
  }
  if (t.nulls) c.null_values = SplitKeepingEmpty(*t.nulls);
  if (!t.types.empty()) {
    ALKAID_ASSIGN_OR_RAISE(c.column_types, ParseColumnTypes(t.types));
  }
  c.skip_rows = t.skip_rows;
  c.inference_rows = t.inference_rows;
  c.block_size = t.block_size;
  c.num_threads = t.threads;
  if (t.fill_missing) c.ragged_rows = csv::RaggedRows::kFillNull;
  c.missing_nulls_per_byte = t.missing_nulls_per_byte;
  c.max_columns = t.max_columns;
  c.max_record_bytes = t.max_record_bytes;
  jsonl::ReadOptions& j = options.jsonl;
  j.inference_rows = t.inference_rows;
  j.block_size = t.block_size;
  j.num_threads = t.threads;
  if (t.ignore_unexpected) j.unexpected_fields = jsonl::UnexpectedFields::kIgnore;
  j.infer_temporal = !t.no_infer_temporal;
  j.missing_nulls_per_byte = t.missing_nulls_per_byte;
  j.max_columns = t.max_columns;
  j.max_line_bytes = t.max_record_bytes;
  return options;
}

// For a text reader's error that names one of its limits (a value that does
// not fit the type inferred from the sample, the allowance of nulls), the
// options of `command` that change it; convert reads text with default
// options, so it points at from-csv and from-jsonl.
std::string LimitHint(const std::string& message, const std::string& command) {
  if (message.find("inference_rows") != std::string::npos) {
    if (command == "from-csv")
      return "; the options for that are --inference-rows N and --types NAME:TYPE";
    if (command == "from-jsonl") {
      if (message.find("ignore unexpected fields") != std::string::npos)
        return "; the options for that are --inference-rows N and --ignore-unexpected-fields";
      if (message.find("infer_temporal") != std::string::npos)
        return "; the options for that are --inference-rows N and --no-infer-temporal";
      return "; the option for that is --inference-rows N";
    }
    return "; convert reads text with default options: from-csv takes --inference-rows N and "
           "--types NAME:TYPE, from-jsonl --inference-rows N";
  }
  if (message.find("missing_nulls_per_byte") != std::string::npos) {
    if (command == "convert")
      return "; convert reads text with default options: from-csv and from-jsonl take "
             "--missing-nulls-per-byte N";
    return "; the option for that is --missing-nulls-per-byte N";
  }
  if (message.find("max_record_bytes") != std::string::npos ||
      message.find("max_line_bytes") != std::string::npos) {
    if (command == "convert")
      return "; convert reads text with default options: from-csv takes --max-record-bytes N, "
             "from-jsonl --max-line-bytes N";
    const bool sum = message.find("block_size") != std::string::npos;
    if (command == "from-csv") {
      return sum ? "; the options for that are --block-size BYTES and --max-record-bytes N"
                 : "; the option for that is --max-record-bytes N";
    }
    return sum ? "; the options for that are --block-size BYTES and --max-line-bytes N"
               : "; the option for that is --max-line-bytes N";
  }
  if (message.find("max_columns") != std::string::npos) {
    if (command == "convert")
      return "; convert reads text with default options: from-csv and from-jsonl take "
             "--max-columns N";
    if (command == "from-csv")
      return "; the options for that are --max-columns N and --columns NAME,...";
    return "; the option for that is --max-columns N";
  }
  return "";
}

// `st` with LimitHint's options appended, when it names a limit.
Status WithLimitHint(const Status& st, const std::string& command) {
  std::string hint = LimitHint(st.message(), command);
  return hint.empty() ? st : Status(st.code(), st.message() + hint);
}

// Reads `in` (text or IPC, as `text` says) and writes it as IPC to `out`,
// batch by batch; `command` is the subcommand, for hints in errors.
int ConvertInput(const std::string& in, const std::string& out, const std::string& columns,
                 const WriteSettings& settings, const TextReadOptions& text,
                 const std::string& command) {
  auto names = SplitColumns(columns);
  if (!names.ok()) return Report("--columns", names.status(), kExitUsage);
  if (in != "-") {
    if (Status st = CheckDistinctFiles(in, out); !st.ok()) return Report(out, st, kExitUsage);
  }
  auto [input, code] = OpenOrReport(in, *names, ipc::IpcReadOptions(), &text, command);
  if (!input) return code;
  // After a projection the original ids' paths no longer apply; renumber.
  DictionaryIds ids = names->empty() ? input->dictionary_ids() : DictionaryIds();
  Input* reader = input.get();
  Status st = WriteBatches(
      out, input->schema(), ids, settings, [reader] { return reader->Next(); }, reader);
  if (!st.ok()) {
    // A limit of the text reader: say how to change it with this tool.
    if (input->is_text()) st = WithLimitHint(st, command);
    return Report(st.IsIOError() ? out : InputName(in), st);
  }
  return kExitOk;
}

// from-csv and from-jsonl: the text format is given, not guessed.
int RunFromText(InputFormat format, const std::string& in, const std::string& out,
                const std::string& columns, const TextSettings& text_settings,
                const WriteSettings& settings) {
  auto text = MakeTextReadOptions(text_settings);
  if (!text.ok()) {
    const char* subcommand = format == InputFormat::kCsv ? "from-csv" : "from-jsonl";
    return Report(subcommand, text.status(), kExitUsage);
  }
  text->format = format;
  return ConvertInput(in, out, columns, settings, *text,
                      format == InputFormat::kCsv ? "from-csv" : "from-jsonl");
}

// convert: IPC in, or CSV / JSON Lines recognised by content (or forced by
// --input-format), read with default options.
int RunConvert(const std::string& in, const std::string& out, const std::string& columns,
               const std::string& input_format, const WriteSettings& settings) {
  TextReadOptions text;
  if (input_format == "arrow") text.format = InputFormat::kArrow;
  else if (input_format == "csv") text.format = InputFormat::kCsv;
  else if (input_format == "jsonl") text.format = InputFormat::kJsonLines;
  return ConvertInput(in, out, columns, settings, text, "convert");
}

void AddWriteOptions(CLI::App* cmd, WriteSettings* settings) {
  cmd->add_option("--format", settings->format, "Output IPC format")
      ->check(CLI::IsMember({"file", "stream"}))
      ->capture_default_str();
  cmd->add_option("--compression", settings->compression, "Body compression of the output")
      ->check(CLI::IsMember({"none", "lz4", "zstd"}));
  cmd->add_option("--dialect", settings->dialect,
                  "Spelling of file magic and extension keys: arrow (default) or alkaid")
      ->check(CLI::IsMember({"arrow", "alkaid"}))
      ->capture_default_str();
}

void AddDisplayOptions(CLI::App* cmd, DisplaySettings* display) {
  std::vector<std::string> names;
  for (const auto& f : OutputFormats()) names.push_back(f.name);
  cmd->add_option("--format", display->format, "Output format")
      ->check(CLI::IsMember(names))
      ->capture_default_str();
  cmd->add_option("--max-width", display->max_width,
                  "Widest line in columns (default: $COLUMNS, else the terminal's width, else no "
                  "limit when not a terminal; 0: no limit)");
  cmd->add_option("--max-cell", display->max_cell, "Widest cell in columns")->capture_default_str();
}

void AddTextOptions(CLI::App* cmd, TextSettings* t, std::string* columns, bool csv) {
  cmd->add_option("--columns", *columns, "Comma-separated column names to read, in this order");
  if (csv) {
    cmd->add_option("--delimiter", t->delimiter, "Field separator: one character, or 'tab'")
        ->capture_default_str();
    cmd->add_option("--quote", t->quote, "Quote character ('none': no quoting)")
        ->capture_default_str();
    cmd->add_flag("--no-header", t->no_header,
                  "The first line is data; columns are named f0, f1, ...");
    cmd->add_option("--column-names", t->column_names,
                    "Comma-separated names for the columns (replace the header's)");
    cmd->add_option_function<std::string>(
        "--null", [t](const std::string& spellings) { t->nulls = spellings; },
                    "Comma-separated spellings of null, e.g. 'NA,-' or '' (default: empty, NA, "
                    "N/A, NULL, null); quoted fields are never null");
    cmd->add_option("--types", t->types,
                    "Types of some columns: NAME:TYPE,... (e.g. id:int32,at:timestamp[ms,UTC],"
                    "price:decimal128(10,2)); the rest are inferred");
    cmd->add_option("--skip-rows", t->skip_rows, "Lines to drop before the header");
    cmd->add_flag("--fill-missing", t->fill_missing,
                  "Records with fewer fields than the header get nulls (default: an error)");
  } else {
    cmd->add_flag("--ignore-unexpected-fields", t->ignore_unexpected,
                  "Drop keys first seen after the inference sample (default: an error)");
    cmd->add_flag("--no-infer-temporal", t->no_infer_temporal,
                  "Strings are always utf8 (default: a field whose sampled strings are all dates "
                  "or timestamps, or all times of day, is date32, timestamp or time32/64)");
  }
  cmd->add_option("--inference-rows", t->inference_rows, "Rows read to infer the column types")
      ->capture_default_str();
  cmd->add_option("--missing-nulls-per-byte", t->missing_nulls_per_byte,
                  csv ? "Nulls --fill-missing may add per byte of a block (at least 4 Mi a "
                        "block; 0: no limit)"
                      : "Nulls left-out keys may add per byte of a block (at least 4 Mi a "
                        "block; 0: no limit)")
      ->capture_default_str();
  cmd->add_option("--max-columns", t->max_columns,
                  csv ? "Most columns the header (or first record) may have (each costs about "
                        "1 KB a batch; 0: no limit)"
                      : "Most fields the inferred schema may have, nested ones included (each "
                        "costs about 1 KB a batch; 0: no limit)")
      ->capture_default_str();
  cmd->add_option(csv ? "--max-record-bytes" : "--max-line-bytes", t->max_record_bytes,
                  csv ? "Longest record accepted, in bytes (a longer one, or a quote never "
                        "closed, is an error instead of being held whole)"
                      : "Longest line accepted, in bytes (a longer one is an error instead of "
                        "being held whole)")
      ->capture_default_str();
  cmd->add_option("--block-size", t->block_size, "Bytes parsed per batch")->capture_default_str();
  cmd->add_option("--threads", t->threads, "Parsing threads (0: one per core)")
      ->capture_default_str();
}

int UnknownSubcommand(const std::string& name) {
  std::cerr << "alkaid: unknown subcommand '" << name << "'; subcommands:";
  for (const auto& s : Subcommands()) std::cerr << " " << s;
  std::cerr << " (alkaid --help describes them)\n";
  return kExitUsage;
}

}  // namespace

int Main(int argc, char** argv) {
  CLI::App app{"alkaid: inspect, validate and convert Apache Arrow IPC data"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("alkaid ") + Version());
  std::function<int()> run;

  std::string file, json_path, in, out, columns, limit, rows = "10", input_format = "auto";
  WriteSettings settings;
  TextSettings text_settings;
  DisplaySettings display;
  JsonOutputSettings json_limits;

  auto* schema_cmd = app.add_subcommand("schema", "Print the schema with its metadata (reads nothing else)");
  schema_cmd->add_option("FILE", file, "IPC file or stream, '-' for stdin")->required();
  schema_cmd->callback([&] { run = [&] { return RunSchema(file); }; });

  auto* cat_cmd = app.add_subcommand("cat", "Print the data, batch by batch as it is read");
  cat_cmd->add_option("FILE", file, "IPC file or stream, '-' for stdin")->required();
  cat_cmd->add_option("--columns", columns, "Comma-separated column names to show");
  cat_cmd->add_option("--limit", limit, "Print at most N rows (reads only the batches needed)");
  AddDisplayOptions(cat_cmd, &display);
  cat_cmd->callback([&] { run = [&] { return RunCat(file, columns, limit, display); }; });

  auto* head_cmd = app.add_subcommand("head", "Print the first rows (reads only the batches needed)");
  head_cmd->add_option("FILE", file, "IPC file or stream, '-' for stdin")->required();
  head_cmd->add_option("-n", rows, "Rows to print")->capture_default_str();
  head_cmd->add_option("--columns", columns, "Comma-separated column names to show");
  AddDisplayOptions(head_cmd, &display);
  head_cmd->callback([&] { run = [&] { return RunCat(file, columns, rows, display); }; });

  auto* tail_cmd = app.add_subcommand("tail", "Print the last rows (a file: reads only the last batches)");
  tail_cmd->add_option("FILE", file, "IPC file or stream, '-' for stdin")->required();
  tail_cmd->add_option("-n", rows, "Rows to print")->capture_default_str();
  AddDisplayOptions(tail_cmd, &display);
  tail_cmd->callback([&] { run = [&] { return RunTail(file, rows, display); }; });

  auto* count_cmd = app.add_subcommand("count", "Print the number of rows");
  count_cmd->add_option("FILE", file, "IPC file or stream, '-' for stdin")->required();
  count_cmd->callback([&] { run = [&] { return RunCount(file); }; });

  auto* stats_cmd = app.add_subcommand("stats", "Per column: type, nulls, min, max, mean of numbers");
  stats_cmd->add_option("FILE", file, "IPC file or stream, '-' for stdin")->required();
  stats_cmd->add_option("--columns", columns, "Comma-separated column names");
  stats_cmd->callback([&] { run = [&] { return RunStats(file, columns); }; });

  auto* validate_cmd = app.add_subcommand(
      "validate", "Fully validate the data; with --json also compare it with integration JSON");
  validate_cmd->add_option("FILE", file, "IPC file or stream, '-' for stdin")->required();
  validate_cmd->add_option("--json", json_path, "Expected content (integration JSON, .json or .json.gz)");
  validate_cmd->callback([&] { run = [&] { return RunValidate(file, json_path); }; });

  auto* to_json_cmd = app.add_subcommand("to-json", "Write the data as integration JSON to stdout");
  to_json_cmd->add_option("FILE", file, "IPC file or stream, '-' for stdin")->required();
  to_json_cmd->add_option("--max-output-bytes", json_limits.max_output_bytes,
                          "Refuse to write more JSON than this (-1: no limit)")
      ->capture_default_str();
  to_json_cmd->add_option("--max-column-bytes", json_limits.max_column_bytes,
                          "Refuse a column whose JSON would exceed this (-1: no limit)")
      ->capture_default_str();
  to_json_cmd->callback([&] { run = [&] { return RunToJson(file, json_limits); }; });

  auto* from_json_cmd = app.add_subcommand("from-json", "Convert integration JSON to an IPC file or stream");
  from_json_cmd->add_option("IN", in, "Integration JSON (.json or .json.gz), '-' for stdin")->required();
  from_json_cmd->add_option("OUT", out, "Output path, '-' for stdout")->required();
  AddWriteOptions(from_json_cmd, &settings);
  from_json_cmd->callback([&] { run = [&] { return RunFromJson(in, out, settings); }; });

  struct TextSubcommand {
    const char* name;
    InputFormat format;
    const char* help;
    const char* input_help;
  };
  for (const TextSubcommand& t :
       {TextSubcommand{"from-csv", InputFormat::kCsv,
                       "Convert CSV to an IPC file or stream, block by block (types inferred "
                       "or given)",
                       "CSV file, '-' for stdin"},
        TextSubcommand{"from-jsonl", InputFormat::kJsonLines,
                       "Convert JSON Lines (one object per line) to an IPC file or stream",
                       "JSON Lines file, '-' for stdin"}}) {
    auto* cmd = app.add_subcommand(t.name, t.help);
    cmd->add_option("IN", in, t.input_help)->required();
    cmd->add_option("OUT", out, "Output path, '-' for stdout")->required();
    AddTextOptions(cmd, &text_settings, &columns, /*csv=*/t.format == InputFormat::kCsv);
    AddWriteOptions(cmd, &settings);
    cmd->callback([&, format = t.format] {
      run = [&, format] { return RunFromText(format, in, out, columns, text_settings, settings); };
    });
  }

  auto* convert_cmd = app.add_subcommand(
      "convert",
      "Rewrite an IPC file or stream (format, compression, dialect, columns); CSV and JSON Lines "
      "input is recognised and converted");
  convert_cmd->add_option("IN", in, "IPC file or stream, CSV or JSON Lines; '-' for stdin")
      ->required();
  convert_cmd->add_option("OUT", out, "Output path, '-' for stdout")->required();
  convert_cmd->add_option("--columns", columns, "Comma-separated column names to keep");
  convert_cmd->add_option("--input-format", input_format,
                          "What IN is: auto (by content), arrow, csv or jsonl")
      ->check(CLI::IsMember({"auto", "arrow", "csv", "jsonl"}))
      ->capture_default_str();
  AddWriteOptions(convert_cmd, &settings);
  convert_cmd->callback(
      [&] { run = [&] { return RunConvert(in, out, columns, input_format, settings); }; });

  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    Subcommands().insert(sub->get_name());
  if (argc > 1 && argv[1][0] != '-' && Subcommands().count(argv[1]) == 0) return UnknownSubcommand(argv[1]);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  RegisterCanonicalExtensionTypes();
  if (!run) return kExitUsage;
  // Every allocation is bounded at its source; this is the last resort so
  // that running out of memory is a message and an exit code, not an abort.
  try {
    return run();
  } catch (const std::bad_alloc&) {
    std::cout.flush();
    std::cerr << "alkaid: out of memory\n";
    return kExitInvalid;
  }
}

}  // namespace alkaid::cli

int main(int argc, char** argv) { return alkaid::cli::Main(argc, argv); }
