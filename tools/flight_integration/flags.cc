#include "flags.h"

#include <algorithm>
#include <charconv>
#include <iostream>

namespace alkaid::flight_integration {

std::string Flags::Get(const std::string& name, const std::string& fallback) const {
  auto it = values.find(name);
  return it == values.end() || it->second.empty() ? fallback : it->second.back();
}

std::vector<std::string> Flags::All(const std::string& name) const {
  auto it = values.find(name);
  return it == values.end() ? std::vector<std::string>{} : it->second;
}

Result<int> Flags::Port(const std::string& name, int fallback) const {
  auto it = values.find(name);
  if (it == values.end() || it->second.empty()) return fallback;
  const std::string& text = it->second.back();
  int port = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), port);
  if (ec != std::errc() || end != text.data() + text.size() || port < 0 || port > 65535) {
    return Status::Invalid("-", name, "=", text, ": expected a port number 0..65535");
  }
  return port;
}

Result<Flags> ParseFlags(int argc, char** argv, const std::vector<std::string>& known) {
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.size() < 2 || arg[0] != '-') {
      return Status::Invalid("unexpected argument '", arg, "' (flags are -name=value)");
    }
    std::string body = arg.substr(arg[1] == '-' ? 2 : 1);
    std::string name = body;
    std::string value;
    bool has_value = false;
    if (auto eq = body.find('='); eq != std::string::npos) {
      name = body.substr(0, eq);
      value = body.substr(eq + 1);
      has_value = true;
    }
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const auto& k : known) list += " -" + k;
      return Status::Invalid("unknown flag '", arg, "'; known:", list);
    }
    if (!has_value) {
      if (i + 1 >= argc) return Status::Invalid("flag '", arg, "' needs a value");
      value = argv[++i];
    }
    flags.values[name].push_back(std::move(value));
  }
  return flags;
}

int ExitCode(const char* program, const Status& st) {
  if (st.ok()) return 0;
  std::cerr << program << ": " << st.ToString() << std::endl;
  return 1;
}

}  // namespace alkaid::flight_integration
