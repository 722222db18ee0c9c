// Toy: the smallest rule set that exercises everything the match core does: an opening
// roll-off (dice in begin), a simultaneous phase with sealed secrets, private notes, and a
// race decided by d6 rolls. For match-core tests only; not a game anyone plays.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/rules/rule_set.hpp"

namespace castra::toy {

using rules::Side;

struct Ruleset {
  std::string version;
  int goal = 0;
};

struct Scenario {
  int goal = 12;
};

struct State {
  std::string version;
  int goal = 0;
  std::array<int, 2> pos{0, 0};
  int phase = 0;  // 0: secrets (both act), 1: race
  Side turn = Side::kA;
  std::array<bool, 2> secret_set{false, false};
  std::array<std::string, 2> secret;              // hidden from the other side until the end
  std::array<std::vector<std::string>, 2> notes;  // private
  friend bool operator==(const State&, const State&) = default;
};

struct SetSecret {
  std::string text;
  friend bool operator==(const SetSecret&, const SetSecret&) = default;
};
struct Advance {
  friend bool operator==(const Advance&, const Advance&) = default;
};
struct Note {
  std::string text;
  friend bool operator==(const Note&, const Note&) = default;
};
using Command = std::variant<SetSecret, Advance, Note>;

struct RolledOff {
  int a = 0;
  int b = 0;
  friend bool operator==(const RolledOff&, const RolledOff&) = default;
};
struct SecretSet {
  Side side = Side::kA;
  std::string text;
  friend bool operator==(const SecretSet&, const SecretSet&) = default;
};
struct Moved {
  Side side = Side::kA;
  int face = 0;
  int to = 0;
  friend bool operator==(const Moved&, const Moved&) = default;
};
struct Noted {
  Side side = Side::kA;
  std::string text;
  friend bool operator==(const Noted&, const Noted&) = default;
};
using Event = std::variant<RolledOff, SecretSet, Moved, Noted>;

struct Legal {
  std::vector<std::string> allowed;
};

struct Game {
  using Ruleset = toy::Ruleset;
  using Scenario = toy::Scenario;
  using State = toy::State;
  using Command = toy::Command;
  using Event = toy::Event;
  using Legal = toy::Legal;

