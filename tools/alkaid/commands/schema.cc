// `alkaid schema FILE`: what the input is and its schema with its metadata;
// reads nothing else (text: the rows that types are inferred from).
#include <iostream>

#include "command.h"
#include "open_input.h"
#include "report.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInputArgument(cmd, options, kInputHelp);
  AddInputOptions(cmd, options);
}

int Run(const Options& options) {
  auto [input, code] = OpenOrReport(options, {});
  if (!input) return code;
  std::cout << input->Describe() << "\n";
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
