#include "text_options.h"

#include <vector>

#include "CLI/CLI.hpp"
#include "alkaid/type_name.h"
#include "options.h"

namespace alkaid::cli {

namespace {

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

// "name:type,name:type"; commas inside [], () and <> belong to the type.
Result<std::map<std::string, DataTypePtr>> ParseColumnTypes(const std::string& list) {
  std::map<std::string, DataTypePtr> out;
  std::vector<std::string> entries;
  int depth = 0;
  std::string current;
  for (char c : list) {
    if (c == '[' || c == '(' || c == '<') ++depth;
    if (c == ']' || c == ')' || c == '>') --depth;
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
    auto type = ParseTypeName(entry.substr(colon + 1));
    if (!type.ok()) {
      return Status::KeyError(type.status().message(),
                              " (e.g. int64, double, string, bool, date32, timestamp[ms], "
                              "timestamp[us, tz=UTC], decimal128(10, 2))");
    }
    out[entry.substr(0, colon)] = *type;
  }
  return out;
}

}  // namespace

void AddTextOptions(CLI::App* cmd, TextReadOptions* t, unsigned formats) {
  const bool csv = (formats & kCsvText) != 0;
  const bool jsonl = (formats & kJsonLinesText) != 0;
  // Keeps the first refusal for the command to report.
  auto fail = [t](Status st) {
    if (t->error.ok()) t->error = std::move(st);
  };
  auto at_least = [fail](const char* option, int64_t v, int64_t min, const char* what) {
    if (v < min) fail(Status::KeyError(option, " must be ", what));
    return v;
  };
  const csv::ReadOptions c;
  const jsonl::ReadOptions j;

  if (csv) {
    cmd->add_option_function<std::string>(
           "--delimiter",
           [t, fail](const std::string& v) {
             auto sep = ParseSeparator("--delimiter", v);
             t->delimiter_given = true;
             sep.ok() ? void(t->csv.delimiter = *sep) : fail(sep.status());
           },
           "CSV field separator: one character, or 'tab'")
        ->default_str(std::string(1, c.delimiter));
    cmd->add_option_function<std::string>(
           "--quote",
           [t, fail](const std::string& v) {
             auto q = ParseSeparator("--quote", v);
             q.ok() ? void(t->csv.quote = *q) : fail(q.status());
           },
           "CSV quote character ('none': no quoting)")
        ->default_str(std::string(1, c.quote));
    cmd->add_flag_callback("--no-header", [t] { t->csv.header = false; },
                           "The first CSV line is data; columns are named f0, f1, ...");
    cmd->add_option_function<std::string>(
        "--column-names",
        [t, fail](const std::string& v) {
          auto names = SplitColumns(v);
          names.ok() ? void(t->csv.column_names = *names) : fail(names.status());
        },
        "Comma-separated names for the CSV columns (replace the header's)");
    cmd->add_option_function<std::string>(
        "--null", [t](const std::string& v) { t->csv.null_values = SplitKeepingEmpty(v); },
        "Comma-separated spellings of null in CSV, e.g. 'NA,-' or '' (default: empty, NA, N/A, "
        "NULL, null); quoted fields are never null");
    cmd->add_option_function<std::string>(
        "--types",
        [t, fail](const std::string& v) {
          auto types = ParseColumnTypes(v);
          types.ok() ? void(t->csv.column_types = *types) : fail(types.status());
        },
        "Types of some CSV columns: NAME:TYPE,... (e.g. id:int32,at:timestamp[ms, tz=UTC],"
        "price:decimal128(10, 2)); the rest are inferred");
    cmd->add_option_function<int64_t>(
        "--skip-rows",
        [t, at_least](int64_t v) { t->csv.skip_rows = at_least("--skip-rows", v, 0, "0 or more"); },
        "CSV lines to drop before the header");
    cmd->add_flag_callback(
        "--fill-missing", [t] { t->csv.ragged_rows = csv::RaggedRows::kFillNull; },
        "CSV records with fewer fields than the header get nulls (default: an error)");
  }
  if (jsonl) {
    cmd->add_flag_callback(
        "--ignore-unexpected-fields",
        [t] { t->jsonl.unexpected_fields = jsonl::UnexpectedFields::kIgnore; },
        "JSON Lines keys first seen after the inference sample are dropped (default: an error)");
    cmd->add_flag_callback(
        "--no-infer-temporal", [t] { t->jsonl.infer_temporal = false; },
        "JSON Lines strings are always utf8 (default: a field whose sampled strings are all "
        "dates or timestamps, or all times of day, is date32, timestamp or time32/64)");
  }
  cmd->add_option_function<int64_t>(
         "--inference-rows",
         [t, at_least](int64_t v) {
           t->csv.inference_rows = t->jsonl.inference_rows =
               at_least("--inference-rows", v, 1, "at least 1");
         },
         "Rows read to infer the column types")
      ->default_str(std::to_string(c.inference_rows));
  cmd->add_option_function<int64_t>(
         "--missing-nulls-per-byte",
         [t, at_least](int64_t v) {
           t->csv.missing_nulls_per_byte = t->jsonl.missing_nulls_per_byte =
               at_least("--missing-nulls-per-byte", v, 0, "0 (no limit) or more");
         },
         "Nulls that short records (--fill-missing) or left-out keys may add per byte of a "
         "block (at least 4 Mi a block; 0: no limit)")
      ->default_str(std::to_string(c.missing_nulls_per_byte));
  cmd->add_option_function<int64_t>(
         "--max-columns",
         [t, at_least](int64_t v) {
           t->csv.max_columns = t->jsonl.max_columns =
               at_least("--max-columns", v, 0, "0 (no limit) or more");
         },
         "Most columns the CSV header (or first record) or the inferred JSON Lines schema "
         "(nested fields included) may have; each costs about 1 KB a batch (0: no limit)")
      ->default_str(std::to_string(c.max_columns));
  if (csv) {
    cmd->add_option_function<int64_t>(
           "--max-record-bytes",
           [t, at_least](int64_t v) {
             t->csv.max_record_bytes = at_least("--max-record-bytes", v, 1, "at least 1");
           },
           "Longest CSV record accepted, in bytes (a longer one, or a quote never closed, is "
           "an error instead of being held whole)")
        ->default_str(std::to_string(c.max_record_bytes));
  }
  if (jsonl) {
    cmd->add_option_function<int64_t>(
           "--max-line-bytes",
           [t, at_least](int64_t v) {
             t->jsonl.max_line_bytes = at_least("--max-line-bytes", v, 1, "at least 1");
           },
           "Longest JSON Lines line accepted, in bytes (a longer one is an error instead of "
           "being held whole)")
        ->default_str(std::to_string(j.max_line_bytes));
  }
  cmd->add_option_function<int64_t>(
         "--block-size",
         [t, at_least](int64_t v) {
           t->csv.block_size = t->jsonl.block_size =
               at_least("--block-size", v, 1024, "at least 1024 bytes");
         },
         "Bytes of text parsed per batch")
      ->default_str(std::to_string(c.block_size));
  cmd->add_option_function<int>(
         "--threads",
         [t, at_least](int v) {
           t->csv.num_threads = t->jsonl.num_threads =
               static_cast<int>(at_least("--threads", v, 0, "0 (all cores) or more"));
         },
         "Text parsing and Parquet decoding threads (0: one per core)")
      ->default_str("0");

  // The formats each flag applies to (a flag given for input of another
  // format is refused rather than silently ignored).
  auto applies = [cmd, t](std::initializer_list<const char*> flags, unsigned to) {
    for (const char* flag : flags)
      if (cmd->get_option_no_throw(flag) != nullptr) t->applies_to[flag] = to;
  };
  applies({"--delimiter", "--quote", "--no-header", "--column-names", "--null", "--types",
           "--skip-rows", "--fill-missing", "--max-record-bytes"},
          kCsvText);
  applies({"--ignore-unexpected-fields", "--no-infer-temporal", "--max-line-bytes"},
          kJsonLinesText);
  applies({"--inference-rows", "--missing-nulls-per-byte", "--max-columns", "--block-size"},
          kAnyText);
  applies({"--threads"}, kAnyText | kParquetInput);
}

}  // namespace alkaid::cli
