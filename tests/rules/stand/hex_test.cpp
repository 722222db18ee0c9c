#include "common/rules/stand/hex.hpp"

#include <gtest/gtest.h>

#include <set>

namespace castra::rules::stand {
namespace {

TEST(StandHex, OffsetAndAxialCoordinatesRoundTrip) {
  for (int row = -3; row < 8; ++row) {
    for (int col = -3; col < 8; ++col) {
      EXPECT_EQ(to_hex(to_axial({col, row})), (Hex{col, row}));
    }
  }
  EXPECT_EQ(to_axial({3, 1}), (Axial{3, 1}));
  EXPECT_EQ(to_axial({3, 2}), (Axial{2, 2}));
  EXPECT_EQ(to_axial({3, 3}), (Axial{2, 3}));
}

TEST(StandHex, NeighboursOfAnEvenRowFollowTheDirectionOrder) {
  const Hex h{2, 2};
  EXPECT_EQ(neighbour(h, 0), (Hex{3, 2}));  // E
  EXPECT_EQ(neighbour(h, 1), (Hex{2, 1}));  // NE
  EXPECT_EQ(neighbour(h, 2), (Hex{1, 1}));  // NW
  EXPECT_EQ(neighbour(h, 3), (Hex{1, 2}));  // W
  EXPECT_EQ(neighbour(h, 4), (Hex{1, 3}));  // SW
  EXPECT_EQ(neighbour(h, 5), (Hex{2, 3}));  // SE
}

TEST(StandHex, NeighboursOfAnOddRowAreShiftedRight) {
  const Hex h{2, 1};
  EXPECT_EQ(neighbour(h, 0), (Hex{3, 1}));
  EXPECT_EQ(neighbour(h, 1), (Hex{3, 0}));
  EXPECT_EQ(neighbour(h, 2), (Hex{2, 0}));
  EXPECT_EQ(neighbour(h, 3), (Hex{1, 1}));
  EXPECT_EQ(neighbour(h, 4), (Hex{2, 2}));
  EXPECT_EQ(neighbour(h, 5), (Hex{3, 2}));
}

TEST(StandHex, EveryNeighbourIsAtDistanceOneAndLiesBackTheOppositeWay) {
  for (Hex h : {Hex{0, 0}, Hex{4, 3}, Hex{5, 6}, Hex{-1, -1}}) {
    std::set<Hex> seen;
    for (int d = 0; d < kDirections; ++d) {
      const Hex n = neighbour(h, d);
      seen.insert(n);
      EXPECT_EQ(distance(h, n), 1);
      EXPECT_TRUE(adjacent(h, n));
      EXPECT_EQ(direction_to(h, n), d);
      EXPECT_EQ(neighbour(n, opposite(d)), h);
    }
    EXPECT_EQ(seen.size(), 6u);
    EXPECT_FALSE(direction_to(h, h).has_value());
    EXPECT_FALSE(adjacent(h, h));
  }
}

TEST(StandHex, DistanceCountsHexStepsOnTheOffsetGrid) {
  EXPECT_EQ(distance({0, 0}, {0, 0}), 0);
  EXPECT_EQ(distance({0, 0}, {3, 0}), 3);
  EXPECT_EQ(distance({0, 0}, {0, 2}), 2);
  EXPECT_EQ(distance({0, 0}, {1, 2}), 2);
  EXPECT_EQ(distance({0, 0}, {2, 2}), 3);
  EXPECT_EQ(distance({2, 1}, {0, 5}), 4);
  EXPECT_FALSE(adjacent({0, 0}, {2, 0}));
}

TEST(StandHex, RearHexsidesAreTheThreeAwayFromTheFacing) {
  for (int f = 0; f < kDirections; ++f) {
    EXPECT_FALSE(is_rear_hexside(f, f));
    EXPECT_FALSE(is_rear_hexside(f, turn(f, 1)));
    EXPECT_FALSE(is_rear_hexside(f, turn(f, -1)));
    EXPECT_TRUE(is_rear_hexside(f, turn(f, 2)));
    EXPECT_TRUE(is_rear_hexside(f, turn(f, 3)));
    EXPECT_TRUE(is_rear_hexside(f, turn(f, 4)));
  }
  // Facing E (0): rear hexsides are NW (2), W (3), SW (4).
  EXPECT_TRUE(is_rear_hexside(0, 2));
  EXPECT_TRUE(is_rear_hexside(0, 3));
  EXPECT_TRUE(is_rear_hexside(0, 4));
  EXPECT_FALSE(is_rear_hexside(0, 5));
}

TEST(StandHex, FirstRowsAreCountedFromEachSidesEdge) {
  EXPECT_EQ(first_rows(Side::kA, 3, 10), (RowSpan{0, 2}));
  EXPECT_EQ(first_rows(Side::kB, 3, 10), (RowSpan{7, 9}));
  EXPECT_EQ(first_rows(Side::kB, 2, 10), (RowSpan{8, 9}));
  EXPECT_TRUE(first_rows(Side::kA, 2, 10).contains(1));
  EXPECT_FALSE(first_rows(Side::kA, 2, 10).contains(2));
}

TEST(StandHex, HexesAreNamedAsColumnAndRow) {
  EXPECT_EQ(to_string(Hex{4, 2}), "(4,2)");
}

}  // namespace
}  // namespace castra::rules::stand
