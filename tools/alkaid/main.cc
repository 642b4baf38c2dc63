// `alkaid`: inspect, validate and convert Arrow IPC files and streams,
// Parquet files, CSV, JSON Lines and Arrow integration JSON.
//
// Exit codes: see report.h. Every command reads one batch at a time and
// drops it before the next; `cat --limit`, `head` and `tail` (on a file)
// read only the batches they print; `schema` reads only the schema. Writing
// commands write to a temporary file beside the target and rename it over
// the target on success (output_file.h).
//
// The commands live in commands/, one per file, listed in
// commands/registry.cc; this file builds the command line from that list.
// Adding a command: see command.h. Adding an input format: see
// sources/source.h. Adding an output format for `cat`: see table_printer.h.
// Adding a text option: see text_options.h.
#include <iostream>
#include <new>

#include "CLI/CLI.hpp"
#include "alkaid/extension.h"
#include "alkaid/version.h"
#include "command.h"
#include "report.h"

namespace alkaid::cli {

namespace {

int UnknownCommand(const std::string& name) {
  std::cerr << "alkaid: unknown subcommand '" << name << "'; subcommands:";
  for (const Command* c : Commands()) std::cerr << " " << c->name;
  std::cerr << " (alkaid --help describes them)\n";
  return kExitUsage;
}

}  // namespace

int Main(int argc, char** argv) {
  CLI::App app{"alkaid: inspect, validate and convert Apache Arrow data (IPC, Parquet, CSV, "
               "JSON Lines, integration JSON)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("alkaid ") + Version());
  Options options;
  const Command* chosen = nullptr;
  for (const Command* command : Commands()) {
    CLI::App* sub = app.add_subcommand(command->name, command->help);
    command->add_options(sub, &options);
    sub->callback([&options, &chosen, command, sub] {
      chosen = command;
      options.command = command->name;
      options.app = sub;
    });
  }
  if (argc > 1 && argv[1][0] != '-' && FindCommand(argv[1]) == nullptr)
    return UnknownCommand(argv[1]);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  RegisterCanonicalExtensionTypes();
  if (chosen == nullptr) return kExitUsage;
  // Every allocation is bounded at its source; this is the last resort so
  // that running out of memory is a message and an exit code, not an abort.
  try {
    return chosen->run(options);
  } catch (const std::bad_alloc&) {
    std::cout.flush();
    std::cerr << "alkaid: out of memory\n";
    return kExitInvalid;
  }
}

}  // namespace alkaid::cli

int main(int argc, char** argv) { return alkaid::cli::Main(argc, argv); }
