// Optio's explanations for the client: why one of a side's units or leaders cannot act
// (reasons) and who commands each of its units (command_view). Both read only what the
// side may see, so the server calls them on the side's own projection. Pure; any thread.
#pragma once

#include <vector>

#include "common/rules/optio/state.hpp"
#include "common/rules/reasons.hpp"

namespace castra::rules::optio {

struct Piece {
  enum class Kind : std::uint8_t { kUnit = 0, kLeader = 1 };
  Kind kind = Kind::kUnit;
  int id = 0;
  friend bool operator==(const Piece&, const Piece&) = default;
};

// For each kind of action of the current phase (a unit: advance, rotate, formation, shoot,
// or deploy; a leader: move, abandon, or place) that Game::legal(s, side) offers the piece
// nothing of, the rule that stops it. A piece that is not the side's, or not in play, gets
// one refusal saying so.
Reasons reasons(const State& s, Side side, Piece piece);

// One unit's command: the leader whose chain puts it in command now, else the leader of its
// command (0 when it has none left); `joined_to` is the unit of that chain it is joined to,
// orthogonally (0 for the leader's own unit and for a unit out of command).
struct UnitCommand {
  int unit = 0;
  int command = 0;
  int leader = 0;
  bool in_command = false;
  int joined_to = 0;
  friend bool operator==(const UnitCommand&, const UnitCommand&) = default;
};

// Every unit of `side` on the board, by ascending id.
std::vector<UnitCommand> command_view(const State& s, Side side);

}  // namespace castra::rules::optio
