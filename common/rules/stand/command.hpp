// The commands a player gives in Ancient STAND! and the events the engine answers with.
// Events are facts with their results, so folding one into a state needs no rules.
// Plain values; any thread.
#pragma once

#include <array>
#include <string>
#include <variant>
#include <vector>

#include "common/rules/stand/hex.hpp"
#include "common/rules/stand/ruleset.hpp"
#include "common/rules/stand/state.hpp"
#include "common/rules/types.hpp"

namespace castra::rules::stand {

namespace cmd {

// Place figures from the army list in a hex of the deployment zone, facing `facing`.
struct Deploy {
  Hex hex;
  Figures figures;
  int facing = 0;
  friend bool operator==(const Deploy&, const Deploy&) = default;
};

// Move figures of one hex along `path`, the hexes entered in order; the last is the end.
struct Move {
  Hex from;
  std::vector<Hex> path;
  Figures figures;
  friend bool operator==(const Move&, const Move&) = default;
};

struct Face {
  Hex hex;
  int facing = 0;
  friend bool operator==(const Face&, const Face&) = default;
};

struct SetPosture {
  Hex hex;
  Posture posture = Posture::kFallingBack;
  friend bool operator==(const SetPosture&, const SetPosture&) = default;
};

struct Attack {
  Hex from;
  Hex target;
  friend bool operator==(const Attack&, const Attack&) = default;
};

// Ends the acting side's deployment, move phase or fight phase.
struct EndPhase {
  friend bool operator==(const EndPhase&, const EndPhase&) = default;
};

}  // namespace cmd

using Command =
    std::variant<cmd::Deploy, cmd::Move, cmd::Face, cmd::SetPosture, cmd::Attack, cmd::EndPhase>;

namespace ev {

struct RollOff {
  Side side = Side::kA;
  int face = 0;  // the roll-off die
  friend bool operator==(const RollOff&, const RollOff&) = default;
};

// The winner moves first; the loser deploys first.
struct RollOffWon {
  Side winner = Side::kA;
  friend bool operator==(const RollOffWon&, const RollOffWon&) = default;
};

// `rows` is empty when the scenario lists the zones (State::zones).
struct DeploymentBegan {
  Side side = Side::kA;
  RowSpan rows;
  friend bool operator==(const DeploymentBegan&, const DeploymentBegan&) = default;
};

struct Deployed {
  Side side = Side::kA;
  Hex hex;
  Figures figures;
  int facing = 0;
  friend bool operator==(const Deployed&, const Deployed&) = default;
};

// `left_out`: figures of the army list that found no room; they take no part.
struct DeploymentEnded {
  Side side = Side::kA;
  Figures left_out;
  friend bool operator==(const DeploymentEnded&, const DeploymentEnded&) = default;
};

struct BattleBegan {
  std::array<int, 2> start_strength{};
  friend bool operator==(const BattleBegan&, const BattleBegan&) = default;
};

struct PhaseBegan {
  Side side = Side::kA;
  Phase phase = Phase::kMove;
  int game_turn = 0;
  friend bool operator==(const PhaseBegan&, const PhaseBegan&) = default;
};

struct PhaseEnded {
  Side side = Side::kA;
  Phase phase = Phase::kMove;
  friend bool operator==(const PhaseEnded&, const PhaseEnded&) = default;
};

// `facing` and `posture` are the end hex's after the move.
struct Moved {
  Side side = Side::kA;
  Hex from;
  std::vector<Hex> path;
  Figures figures;
  int facing = 0;
  Posture posture = Posture::kFallingBack;
  friend bool operator==(const Moved&, const Moved&) = default;
};

struct Faced {
  Side side = Side::kA;
  Hex hex;
  int facing = 0;
  friend bool operator==(const Faced&, const Faced&) = default;
};

struct PostureSet {
  Side side = Side::kA;
  Hex hex;
  Posture posture = Posture::kFallingBack;
  friend bool operator==(const PostureSet&, const PostureSet&) = default;
};

// One attack and its arithmetic: `total` is T in tenths, `sure` the casualties taken
// without a die (whole ones, and the fraction's one when it is 0.5 or more), never more
// than the defending hex holds. `facing` is the attacking hex's facing afterwards.
struct Attacked {
  Side side = Side::kA;
  Hex from;
  Hex target;
  Figures attackers;
  Posture posture = Posture::kFallingBack;
  bool cover = false;
  bool rear = false;
  Tenths total = 0;
  int sure = 0;
  int facing = 0;
  friend bool operator==(const Attacked&, const Attacked&) = default;
};

// The d10 for a fraction of 0.1 to 0.4: one more casualty when face <= fraction.
struct FractionRolled {
  Tenths fraction = 0;
  int face = 0;
  bool extra = false;
  friend bool operator==(const FractionRolled&, const FractionRolled&) = default;
};

struct Casualties {
  Side side = Side::kA;  // the side that loses them
  Hex hex;
  Figures lost;
  int strength = 0;
  friend bool operator==(const Casualties&, const Casualties&) = default;
};

struct GameEnded {
  Outcome outcome;
  friend bool operator==(const GameEnded&, const GameEnded&) = default;
};

}  // namespace ev

using Event = std::variant<ev::RollOff, ev::RollOffWon, ev::DeploymentBegan, ev::Deployed,
                           ev::DeploymentEnded, ev::BattleBegan, ev::PhaseBegan, ev::PhaseEnded,
                           ev::Moved, ev::Faced, ev::PostureSet, ev::Attacked, ev::FractionRolled,
                           ev::Casualties, ev::GameEnded>;

}  // namespace castra::rules::stand
