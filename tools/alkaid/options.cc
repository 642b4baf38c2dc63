#include "options.h"

#include <cerrno>
#include <cstdlib>

#include "CLI/CLI.hpp"
#include "sources/source.h"
#include "table_printer.h"

namespace alkaid::cli {

void AddInputArgument(CLI::App* cmd, Options* options, const std::string& help) {
  cmd->add_option("FILE", options->input, help)->required();
}

void AddInOut(CLI::App* cmd, Options* options, const std::string& in_help) {
  cmd->add_option("IN", options->input, in_help)->required();
  cmd->add_option("OUT", options->output, "Output path, '-' for stdout")->required();
}

void AddInputOptions(CLI::App* cmd, Options* options) {
  std::vector<std::string> names = {"auto"};
  std::string help = "What FILE is: auto (by content)";
  for (const Source* source : Sources()) {
    names.push_back(source->name);
    help += std::string(", ") + source->name + " (" + source->what + ")";
  }
  names.push_back("arrow");  // the name of ipc before Parquet arrived
  cmd->add_option("--input-format", options->input_format, help)
      ->check(CLI::IsMember(names))
      ->capture_default_str();
  AddTextOptions(cmd, &options->text, kAnyText);
  AddFlightClientOptions(cmd, &options->flight);
}

void AddColumnsOption(CLI::App* cmd, Options* options, const std::string& help) {
  cmd->add_option("--columns", options->columns, help);
}

void AddDisplayOptions(CLI::App* cmd, Options* options) {
  DisplaySettings* display = &options->display;
  std::vector<std::string> names;
  for (const auto& f : OutputFormats()) names.push_back(f.name);
  cmd->add_option("--format", display->format, "Output format")
      ->check(CLI::IsMember(names))
      ->capture_default_str();
  cmd->add_option("--max-width", display->max_width,
                  "Widest line in columns (default: $COLUMNS, else the terminal's width, else no "
                  "limit when not a terminal; 0: no limit)");
  cmd->add_option("--max-cell", display->max_cell, "Widest cell in columns")->capture_default_str();
}

void AddWriteOptions(CLI::App* cmd, Options* options) {
  WriteSettings* settings = &options->write;
  cmd->add_option("--format", settings->format,
                  "Output format: IPC file, IPC stream or Parquet")
      ->check(CLI::IsMember({"file", "stream", "parquet"}))
      ->capture_default_str();
  cmd->add_option("--compression", settings->compression,
                  "Compression of the output: none, lz4, zstd (IPC and Parquet); snappy, gzip, "
                  "brotli (Parquet). Default: none for IPC, snappy for Parquet")
      ->check(CLI::IsMember({"none", "lz4", "zstd", "snappy", "gzip", "brotli"}));
  cmd->add_option("--row-group-size", settings->row_group_size,
                  "Parquet: rows per row group (default 1048576)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--dialect", settings->dialect,
                  "Spelling of file magic and extension keys: arrow (default) or alkaid")
      ->check(CLI::IsMember({"arrow", "alkaid"}))
      ->capture_default_str();
}

Result<std::vector<std::string>> SplitColumns(const std::string& list) {
  std::vector<std::string> out;
  if (list.empty()) return out;
  size_t start = 0;
  while (true) {
    size_t comma = list.find(',', start);
    std::string name =
        list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (name.empty()) return Status::KeyError("empty column name in --columns '", list, "'");
    out.push_back(std::move(name));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

Result<int64_t> ParseRowCount(const std::string& option, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || v < 0)
    return Status::KeyError(option, " takes a number of rows (0 or more), got '", text, "'");
  return static_cast<int64_t>(v);
}

namespace {
template <typename T>
void AddTypedOption(CLI::App* cmd, const std::string& name, T* value, const std::string& help,
                    unsigned traits) {
  CLI::Option* option = cmd->add_option(name, *value, help);
  if (traits & kRequired) option->required();
  if (traits & kShowDefault) option->capture_default_str();
}
}  // namespace

void AddOption(CLI::App* cmd, const std::string& name, std::string* value,
               const std::string& help, unsigned traits) {
  AddTypedOption(cmd, name, value, help, traits);
}

void AddOption(CLI::App* cmd, const std::string& name, int64_t* value, const std::string& help,
               unsigned traits) {
  AddTypedOption(cmd, name, value, help, traits);
}

void AddRangeOption(CLI::App* cmd, const std::string& name, int* value, int min, int max,
                    const std::string& help) {
  cmd->add_option(name, *value, help)->check(CLI::Range(min, max))->capture_default_str();
}

void AddFlag(CLI::App* cmd, const std::string& name, bool* value, const std::string& help) {
  cmd->add_flag(name, *value, help);
}

void AddFlightClientOptions(CLI::App* cmd, FlightSettings* settings) {
  cmd->add_option("--tls-roots", settings->tls_roots,
                  "grpc+tls: PEM file of root certificates to trust (default: the system's)");
  cmd->add_flag("--insecure", settings->insecure,
                "grpc+tls: do not check the server's certificate (testing only)");
  cmd->add_option("--user", settings->user, "Flight: user name for basic authentication");
  cmd->add_option("--password", settings->password, "Flight: password for basic authentication");
  cmd->add_option("--auth", settings->auth, "Flight: USER:PASSWORD for basic authentication");
  cmd->add_option("--timeout", settings->timeout, "Flight: seconds each call may take (0: no limit)")
      ->check(CLI::NonNegativeNumber);
}

bool HasOption(const CLI::App* app, const std::string& name) {
  return app != nullptr && app->get_option_no_throw(name) != nullptr;
}

bool OptionGiven(const CLI::App* app, const std::string& name) {
  const CLI::Option* option = app != nullptr ? app->get_option_no_throw(name) : nullptr;
  return option != nullptr && option->count() > 0;
}

const CLI::App* SiblingCommand(const CLI::App* app, const std::string& name) {
  const CLI::App* parent = app != nullptr ? app->get_parent() : nullptr;
  if (parent == nullptr) return nullptr;
  auto found = parent->get_subcommands([&](const CLI::App* sub) { return sub->get_name() == name; });
  return found.empty() ? nullptr : found.front();
}

}  // namespace alkaid::cli
