// castra::rules::optio::Game: the Optio rule set behind the contract of
// common/rules/rule_set.hpp (see there for each function's meaning). Pure static functions
// over the values of state.hpp; dice only through Dice. Any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/rules/canonical.hpp"
#include "common/rules/optio/forecast.hpp"
#include "common/rules/optio/state.hpp"
#include "common/rules/rule_set.hpp"
#include "common/rules/types.hpp"

namespace castra::rules::optio {

struct Game {
  using Scenario = optio::Scenario;
  using State = optio::State;
  using Command = optio::Command;
  using Event = optio::Event;
  using Legal = optio::Legal;
  using Ruleset = optio::Ruleset;

  static constexpr std::string_view kName = "optio";
  // Orders cards, and a subcommander's path and progress, are his side's alone.
  static constexpr bool kHidesInformation = true;

  static std::string_view current_version() { return kCurrentVersion; }
  static const Ruleset* ruleset(std::string_view version) { return find_ruleset(version); }
  static Checked<State> initial_state(const Scenario& sc, const Ruleset& rs);
  static std::vector<Event> begin(const State& s, Dice& dice);
  static Checked<std::vector<Event>> decide(const State& s, Side side, const Command& c,
                                            Dice& dice);
  static void apply(State& s, const Event& e);
  static Visibility visibility(const Event& e);
  static std::string sealed_bytes(const Event& e);
  static Legal legal(const State& s, Side side);
  static Acting acting(const State& s);
  static std::optional<Outcome> outcome(const State& s);
  static State project(const State& s, Viewer v);
  static void encode(const State& s, ByteWriter& w);
  static std::optional<std::string> check(const State& s);
  static std::string describe(const State& s, const Event& e);

  // What a charge (an Advance that ends facing an enemy) or a Shoot of `side` will do in s;
  // nothing for any other command or one decide() refuses. Give it the side's own
  // projection: it uses nothing that side may not see.
  static std::optional<Forecast> forecast(const State& s, Side side, const Command& c);
  // The forecasts of every charge and shot on `legal` (a list for s), units without any
  // left out.
  static std::vector<UnitForecasts> forecasts(const State& s, const Legal& legal);
};

static_assert(RuleSet<Game>);

// The canonical bytes of one orders card (docs/rules/optio.md, "Canonical orders-card
// bytes"): what sealed_bytes returns for an OrdersCard event.
std::string orders_card_bytes(Side side, const std::vector<OrdersPath>& paths);

// Words for values, shared by describe(), refusals and tests.
std::string square_text(Square s);
std::string_view unit_type_name(UnitType t);
std::string_view phase_name(Phase p);

}  // namespace castra::rules::optio
