// Game::describe: every event in words for logs and the client's event list, worked out on
// the state just before it: an attack is told with what each attacking type added to T (the
// functions decide resolves attacks with), never by changing the events stored in logs.
#include <string>

#include "common/rules/stand/combat.hpp"
#include "common/rules/stand/game.hpp"

namespace castra::rules::stand {
namespace {

std::string side_name(Side s) {
  return std::string("side ") + side_letter(s);
}

std::string tenths(Tenths t) {
  return std::to_string(t / 10) + "." + std::to_string(t % 10);
}

std::string facing_name(int f) {
  return valid_direction(f) ? kDirectionNames[static_cast<std::size_t>(f)] : "?";
}

std::string path_words(const std::vector<Hex>& path) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (i > 0) out += " ";
    out += to_string(path[i]);
  }
  return out;
}

std::string outcome_words(const Outcome& o) {
  switch (o.kind) {
    case Outcome::Kind::kWinA:
      return "side A wins: " + o.reason;
    case Outcome::Kind::kWinB:
      return "side B wins: " + o.reason;
    case Outcome::Kind::kDraw:
      return "a draw: " + o.reason;
  }
  return o.reason;
}

struct Describer {
  const State& s;

  std::string operator()(const ev::RollOff& e) const {
    return side_name(e.side) + " rolls " + std::to_string(e.face) + " on d6 for the roll-off";
  }
  std::string operator()(const ev::RollOffWon& e) const {
    return side_name(e.winner) + " wins the roll-off and moves first; " +
           side_name(other(e.winner)) + " deploys first";
  }
  std::string operator()(const ev::DeploymentBegan& e) const {
    // Empty rows: the scenario lists the zone's hexes (the state holds them).
    if (e.rows.first > e.rows.last) return side_name(e.side) + " deploys in its zone's hexes";
    return side_name(e.side) + " deploys in rows " + std::to_string(e.rows.first) + " to " +
           std::to_string(e.rows.last);
  }
  std::string operator()(const ev::Deployed& e) const {
    return side_name(e.side) + " deploys " + to_string(e.figures) + " in " + to_string(e.hex) +
           ", facing " + facing_name(e.facing);
  }
  std::string operator()(const ev::DeploymentEnded& e) const {
    std::string out = side_name(e.side) + " ends its deployment";
    if (!e.left_out.empty()) out += "; " + to_string(e.left_out) + " found no room and stay out";
    return out;
  }
  std::string operator()(const ev::BattleBegan& e) const {
    return "the battle begins: side A has strength " + std::to_string(e.start_strength[0]) +
           ", side B " + std::to_string(e.start_strength[1]);
  }
  std::string operator()(const ev::PhaseBegan& e) const {
    return "game turn " + std::to_string(e.game_turn) + ": " + side_name(e.side) + "'s " +
           std::string(name(e.phase)) + " phase";
  }
  std::string operator()(const ev::PhaseEnded& e) const {
    return side_name(e.side) + " ends its " + std::string(name(e.phase)) + " phase";
  }
  std::string operator()(const ev::Moved& e) const {
    if (e.path.empty()) return side_name(e.side) + " moves nowhere";
    return side_name(e.side) + " moves " + to_string(e.figures) + " from " + to_string(e.from) +
           " by " + path_words(e.path) + "; " + to_string(e.path.back()) + " faces " +
           facing_name(e.facing) + ", " + std::string(name(e.posture));
  }
  std::string operator()(const ev::Faced& e) const {
    return side_name(e.side) + " turns " + to_string(e.hex) + " to face " + facing_name(e.facing);
  }
  std::string operator()(const ev::PostureSet& e) const {
    return side_name(e.side) + " sets " + to_string(e.hex) + " " + std::string(name(e.posture));
  }
  std::string operator()(const ev::Attacked& e) const {
    std::string against = std::string(name(e.posture));
    if (e.cover) against += " in cover";
    if (e.rear) against += ", from the rear";
    std::string defenders;
    if (s.on_map(e.target) && s.at(e.target).occupied()) {
      defenders =
          " " + side_name(s.at(e.target).side) + "'s " + to_string(s.at(e.target).figures) + " in";
    }
    std::string out = side_name(e.side) + "'s " + to_string(e.attackers) + " in " +
                      to_string(e.from) + " attack" + defenders + " " + to_string(e.target) + " (" +
                      against + "): ";
    const auto terms = attack_terms(rules_of(s), e.attackers, e.posture, e.cover, e.rear);
    for (std::size_t i = 0; i < terms.size(); ++i) {
      const AttackTerm& t = terms[i];
      out += (i ? " + " : "") + std::to_string(t.figures) + " " + std::string(name(t.troop)) +
             " x " + tenths(t.chance);
      if (t.rear_bonus != 0) out += " (+" + tenths(t.rear_bonus) + " rear)";
    }
    out += " = T " + tenths(e.total) + ": " + std::to_string(e.sure) +
           (e.sure == 1 ? " sure casualty" : " sure casualties");
    return out;
  }
  std::string operator()(const ev::FractionRolled& e) const {
    return "d10 rolled " + std::to_string(e.face) + " for fraction " + tenths(e.fraction) +
           (e.extra ? ": extra casualty" : ": no extra casualty");
  }
  std::string operator()(const ev::Casualties& e) const {
    if (e.lost.empty()) return "hex " + to_string(e.hex) + " loses no figures";
    return "hex " + to_string(e.hex) + " loses " + to_string(e.lost) + " (" + side_name(e.side) +
           " strength lost " + std::to_string(e.strength) + ")";
  }
  std::string operator()(const ev::GameEnded& e) const { return outcome_words(e.outcome); }
};

}  // namespace

std::string_view name(Phase p) {
  switch (p) {
    case Phase::kRollOff:
      return "roll-off";
    case Phase::kDeploy:
      return "deploy";
    case Phase::kMove:
      return "move";
    case Phase::kFight:
      return "fight";
    case Phase::kOver:
      return "over";
  }
  return "?";
}

std::string Game::describe(const State& s, const Event& e) {
  return std::visit(Describer{s}, e);
}

}  // namespace castra::rules::stand
