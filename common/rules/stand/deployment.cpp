#include "common/rules/stand/deployment.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "common/rules/stand/checks.hpp"

namespace castra::rules::stand {
namespace {

constexpr const char* kRule = "stand.7.deployment";

std::string side_name(Side s) {
  return std::string("side ") + side_letter(s);
}

RuleError bad_deployment(const std::string& message) {
  return refuse(kRule, "scenario: " + message);
}

// Row by row, as the map is written and the legal list offers deployment hexes.
bool reading_order(Hex a, Hex b) {
  return a.row != b.row ? a.row < b.row : a.col < b.col;
}

}  // namespace

std::optional<RuleError> set_zones(State& s, const Scenario& sc) {
  if (sc.zones[0].empty() != sc.zones[1].empty()) {
    return bad_deployment("deployment zones are given for one side only; give both or neither");
  }
  std::set<Hex> taken;
  for (Side side : {Side::kA, Side::kB}) {
    std::vector<Hex> zone = sc.zones[static_cast<std::size_t>(index(side))];
    std::set<Hex> own;
    for (Hex h : zone) {
      const std::string where = side_name(side) + "'s zone hex " + to_string(h);
      if (!s.on_map(h)) return bad_deployment(where + " is not on the map");
      if (!own.insert(h).second) return bad_deployment(where + " is listed twice");
      if (taken.count(h) != 0) {
        return bad_deployment(where + " is in both zones; the two zones never share a hex");
      }
    }
    taken.insert(own.begin(), own.end());
    std::sort(zone.begin(), zone.end(), reading_order);
    s.zones[static_cast<std::size_t>(index(side))] = std::move(zone);
  }
  return std::nullopt;
}

std::optional<RuleError> place_fixed(State& s, const Ruleset& rs, const Scenario& sc) {
  std::array<Figures, 2> placed{};
  std::set<Hex> used;
  for (std::size_t i = 0; i < sc.placements.size(); ++i) {
    const Placement& p = sc.placements[i];
    const std::string who =
        side_name(p.side) + "'s placement " + std::to_string(i + 1) + " at " + to_string(p.hex);
    if (!s.on_map(p.hex)) return bad_deployment(who + " is not on the map");
    if (!used.insert(p.hex).second) {
      return bad_deployment(who +
                            ": the hex is placed twice; one body of troops a hex, with all "
                            "its figures");
    }
    for (Troop t : kAllTroops) {
      if (p.figures[t] < 0 || p.figures[t] > kMaxFiguresPerType) {
        return bad_deployment(who + " has " + std::to_string(p.figures[t]) + " " +
                              std::string(name(t)) + "; each type must be 0 to " +
                              std::to_string(kMaxFiguresPerType));
      }
    }
    if (p.figures.empty()) return bad_deployment(who + " places no figures");
    if (auto e = facing_problem(p.facing))
      return refuse(e->rule, "scenario: " + who + ": " + e->message);
    if (p.posture != Posture::kStanding && p.posture != Posture::kFallingBack) {
      return bad_deployment(who + " has no posture (Standing or Falling back)");
    }
    // Sharing within the placement, then the hex as a move's end hex: the same rules and
    // the same words a move gets.
    if (!rs.shareable(mask_of(p.figures))) {
      return refuse("stand.1.share", "scenario: " + who + ": " + mask_name(mask_of(p.figures)) +
                                         " may not share a hex (foot and mounted never share one)");
    }
    if (auto e = end_problem(s, rs, p.side, p.figures, p.hex)) {
      return refuse(e->rule, "scenario: " + who + ": " + e->message);
    }
    Tile& tile = s.at(p.hex);
    tile.side = p.side;
    tile.figures = p.figures;
    tile.facing = p.facing;
    tile.posture = p.posture;
    Figures& sum = placed[static_cast<std::size_t>(index(p.side))];
    for (Troop t : kAllTroops)
      sum[t] += p.figures[t];
  }
  for (Side side : {Side::kA, Side::kB}) {
    const auto k = static_cast<std::size_t>(index(side));
    const Figures& army = sc.armies[k].figures;
    if (placed[k].empty()) {
      return bad_deployment("the fixed deployment places none of " + side_name(side) +
                            "'s army; it places every body of troops of both armies");
    }
    for (Troop t : kAllTroops) {
      if (placed[k][t] > kMaxFiguresPerType) {
        return bad_deployment(side_name(side) + "'s placements hold " +
                              std::to_string(placed[k][t]) + " " + std::string(name(t)) +
                              "; an army has at most " + std::to_string(kMaxFiguresPerType) +
                              " of a type");
      }
    }
    if (!army.empty() && army != placed[k]) {
      return bad_deployment(side_name(side) + "'s army is " + to_string(army) +
                            " but its placements hold " + to_string(placed[k]) +
                            "; a fixed deployment places the whole army");
    }
  }
  s.first = sc.first_side;
  s.to_deploy = {};
  return std::nullopt;
}

}  // namespace castra::rules::stand
