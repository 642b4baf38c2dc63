// `alkaid from-json IN OUT`: integration JSON (.json or .json.gz) to an IPC
// file or stream.
#include <iostream>
#include <iterator>

#include "alkaid/integration_json/integration.h"
#include "command.h"
#include "conversion.h"
#include "output_file.h"
#include "report.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInOut(cmd, options, "Integration JSON (.json or .json.gz), '-' for stdin");
  AddWriteOptions(cmd, options);
}

Result<integration_json::IntegrationFile> ReadJsonInput(const std::string& in) {
  if (in != "-") return integration_json::ReadIntegrationFile(in);
  std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  ALKAID_ASSIGN_OR_RAISE(text, integration_json::MaybeGunzip(std::move(text)));
  return integration_json::ParseIntegrationJson(text);
}

int Run(const Options& options) {
  const std::string& in = options.input;
  const std::string& out = options.output;
  if (in != "-") {
    if (Status st = CheckDistinctFiles(in, out); !st.ok()) return Report(out, st, kExitUsage);
  }
  auto file = ReadJsonInput(in);
  if (!file.ok()) return Report(InputName(in), file.status());
  size_t next = 0;
  Status st = WriteBatches(
      out, file->schema, file->dictionary_ids, options.write,
      [&]() -> Result<RecordBatchPtr> {
        if (next == file->batches.size()) return RecordBatchPtr();
        return std::move(file->batches[next++]);
      },
      nullptr);
  if (!st.ok()) return Report(out, st);
  return kExitOk;
}

}  // namespace

extern const Command kFromJsonCommand = {
    "from-json", "Convert integration JSON to an IPC file or stream", AddOptions, Run};

}  // namespace alkaid::cli
