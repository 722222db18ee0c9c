// Forecasts are a new place hidden information could leak: an orders path decides who is in
// command. Two Optio matches that differ only in side A's sealed orders card must send side
// B byte-identical legal lists, forecasts included, after every command.
#include <gtest/gtest.h>

#include "proto/castra/v1/optio.pb.h"
#include "tests/wire/played_games.hpp"

namespace castra::wire::testing {
namespace {

using rules::Side;

int forecasts_in(const v1::GameLegal& legal) {
  int n = 0;
  for (const auto& u : legal.optio().units()) {
    for (const auto& a : u.advances())
      n += a.has_forecast() ? 1 : 0;
    n += u.shot_forecasts_size();
  }
  return n;
}

TEST(NonInterference, LegalListsWithForecastsDoNotDependOnTheOpponentsSealedOrders) {
  const PlayedGame& g = played(Which::kOptioScript);
  auto one = fresh(g);
  auto two = fresh(g);
  seat(*one);
  seat(*two);
  int forecasts = 0;
  bool varied = false;
  for (std::size_t i = 0; i < g.log.size() && !one->outcome(); ++i) {
    const v1::LogEntry& entry = g.log[i];
    if (entry.kind() != v1::ENTRY_COMMAND) continue;
    const Side side = side_from_proto(entry.side());
    v1::GameCommand other = entry.command();
    // Side A's card in match two goes one square further, past anywhere its units go.
    if (side == Side::kA && other.optio().has_submit_orders()) {
      auto* path = other.mutable_optio()->mutable_submit_orders()->mutable_paths(0);
      v1::Coord* extra = path->add_squares();
      extra->set_col(path->squares(path->squares_size() - 2).col() - 1);
      extra->set_row(path->squares(path->squares_size() - 2).row() + 1);
      varied = true;
    }
    ASSERT_TRUE(one->submit(side, entry.command(), salt_of(i)).ok()) << "entry " << i;
    auto done = two->submit(side, other, salt_of(i));
    ASSERT_TRUE(done.ok()) << "entry " << i << ": " << done.error().message;
    const v1::GameLegal seen = one->legal(Side::kB);
    EXPECT_EQ(seen.SerializeAsString(), two->legal(Side::kB).SerializeAsString())
        << "side B's list after entry " << i << " depends on side A's orders card";
    forecasts += forecasts_in(seen);
  }
  EXPECT_TRUE(varied);
  EXPECT_GT(forecasts, 0) << "side B was never offered a charge or a shot to forecast";
  // The two cards did differ, as side A itself sees.
  EXPECT_NE(one->snapshot(rules::Viewer::kSideA).SerializeAsString(),
            two->snapshot(rules::Viewer::kSideA).SerializeAsString());
}

}  // namespace
}  // namespace castra::wire::testing
