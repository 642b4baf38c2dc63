// `alkaid`: inspect, validate and convert Arrow IPC files and streams and
// Arrow integration JSON.
//
// Exit codes: 0 success; 1 the data is invalid or differs from what was
// expected; 2 usage errors and I/O errors (missing file, unwritable output).
#include <CLI/CLI.hpp>

#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "alkaid/compare.h"
#include "alkaid/extension_registry.h"
#include "alkaid/io/output.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/json/integration.h"
#include "input.h"
#include "table_printer.h"

namespace alkaid::cli {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitInvalid = 1;
constexpr int kExitUsage = 2;

int ExitCodeFor(const Status& st) {
  return st.IsIOError() ? kExitUsage : kExitInvalid;
}

int Report(const std::string& subject, const Status& st) {
  std::cerr << "alkaid: " << subject << ": " << st.message() << "\n";
  return ExitCodeFor(st);
}

Result<std::vector<std::string>> SplitColumns(const std::string& list) {
  std::vector<std::string> out;
  if (list.empty()) return out;
  size_t start = 0;
  while (true) {
    size_t comma = list.find(',', start);
    std::string name = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (name.empty()) return Status::Invalid("empty column name in --columns '", list, "'");
    out.push_back(std::move(name));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

Result<ipc::CompressionType> ParseCompression(const std::string& name) {
  if (name == "none" || name.empty()) return ipc::CompressionType::kNone;
  if (name == "lz4") return ipc::CompressionType::kLz4Frame;
  if (name == "zstd") return ipc::CompressionType::kZstd;
  return Status::Invalid("unknown compression '", name, "' (expected none, lz4 or zstd)");
}

struct WriteSettings {
  std::string format = "file";
  std::string compression = "none";
  std::string dialect = "arrow";
};

// Writes batches to `path` ("-" for stdout) in the requested format.
Status WriteOutput(const std::string& path, const SchemaPtr& schema,
                   const std::vector<RecordBatchPtr>& batches, const DictionaryIds& ids,
                   const WriteSettings& settings) {
  ipc::IpcWriteOptions options;
  ALKAID_ASSIGN_OR_RAISE(options.compression, ParseCompression(settings.compression));
  if (settings.dialect == "alkaid") {
    options.dialect = ipc::IpcDialect::kAlkaid;
  } else if (settings.dialect != "arrow") {
    return Status::Invalid("unknown dialect '", settings.dialect, "' (expected arrow or alkaid)");
  }
  if (!ids.empty()) options.dictionary_ids = ids;

  std::unique_ptr<io::FileOutputStream> sink;
  if (path == "-") {
    ALKAID_ASSIGN_OR_RAISE(sink, io::FileOutputStream::FromDescriptor(1, /*owns_fd=*/false));
  } else {
    ALKAID_ASSIGN_OR_RAISE(sink, io::FileOutputStream::Open(path));
  }
  std::unique_ptr<ipc::RecordBatchWriter> writer;
  if (settings.format == "file") {
    ALKAID_ASSIGN_OR_RAISE(writer, ipc::MakeFileWriter(sink.get(), schema, options));
  } else if (settings.format == "stream") {
    ALKAID_ASSIGN_OR_RAISE(writer, ipc::MakeStreamWriter(sink.get(), schema, options));
  } else {
    return Status::Invalid("unknown format '", settings.format, "' (expected file or stream)");
  }
  for (const auto& batch : batches) ALKAID_RETURN_NOT_OK(writer->WriteRecordBatch(*batch));
  ALKAID_RETURN_NOT_OK(writer->Close());
  return sink->Close();
}

int RunSchema(const std::string& path) {
  ipc::IpcReadOptions options;
  auto input = ReadInput(path, {}, options);
  if (!input.ok()) return Report(path, input.status());
  std::cout << (input->is_file_format ? "IPC file" : "IPC stream") << ", "
            << input->batches.size() << (input->batches.size() == 1 ? " batch\n" : " batches\n");
  std::cout << input->schema->ToString(/*show_metadata=*/true) << "\n";
  for (const auto& [field_path, id] : input->dictionary_ids.entries()) {
    std::cout << "-- dictionary id " << id << " at field path";
    for (int i : field_path) std::cout << " " << i;
    std::cout << "\n";
  }
  return kExitOk;
}

int RunCat(const std::string& path, const std::string& columns, int64_t limit) {
  auto names = SplitColumns(columns);
  if (!names.ok()) return Report("--columns", names.status()), kExitUsage;
  auto input = ReadInput(path, *names, ipc::IpcReadOptions());
  if (!input.ok()) return Report(path, input.status());
  TablePrintOptions print;
  print.limit = limit;
  PrintTable(*input->schema, input->batches, print, std::cout);
  return kExitOk;
}

// Compares what was read against the expected JSON, printing the first
// difference with batch, column and row.
int CompareWithJson(const std::string& path, const InputData& input, const std::string& json_path) {
  auto expected = json::ReadIntegrationFile(json_path);
  if (!expected.ok()) return Report(json_path, expected.status());
  if (!input.schema->Equals(*expected->schema, /*check_metadata=*/true)) {
    std::cerr << "alkaid: " << path << ": schema differs from " << json_path << "\nactual:\n"
              << input.schema->ToString(true) << "\nexpected:\n"
              << expected->schema->ToString(true) << "\n";
    return kExitInvalid;
  }
  if (input.batches.size() != expected->batches.size()) {
    std::cerr << "alkaid: " << path << ": " << input.batches.size() << " batches, but "
              << json_path << " has " << expected->batches.size() << "\n";
    return kExitInvalid;
  }
  for (size_t b = 0; b < input.batches.size(); ++b) {
    const auto& got = *input.batches[b];
    const auto& want = *expected->batches[b];
    if (got.num_rows() != want.num_rows()) {
      std::cerr << "alkaid: " << path << ": batch " << b << " has " << got.num_rows()
                << " rows, expected " << want.num_rows() << "\n";
      return kExitInvalid;
    }
    for (int c = 0; c < got.num_columns(); ++c) {
      std::string diff = ArrayDiff(*got.column_data(c), *want.column_data(c));
      if (!diff.empty()) {
        std::cerr << "alkaid: " << path << ": batch " << b << ", column " << c << " ('"
                  << got.column_name(c) << "') differs from " << json_path << ": " << diff << "\n";
        return kExitInvalid;
      }
    }
  }
  return kExitOk;
}

int RunValidate(const std::string& path, const std::string& json_path) {
  auto input = ReadInput(path, {}, ipc::IpcReadOptions());  // full validation is the default
  if (!input.ok()) return Report(path, input.status());
  if (!json_path.empty()) {
    int code = CompareWithJson(path, *input, json_path);
    if (code != kExitOk) return code;
  }
  int64_t rows = 0;
  for (const auto& b : input->batches) rows += b->num_rows();
  std::cout << path << ": valid (" << input->batches.size() << " batches, " << rows << " rows"
            << (json_path.empty() ? "" : ", equal to " + json_path) << ")\n";
  return kExitOk;
}

int RunToJson(const std::string& path) {
  auto input = ReadInput(path, {}, ipc::IpcReadOptions());
  if (!input.ok()) return Report(path, input.status());
  auto text = json::WriteIntegrationJson(*input->schema, input->batches, &input->dictionary_ids);
  if (!text.ok()) return Report(path, text.status());
  std::cout << *text;
  if (text->empty() || text->back() != '\n') std::cout << "\n";
  return kExitOk;
}

int RunFromJson(const std::string& in, const std::string& out, const WriteSettings& settings) {
  auto file = json::ReadIntegrationFile(in);
  if (!file.ok()) return Report(in, file.status());
  Status st = WriteOutput(out, file->schema, file->batches, file->dictionary_ids, settings);
  if (!st.ok()) return Report(out, st);
  return kExitOk;
}

int RunConvert(const std::string& in, const std::string& out, const std::string& columns,
               const WriteSettings& settings) {
  auto names = SplitColumns(columns);
  if (!names.ok()) return Report("--columns", names.status()), kExitUsage;
  auto input = ReadInput(in, *names, ipc::IpcReadOptions());
  if (!input.ok()) return Report(in, input.status());
  // After a projection the original ids' paths no longer apply; renumber.
  DictionaryIds ids = names->empty() ? input->dictionary_ids : DictionaryIds();
  Status st = WriteOutput(out, input->schema, input->batches, ids, settings);
  if (!st.ok()) return Report(out, st);
  return kExitOk;
}

void AddWriteOptions(CLI::App* cmd, WriteSettings* settings, bool with_none) {
  cmd->add_option("--format", settings->format, "Output IPC format")
      ->check(CLI::IsMember({"file", "stream"}))
      ->capture_default_str();
  auto choices = with_none ? std::vector<std::string>{"none", "lz4", "zstd"}
                           : std::vector<std::string>{"lz4", "zstd"};
  cmd->add_option("--compression", settings->compression, "Body compression of the output")
      ->check(CLI::IsMember(choices));
  cmd->add_option("--dialect", settings->dialect,
                  "Spelling of file magic and extension keys: arrow (default) or alkaid")
      ->check(CLI::IsMember({"arrow", "alkaid"}))
      ->capture_default_str();
}

}  // namespace

int Main(int argc, char** argv) {
  CLI::App app{"alkaid: inspect, validate and convert Apache Arrow IPC data"};
  app.require_subcommand(1);
  std::function<int()> run;

  std::string file, json_path, in, out, columns;
  int64_t limit = -1;
  WriteSettings settings;

  auto* schema_cmd = app.add_subcommand("schema", "Print the schema with its metadata");
  schema_cmd->add_option("FILE", file, "IPC file or stream, '-' for stdin")->required();
  schema_cmd->callback([&] { run = [&] { return RunSchema(file); }; });

  auto* cat_cmd = app.add_subcommand("cat", "Print the data as a table");
  cat_cmd->add_option("FILE", file, "IPC file or stream, '-' for stdin")->required();
  cat_cmd->add_option("--columns", columns, "Comma-separated column names to show");
  cat_cmd->add_option("--limit", limit, "Print at most N rows")->check(CLI::NonNegativeNumber);
  cat_cmd->callback([&] { run = [&] { return RunCat(file, columns, limit); }; });

  auto* validate_cmd = app.add_subcommand(
      "validate", "Fully validate the data; with --json also compare it with integration JSON");
  validate_cmd->add_option("FILE", file, "IPC file or stream, '-' for stdin")->required();
  validate_cmd->add_option("--json", json_path, "Expected content (integration JSON, .json or .json.gz)");
  validate_cmd->callback([&] { run = [&] { return RunValidate(file, json_path); }; });

  auto* to_json_cmd = app.add_subcommand("to-json", "Write the data as integration JSON to stdout");
  to_json_cmd->add_option("FILE", file, "IPC file or stream, '-' for stdin")->required();
  to_json_cmd->callback([&] { run = [&] { return RunToJson(file); }; });

  auto* from_json_cmd = app.add_subcommand("from-json", "Convert integration JSON to an IPC file or stream");
  from_json_cmd->add_option("IN", in, "Integration JSON (.json or .json.gz)")->required();
  from_json_cmd->add_option("OUT", out, "Output path, '-' for stdout")->required();
  AddWriteOptions(from_json_cmd, &settings, /*with_none=*/true);
  from_json_cmd->callback([&] { run = [&] { return RunFromJson(in, out, settings); }; });

  auto* convert_cmd = app.add_subcommand(
      "convert", "Rewrite an IPC file or stream: change format, compression, dialect or columns");
  convert_cmd->add_option("IN", in, "IPC file or stream, '-' for stdin")->required();
  convert_cmd->add_option("OUT", out, "Output path, '-' for stdout")->required();
  convert_cmd->add_option("--columns", columns, "Comma-separated column names to keep");
  AddWriteOptions(convert_cmd, &settings, /*with_none=*/true);
  convert_cmd->callback([&] { run = [&] { return RunConvert(in, out, columns, settings); }; });

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  RegisterCanonicalExtensionTypes();
  return run ? run() : kExitUsage;
}

}  // namespace alkaid::cli

int main(int argc, char** argv) { return alkaid::cli::Main(argc, argv); }
