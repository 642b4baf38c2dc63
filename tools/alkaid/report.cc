#include "report.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <vector>

#include "command.h"

namespace alkaid::cli {

namespace {

// Reader options (StatusDetail::options, spelled as in csv::ReadOptions,
// jsonl::ReadOptions and ipc::IpcReadOptions) and the flags that set them.
// Options without a flag (a schema) are left out of hints.
const char* FlagFor(const std::string& option) {
  static const std::map<std::string, const char*> flags = {
      {"inference_rows", "--inference-rows N"},
      {"column_types", "--types NAME:TYPE"},
      {"unexpected_fields", "--ignore-unexpected-fields"},
      {"infer_temporal", "--no-infer-temporal"},
      {"missing_nulls_per_byte", "--missing-nulls-per-byte N"},
      {"max_record_bytes", "--max-record-bytes N"},
      {"max_line_bytes", "--max-line-bytes N"},
      {"block_size", "--block-size BYTES"},
      {"max_columns", "--max-columns N"},
      {"include_columns", "--columns NAME,..."},
  };
  auto it = flags.find(option);
  return it == flags.end() ? nullptr : it->second;
}

// "--max-columns" of "--max-columns N".
std::string FlagName(const char* flag) {
  std::string name(flag);
  return name.substr(0, name.find(' '));
}

bool HasFlag(const CLI::App* app, const char* flag) { return HasOption(app, FlagName(flag)); }

// "A", "A and B", "A, B and C".
std::string JoinAnd(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " and " : ", ";
    out += items[i];
  }
  return out;
}

// The flags among `detail`'s options that `app` has.
std::vector<std::string> FlagsOf(const CLI::App* app, const StatusDetail& detail) {
  std::vector<std::string> out;
  for (const auto& option : detail.options) {
    const char* flag = FlagFor(option);
    if (flag != nullptr && HasFlag(app, flag)) out.push_back(flag);
  }
  return out;
}

// Commands other than the running one whose flags set the main option.
std::string ElsewhereHint(const StatusDetail& detail, const Options& options) {
  if (options.app == nullptr) return "";
  // Commands with the same flags are named together.
  std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> groups;
  for (const Command* command : Commands()) {
    if (command->name == options.command) continue;
    const CLI::App* app = SiblingCommand(options.app, command->name);
    const char* main_flag = FlagFor(detail.options[0]);
    if (app == nullptr || main_flag == nullptr || !HasFlag(app, main_flag)) continue;
    std::vector<std::string> flags = FlagsOf(app, detail);
    // The columns to read are a choice of every command, not a way around.
    flags.erase(std::remove(flags.begin(), flags.end(), "--columns NAME,..."), flags.end());
    bool grouped = false;
    for (auto& [names, group_flags] : groups) {
      if (group_flags == flags) {
        names.push_back(command->name);
        grouped = true;
      }
    }
    if (!grouped) groups.push_back({{command->name}, flags});
  }
  if (groups.empty()) return "";
  std::string out = "; " + options.command + " reads text with default options: ";
  for (size_t g = 0; g < groups.size(); ++g) {
    const auto& [names, flags] = groups[g];
    if (g > 0) out += ", ";
    out += JoinAnd(names) + (names.size() > 1 ? " take " : " takes ") + JoinAnd(flags);
  }
  return out;
}

}  // namespace

int ExitCodeFor(const Status& st) {
  return st.IsIOError() || st.IsKeyError() ? kExitUsage : kExitInvalid;
}

std::string InputName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

int Report(const std::string& subject, const Status& st, int code) {
  const std::string& message = st.message();
  std::cerr << "alkaid: ";
  if (message.rfind(subject + ":", 0) != 0 && message.rfind(subject + " ", 0) != 0)
    std::cerr << subject << ": ";
  std::cerr << message << "\n";
  return code;
}

int Report(const std::string& subject, const Status& st) {
  return Report(subject, st, ExitCodeFor(st));
}

Status WithHint(const Status& st, const Options& options) {
  const StatusDetail* detail = st.detail();
  if (detail == nullptr || detail->options.empty()) return st;
  std::vector<std::string> flags = FlagsOf(options.app, *detail);
  const char* main_flag = FlagFor(detail->options[0]);
  std::string hint;
  if (main_flag != nullptr && HasFlag(options.app, main_flag)) {
    hint = flags.size() == 1 ? "; the option for that is " + flags[0]
                             : "; the options for that are " + JoinAnd(flags);
  } else {
    hint = ElsewhereHint(*detail, options);
  }
  return hint.empty() ? st : Status(st.code(), st.message() + hint);
}

}  // namespace alkaid::cli
