// Game::decide: a side's command checked against the state, answered with the events it
// produces (with the automatic steps that follow) or the rule it breaks.
#include <algorithm>
#include <cstdint>
#include <string>

#include "common/rules/stand/checks.hpp"
#include "common/rules/stand/combat.hpp"
#include "common/rules/stand/game.hpp"

namespace castra::rules::stand {
namespace {

using Events = std::vector<Event>;

std::string side_name(Side s) {
  return std::string("side ") + side_letter(s);
}

std::string phase_words(Phase p) {
  switch (p) {
    case Phase::kDeploy:
      return "deployment";
    case Phase::kMove:
      return "move phase";
    case Phase::kFight:
      return "fight phase";
    case Phase::kRollOff:
      return "roll-off";
    case Phase::kOver:
      return "end of the game";
  }
  return "?";
}

RuleError wrong_phase(const State& s, const std::string& what, const std::string& when) {
  return refuse("stand.2.phase",
                what + " only in " + when + "; this is the " + phase_words(s.phase));
}

std::optional<RuleError> own_hex(const State& s, Side side, Hex h, const std::string& rule) {
  if (auto e = off_map(s, h)) return e;
  if (!s.at(h).held_by(side)) {
    return refuse(rule, "hex " + to_string(h) + " holds none of your troops");
  }
  return std::nullopt;
}

Checked<Events> deploy(const State& s, const Ruleset& rs, Side side, const cmd::Deploy& c) {
  if (s.phase != Phase::kDeploy) return wrong_phase(s, "troops are deployed", "deployment");
  if (auto e = off_map(s, c.hex)) return *e;
  if (s.listed_zones()) {
    const std::vector<Hex>& zone = s.zones[static_cast<std::size_t>(index(side))];
    if (std::find(zone.begin(), zone.end(), c.hex) == zone.end()) {
      return refuse("stand.2.zone", side_name(side) + " deploys in the " +
                                        std::to_string(zone.size()) +
                                        " hexes of its zone the scenario gives; hex " +
                                        to_string(c.hex) + " is not one of them");
    }
  } else if (!s.zone.contains(c.hex.row)) {
    return refuse("stand.2.zone", side_name(side) + " deploys in rows " +
                                      std::to_string(s.zone.first) + " to " +
                                      std::to_string(s.zone.last) + "; hex " + to_string(c.hex) +
                                      " is in row " + std::to_string(c.hex.row));
  }
  if (auto e = figures_problem(c.figures, "deploy")) return *e;
  if (auto e = facing_problem(c.facing)) return *e;
  if (!rs.shareable(mask_of(c.figures))) {
    return refuse("stand.1.share", mask_name(mask_of(c.figures)) +
                                       " may not share a hex (foot and mounted never share one)");
  }
  const Figures& pool = s.to_deploy[static_cast<std::size_t>(index(side))];
  for (Troop t : kAllTroops) {
    if (c.figures[t] > pool[t]) {
      return refuse("stand.2.army", side_name(side) + " has " + std::to_string(pool[t]) + " " +
                                        std::string(name(t)) + " left to deploy; " +
                                        std::to_string(c.figures[t]) + " named");
    }
  }
  if (auto e = end_problem(s, rs, side, c.figures, c.hex)) return *e;
  return Events{ev::Deployed{side, c.hex, c.figures, c.facing}};
}

Checked<Events> move(const State& s, const Ruleset& rs, Side side, const cmd::Move& c) {
  if (s.phase != Phase::kMove) return wrong_phase(s, "troops move", "the move phase");
  if (auto e = own_hex(s, side, c.from, "stand.3.own")) return *e;
  if (auto e = figures_problem(c.figures, "move")) return *e;
  const Tile& from = s.at(c.from);
  for (Troop t : kAllTroops) {
    if (c.figures[t] > from.figures[t]) {
      return refuse("stand.3.figures",
                    "hex " + to_string(c.from) + " holds " + std::to_string(from.figures[t]) + " " +
                        std::string(name(t)) + "; " + std::to_string(c.figures[t]) + " named");
    }
    if (c.figures[t] > from.unmoved[t]) {
      return refuse("stand.3.once",
                    "each figure moves once a turn: only " + std::to_string(from.unmoved[t]) +
                        " of the " + std::to_string(from.figures[t]) + " " + std::string(name(t)) +
                        " in " + to_string(c.from) + " may still move; " +
                        std::to_string(c.figures[t]) + " named");
    }
  }
  const TroopMask types = mask_of(c.figures);
  if (c.path.empty()) return refuse("stand.3.path", "a move must enter at least one hex");
  const int reach = rs.reach_of(types);
  if (static_cast<int>(c.path.size()) > reach) {
    return refuse("stand.3.reach", mask_name(types) + " move at most " + std::to_string(reach) +
                                       " hexes; that path enters " + std::to_string(c.path.size()));
  }
  Hex at = c.from;
  for (Hex next : c.path) {
    if (auto e = off_map(s, next)) return *e;
    if (!adjacent(at, next)) {
      return refuse("stand.3.path", "a path goes from hex to neighbouring hex; " + to_string(next) +
                                        " is not next to " + to_string(at));
    }
    if (auto e = entry_problem(s, rs, side, types, next)) return *e;
    at = next;
  }
  const Hex end = c.path.back();
  if (end == c.from) return refuse("stand.3.path", "a move may not end where it began");
  if (auto e = end_problem(s, rs, side, c.figures, end)) return *e;

  const Tile& dest = s.at(end);
  const Hex before = c.path.size() >= 2 ? c.path[c.path.size() - 2] : c.from;
  const int facing = dest.occupied() ? dest.facing : *direction_to(before, end);
  const Posture posture = dest.occupied() ? dest.posture : Posture::kFallingBack;
  return Events{ev::Moved{side, c.from, c.path, c.figures, facing, posture}};
}

Checked<Events> face(const State& s, Side side, const cmd::Face& c) {
  if (s.phase != Phase::kMove && s.phase != Phase::kDeploy) {
    return wrong_phase(s, "facing changes", "deployment or the move phase");
  }
  if (auto e = own_hex(s, side, c.hex, "stand.3.own")) return *e;
  if (auto e = facing_problem(c.facing)) return *e;
  if (s.at(c.hex).facing == c.facing) {
    return refuse("stand.3.facing", "hex " + to_string(c.hex) + " already faces " +
                                        kDirectionNames[static_cast<std::size_t>(c.facing)]);
  }
  return Events{ev::Faced{side, c.hex, c.facing}};
}

Checked<Events> set_posture(const State& s, Side side, const cmd::SetPosture& c) {
  if (s.phase != Phase::kMove) return wrong_phase(s, "posture changes", "the move phase");
  if (auto e = own_hex(s, side, c.hex, "stand.3.own")) return *e;
  if (c.posture != Posture::kStanding && c.posture != Posture::kFallingBack) {
    return refuse("stand.3.posture", "a posture is Standing or Falling back");
  }
  if (s.at(c.hex).posture == c.posture) {
    return refuse("stand.3.posture",
                  "hex " + to_string(c.hex) + " is already " + std::string(name(c.posture)));
  }
  return Events{ev::PostureSet{side, c.hex, c.posture}};
}

std::optional<Event> break_check(const State& s, const Ruleset& rs, Side loser) {
  const auto i = static_cast<std::size_t>(index(loser));
  if (s.lost_strength[i] * rs.break_factor < s.start_strength[i]) return std::nullopt;
  return ev::GameEnded{Outcome::win(other(loser), side_name(loser) + "'s army broke: it lost " +
                                                      std::to_string(s.lost_strength[i]) + " of " +
                                                      std::to_string(s.start_strength[i]) +
                                                      " strength")};
}

Checked<Events> attack(const State& s, const Ruleset& rs, Side side, const cmd::Attack& c,
                       Dice& dice) {
  if (s.phase != Phase::kFight) return wrong_phase(s, "attacks are made", "the fight phase");
  if (auto e = own_hex(s, side, c.from, "stand.4.own")) return *e;
  const Tile& from = s.at(c.from);
  if (from.attacked) {
    return refuse("stand.4.once", "hex " + to_string(c.from) + " has already attacked this phase");
  }
  if (auto e = off_map(s, c.target)) return *e;
  if (!adjacent(c.from, c.target)) {
    return refuse("stand.4.adjacent", "an attack goes to a neighbouring hex; " +
                                          to_string(c.target) + " is not next to " +
                                          to_string(c.from));
  }
  const Tile& target = s.at(c.target);
  if (!target.occupied() || target.side == side) {
    return refuse("stand.4.target", "hex " + to_string(c.target) + " holds no enemy troops");
  }

  const Side enemy = other(side);
  const AttackForecast f = attack_forecast(s, rs, c.from, c.target);
  Events events{ev::Attacked{side, c.from, c.target, from.figures, target.posture, f.cover, f.rear,
                             f.total, f.sure, *direction_to(c.from, c.target)}};
  bool extra = false;
  if (f.roll) {
    const int face = dice.roll(rs.fraction_die);
    extra = fraction_hits(face, f.fraction);
    events.push_back(ev::FractionRolled{f.fraction, face, extra});
  }
  const Figures lost = extra ? f.lost_extra : f.lost;
  events.push_back(ev::Casualties{enemy, c.target, lost, extra ? f.strength_extra : f.strength});

  State after = s;
  for (const Event& e : events)
    Game::apply(after, e);
  if (auto end = break_check(after, rs, enemy)) events.push_back(*end);
  return events;
}

Outcome turn_limit_outcome(const State& s) {
  const auto& lost = s.lost_strength;
  const auto& start = s.start_strength;
  const std::string tally = "turn limit of " + std::to_string(s.turn_limit) +
                            " reached: side A lost " + std::to_string(lost[0]) + " of " +
                            std::to_string(start[0]) + " strength, side B lost " +
                            std::to_string(lost[1]) + " of " + std::to_string(start[1]);
  const std::int64_t share_a = static_cast<std::int64_t>(lost[0]) * start[1];
  const std::int64_t share_b = static_cast<std::int64_t>(lost[1]) * start[0];
  if (share_a < share_b) return Outcome::win(Side::kA, tally);
  if (share_b < share_a) return Outcome::win(Side::kB, tally);
  return Outcome::draw(tally);
}

Checked<Events> end_phase(const State& s, const Ruleset& rs, Side side) {
  Events events;
  switch (s.phase) {
    case Phase::kDeploy: {
      const Figures left = deployable(s, rs, side);
      if (!left.empty()) {
        return refuse("stand.2.deploy_all", "deploy every figure that fits before ending: " +
                                                to_string(left) + " still have room in your zone");
      }
      events.push_back(
          ev::DeploymentEnded{side, s.to_deploy[static_cast<std::size_t>(index(side))]});
      if (side != s.first) {
        events.push_back(ev::DeploymentBegan{s.first, zone_rows(s, rs, s.first, false)});
      } else {
        events.push_back(ev::BattleBegan{strength_on_map(s, rs)});
        events.push_back(ev::PhaseBegan{s.first, Phase::kMove, 1});
      }
      return events;
    }
    case Phase::kMove:
      events.push_back(ev::PhaseEnded{side, Phase::kMove});
      events.push_back(ev::PhaseBegan{side, Phase::kFight, s.game_turn});
      return events;
    case Phase::kFight:
      events.push_back(ev::PhaseEnded{side, Phase::kFight});
      if (side == s.first) {
        events.push_back(ev::PhaseBegan{other(side), Phase::kMove, s.game_turn});
      } else if (s.game_turn >= s.turn_limit) {
        events.push_back(ev::GameEnded{turn_limit_outcome(s)});
      } else {
        events.push_back(ev::PhaseBegan{s.first, Phase::kMove, s.game_turn + 1});
      }
      return events;
    case Phase::kRollOff:
    case Phase::kOver:
      break;
  }
  return refuse("stand.2.phase", "there is no phase to end");
}

}  // namespace

Checked<std::vector<Event>> Game::decide(const State& s, Side side, const Command& c, Dice& dice) {
  if (s.phase == Phase::kOver) return refuse("stand.6.over", "the game is over");
  if (s.phase == Phase::kRollOff) {
    return refuse("stand.2.roll_off", "the game has not begun: the roll-off comes first");
  }
  if (side != s.active) {
    return refuse("stand.2.turn", "it is " + side_name(s.active) + "'s " + phase_words(s.phase));
  }
  const Ruleset& rs = rules_of(s);
  return std::visit(
      [&](const auto& command) -> Checked<Events> {
        using T = std::decay_t<decltype(command)>;
        if constexpr (std::is_same_v<T, cmd::Deploy>) return deploy(s, rs, side, command);
        if constexpr (std::is_same_v<T, cmd::Move>) return move(s, rs, side, command);
        if constexpr (std::is_same_v<T, cmd::Face>) return face(s, side, command);
        if constexpr (std::is_same_v<T, cmd::SetPosture>) return set_posture(s, side, command);
        if constexpr (std::is_same_v<T, cmd::Attack>) return attack(s, rs, side, command, dice);
        if constexpr (std::is_same_v<T, cmd::EndPhase>) return end_phase(s, rs, side);
      },
      c);
}

}  // namespace castra::rules::stand
