// Forecasts never lie: in random positions of both built-in scenarios, every listed charge
// and shot is forecast on the commanding side's own projection, then given to decide() on
// the full state with leader dice forced at random, and the forecast is held to the events
// decide produces: each score, the losses, who rolls and what the faces did, the morale after.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <random>

#include "common/rules/fixed_dice.hpp"
#include "common/wire/optio_codec.hpp"
#include "tests/rules/optio/random_player.hpp"
#include "tests/rules/optio/support.hpp"

namespace castra::rules::optio::testing {
namespace {

struct Tally {
  int charges = 0, shots = 0, fire = 0, fire_routs = 0, fights = 0, clamped = 0, rolls = 0,
      kills = 0;
};

// The score a forecast gives against the numbers an event carries. The section 6 table's
// shifts run from -4 to +4 (written here from the rules, not read from the ruleset).
void expect_score(const Score& sc, int unit, int base, int shift, int hits, Tally& t) {
  EXPECT_EQ(sc.unit, unit);
  EXPECT_EQ(sc.base, base);
  EXPECT_EQ(sc.shift, shift);
  EXPECT_EQ(sc.hits, hits);
  int sum = 0;
  for (const ShiftTerm& term : sc.terms) {
    EXPECT_FALSE(term.name.empty());
    EXPECT_NE(term.shift, 0) << term.name;
    sum += term.shift;
  }
  EXPECT_EQ(sc.raw_shift, sum);
  EXPECT_EQ(std::clamp(sc.raw_shift, -4, 4), shift);
  if (sc.raw_shift != shift) ++t.clamped;
}

// What a forecast says a leader's faces do, by its own table.
LeaderFate fate_by(const LeaderDieForecast& l, int first, int second) {
  if (first < l.wound_from) return LeaderFate::kUnharmed;
  if (l.wounded) return LeaderFate::kKilled;
  return second >= l.kill_from ? LeaderFate::kKilled : LeaderFate::kWounded;
}

void check(const State& s, Side side, const Command& c, std::mt19937_64& gen, Tally& t) {
  const auto f = Game::forecast(Game::project(s, viewer_of(side)), side, c);
  ASSERT_TRUE(f.has_value()) << wire::optio::script_line_to_json(side, c);
  EXPECT_EQ(Game::forecast(s, side, c), f) << "a forecast must not use what the side cannot see";
  std::vector<int> faces;
  for (std::size_t i = 0; i < 2 * s.leaders.size() + 2; ++i)
    faces.push_back(std::uniform_int_distribution<int>(1, 6)(gen));
  FixedDice dice(faces);
  auto events = Game::decide(s, side, c, dice);
  ASSERT_TRUE(events.ok());
  State after = s;
  std::vector<ev::LeaderRoll> rolls;
  int shots = 0, fights = 0;
  for (const Event& e : *events) {
    Game::apply(after, e);
    if (const auto* a = std::get_if<ev::Advanced>(&e)) {
      EXPECT_TRUE(f->charge);
      EXPECT_EQ(a->unit, f->unit);
      EXPECT_EQ(a->charge_target, f->target);
    } else if (const auto* sh = std::get_if<ev::Shot>(&e)) {
      ++shots;
      ASSERT_TRUE(f->fire.has_value());
      expect_score(f->fire->shooter, sh->shooter, sh->base, sh->shift, sh->hits, t);
      EXPECT_EQ(f->fire->target, sh->target);
      EXPECT_EQ(f->fire->missile_before, sh->missile_before);
      EXPECT_EQ(f->fire->missile_after, sh->missile_after);
      EXPECT_EQ(f->fire->intervals, sh->intervals);
      EXPECT_EQ(sh->at_charger, f->charge);
    } else if (const auto* fi = std::get_if<ev::Fight>(&e)) {
      ++fights;
      ASSERT_TRUE(f->fight.has_value());
      expect_score(f->fight->a, fi->a, fi->base_a, fi->shift_a, fi->hits_a, t);
      expect_score(f->fight->b, fi->b, fi->base_b, fi->shift_b, fi->hits_b, t);
      EXPECT_EQ(f->fight->loss_a, fi->loss_a);
      EXPECT_EQ(f->fight->loss_b, fi->loss_b);
    } else if (const auto* r = std::get_if<ev::LeaderRoll>(&e)) {
      rolls.push_back(*r);
    }
  }
  EXPECT_EQ(shots, f->fire ? 1 : 0);
  EXPECT_EQ(fights, f->fight ? 1 : 0);
  ASSERT_EQ(rolls.size(), f->leaders.size());
  for (std::size_t i = 0; i < rolls.size(); ++i) {
    EXPECT_EQ(rolls[i].leader, f->leaders[i].leader);
    EXPECT_EQ(rolls[i].fate, fate_by(f->leaders[i], rolls[i].first, rolls[i].second));
    if (rolls[i].fate == LeaderFate::kKilled) ++t.kills;
  }
  t.rolls += static_cast<int>(rolls.size());
  for (const MoraleForecast& m : {f->unit_morale, f->target_morale}) {
    EXPECT_EQ(m.before, s.unit(m.unit)->morale);
    EXPECT_EQ(m.routs, after.unit(m.unit)->routed);
    if (!m.routs) {
      EXPECT_EQ(m.after, after.unit(m.unit)->morale);
    }
  }
  if (f->charge) {
    ++t.charges;
    if (f->fire) ++t.fire;
    if (f->fire && !f->fight) ++t.fire_routs;
    if (f->fight) ++t.fights;
  } else {
    ++t.shots;
  }
}

// Every listed charge and shot of the moving side, in random games of one scenario.
Tally run_scenario(const std::string& file, int games) {
  Tally t;
  auto sc = wire::optio::scenario_from_json(read_file(file));
  EXPECT_TRUE(sc.ok());
  if (!sc.ok()) return t;
  auto initial = Game::initial_state(*sc, rs());
  EXPECT_TRUE(initial.ok());
  for (int g = 0; g < games && !::testing::Test::HasFailure(); ++g) {
    const std::uint64_t seed = 7919ull * static_cast<std::uint64_t>(g) + 3;
    RandomPlayer player(seed);
    RandomDice dice(seed ^ 0x5bd1e995ull);
    std::mt19937_64 faces(seed + 1);
    State s = *initial;
    for (int step = 0; step < 1500 && !Game::outcome(s) && !::testing::Test::HasFailure(); ++step) {
      const Acting act = Game::acting(s);
      const Side side = act.a ? Side::kA : Side::kB;
      const Legal legal = Game::legal(s, side);
      for (const UnitLegal& u : legal.units) {
        for (const AdvanceOption& a : u.advances) {
          if (a.charge_target != 0) check(s, side, cmd::Advance{u.unit, a.steps}, faces, t);
        }
        for (int target : u.shoot_targets)
          check(s, side, cmd::Shoot{u.unit, target}, faces, t);
      }
      const auto c = player.from_list(s, legal);
      if (!c) break;
      for (const Event& e : play(s, side, *c, dice))
        (void)e;
    }
  }
  return t;
}

TEST(Forecast, OptioChargesAndShotsForecastWhatDecideDoes) {
  // Cannae's big armies meet far more often than the training battle's.
  for (const auto& [file, games] : {std::pair{"tests/rules/optio/data/training_scenario.json", 60},
                                    std::pair{"scenarios/optio/cannae.json", 12}}) {
    const Tally t = run_scenario(file, games);
    // The random games reach every kind of outcome a forecast describes.
    EXPECT_GT(t.charges, 100) << file;
    EXPECT_GT(t.shots, 10) << file;
    EXPECT_GT(t.fights, 50) << file;
    EXPECT_GT(t.rolls, 20) << file;
    std::cout << file << ": " << t.charges << " charges (" << t.fire << " met by fire, "
              << t.fire_routs << " routed by it), " << t.shots << " shots, " << t.clamped
              << " clamped scores, " << t.rolls << " leader dice (" << t.kills << " kills)\n";
  }
}

TEST(Forecast, OptioForecastIsOnlyForChargesAndShots) {
  constexpr int kNorth = 0, kEast = 1, kSouth = 2;
  const State s = Battle()
                      .unit(1, Side::kA, UnitType::kHeavyInfantry, {5, 4}, kSouth)
                      .unit(2, Side::kB, UnitType::kHeavyInfantry, {5, 6}, kNorth)
                      .leader(1, Side::kA, true, 1, 1)
                      .leader(2, Side::kB, true, 2, 2)
                      .start();
  // An advance that charges no one, a rotation, and a charge out of turn.
  EXPECT_FALSE(Game::forecast(s, Side::kA, cmd::Advance{1, {{{4, 5}, kSouth}}}).has_value());
  EXPECT_FALSE(Game::forecast(s, Side::kA, cmd::Rotate{1, kEast}).has_value());
  EXPECT_FALSE(Game::forecast(s, Side::kB, cmd::Advance{2, {{{5, 5}, kNorth}}}).has_value());
  const auto f = Game::forecast(s, Side::kA, cmd::Advance{1, {{{5, 5}, kSouth}}});
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->target, 2);
  ASSERT_TRUE(f->fight.has_value());
  // Both generals ride with their units: +1 each, nothing else in the open.
  ASSERT_EQ(f->fight->a.terms.size(), 1u);
  EXPECT_EQ(f->fight->a.terms[0].name, "leader with the unit");
  EXPECT_EQ(f->leaders.size(), 2u);
}

}  // namespace
}  // namespace castra::rules::optio::testing

