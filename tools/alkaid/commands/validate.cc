// `alkaid validate FILE [--json EXPECTED]`: full validation of every batch;
// with --json also a comparison with integration JSON, naming the first
// difference by batch, column and row.
#include <iostream>
#include <memory>

#include "alkaid/compare.h"
#include "alkaid/integration_json/integration.h"
#include "command.h"
#include "open_input.h"
#include "report.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInputArgument(cmd, options, kInputHelp);
  AddInputOptions(cmd, options);
  AddOption(cmd, "--json", &options->json_path,
            "Expected content (integration JSON, .json or .json.gz)");
}

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

int Run(const Options& options) {
  const std::string& path = options.input;
  const std::string& json_path = options.json_path;
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
  auto [input, code] = OpenOrReport(options, {});  // full validation is the default
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

}  // namespace

extern const Command kValidateCommand = {
    "validate", "Fully validate the data; with --json also compare it with integration JSON",
    AddOptions, Run};

}  // namespace alkaid::cli
