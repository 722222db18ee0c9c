// Cluster.*, with castra-client: three castra-server nodes on one private PostgreSQL, the
// client on a node that does not host the match (or the campaigns) it joins from the lobby.
// It is answered ERROR_MATCH_ELSEWHERE, says "Match moved to <url>, reconnecting..." (or
// "Campaigns moved to"), moves its connection to the owner (resuming its session), joins there
// and shows the match (the campaign). And a client watching a match whose owner is killed
// finds it again on the node that took it over, and sees every event of it.
#include <gtest/gtest.h>

#include <signal.h>

#include <string>

#include "tests/client/client_support.hpp"
#include "tests/client/live_seat.hpp"
#include "tests/server/cluster_support.hpp"
#include "tests/server/protocol_support.hpp"
#include "tests/support/postgres_cluster.hpp"

namespace castra::testing {
namespace {

TEST(Cluster, TheSdlClientFollowsTheRedirectToTheMatchsOwner) {
  PostgresCluster& db = PostgresCluster::shared();
  ASSERT_TRUE(db.ok()) << db.error();
  const std::string url = db.create_database("cluster_sdl_client");
  ASSERT_FALSE(url.empty()) << db.error();
  Rig rig(url, 3, 1500);
  ASSERT_TRUE(rig.started()) << rig.logs();

  // alice's match is hosted by node 0, where she made it.
  Member alice(rig, "alice", 0);
  ASSERT_TRUE(alice.register_account());
  auto created = alice.ask(client::requests::create_match("optio/test", /*spectators=*/true));
  ASSERT_TRUE(created.has_match_created()) << created.DebugString();
  const std::string id = created.match_created().match().match_id();
  ASSERT_FALSE(alice.ask(sit(id)).has_error());

  // carol's client reaches node 1 and joins from the lobby. The row's button is named with
  // the match id: a bare "Join" also prefixes "Join code", the private-match button, which
  // sorts first for an id from "d" on.
  const std::string dir = live::dir_for("cluster-join");
  write_file(dir + "/script.txt",
             "wait connected\nclick-button name\ntype carol\n"
             "click-button password\ntype carol-password\nclick-button Register\n"
             "wait screen lobby\nclick-button Join " +
                 id +
                 "\n"
                 "wait message Match moved to " +
                 rig.url(0) +
                 "\nwait message Reconnected\nwait screen match\n"
                 "wait snapshot timeout=30000\nquit\n");
  ClientProcess client(
      dir, {"--server", rig.url(1), "--script", dir + "/script.txt", "--exit-after", "90"});
  ASSERT_EQ(client.wait(std::chrono::seconds(90)), 0) << live::log_of(dir) << rig.logs();

  // The join went through on the owner: alice's legal commands are those of a started match.
  auto legal = alice.ask(get_legal(id));
  EXPECT_TRUE(legal.has_legal()) << legal.DebugString();
  EXPECT_EQ(alice.node(), 0);
}

TEST(Cluster, TheSdlClientFollowsACampaignsJoinToTheNodeHostingTheCampaigns) {
  const std::string url = PostgresCluster::fresh_database("cluster_sdl_campaign");
  ASSERT_FALSE(url.empty()) << PostgresCluster::shared().error();
  Rig rig(url, 3, 1500);
  ASSERT_TRUE(rig.started()) << rig.logs();

  // alice makes a campaign through node 0 and is sent to the node hosting the campaigns.
  Member alice(rig, "alice", 0);
  ASSERT_TRUE(alice.register_account());
  const auto created = alice.ask(create_campaign("test-optio"));
  ASSERT_TRUE(created.has_campaign_created()) << created.DebugString() << rig.logs();
  const std::string id = created.campaign_created().campaign().campaign_id();
  const int host = alice.node();
  const int away = (host + 1) % rig.size();

  // carol's client reaches another node, finds the campaign among the open ones (every node
  // lists campaigns) and joins it by a click: the join is the host's to make.
  const std::string dir = live::dir_for("cluster-campaign-join");
  write_file(dir + "/script.txt",
             "wait connected\nclick-button name\ntype carol\n"
             "click-button password\ntype carol-password\nclick-button Register\n"
             "wait screen lobby\nclick-button Campaigns\nclick-button Open\n"
             "wait button Join " +
                 id + "\nclick-button Join " + id + "\nwait message Campaigns moved to " +
                 rig.url(host) +
                 "\nwait message Reconnected\nwait screen campaign\nwait campaign-stage selecting "
                 "timeout=30000\nframes 2\nscreenshot joined.png\nquit\n");
  ClientProcess client(
      dir, {"--server", rig.url(away), "--script", dir + "/script.txt", "--exit-after", "90"});
  ASSERT_EQ(client.wait(std::chrono::seconds(90)), 0) << live::log_of(dir) << rig.logs();

  // The host seated carol: the campaign is live, carol on side B.
  v1::ClientEnvelope get;
  get.mutable_get_campaign()->set_campaign_id(id);
  const auto view = alice.ask(get);
  ASSERT_TRUE(view.has_campaign()) << view.DebugString();
  EXPECT_EQ(view.campaign().summary().status(), v1::CAMPAIGN_LIVE);
  EXPECT_EQ(view.campaign().summary().player_b(), "carol");
  EXPECT_EQ(alice.node(), host);
}

TEST(Cluster, TheSdlClientFollowsItsMatchToTheNewOwnerWhenTheOwnerIsKilled) {
  const std::string url = PostgresCluster::fresh_database("cluster_sdl_owner_killed");
  ASSERT_FALSE(url.empty()) << PostgresCluster::shared().error();
  Rig rig(url, 3, 1500);
  ASSERT_TRUE(rig.started()) << rig.logs();

  // alice's match lives on node 0; bob joins from node 2 and is sent there.
  Member alice(rig, "alice", 0), bob(rig, "bob", 2);
  ASSERT_TRUE(alice.register_account());
  ASSERT_TRUE(bob.register_account());
  Game g;
  g.players[0] = &alice;
  g.players[1] = &bob;
  ASSERT_FALSE(open_game(g, "optio/test").empty()) << rig.logs();
  for (int round = 0; round < 3; ++round)
    ASSERT_GE(play_round(g), 0);

  // A guest's client on node 1 opens it and is sent to node 0.
  const std::string dir = live::dir_for("cluster-owner-killed");
  const std::string script = dir + "/script.txt";
  write_file(script, "wait message Match moved to " + rig.url(0) +
                         "\nwait snapshot timeout=30000\nprint watching\nfollow\n");
  ClientProcess client(dir, {"--server", rig.url(1), "--guest", "--open", g.id, "--script", script,
                             "--exit-after", "120"});
  ScriptWriter steps(script);
  ASSERT_TRUE(ScriptWriter::wait_for_line(dir, "watching", 60s)) << live::log_of(dir);

  // The owner dies mid-match; the match goes on, on another node, to its end.
  rig.node(0).signal(SIGKILL);
  rig.node(0).wait(5s);
  ASSERT_TRUE(play_to_end(g));
  EXPECT_NE(alice.node(), 0);
  EXPECT_GT(check_record(g, alice), 3u);
  const auto exported = alice.ask(export_record(g.id));
  ASSERT_TRUE(exported.has_record()) << exported.DebugString();
  std::size_t events = 0;
  for (const auto& entry : exported.record().entries())
    events += static_cast<std::size_t>(entry.events_size());

  // The client lost node 0, looked for the match through the address it was given, followed
  // it to its new owner and saw it to its end, which only that owner could show: every event,
  // each shown (none withheld).
  // (Its status line is no witness: the messages of each try scroll "Reconnected." away.)
  ASSERT_TRUE(steps.run("wait ended timeout=60000\nwait events " + std::to_string(events) +
                            " timeout=30000\nwait log-hides-nothing\nframes 2\n"
                            "screenshot ended.png\n",
                        90s, dir))
      << live::log_of(dir) << rig.logs();
  steps.append("quit\n");
  EXPECT_EQ(client.wait(30s), 0) << live::log_of(dir);
}

}  // namespace
}  // namespace castra::testing
