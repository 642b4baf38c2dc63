// `alkaid count FILE`: the number of rows. IPC input is counted from the
// record batch headers: nothing is decompressed or validated (`validate`
// checks the data).
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
  ipc::IpcReadOptions ipc_options;
  ipc_options.validate_full = false;
  auto [input, code] = OpenOrReport(options, {}, ipc_options);
  if (!input) return code;
  auto rows = input->CountRows();
  if (!rows.ok()) return Report(InputName(options.input), WithHint(rows.status(), options));
  std::cout << *rows << "\n";
  return kExitOk;
}

}  // namespace

extern const Command kCountCommand = {"count", "Print the number of rows", AddOptions, Run};

}  // namespace alkaid::cli
