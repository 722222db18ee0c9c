// Game::forecast: a charge or a shot worked out before it is given. The command runs through
// decide() itself with dice that never harm a leader (the only dice Optio rolls come after
// the scores and the losses), and each score is rebuilt, modifier by modifier, from the
// state just before its event with the same functions decide() scores with.
#include <algorithm>

#include "common/rules/optio/game.hpp"
#include "common/rules/optio/internal.hpp"

namespace castra::rules::optio {
namespace {

// A leader's d6 of 1 leaves him unharmed whatever the ruleset: no outcome depends on it.
class UnharmedDice final : public Dice {
 public:
  int roll(Die) override { return 1; }
};

MoraleForecast morale_of(const State& before, const State& after, int unit) {
  const Unit& b = *before.unit(unit);
  const Unit& a = *after.unit(unit);
  return {.unit = unit, .before = b.morale, .after = a.routed ? 0 : a.morale, .routs = a.routed};
}

}  // namespace

std::optional<Forecast> Game::forecast(const State& s, Side side, const Command& c) {
  const bool charge = std::holds_alternative<cmd::Advance>(c);
  if (!charge && !std::holds_alternative<cmd::Shoot>(c)) return std::nullopt;
  UnharmedDice dice;
  auto events = decide(s, side, c, dice);
  if (!events) return std::nullopt;
  const Ruleset& rs = detail::rules_of(s);
  Forecast f;
  f.charge = charge;
  State now = s;
  for (const Event& e : *events) {
    if (const auto* a = std::get_if<ev::Advanced>(&e)) {
      if (a->charge_target == 0) return std::nullopt;
      f.unit = a->unit;
      f.target = a->charge_target;
    } else if (const auto* sh = std::get_if<ev::Shot>(&e)) {
      if (!charge) {
        f.unit = sh->shooter;
        f.target = sh->target;
      }
      f.fire = ShotForecast{
          .shooter = detail::shooting_score(now, *now.unit(sh->shooter), *now.unit(sh->target)),
          .target = sh->target,
          .missile_before = sh->missile_before,
          .missile_after = sh->missile_after,
          .intervals = sh->intervals};
    } else if (const auto* fight = std::get_if<ev::Fight>(&e)) {
      const Unit& ua = *now.unit(fight->a);
      const Unit& ub = *now.unit(fight->b);
      f.fight = FightForecast{.a = detail::combat_score(now, ua, ub, FightKind::kCharge, false),
                              .b = detail::combat_score(now, ub, ua, FightKind::kCharge, true),
                              .loss_a = fight->loss_a,
                              .loss_b = fight->loss_b};
    } else if (const auto* roll = std::get_if<ev::LeaderRoll>(&e)) {
      const Leader& l = *now.leader(roll->leader);
      f.leaders.push_back({.leader = l.id,
                           .wounded = l.wounded,
                           .leaves = l.status == LeaderStatus::kGone,
                           .wound_from = rs.leader_die_wound,
                           .kill_from = rs.leader_die_kill});
    }
    apply(now, e);
  }
  f.unit_morale = morale_of(s, now, f.unit);
  f.target_morale = morale_of(s, now, f.target);
  return f;
}

std::vector<UnitForecasts> Game::forecasts(const State& s, const Legal& legal) {
  std::vector<UnitForecasts> out;
  for (const UnitLegal& u : legal.units) {
    UnitForecasts uf;
    uf.unit = u.unit;
    bool any = false;
    for (const AdvanceOption& a : u.advances) {
      uf.advances.push_back(a.charge_target == 0
                                ? std::nullopt
                                : forecast(s, legal.side, cmd::Advance{u.unit, a.steps}));
      any = any || uf.advances.back().has_value();
    }
    for (int t : u.shoot_targets) {
      uf.shots.push_back(forecast(s, legal.side, cmd::Shoot{u.unit, t}));
      any = any || uf.shots.back().has_value();
    }
    if (any) out.push_back(std::move(uf));
  }
  return out;
}

}  // namespace castra::rules::optio
