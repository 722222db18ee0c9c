// AnyMatch::snapshot_after: a past picture folded from the match's checkpoints is, for every
// entry count of every game and every viewer, exactly what a from-scratch replay of that many
// entries shows; a spectator's past before the end hides what was hidden then.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include "common/match/match.hpp"
#include "tests/wire/played_games.hpp"

namespace castra::wire::testing {
namespace {

using google::protobuf::util::MessageDifferencer;
using rules::Viewer;

constexpr Viewer kViewers[] = {Viewer::kSideA, Viewer::kSideB, Viewer::kSpectator,
                               Viewer::kEveryone};

class Checkpoints : public ::testing::TestWithParam<Which> {};

TEST_P(Checkpoints, EveryPastPictureIsWhatAReplayOfThatManyEntriesShows) {
  const PlayedGame& g = played(GetParam());
  ASSERT_GT(g.log.size(), 2 * match::kCheckpointEvery) << "the game is too short to test";
  auto replay = fresh(g);  // grows one entry at a time: the replay of `n` entries
  for (std::size_t n = 0; n <= g.log.size(); ++n) {
    if (n == 1) seat(*replay);  // the opening entry
    if (n > 1) {
      ASSERT_FALSE(replay->replay(g.log[n - 1], g.salts[n - 1])) << g.name << " entry " << n - 1;
    }
    for (Viewer v : kViewers) {
      auto past = g.match->snapshot_after(n, v);
      ASSERT_TRUE(past.ok()) << past.error().message;
      EXPECT_TRUE(MessageDifferencer::Equals(*past, replay->snapshot(v)))
          << g.name << " after " << n << " entries, viewer " << static_cast<int>(v);
    }
  }
}

TEST_P(Checkpoints, ThePictureAfterTheWholeLogIsTheMatchNow) {
  const PlayedGame& g = played(GetParam());
  for (Viewer v : kViewers) {
    auto now = g.match->snapshot_after(g.match->entry_count(), v);
    ASSERT_TRUE(now.ok());
    EXPECT_TRUE(MessageDifferencer::Equals(*now, g.match->snapshot(v)));
  }
}

TEST_P(Checkpoints, AnEntryCountPastTheLogIsARuleError) {
  const PlayedGame& g = played(GetParam());
  auto past = g.match->snapshot_after(g.match->entry_count() + 1, Viewer::kSpectator);
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.error().rule, "match.entry");
}

INSTANTIATE_TEST_SUITE_P(Games, Checkpoints,
                         ::testing::Values(Which::kOptioScript, Which::kStandScript,
                                           Which::kOptioFair, Which::kStandFair),
                         [](const auto& info) { return played(info.param).name; });

// Optio's orders cards are sealed until the end: once the match is over everyone sees them,
// but a spectator's picture of a moment before the end is the one he was shown then.
TEST(Checkpoints, ASpectatorsPastBeforeTheEndHidesWhatWasHiddenThen) {
  const PlayedGame& g = played(Which::kOptioFair);
  ASSERT_TRUE(g.match->outcome());
  ASSERT_TRUE(MessageDifferencer::Equals(g.match->snapshot(Viewer::kSpectator).state(),
                                         g.match->snapshot(Viewer::kEveryone).state()));
  std::size_t hidden = 0;
  for (std::size_t n = 0; n < g.log.size(); ++n) {
    auto spectator = g.match->snapshot_after(n, Viewer::kSpectator);
    auto everyone = g.match->snapshot_after(n, Viewer::kEveryone);
    ASSERT_TRUE(spectator.ok() && everyone.ok());
    EXPECT_FALSE(spectator->ended());
    hidden += !MessageDifferencer::Equals(spectator->state(), everyone->state());
  }
  EXPECT_GT(hidden, 0u) << "no past picture hid an orders card from the spectator";
}

// A resignation is an entry of its own: the picture before it is of a match in play, with
// its secrets kept; the picture after it is of the match over, everything shown.
TEST(Checkpoints, ThePictureBeforeAResignationIsOfTheMatchInPlay) {
  const PlayedGame& g = played(Which::kOptioFair);
  const std::size_t mid = g.log.size() / 2;
  auto m = replayed(g, mid);
  const auto in_play = replayed(g, mid);
  ASSERT_FALSE(m->end(match::EndReason::kResigned, rules::Side::kA,
                      rules::Outcome::win(rules::Side::kB, "side A resigned")));
  for (Viewer v : kViewers) {
    auto before = m->snapshot_after(mid, v);
    auto after = m->snapshot_after(mid + 1, v);
    ASSERT_TRUE(before.ok() && after.ok());
    EXPECT_TRUE(MessageDifferencer::Equals(*before, in_play->snapshot(v)));
    EXPECT_TRUE(MessageDifferencer::Equals(*after, m->snapshot(v)));
    EXPECT_TRUE(after->ended());
  }
}

// Aborted with one seat taken: the log is the end alone and nobody ever had to act.
TEST(Checkpoints, AMatchAbortedBeforeItsStartIsPicturedAsItsReplayIs) {
  const PlayedGame& g = played(Which::kStandFair);
  auto m = fresh(g);
  ASSERT_FALSE(m->seat(rules::Side::kA, "entropy-a"));
  ASSERT_FALSE(m->end(match::EndReason::kAborted, rules::Side::kA,
                      rules::Outcome::draw("aborted by an operator")));
  auto replay = fresh(g);
  ASSERT_FALSE(replay->replay(m->log_entry(0), {}));
  for (Viewer v : kViewers) {
    auto before = m->snapshot_after(0, v);
    auto after = m->snapshot_after(1, v);
    ASSERT_TRUE(before.ok() && after.ok());
    EXPECT_TRUE(MessageDifferencer::Equals(*before, fresh(g)->snapshot(v)));
    EXPECT_TRUE(MessageDifferencer::Equals(*after, replay->snapshot(v)));
    EXPECT_EQ(after->phase(), "seating");
    EXPECT_TRUE(after->ended());
  }
}

}  // namespace
}  // namespace castra::wire::testing
