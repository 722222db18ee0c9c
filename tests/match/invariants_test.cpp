// MatchInvariants.*: in Debug and sanitizer builds every entry a match appends is followed by
// its rule set's check() (common/match/invariants.hpp), and a broken invariant stops the
// process at that entry, saying which. This program is built with CASTRA_CHECK_INVARIANTS in
// every build type (tests/match/CMakeLists.txt), so the death test always runs.
#include <gtest/gtest.h>

#include "common/match/match.hpp"
#include "tests/match/toy_game.hpp"

namespace castra::match {
namespace {

using rules::Side;

// The toy rules with one more invariant, broken by the first move of the race.
struct NoMovesAllowed : toy::Game {
  static std::optional<std::string> check(const State& s) {
    if (s.pos[0] + s.pos[1] > 0) return "a piece has moved (this test's invariant)";
    return toy::Game::check(s);
  }
};

// Seats both sides and sets both secrets: entries 0 (the opening), 1 and 2.
template <typename G>
void open_the_race(Match<G>& m) {
  m.seat(Side::kB, "entropy of B");
  m.seat(Side::kA, "entropy of A");
  EXPECT_TRUE(m.submit(Side::kA, toy::SetSecret{"a"}, Bytes32{}).ok());
  EXPECT_TRUE(m.submit(Side::kB, toy::SetSecret{"b"}, Bytes32{}).ok());
}

TEST(MatchInvariants, ABrokenInvariantStopsTheProcessAtTheEntryThatBrokeIt) {
  auto created = Match<NoMovesAllowed>::create({"invariant-match", toy::Scenario{12}, "", {}});
  ASSERT_TRUE(created.ok());
  Match<NoMovesAllowed>& m = *created;
  open_the_race(m);
  const Side first = m.acting().a ? Side::kA : Side::kB;
  // The first advance is entry 3.
  EXPECT_DEATH(m.submit(first, toy::Advance{}, Bytes32{}),
               "toy match invariant-match: after log entry 3, check\\(\\) fails: a piece has "
               "moved \\(this test's invariant\\)");
}

}  // namespace
}  // namespace castra::match
