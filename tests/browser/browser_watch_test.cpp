// BrowserWatch.*: the watch pages (issue 18) in Debian's chromium, headless, against the real
// castra-server. This program sets the scene (the server, two castra-bot processes playing,
// a private match, a campaign) and runs the browser half, tests/browser/watch_page.py
// (python3-selenium and chromium-driver), whose checks and figures it prints. A missing
// browser, driver or selenium fails the test: nothing here skips.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/server/protocol_support.hpp"
#include "tests/support/server_process.hpp"
#include "tests/support/tool_run.hpp"

namespace castra::testing {
namespace {

namespace req = client::requests;

// Cheap password hashing and the real scenarios, at 2 messages a second: castra-bot paces
// itself at 90% of the announced rate, so the bots' match lasts long enough (tens of seconds)
// to be found on / and watched live; the page paces itself the same way.
std::vector<std::string> server_flags() {
  return {"--argon2-opslimit", "1",      "--argon2-memlimit",     "8192",
          "--durability",      "normal", "--scenarios",           source_dir() + "/scenarios",
          "--message-burst",   "10",     "--messages-per-second", "2"};
}

// Where the screenshots go (the README's come from here).
std::string shots_dir() {
  return binary_dir() + "/tests/browser/screenshots";
}

// A castra-bot process, killed when the test is done with it.
class Bot {
 public:
  Bot(const ServerProcess& server, const std::string& name, std::vector<std::string> seat) {
    std::vector<std::string> args = {binary_dir() + "/tools/bot/castra-bot",
                                     "--server",
                                     server.ws_url(),
                                     "--name",
                                     name,
                                     "--password",
                                     name + "-password",
                                     "--strength",
                                     "greedy",
                                     "--seed",
                                     "7"};
    args.insert(args.end(), seat.begin(), seat.end());
    log_ = server.data_dir() + "/" + name + ".log";
    pid_ = spawn_logged(std::move(args), log_);
  }
  ~Bot() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  Bot(const Bot&) = delete;
  Bot& operator=(const Bot&) = delete;
  std::string log() const { return run_tool("cat " + log_).out; }

 private:
  pid_t pid_ = -1;
  std::string log_;
};

// The browser half: its exit code is the verdict, its lines the checks and figures.
ToolRun browse(const std::string& mode, const ServerProcess& server, const std::string& more) {
  const std::string command = "/usr/bin/python3 " + source_dir() + "/tests/browser/watch_page.py " +
                              mode + " --port " + std::to_string(server.port()) + " --out " +
                              shots_dir() + " " + more;
  ToolRun r = run_tool(command);
  std::printf("%s", r.out.c_str());
  return r;
}

TEST(BrowserWatch, AssetsHaveStrongETagsContentTypesAndWeighUnder100KB) {
  ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  const ToolRun r = browse("assets", server, "");
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

// The page's WebSocket is a connection like any other: with the page open, fewer raw
// connections from the same address are let in than with it closed.
TEST(BrowserWatch, ThePagesConnectionsCountAgainstThePerAddressLimit) {
  std::vector<std::string> flags = server_flags();
  flags.insert(flags.end(), {"--max-connections-per-address", "8"});
  ServerProcess server(flags);
  ASSERT_TRUE(server.started()) << server.log();
  const ToolRun r = browse("limit", server, "--limit 8");
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

// Two bots play `scenario`; the browser finds their match on /, watches it live to the end,
// then checks the revealed orders cards, the seed check and the replay slider.
void watch_bots(const std::string& scenario, const std::string& game) {
  ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Bot creator(server, game + "-creator", {"--create", scenario});
  Bot joiner(server, game + "-joiner", {"--join-open", "--scenario", scenario});
  const ToolRun r = browse("match", server, "--scenario " + scenario + " --game " + game);
  EXPECT_EQ(r.exit_code, 0) << r.out << "\n" << creator.log() << joiner.log();
}

TEST(BrowserWatch, FollowsAnOptioMatchOfTwoBotsLiveThenRevealsAndReplaysIt) {
  watch_bots("optio/training", "optio");
}

TEST(BrowserWatch, FollowsAStandMatchOfTwoBotsLiveThenReplaysIt) {
  watch_bots("stand/qadesh", "stand");
}

TEST(BrowserWatch, APrivateMatchsLinkNeedsItsInvitationCode) {
  ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  auto created = call(*alice.client, req::create_match("optio/training", true, /*private=*/true));
  ASSERT_TRUE(created.has_match_created()) << created.DebugString();
  const std::string id = created.match_created().match().match_id();
  const std::string code = created.match_created().invitation_code();
  ASSERT_FALSE(error_of(call(*alice.client, sit(id))));
  const ToolRun r = browse("private", server, "--match " + id + " --code " + code);
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

TEST(BrowserWatch, ACampaignsPageShowsItsSidesAndStage) {
  ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  v1::ClientEnvelope create;
  auto* c = create.mutable_create_campaign();
  c->set_definition("hannibal-in-italy");
  c->mutable_settings()->set_creator_side(v1::SIDE_A);
  c->mutable_settings()->set_spectators_allowed(true);
  c->mutable_settings()->mutable_battle()->set_spectators_allowed(true);
  auto created = call(*alice.client, create);
  ASSERT_TRUE(created.has_campaign_created()) << created.DebugString();
  const std::string id = created.campaign_created().campaign().campaign_id();
  v1::ClientEnvelope join;
  join.mutable_join_campaign()->set_campaign_id(id);
  ASSERT_TRUE(call(*bob.client, join).has_campaign()) << "bob joins";
  const ToolRun r = browse("campaign", server, "--campaign " + id + " --players alice,bob");
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

}  // namespace
}  // namespace castra::testing
