// Players in castra-client against the real castra-server (issue 20): the lobby's rows with
// each battle's title, armies and description, who is online, a player's page opened from his
// name, and a rematch offered and accepted from the end screen. Screenshots are looked at.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>

#include "client/net/protocol_client.hpp"
#include "tests/client/client_support.hpp"
#include "tests/support/server_process.hpp"

namespace castra {
namespace {

using namespace std::chrono_literals;
using testing::Picture;
namespace req = client::requests;

std::vector<std::string> server_flags() {
  return {"--argon2-opslimit", "1", "--argon2-memlimit", "8192"};
}

std::string log_of(const std::string& dir) {
  return testing::read_file(dir + "/client.log");
}

// A player speaking the protocol from the test.
struct Peer {
  std::unique_ptr<client::ProtocolClient> c;

  static Peer registered(const std::string& url, const std::string& name) {
    Peer p;
    std::string error;
    p.c = client::ProtocolClient::connect(url, 5s, &error);
    EXPECT_TRUE(p.c) << error;
    EXPECT_TRUE(p.c && p.c->hello(5s, &error)) << error;
    EXPECT_TRUE(p.call(req::register_account(name, name + "-password")).has_session());
    return p;
  }
  v1::ServerEnvelope call(v1::ClientEnvelope e) {
    std::string error;
    auto r = c->call(std::move(e), 10s, &error);
    EXPECT_TRUE(r) << error;
    return r ? *r : v1::ServerEnvelope{};
  }
  // Creates `scenario` as side A with spectators `delay` turns behind, and takes the side.
  std::string create(const std::string& scenario, std::uint32_t delay) {
    auto e = req::create_match(scenario, true);
    e.mutable_create_match()->mutable_settings()->set_creator_side(v1::SIDE_A);
    e.mutable_create_match()->mutable_settings()->set_spectator_delay_turns(delay);
    const auto r = call(e);
    EXPECT_TRUE(r.has_match_created()) << r.DebugString();
    const std::string id = r.match_created().match().match_id();
    v1::ClientEnvelope p;
    p.mutable_provide_entropy()->set_match_id(id);
    p.mutable_provide_entropy()->set_entropy(std::string(32, 'a'));
    EXPECT_TRUE(call(p).has_done());
    return id;
  }
  void resign(const std::string& id) {
    v1::ClientEnvelope e;
    e.mutable_resign()->set_match_id(id);
    EXPECT_TRUE(call(e).has_done());
  }
  // The first push `has` accepts within `timeout`.
  template <class Has>
  std::optional<v1::ServerEnvelope> push(Has has, std::chrono::seconds timeout) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    std::string error;
    while (std::chrono::steady_clock::now() < until) {
      auto p = c->next_push(100ms, &error);
      if (p && has(*p)) return p;
    }
    return std::nullopt;
  }
};

std::string sign_in(const std::string& name) {
  return "wait connected\nclick-button name\ntype " + name + "\nclick-button password\ntype " +
         name + "-password\nclick-button Log in\nwait screen lobby\n";
}

// Alice beat bob at Cannae; carol, in the lobby, sees the match's row (the battle's title,
// both armies, the battle in a sentence), who is online, and opens alice's page from her name.
TEST(ClientPlayers, TheLobbyDescribesEachMatchAndANameOpensThePlayersPage) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Peer alice = Peer::registered(server.ws_url(), "alice");
  Peer bob = Peer::registered(server.ws_url(), "bob");
  Peer::registered(server.ws_url(), "carol");
  const std::string id = alice.create("optio/cannae", 0);
  ASSERT_TRUE(bob.call(req::join_match(id, std::string(32, 'b'))).has_match_joined());
  bob.resign(id);

  const std::string dir = testing::make_temp_dir("castra-client-players");
  testing::write_file(dir + "/script.txt", sign_in("carol") +
                                               "click-button Finished\n"
                                               "wait region lobby-row " +
                                               id +
                                               "\n"
                                               "wait region online alice\n"
                                               "frames 3\nscreenshot lobby.png\n"
                                               "click-region lobby-player " +
                                               id +
                                               " A\n"
                                               "wait screen player\n"
                                               "wait region rating optio 1742?\n"
                                               "frames 3\nscreenshot page.png\n"
                                               "click-button Back\nwait screen lobby\nquit\n");
  ASSERT_EQ(testing::run_client(dir, {"--server", server.ws_url(), "--script", dir + "/script.txt",
                                      "--exit-after", "100"}),
            0)
      << log_of(dir);

  auto lobby = Picture::load(dir + "/lobby.png");
  ASSERT_TRUE(lobby);
  // The row names the battle by its title and both armies, and says what it is about.
  EXPECT_TRUE(lobby->region("online-count 3")) << "alice, bob and carol are online";
  for (const std::string name : {"alice", "bob", "carol"})
    EXPECT_TRUE(lobby->region("online " + name)) << name;
  EXPECT_TRUE(lobby->region("lobby-army " + id + " A"));
  EXPECT_TRUE(lobby->region("lobby-army " + id + " B"));

  auto page = Picture::load(dir + "/page.png");
  ASSERT_TRUE(page);
  // Two new players, one game: alice's Glicko-2 rating is 1741.6, provisional (RD 396.8),
  // worked out by hand from the paper's steps.
  EXPECT_TRUE(page->region("rating optio 1742?"));
  EXPECT_TRUE(page->region("record optio 1 won, 0 lost, 0 drawn"));
  EXPECT_TRUE(page->region("recent " + id + " won"));
}

