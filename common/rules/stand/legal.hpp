// Legal: everything one side may do now, complete enough that a client needs no rules
// code, and allows(), which answers exactly as Game::decide would accept or refuse a
// command (the property test holds them to it). Plain values; any thread.
#pragma once

#include <array>
#include <vector>

#include "common/rules/stand/command.hpp"
#include "common/rules/stand/hex.hpp"
#include "common/rules/stand/ruleset.hpp"
#include "common/rules/stand/state.hpp"

namespace castra::rules::stand {

// A hex figures may end in. `path` is one shortest legal path (empty for a deployment);
// a group lists its move destinations nearest first.
// `most` is the most figures of each type that may go there with one of each other type
// of the group; `room` the free space, which any mix of the group must fit.
struct Destination {
  Hex hex;
  std::vector<Hex> path;
  Figures most;
  int room = 0;
  friend bool operator==(const Destination&, const Destination&) = default;
};

// Figures of the types `types`, one of each at least, that may move together from `from`
// (or, for a deployment, from the army list). `available` bounds each type.
struct Group {
  Hex from;  // unused for a deployment
  TroopMask types = 0;
  Figures available;
  int reach = 0;  // 0 for a deployment
  std::vector<Destination> destinations;
  friend bool operator==(const Group&, const Group&) = default;
};

// The hexes a move of `types` may enter on its way: on the map, terrain every type may
// enter, no enemy. Sorted.
struct Passage {
  TroopMask types = 0;
  std::vector<Hex> hexes;
  friend bool operator==(const Passage&, const Passage&) = default;
};

// A hex whose facing (or posture) may change to anything but its present one.
struct FacingChoice {
  Hex hex;
  int facing = 0;
  friend bool operator==(const FacingChoice&, const FacingChoice&) = default;
};

struct PostureChoice {
  Hex hex;
  Posture posture = Posture::kFallingBack;
  friend bool operator==(const PostureChoice&, const PostureChoice&) = default;
};

struct AttackChoice {
  Hex from;
  std::vector<Hex> targets;
  friend bool operator==(const AttackChoice&, const AttackChoice&) = default;
};

struct Legal {
  Side side = Side::kA;
  Phase phase = Phase::kRollOff;
  bool end_phase = false;
  std::array<int, kTroopTypes> space{};  // space per figure, to add up a mix against room
  std::vector<Group> deploy;
  std::vector<Group> moves;
  std::vector<Passage> passages;  // one per types set of `moves`
  std::vector<FacingChoice> facings;
  std::vector<PostureChoice> postures;
  std::vector<AttackChoice> attacks;
  friend bool operator==(const Legal&, const Legal&) = default;

  bool empty() const {
    return !end_phase && deploy.empty() && moves.empty() && facings.empty() && postures.empty() &&
           attacks.empty();
  }
};

Legal legal_for(const State& s, Side side);

// True exactly when Game::decide would accept `c` from legal.side in the state legal came
// from.
bool allows(const Legal& legal, const Command& c);

// Concrete commands drawn from `legal`, each of which decide accepts: every end phase,
// attack, facing and posture change, and for every destination the move or deployment of
// the most figures that fit and of one figure of each type.
std::vector<Command> commands(const Legal& legal);

}  // namespace castra::rules::stand
