// Opening a command's input with errors reported the tool's way: data of a
// kind the command does not read names the command that does.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "input.h"
#include "options.h"

namespace alkaid::cli {

struct Opened {
  std::unique_ptr<Input> input;
  int exit_code = 0;
};

// Opens options.input projected to `columns`. With `text`, CSV and JSON
// Lines are read too (see Input::Open). On failure the error is reported
// and `input` is null.
Opened OpenOrReport(const Options& options, const std::vector<std::string>& columns,
                    const ipc::IpcReadOptions& ipc_options = ipc::IpcReadOptions(),
                    const TextReadOptions* text = nullptr);

}  // namespace alkaid::cli
