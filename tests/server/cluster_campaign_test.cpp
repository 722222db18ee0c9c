// Cluster.*, campaigns (docs/architecture.md, "Campaigns in a cluster"): one node at a time
// hosts every campaign (the campaigns role), and a campaign's battle is taken over only by
// that node. A campaign made through another node is sent there; a follower on another node
// hears of each change; when the hosting node is killed mid-battle, another node takes the
// role and the battle together, the battle is played to its end there, and the campaign moves
// on to its next battle, which the follower hears of too.
#include <gtest/gtest.h>
#include <signal.h>

#include <functional>
#include <optional>
#include <string>

#include "tests/server/cluster_support.hpp"
#include "tests/server/protocol_support.hpp"
#include "tests/support/postgres_cluster.hpp"

namespace castra::testing {
namespace {

constexpr int kLeaseMs = 1500;

// The first push to `c` within 30 s for which `wanted` holds; nothing after 30 s (or when the
// connection ends), with what was heard last in `*error`.
std::optional<v1::ServerEnvelope> first_push(
    client::ProtocolClient& c, const std::function<bool(const v1::ServerEnvelope&)>& wanted,
    std::string* error) {
  const auto until = std::chrono::steady_clock::now() + 30s;
  while (std::chrono::steady_clock::now() < until) {
    auto push = c.next_push(std::chrono::duration_cast<std::chrono::milliseconds>(
                                until - std::chrono::steady_clock::now()),
                            error);
    if (!push) break;
    if (wanted(*push)) return push;
  }
  return std::nullopt;
}

// The campaign as the CampaignUpdated pushes to `c` bring it, once `done` holds for its
// summary: the hosting node moves it on by itself (after the selections, after a battle) and
// every node tells its followers. A test failure after 30 s.
v1::CampaignSummary pushed_until(client::ProtocolClient& c, const std::string& id,
                                 const std::function<bool(const v1::CampaignSummary&)>& done) {
  v1::CampaignSummary s;
  std::string error;
  const auto push = first_push(
      c,
      [&](const v1::ServerEnvelope& e) {
        if (!e.has_campaign_updated() ||
            e.campaign_updated().campaign().summary().campaign_id() != id) {
          return false;
        }
        s = e.campaign_updated().campaign().summary();
        return done(s);
      },
      &error);
  if (!push) ADD_FAILURE() << "campaign " << id << " never got there: " << s.DebugString() << error;
  return s;
}

// Whether `c` hears (MatchUpdated) that match `id` has begun, both its seats taken, within 30 s.
bool began(client::ProtocolClient& c, const std::string& id) {
  std::string error;
  return first_push(
             c,
             [&](const v1::ServerEnvelope& e) {
               return e.has_match_updated() && e.match_updated().match().match_id() == id &&
                      e.match_updated().match().status() == v1::MATCH_LIVE;
             },
             &error)
      .has_value();
}

// The `my_action` flag of campaign `id` in `m`'s MyCampaigns, as the node `m` is on says it.
bool my_action(Member& m, const std::string& id) {
  v1::ClientEnvelope mine;
  mine.mutable_my_campaigns();
  const auto r = m.ask(mine);
  for (const auto& c : r.campaigns().campaigns()) {
    if (c.campaign_id() == id) return c.my_action();
  }
  ADD_FAILURE() << m.name() << "'s campaigns lack " << id << ": " << r.DebugString();
  return false;
}

TEST(Cluster, ACampaignAndItsBattleGoOnTogetherAfterTheirNodeIsKilled) {
  const std::string url = PostgresCluster::fresh_database("cluster_campaign");
  ASSERT_FALSE(url.empty()) << PostgresCluster::shared().error();
  Rig rig(url, 3, kLeaseMs);
  ASSERT_TRUE(rig.started()) << rig.logs();
  Member alice(rig, "alice", 1), bob(rig, "bob", 2);
  ASSERT_TRUE(alice.register_account());
  ASSERT_TRUE(bob.register_account());

  // Made and joined through whichever node they are on: both end up on the hosting node.
  const auto created = alice.ask(create_campaign("test-optio"));
  ASSERT_TRUE(created.has_campaign_created()) << created.DebugString() << rig.logs();
  const std::string id = created.campaign_created().campaign().campaign_id();
  const int host = alice.node();
  v1::ClientEnvelope join;
  join.mutable_join_campaign()->set_campaign_id(id);
  const auto joined = bob.ask(join);
  ASSERT_TRUE(joined.has_campaign()) << joined.DebugString();
  EXPECT_EQ(bob.node(), host);

  // A follower on another node is served there, and hears of the changes the host makes.
  const int away = (host + 1) % rig.size();
  Member erin(rig, "erin", away);
  ASSERT_TRUE(erin.register_account());
  v1::ClientEnvelope follow;
  follow.mutable_subscribe_campaign()->set_campaign_id(id);
  ASSERT_TRUE(erin.ask(follow).has_campaign());
  EXPECT_EQ(erin.node(), away);

  // "first" takes the whole roster: each player only gives his entropy.
  for (Member* m : {&alice, &bob}) {
    const auto r = m->ask(select(id, "first", v1::Selection()));
    ASSERT_TRUE(r.has_selection_result() && r.selection_result().accepted()) << r.DebugString();
  }
  // The follower on the other node hears the battle begin.
  const auto fighting = pushed_until(*erin.client(), id, [](const v1::CampaignSummary& s) {
    return s.stage() == v1::STAGE_FIGHTING;
  });
  ASSERT_FALSE(fighting.battle_match_id().empty()) << rig.logs();

  Game battle;
  battle.id = fighting.battle_match_id();
  battle.players[0] = &alice;
  battle.players[1] = &bob;
  // The host seats both players after the stage has moved on; then alice is told it began.
  ASSERT_TRUE(began(*alice.client(), battle.id)) << rig.logs();
  int accepted = 0;
  for (int round = 0; round < 4; ++round) {
    const int a = play_round(battle);
    ASSERT_GE(a, 0);
    accepted += a;
  }
  ASSERT_GT(accepted, 0);
  EXPECT_EQ(alice.node(), host) << "a campaign's battle is hosted with its campaign";
  // Whose move it is in the battle, as the players' campaign lists say it: on the node that
  // hosts it (from the match in memory) and on another (from the battle's stored row, which
  // each acknowledged command has written).
  const bool alice_due = my_action(alice, id), bob_due = my_action(bob, id);
  EXPECT_TRUE(alice_due || bob_due) << "someone must act in a battle under way";
  Member alice_away(rig, "alice", away), bob_away(rig, "bob", away);
  ASSERT_TRUE(alice_away.open(away) && bob_away.open(away));
  EXPECT_EQ(my_action(alice_away, id), alice_due);
  EXPECT_EQ(my_action(bob_away, id), bob_due);
  EXPECT_EQ(alice_away.node(), away);

  // The hosting node dies mid-battle: one other node takes the campaigns and the battle.
  rig.node(host).signal(SIGKILL);
  rig.node(host).wait(5s);
  EXPECT_TRUE(play_to_end(battle));
  const int next_host = alice.node();
  EXPECT_NE(next_host, host);
  EXPECT_GT(check_record(battle, erin), 4u) << rig.logs();
  ASSERT_EQ(erin.node(), away) << "the follower should still be on node " << away;
  const std::string log = rig.node(next_host).log();
  EXPECT_NE(log.find("event=campaigns_role_taken"), std::string::npos) << log;
  EXPECT_NE(log.find("event=match_taken_over match=" + battle.id), std::string::npos) << log;

  // The campaign moved on from the battle's record, on its new node: "stand" is selected for.
  const auto next = pushed_until(*erin.client(), id, [](const v1::CampaignSummary& s) {
    return s.stage() == v1::STAGE_SELECTING && s.node() == "stand";
  });
  EXPECT_EQ(next.wins_a() + next.wins_b() + next.draws(), 1u) << next.DebugString();
  // And a change is asked of the new host.
  const auto r = bob.ask(select(id, "stand", v1::Selection()));
  EXPECT_TRUE(r.has_selection_result()) << r.DebugString();
  EXPECT_EQ(bob.node(), next_host);
}

}  // namespace
}  // namespace castra::testing
