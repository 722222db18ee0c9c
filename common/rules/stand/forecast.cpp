// attack_forecast, which Game::decide resolves every attack with, and Game::forecast, which
// gives it to clients before the attack is made.
#include <vector>

#include "common/rules/stand/combat.hpp"
#include "common/rules/stand/game.hpp"

namespace castra::rules::stand {
namespace {

// Only decide's acceptance is wanted from it; its d10 (if rolled) is thrown away.
class AnyDice final : public Dice {
 public:
  int roll(Die die) override { return static_cast<int>(die); }
};

}  // namespace

AttackForecast attack_forecast(const State& s, const Ruleset& rs, Hex from, Hex target) {
  const Tile& attacker = s.at(from);
  const Tile& defender = s.at(target);
  AttackForecast f;
  f.from = from;
  f.target = target;
  f.posture = defender.posture;
  f.cover = rs.is_cover(defender.terrain);
  f.rear = is_rear_hexside(defender.facing, *direction_to(target, from));
  f.terms = attack_terms(rs, attacker.figures, f.posture, f.cover, f.rear);
  f.total = attack_total(rs, attacker.figures, f.posture, f.cover, f.rear);
  const Casualty cas = casualties_of(rs, f.total, defender.figures.total());
  f.sure = cas.sure;
  f.fraction = cas.fraction;
  f.roll = cas.roll;
  f.die_faces = static_cast<int>(rs.fraction_die);
  for (int face = 1; cas.roll && face <= f.die_faces; ++face) {
    if (fraction_hits(face, cas.fraction)) ++f.extra_faces;
  }
  f.lost = take_casualties(rs, defender.figures, cas.sure);
  f.strength = rs.strength_of(f.lost);
  if (cas.roll) {
    f.lost_extra = take_casualties(rs, defender.figures, cas.sure + 1);
    f.strength_extra = rs.strength_of(f.lost_extra);
  }
  return f;
}

std::optional<AttackForecast> Game::forecast(const State& s, Side side, const Command& c) {
  const auto* a = std::get_if<cmd::Attack>(&c);
  if (a == nullptr) return std::nullopt;
  AnyDice dice;
  if (!decide(s, side, c, dice)) return std::nullopt;
  return attack_forecast(s, rules_of(s), a->from, a->target);
}

std::vector<AttackForecast> Game::forecasts(const State& s, const Legal& legal) {
  std::vector<AttackForecast> out;
  for (const AttackChoice& choice : legal.attacks) {
    for (Hex target : choice.targets) {
      if (auto f = forecast(s, legal.side, cmd::Attack{choice.from, target})) {
        out.push_back(std::move(*f));
      }
    }
  }
  return out;
}

}  // namespace castra::rules::stand
