// AnyMatch::adopt and check_hash, start-up recovery from a stored snapshot: entries adopted as
// facts up to a point and the rest replayed leave the match exactly as a full replay does
// (its state, every viewer's events and pictures, the legal lists, the record, and the answer
// and dice of the next command), and a stored hash that does not fit is found.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "common/match/match.hpp"
#include "tests/wire/played_games.hpp"

namespace castra::wire::testing {
namespace {

using google::protobuf::util::MessageDifferencer;
using rules::Side;
using rules::Viewer;

constexpr Viewer kViewers[] = {Viewer::kSideA, Viewer::kSideB, Viewer::kSpectator,
                               Viewer::kEveryone};
constexpr std::size_t kK = match::kCheckpointEvery;

bool same_events(const std::vector<v1::ViewEvent>& a, const std::vector<v1::ViewEvent>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!MessageDifferencer::Equals(a[i], b[i])) return false;
  }
  return true;
}

// Everything a client or the store can be given of the two matches is the same.
void expect_same(const AnyMatch& got, const AnyMatch& want, const std::string& what) {
  ASSERT_EQ(got.entry_count(), want.entry_count()) << what;
  EXPECT_EQ(got.full_state_hash(), want.full_state_hash()) << what;
  EXPECT_EQ(got.event_count(), want.event_count()) << what;
  EXPECT_EQ(got.acting(), want.acting()) << what;
  for (Viewer v : kViewers) {
    EXPECT_TRUE(same_events(got.events_for(v, 0), want.events_for(v, 0))) << what;
    EXPECT_TRUE(MessageDifferencer::Equals(got.snapshot(v), want.snapshot(v))) << what;
  }
  for (Side s : {Side::kA, Side::kB}) {
    EXPECT_TRUE(MessageDifferencer::Equals(got.legal(s), want.legal(s))) << what;
  }
  for (std::size_t i = 0; i < want.entry_count(); ++i) {
    EXPECT_TRUE(MessageDifferencer::Equals(got.log_entry(i), want.log_entry(i))) << what;
    const auto gs = got.salts(i);
    const auto ws = want.salts(i);
    ASSERT_EQ(gs.size(), ws.size()) << what << " entry " << i;
    for (std::size_t k = 0; k < gs.size(); ++k) {
      EXPECT_EQ(gs[k].event_index, ws[k].event_index) << what;
      EXPECT_EQ(gs[k].salt, ws[k].salt) << what;
    }
  }
  for (std::size_t n = 0; n <= want.entry_count(); ++n) {
    auto a = got.snapshot_after(n, Viewer::kSpectator);
    auto b = want.snapshot_after(n, Viewer::kSpectator);
    ASSERT_TRUE(a.ok() && b.ok()) << what << " after " << n;
    EXPECT_TRUE(MessageDifferencer::Equals(*a, *b)) << what << " after " << n;
  }
  ASSERT_EQ(got.record().has_value(), want.record().has_value()) << what;
  if (want.record()) {
    EXPECT_TRUE(MessageDifferencer::Equals(*got.record(), *want.record())) << what;
  }
}

// The stored entry `i`'s command given again, as the same side, with the same salt.
void expect_same_answer_to(AnyMatch& got, AnyMatch& want, const v1::LogEntry& next,
                           const std::string& what) {
  const Side side = side_from_proto(next.side());
  auto a = got.submit(side, next.command(), salt_of(999));
  auto b = want.submit(side, next.command(), salt_of(999));
  ASSERT_EQ(a.ok(), b.ok()) << what;
  if (a.ok()) {
    EXPECT_EQ(*a, *b) << what;
  } else {
    EXPECT_EQ(a.error(), b.error()) << what;
  }
  expect_same(got, want, what + ", then one more command");
}

// Where recovery may find its latest snapshot: right after the opening, either side of each
// checkpoint, and at the last entry.
std::set<std::size_t> adoption_points(std::size_t entries) {
  std::set<std::size_t> out = {1, 2, kK - 1, kK, kK + 1, 2 * kK, entries};
  std::erase_if(out, [&](std::size_t p) { return p > entries; });
  return out;
}

class Adopt : public ::testing::TestWithParam<Which> {};

TEST_P(Adopt, AdoptingUpToASnapshotAndReplayingTheRestIsAFullReplay) {
  const PlayedGame& g = played(GetParam());
  const auto full = replayed(g, g.log.size());
  for (std::size_t adopted : adoption_points(g.log.size())) {
    const std::string what = g.name + ", " + std::to_string(adopted) + " entries adopted";
    auto recovered = adopted_then_replayed(g, adopted, g.log.size());
    expect_same(*recovered, *full, what);
    auto again = replayed(g, g.log.size());
    expect_same_answer_to(*recovered, *again, g.log.back(), what);
  }
}