namespace castra::rules::optio::testing {
namespace {

// The words of a charge, told on the state before each event: both units by side, type and
// number, compass facings, and each score with its named modifiers and their unclamped sum.
TEST(OptioDescribe, AChargeIsToldWithBothUnitsAndTheModifiersOfEachScore) {
  constexpr int kSouth = 2;
  State s = Battle()
                .unit(1, Side::kA, UnitType::kWarband, {5, 4}, kSouth)
                .unit(2, Side::kB, UnitType::kHeavyInfantry, {5, 6}, 0, 0, 2, Formation::kColumn)
                .unit(3, Side::kB, UnitType::kHeavyInfantry, {10, 7}, 0)
                .leader(1, Side::kA, true, 1, 1)
                .leader(2, Side::kB, true, 2, 3)
                .start();
  FixedDice dice({1, 1});
  const auto events = Game::decide(s, Side::kA, cmd::Advance{1, {{{5, 5}, kSouth}}}, dice);
  ASSERT_TRUE(events.ok()) << events.error().message;
  std::vector<std::string> words;
  for (const Event& e : *events) {
    words.push_back(Game::describe(s, e));
    Game::apply(s, e);
  }
  ASSERT_GE(words.size(), 3u);
  EXPECT_EQ(words[0],
            "side A's warband 1 charges side B's heavy infantry 2, advancing from (5,4) to (5,5) "
            "facing south");
  // Warband charge 4 with its general (+1): 6 hits; heavy infantry charge 2 in column (-2): 1.
  EXPECT_EQ(words[1],
            "charge combat, side A's warband 1 against side B's heavy infantry 2: side A's "
            "warband 1 charge 4, leader with the unit +1: sum +1: 6 hits; side B's heavy infantry "
            "2 charge 2, in column -2: sum -2: 1 hit. side B's heavy infantry 2 loses 5 morale "
            "intervals");
  EXPECT_EQ(words[2], "side B's heavy infantry 2 routs from (5,6) and leaves the field");
}

}  // namespace
}  // namespace castra::rules::optio::testing
