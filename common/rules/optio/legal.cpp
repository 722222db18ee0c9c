// Optio's legal(): every command a side may give now, built by enumerating candidates and
// keeping those that validate() accepts (asked through allowed(), which runs the same checks
// without wording refusals; an advance's paths through allowed_advances(), the same checks
// made along the tree of paths), so the list and decide() never disagree.
#include <algorithm>
#include <array>
#include <variant>

#include "common/rules/optio/game.hpp"
#include "common/rules/optio/internal.hpp"

namespace castra::rules::optio {

namespace {

void move_phase(detail::Ctx& ctx, Side side, Legal& out) {
  const State& s = ctx.s;
  for (const Unit& u : s.units) {
    if (u.side != side || !u.on_board()) continue;
    UnitLegal ul;
    ul.unit = u.id;
    ul.in_command = ctx.in_command(u);
    auto paths = detail::allowed_advances(ctx, side, u);
    ul.advances.reserve(paths.size());
    for (auto& steps : paths) {
      const Square to = steps.back().to;
      const int ahead_id = ctx.board.at(ahead(to, steps.back().facing));
      AdvanceOption opt;
      opt.charge_target = ahead_id != 0 && s.unit(ahead_id)->side != side ? ahead_id : 0;
      opt.disorders = detail::is_rough(s.terrain_at(to)) && !detail::is_agile_foot(ctx.rs, u);
      opt.steps = std::move(steps);
      ul.advances.push_back(std::move(opt));
    }
    for (int f = 0; f < kFacings; ++f) {
      if (detail::allowed(ctx, side, cmd::Rotate{u.id, f})) ul.rotations.push_back(f);
    }
    ul.change_formation = detail::allowed(ctx, side, cmd::ChangeFormation{u.id});
    // A unit whose type does not shoot is refused every target (check(Shoot) tests its type
    // before any target), so its targets are not weighed one by one.
    for (const Unit& t : s.units) {
      if (ctx.rs.stats(u.type).shoot != 0 && t.side != side && t.on_board() &&
          detail::allowed(ctx, side, cmd::Shoot{u.id, t.id})) {
        ul.shoot_targets.push_back(t.id);
      }
    }
    out.units.push_back(std::move(ul));
  }
  for (const Leader& l : s.leaders) {
    if (l.side != side || !l.active()) continue;
    LeaderLegal ll;
    ll.leader = l.id;
    for (const Unit& u : s.units) {
      if (u.side == side && u.on_board() &&
          detail::allowed(ctx, side, cmd::MoveLeader{l.id, u.id})) {
        ll.move_to.push_back(u.id);
      }
    }
    ll.abandon = detail::allowed(ctx, side, cmd::AbandonOrders{l.id});
    out.leaders.push_back(std::move(ll));
  }
  out.end_phase = detail::allowed(ctx, side, cmd::EndPhase{});
}

void deployment(detail::Ctx& ctx, Side side, Legal& out) {
  const State& s = ctx.s;
  for (const Unit& u : s.units) {
    if (u.side != side || u.routed) continue;
    UnitLegal ul;
    ul.unit = u.id;
    // check(Deploy) refuses every square outside the side's zone, so only the zone's squares
    // on the board are weighed, in the same row-major order.
    const Zone& zone = s.zones[static_cast<std::size_t>(index(side))];
    for (int row = std::max(1, zone.min_row); row <= std::min(s.rows, zone.max_row); ++row) {
      for (int col = std::max(1, zone.min_col); col <= std::min(s.cols, zone.max_col); ++col) {
        if (detail::allowed(ctx, side, cmd::Deploy{u.id, {col, row}, 0, Formation::kLine})) {
          ul.placements.push_back({col, row});
        }
      }
    }
    if (!ul.placements.empty()) {
      ul.facings = {0, 1, 2, 3};
      ul.formations.push_back(Formation::kLine);
      if (detail::can_form_column(ctx.rs, u)) ul.formations.push_back(Formation::kColumn);
    }
    out.units.push_back(std::move(ul));
  }
  for (const Leader& l : s.leaders) {
    if (l.side != side || !l.active()) continue;
    LeaderLegal ll;
    ll.leader = l.id;
    for (const Unit& u : s.units) {
      if (u.side == side && detail::allowed(ctx, side, cmd::PlaceLeader{l.id, u.id})) {
        ll.place_on.push_back(u.id);
      }
    }
    out.leaders.push_back(std::move(ll));
  }
  out.end_deployment = detail::allowed(ctx, side, cmd::EndDeployment{});
}

void orders(const detail::Ctx& ctx, Side side, Legal& out) {
  const State& s = ctx.s;
  OrdersLegal& o = out.orders;
  o.submit = !s.orders_submitted[static_cast<std::size_t>(index(side))];
  o.max_squares = ctx.rs.max_path_squares;
  o.cols = s.cols;
  o.rows = s.rows;
  for (const Leader& l : s.leaders) {
    if (l.side == side && !l.general && l.active()) {
      o.starts.push_back({l.id, {s.unit(l.unit)->pos}});
    }
  }
}

template <typename T>
bool contains(const std::vector<T>& v, const T& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

const UnitLegal* unit_entry(const Legal& l, int id) {
  for (const UnitLegal& u : l.units) {
    if (u.unit == id) return &u;
  }
  return nullptr;
}

const LeaderLegal* leader_entry(const Legal& l, int id) {
  for (const LeaderLegal& x : l.leaders) {
    if (x.leader == id) return &x;
  }
  return nullptr;
}

bool well_formed(const OrdersLegal& o, const cmd::SubmitOrders& c) {
  if (!o.submit || c.paths.size() != o.starts.size()) return false;
  for (const OrdersPath& start : o.starts) {
    const auto n = std::count_if(c.paths.begin(), c.paths.end(),
                                 [&](const OrdersPath& p) { return p.leader == start.leader; });
    if (n != 1) return false;
  }
  for (const OrdersPath& p : c.paths) {
    const auto start = std::find_if(o.starts.begin(), o.starts.end(),
                                    [&](const OrdersPath& x) { return x.leader == p.leader; });
    if (p.squares.empty() || static_cast<int>(p.squares.size()) > o.max_squares ||
        p.squares.front() != start->squares.front()) {
      return false;
    }
    for (std::size_t k = 0; k < p.squares.size(); ++k) {
      const Square q = p.squares[k];
      if (q.col < 1 || q.col > o.cols || q.row < 1 || q.row > o.rows) return false;
      if (k > 0 && !king_adjacent(p.squares[k - 1], q)) return false;
    }
  }
  return true;
}

struct Membership {
  const Legal& l;
  bool operator()(const cmd::Deploy& c) const {
    const UnitLegal* u = unit_entry(l, c.unit);
    return u && contains(u->placements, c.at) && contains(u->facings, c.facing) &&
           contains(u->formations, c.formation);
  }
  bool operator()(const cmd::PlaceLeader& c) const {
    const LeaderLegal* x = leader_entry(l, c.leader);
    return x && contains(x->place_on, c.unit);
  }
  bool operator()(const cmd::EndDeployment&) const { return l.end_deployment; }
  bool operator()(const cmd::SubmitOrders& c) const { return well_formed(l.orders, c); }
  bool operator()(const cmd::Advance& c) const {
    const UnitLegal* u = unit_entry(l, c.unit);
    return u && std::any_of(u->advances.begin(), u->advances.end(),
                            [&](const AdvanceOption& o) { return o.steps == c.steps; });
  }
  bool operator()(const cmd::Rotate& c) const {
    const UnitLegal* u = unit_entry(l, c.unit);
    return u && contains(u->rotations, c.facing);
  }
  bool operator()(const cmd::ChangeFormation& c) const {
    const UnitLegal* u = unit_entry(l, c.unit);
    return u && u->change_formation;
  }
  bool operator()(const cmd::Shoot& c) const {
    const UnitLegal* u = unit_entry(l, c.unit);
    return u && contains(u->shoot_targets, c.target);
  }
  bool operator()(const cmd::MoveLeader& c) const {
    const LeaderLegal* x = leader_entry(l, c.leader);
    return x && contains(x->move_to, c.unit);
  }
  bool operator()(const cmd::AbandonOrders& c) const {
    const LeaderLegal* x = leader_entry(l, c.leader);
    return x && x->abandon;
  }
  bool operator()(const cmd::EndPhase&) const { return l.end_phase; }
};

}  // namespace

bool listed(const Legal& legal, const Command& c) {
  return std::visit(Membership{legal}, c);
}

Legal Game::legal(const State& s, Side side) {
  Legal out;
  out.side = side;
  out.phase = std::string(phase_name(s.phase));
  if (!acting(s).must_act(side)) return out;
  detail::Ctx ctx(s);
  switch (s.phase) {
    case Phase::kDeployment:
      deployment(ctx, side, out);
      break;
    case Phase::kOrders:
      orders(ctx, side, out);
      break;
    case Phase::kMove:
      move_phase(ctx, side, out);
      break;
    case Phase::kMelee:
    case Phase::kOver:
      break;
  }
  return out;
}

}  // namespace castra::rules::optio
