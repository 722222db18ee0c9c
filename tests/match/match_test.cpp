// The match core on the toy rule set: seating, turns, the event fold, projections,
// non-interference of sealed content, and a golden replay.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/match/match.hpp"
#include "tests/match/toy_game.hpp"

namespace castra::match {
namespace {

using toy::Advance;
using toy::Note;
using toy::SetSecret;
using ToyMatch = Match<toy::Game>;

Bytes32 filled(std::uint8_t v) {
  Bytes32 b{};
  b.fill(v);
  return b;
}

ToyMatch new_match(int goal = 12) {
  auto m = ToyMatch::create({"toy-match-1", toy::Scenario{goal}, "", filled(0x11)});
  EXPECT_TRUE(m.ok());
  return std::move(*m);
}

// Plays a fixed script: both secrets, a note each, then alternate advances to the end.
ToyMatch play(const std::string& secret_a, const std::string& secret_b) {
  ToyMatch m = new_match();
  m.seat(Side::kB, "entropy of B");
  m.seat(Side::kA, "entropy of A");
  EXPECT_TRUE(m.submit(Side::kA, SetSecret{secret_a}, filled(0xA1)).ok());
  EXPECT_TRUE(m.submit(Side::kB, SetSecret{secret_b}, filled(0xB1)).ok());
  const Side first = m.acting().a ? Side::kA : Side::kB;
  EXPECT_TRUE(m.submit(first, Note{"a private note"}, filled(0xA2)).ok());
  for (int i = 0; i < 100 && !m.outcome(); ++i) {
    const Side s = m.acting().a ? Side::kA : Side::kB;
    EXPECT_TRUE(m.submit(s, Advance{}, filled(0xC0)).ok());
  }
  EXPECT_TRUE(m.outcome().has_value());
  return m;
}

TEST(Match, NobodyActsBeforeBothSeatsAreTaken) {
  ToyMatch m = new_match();
  EXPECT_EQ(m.acting().phase, "seating");
  m.seat(Side::kA, "x");
  auto refused = m.submit(Side::kA, SetSecret{"s"}, filled(1));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().rule, "match.not_started");
  EXPECT_TRUE(m.seat(Side::kA, "again").has_value());  // a seat is taken once
}

TEST(Match, TheOpeningEventsRollWhenTheSecondSeatIsTaken) {
  ToyMatch m = new_match();
  m.seat(Side::kA, "a");
  EXPECT_TRUE(m.log().empty());
  m.seat(Side::kB, "b");
  ASSERT_EQ(m.log().size(), 1u);
  EXPECT_EQ(m.log()[0].kind, EntryKind::kStart);
  EXPECT_GE(m.log()[0].rolls.size(), 2u);
  EXPECT_EQ(m.log()[0].rolls[0].number, 0u);
}

TEST(Match, BothSidesActInASimultaneousPhaseAndOnlyTheSideToMoveAfter) {
  ToyMatch m = new_match();
  m.seat(Side::kA, "a");
  m.seat(Side::kB, "b");
  EXPECT_TRUE(m.acting().a && m.acting().b);
  ASSERT_TRUE(m.submit(Side::kB, SetSecret{"b"}, filled(2)).ok());
  EXPECT_TRUE(m.acting().a);
  EXPECT_FALSE(m.acting().b);
  auto twice = m.submit(Side::kB, SetSecret{"again"}, filled(3));
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().rule, "match.turn");
  ASSERT_TRUE(m.submit(Side::kA, SetSecret{"a"}, filled(4)).ok());
  const Side mover = m.acting().a ? Side::kA : Side::kB;
  auto out_of_turn = m.submit(rules::other(mover), Advance{}, filled(5));
  ASSERT_FALSE(out_of_turn.ok());
  EXPECT_EQ(out_of_turn.error().rule, "match.turn");
  EXPECT_TRUE(m.submit(mover, Advance{}, filled(5)).ok());
}

TEST(Match, TheStateIsTheFoldOfTheEvents) {
  ToyMatch m = play("alpha", "beta");
  auto s = toy::Game::initial_state(toy::Scenario{12}, *toy::Game::ruleset("toy-1"));
  ASSERT_TRUE(s.ok());
  toy::State folded = *s;
  for (const auto& entry : m.log()) {
    for (const auto& e : entry.events)
      toy::Game::apply(folded, e);
  }
  EXPECT_EQ(folded, m.state());
  EXPECT_EQ(state_hash<toy::Game>(folded), m.full_state_hash());
}

TEST(Match, EventNumbersAreContinuousForEveryViewer) {
  ToyMatch m = new_match();
  m.seat(Side::kA, "a");
  m.seat(Side::kB, "b");
  ASSERT_TRUE(m.submit(Side::kA, Note{"n"}, filled(2)).ok());
  ASSERT_TRUE(m.submit(Side::kA, SetSecret{"a"}, filled(2)).ok());
  for (Viewer v : {Viewer::kSideA, Viewer::kSideB, Viewer::kSpectator}) {
    const auto events = m.events_for(v);
    ASSERT_EQ(events.size(), m.event_count());
    for (std::size_t i = 0; i < events.size(); ++i)
      EXPECT_EQ(events[i].number, i);
  }
  const auto b_view = m.events_for(Viewer::kSideB);
  const auto& sealed = b_view.back();
  EXPECT_FALSE(sealed.event.has_value());  // A's secret: a placeholder for B
  EXPECT_TRUE(sealed.commitment.has_value());
  const auto& note = b_view[b_view.size() - 2];
  EXPECT_FALSE(note.event.has_value());  // A's private note
  EXPECT_FALSE(note.commitment.has_value());
  const auto a_view = m.events_for(Viewer::kSideA);
  EXPECT_TRUE(a_view.back().event.has_value());
  EXPECT_EQ(m.events_for(Viewer::kSideA, 2).front().number, 2u);
}

