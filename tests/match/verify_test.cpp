// verify(): an honest record passes; each kind of tampering is caught and named.
#include <gtest/gtest.h>

#include "common/match/record.hpp"
#include "tests/match/toy_game.hpp"

namespace castra::match {
namespace {

using ToyMatch = Match<toy::Game>;

Bytes32 filled(std::uint8_t v) {
  Bytes32 b{};
  b.fill(v);
  return b;
}

Record<toy::Game> honest_record() {
  auto created = ToyMatch::create({"toy-verify", toy::Scenario{15}, "", filled(0x5E)});
  ToyMatch m = std::move(*created);
  m.seat(Side::kA, "entropy-a");
  m.seat(Side::kB, "entropy-b");
  EXPECT_TRUE(m.submit(Side::kA, toy::SetSecret{"left"}, filled(1)).ok());
  EXPECT_TRUE(m.submit(Side::kB, toy::SetSecret{"right"}, filled(2)).ok());
  while (!m.outcome()) {
    const Side s = m.acting().a ? Side::kA : Side::kB;
    EXPECT_TRUE(m.submit(s, toy::Advance{}, filled(3)).ok());
  }
  return *record_of(m);
}

// The first command entry that rolled a die.
std::size_t first_rolling_command(const Record<toy::Game>& r) {
  for (std::size_t i = 0; i < r.entries.size(); ++i) {
    if (r.entries[i].kind == EntryKind::kCommand && !r.entries[i].rolls.empty()) return i;
  }
  return 0;
}

TEST(Verify, AnHonestRecordPasses) {
  const auto r = honest_record();
  EXPECT_EQ(verify(r), std::nullopt);
}

TEST(Verify, NoRecordBeforeTheEnd) {
  auto created = ToyMatch::create({"x", toy::Scenario{15}, "", filled(1)});
  EXPECT_FALSE(record_of(*created).has_value());
}

TEST(Verify, AnEditedRollFails) {
  auto r = honest_record();
  const std::size_t i = first_rolling_command(r);
  auto& roll = r.entries[i].rolls[0];
  roll.face = roll.face % 6 + 1;
  const auto failure = verify(r);
  ASSERT_TRUE(failure);
  EXPECT_NE(failure->find("entry " + std::to_string(i)), std::string::npos) << *failure;
  EXPECT_NE(failure->find("roll"), std::string::npos) << *failure;
}

TEST(Verify, AnEditedCommandFails) {
  auto r = honest_record();
  r.entries[1].command = toy::Command{toy::Advance{}};  // A's secret replaced by an advance
  const auto failure = verify(r);
  ASSERT_TRUE(failure);
  EXPECT_NE(failure->find("entry 1"), std::string::npos) << *failure;
}

TEST(Verify, AnEditedEventFails) {
  auto r = honest_record();
  const std::size_t i = first_rolling_command(r);
  std::get<toy::Moved>(r.entries[i].events[0]).to += 1;
  const auto failure = verify(r);
  ASSERT_TRUE(failure);
  EXPECT_NE(failure->find("entry " + std::to_string(i) + " (side"), std::string::npos) << *failure;
  EXPECT_NE(failure->find("event 0"), std::string::npos) << *failure;
}

TEST(Verify, ASwappedSealedSubmissionFails) {
  auto r = honest_record();
  // Swap A's secret for another in both the command and its event: the published
  // commitment no longer matches.
  r.entries[1].command = toy::Command{toy::SetSecret{"centre"}};
  std::get<toy::SecretSet>(r.entries[1].events[0]).text = "centre";
  const auto failure = verify(r);
  ASSERT_TRUE(failure);
  EXPECT_NE(failure->find("commitment"), std::string::npos) << *failure;
  EXPECT_NE(failure->find("entry 1"), std::string::npos) << *failure;
}

TEST(Verify, AWrongSeedFails) {
  auto r = honest_record();
  r.server_seed[0] ^= 1;
  const auto failure = verify(r);
  ASSERT_TRUE(failure);
  EXPECT_NE(failure->find("dice commitment"), std::string::npos) << *failure;
}

TEST(Verify, ADiceCommitmentThatDoesNotMatchFails) {
  auto r = honest_record();
  r.dice_commitment[5] ^= 0x40;
  ASSERT_TRUE(verify(r));
}

TEST(Verify, ASealCommitmentThatDoesNotMatchFails) {
  auto r = honest_record();
  r.entries[2].seals[0].commitment[0] ^= 1;
  const auto failure = verify(r);
  ASSERT_TRUE(failure);
  EXPECT_NE(failure->find("entry 2"), std::string::npos) << *failure;
}

TEST(Verify, AnEditedFinalHashFails) {
  auto r = honest_record();
  r.final_state_hash[0] ^= 1;
  const auto failure = verify(r);
  ASSERT_TRUE(failure);
  EXPECT_NE(failure->find("final state"), std::string::npos) << *failure;
}

}  // namespace
}  // namespace castra::match
