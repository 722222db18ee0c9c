// castra::rules::stand::Game: the Ancient STAND! rules engine behind the RuleSet contract
// (common/rules/rule_set.hpp). Static functions over plain values; no I/O, dice only
// through Dice. The match layer calls it; tests and castra-sim call it directly.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/rules/canonical.hpp"
#include "common/rules/stand/command.hpp"
#include "common/rules/stand/forecast.hpp"
#include "common/rules/stand/legal.hpp"
#include "common/rules/stand/ruleset.hpp"
#include "common/rules/stand/state.hpp"
#include "common/rules/types.hpp"

namespace castra::rules::stand {

struct Game {
  using Scenario = stand::Scenario;
  using State = stand::State;
  using Command = stand::Command;
  using Event = stand::Event;
  using Legal = stand::Legal;
  using Ruleset = stand::Ruleset;

  static constexpr std::string_view kName = "stand";

  static std::string_view current_version();
  static const Ruleset* ruleset(std::string_view version);

  static Checked<State> initial_state(const Scenario& sc, const Ruleset& rs);
  // The roll-off and the start of the loser's deployment; empty once it has happened.
  static std::vector<Event> begin(const State& s, Dice& dice);
  static Checked<std::vector<Event>> decide(const State& s, Side side, const Command& c,
                                            Dice& dice);
  static void apply(State& s, const Event& e);

  // STAND! hides nothing: every event is public and a projection is the state itself.
  static constexpr bool kHidesInformation = false;
  static Visibility visibility(const Event& e);
  static std::string sealed_bytes(const Event& e);
  static State project(const State& s, Viewer v);

  static Legal legal(const State& s, Side side);
  static Acting acting(const State& s);
  static std::optional<Outcome> outcome(const State& s);
  static void encode(const State& s, ByteWriter& w);
  static std::optional<std::string> check(const State& s);
  static std::string describe(const State& s, const Event& e);

  // What an Attack of `side` will do in s (see forecast.hpp); nothing for any other command
  // or one decide() refuses.
  static std::optional<AttackForecast> forecast(const State& s, Side side, const Command& c);
  // The forecast of every attack on `legal` (a list for s), in the list's order.
  static std::vector<AttackForecast> forecasts(const State& s, const Legal& legal);
};

// The ruleset a state was made with; a state always names a released version.
const Ruleset& rules_of(const State& s);

}  // namespace castra::rules::stand
