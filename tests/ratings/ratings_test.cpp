// Glicko-2 against the worked example of Glickman's "Example of the Glicko-2 system" (the
// expected numbers are the paper's, copied by hand), and its edge cases.
#include <gtest/gtest.h>

#include "server/ratings/glicko2.hpp"

namespace castra::ratings {
namespace {

// The paper's constant tau and no bounds in the way.
Params paper() {
  Params p;
  p.tau = 0.5;
  p.min_deviation = 1.0;
  p.max_deviation = 1000.0;
  p.max_volatility = 1.0;
  return p;
}

TEST(Ratings, GlickmansWorkedExample) {
  const Rating player{1500.0, 200.0, 0.06};
  const std::vector<Game> games = {
      {Rating{1400.0, 30.0, 0.06}, 1.0},
      {Rating{1550.0, 100.0, 0.06}, 0.0},
      {Rating{1700.0, 300.0, 0.06}, 0.0},
  };
  const Rating after = update(player, games, paper());
  EXPECT_NEAR(after.rating, 1464.06, 0.01);
  EXPECT_NEAR(after.deviation, 151.52, 0.01);
  EXPECT_NEAR(after.volatility, 0.05999, 0.00001);
}

TEST(Ratings, NoGamesInAPeriodOnlyTheDeviationGrows) {
  const Rating player{1500.0, 200.0, 0.06};
  const Rating after = update(player, {}, paper());
  EXPECT_DOUBLE_EQ(after.rating, 1500.0);
  EXPECT_DOUBLE_EQ(after.volatility, 0.06);
  // sqrt(200^2 + (0.06 * 173.7178)^2), by hand.
  EXPECT_NEAR(after.deviation, 200.2714, 0.001);
}

TEST(Ratings, DeviationStaysWithinLichessBounds) {
  // sqrt(499.9^2 + (0.09 * 173.7178)^2) would be 500.14.
  EXPECT_DOUBLE_EQ(update(Rating{1500.0, 499.9, 0.09}, {}).deviation, 500.0);
  // Many games against a settled opponent would take RD below 45: it stops there.
  Rating r{1500.0, 50.0, 0.06};
  for (int i = 0; i < 50; ++i)
    r = update(r, {{Rating{1500.0, 45.0, 0.06}, i % 2 == 0 ? 1.0 : 0.0}});
  EXPECT_GE(r.deviation, 45.0);
}

TEST(Ratings, ADrawBetweenEqualsMovesNeitherRatingButBothDeviations) {
  const Rating a;
  const Rating after = update(a, {{a, 0.5}});
  EXPECT_NEAR(after.rating, 1500.0, 1e-9);
  EXPECT_LT(after.deviation, a.deviation);
}

TEST(Ratings, AWinRaisesALossLowers) {
  const Rating a{1500.0, 200.0, 0.06};
  const Rating b{1600.0, 200.0, 0.06};
  EXPECT_GT(update(a, {{b, 1.0}}).rating, a.rating);
  EXPECT_LT(update(a, {{b, 0.0}}).rating, a.rating);
}

TEST(Ratings, ProvisionalWhileTheDeviationIsHigh) {
  EXPECT_TRUE(provisional(Rating{}));  // a new player
  EXPECT_TRUE(provisional(Rating{1500.0, 110.5, 0.06}));
  EXPECT_FALSE(provisional(Rating{1500.0, 110.0, 0.06}));
}

}  // namespace
}  // namespace castra::ratings
