// AnyMatch::verify_from_start and verifier: a full re-decide of a match's log from its
// scenario and secrets passes an honest log, adopted or played, ended or in play, and names
// the entry of an edited event or roll that adoption took as a fact. On fair dice only (a
// match on forced dice does not verify against its seed, by design).
#include <gtest/gtest.h>

#include <string>

#include "tests/wire/played_games.hpp"

namespace castra::wire::testing {
namespace {

class VerifyFromStart : public ::testing::TestWithParam<Which> {};

// The stored log with entry `i` replaced, all of it adopted.
std::unique_ptr<AnyMatch> adopted_with(const PlayedGame& g, std::size_t i,
                                       const v1::LogEntry& edited) {
  auto m = fresh(g);
  seat(*m);
  for (std::size_t k = 0; k < g.log.size(); ++k) {
    auto err = m->adopt(k == i ? edited : g.log[k], g.salts[k]);
    EXPECT_FALSE(err) << *err;
  }
  return m;
}

// The first entry after the opening with a roll in it.
std::size_t first_rolling_entry(const PlayedGame& g) {
  for (std::size_t i = 1; i < g.log.size(); ++i) {
    if (g.log[i].rolls_size() > 0) return i;
  }
  return 0;
}

TEST_P(VerifyFromStart, TheGameAsPlayedPasses) {
  const PlayedGame& g = played(GetParam());
  EXPECT_EQ(g.match->verify_from_start(), std::nullopt);
}

TEST_P(VerifyFromStart, AnHonestLogAdoptedWholePasses) {
  const PlayedGame& g = played(GetParam());
  auto m = adopted_then_replayed(g, g.log.size(), g.log.size());
  EXPECT_EQ(m->verify_from_start(), std::nullopt);
}

TEST_P(VerifyFromStart, AMatchStillInPlayPasses) {
  const PlayedGame& g = played(GetParam());
  auto m = adopted_then_replayed(g, g.log.size() / 2, g.log.size() / 2);
  ASSERT_FALSE(m->outcome());
  EXPECT_EQ(m->verify_from_start(), std::nullopt);
}

TEST_P(VerifyFromStart, AnEditedRollIsFoundAtItsEntry) {
  const PlayedGame& g = played(GetParam());
  const std::size_t i = first_rolling_entry(g);
  ASSERT_GT(i, 0u) << "nothing was rolled after the opening";
  v1::LogEntry edited = g.log[i];
  auto* roll = edited.mutable_rolls(0);
  roll->set_face(roll->face() % roll->faces() + 1);
  auto err = adopted_with(g, i, edited)->verify_from_start();
  ASSERT_TRUE(err);
  EXPECT_EQ(err->rfind("entry " + std::to_string(i) + " ", 0), 0u) << *err;
  EXPECT_NE(err->find("roll"), std::string::npos) << *err;
}

TEST_P(VerifyFromStart, AnEditedEventIsFoundAtItsEntry) {
  const PlayedGame& g = played(GetParam());
  v1::LogEntry edited = g.log[1];  // the first deployment
  ASSERT_GT(edited.events_size(), 0);
  auto* e = edited.mutable_events(0);
  if (e->has_optio()) {
    auto* d = e->mutable_optio()->mutable_unit_deployed();
    d->set_facing(d->facing() ^ 1);
  } else {
    auto* d = e->mutable_stand()->mutable_deployed();
    d->set_facing(static_cast<v1::stand::Facing>(d->facing() ^ 1));
  }
  auto err = adopted_with(g, 1, edited)->verify_from_start();
  ASSERT_TRUE(err);
  EXPECT_EQ(err->rfind("entry 1 ", 0), 0u) << *err;
  EXPECT_NE(err->find("event"), std::string::npos) << *err;
}

// The job holds its own copy: the match it was taken from may play on (or be gone).
TEST_P(VerifyFromStart, TheVerifierChecksTheLogAsItWasWhenTaken) {
  const PlayedGame& g = played(GetParam());
  const std::size_t mid = g.log.size() / 2;
  auto m = adopted_then_replayed(g, mid, mid);
  auto job = m->verifier();
  const auto& next = g.log[mid];
  ASSERT_TRUE(m->submit(side_from_proto(next.side()), next.command(), salt_of(mid)).ok());
  m.reset();
  EXPECT_EQ(job(), std::nullopt);
}

INSTANTIATE_TEST_SUITE_P(FairGames, VerifyFromStart,
                         ::testing::Values(Which::kOptioFair, Which::kStandFair),
                         [](const auto& info) { return played(info.param).name; });

}  // namespace
}  // namespace castra::wire::testing
