// Cluster.*: three castra-server nodes on one private PostgreSQL (issue 19). Clients start on
// different nodes and follow ERROR_MATCH_ELSEWHERE to the node that hosts their match. One
// node is killed with SIGKILL mid-match: its matches go on on another node once its leases
// have lapsed, every acknowledged command is in the log once, the records verify and the
// spectators saw every event once, in order. Another node is stopped with SIGSTOP past its
// lease and continued: the command it was sent meanwhile is refused (its append is fenced),
// and nothing is acknowledged twice.
#include <gtest/gtest.h>
#include <signal.h>

#include <string>

#include "tests/server/cluster_support.hpp"
#include "tests/server/protocol_support.hpp"
#include "tests/support/postgres_cluster.hpp"

namespace castra::testing {
namespace {

namespace req = client::requests;

constexpr int kLeaseMs = 1500;

// The node hosting `match_id`, as a client finds out: where a subscription is accepted.
int owner_of(Member& asker, const std::string& match_id) {
  v1::ClientEnvelope e;
  e.mutable_subscribe_match()->set_match_id(match_id);
  auto r = asker.ask(e);
  EXPECT_TRUE(r.has_subscribed()) << r.DebugString();
  v1::ClientEnvelope u;
  u.mutable_unsubscribe_match()->set_match_id(match_id);
  asker.ask(u);
  return asker.node();
}

void expect_in_order(const Spectator& s, const std::string& what) {
  const auto numbers = s.numbers();
  EXPECT_TRUE(s.saw_record()) << what;
  ASSERT_FALSE(numbers.empty()) << what;
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    if (numbers[i] != i) {
      ADD_FAILURE() << what << ": event " << i << " came as number " << numbers[i];
      return;
    }
  }
}

TEST(Cluster, MatchesOfBothGamesGoOnAfterTheirNodeIsKilled) {
  const std::string url = PostgresCluster::fresh_database("cluster_kill");
  ASSERT_FALSE(url.empty()) << PostgresCluster::shared().error();
  Rig rig(url, 3, kLeaseMs);
  ASSERT_TRUE(rig.started()) << rig.logs();

  // Optio made on node 0, STAND! on node 1; each joiner starts on another node.
  Member alice(rig, "alice", 0), bob(rig, "bob", 1), carol(rig, "carol", 1), dave(rig, "dave", 2);
  for (Member* m : {&alice, &bob, &carol, &dave})
    ASSERT_TRUE(m->register_account()) << m->name();
  Game optio, stand;
  optio.players[0] = &alice;
  optio.players[1] = &bob;
  stand.players[0] = &carol;
  stand.players[1] = &dave;
  ASSERT_FALSE(open_game(optio, "optio/test").empty());
  ASSERT_FALSE(open_game(stand, "stand/test").empty());
  // A client on another node is sent to the match's node, and plays there.
  EXPECT_EQ(bob.node(), 0);
  EXPECT_EQ(dave.node(), 1);

  Spectator watch_optio(rig, "erin", 2, optio.id), watch_stand(rig, "frank", 2, stand.id);
  ASSERT_TRUE(watch_optio.register_account());
  ASSERT_TRUE(watch_stand.register_account());
  watch_optio.start();
  watch_stand.start();

  for (int round = 0; round < 6; ++round) {
    ASSERT_GE(play_round(optio), 0);
    ASSERT_GE(play_round(stand), 0);
  }
  // Node 0 dies mid-match; Optio goes on elsewhere once node 0's lease has lapsed.
  rig.node(0).signal(SIGKILL);
  rig.node(0).wait(5s);
  const bool optio_ended = play_to_end(optio);
  const bool stand_ended = play_to_end(stand);
  EXPECT_TRUE(optio_ended);
  EXPECT_TRUE(stand_ended);
  EXPECT_NE(alice.node(), 0);
  EXPECT_NE(bob.node(), 0);

  EXPECT_GT(check_record(optio, carol), 10u) << rig.logs();
  EXPECT_GT(check_record(stand, alice), 10u) << rig.logs();
  const std::string logs = rig.logs();
  EXPECT_NE(logs.find("event=match_taken_over match=" + optio.id), std::string::npos) << logs;

  // Spectators on the surviving nodes saw every event once, in order, across the hop.
  for (Spectator* s : {&watch_optio, &watch_stand}) {
    for (int i = 0; i < 400 && !s->saw_record(); ++i)
      std::this_thread::sleep_for(50ms);  // polling a condition, with a deadline
    s->stop();
  }
  expect_in_order(watch_optio, "optio's spectator");
  expect_in_order(watch_stand, "stand's spectator");
  EXPECT_GE(watch_optio.hops(), 2) << "the Optio spectator should have followed the match";
}

TEST(Cluster, APausedNodesLateAppendIsRefusedAndNothingIsAcknowledgedTwice) {
  const std::string url = PostgresCluster::fresh_database("cluster_pause");
  ASSERT_FALSE(url.empty()) << PostgresCluster::shared().error();
  Rig rig(url, 3, kLeaseMs);
  ASSERT_TRUE(rig.started()) << rig.logs();
  Member alice(rig, "alice", 0), bob(rig, "bob", 1), watcher(rig, "grace", 2);
  for (Member* m : {&alice, &bob, &watcher})
    ASSERT_TRUE(m->register_account()) << m->name();
  Game g;
  g.players[0] = &alice;
  g.players[1] = &bob;
  ASSERT_FALSE(open_game(g, "stand/test").empty());
  for (int round = 0; round < 4; ++round)
    ASSERT_GE(play_round(g), 0);
  const int owner = owner_of(watcher, g.id);
  ASSERT_EQ(owner, 0);

  // The next command of a side that has one, sent to node 0 while it is stopped.
  int side = -1;
  v1::GameCommand cmd;
  for (int s = 0; s < 2 && side < 0; ++s) {
    auto legal = g.players[s]->ask(get_legal(g.id));
    ASSERT_TRUE(legal.has_legal()) << legal.DebugString();
    if (auto c = g.sides[s].picker.pick(legal.legal().legal(),
                                        s == 0 ? rules::Side::kA : rules::Side::kB)) {
      side = s;
      cmd = *c;
    }
  }
  ASSERT_GE(side, 0);
  Member late(rig, g.players[side]->name(), 0);
  ASSERT_TRUE(late.open(0));
  const std::uint64_t seq = g.sides[side].next_seq++;
  ASSERT_TRUE(rig.node(0).pause());
  std::string error;
  const auto late_id = late.client()->send(submit(g.id, seq, cmd), &error);
  ASSERT_TRUE(late_id) << error;

  // Meanwhile the same command reaches the match's new node (after node 0's lease lapsed)
  // and is acknowledged there; the match goes on a little.
  auto r = g.players[side]->ask(submit(g.id, seq, cmd));
  ASSERT_TRUE(r.has_command_result()) << r.DebugString();
  ASSERT_TRUE(r.command_result().accepted()) << r.DebugString();
  g.sides[side].acked[seq] = r.command_result().entry();
  EXPECT_NE(g.players[side]->node(), 0);
  for (int round = 0; round < 3; ++round)
    ASSERT_GE(play_round(g), 0);

  // Continued, node 0 answers the command it read while stopped: refused, never accepted.
  rig.node(0).signal(SIGCONT);
  auto answer = late.client()->wait_reply(*late_id, 20s, &error);
  ASSERT_TRUE(answer) << error << "\n" << cluster_events(rig.node(0).log());
  EXPECT_EQ(error_of(*answer), v1::ERROR_MATCH_ELSEWHERE) << answer->DebugString() << "\n"
                                                          << rig.node(0).log();
  EXPECT_FALSE(answer->has_command_result() && answer->command_result().accepted())
      << answer->DebugString();
  // It gave the match up: its append was fenced, or its renewal found the lease lost.
  auto gave_up = [&] {
    const std::string log = rig.node(0).log();
    return log.find("event=append_fenced match=" + g.id) != std::string::npos ||
           log.find("event=lease_lost match=" + g.id) != std::string::npos;
  };
  for (int i = 0; i < 200 && !gave_up(); ++i)
    std::this_thread::sleep_for(50ms);  // polling a condition, with a deadline
  EXPECT_TRUE(gave_up()) << cluster_events(rig.node(0).log());
  EXPECT_NE(rig.node(0).log().find("event=match_released match=" + g.id), std::string::npos);

  // Played to its end where it is now: every acknowledged command in the log once.
  EXPECT_TRUE(play_to_end(g));
  EXPECT_GT(check_record(g, watcher), 5u) << rig.logs();
  // Node 0 serves again: the lobby, and the match's record.
  Member again(rig, "alice", 0);
  ASSERT_TRUE(again.open(0));
  auto exported = again.client()->call(export_record(g.id), 5s, &error);
  ASSERT_TRUE(exported) << error;
  EXPECT_TRUE(exported->has_record()) << exported->DebugString();
}

// Reads `c`'s pushes for `budget`, or until a MatchUpdated of `match_id` came when `until_updated`;
// adds the MatchUpdated and YourMove pushes of `match_id` to the counts.
void count_pushes(client::ProtocolClient& c, const std::string& match_id,
                  std::chrono::milliseconds budget, bool until_updated, int* updated,
                  int* your_moves) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  while (std::chrono::steady_clock::now() < deadline) {
    std::string error;
    auto push = c.next_push(100ms, &error);
    if (!push) continue;
    if (push->has_your_move() && push->your_move().match_id() == match_id) ++*your_moves;
    if (push->has_match_updated() && push->match_updated().match().match_id() == match_id) {
      ++*updated;
      if (until_updated) return;
    }
  }
}

