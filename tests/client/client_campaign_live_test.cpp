// castra-client's campaigns against the real castra-server (the test campaign of
// tests/data/scenarios/campaigns/test-optio.json): alice creates one in the lobby by clicks, bob
// joins over the protocol, a guest's client follows it live, alice seals her selections by
// clicks (the whole army for the first battle; then a choice the server refuses, naming the
// rule, and one it takes), goes to the battle and back, and finds the campaign in the lobby's
// "My campaigns" with her action due.
#include <gtest/gtest.h>

#include <set>

#include "client/net/protocol_client.hpp"
#include "client/sdl/theme.hpp"
#include "tests/client/client_support.hpp"
#include "tests/support/server_process.hpp"

namespace castra {
namespace {

using namespace std::chrono_literals;
using testing::Picture;
using testing::rgb;
namespace theme = client::theme;

std::string password_of(const std::string& name) {
  return name + "-password";
}

// A player speaking the protocol from the test.
struct Player {
  std::unique_ptr<client::ProtocolClient> c;

  static Player registered(const std::string& url, const std::string& name) {
    Player p;
    std::string error;
    p.c = client::ProtocolClient::connect(url, 5s, &error);
    EXPECT_TRUE(p.c) << error;
    if (!p.c) return p;
    EXPECT_TRUE(p.c->hello(5s, &error)) << error;
    EXPECT_TRUE(p.call(client::requests::register_account(name, password_of(name))).has_session());
    return p;
  }
  v1::ServerEnvelope call(v1::ClientEnvelope e) {
    std::string error;
    auto r = c->call(std::move(e), 10s, &error);
    EXPECT_TRUE(r) << error;
    return r ? *r : v1::ServerEnvelope{};
  }
  v1::CampaignView view(const std::string& id) {
    v1::ClientEnvelope e;
    e.mutable_get_campaign()->set_campaign_id(id);
    const auto r = call(e);
    EXPECT_TRUE(r.has_campaign()) << r.DebugString();
    return r.campaign();
  }
};

std::string log_of(const std::string& dir) {
  return testing::read_file(dir + "/client.log");
}

TEST(ClientLiveCampaign, CreatedInTheLobbyFollowedLiveAndItsSelectionsSealedByClicks) {
  testing::ServerProcess server({"--argon2-opslimit", "1", "--argon2-memlimit", "8192",
                                 "--scenarios", testing::source_dir() + "/tests/data/scenarios",
                                 "--log-level", "debug"});
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = Player::registered(server.ws_url(), "alice");
  Player bob = Player::registered(server.ws_url(), "bob");

  // Alice creates the campaign by clicks in the lobby's campaigns.
  const std::string dir = testing::make_temp_dir("castra-client-campaign-live");
  const std::string script = dir + "/script.txt";
  testing::write_file(script,
                      "wait screen lobby timeout=30000\n"
                      "click-button Campaigns\n"
                      "click-button Definition test-optio\n"
                      "click-button Campaign side A\n"
                      "click-button Create campaign\n"
                      "wait screen campaign\nwait campaign\nframes 2\nscreenshot open.png\n"
                      "print created\nfollow\n");
  testing::ClientProcess client(
      dir, {"--server", server.ws_url(), "--name", "alice", "--password", password_of("alice"),
            "--script", script, "--exit-after", "240"});
  testing::ScriptWriter steps(script);
  ASSERT_TRUE(testing::ScriptWriter::wait_for_line(dir, "created", 60s)) << log_of(dir);

  // The server holds what the form said; bob finds it open and joins.
  v1::ClientEnvelope list;
  list.mutable_list_campaigns()->set_status(v1::CAMPAIGN_OPEN);
  const auto open = bob.call(list);
  ASSERT_EQ(open.campaigns().campaigns_size(), 1) << open.DebugString();
  const v1::CampaignSummary created = open.campaigns().campaigns(0);
  const std::string id = created.campaign_id();
  EXPECT_EQ(created.definition(), "test-optio");
  EXPECT_EQ(created.player_a(), "alice");
  EXPECT_EQ(created.settings().selection_days(), 3u);
  EXPECT_EQ(created.settings().battle().time_control().kind(), v1::TimeControl::CORRESPONDENCE);
  v1::ClientEnvelope join;
  join.mutable_join_campaign()->set_campaign_id(id);
  const auto joined = bob.call(join);
  ASSERT_TRUE(joined.has_campaign()) << joined.DebugString();
  ASSERT_EQ(joined.campaign().summary().node(), "first");

  // A guest's client follows the campaign: the pushes bring each stage.
  const std::string watch_dir = testing::make_temp_dir("castra-client-campaign-watch");
  testing::write_file(watch_dir + "/script.txt",
                      "wait campaign-stage selecting timeout=30000\nframes 2\n"
                      "screenshot watch.png\nprint watching\n"
                      "wait campaign-stage fighting timeout=60000\nframes 2\n"
                      "screenshot fighting.png\nquit\n");
  testing::ClientProcess watcher(
      watch_dir, {"--server", server.ws_url(), "--guest", "--open-campaign", id, "--script",
                  watch_dir + "/script.txt", "--exit-after", "120"});
  ASSERT_TRUE(testing::ScriptWriter::wait_for_line(watch_dir, "watching", 60s))
      << log_of(watch_dir);

  // The first battle is fought whole: alice seals her entropy by a click.
  ASSERT_TRUE(
      steps.run("wait campaign-stage selecting\nclick-button Seal the whole army\n"
                "wait selection-sealed\nframes 2\nscreenshot sealed.png\n",
                60s, dir))
      << log_of(dir);
  const auto seen_by_bob = bob.view(id);
  EXPECT_TRUE(seen_by_bob.summary().selection_in_a());
  EXPECT_FALSE(seen_by_bob.selection_commitment_a().empty());
  v1::ClientEnvelope bob_selects;
  bob_selects.mutable_submit_selection()->set_campaign_id(id);
  bob_selects.mutable_submit_selection()->set_node("first");
  bob_selects.mutable_submit_selection()->set_entropy(std::string(32, 'b'));
  const auto bob_sealed = bob.call(bob_selects);
  ASSERT_TRUE(bob_sealed.selection_result().accepted()) << bob_sealed.DebugString();
  EXPECT_EQ(watcher.wait(60s), 0) << log_of(watch_dir);

  // The battle begins; alice goes to it and comes back.
  ASSERT_TRUE(
      steps.run("wait campaign-stage fighting\nclick-button Go to the battle\n"
                "wait screen match\nwait snapshot timeout=30000\nframes 2\n"
                "screenshot battle.png\nclick-button Back to lobby\n"
                "wait screen campaign\n",
                60s, dir))
      << log_of(dir);
  const auto fighting = bob.view(id);
  ASSERT_EQ(fighting.summary().stage(), v1::STAGE_FIGHTING);
  // Bob resigns the battle: side A won it, and the pursuit (two units at most) is next.
  v1::ClientEnvelope resign;
  resign.mutable_resign()->set_match_id(fighting.summary().battle_match_id());
  ASSERT_TRUE(bob.call(resign).has_done());

  // In the lobby the campaign is alice's with her action due; back in it she picks three of
  // two, then a choice the rules refuse, then one they take.
  ASSERT_TRUE(
      steps.run("wait campaign-stage selecting\nclick-button Back to lobby\n"
                "wait screen lobby\nwait button Open " +
                    id +
                    "\nframes 2\nscreenshot lobby.png\n"
                    "click-button Open " +
                    id +
                    "\nwait campaign-stage selecting\n"
                    "click-button Pick unit 1\nclick-button Pick unit 2\n"
                    "click-button Pick unit 3\nframes 2\n"
                    "expect disabled Submit selection\nscreenshot over.png\n"
                    "click-button Pick unit 2\nclick-button Pick leader 1\n"
                    "click-button Submit selection\n"
                    "wait message campaign.selection.command\nframes 2\n"
                    "screenshot refused.png\n"
                    "click-button Pick leader 2\nclick-button Submit selection\n"
                    "wait selection-sealed\nframes 2\nscreenshot sealed2.png\n",
                90s, dir))
      << log_of(dir);
  // The first battle's replay: its revealed seed matches the dice commitment the campaign
  // showed before the selections gave their entropy.
  ASSERT_TRUE(steps.run("click-button Replay " + fighting.summary().battle_match_id() +
                            "\nwait screen match\nwait record timeout=30000\nwait seed-ok\n"
                            "click-button Leave replay\nclick-button Back to lobby\n"
                            "wait screen campaign\n",
                        60s, dir))
      << log_of(dir);
  steps.append("quit\n");
  EXPECT_EQ(client.wait(60s), 0) << log_of(dir);

  // What the server took: the two units and both leaders, sealed for the pursuit.
  const auto after = bob.view(id);
  EXPECT_EQ(after.summary().node(), "pursuit");
  EXPECT_TRUE(after.summary().selection_in_a());
  EXPECT_FALSE(after.selection_commitment_a().empty());
  const auto mine = alice.view(id);
  ASSERT_TRUE(mine.has_my_selection()) << mine.DebugString();
  EXPECT_EQ(std::set<int>(mine.my_selection().units().begin(), mine.my_selection().units().end()),
            (std::set<int>{1, 3}));
  EXPECT_EQ(
      std::set<int>(mine.my_selection().leaders().begin(), mine.my_selection().leaders().end()),
      (std::set<int>{1, 2}));

  // The pictures: the graph of the campaign as created; the guest's banner and no picker; the
  // gold row of the lobby; the count in red above the limit; the picker gone once sealed.
  auto open_png = Picture::load(dir + "/open.png");
  ASSERT_TRUE(open_png);
  for (const char* node : {"first", "pursuit", "stand", "last"})
    EXPECT_TRUE(open_png->region(std::string("node ") + node)) << node;
  auto watch = Picture::load(watch_dir + "/watch.png");
  ASSERT_TRUE(watch);
  EXPECT_TRUE(watch->region("spectator-banner"));
  EXPECT_FALSE(watch->region("picker"));
  auto watch_fighting = Picture::load(watch_dir + "/fighting.png");
  ASSERT_TRUE(watch_fighting);
  EXPECT_TRUE(watch_fighting->region("current-node"));
  auto lobby = Picture::load(dir + "/lobby.png");
  ASSERT_TRUE(lobby);
  const auto open_button = lobby->widget("Open " + id);
  ASSERT_TRUE(open_button);
  EXPECT_EQ(lobby->at(open_button->x - 12, open_button->y + 2), 0x5A4A1Eu)
      << "the row of a campaign with an action due is gold";
  auto over = Picture::load(dir + "/over.png");
  ASSERT_TRUE(over && over->region("picker-count"));
  const SDL_Rect count = *over->region("picker-count");
  EXPECT_GT(over->count(rgb(theme::kError), count), count.w * count.h * 2 / 5);
  auto sealed = Picture::load(dir + "/sealed2.png");
  ASSERT_TRUE(sealed);
  EXPECT_FALSE(sealed->region("picker"));
}

}  // namespace
}  // namespace castra
