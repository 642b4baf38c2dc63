// The registry of commands: `main` walks this list to build the command
// line. Adding a command is one file in this folder (see command.h) and one
// line in the list below.
#include "command.h"

namespace alkaid::cli {

#define ALKAID_CLI_COMMANDS(X) \
  X(kSchemaCommand)            \
  X(kCatCommand)               \
  X(kHeadCommand)              \
  X(kTailCommand)              \
  X(kCountCommand)             \
  X(kStatsCommand)             \
  X(kValidateCommand)          \
  X(kToJsonCommand)            \
  X(kFromJsonCommand)          \
  X(kFromCsvCommand)           \
  X(kFromJsonlCommand)         \
  X(kConvertCommand)           \
  X(kParquetMetaCommand)       \
  X(kServeCommand)             \
  X(kGetCommand)               \
  X(kPutCommand)               \
  X(kFlightsCommand)

#define ALKAID_DECLARE_COMMAND(name) extern const Command name;
ALKAID_CLI_COMMANDS(ALKAID_DECLARE_COMMAND)
#undef ALKAID_DECLARE_COMMAND

const std::vector<const Command*>& Commands() {
#define ALKAID_LIST_COMMAND(name) &name,
  static const std::vector<const Command*> commands = {ALKAID_CLI_COMMANDS(ALKAID_LIST_COMMAND)};
#undef ALKAID_LIST_COMMAND
  return commands;
}

const Command* FindCommand(const std::string& name) {
  for (const Command* command : Commands())
    if (name == command->name) return command;
  return nullptr;
}

}  // namespace alkaid::cli
