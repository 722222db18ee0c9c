// A campaign side's army between battles (its roster) and who of it fights one battle (a
// selection). Optio's army persists as units and leaders; Ancient STAND!'s bodies of troops
// merge and split, so only its figures by type persist. Plain values; any thread.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "common/rules/optio/ruleset.hpp"
#include "common/rules/stand/ruleset.hpp"

namespace castra::campaign {

namespace optio = rules::optio;
namespace stand = rules::stand;

// Ids are unique across both sides (the battle's scenario uses them).
struct OptioUnit {
  int id = 0;
  optio::UnitType type = optio::UnitType::kHeavyInfantry;
  int bases = 2;
  int command = 0;
  int morale = 0;  // the morale it starts its next battle with; 0: its type's maximum
  std::string name;
  friend bool operator==(const OptioUnit&, const OptioUnit&) = default;
};

struct OptioLeader {
  int id = 0;
  bool general = false;
  int command = 0;
  int range = 0;  // orders range; 0: the rules' default
  std::string name;
  friend bool operator==(const OptioLeader&, const OptioLeader&) = default;
};

// Units in the definition's order, which is the default selection's order.
struct OptioRoster {
  std::vector<OptioUnit> units;
  std::vector<OptioLeader> leaders;
  const OptioUnit* unit(int id) const;
  const OptioLeader* leader(int id) const;
  const OptioLeader* general() const;
  friend bool operator==(const OptioRoster&, const OptioRoster&) = default;
};

struct StandRoster {
  stand::Figures figures;
  friend bool operator==(const StandRoster&, const StandRoster&) = default;
};

struct Roster {
  std::string army;  // the army's name
  std::variant<OptioRoster, StandRoster> game;
  const OptioRoster* optio() const { return std::get_if<OptioRoster>(&game); }
  const StandRoster* stand() const { return std::get_if<StandRoster>(&game); }
  friend bool operator==(const Roster&, const Roster&) = default;
};

// Optio: unit and leader ids; STAND!: figures. The other rule set's part stays empty.
struct Selection {
  std::vector<int> units;
  std::vector<int> leaders;
  stand::Figures figures;
  friend bool operator==(const Selection&, const Selection&) = default;
};

// A unit type's full morale (firm + shaken), what morale 0 stands for.
int max_morale(const optio::Ruleset& rs, optio::UnitType type);
// The morale `u` starts its next battle with, 0 resolved.
int start_morale(const optio::Ruleset& rs, const OptioUnit& u);

}  // namespace castra::campaign