  static constexpr std::string_view kName = "toy";
  static constexpr bool kHidesInformation = true;  // each side's secret and notes
  static std::string_view current_version() { return "toy-1"; }
  static const Ruleset* ruleset(std::string_view v) {
    static const Ruleset kToy1{"toy-1", 0};
    return v == "toy-1" ? &kToy1 : nullptr;
  }
  static rules::Checked<State> initial_state(const Scenario& sc, const Ruleset& rs) {
    if (sc.goal <= 0) return rules::refuse("toy.scenario", "the goal must be positive");
    State s;
    s.version = rs.version;
    s.goal = sc.goal;
    return s;
  }
  static std::vector<Event> begin(const State&, rules::Dice& dice) {
    std::vector<Event> out;
    for (;;) {
      RolledOff r{dice.roll(rules::Die::kD6), dice.roll(rules::Die::kD6)};
      out.push_back(r);
      if (r.a != r.b) return out;
    }
  }
  static rules::Checked<std::vector<Event>> decide(const State& s, Side side, const Command& c,
                                                   rules::Dice& dice) {
    const int i = rules::index(side);
    if (const auto* set = std::get_if<SetSecret>(&c)) {
      if (s.phase != 0 || s.secret_set[i]) {
        return rules::refuse("toy.secret", "secrets are set once, before the race");
      }
      return std::vector<Event>{SecretSet{side, set->text}};
    }
    if (const auto* note = std::get_if<Note>(&c)) {
      return std::vector<Event>{Noted{side, note->text}};
    }
    if (s.phase != 1) return rules::refuse("toy.race", "the race has not begun");
    const int face = dice.roll(rules::Die::kD6);
    return std::vector<Event>{Moved{side, face, s.pos[i] + face}};
  }
  static void apply(State& s, const Event& e) {
    if (const auto* r = std::get_if<RolledOff>(&e)) {
      s.turn = r->a > r->b ? Side::kA : Side::kB;
    } else if (const auto* set = std::get_if<SecretSet>(&e)) {
      s.secret_set[rules::index(set->side)] = true;
      s.secret[rules::index(set->side)] = set->text;
      if (s.secret_set[0] && s.secret_set[1]) s.phase = 1;
    } else if (const auto* m = std::get_if<Moved>(&e)) {
      s.pos[rules::index(m->side)] = m->to;
      s.turn = rules::other(m->side);
    } else if (const auto* n = std::get_if<Noted>(&e)) {
      s.notes[rules::index(n->side)].push_back(n->text);
    }
  }
  static rules::Visibility visibility(const Event& e) {
    if (const auto* set = std::get_if<SecretSet>(&e)) return rules::Visibility::sealed(set->side);
    if (const auto* n = std::get_if<Noted>(&e)) return rules::Visibility::only(n->side);
    return rules::Visibility::everyone();
  }
  static std::string sealed_bytes(const Event& e) {
    if (const auto* set = std::get_if<SecretSet>(&e)) {
      rules::ByteWriter w;
      w.tag('S');
      w.str(set->text);
      return w.take();
    }
    return {};
  }
  static Legal legal(const State& s, Side side) {
    Legal l;
    if (s.phase == 0 && !s.secret_set[rules::index(side)]) l.allowed.push_back("secret");
    if (s.phase == 1 && s.turn == side) l.allowed.push_back("advance");
    return l;
  }
  static rules::Acting acting(const State& s) {
    if (s.phase == 0) return {!s.secret_set[0], !s.secret_set[1], "secrets"};
    return {s.turn == Side::kA, s.turn == Side::kB, "race"};
  }
  static std::optional<rules::Outcome> outcome(const State& s) {
    for (Side side : {Side::kA, Side::kB}) {
      if (s.pos[rules::index(side)] >= s.goal) {
        return rules::Outcome::win(
            side, std::string("side ") + rules::side_letter(side) + " reached the goal");
      }
    }
    return std::nullopt;
  }
  static State project(const State& s, rules::Viewer v) {
    State p = s;
    for (Side side : {Side::kA, Side::kB}) {
      const int i = rules::index(side);
      if (v != rules::Viewer::kEveryone && v != rules::viewer_of(side)) {
        p.secret[i].clear();
        p.notes[i].clear();
      }
    }
    return p;
  }
  static void encode(const State& s, rules::ByteWriter& w) {
    w.str(s.version);
    w.i32(s.goal);
    for (int i = 0; i < 2; ++i) {
      w.i32(s.pos[i]);
      w.boolean(s.secret_set[i]);
      w.str(s.secret[i]);
      w.u32(static_cast<std::uint32_t>(s.notes[i].size()));
      for (const auto& n : s.notes[i])
        w.str(n);
    }
    w.i32(s.phase);
    w.u8(static_cast<std::uint8_t>(s.turn));
  }
  static std::optional<std::string> check(const State& s) {
    if (s.pos[0] < 0 || s.pos[1] < 0) return "negative position";
    return std::nullopt;
  }
  static std::string describe(const State&, const Event& e) {
    if (const auto* r = std::get_if<RolledOff>(&e)) {
      return "roll-off A " + std::to_string(r->a) + " B " + std::to_string(r->b);
    }
    if (const auto* set = std::get_if<SecretSet>(&e)) {
      return std::string("side ") + rules::side_letter(set->side) + " set secret " + set->text;
    }
    if (const auto* m = std::get_if<Moved>(&e)) {
      return std::string("side ") + rules::side_letter(m->side) + " rolled " +
             std::to_string(m->face) + " to " + std::to_string(m->to);
    }
    const auto& n = std::get<Noted>(e);
    return std::string("side ") + rules::side_letter(n.side) + " noted " + n.text;
  }
};

static_assert(rules::RuleSet<Game>);

}  // namespace castra::toy
