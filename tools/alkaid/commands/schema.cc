// `alkaid schema FILE`: the schema with its metadata; reads nothing else.
#include <iostream>

#include "command.h"
#include "open_input.h"
#include "report.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInputArgument(cmd, options, "IPC file or stream, '-' for stdin");
}

int Run(const Options& options) {
  auto [input, code] = OpenOrReport(options, {});
  if (!input) return code;
  if (input->is_file_format()) {
    int64_t n = input->num_batches();
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

}  // namespace

extern const Command kSchemaCommand = {
    "schema", "Print the schema with its metadata (reads nothing else)", AddOptions, Run};

}  // namespace alkaid::cli