TEST_P(Adopt, AMatchRecoveredMidGamePlaysOnAsAFullReplayDoes) {
  const PlayedGame& g = played(GetParam());
  const std::size_t mid = g.log.size() - 3;  // the game is not over: its next command counts
  for (std::size_t adopted : adoption_points(mid)) {
    const std::string what =
        g.name + ", " + std::to_string(adopted) + " of " + std::to_string(mid) + " entries adopted";
    auto recovered = adopted_then_replayed(g, adopted, mid);
    auto full = replayed(g, mid);
    ASSERT_FALSE(full->outcome());
    expect_same(*recovered, *full, what);
    expect_same_answer_to(*recovered, *full, g.log[mid], what);
    expect_same_answer_to(*recovered, *full, g.log[mid + 1], what);
  }
}

TEST_P(Adopt, TheStoredHashOfTheSnapshotIsCheckedAndAWrongOneIsFound) {
  const PlayedGame& g = played(GetParam());
  auto recovered = adopted_then_replayed(g, kK, kK);
  const match::Bytes32 stored = replayed(g, kK)->full_state_hash();
  EXPECT_FALSE(recovered->check_hash(stored));
  match::Bytes32 wrong = stored;
  wrong[7] ^= 0x01;
  auto err = recovered->check_hash(wrong);
  ASSERT_TRUE(err);
  EXPECT_NE(err->find(std::to_string(kK) + " log entries"), std::string::npos) << *err;
}

INSTANTIATE_TEST_SUITE_P(Games, Adopt,
                         ::testing::Values(Which::kOptioScript, Which::kStandScript,
                                           Which::kOptioFair, Which::kStandFair),
                         [](const auto& info) { return played(info.param).name; });

// An entry whose deployment event was edited in storage adopts (it is taken as a fact), but
// the state it leads to no longer hashes to the snapshot stored after it.
TEST(Adopt, AnEditedEntryBeforeTheSnapshotFailsItsStoredHash) {
  for (Which which : {Which::kOptioScript, Which::kStandScript}) {
    const PlayedGame& g = played(which);
    auto m = fresh(g);
    seat(*m);
    for (std::size_t i = 0; i < kK; ++i) {
      v1::LogEntry entry = g.log[i];
      if (i == 1) {
        auto* e = entry.mutable_events(0);
        if (e->has_optio()) {
          auto* d = e->mutable_optio()->mutable_unit_deployed();
          d->set_facing(d->facing() ^ 1);
        } else {
          auto* d = e->mutable_stand()->mutable_deployed();
          d->set_facing(static_cast<v1::stand::Facing>(d->facing() ^ 1));
        }
      }
      ASSERT_FALSE(m->adopt(entry, g.salts[i])) << g.name << " entry " << i;
    }
    EXPECT_TRUE(m->check_hash(replayed(g, kK)->full_state_hash())) << g.name;
  }
}

TEST(Adopt, AResignationIsAdoptedAsTheEndOfTheMatch) {
  const PlayedGame& g = played(Which::kOptioFair);
  auto resigned = replayed(g, g.log.size() / 2);
  ASSERT_FALSE(resigned->end(match::EndReason::kResigned, Side::kB,
                             rules::Outcome::win(Side::kA, "side B resigned")));
  auto recovered = fresh(g);
  seat(*recovered);
  for (std::size_t i = 0; i < resigned->entry_count(); ++i) {
    ASSERT_FALSE(recovered->adopt(resigned->log_entry(i), resigned->salts(i))) << i;
  }
  expect_same(*recovered, *resigned, "a resigned match");
  EXPECT_EQ(recovered->verify_from_start(), std::nullopt);
}

TEST(Adopt, AnEntryOutOfPlaceIsRefusedAndLeavesTheMatchAsItWas) {
  const PlayedGame& g = played(Which::kOptioScript);
  auto m = fresh(g);
  seat(*m);
  const match::Bytes32 before = m->full_state_hash();
  auto err = m->adopt(g.log[2], g.salts[2]);  // entry 1 is missing
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("entry 1"), std::string::npos) << *err;
  EXPECT_EQ(m->entry_count(), 1u);
  EXPECT_EQ(m->full_state_hash(), before);
}

TEST(Adopt, NothingIsAdoptedAfterTheEnd) {
  const PlayedGame& g = played(Which::kStandScript);
  auto m = adopted_then_replayed(g, g.log.size(), g.log.size());
  ASSERT_TRUE(m->outcome());
  v1::LogEntry more = g.log.back();
  more.set_first_event(m->event_count());
  more.clear_rolls();
  auto err = m->adopt(more, {});
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("over"), std::string::npos) << *err;
  EXPECT_EQ(m->entry_count(), g.log.size());
}

}  // namespace
}  // namespace castra::wire::testing
