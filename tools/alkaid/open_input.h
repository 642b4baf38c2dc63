// Opening a command's input through the source registry (sources/), with
// errors reported the tool's way.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "options.h"
#include "sources/source.h"

namespace alkaid::cli {

struct Opened {
  std::unique_ptr<Input> input;
  int exit_code = 0;
};

// Opens options.input as options.input_format says (auto: by content) with
// the text options, projected to `columns`. On failure the error is reported
// and `input` is null.
Opened OpenOrReport(const Options& options, const std::vector<std::string>& columns,
                    const ipc::IpcReadOptions& ipc_options = ipc::IpcReadOptions());

}  // namespace alkaid::cli
