// Optio's rules data: versions, the unit table, and the combat hits table checked cell
// by cell against the formula of section 6.
#include "common/rules/optio/ruleset.hpp"

#include <gtest/gtest.h>

#include <tuple>

#include "common/rules/optio/game.hpp"

namespace castra::rules::optio {
namespace {

// Section 6: base x (1 + 0.5 x shift) above 0, base x (1 + 0.25 x shift) below, rounded
// to the nearest whole number with halves rounded down. In integers: num / den.
int formula(int base, int shift) {
  const int num = shift >= 0 ? base * (2 + shift) : base * (4 + shift);
  const int den = shift >= 0 ? 2 : 4;
  const int q = num / den;
  const int r = num % den;
  return 2 * r > den ? q + 1 : q;
}

TEST(OptioRuleset, CurrentVersionIsOptio2AndOptio1StaysLoadable) {
  EXPECT_EQ(Game::current_version(), "optio-2");
  ASSERT_NE(Game::ruleset("optio-1"), nullptr);
  EXPECT_EQ(Game::ruleset("optio-1")->version, "optio-1");
  EXPECT_FALSE(Game::ruleset("optio-1")->leaving_leader_rolls);
  ASSERT_NE(Game::ruleset("optio-2"), nullptr);
  EXPECT_TRUE(Game::ruleset("optio-2")->leaving_leader_rolls);
  EXPECT_EQ(Game::ruleset("optio-0"), nullptr);
}

// optio-2 changes one ruling, not one number: every table is optio-1's.
TEST(OptioRuleset, Optio2HasOptio1sNumbers) {
  const Ruleset& one = *Game::ruleset("optio-1");
  const Ruleset& two = *Game::ruleset("optio-2");
  EXPECT_EQ(one.hits, two.hits);
  EXPECT_EQ(one.disorder_recovery_turns, two.disorder_recovery_turns);
  for (int t = 0; t < kUnitTypes; ++t) {
    const UnitStats& a = one.units[static_cast<std::size_t>(t)];
    const UnitStats& b = two.units[static_cast<std::size_t>(t)];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(std::tie(a.move, a.charge, a.melee, a.shoot, a.range, a.firm, a.shaken),
              std::tie(b.move, b.charge, b.melee, b.shoot, b.range, b.firm, b.shaken));
  }
}

TEST(OptioRuleset, CombatHitsTableMatchesTheFormulaCellByCell) {
  const Ruleset& rs = *Game::ruleset("optio-1");
  for (int base = 0; base < kHitsBases; ++base) {
    for (int shift = -4; shift <= 4; ++shift) {
      EXPECT_EQ(rs.hits[static_cast<std::size_t>(base)][static_cast<std::size_t>(shift + 4)],
                formula(base, shift))
          << "base " << base << " shift " << shift;
      EXPECT_EQ(rs.shifted_hits(base, shift), formula(base, shift));
    }
  }
}

TEST(OptioRuleset, SeedExamplesOfTheHitsTable) {
  const Ruleset& rs = *Game::ruleset("optio-1");
  EXPECT_EQ(rs.shifted_hits(4, 1), 6);
  EXPECT_EQ(rs.shifted_hits(2, -2), 1);
  EXPECT_EQ(rs.shifted_hits(2, -3), 0);
}

TEST(OptioRuleset, ShiftsAreClampedToFourEitherWay) {
  const Ruleset& rs = *Game::ruleset("optio-1");
  EXPECT_EQ(rs.shifted_hits(3, 7), rs.shifted_hits(3, 4));
  EXPECT_EQ(rs.shifted_hits(3, -9), rs.shifted_hits(3, -4));
}

TEST(OptioRuleset, UnitTableFollowsSectionOne) {
  const Ruleset& rs = *Game::ruleset("optio-1");
  const UnitStats& hi = rs.stats(UnitType::kHeavyInfantry);
  EXPECT_EQ(hi.name, "heavy_infantry");
  EXPECT_EQ(hi.move, 1);
  EXPECT_EQ(hi.charge, 2);
  EXPECT_EQ(hi.melee, 3);
  EXPECT_EQ(hi.firm + hi.shaken, 4);
  const UnitStats& sk = rs.stats(UnitType::kSkirmishers);
  EXPECT_EQ(sk.shoot, 1);
  EXPECT_EQ(sk.range, 2);
  EXPECT_EQ(sk.drill, Drill::kAgile);
  const UnitStats& ch = rs.stats(UnitType::kChariots);
  EXPECT_EQ(ch.move, 3);
  EXPECT_EQ(ch.charge, 4);
  EXPECT_EQ(rs.leader_move, 3);
  EXPECT_EQ(rs.default_range, 2);
  EXPECT_EQ(rs.default_turn_limit, 12);
  EXPECT_EQ(rs.disorder_turns(Drill::kAgile), 1);
  EXPECT_EQ(rs.disorder_turns(Drill::kDrilled), 2);
  EXPECT_EQ(rs.disorder_turns(Drill::kUnwieldy), 3);
}

}  // namespace
}  // namespace castra::rules::optio
