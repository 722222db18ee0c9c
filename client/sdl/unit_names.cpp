#include "client/sdl/unit_names.hpp"

#include "client/sdl/labels.hpp"

namespace castra::client {

std::string optio_scenario_unit_name(const std::vector<v1::ScenarioInfo>& scenarios,
                                     const std::string& scenario, int id) {
  for (const auto& info : scenarios) {
    if (info.name() != scenario || !info.scenario().has_optio()) continue;
    for (const auto& u : info.scenario().optio().units())
      if (u.id() == id) return u.name();
  }
  return "";
}

std::string optio_unit_hover_text(const v1::optio::Unit& u, const std::string& scenario_name) {
  std::string out = std::to_string(u.id()) + " " + optio_type_name(u.type());
  if (!scenario_name.empty()) out += ": " + scenario_name;
  return out;
}

}  // namespace castra::client
