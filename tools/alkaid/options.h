// The command line as the commands see it: one Options struct that every
// command's add_options binds flags into and its run reads, and the helpers
// that attach the option groups several commands share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli11_fwd.h"
#include "alkaid/status.h"
#include "flight_client.h"
#include "text_options.h"

namespace alkaid::cli {

// How `cat`, `head` and `tail` show rows.
struct DisplaySettings {
  std::string format = "table";
  int64_t max_width = -1;  // -1: from COLUMNS or the terminal
  int64_t max_cell = 40;
};

// How the converting commands write their output: Arrow IPC (file or
// stream) or Parquet.
struct WriteSettings {
  std::string format = "file";
  std::string compression;  // empty: none for IPC, snappy for Parquet
  std::string dialect = "arrow";
  int64_t row_group_size = 0;  // Parquet rows per row group; 0: the writer's default
};

// Limits of `to-json`.
struct JsonOutputSettings {
  int64_t max_output_bytes = int64_t{64} << 30;
  int64_t max_column_bytes = -1;  // memory does not depend on it: values are written one by one
};

// `alkaid serve`.
struct ServeSettings {
  std::string host = "127.0.0.1";
  int port = 0;
  std::string tls_cert, tls_key;
  std::string auth;  // USER:PASSWORD
  bool allow_overwrite = false;
};

struct Options {
  // The running command's name and its parsed flags (for error hints that
  // name only flags the command has).
  std::string command;
  const CLI::App* app = nullptr;

  std::string input;   // FILE or IN: a path or "-" for standard input
  std::string output;  // OUT
  std::string columns;  // --columns, comma-separated
  std::string limit;    // cat --limit (text: "-1" gets a sentence, not a parser error)
  std::string rows = "10";  // head/tail -n
  std::string input_format = "auto";  // --input-format: a source name (sources/) or auto
  std::string json_path;  // validate --json
  bool exact = false;     // stats --exact: read the data even where metadata answers
  DisplaySettings display;
  WriteSettings write;
  JsonOutputSettings json_limits;
  TextReadOptions text;
  FlightSettings flight;  // grpc:// inputs and the Flight commands
  ServeSettings serve;
};

// Help of FILE for the commands that read any source.
inline constexpr const char* kInputHelp =
    "IPC file or stream, Parquet, CSV, JSON Lines or integration JSON (told by content); "
    "'-' for stdin; grpc://HOST:PORT/PATH for a Flight server's data";

// The positional input (FILE), required.
void AddInputArgument(CLI::App* cmd, Options* options, const std::string& help);
// IN and OUT of the converting commands.
void AddInOut(CLI::App* cmd, Options* options, const std::string& in_help);
// --input-format and the text options: every command that reads input.
void AddInputOptions(CLI::App* cmd, Options* options);
void AddColumnsOption(CLI::App* cmd, Options* options, const std::string& help);
void AddDisplayOptions(CLI::App* cmd, Options* options);
void AddWriteOptions(CLI::App* cmd, Options* options);
// --tls-roots, --insecure, --user, --password, --auth, --timeout: the commands that call a server.
void AddFlightClientOptions(CLI::App* cmd, FlightSettings* settings);

// Single options and flags, for the commands' own AddOptions, which then need no CLI11 header
// (including it costs a file seconds of compile time). NAME is "--flag", "-n" or, for a
// positional argument, "NAME".
enum OptionTraits : unsigned {
  kOptional = 0,
  kRequired = 1,     // the command fails to parse without it
  kShowDefault = 2,  // --help prints the value it starts with
};
void AddOption(CLI::App* cmd, const std::string& name, std::string* value,
               const std::string& help, unsigned traits = kOptional);
void AddOption(CLI::App* cmd, const std::string& name, int64_t* value, const std::string& help,
               unsigned traits = kOptional);
// An int option limited to [min, max]; --help shows its default.
void AddRangeOption(CLI::App* cmd, const std::string& name, int* value, int min, int max,
                    const std::string& help);
void AddFlag(CLI::App* cmd, const std::string& name, bool* value, const std::string& help);

// Questions about a parsed command line, for error messages (null `app`: none).
// Whether the command has the option NAME ("--delimiter").
bool HasOption(const CLI::App* app, const std::string& name);
// Whether the option NAME was given on the command line.
bool OptionGiven(const CLI::App* app, const std::string& name);
// The command called `name` beside `app` (a subcommand of the same parent), or null.
const CLI::App* SiblingCommand(const CLI::App* app, const std::string& name);

// "a,b" -> {"a", "b"}; an empty name is a KeyError.
Result<std::vector<std::string>> SplitColumns(const std::string& list);
// Row counts are taken as text so "-1" or "ten" get a sentence.
Result<int64_t> ParseRowCount(const std::string& option, const std::string& text);

}  // namespace alkaid::cli
