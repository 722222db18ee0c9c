// Property tests on both built-in scenarios: thousands of random games in which every
// command is either drawn from the legal list (it must be accepted) or built blindly (it
// must be accepted exactly when it is on the list). After every event the state passes
// Game::check, and projection commutes with apply for every viewer who may see the event.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "common/wire/optio_codec.hpp"
#include "tests/rules/optio/random_player.hpp"
#include "tests/rules/optio/support.hpp"
#include "tests/support/game_budget.hpp"

namespace castra::rules::optio::testing {
namespace {

int games_per_scenario() {
  const char* n = std::getenv("OPTIO_PROPERTY_GAMES");
  return n != nullptr ? std::atoi(n) : castra::testing::games_in_this_build(1000);
}

std::string command_text(Side side, const Command& c) {
  return wire::optio::script_line_to_json(side, c);
}

struct Stats {
  int games = 0, finished = 0, accepted = 0, refused = 0, events = 0;
};

// Plays one random game; returns false (after reporting) at the first broken property.
bool random_game(const State& initial, std::uint64_t seed, Stats& st) {
  RandomPlayer player(seed);
  RandomDice dice(seed ^ 0x9e3779b97f4a7c15ull);
  State s = initial;
  constexpr int kMaxSteps = 1500;
  for (int step = 0; step < kMaxSteps && !Game::outcome(s); ++step) {
    const Acting act = Game::acting(s);
    std::vector<Side> acting;
    if (act.a) acting.push_back(Side::kA);
    if (act.b) acting.push_back(Side::kB);
    if (acting.empty()) {
      ADD_FAILURE() << "nobody acts in phase " << act.phase << " (seed " << seed << ")";
      return false;
    }
    Side side = acting[static_cast<std::size_t>(player.pick(static_cast<int>(acting.size())))];
    if (player.chance(0.05)) side = other(side);  // a side that may not be acting
    const Legal legal = Game::legal(s, side);
    Command c;
    bool from_list = false;
    if (player.chance(0.7)) {
      auto picked = player.from_list(s, legal);
      if (picked) {
        c = *picked;
        from_list = true;
      } else {
        c = player.blind(s, side);
      }
    } else {
      c = player.blind(s, side);
    }
    auto ev = Game::decide(s, side, c, dice);
    const bool on_list = listed(legal, c);
    if (from_list && !ev.ok()) {
      ADD_FAILURE() << "listed command refused: " << command_text(side, c) << ": "
                    << ev.error().message << " (seed " << seed << ", step " << step << ")";
      return false;
    }
    if (ev.ok() != on_list) {
      ADD_FAILURE() << (ev.ok() ? "accepted but not listed: " : "listed but refused: ")
                    << command_text(side, c) << (ev.ok() ? "" : ": " + ev.error().message)
                    << " (seed " << seed << ", step " << step << ")";
      return false;
    }
    if (!ev.ok()) {
      ++st.refused;
      if (ev.error().message.empty() || ev.error().rule.empty()) {
        ADD_FAILURE() << "a refusal without words";
        return false;
      }
      continue;
    }
    ++st.accepted;
    for (const Event& e : *ev) {
      ++st.events;
      const Visibility vis = Game::visibility(e);
      State next = s;
      Game::apply(next, e);
      for (Viewer v : {Viewer::kSideA, Viewer::kSideB, Viewer::kSpectator, Viewer::kEveryone}) {
        if (!vis.visible_to(v)) continue;
        State projected = Game::project(s, v);
        Game::apply(projected, e);
        if (!(Game::project(next, v) == projected)) {
          ADD_FAILURE() << "projection does not commute for viewer " << static_cast<int>(v)
                        << " on " << Game::describe(s, e) << " (seed " << seed << ")";
          return false;
        }
      }
      s = std::move(next);
      if (auto broken = Game::check(s)) {
        ADD_FAILURE() << "invariant broken: " << *broken << " after " << Game::describe(s, e)
                      << " (seed " << seed << ", step " << step << ")";
        return false;
      }
      if (auto broken = Game::check(Game::project(s, Viewer::kSpectator))) {
        ADD_FAILURE() << "invariant broken in a projection: " << *broken;
        return false;
      }
    }
  }
  ++st.games;
  if (Game::outcome(s)) ++st.finished;
  return true;
}

void run_scenario(const std::string& file) {
  auto sc = wire::optio::scenario_from_json(read_file(file));
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  auto initial = Game::initial_state(*sc, rs());
  ASSERT_TRUE(initial.ok()) << initial.error().message;
  Stats st;
  const int n = games_per_scenario();
  for (int g = 0; g < n; ++g) {
    if (!random_game(*initial, 1000003ull * static_cast<std::uint64_t>(g) + 17, st)) return;
  }
  EXPECT_EQ(st.games, n);
  EXPECT_GT(st.finished, n / 2) << "most random games should reach a result";
  std::cout << file << ": " << st.games << " games, " << st.finished << " finished, " << st.accepted
            << " accepted, " << st.refused << " refused, " << st.events << " events\n";
}

TEST(OptioProperty, TrainingRandomGamesKeepEveryInvariant) {
  run_scenario("tests/rules/optio/data/training_scenario.json");
}
TEST(OptioProperty, CannaeRandomGamesKeepEveryInvariant) {
  run_scenario("scenarios/optio/cannae.json");
}

}  // namespace
}  // namespace castra::rules::optio::testing
