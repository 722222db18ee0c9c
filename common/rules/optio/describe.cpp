// Game::describe: an event in words, worked out on the state just before it so that units
// are named by side, type and number ("side A's cavalry 16") and a fight or a shot is told
// with the modifiers that made its score (the functions decide() scores with), never by
// changing the events stored in logs.
#include <algorithm>
#include <array>

#include "common/rules/optio/game.hpp"
#include "common/rules/optio/internal.hpp"

namespace castra::rules::optio {
namespace {

std::string side_text(Side s) {
  return std::string("side ") + side_letter(s);
}

std::string facing_text(int f) {
  constexpr std::array<const char*, 4> kCompass{"north", "east", "south", "west"};
  return f >= 0 && f < 4 ? kCompass[static_cast<std::size_t>(f)] : "?";
}

std::string signed_text(int n) {
  return (n > 0 ? "+" : "") + std::to_string(n);
}

std::string plural(int n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "the base 4, leader with the unit +1, fought from its flank -2: -1" (the sum before the
// table clamps it, and what the table then uses when that differs).
std::string score_text(const std::string& value, const Score& sc) {
  std::string out = value + " " + std::to_string(sc.base);
  for (const ShiftTerm& t : sc.terms)
    out += ", " + t.name + " " + signed_text(t.shift);
  if (sc.terms.empty()) return out + ", no modifier: " + plural(sc.hits, "hit", "hits");
  out += ": sum " + signed_text(sc.raw_shift);
  if (sc.raw_shift != sc.shift) out += ", clamped to " + signed_text(sc.shift);
  return out + ": " + plural(sc.hits, "hit", "hits");
}

struct Describer {
  const State& s;

  std::string unit(int id) const {
    const Unit* u = s.unit(id);
    if (u == nullptr) return "unit " + std::to_string(id);
    std::string type(unit_type_name(u->type));
    std::replace(type.begin(), type.end(), '_', ' ');
    return side_text(u->side) + "'s " + type + " " + std::to_string(id);
  }
  std::string leader(int id) const {
    const Leader* l = s.leader(id);
    if (l == nullptr) return "leader " + std::to_string(id);
    return side_text(l->side) + "'s " + (l->general ? "general " : "leader ") + std::to_string(id);
  }

  std::string operator()(const ev::UnitDeployed& e) const {
    return unit(e.unit) + " deploys at " + square_text(e.at) + " facing " + facing_text(e.facing) +
           (e.formation == Formation::kColumn ? " in column" : "");
  }
  std::string operator()(const ev::LeaderPlaced& e) const {
    return leader(e.leader) + " takes his place with " + unit(e.unit);
  }
  std::string operator()(const ev::DeploymentEnded& e) const {
    return side_text(e.side) + " has deployed";
  }
  std::string operator()(const ev::OrdersSubmitted& e) const {
    return side_text(e.side) + " has handed in its orders card";
  }
  std::string operator()(const ev::OrdersCard& e) const {
    std::string out = side_text(e.side) + "'s orders card:";
    for (const OrdersPath& p : e.paths) {
      out += " " + leader(p.leader) + " ";
      for (std::size_t i = 0; i < p.squares.size(); ++i) {
        out += (i ? "-" : "") + square_text(p.squares[i]);
      }
      out += ";";
    }
    return out;
  }
  std::string operator()(const ev::PhaseStarted& e) const {
    switch (e.phase) {
      case Phase::kDeployment:
        return side_text(e.side) + " deploys";
      case Phase::kOrders:
        return "both sides draw their orders cards";
      case Phase::kMove:
        return "turn " + std::to_string(e.turn) + ": " + side_text(e.side) + "'s move phase";
      case Phase::kMelee:
        return "turn " + std::to_string(e.turn) + ": melee phase";
      case Phase::kOver:
        return "the game is over";
    }
    return "";
  }
  std::string operator()(const ev::Advanced& e) const {
    std::string out = unit(e.unit) + (e.charge_target != 0 ? " charges " : " advances") +
                      (e.charge_target != 0 ? unit(e.charge_target) + ", advancing" : "") +
                      " from " + square_text(e.from) + " to " + square_text(e.steps.back().to) +
                      " facing " + facing_text(e.steps.back().facing);
    if (e.disordered) out += "; the rough ground disorders it";
    return out;
  }
  std::string operator()(const ev::Rotated& e) const {
    return unit(e.unit) + " turns from " + facing_text(e.from_facing) + " to face " +
           facing_text(e.facing) + (e.disordered ? "; turning in line disorders it" : "");
  }
  std::string operator()(const ev::FormationChanged& e) const {
    return unit(e.unit) + " forms " + (e.formation == Formation::kColumn ? "column" : "line");
  }
  std::string operator()(const ev::Shot& e) const {
    std::string out = unit(e.shooter) +
                      (e.at_charger ? " shoots at its charger, " : " shoots at ") + unit(e.target) +
                      ": ";
    const Unit* sh = s.unit(e.shooter);
    const Unit* t = s.unit(e.target);
    const Score sc = sh != nullptr && t != nullptr ? detail::shooting_score(s, *sh, *t) : Score{};
    // The words come from the state before the event; an event that does not match it (a
    // caller handing the wrong state) is told with its own numbers only.
    if (sh != nullptr && t != nullptr && sc.base == e.base && sc.shift == e.shift &&
        sc.hits == e.hits) {
      out += score_text("shoot", sc);
    } else {
      out += "shoot " + std::to_string(e.base) + " at " + signed_text(e.shift) + ": " +
             plural(e.hits, "hit", "hits");
    }
    out += "; missile hits " + std::to_string(e.missile_before) + " to " +
           std::to_string(e.missile_after);
    if (e.intervals)
      out += ", " + plural(e.intervals, "morale interval", "morale intervals") + " lost";
    return out;
  }
  std::string operator()(const ev::Fight& e) const {
    const bool charge = e.kind == FightKind::kCharge;
    const char* value = charge ? "charge" : "melee";
    const Unit* a = s.unit(e.a);
    const Unit* b = s.unit(e.b);
    std::string out = std::string(charge ? "charge combat, " : "melee, ") + unit(e.a) +
                      " against " + unit(e.b) + ": ";
    const auto side_words = [&](const Unit* u, const Unit* opp, bool charged, int base, int shift,
                                int hits) {
      if (u != nullptr && opp != nullptr) {
        const Score sc = detail::combat_score(s, *u, *opp, e.kind, charged);
        if (sc.base == base && sc.shift == shift && sc.hits == hits) return score_text(value, sc);
      }
      return std::string(value) + " " + std::to_string(base) + " at " + signed_text(shift) + ": " +
             plural(hits, "hit", "hits");
    };
    out += unit(e.a) + " " + side_words(a, b, false, e.base_a, e.shift_a, e.hits_a) + "; ";
    out += unit(e.b) + " " + side_words(b, a, charge, e.base_b, e.shift_b, e.hits_b) + ". ";
    if (e.loss_a == 0 && e.loss_b == 0) return out + "Equal scores in a charge: nobody loses";
    if (e.loss_a > 0 && e.loss_b > 0)
      return out + "Equal scores in melee: each loses 1 morale interval";
    const int loser = e.loss_a > 0 ? e.a : e.b;
    const int loss = std::max(e.loss_a, e.loss_b);
    return out + unit(loser) + " loses " + plural(loss, "morale interval", "morale intervals");
  }
  std::string operator()(const ev::MoraleChanged& e) const {
    return unit(e.unit) + (e.to < e.from ? " falls" : " rallies") + " from morale " +
           std::to_string(e.from) + " to " + std::to_string(e.to);
  }
  std::string operator()(const ev::Routed& e) const {
    std::string out = unit(e.unit) + " routs from " + square_text(e.at) + " and leaves the field";
    for (const LeaderRelocation& r : e.leaders) {
      out += r.to_unit ? "; " + leader(r.leader) + " goes to " + unit(r.to_unit)
                       : "; " + leader(r.leader) + " has no unit to join and leaves the game";
    }
    return out;
  }
  std::string operator()(const ev::LeaderMoved& e) const {
    return leader(e.leader) + " rides from " + unit(e.from_unit) + " to " + unit(e.to_unit);
  }
  std::string operator()(const ev::LeaderRoll& e) const {
    std::string out = leader(e.leader) + " rolls " + std::to_string(e.first);
    if (e.second) out += " then " + std::to_string(e.second);
    switch (e.fate) {
      case LeaderFate::kUnharmed:
        return out + ": unharmed";
      case LeaderFate::kWounded:
        return out + ": wounded";
      case LeaderFate::kKilled:
        return out + ": killed";
    }
    return out;
  }
  std::string operator()(const ev::Progress& e) const {
    return leader(e.leader) + " reaches square " + std::to_string(e.index + 1) +
           " of his orders path";
  }
  std::string operator()(const ev::OrdersAbandoned& e) const {
    return leader(e.leader) + " abandons his orders";
  }
  std::string operator()(const ev::DisorderRecovered& e) const {
    return unit(e.unit) + " recovers its order";
  }
  std::string operator()(const ev::TurnEnded& e) const {
    return "end of turn " + std::to_string(e.turn);
  }
  std::string operator()(const ev::GameEnded& e) const {
    const char* who = e.outcome.kind == Outcome::Kind::kWinA   ? "side A wins"
                      : e.outcome.kind == Outcome::Kind::kWinB ? "side B wins"
                                                               : "a draw";
    return std::string(who) + ": " + e.outcome.reason;
  }
};

}  // namespace

std::string Game::describe(const State& s, const Event& e) {
  return std::visit(Describer{s}, e);
}

}  // namespace castra::rules::optio
