// GetSnapshot by event count through the real server: a replay's single steps. A picture after
// any event (inside an entry too) is served to the same readers as one after an entry, each in
// his own projection; at every entry's end it is the entry's picture; inside a STAND! attack
// the attack is there and its casualties are not yet.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/server/closing_picker.hpp"
#include "tests/server/protocol_support.hpp"

namespace castra::testing {
namespace {

namespace req = client::requests;

v1::ClientEnvelope at_entry(const std::string& id, std::uint32_t entries) {
  v1::ClientEnvelope e;
  e.mutable_get_snapshot()->set_match_id(id);
  e.mutable_get_snapshot()->set_entry_count(entries);
  return e;
}

v1::ClientEnvelope at_event(const std::string& id, std::uint64_t events) {
  v1::ClientEnvelope e;
  e.mutable_get_snapshot()->set_match_id(id);
  e.mutable_get_snapshot()->set_event_count(events);
  return e;
}

// A started match of `scenario`: alice (A) and bob (B) seated.
std::string started(Player& alice, Player& bob, const std::string& scenario) {
  auto created = call(*alice.client, req::create_match(scenario, true));
  const std::string id = created.match_created().match().match_id();
  EXPECT_FALSE(error_of(call(*alice.client, sit(id))));
  EXPECT_TRUE(call(*bob.client, req::join_match(id, client_entropy())).has_match_joined());
  return id;
}

// Both ClosingPickers play up to `commands` accepted commands (all of the game when it ends
// first), each from its legal list and the picture it is for.
int play(Player& alice, Player& bob, const std::string& id, int commands) {
  ClosingPicker pickers[2];
  std::uint64_t seq[2] = {0, 0};
  Player* players[2] = {&alice, &bob};
  int played = 0;
  for (int round = 0; round < 2000 && played < commands; ++round) {
    bool moved = false;
    for (int p = 0; p < 2 && played < commands; ++p) {
      auto legal = call(*players[p]->client, get_legal(id));
      if (!legal.has_legal()) continue;
      v1::Snapshot seen;
      if (legal.legal().legal().has_stand())
        seen = call(*players[p]->client, at_event(id, legal.legal().event_count())).snapshot();
      auto cmd =
          pickers[p].pick(legal.legal().legal(), seen, p == 0 ? rules::Side::kA : rules::Side::kB);
      if (!cmd) continue;
      if (call(*players[p]->client, submit(id, ++seq[p], *cmd)).command_result().accepted()) {
        ++played;
        moved = true;
      }
    }
    if (!moved) break;
  }
  return played;
}

int figures_at(const v1::Snapshot& s, const v1::Coord& hex) {
  for (const auto& t : s.state().stand().tiles()) {
    if (t.hex().col() != hex.col() || t.hex().row() != hex.row() || !t.has_troops()) continue;
    const auto& f = t.troops().figures();
    return f.infantry() + f.archers() + f.cavalry() + f.chariots();
  }
  return 0;
}

int figures_of(const v1::stand::Figures& f) {
  return f.infantry() + f.archers() + f.cavalry() + f.chariots();
}

TEST(GetSnapshotByEvent, EachPlayerSeesHisOwnPictureAfterAnyEventAndNobodyElseDoes) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  Player carol = registered(server.ws_url(), "carol");
  const std::string id = started(alice, bob, "optio/test");
  ASSERT_GE(play(alice, bob, id, 24), 24);
  Player* players[2] = {&alice, &bob};
  // Where each entry's events end, from the players' pictures after each entry.
  std::map<std::uint32_t, std::uint64_t> ends;  // entries -> events after them
  for (std::uint32_t k = 0;; ++k) {
    auto r = call(*alice.client, at_entry(id, k));
    if (!r.has_snapshot()) break;
    ends[k] = r.snapshot().event_count();
  }
  ASSERT_GT(ends.size(), 20u);
  const std::uint64_t all = ends.rbegin()->second;
  int inside = 0;
  int differing = 0;
  for (std::uint32_t k = 1; k < ends.size(); ++k) {
    const std::uint64_t from = ends[k - 1];
    const std::uint64_t to = ends[k];
    std::string hash[2];
    for (int q = 0; q < 2; ++q) {
      // At an entry's end, the entry's own picture, in that player's view.
      auto by_entry = call(*players[q]->client, at_entry(id, k));
      auto by_event = call(*players[q]->client, at_event(id, to));
      ASSERT_TRUE(by_event.has_snapshot()) << by_event.DebugString();
      EXPECT_EQ(by_event.snapshot().event_count(), to);
      if (to > from) {
        EXPECT_EQ(by_event.snapshot().state_hash(), by_entry.snapshot().state_hash())
            << "side " << q << " after entry " << k;
        EXPECT_EQ(by_event.snapshot().entry_count(), k);
      }
      hash[q] = by_event.snapshot().state_hash();
      // Inside the entry: that many events, the entry not yet counted.
      for (std::uint64_t n = from + 1; n < to; ++n) {
        auto mid = call(*players[q]->client, at_event(id, n));
        ASSERT_TRUE(mid.has_snapshot()) << mid.DebugString();
        EXPECT_EQ(mid.snapshot().event_count(), n);
        EXPECT_EQ(mid.snapshot().entry_count(), k - 1);
        inside += q == 0;
      }
    }
    differing += hash[0] != hash[1];
  }
  EXPECT_GT(inside, 0) << "no entry had more than one event: the test shows nothing";
  EXPECT_GT(differing, 0) << "no sealed orders were played: the projections were not compared";
  // Nobody else sees a running match's past, by event either; and nobody sees the future.
  EXPECT_EQ(error_of(call(*carol.client, at_event(id, 1))), v1::ERROR_NOT_SEATED);
  EXPECT_EQ(error_of(call(*alice.client, at_event(id, all + 1))), v1::ERROR_INVALID_REQUEST);
  // Once ended, anyone; the resignation (an entry without events) is in the picture after the
  // whole log by entry, not in the one after the last event.
  ASSERT_FALSE(error_of(call(*bob.client, resign_match(id))));
  auto last_event = call(*carol.client, at_event(id, all));
  ASSERT_TRUE(last_event.has_snapshot()) << last_event.DebugString();
  EXPECT_FALSE(last_event.snapshot().ended());
  auto whole = call(*carol.client, at_entry(id, static_cast<std::uint32_t>(ends.size())));
  ASSERT_TRUE(whole.has_snapshot()) << whole.DebugString();
  EXPECT_TRUE(whole.snapshot().ended());
  EXPECT_EQ(whole.snapshot().event_count(), all);
}

TEST(GetSnapshotByEvent, InsideAStandAttackTheCasualtiesAreNotYetTaken) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  const std::string id = started(alice, bob, "stand/test");
  play(alice, bob, id, 2000);
  auto record = call(*alice.client, export_record(id));
  ASSERT_TRUE(record.has_record()) << "the game did not end: " << record.DebugString();
  // The first entry with an attack and its casualties: the events' numbers of both.
  std::optional<std::uint64_t> attack, casualties;
  v1::Coord hex;
  int lost = 0;
  for (const auto& entry : record.record().entries()) {
    for (int i = 0; i < entry.events_size() && !casualties; ++i) {
      const auto& ev = entry.events(i).stand();
      if (ev.has_attacked()) attack = entry.first_event() + i;
      if (attack && ev.has_casualties() && figures_of(ev.casualties().lost()) > 0) {
        casualties = entry.first_event() + i;
        hex = ev.casualties().hex();
        lost = figures_of(ev.casualties().lost());
      }
    }
    if (casualties) break;
    attack.reset();
  }
  ASSERT_TRUE(attack && casualties) << "no attack took casualties: the test shows nothing";
  ASSERT_LT(*attack, *casualties);
  const auto picture = [&](std::uint64_t n) {
    auto r = call(*alice.client, at_event(id, n));
    EXPECT_TRUE(r.has_snapshot()) << r.DebugString();
    return r.snapshot();
  };
  const int before = figures_at(picture(*attack), hex);
  ASSERT_GT(before, 0);
  // After the attack event, before the casualties: the defender is whole.
  EXPECT_EQ(figures_at(picture(*attack + 1), hex), before);
  EXPECT_EQ(figures_at(picture(*casualties), hex), before);
  // After the casualties event: he has lost them.
  EXPECT_EQ(figures_at(picture(*casualties + 1), hex), std::max(0, before - lost));
}

}  // namespace
}  // namespace castra::testing
