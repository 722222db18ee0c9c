// Fair dice: rejection sampling, determinism, sensitivity to entropy, and a chi-square test.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "common/match/fair_dice.hpp"

namespace castra::match {
namespace {

Bytes32 block_with_value(std::uint32_t v) {
  Bytes32 b{};
  b.fill(0xAB);
  b[0] = static_cast<std::uint8_t>(v);
  b[1] = static_cast<std::uint8_t>(v >> 8);
  b[2] = static_cast<std::uint8_t>(v >> 16);
  b[3] = static_cast<std::uint8_t>(v >> 24);
  return b;
}

DiceInputs inputs(std::uint8_t seed_byte, std::string a = "entropy-a",
                  std::string b = "entropy-b") {
  DiceInputs in;
  in.server_seed.fill(seed_byte);
  in.match_id = "m-1";
  in.entropy_a = std::move(a);
  in.entropy_b = std::move(b);
  return in;
}

TEST(FairDice, ValuesBelowTheRejectionZoneMapByRemainder) {
  EXPECT_EQ(face_from_block(block_with_value(0), 6), 1);
  EXPECT_EQ(face_from_block(block_with_value(5), 6), 6);
  EXPECT_EQ(face_from_block(block_with_value(13), 10), 4);
  // The largest accepted values: 2^32 - (2^32 mod f) - 1.
  EXPECT_EQ(face_from_block(block_with_value(4294967291u), 6), 4294967291u % 6 + 1);
  EXPECT_EQ(face_from_block(block_with_value(4294967289u), 10), 4294967289u % 10 + 1);
}

TEST(FairDice, ValuesInTheRejectionZoneAreRejected) {
  // 2^32 mod 6 = 4 and 2^32 mod 10 = 6: the top 4 (d6) and top 6 (d10) values are rejected.
  for (std::uint32_t v = 4294967292u; v != 0; ++v) {
    EXPECT_FALSE(face_from_block(block_with_value(v), 6)) << v;
  }
  for (std::uint32_t v = 4294967290u; v != 0; ++v) {
    EXPECT_FALSE(face_from_block(block_with_value(v), 10)) << v;
  }
}

TEST(FairDice, ARejectedBlockIsFollowedByTheNextBlock) {
  std::vector<std::uint32_t> asked;
  const int face = first_face(
      [&](std::uint32_t block) {
        asked.push_back(block);
        return block < 2 ? block_with_value(4294967295u) : block_with_value(9);
      },
      6);
  EXPECT_EQ(face, 9 % 6 + 1);
  EXPECT_EQ(asked, (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(FairDice, TheSameInputsGiveTheSameRolls) {
  for (std::uint64_t n = 0; n < 200; ++n) {
    EXPECT_EQ(fair_roll(inputs(7), n, rules::Die::kD6), fair_roll(inputs(7), n, rules::Die::kD6));
  }
}

TEST(FairDice, DifferentEntropyGivesDifferentRolls) {
  int differ_entropy = 0;
  int differ_seed = 0;
  for (std::uint64_t n = 0; n < 200; ++n) {
    const int base = fair_roll(inputs(7), n, rules::Die::kD10);
    differ_entropy += base != fair_roll(inputs(7, "other-a"), n, rules::Die::kD10);
    differ_seed += base != fair_roll(inputs(8), n, rules::Die::kD10);
  }
  // Independent d10 sequences agree on about 1 roll in 10.
  EXPECT_GT(differ_entropy, 150);
  EXPECT_GT(differ_seed, 150);
}

TEST(FairDice, TheRollKindIsPartOfTheInput) {
  EXPECT_NE(roll_message(inputs(1), 3, rules::Die::kD6, 0),
            roll_message(inputs(1), 3, rules::Die::kD10, 0));
}

// Pearson's chi-square over `rolls` rolls of a die with `faces` faces.
double chi_square(rules::Die die, int rolls) {
  const int faces = static_cast<int>(die);
  std::array<int, 10> counts{};
  const DiceInputs in = inputs(42);
  for (int n = 0; n < rolls; ++n) {
    const int face = fair_roll(in, static_cast<std::uint64_t>(n), die);
    EXPECT_GE(face, 1);
    EXPECT_LE(face, faces);
    ++counts[static_cast<std::size_t>(face - 1)];
  }
  const double expected = static_cast<double>(rolls) / faces;
  double chi = 0;
  for (int f = 0; f < faces; ++f) {
    const double d = counts[static_cast<std::size_t>(f)] - expected;
    chi += d * d / expected;
  }
  return chi;
}

TEST(FairDice, SixtyThousandD6PassChiSquareAtTheThousandthLevel) {
  EXPECT_LT(chi_square(rules::Die::kD6, 60000), 20.515);  // 5 degrees of freedom, p = 0.001
}

TEST(FairDice, SixtyThousandD10PassChiSquareAtTheThousandthLevel) {
  EXPECT_LT(chi_square(rules::Die::kD10, 60000), 27.877);  // 9 degrees of freedom, p = 0.001
}

TEST(FairDice, TheCommitmentBindsTheSeed) {
  Bytes32 a{};
  Bytes32 b{};
  b[31] = 1;
  EXPECT_NE(dice_commitment(a), dice_commitment(b));
  EXPECT_EQ(dice_commitment(a), dice_commitment(a));
}

}  // namespace
}  // namespace castra::match
