// The square grid: facings, ahead, diagonally ahead, flanks, rear, king's-move distance.
#include "common/rules/optio/geometry.hpp"

#include <gtest/gtest.h>

namespace castra::rules::optio {
namespace {

TEST(OptioGeometry, FacingNorthLooksTowardRowOne) {
  EXPECT_EQ(ahead({5, 5}, 0), (Square{5, 4}));
  EXPECT_EQ(ahead({5, 5}, 1), (Square{6, 5}));
  EXPECT_EQ(ahead({5, 5}, 2), (Square{5, 6}));
  EXPECT_EQ(ahead({5, 5}, 3), (Square{4, 5}));
}

TEST(OptioGeometry, DiagonallyAheadAreTheTwoFrontCorners) {
  const auto d = diagonally_ahead({5, 5}, 0);
  EXPECT_EQ(d[0], (Square{4, 4}));
  EXPECT_EQ(d[1], (Square{6, 4}));
  const auto e = diagonally_ahead({5, 5}, 1);
  EXPECT_EQ(e[0], (Square{6, 4}));
  EXPECT_EQ(e[1], (Square{6, 6}));
}

TEST(OptioGeometry, FlanksAreBesideAndRearIsBehind) {
  EXPECT_EQ(relative_side({5, 5}, 0, {5, 4}), Side4::kFront);
  EXPECT_EQ(relative_side({5, 5}, 0, {4, 5}), Side4::kFlank);
  EXPECT_EQ(relative_side({5, 5}, 0, {6, 5}), Side4::kFlank);
  EXPECT_EQ(relative_side({5, 5}, 0, {5, 6}), Side4::kRear);
  EXPECT_EQ(relative_side({5, 5}, 0, {6, 6}), Side4::kNone);
  EXPECT_EQ(behind({5, 5}, 1), (Square{4, 5}));
}

TEST(OptioGeometry, KingsMoveDistanceCountsDiagonalsAsOne) {
  EXPECT_EQ(distance({2, 1}, {4, 2}), 2);
  EXPECT_EQ(distance({2, 1}, {5, 2}), 3);
  EXPECT_EQ(distance({4, 3}, {6, 5}), 2);
  EXPECT_TRUE(king_adjacent({4, 4}, {5, 5}));
  EXPECT_FALSE(orthogonally_adjacent({4, 4}, {5, 5}));
  EXPECT_TRUE(orthogonally_adjacent({4, 4}, {4, 5}));
  EXPECT_FALSE(king_adjacent({4, 4}, {4, 4}));
}

TEST(OptioGeometry, ForwardStepsAreAheadOrDiagonallyAhead) {
  EXPECT_TRUE(is_forward_step({5, 5}, 2, {4, 6}));
  EXPECT_TRUE(is_forward_step({5, 5}, 2, {5, 6}));
  EXPECT_FALSE(is_forward_step({5, 5}, 2, {4, 5}));
  EXPECT_FALSE(is_forward_step({5, 5}, 2, {5, 4}));
}

TEST(OptioGeometry, ShootingArcHasThreeSquaresAtRangeOneAndEightAtTwo) {
  for (int facing = 0; facing < 4; ++facing) {
    int one = 0, two = 0;
    for (int c = 1; c <= 9; ++c) {
      for (int r = 1; r <= 9; ++r) {
        one += in_arc({5, 5}, facing, 1, {c, r});
        two += in_arc({5, 5}, facing, 2, {c, r});
      }
    }
    EXPECT_EQ(one, 3);
    EXPECT_EQ(two, 8);
  }
  EXPECT_TRUE(in_arc({5, 5}, 0, 2, {3, 3}));
  EXPECT_FALSE(in_arc({5, 5}, 0, 2, {3, 4}));
  EXPECT_FALSE(in_arc({5, 5}, 0, 2, {5, 6}));
}

}  // namespace
}  // namespace castra::rules::optio
