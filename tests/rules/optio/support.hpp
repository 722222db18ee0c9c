// Test helpers for the Optio engine: small battles built in code, playing commands through
// decide() and apply(), reading the project's data files, and an FNV-1a 64 state hash.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/rules/fixed_dice.hpp"
#include "common/rules/optio/game.hpp"

namespace castra::rules::optio::testing {

inline const Ruleset& rs() {
  return *Game::ruleset(Game::current_version());
}

inline std::string source_dir() {
#ifdef CASTRA_SOURCE_DIR
  return CASTRA_SOURCE_DIR;  // compiled in by castra_test()
#else
  const char* d = std::getenv("CASTRA_SOURCE_DIR");
  return d != nullptr ? d : ".";
#endif
}

inline std::string read_file(const std::string& relative) {
  std::ifstream in(source_dir() + "/" + relative, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << relative;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::uint64_t fnv1a64(const std::string& bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

inline std::uint64_t state_hash(const State& s) {
  ByteWriter w;
  Game::encode(s, w);
  return fnv1a64(w.bytes());
}

// Dice from a seeded generator, for property tests.
class RandomDice final : public Dice {
 public:
  explicit RandomDice(std::uint64_t seed) : gen_(seed) {}
  int roll(Die die) override {
    return std::uniform_int_distribution<int>(1, static_cast<int>(die))(gen_);
  }

 private:
  std::mt19937_64 gen_;
};

// Dice that must not be rolled.
class NoDice final : public Dice {
 public:
  int roll(Die) override {
    ADD_FAILURE() << "a die was rolled";
    return 1;
  }
};

// A battle built in code: fixed deployment on an open 16 x 8 board unless changed.
// Side A's general (leader 1, command 1) and side B's (leader 2, command 2) are always there.
struct Battle {
  Scenario sc;
  const Ruleset* rules = &rs();  // the current version unless a test pins an older one
  Battle() {
    sc.cols = 16;
    sc.rows = 8;
    sc.first_side = Side::kA;
    sc.deployment = DeploymentMode::kFixed;
  }
  Battle& unit(int id, Side side, UnitType type, Square at, int facing, int command = 0,
               int bases = 2, Formation f = Formation::kLine) {
    ScenarioUnit u;
    u.id = id;
    u.side = side;
    u.type = type;
    u.at = at;
    u.facing = facing;
    u.command = command != 0 ? command : (side == Side::kA ? 1 : 2);
    u.bases = bases;
    u.formation = f;
    sc.units.push_back(u);
    return *this;
  }
  Battle& leader(int id, Side side, bool general, int command, int unit, int range = 0) {
    sc.leaders.push_back({id, side, general, command, unit, range, ""});
    return *this;
  }
  Battle& terrain(Square at, Terrain t) {
    sc.terrain.push_back({at, t});
    return *this;
  }
  // The state once both orders cards are in (every subcommander's path is his own square
  // unless given), at side A's first move phase.
  State start(std::vector<OrdersPath> paths_a = {}, std::vector<OrdersPath> paths_b = {}) const {
    auto s0 = Game::initial_state(sc, *rules);
    EXPECT_TRUE(s0.ok()) << (s0.ok() ? "" : s0.error().message);
    State s = *s0;
    for (Side side : {Side::kA, Side::kB}) {
      std::vector<OrdersPath> paths = side == Side::kA ? paths_a : paths_b;
      for (const Leader& l : s.leaders) {
        if (l.side != side || l.general) continue;
        bool given = false;
        for (const auto& p : paths)
          given = given || p.leader == l.id;
        if (!given) paths.push_back({l.id, {s.unit(l.unit)->pos}});
      }
      NoDice d;
      auto ev = Game::decide(s, side, cmd::SubmitOrders{paths}, d);
      EXPECT_TRUE(ev.ok()) << (ev.ok() ? "" : ev.error().message);
      for (const Event& e : *ev)
        Game::apply(s, e);
    }
    return s;
  }
};

// Decides and applies a command that must be accepted; returns its events.
inline std::vector<Event> play(State& s, Side side, const Command& c, Dice& d) {
  auto ev = Game::decide(s, side, c, d);
  EXPECT_TRUE(ev.ok()) << (ev.ok() ? "" : ev.error().rule + ": " + ev.error().message);
  if (!ev.ok()) return {};
  for (const Event& e : *ev) {
    const State before = s;
    Game::apply(s, e);
    const auto broken = Game::check(s);
    EXPECT_FALSE(broken.has_value()) << *broken << " after " << Game::describe(before, e);
  }
  return *ev;
}

inline std::vector<Event> play(State& s, Side side, const Command& c) {
  NoDice d;
  return play(s, side, c, d);
}

// The refusal of a command that must be refused.
inline RuleError refusal(const State& s, Side side, const Command& c) {
  NoDice d;
  auto ev = Game::decide(s, side, c, d);
  EXPECT_FALSE(ev.ok()) << "accepted: " << std::visit([](const auto&) { return ""; }, c);
  return ev.ok() ? RuleError{} : ev.error();
}

template <typename E>
std::vector<E> events_of(const std::vector<Event>& events) {
  std::vector<E> out;
  for (const Event& e : events) {
    if (const auto* x = std::get_if<E>(&e)) out.push_back(*x);
  }
  return out;
}

inline cmd::Advance advance(int unit, std::vector<Step> steps) {
  return {unit, std::move(steps)};
}

}  // namespace castra::rules::optio::testing