// A node killed or cut off holds its leases until they run out, but stops announcing itself at
// once: once it has missed two of its keeper's rounds, a request for its match is told to ask
// again shortly instead of being sent to it (and back, and to it again). The lease here is far
// longer than the test, and node 0 is paused, so only its announcement's age changes.
TEST(Cluster, ClientsAreNotSentToANodeThatStoppedAnnouncingItself) {
  const std::string url = PostgresCluster::fresh_database("cluster_stale_owner");
  ASSERT_FALSE(url.empty()) << PostgresCluster::shared().error();
  Rig rig(url, 2, 30000);
  ASSERT_TRUE(rig.started()) << rig.logs();
  Member alice(rig, "alice", 0), bob(rig, "bob", 1);
  ASSERT_TRUE(alice.register_account());
  ASSERT_TRUE(bob.register_account());
  Game g;
  g.players[0] = &alice;
  g.players[1] = &bob;
  ASSERT_FALSE(open_game(g, "optio/test").empty());
  Member carol(rig, "carol", 1);
  ASSERT_TRUE(carol.register_account());
  auto where = [&] { return call(*carol.client(), req::subscribe(g.id)); };
  auto first = where();
  ASSERT_EQ(error_of(first), v1::ERROR_MATCH_ELSEWHERE) << first.DebugString();
  EXPECT_EQ(first.error().owner_url(), rig.url(0));

  ASSERT_TRUE(rig.node(0).pause());
  PostgresCluster& db = PostgresCluster::shared();
  ASSERT_TRUE(db.execute(url,
                         "UPDATE cluster_nodes SET seen_at = now() - interval '1 minute' "
                         "WHERE node = 'node-0'"))
      << db.error();
  auto stale = where();
  ASSERT_EQ(error_of(stale), v1::ERROR_MATCH_ELSEWHERE) << stale.DebugString();
  EXPECT_TRUE(stale.error().owner_url().empty()) << stale.DebugString();
  EXPECT_GT(stale.error().retry_after_ms(), 0u);

  // Announced again (as node 0's keeper does once it runs): clients are sent there again.
  ASSERT_TRUE(db.execute(url, "UPDATE cluster_nodes SET seen_at = now() WHERE node = 'node-0'"))
      << db.error();
  EXPECT_EQ(where().error().owner_url(), rig.url(0));
  rig.node(0).signal(SIGCONT);
}

