// The rule checks Game::decide and legal_for share, so that what the legal list offers and
// what decide accepts cannot drift apart. Engine-internal: only common/rules/stand/ calls
// these. Pure functions over a state; any thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/rules/stand/hex.hpp"
#include "common/rules/stand/ruleset.hpp"
#include "common/rules/stand/state.hpp"
#include "common/rules/types.hpp"

namespace castra::rules::stand {

// "hex (9,9) is not on the map (8 columns, 7 rows)", or nothing.
std::optional<RuleError> off_map(const State& s, Hex h);

// What keeps figures from a hex, cheaply, for the legal list's searches; the *_problem
// functions below turn the same verdict into a refusal in words.
enum class Block : std::uint8_t { kNone, kWater, kTerrain, kEnemy, kShare, kCapacity };

// Entering `h` on the way: water, terrain, an enemy. `h` is on the map.
Block entry_block(const State& s, const Ruleset& rs, Side side, TroopMask types, Hex h);
// Ending in `h` with `figures`: the entry blocks, then sharing and capacity.
Block end_block(const State& s, const Ruleset& rs, Side side, const Figures& figures, Hex h);

// Why figures of `types` of `side` may not enter `h` on the way (terrain or an enemy), or
// nothing. `h` is on the map.
std::optional<RuleError> entry_problem(const State& s, const Ruleset& rs, Side side,
                                       TroopMask types, Hex h);

// Why `figures` of `side` may not end in `h` (terrain, enemy, sharing, capacity), or
// nothing. `h` is on the map and does not hold the figures already.
std::optional<RuleError> end_problem(const State& s, const Ruleset& rs, Side side,
                                     const Figures& figures, Hex h);

// Free space of a hex in space points (never below 0).
int room(const State& s, const Ruleset& rs, Hex h);

// "figure counts may not be negative" / "name at least one figure to <verb>", or nothing.
std::optional<RuleError> figures_problem(const Figures& f, const std::string& verb);

std::optional<RuleError> facing_problem(int facing);

// Shortest paths from `from` for a move of `types` of `side`: every hex on the map it may
// reach within `reach` entries. `dist` is -1 where unreached; `parent` leads back to
// `from`. Ties are broken by direction order, so the result is deterministic.
struct PathTree {
  Hex from;
  std::vector<int> dist;     // by tile index
  std::vector<int> parent;   // tile index of the previous hex, -1 at `from`
  std::vector<Hex> reached;  // `from` first, then by distance
};
PathTree shortest_paths(const State& s, const Ruleset& rs, Side side, Hex from, TroopMask types,
                        int reach);
std::vector<Hex> path_to(const State& s, const PathTree& tree, Hex to);

// The rows a side deploys in when it deploys as the roll-off's loser or winner; empty
// when the scenario lists the zones (s.zones).
RowSpan zone_rows(const State& s, const Ruleset& rs, Side side, bool loser);

// The hexes a side deploys in as the roll-off's loser or winner: its listed zone, or every
// hex of its rows. Row by row.
std::vector<Hex> zone_hexes(const State& s, const Ruleset& rs, Side side, bool loser);

// The hexes the deploying side `side` may deploy in now: its listed zone, or s.zone's rows.
std::vector<Hex> deploying_hexes(const State& s, Side side);

// Types of the army list of `side` that still have a figure and room for one in its zone.
Figures deployable(const State& s, const Ruleset& rs, Side side);

// A state waiting for begin() with troops on the map: its scenario's fixed deployment
// placed them, so begin() starts the battle without a roll-off.
bool deployed_by_scenario(const State& s);

// The strength of each side on the map.
std::array<int, 2> strength_on_map(const State& s, const Ruleset& rs);

}  // namespace castra::rules::stand