TEST(Match, EverythingIsRevealedAtTheEnd) {
  ToyMatch m = play("alpha", "beta");
  EXPECT_TRUE(m.reveal().has_value());
  for (const auto& ve : m.events_for(Viewer::kSpectator))
    EXPECT_TRUE(ve.event.has_value());
  EXPECT_EQ(m.snapshot(Viewer::kSpectator).secret[0], "alpha");
}

TEST(Match, SecretsStayHiddenBeforeTheEnd) {
  ToyMatch m = new_match();
  m.seat(Side::kA, "a");
  m.seat(Side::kB, "b");
  ASSERT_TRUE(m.submit(Side::kA, SetSecret{"alpha"}, filled(2)).ok());
  EXPECT_FALSE(m.reveal().has_value());
  EXPECT_EQ(m.snapshot(Viewer::kSideB).secret[0], "");
  EXPECT_EQ(m.snapshot(Viewer::kSideA).secret[0], "alpha");
  EXPECT_NE(m.state_hash(Viewer::kSideA), m.state_hash(Viewer::kSideB));
}

TEST(Match, ResignationEndsTheMatchAndRefusesLaterCommands) {
  ToyMatch m = new_match();
  m.seat(Side::kA, "a");
  m.seat(Side::kB, "b");
  ASSERT_FALSE(m.end(EndReason::kResigned, Side::kA, Outcome::win(Side::kB, "side A resigned")));
  EXPECT_EQ(m.outcome()->kind, Outcome::Kind::kWinB);
  auto refused = m.submit(Side::kB, SetSecret{"b"}, filled(3));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().rule, "match.over");
  EXPECT_TRUE(m.end(EndReason::kResigned, Side::kB, Outcome::win(Side::kA, "again")));
}

// Everything a viewer receives, as bytes, with commitment values masked.
std::string stream_bytes(const ToyMatch& m, Viewer v, bool mask_commitments) {
  std::ostringstream out;
  for (const auto& ve : m.events_for(v)) {
    out << ve.number << '|' << ve.entry << '|' << static_cast<int>(ve.visibility.kind) << '|'
        << (ve.event ? toy::Game::describe(m.state(), *ve.event) : std::string("-")) << '|'
        << (ve.commitment ? (mask_commitments ? std::string(64, '*') : to_hex(*ve.commitment))
                          : std::string("none"))
        << '\n';
  }
  rules::ByteWriter w;
  toy::Game::encode(m.snapshot(v), w);
  out << to_hex(w.bytes()) << '\n' << to_hex(m.state_hash(v)) << '\n';
  return out.str();
}

// A run that stops before the end, so nothing has been revealed.
ToyMatch play_until_race(const std::string& secret_a, const std::string& secret_b) {
  ToyMatch m = new_match(1000);
  m.seat(Side::kA, "entropy of A");
  m.seat(Side::kB, "entropy of B");
  EXPECT_TRUE(m.submit(Side::kA, SetSecret{secret_a}, filled(0xA1)).ok());
  EXPECT_TRUE(m.submit(Side::kB, SetSecret{secret_b}, filled(0xB1)).ok());
  for (int i = 0; i < 20; ++i) {
    const Side s = m.acting().a ? Side::kA : Side::kB;
    EXPECT_TRUE(m.submit(s, Advance{}, filled(0xC0)).ok());
  }
  EXPECT_FALSE(m.outcome().has_value());
  return m;
}

TEST(NonInterference, SealedContentNeverReachesTheOpponentOrSpectators) {
  const std::string planted = "PLANTED-0xC0FFEE-PATTERN";
  ToyMatch one = play_until_race("attack on the left " + planted, "hold");
  ToyMatch two = play_until_race("feint right, then wait", "hold");
  for (Viewer v : {Viewer::kSideB, Viewer::kSpectator}) {
    const std::string a = stream_bytes(one, v, /*mask_commitments=*/true);
    EXPECT_EQ(a, stream_bytes(two, v, true)) << "viewer " << static_cast<int>(v);
    EXPECT_EQ(stream_bytes(one, v, false).find(planted), std::string::npos);
  }
  // The commitments themselves do differ: they bind the content.
  EXPECT_NE(stream_bytes(one, Viewer::kSideB, false), stream_bytes(two, Viewer::kSideB, false));
  // Side A sees its own secret.
  EXPECT_NE(stream_bytes(one, Viewer::kSideA, false).find(planted), std::string::npos);
}

TEST(GoldenReplay, TheRecordedToyMatchReplaysToItsRecordedHash) {
  ToyMatch m = play("alpha", "beta");
  std::ifstream in(std::string(CASTRA_SOURCE_DIR) + "/tests/data/toy_match.hash");
  std::string recorded;
  in >> recorded;
  ASSERT_FALSE(recorded.empty()) << "tests/data/toy_match.hash is missing";
  EXPECT_EQ(to_hex(m.full_state_hash()), recorded) << "replayed " << m.log().size() << " entries";
}

}  // namespace
}  // namespace castra::match