TEST(Cluster, LobbyChangesAndYourMoveReachPlayersOnOtherNodes) {
  const std::string url = PostgresCluster::fresh_database("cluster_notices");
  ASSERT_FALSE(url.empty()) << PostgresCluster::shared().error();
  Rig rig(url, 3, kLeaseMs);
  ASSERT_TRUE(rig.started()) << rig.logs();
  Member alice(rig, "alice", 0), bob(rig, "bob", 2);
  ASSERT_TRUE(alice.register_account());
  ASSERT_TRUE(bob.register_account());
  // Each also has a connection on node 1, which hosts nothing of theirs.
  Member alice_away(rig, "alice", 1), bob_away(rig, "bob", 1);
  ASSERT_TRUE(alice_away.open(1));
  ASSERT_TRUE(bob_away.open(1));
  Game g;
  g.players[0] = &alice;
  g.players[1] = &bob;
  ASSERT_FALSE(open_game(g, "stand/test").empty());
  // Bob's join was made on node 0: alice's connection on node 1 hears of it, from node 0.
  int updated = 0, your_moves = 0;
  count_pushes(*alice_away.client(), g.id, 10s, true, &updated, &your_moves);
  EXPECT_EQ(updated, 1);
  // And whoever has to act hears "your move" there too, move after move.
  for (int round = 0; round < 10; ++round) {
    ASSERT_GE(play_round(g), 0);
    for (Member* away : {&alice_away, &bob_away})
      count_pushes(*away->client(), g.id, 100ms, false, &updated, &your_moves);
  }
  EXPECT_GE(your_moves, 2) << rig.logs();
}

}  // namespace
}  // namespace castra::testing
