// Optio's reasons() and command_view(): every candidate command of one piece (those legal()
// lists and all the others), put through validate(), and the refusals summarised per kind of
// action.
#include "common/rules/optio/reasons.hpp"

#include <algorithm>
#include <deque>
#include <string>

#include "common/rules/optio/game.hpp"
#include "common/rules/optio/internal.hpp"

namespace castra::rules::optio {
namespace {

using Errors = std::vector<RuleError>;

std::string unit_words(const Unit& u) {
  return std::string(unit_type_name(u.type)) + " " + std::to_string(u.id) + " at " +
         square_text(u.pos);
}

// Collects one kind's refusals; a kind with one accepted candidate has no refusal.
struct Kind {
  bool possible = false;
  Errors all;
  Errors detail;
  void add(const std::optional<RuleError>& e, bool representative = true) {
    if (!e) {
      possible = true;
      return;
    }
    all.push_back(*e);
    if (representative) detail.push_back(*e);
  }
};

void conclude(Reasons& out, const char* action, const Kind& k, const std::string& rule,
              const std::string& summary) {
  if (k.possible) {
    out.can_act = true;
    return;
  }
  out.refusals.push_back({action, summarise(k.all, k.detail, rule, summary)});
}

void unit_reasons(detail::Ctx& ctx, Side side, const Unit& u, Reasons& out) {
  const State& s = ctx.s;
  if (s.phase == Phase::kDeployment) {
    Kind deploy;
    for (int row = 1; row <= s.rows; ++row) {
      for (int col = 1; col <= s.cols; ++col) {
        deploy.add(detail::validate(ctx, side, cmd::Deploy{u.id, {col, row}, 0, Formation::kLine}),
                   false);
      }
    }
    conclude(out, "deploy", deploy, "optio.2.deployment",
             "no free square of your deployment zone may take " + unit_words(u));
    return;
  }
  Kind advance;
  detail::advance_paths(u, ctx.rs.stats(u.type).move, [&](const std::vector<Step>& steps) {
    advance.add(detail::validate(ctx, side, cmd::Advance{u.id, steps}), steps.size() == 1);
    return true;
  });
  conclude(out, "advance", advance, "optio.5.room", unit_words(u) + " has no room to advance");
  Kind rotate;
  for (int f = 0; f < kFacings; ++f) {
    const bool quarter = f == turn(u.facing, 1) || f == turn(u.facing, -1);
    rotate.add(detail::validate(ctx, side, cmd::Rotate{u.id, f}), quarter);
  }
  conclude(out, "rotate", rotate, "optio.5.rotate", unit_words(u) + " may not rotate");
  Kind formation;
  formation.add(detail::validate(ctx, side, cmd::ChangeFormation{u.id}));
  conclude(out, "formation", formation, "optio.5.formation",
           unit_words(u) + " may not change formation");
  Kind shoot;
  for (const Unit& t : s.units) {
    if (t.side != side && t.on_board())
      shoot.add(detail::validate(ctx, side, cmd::Shoot{u.id, t.id}), false);
  }
  const UnitStats& st = ctx.rs.stats(u.type);
  conclude(out, "shoot", shoot, "optio.7.shoot",
           "no enemy unit is within " + std::string(st.name) + " range " +
               std::to_string(st.range) + " straight or diagonally ahead of " + unit_words(u));
}

void leader_reasons(detail::Ctx& ctx, Side side, const Leader& l, Reasons& out) {
  const State& s = ctx.s;
  const std::string who = "leader " + std::to_string(l.id);
  if (s.phase == Phase::kDeployment) {
    Kind place;
    for (const Unit& u : s.units) {
      if (u.side == side)
        place.add(detail::validate(ctx, side, cmd::PlaceLeader{l.id, u.id}), false);
    }
    conclude(out, "place", place, "optio.3.leader",
             who + " has no deployed unit of his command to stand with");
    return;
  }
  Kind move;
  for (const Unit& u : s.units) {
    if (u.side != side || !u.on_board()) continue;
    const bool his = u.id != l.unit && detail::may_stand_with(s, l, u);
    move.add(detail::validate(ctx, side, cmd::MoveLeader{l.id, u.id}), his);
  }
  conclude(out, "move", move, "optio.3.leader", who + " has no unit of his command to move to");
  Kind abandon;
  abandon.add(detail::validate(ctx, side, cmd::AbandonOrders{l.id}));
  conclude(out, "abandon", abandon, "optio.4.abandon", who + " may not abandon his orders");
}

Reasons not_in_play(std::string rule, std::string message) {
  Reasons out;
  out.refusals.push_back({"select", refuse(std::move(rule), std::move(message))});
  return out;
}

}  // namespace

Reasons reasons(const State& s, Side side, Piece piece) {
  const std::string id = std::to_string(piece.id);
  detail::Ctx ctx(s);
  Reasons out;
  if (piece.kind == Piece::Kind::kUnit) {
    const Unit* u = s.unit(piece.id);
    if (u == nullptr) return not_in_play("optio.1.unit", "there is no unit " + id);
    if (u->side != side) return not_in_play("optio.1.unit", "unit " + id + " is not yours");
    if (u->routed) return not_in_play("optio.8.rout", "unit " + id + " has routed");
    if (!u->placed && s.phase != Phase::kDeployment) {
      return not_in_play("optio.2.deployment", "unit " + id + " is not deployed");
    }
    unit_reasons(ctx, side, *u, out);
    return out;
  }
  const Leader* l = s.leader(piece.id);
  if (l == nullptr) return not_in_play("optio.1.leader", "there is no leader " + id);
  if (l->side != side) return not_in_play("optio.1.leader", "leader " + id + " is not yours");
  if (!l->active()) {
    return not_in_play(
        "optio.8.leader",
        "leader " + id +
            (l->status == LeaderStatus::kKilled ? " has been killed" : " has left the game"));
  }
  leader_reasons(ctx, side, *l, out);
  return out;
}

std::vector<UnitCommand> command_view(const State& s, Side side) {
  const detail::Board board(s);
  std::vector<UnitCommand> out;
  for (int id : detail::units_of(s, side)) {
    const Unit& u = *s.unit(id);
    UnitCommand c;
    c.unit = id;
    c.command = u.command;
    out.push_back(c);
  }
  const auto entry = [&](int id) {
    return std::find_if(out.begin(), out.end(), [&](const UnitCommand& c) { return c.unit == id; });
  };
  // The chains, walked as detail::chain walks them, keeping where each unit joined; a unit
  // takes the first leader (by id) whose chain reaches it.
  for (const Leader& l : s.leaders) {
    if (l.side != side || !l.active() || l.unit == 0) continue;
    const Unit* start = s.unit(l.unit);
    if (start == nullptr || !start->on_board()) continue;
    std::vector<int> seen{start->id};
    std::deque<std::pair<int, int>> todo{{start->id, 0}};
    while (!todo.empty()) {
      const auto [uid, via] = todo.front();
      todo.pop_front();
      auto e = entry(uid);
      if (e != out.end() && !e->in_command) {
        e->in_command = true;
        e->leader = l.id;
        e->joined_to = via;
      }
      const Unit* u = s.unit(uid);
      for (int f = 0; f < kFacings; ++f) {
        const int next = board.at(plus(u->pos, step_of(f)));
        if (next == 0 || std::find(seen.begin(), seen.end(), next) != seen.end()) continue;
        if (!detail::may_stand_with(s, l, *s.unit(next))) continue;
        seen.push_back(next);
        todo.push_back({next, uid});
      }
    }
  }
  for (UnitCommand& c : out) {
    if (c.in_command) continue;
    for (const Leader& l : s.leaders) {
      if (l.side == side && l.active() && detail::may_stand_with(s, l, *s.unit(c.unit)) &&
          (c.leader == 0 || l.command == c.command)) {
        c.leader = l.id;
      }
    }
  }
  return out;
}

}  // namespace castra::rules::optio
