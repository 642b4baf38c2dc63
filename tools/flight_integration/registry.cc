// The named scenarios, one row each. To add one: write
// scenarios/<name>.cc defining a factory, declare it below, add its row.
#include "scenario.h"

namespace alkaid::flight_integration {

// Factories defined in scenarios/*.cc go here, e.g.
//   std::unique_ptr<Scenario> MakeOrderedScenario();

namespace {

const std::vector<ScenarioEntry>& Table() {
  static const std::vector<ScenarioEntry> table = {
      // {"ordered", MakeOrderedScenario},
  };
  return table;
}

}  // namespace

std::unique_ptr<Scenario> MakeScenario(std::string_view name) {
  for (const auto& entry : Table()) {
    if (name == entry.name) return entry.make();
  }
  return nullptr;
}

Result<std::unique_ptr<Scenario>> FindScenario(std::string_view name) {
  if (auto scenario = MakeScenario(name)) return scenario;
  std::string known;
  for (const auto& entry : Table()) known += std::string(" ") + entry.name;
  return Status::Invalid("unknown scenario '", name, "'; known:", known.empty() ? " (none)" : known);
}

std::vector<std::string> ScenarioNames() {
  std::vector<std::string> names;
  for (const auto& entry : Table()) names.emplace_back(entry.name);
  return names;
}

}  // namespace alkaid::flight_integration