// Bob resigns; alice, in the client, offers a rematch from the end screen; bob accepts (by
// joining it) and alice's client moves to the new match, where she now plays side B.
TEST(ClientPlayers, ARematchOfferedFromTheEndScreenMovesBothToTheNewMatch) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Peer alice_setup = Peer::registered(server.ws_url(), "alice");
  Peer bob = Peer::registered(server.ws_url(), "bob");
  const std::string id = alice_setup.create("optio/training", 0);
  ASSERT_TRUE(bob.call(req::join_match(id, std::string(32, 'b'))).has_match_joined());
  alice_setup.c.reset();

  const std::string dir = testing::make_temp_dir("castra-client-rematch");
  testing::ScriptWriter script(dir + "/script.txt");
  script.append(sign_in("alice") + "click-button My matches\nclick-button Open " + id +
                "\nwait screen match\nwait snapshot timeout=30000\nfollow\n");
  testing::ClientProcess client(
      dir, {"--server", server.ws_url(), "--script", dir + "/script.txt", "--exit-after", "110"});
  ASSERT_TRUE(script.run("wait idle\n", 60s, dir)) << log_of(dir);
  bob.resign(id);
  ASSERT_TRUE(
      script.run("wait end-screen\nwait button Offer rematch\nframes 3\n"
                 "screenshot end.png\nclick-button Offer rematch\n"
                 "wait message Rematch offered\nframes 3\nscreenshot offered.png\n",
                 60s, dir))
      << log_of(dir);
  const auto offer =
      bob.push([](const v1::ServerEnvelope& p) { return p.has_rematch_offered(); }, 20s);
  ASSERT_TRUE(offer) << "bob was not offered the rematch";
  const auto& o = offer->rematch_offered();
  EXPECT_EQ(o.from(), "alice");
  const auto joined =
      bob.call(req::join_match(o.rematch().match_id(), std::string(32, 'c'), o.invitation_code()));
  ASSERT_TRUE(joined.has_match_joined()) << joined.DebugString();
  EXPECT_EQ(joined.match_joined().match().player_a(), "bob");
  EXPECT_EQ(joined.match_joined().match().player_b(), "alice");
  ASSERT_TRUE(
      script.run("wait message The rematch begins\nwait snapshot timeout=30000\n"
                 "frames 3\nscreenshot rematch.png\n",
                 60s, dir))
      << log_of(dir);
  script.append("quit\n");
  ASSERT_EQ(client.wait(60s), 0) << log_of(dir);

  auto end = Picture::load(dir + "/end.png");
  ASSERT_TRUE(end);
  EXPECT_TRUE(end->widget("Offer rematch"));
  EXPECT_TRUE(end->region("rematch"));
  auto rematch = Picture::load(dir + "/rematch.png");
  ASSERT_TRUE(rematch);
  EXPECT_TRUE(rematch->cell(1, 1)) << "the new match's board is drawn (Optio counts from 1)";
}

// Alice offers from the protocol; bob's client shows the offer on the end screen and his click
// on "Accept rematch" joins him to it, now side A.
TEST(ClientPlayers, TheOpponentsOfferIsAcceptedFromTheEndScreen) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Peer alice = Peer::registered(server.ws_url(), "alice");
  Peer bob_setup = Peer::registered(server.ws_url(), "bob");
  const std::string id = alice.create("optio/training", 0);
  ASSERT_TRUE(bob_setup.call(req::join_match(id, std::string(32, 'b'))).has_match_joined());
  bob_setup.c.reset();

  const std::string dir = testing::make_temp_dir("castra-client-accept-rematch");
  testing::ScriptWriter script(dir + "/script.txt");
  script.append(sign_in("bob") + "click-button My matches\nclick-button Open " + id +
                "\nwait screen match\nwait snapshot timeout=30000\nfollow\n");
  testing::ClientProcess client(
      dir, {"--server", server.ws_url(), "--script", dir + "/script.txt", "--exit-after", "110"});
  ASSERT_TRUE(script.run("wait idle\n", 60s, dir)) << log_of(dir);
  alice.resign(id);
  ASSERT_TRUE(script.run("wait end-screen\n", 60s, dir)) << log_of(dir);
  v1::ClientEnvelope e;
  e.mutable_offer_rematch()->set_match_id(id);
  const auto created = alice.call(e);
  ASSERT_TRUE(created.has_match_created()) << created.DebugString();
  const std::string rematch_id = created.match_created().match().match_id();
  v1::ClientEnvelope sit;
  sit.mutable_provide_entropy()->set_match_id(rematch_id);
  sit.mutable_provide_entropy()->set_entropy(std::string(32, 'd'));
  ASSERT_TRUE(alice.call(sit).has_done());
  ASSERT_TRUE(
      script.run("wait button Accept rematch\nframes 3\nscreenshot offer.png\n"
                 "click-button Accept rematch\nwait message Joined\n"
                 "wait snapshot timeout=30000\nframes 3\nscreenshot accepted.png\n",
                 60s, dir))
      << log_of(dir);
  script.append("quit\n");
  ASSERT_EQ(client.wait(60s), 0) << log_of(dir);
  const auto started = alice.push(
      [&](const v1::ServerEnvelope& p) {
        return p.has_match_updated() && p.match_updated().match().match_id() == rematch_id &&
               p.match_updated().match().status() == v1::MATCH_LIVE;
      },
      20s);
  ASSERT_TRUE(started) << "the rematch did not start";
  EXPECT_EQ(started->match_updated().match().player_a(), "bob");
  auto offer = Picture::load(dir + "/offer.png");
  ASSERT_TRUE(offer);
  EXPECT_TRUE(offer->widget("Accept rematch"));
}

}  // namespace
}  // namespace castra
