// A command of the `alkaid` tool and the registry that `main` walks.
//
// Adding a command: write commands/NAME.cc defining
//   extern const Command kNameCommand = {"name", "help", AddOptions, Run};
// where AddOptions binds the command's flags into the shared Options (with
// the helpers of options.h: input argument, --columns, text, display and
// write options) and Run does the work and returns the exit code; then add
// one line to the list in commands/registry.cc. CMake picks up the file.
#pragma once

#include <vector>

#include "cli11_fwd.h"
#include "options.h"

namespace alkaid::cli {

struct Command {
  const char* name;
  const char* help;
  // Registers the command's arguments and flags on its subcommand.
  void (*add_options)(CLI::App* cmd, Options* options);
  // Runs with the parsed options; returns the process exit code.
  int (*run)(const Options& options);
};

// Every command of this build, in the order `alkaid --help` lists them.
const std::vector<const Command*>& Commands();
// The command named `name`, or nullptr.
const Command* FindCommand(const std::string& name);

}  // namespace alkaid::cli
