#include "common/rules/stand/checks.hpp"

#include <algorithm>

namespace castra::rules::stand {
namespace {

std::string side_name(Side s) {
  return std::string("side ") + side_letter(s);
}

TroopMask mask_held(const Tile& t) {
  return mask_of(t.figures);
}

}  // namespace

std::optional<RuleError> off_map(const State& s, Hex h) {
  if (s.on_map(h)) return std::nullopt;
  return refuse("stand.7.grid", "hex " + to_string(h) + " is not on the map (" +
                                    std::to_string(s.width) + " columns, " +
                                    std::to_string(s.height) + " rows)");
}

Block entry_block(const State& s, const Ruleset& rs, Side side, TroopMask types, Hex h) {
  const Tile& tile = s.at(h);
  if (tile.terrain == Terrain::kWater && tile.crossing == Crossing::kNone) return Block::kWater;
  for (Troop t : kAllTroops) {
    if (has(types, t) && !rs.may_enter_terrain(t, tile.terrain, tile.crossing)) {
      return Block::kTerrain;
    }
  }
  if (tile.occupied() && tile.side != side) return Block::kEnemy;
  return Block::kNone;
}

Block end_block(const State& s, const Ruleset& rs, Side side, const Figures& figures, Hex h) {
  const TroopMask types = mask_of(figures);
  if (const Block b = entry_block(s, rs, side, types, h); b != Block::kNone) return b;
  const Tile& tile = s.at(h);
  if (tile.occupied() && !rs.shareable(mask_held(tile), types)) return Block::kShare;
  if (rs.space_of(tile.figures) + rs.space_of(figures) > tile.capacity) return Block::kCapacity;
  return Block::kNone;
}

std::optional<RuleError> entry_problem(const State& s, const Ruleset& rs, Side side,
                                       TroopMask types, Hex h) {
  const Tile& tile = s.at(h);
  switch (entry_block(s, rs, side, types, h)) {
    case Block::kNone:
    case Block::kShare:
    case Block::kCapacity:
      return std::nullopt;
    case Block::kWater:
      return refuse(
          "stand.3.terrain",
          "hex " + to_string(h) + " is water; troops cross water only at a ford or bridge");
    case Block::kTerrain:
      for (Troop t : kAllTroops) {
        if (has(types, t) && !rs.may_enter_terrain(t, tile.terrain, tile.crossing)) {
          return refuse("stand.3.terrain", std::string(name(t)) + " may not enter " +
                                               std::string(name(tile.terrain)) + " (hex " +
                                               to_string(h) + ")");
        }
      }
      return std::nullopt;
    case Block::kEnemy:
      return refuse("stand.3.enemy", "hex " + to_string(h) + " holds " + side_name(tile.side) +
                                         "'s troops; troops never enter an enemy hex");
  }
  return std::nullopt;
}

std::optional<RuleError> end_problem(const State& s, const Ruleset& rs, Side side,
                                     const Figures& figures, Hex h) {
  const Tile& tile = s.at(h);
  switch (end_block(s, rs, side, figures, h)) {
    case Block::kNone:
      return std::nullopt;
    case Block::kWater:
    case Block::kTerrain:
    case Block::kEnemy:
      return entry_problem(s, rs, side, mask_of(figures), h);
    case Block::kShare:
      return refuse("stand.1.share", "hex " + to_string(h) + " holds " +
                                         mask_name(mask_held(tile)) + "; " +
                                         mask_name(mask_of(figures)) +
                                         " may not share it (foot and mounted never share a hex)");
    case Block::kCapacity: {
      const int used = rs.space_of(tile.figures);
      return refuse("stand.1.capacity", "hex " + to_string(h) + " holds " + std::to_string(used) +
                                            " of " + std::to_string(tile.capacity) + " space; " +
                                            to_string(figures) + " need " +
                                            std::to_string(rs.space_of(figures)));
    }
  }
  return std::nullopt;
}

int room(const State& s, const Ruleset& rs, Hex h) {
  const Tile& tile = s.at(h);
  return std::max(0, tile.capacity - rs.space_of(tile.figures));
}

std::optional<RuleError> figures_problem(const Figures& f, const std::string& verb) {
  for (Troop t : kAllTroops) {
    if (f[t] < 0) return refuse("stand.3.figures", "figure counts may not be negative");
  }
  if (f.empty()) return refuse("stand.3.figures", "name at least one figure to " + verb);
  return std::nullopt;
}

std::optional<RuleError> facing_problem(int facing) {
  if (valid_direction(facing)) return std::nullopt;
  return refuse("stand.7.facing", "a facing is a direction from 0 to 5 (E, NE, NW, W, SW, SE); " +
                                      std::to_string(facing) + " is none");
}

PathTree shortest_paths(const State& s, const Ruleset& rs, Side side, Hex from, TroopMask types,
                        int reach) {
  PathTree tree{
      from, std::vector<int>(s.tiles.size(), -1), std::vector<int>(s.tiles.size(), -1), {from}};
  auto index_of = [&](Hex h) { return h.row * s.width + h.col; };
  tree.dist[static_cast<std::size_t>(index_of(from))] = 0;
  std::vector<Hex>& queue = tree.reached;
  for (std::size_t next_in_line = 0; next_in_line < queue.size(); ++next_in_line) {
    const Hex at = queue[next_in_line];
    const int d = tree.dist[static_cast<std::size_t>(index_of(at))];
    if (d >= reach) continue;
    for (int dir = 0; dir < kDirections; ++dir) {
      const Hex next = neighbour(at, dir);
      if (!s.on_map(next)) continue;
      const auto i = static_cast<std::size_t>(index_of(next));
      if (tree.dist[i] >= 0) continue;
      if (entry_block(s, rs, side, types, next) != Block::kNone) continue;
      tree.dist[i] = d + 1;
      tree.parent[i] = index_of(at);
      queue.push_back(next);
    }
  }
  return tree;
}

std::vector<Hex> path_to(const State& s, const PathTree& tree, Hex to) {
  std::vector<Hex> path;
  int i = to.row * s.width + to.col;
  path.reserve(static_cast<std::size_t>(std::max(1, tree.dist[static_cast<std::size_t>(i)])));
  const int start = tree.from.row * s.width + tree.from.col;
  while (i != start && i >= 0) {
    path.push_back(s.hex_of(static_cast<std::size_t>(i)));
    i = tree.parent[static_cast<std::size_t>(i)];
  }
  std::reverse(path.begin(), path.end());
  return path;
}

RowSpan zone_rows(const State& s, const Ruleset& rs, Side side, bool loser) {
  if (s.listed_zones()) return RowSpan{};
  return first_rows(side, loser ? rs.loser_rows : rs.winner_rows, s.height);
}

namespace {

std::vector<Hex> hexes_of_rows(const State& s, RowSpan rows) {
  std::vector<Hex> out;
  for (int row = rows.first; row <= rows.last; ++row) {
    for (int col = 0; col < s.width; ++col)
      out.push_back({col, row});
  }
  return out;
}

}  // namespace

std::vector<Hex> zone_hexes(const State& s, const Ruleset& rs, Side side, bool loser) {
  if (s.listed_zones()) return s.zones[static_cast<std::size_t>(index(side))];
  return hexes_of_rows(s, zone_rows(s, rs, side, loser));
}

std::vector<Hex> deploying_hexes(const State& s, Side side) {
  if (s.listed_zones()) return s.zones[static_cast<std::size_t>(index(side))];
  return hexes_of_rows(s, s.zone);
}

Figures deployable(const State& s, const Ruleset& rs, Side side) {
  Figures out;
  const Figures& pool = s.to_deploy[static_cast<std::size_t>(index(side))];
  const std::vector<Hex> zone = deploying_hexes(s, side);
  for (Troop t : kAllTroops) {
    if (pool[t] <= 0) continue;
    Figures one;
    one[t] = 1;
    for (Hex h : zone) {
      if (end_block(s, rs, side, one, h) == Block::kNone) {
        out[t] = pool[t];
        break;
      }
    }
  }
  return out;
}

bool deployed_by_scenario(const State& s) {
  return s.phase == Phase::kRollOff &&
         std::any_of(s.tiles.begin(), s.tiles.end(), [](const Tile& t) { return t.occupied(); });
}

std::array<int, 2> strength_on_map(const State& s, const Ruleset& rs) {
  std::array<int, 2> out{};
  for (const Tile& t : s.tiles) {
    if (t.occupied()) out[static_cast<std::size_t>(index(t.side))] += rs.strength_of(t.figures);
  }
  return out;
}

}  // namespace castra::rules::stand
