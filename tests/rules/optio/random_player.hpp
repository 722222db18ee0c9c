// Random commands for property tests and script generation: one drawn from the legal list,
// or one built blindly (often illegal) from the state's shape.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <random>
#include <vector>

#include "common/rules/optio/game.hpp"

namespace castra::rules::optio::testing {

class RandomPlayer {
 public:
  explicit RandomPlayer(std::uint64_t seed) : gen_(seed) {}

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(gen_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(gen_); }

  // A command from the list, or nothing when the list is empty: a kind drawn among the
  // kinds listed (advances; rotations and formation changes; shots; deployments, one drawn
  // per unit; leader moves and placements; abandoned orders; ends of a phase; a card), then
  // one of that kind. Only the drawn command is made (the fuzz target asks for one per step,
  // and a copy of every listed command was most of its allocations outside the legal list).
  std::optional<Command> from_list(const State& s, const Legal& l) {
    std::array<std::size_t, 8> sizes{};
    std::vector<cmd::Deploy> deploys;  // a unit's deployment is drawn whole, in unit order
    for (const UnitLegal& u : l.units) {
      sizes[0] += u.advances.size();
      sizes[1] += u.rotations.size() + (u.change_formation ? 1 : 0);
      sizes[2] += u.shoot_targets.size();
      if (!u.placements.empty()) deploys.push_back(drawn_deploy(u));
    }
    sizes[3] = deploys.size();
    for (const LeaderLegal& x : l.leaders) {
      sizes[4] += x.move_to.size() + x.place_on.size();
      sizes[5] += x.abandon ? 1 : 0;
    }
    sizes[6] = (l.end_phase ? 1 : 0) + (l.end_deployment ? 1 : 0);
    std::optional<cmd::SubmitOrders> card;
    if (l.orders.submit) card = random_card(s, l.orders, false);
    sizes[7] = card ? 1 : 0;
    const auto kinds = static_cast<int>(
        std::count_if(sizes.begin(), sizes.end(), [](std::size_t n) { return n > 0; }));
    if (kinds == 0) return std::nullopt;
    int kind = pick(kinds);
    std::size_t g = 0;
    for (; sizes[g] == 0 || kind-- > 0; ++g) {
    }
    return listed(l, deploys, card, g, static_cast<std::size_t>(pick(static_cast<int>(sizes[g]))));
  }

  // A well-formed card (or, when `sloppy`, one that may break any rule of its shape).
  cmd::SubmitOrders random_card(const State& s, const OrdersLegal& o, bool sloppy) {
    cmd::SubmitOrders c;
    for (const OrdersPath& start : o.starts) {
      if (sloppy && chance(0.1)) continue;
      OrdersPath p{start.leader, {start.squares.front()}};
      const int len = pick(8);
      for (int i = 0; i < len; ++i) {
        Square next = p.squares.back();
        do {
          next = {p.squares.back().col + pick(3) - 1, p.squares.back().row + pick(3) - 1};
        } while (next == p.squares.back());
        if (!s.on_board(next) && !(sloppy && chance(0.3))) continue;
        p.squares.push_back(next);
      }
      if (sloppy && chance(0.1))
        p.squares.push_back({p.squares.back().col + 2, p.squares.back().row});
      if (sloppy && chance(0.05)) p.squares.front().col += 1;
      c.paths.push_back(std::move(p));
    }
    if (sloppy && chance(0.1)) {
      const Leader& l =
          s.leaders[static_cast<std::size_t>(pick(static_cast<int>(s.leaders.size())))];
      c.paths.push_back(
          {l.id, {l.unit != 0 && s.unit(l.unit) ? s.unit(l.unit)->pos : Square{1, 1}}});
    }
    return c;
  }

