// A Picker that closes with the enemy in STAND!, for the tests that need fights: in the move
// phase each single-type group goes to the destination nearest an enemy hex of the picture the
// player was shown (when that is nearer than where it stands), so that the fight phase lists
// attacks; every other choice is the Picker's. It reads only the legal list and the picture.
#pragma once

#include <algorithm>
#include <climits>
#include <optional>

#include "common/rules/stand/hex.hpp"
#include "tests/server/picker.hpp"

namespace castra::testing {

struct ClosingPicker {
  Picker picker;

  std::optional<v1::GameCommand> pick(const v1::GameLegal& legal, const v1::Snapshot& seen,
                                      rules::Side side) {
    if (legal.has_stand() && legal.stand().moves_size() > 0) {
      if (auto move = closer(legal.stand(), seen.state().stand(), side)) return move;
    }
    return picker.pick(legal, side);
  }

 private:
  static int nearest_enemy(const v1::Coord& c, const v1::stand::State& s, rules::Side side) {
    const v1::Side enemy = side == rules::Side::kA ? v1::SIDE_B : v1::SIDE_A;
    int best = INT_MAX;
    for (const auto& t : s.tiles()) {
      if (!t.has_troops() || t.troops().side() != enemy) continue;
      const auto& f = t.troops().figures();
      if (f.infantry() + f.archers() + f.cavalry() + f.chariots() == 0) continue;
      best = std::min(best,
                      rules::stand::distance({c.col(), c.row()}, {t.hex().col(), t.hex().row()}));
    }
    return best;
  }

  static std::optional<v1::GameCommand> closer(const v1::stand::Legal& l, const v1::stand::State& s,
                                               rules::Side side) {
    for (const auto& g : l.moves()) {
      if (g.types_size() != 1) continue;
      const int here = nearest_enemy(g.from(), s, side);
      const v1::stand::Legal::Destination* best = nullptr;
      int best_distance = here;
      for (const auto& d : g.destinations()) {
        const int there = nearest_enemy(d.hex(), s, side);
        if (there < best_distance) {
          best = &d;
          best_distance = there;
        }
      }
      if (best == nullptr) continue;
      v1::GameCommand c;
      auto* mv = c.mutable_stand()->mutable_move();
      *mv->mutable_from() = g.from();
      *mv->mutable_path() = best->path();
      *mv->mutable_figures() = best->most();
      return c;
    }
    return std::nullopt;
  }
};

}  // namespace castra::testing
