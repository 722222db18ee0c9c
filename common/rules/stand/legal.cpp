#include "common/rules/stand/legal.hpp"

#include <algorithm>
#include <optional>

#include "common/rules/stand/checks.hpp"
#include "common/rules/stand/game.hpp"

namespace castra::rules::stand {
namespace {

constexpr TroopMask kAllMasks = 0x0f;

Figures one_each(TroopMask types) {
  Figures f;
  for (Troop t : kAllTroops)
    f[t] = has(types, t) ? 1 : 0;
  return f;
}

// The sets of types that may go together, drawn from `available`: every non-empty set of
// types with a figure each that may share a hex.
std::vector<TroopMask> groups_of(const Ruleset& rs, const Figures& available) {
  std::vector<TroopMask> out;
  for (TroopMask m = 1; m <= kAllMasks; ++m) {
    bool ok = rs.shareable(m);
    for (Troop t : kAllTroops)
      ok = ok && (!has(m, t) || available[t] > 0);
    if (ok) out.push_back(m);
  }
  return out;
}

std::optional<Destination> destination(const State& s, const Ruleset& rs, Side side, Hex h,
                                       TroopMask types, const Figures& available) {
  const Figures one = one_each(types);
  if (end_block(s, rs, side, one, h) != Block::kNone) return std::nullopt;
  Destination d;
  d.hex = h;
  d.room = room(s, rs, h);
  const int base = rs.space_of(one);
  for (Troop t : kAllTroops) {
    if (!has(types, t)) continue;
    d.most[t] = std::min(available[t], 1 + (d.room - base) / rs.space_of(t));
  }
  return d;
}

void add_deployment(const State& s, const Ruleset& rs, Side side, Legal& legal) {
  const Figures& pool = s.to_deploy[static_cast<std::size_t>(index(side))];
  const std::vector<Hex> zone = deploying_hexes(s, side);
  for (TroopMask m : groups_of(rs, pool)) {
    Group g;
    g.types = m;
    g.available = pool;
    for (Troop t : kAllTroops) {
      if (!has(m, t)) g.available[t] = 0;
    }
    g.destinations.reserve(zone.size());
    for (Hex h : zone) {
      if (auto d = destination(s, rs, side, h, m, g.available)) {
        g.destinations.push_back(std::move(*d));
      }
    }
    if (!g.destinations.empty()) legal.deploy.push_back(std::move(g));
  }
  legal.end_phase = deployable(s, rs, side).empty();
}

Passage passage(const State& s, const Ruleset& rs, Side side, TroopMask m) {
  Passage p;
  p.types = m;
  // Column by column, so the list comes out in Hex order.
  for (int col = 0; col < s.width; ++col) {
    for (int row = 0; row < s.height; ++row) {
      if (entry_block(s, rs, side, m, {col, row}) == Block::kNone) p.hexes.push_back({col, row});
    }
  }
  return p;
}

void add_moves(const State& s, const Ruleset& rs, Side side, Legal& legal) {
  TroopMask used[kAllMasks + 1] = {};
  for (std::size_t i = 0; i < s.tiles.size(); ++i) {
    const Tile& tile = s.tiles[i];
    if (!tile.held_by(side) || tile.unmoved.empty()) continue;
    const Hex from = s.hex_of(i);
    for (TroopMask m : groups_of(rs, tile.unmoved)) {
      Group g;
      g.from = from;
      g.types = m;
      for (Troop t : kAllTroops)
        g.available[t] = has(m, t) ? tile.unmoved[t] : 0;
      g.reach = rs.reach_of(m);
      const PathTree tree = shortest_paths(s, rs, side, from, m, g.reach);
      g.destinations.reserve(tree.reached.size() - 1);
      for (std::size_t j = 1; j < tree.reached.size(); ++j) {
        const Hex to = tree.reached[j];
        if (auto d = destination(s, rs, side, to, m, g.available)) {
          d->path = path_to(s, tree, to);
          g.destinations.push_back(std::move(*d));
        }
      }
      if (g.destinations.empty()) continue;
      used[m] = 1;
      legal.moves.push_back(std::move(g));
    }
  }
  for (TroopMask m = 1; m <= kAllMasks; ++m) {
    if (used[m]) legal.passages.push_back(passage(s, rs, side, m));
  }
  legal.end_phase = true;
}

void add_attacks(const State& s, Side side, Legal& legal) {
  for (std::size_t i = 0; i < s.tiles.size(); ++i) {
    const Tile& tile = s.tiles[i];
    if (!tile.held_by(side) || tile.attacked) continue;
    AttackChoice a;
    a.from = s.hex_of(i);
    for (int d = 0; d < kDirections; ++d) {
      const Hex target = neighbour(a.from, d);
      if (s.on_map(target) && s.at(target).held_by(other(side))) a.targets.push_back(target);
    }
    if (!a.targets.empty()) legal.attacks.push_back(std::move(a));
  }
  legal.end_phase = true;
}

void add_facings(const State& s, Side side, bool postures, Legal& legal) {
  for (std::size_t i = 0; i < s.tiles.size(); ++i) {
    const Tile& tile = s.tiles[i];
    if (!tile.held_by(side)) continue;
    legal.facings.push_back({s.hex_of(i), tile.facing});
    if (postures) legal.postures.push_back({s.hex_of(i), tile.posture});
  }
}

// A deployment group has no `from`: pass nothing to match on types alone.
const Group* find_group(const std::vector<Group>& groups, std::optional<Hex> from,
                        TroopMask types) {
  for (const Group& g : groups) {
    if (g.types == types && (!from || g.from == *from)) return &g;
  }
  return nullptr;
}

const Destination* find_destination(const Group& g, Hex h) {
  for (const Destination& d : g.destinations) {
    if (d.hex == h) return &d;
  }
  return nullptr;
}

int space_of(const Legal& legal, const Figures& f) {
  int sum = 0;
  for (Troop t : kAllTroops)
    sum += f[t] * legal.space[static_cast<std::size_t>(index(t))];
  return sum;
}

// A mix of figures of g fits destination d.
bool fits(const Legal& legal, const Group& g, const Destination& d, const Figures& f) {
  for (Troop t : kAllTroops) {
    if (f[t] < 0 || f[t] > g.available[t]) return false;
  }
  return space_of(legal, f) <= d.room;
}

bool allows_deploy(const Legal& legal, const cmd::Deploy& c) {
  if (!valid_direction(c.facing) || c.figures.empty()) return false;
  const Group* g = find_group(legal.deploy, std::nullopt, mask_of(c.figures));
  if (g == nullptr) return false;
  const Destination* d = find_destination(*g, c.hex);
  return d != nullptr && fits(legal, *g, *d, c.figures);
}

bool allows_move(const Legal& legal, const cmd::Move& c) {
  if (c.figures.empty() || c.path.empty()) return false;
  const TroopMask types = mask_of(c.figures);
  const Group* g = find_group(legal.moves, c.from, types);
  if (g == nullptr || static_cast<int>(c.path.size()) > g->reach) return false;
  const Destination* d = find_destination(*g, c.path.back());
  if (d == nullptr || !fits(legal, *g, *d, c.figures)) return false;
  const auto p = std::find_if(legal.passages.begin(), legal.passages.end(),
                              [&](const Passage& x) { return x.types == types; });
  if (p == legal.passages.end()) return false;
  Hex at = c.from;
  for (Hex next : c.path) {
    if (!adjacent(at, next) || !std::binary_search(p->hexes.begin(), p->hexes.end(), next)) {
      return false;
    }
    at = next;
  }
  return true;
}

// The most figures of g that fit d: one of each type, then as many more as room allows,
// in troop order.
Figures fill(const Legal& legal, const Group& g, const Destination& d) {
  Figures f = one_each(g.types);
  int left = d.room - space_of(legal, f);
  for (Troop t : kAllTroops) {
    if (!has(g.types, t)) continue;
    const int space = legal.space[static_cast<std::size_t>(index(t))];
    const int more = std::min(g.available[t] - 1, left / space);
    f[t] += more;
    left -= more * space;
  }
  return f;
}

}  // namespace

Legal legal_for(const State& s, Side side) {
  Legal legal;
  legal.side = side;
  legal.phase = s.phase;
  const Ruleset& rs = rules_of(s);
  legal.space = rs.space;
  if (side != s.active) return legal;
  switch (s.phase) {
    case Phase::kDeploy:
      add_deployment(s, rs, side, legal);
      add_facings(s, side, false, legal);
      break;
    case Phase::kMove:
      add_moves(s, rs, side, legal);
      add_facings(s, side, true, legal);
      break;
    case Phase::kFight:
      add_attacks(s, side, legal);
      break;
    case Phase::kRollOff:
    case Phase::kOver:
      break;
  }
  return legal;
}

bool allows(const Legal& legal, const Command& c) {
  return std::visit(
      [&](const auto& command) -> bool {
        using T = std::decay_t<decltype(command)>;
        if constexpr (std::is_same_v<T, cmd::Deploy>) {
          return allows_deploy(legal, command);
        } else if constexpr (std::is_same_v<T, cmd::Move>) {
          return allows_move(legal, command);
        } else if constexpr (std::is_same_v<T, cmd::Face>) {
          return valid_direction(command.facing) &&
                 std::any_of(legal.facings.begin(), legal.facings.end(), [&](const auto& f) {
                   return f.hex == command.hex && f.facing != command.facing;
                 });
        } else if constexpr (std::is_same_v<T, cmd::SetPosture>) {
          return (command.posture == Posture::kStanding ||
                  command.posture == Posture::kFallingBack) &&
                 std::any_of(legal.postures.begin(), legal.postures.end(), [&](const auto& p) {
                   return p.hex == command.hex && p.posture != command.posture;
                 });
        } else if constexpr (std::is_same_v<T, cmd::Attack>) {
          return std::any_of(legal.attacks.begin(), legal.attacks.end(), [&](const auto& a) {
            return a.from == command.from &&
                   std::find(a.targets.begin(), a.targets.end(), command.target) != a.targets.end();
          });
        } else {
          return legal.end_phase;
        }
      },
      c);
}

std::vector<Command> commands(const Legal& legal) {
  std::vector<Command> out;
  if (legal.end_phase) out.push_back(cmd::EndPhase{});
  for (const AttackChoice& a : legal.attacks) {
    for (Hex t : a.targets)
      out.push_back(cmd::Attack{a.from, t});
  }
  for (const FacingChoice& f : legal.facings) {
    for (int d = 0; d < kDirections; ++d) {
      if (d != f.facing) out.push_back(cmd::Face{f.hex, d});
    }
  }
  for (const PostureChoice& p : legal.postures) {
    out.push_back(cmd::SetPosture{
        p.hex, p.posture == Posture::kStanding ? Posture::kFallingBack : Posture::kStanding});
  }
  for (const Group& g : legal.deploy) {
    for (const Destination& d : g.destinations) {
      const int facing = (d.hex.col + d.hex.row) % kDirections;
      out.push_back(cmd::Deploy{d.hex, fill(legal, g, d), facing});
      if (fill(legal, g, d) != one_each(g.types)) {
        out.push_back(cmd::Deploy{d.hex, one_each(g.types), facing});
      }
    }
  }
  for (const Group& g : legal.moves) {
    for (const Destination& d : g.destinations) {
      out.push_back(cmd::Move{g.from, d.path, fill(legal, g, d)});
      if (fill(legal, g, d) != one_each(g.types)) {
        out.push_back(cmd::Move{g.from, d.path, one_each(g.types)});
      }
    }
  }
  return out;
}

Legal Game::legal(const State& s, Side side) {
  return legal_for(s, side);
}

}  // namespace castra::rules::stand