  // A command built without the list: any kind, mostly real ids, squares near the unit.
  Command blind(const State& s, Side side) {
    const int uid = random_unit_id(s);
    const Unit* u = s.unit(uid);
    const Square at =
        u != nullptr && u->placed ? u->pos : Square{1 + pick(s.cols), 1 + pick(s.rows)};
    const int facing = u != nullptr ? u->facing : pick(4);
    const int lid = random_leader_id(s);
    switch (pick(11)) {
      case 0:
        return cmd::Deploy{uid, near(at, 2), pick(5),
                           chance(0.5) ? Formation::kLine : Formation::kColumn};
      case 1:
        return cmd::PlaceLeader{lid, random_unit_id(s)};
      case 2:
        return cmd::EndDeployment{};
      case 3: {
        OrdersLegal o;
        o.cols = s.cols;
        o.rows = s.rows;
        for (const Leader& l : s.leaders) {
          if (l.side == side && !l.general && l.active() && l.unit != 0) {
            o.starts.push_back({l.id, {s.unit(l.unit)->pos}});
          }
        }
        return random_card(s, o, true);
      }
      case 4: {
        cmd::Advance a{uid, {}};
        const int n = 1 + pick(4);
        Square from = at;
        int f = facing;
        for (int i = 0; i < n; ++i) {
          if (chance(0.3)) f = turn(f, pick(3) - 1);
          if (chance(0.03)) f = 4 + pick(2);
          Square to;
          if (chance(0.85)) {
            const auto d = diagonally_ahead(from, f % 4);
            const Square opts[3] = {d[0], ahead(from, f % 4), d[1]};
            to = opts[pick(3)];
          } else {
            to = near(from, 1);
          }
          a.steps.push_back({to, f});
          from = to;
        }
        return a;
      }
      case 5:
        return cmd::Rotate{uid, chance(0.9) ? turn(facing, pick(4)) : 4};
      case 6:
        return cmd::ChangeFormation{uid};
      case 7:
        return cmd::Shoot{uid, random_unit_id(s)};
      case 8:
        return cmd::MoveLeader{lid, random_unit_id(s)};
      case 9:
        return cmd::AbandonOrders{lid};
      default:
        return cmd::EndPhase{};
    }
  }

 private:
  // A placement, a facing and a formation for `u`, drawn in that order: the one deployment
  // from_list() lists for a unit that may deploy.
  cmd::Deploy drawn_deploy(const UnitLegal& u) {
    const Square q =
        u.placements[static_cast<std::size_t>(pick(static_cast<int>(u.placements.size())))];
    const int f = u.facings[static_cast<std::size_t>(pick(static_cast<int>(u.facings.size())))];
    const Formation fm =
        u.formations[static_cast<std::size_t>(pick(static_cast<int>(u.formations.size())))];
    return cmd::Deploy{u.unit, q, f, fm};
  }

  // The i-th command of kind g in from_list()'s order, given its draws.
  static Command listed(const Legal& l, const std::vector<cmd::Deploy>& deploys,
                        const std::optional<cmd::SubmitOrders>& card, std::size_t g,
                        std::size_t i) {
    switch (g) {
      case 0:
        for (const UnitLegal& u : l.units) {
          if (i < u.advances.size()) return cmd::Advance{u.unit, u.advances[i].steps};
          i -= u.advances.size();
        }
        break;
      case 1:
        for (const UnitLegal& u : l.units) {
          if (i < u.rotations.size()) return cmd::Rotate{u.unit, u.rotations[i]};
          i -= u.rotations.size();
          if (u.change_formation) {
            if (i == 0) return cmd::ChangeFormation{u.unit};
            --i;
          }
        }
        break;
      case 2:
        for (const UnitLegal& u : l.units) {
          if (i < u.shoot_targets.size()) return cmd::Shoot{u.unit, u.shoot_targets[i]};
          i -= u.shoot_targets.size();
        }
        break;
      case 3:
        return deploys[i];
      case 4:
        for (const LeaderLegal& x : l.leaders) {
          if (i < x.move_to.size()) return cmd::MoveLeader{x.leader, x.move_to[i]};
          i -= x.move_to.size();
          if (i < x.place_on.size()) return cmd::PlaceLeader{x.leader, x.place_on[i]};
          i -= x.place_on.size();
        }
        break;
      case 5:
        for (const LeaderLegal& x : l.leaders) {
          if (x.abandon && i-- == 0) return cmd::AbandonOrders{x.leader};
        }
        break;
      case 6:
        if (l.end_phase && i-- == 0) return cmd::EndPhase{};
        return cmd::EndDeployment{};
      default:
        return *card;
    }
    return cmd::EndPhase{};  // not reached: i is below the group's size
  }

  int random_unit_id(const State& s) {
    if (chance(0.05)) return pick(300);
    return s.units[static_cast<std::size_t>(pick(static_cast<int>(s.units.size())))].id;
  }
  int random_leader_id(const State& s) {
    if (chance(0.05)) return pick(300);
    return s.leaders[static_cast<std::size_t>(pick(static_cast<int>(s.leaders.size())))].id;
  }
  Square near(Square at, int r) {
    return {at.col + pick(2 * r + 1) - r, at.row + pick(2 * r + 1) - r};
  }

  std::mt19937_64 gen_;
};

}  // namespace castra::rules::optio::testing
