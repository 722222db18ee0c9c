// A campaign as data: two starting rosters, a graph of battles whose edges follow results,
// and every number the carry-over between battles uses. Read from castra.v1.CampaignFile by
// common/wire/campaign_codec.hpp; checked whole by check_definition (check.hpp).
// Rules: docs/rules/campaigns.md. Plain values; any thread.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/campaign/roster.hpp"
#include "common/rules/optio/state.hpp"
#include "common/rules/stand/state.hpp"
#include "common/rules/types.hpp"

namespace castra::campaign {

enum class Game : std::uint8_t { kOptio = 0, kStand = 1 };
std::string_view game_name(Game g);  // "optio", "stand"

// Arrives in a side's roster before a battle is fought.
struct Reinforcement {
  rules::Side side = rules::Side::kA;
  std::vector<OptioUnit> units;
  std::vector<OptioLeader> leaders;
  stand::Figures figures;
  friend bool operator==(const Reinforcement&, const Reinforcement&) = default;
};

// How an Optio leader killed in battle is replaced before the next one.
struct LeaderReplacement {
  enum class Kind : std::uint8_t { kNone = 0, kPromoted = 1 };
  Kind kind = Kind::kNone;
  int range = 0;     // 0: the rules' default
  std::string name;  // "{name}" stands for the killed leader's name
  friend bool operator==(const LeaderReplacement&, const LeaderReplacement&) = default;
};

struct OptioCarryOver {
  int morale_recovery = 0;
  LeaderReplacement general;
  LeaderReplacement subcommander;
  friend bool operator==(const OptioCarryOver&, const OptioCarryOver&) = default;
};

// The battlefield: the scenario of the campaign's rule set. Its armies are replaced by what
// the sides field (battle.hpp).
using Map = std::variant<optio::Scenario, stand::Scenario>;

struct BattleNode {
  std::string id;
  std::string name;
  Map map;
  int selection_limit = 0;  // 0: each side fields its whole roster
  std::vector<Reinforcement> reinforcements;
  // The next battle's id after each result, by Outcome::Kind (A wins, B wins, draw); "" ends
  // the campaign.
  std::array<std::string, 3> next;
  const std::string& after(rules::Outcome::Kind result) const {
    return next[static_cast<std::size_t>(result)];
  }
  friend bool operator==(const BattleNode&, const BattleNode&) = default;
};

enum class Decision : std::uint8_t { kBattlesWon = 0, kLastBattle = 1 };

struct Definition {
  std::string name;
  Game game = Game::kOptio;
  std::array<Roster, 2> rosters;  // by Side
  std::vector<BattleNode> battles;
  std::string first_battle;
  Decision decided_by = Decision::kBattlesWon;
  OptioCarryOver optio;
  const BattleNode* battle(std::string_view id) const;
  friend bool operator==(const Definition&, const Definition&) = default;
};

}  // namespace castra::campaign
