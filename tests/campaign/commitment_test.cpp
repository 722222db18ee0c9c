// The selection commitment's bytes, written out by hand (docs/formats.md, "Selection
// commitments").
#include <gtest/gtest.h>

#include "common/campaign/commitment.hpp"

namespace castra::campaign {
namespace {

TEST(CampaignCommitment, SelectionBytesAreIdsAscendingThenFigures) {
  const Selection s{{3, 1}, {2}, {}};
  const std::string want(
      "\x02\x00\x00\x00"
      "\x01\x00\x00\x00\x03\x00\x00\x00"
      "\x01\x00\x00\x00"
      "\x02\x00\x00\x00"
      "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
      36);
  EXPECT_EQ(selection_bytes(s), want);
}

TEST(CampaignCommitment, IsTheHashOfPrefixCampaignNodeSideSelectionAndSalt) {
  stand::Figures f;
  f.n = {5, 0, 2, 0};
  const Selection s{{}, {}, f};
  match::Bytes32 salt{};
  salt.fill(0xab);
  const std::string bytes =
      std::string("castra/selection/v1") + std::string("\x02\x00\x00\x00", 4) + "c7" +
      std::string("\x04\x00\x00\x00", 4) + "ford" + "\x01" +
      std::string("\x00\x00\x00\x00\x00\x00\x00\x00", 8) +
      std::string("\x05\x00\x00\x00\x00\x00\x00\x00", 8) +
      std::string("\x02\x00\x00\x00\x00\x00\x00\x00", 8) + std::string(32, '\xab');
  EXPECT_EQ(selection_commitment("c7", "ford", rules::Side::kB, s, salt), match::sha256(bytes));
}

TEST(CampaignCommitment, TheSameUnitsInAnotherOrderCommitTheSame) {
  match::Bytes32 salt{};
  EXPECT_EQ(selection_commitment("c", "n", rules::Side::kA, {{1, 2}, {1}, {}}, salt),
            selection_commitment("c", "n", rules::Side::kA, {{2, 1}, {1}, {}}, salt));
  EXPECT_NE(selection_commitment("c", "n", rules::Side::kA, {{1, 2}, {1}, {}}, salt),
            selection_commitment("c", "n", rules::Side::kB, {{1, 2}, {1}, {}}, salt));
}

}  // namespace
}  // namespace castra::campaign
