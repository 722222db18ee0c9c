// AnyMatch::snapshot_after_events: a replay's single step. After an entry's last event the
// picture is that entry's (for every game, entry and viewer); inside an entry it counts the
// events asked for and not the entry; a count past the log is a RuleError.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include "tests/wire/played_games.hpp"

namespace castra::wire::testing {
namespace {

using google::protobuf::util::MessageDifferencer;
using rules::Viewer;

constexpr Viewer kViewers[] = {Viewer::kSideA, Viewer::kSideB, Viewer::kSpectator,
                               Viewer::kEveryone};

class EventSteps : public ::testing::TestWithParam<Which> {};

TEST_P(EventSteps, AfterAnEntrysLastEventThePictureIsThatEntrys) {
  const PlayedGame& g = played(GetParam());
  int inside = 0;
  for (std::size_t n = 1; n <= g.log.size(); ++n) {
    const auto& entry = g.log[n - 1];
    if (entry.events_size() == 0) continue;
    const std::uint64_t end = entry.first_event() + entry.events_size();
    for (Viewer v : kViewers) {
      auto by_event = g.match->snapshot_after_events(end, v);
      auto by_entry = g.match->snapshot_after(n, v);
      ASSERT_TRUE(by_event.ok() && by_entry.ok()) << g.name << " entry " << n - 1;
      EXPECT_TRUE(MessageDifferencer::Equals(*by_event, *by_entry))
          << g.name << " after entry " << n - 1 << ", viewer " << static_cast<int>(v);
      for (std::uint64_t k = entry.first_event() + 1; k < end; ++k) {
        auto mid = g.match->snapshot_after_events(k, v);
        ASSERT_TRUE(mid.ok()) << mid.error().message;
        EXPECT_EQ(mid->event_count(), k);
        EXPECT_EQ(mid->entry_count(), n - 1);
        inside += v == Viewer::kEveryone;
      }
    }
  }
  EXPECT_GT(inside, 0) << g.name << " has no entry of more than one event";
}

TEST_P(EventSteps, AnEventCountPastTheLogIsARuleError) {
  const PlayedGame& g = played(GetParam());
  auto past = g.match->snapshot_after_events(g.match->event_count() + 1, Viewer::kSpectator);
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.error().rule, "match.event");
  EXPECT_TRUE(g.match->snapshot_after_events(0, Viewer::kSpectator).ok());
}

INSTANTIATE_TEST_SUITE_P(Games, EventSteps,
                         ::testing::Values(Which::kOptioScript, Which::kStandScript,
                                           Which::kOptioFair, Which::kStandFair),
                         [](const auto& info) { return played(info.param).name; });

}  // namespace
}  // namespace castra::wire::testing
