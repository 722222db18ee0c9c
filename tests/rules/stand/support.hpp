// Helpers for the Ancient STAND! engine tests: small battles set up directly, dice that
// report what was rolled, and a play() that decides, applies and re-checks the state.
// Test code only.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/rules/stand/game.hpp"

namespace castra::rules::stand::testing {

inline constexpr Side kA = Side::kA;
inline constexpr Side kB = Side::kB;

inline Figures figs(int infantry, int archers, int cavalry, int chariots) {
  Figures f;
  f[Troop::kInfantry] = infantry;
  f[Troop::kArchers] = archers;
  f[Troop::kCavalry] = cavalry;
  f[Troop::kChariots] = chariots;
  return f;
}
inline Figures infantry(int n) {
  return figs(n, 0, 0, 0);
}
inline Figures archers(int n) {
  return figs(0, n, 0, 0);
}
inline Figures cavalry(int n) {
  return figs(0, 0, n, 0);
}
inline Figures chariots(int n) {
  return figs(0, 0, 0, n);
}

// Dice with given faces that record every roll; running out fails the test.
class ScriptedDice final : public Dice {
 public:
  explicit ScriptedDice(std::vector<int> faces = {}) : faces_(std::move(faces)) {}
  int roll(Die die) override {
    rolled.push_back(die);
    if (next_ >= faces_.size()) {
      ADD_FAILURE() << "the test's dice ran out";
      return 1;
    }
    return faces_[next_++];
  }
  std::vector<Die> rolled;

 private:
  std::vector<int> faces_;
  std::size_t next_ = 0;
};

inline HexSpec ground(Hex h, Terrain terrain, Crossing crossing = Crossing::kNone,
                      std::optional<int> capacity = std::nullopt) {
  HexSpec spec;
  spec.hex = h;
  spec.terrain = terrain;
  spec.crossing = crossing;
  spec.capacity = capacity;
  return spec;
}

inline Scenario scenario(int width, int height, std::vector<HexSpec> hexes = {}) {
  Scenario sc;
  sc.name = "test";
  sc.width = width;
  sc.height = height;
  sc.hexes = std::move(hexes);
  sc.armies[0] = {"Blue", figs(12, 6, 6, 3)};
  sc.armies[1] = {"Red", figs(12, 6, 6, 3)};
  return sc;
}

// A battle already under way: side `active`'s `phase` of game turn 1, side A having won
// the roll-off, no troops yet. Place troops with put().
inline State battle(int width, int height, std::vector<HexSpec> hexes = {},
                    Phase phase = Phase::kMove, Side active = kA) {
  auto s = Game::initial_state(scenario(width, height, std::move(hexes)), stand_1());
  EXPECT_TRUE(s.ok()) << s.error().message;
  State out = *s;
  out.to_deploy = {};
  out.first = kA;
  out.phase = phase;
  out.active = active;
  out.game_turn = 1;
  return out;
}

// Starting strength is what each side has on the map now.
inline void start(State& s) {
  s.start_strength = {};
  for (const Tile& t : s.tiles) {
    if (t.occupied()) s.start_strength[index(t.side)] += stand_1().strength_of(t.figures);
  }
}

// Places troops and counts them into the starting strength.
inline void put(State& s, Side side, Hex h, const Figures& f, int facing = 0,
                Posture posture = Posture::kFallingBack) {
  Tile& t = s.at(h);
  t.side = side;
  t.figures = f;
  t.facing = facing;
  t.posture = posture;
  t.unmoved = s.phase == Phase::kMove && side == s.active ? f : Figures{};
  start(s);
}

// Decides and applies; the command must be accepted and every state must check.
inline std::vector<Event> play(State& s, Side side, const Command& c, Dice& dice) {
  auto r = Game::decide(s, side, c, dice);
  EXPECT_TRUE(r.ok()) << r.error().rule << ": " << r.error().message;
  if (!r.ok()) return {};
  for (const Event& e : *r) {
    const State before = s;
    Game::apply(s, e);
    const auto broken = Game::check(s);
    EXPECT_FALSE(broken.has_value()) << *broken << " after " << Game::describe(before, e);
  }
  return *r;
}

inline std::vector<Event> play(State& s, Side side, const Command& c) {
  ScriptedDice none;
  return play(s, side, c, none);
}

// The rule a refused command breaks ("" when it is accepted).
inline std::string refusal(const State& s, Side side, const Command& c) {
  ScriptedDice dice({1, 1, 1, 1});
  auto r = Game::decide(s, side, c, dice);
  return r.ok() ? std::string() : r.error().rule;
}

inline std::string refusal_message(const State& s, Side side, const Command& c) {
  ScriptedDice dice({1, 1, 1, 1});
  auto r = Game::decide(s, side, c, dice);
  return r.ok() ? std::string() : r.error().message;
}

template <typename E>
std::vector<E> only(const std::vector<Event>& events) {
  std::vector<E> out;
  for (const Event& e : events) {
    if (const E* x = std::get_if<E>(&e)) out.push_back(*x);
  }
  return out;
}

}  // namespace castra::rules::stand::testing
