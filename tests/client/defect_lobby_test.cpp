// Issue 20, defect 7: a lobby row's texts ran into each other ("spectators 1 turns behind"
// ran into the Players column). Under Xvfb against the real server, at the smallest window
// and the default one: every text of a row stays in its own box, inside the row, clear of the
// buttons, and the spectators' delay reads "1 turn behind" in full.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "client/net/protocol_client.hpp"
#include "tests/client/client_support.hpp"
#include "tests/support/server_process.hpp"

namespace castra {
namespace {

using namespace std::chrono_literals;
using testing::Picture;
namespace req = client::requests;

bool overlap(const SDL_Rect& a, const SDL_Rect& b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

bool within(const SDL_Rect& inner, const SDL_Rect& outer) {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w &&
         inner.y + inner.h <= outer.y + outer.h;
}

std::string rect_text(const SDL_Rect& r) {
  return std::to_string(r.x) + "," + std::to_string(r.y) + " " + std::to_string(r.w) + "x" +
         std::to_string(r.h);
}

TEST(ClientDefect, LobbyRowTextDoesNotOverlap) {
  testing::ServerProcess server({"--argon2-opslimit", "1", "--argon2-memlimit", "8192"});
  ASSERT_TRUE(server.started()) << server.log();
  // A STAND! match with a long title and long armies, spectators one turn behind.
  std::string error;
  auto alice = client::ProtocolClient::connect(server.ws_url(), 5s, &error);
  ASSERT_TRUE(alice && alice->hello(5s, &error)) << error;
  ASSERT_TRUE(alice->call(req::register_account("alice", "alice-password"), 10s, &error));
  auto create = req::create_match("stand/qadesh-ambush", true);
  create.mutable_create_match()->mutable_settings()->set_spectator_delay_turns(1);
  create.mutable_create_match()->mutable_settings()->set_creator_side(v1::SIDE_A);
  const auto created = alice->call(create, 10s, &error);
  ASSERT_TRUE(created && created->has_match_created()) << error;
  const std::string id = created->match_created().match().match_id();
  v1::ClientEnvelope sit;
  sit.mutable_provide_entropy()->set_match_id(id);
  sit.mutable_provide_entropy()->set_entropy(std::string(32, 'a'));
  ASSERT_TRUE(alice->call(sit, 10s, &error));

  // At 800x560 as a guest (a player's battle picker leaves that window no room for a row),
  // at 1280x800 as a player, whose row has its Join button.
  for (const auto& [w, h] : {std::pair{800, 560}, std::pair{1280, 800}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    const bool guest = w == 800;
    const std::string dir = testing::make_temp_dir("castra-defect-lobby-row");
    const std::string sign_in = guest ? "click-button Watch as guest\n"
                                      : "click-button name\ntype bob\nclick-button password\n"
                                        "type bob-password\nclick-button Register\n";
    // Waits only on what a client from before the fix knows too (CASTRA_CLIENT may name one).
    const std::string row_drawn = guest ? "" : "wait button Join " + id + "\n";
    testing::write_file(dir + "/script.txt", "wait connected\n" + sign_in +
                                                 "wait screen lobby\nwait idle\n" + row_drawn +
                                                 "frames 3\nscreenshot lobby.png\nquit\n");
    ASSERT_EQ(testing::run_client(
                  dir, {"--server", server.ws_url(), "--script", dir + "/script.txt", "--width",
                        std::to_string(w), "--height", std::to_string(h), "--exit-after", "100"}),
              0)
        << testing::read_file(dir + "/client.log");
    auto p = Picture::load(dir + "/lobby.png");
    ASSERT_TRUE(p);
    const auto row = p->region("lobby-row " + id);
    ASSERT_TRUE(row);
    // Every text the row drew, by name, and the button beside them.
    std::vector<std::pair<std::string, SDL_Rect>> texts;
    for (const std::string prefix : {"lobby-title ", "lobby-game ", "lobby-player ", "lobby-army ",
                                     "lobby-about ", "lobby-state "}) {
      for (auto& named : p->regions_starting(prefix + id))
        texts.push_back(named);
    }
    ASSERT_GE(texts.size(), 8u) << "title, game, two players, two armies, about, state";
    const auto join = p->widget("Join " + id);
    EXPECT_EQ(join.has_value(), !guest) << "a player's row has its Join button";
    for (std::size_t i = 0; i < texts.size(); ++i) {
      EXPECT_TRUE(within(texts[i].second, *row))
          << texts[i].first << " at " << rect_text(texts[i].second) << " leaves the row";
      if (join) {
        EXPECT_FALSE(overlap(texts[i].second, *join)) << texts[i].first << " runs into Join";
      }
      for (std::size_t j = i + 1; j < texts.size(); ++j) {
        EXPECT_FALSE(overlap(texts[i].second, texts[j].second))
            << texts[i].first << " (" << rect_text(texts[i].second) << ") runs into "
            << texts[j].first << " (" << rect_text(texts[j].second) << ")";
      }
    }
    // The delay in words, whole: "1 turn", not "1 turns", and not cut off.
    const auto about = p->regions_starting("lobby-about " + id);
    ASSERT_EQ(about.size(), 1u);
    EXPECT_NE(about[0].first.find("Spectators 1 turn behind."), std::string::npos)
        << about[0].first;
    EXPECT_EQ(about[0].first.find("1 turns"), std::string::npos) << about[0].first;
  }
}

}  // namespace
}  // namespace castra
