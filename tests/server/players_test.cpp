// Players through the real server (issue 20): a player's page (record, a Glicko-2 rating per
// game, recent matches; the computer's games unrated), who is online, and a rematch offered
// at the end of a match and accepted, sides swapped.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "tests/server/protocol_support.hpp"

namespace castra::testing {
namespace {

namespace req = client::requests;

v1::ClientEnvelope get_player(const std::string& name) {
  v1::ClientEnvelope e;
  e.mutable_get_player()->set_name(name);
  return e;
}

v1::ClientEnvelope guest_login() {
  v1::ClientEnvelope e;
  e.mutable_guest_login();
  return e;
}

v1::ClientEnvelope offer_rematch(const std::string& match_id) {
  v1::ClientEnvelope e;
  e.mutable_offer_rematch()->set_match_id(match_id);
  return e;
}

// Alice creates optio/test as side A and sits; bob joins it (with the code of a private one).
std::string started(Player& alice, Player& bob, v1::ClientEnvelope create) {
  const auto created = call(*alice.client, std::move(create));
  EXPECT_TRUE(created.has_match_created()) << created.DebugString();
  const std::string id = created.match_created().match().match_id();
  EXPECT_FALSE(error_of(call(*alice.client, sit(id))));
  const auto joined = call(*bob.client, req::join_match(id, client_entropy(),
                                                        created.match_created().invitation_code()));
  EXPECT_TRUE(joined.has_match_joined()) << joined.DebugString();
  return id;
}

std::string started(Player& alice, Player& bob) {
  auto create = req::create_match("optio/test", true);
  create.mutable_create_match()->mutable_settings()->set_creator_side(v1::SIDE_A);
  return started(alice, bob, create);
}

// The first push of the kind `has` looks for within a few seconds.
template <class Has>
std::optional<v1::ServerEnvelope> push_of(client::ProtocolClient& c, Has has) {
  std::string error;
  for (int i = 0; i < 50; ++i) {
    auto p = c.next_push(100ms, &error);
    if (p && has(*p)) return p;
  }
  return std::nullopt;
}

TEST(Players, APlayersPageHasHisRecordHisRatingPerGameAndHisRecentMatches) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  const std::string id = started(alice, bob);
  ASSERT_FALSE(error_of(call(*bob.client, resign_match(id))));

  // Against the computer: in the record, not rated.
  auto vs_computer = req::create_match("optio/test", false);
  vs_computer.mutable_create_match()->mutable_settings()->set_computer(v1::COMPUTER_GREEDY);
  const auto created = call(*alice.client, vs_computer);
  ASSERT_TRUE(created.has_match_created()) << created.DebugString();
  const std::string computer_id = created.match_created().match().match_id();
  ASSERT_FALSE(error_of(call(*alice.client, sit(computer_id))));
  ASSERT_FALSE(error_of(call(*alice.client, resign_match(computer_id))));

  // A guest may read it; the name in any case.
  auto guest = greeted_client(server.ws_url());
  ASSERT_TRUE(call(*guest, guest_login()).has_session());
  const auto page = call(*guest, get_player("ALICE"));
  ASSERT_TRUE(page.has_player()) << page.DebugString();
  const v1::PlayerPage& a = page.player();
  EXPECT_EQ(a.name(), "alice");
  EXPECT_TRUE(a.online());
  ASSERT_EQ(a.records_size(), 1);
  EXPECT_EQ(a.records(0).ruleset(), "optio");
  EXPECT_EQ(a.records(0).wins(), 1u);
  EXPECT_EQ(a.records(0).losses(), 1u);
  EXPECT_EQ(a.records(0).draws(), 0u);
  // Two new players (1500, RD 500, volatility 0.09): the winner's Glicko-2 rating after one
  // game, worked out by hand from the paper's steps: 1741.6, RD 396.8.
  ASSERT_EQ(a.ratings_size(), 1);
  EXPECT_EQ(a.ratings(0).ruleset(), "optio");
  EXPECT_NEAR(a.ratings(0).rating(), 1741.6, 1.0);
  EXPECT_NEAR(a.ratings(0).deviation(), 396.8, 1.0);
  EXPECT_TRUE(a.ratings(0).provisional());
  EXPECT_EQ(a.ratings(0).games(), 1u);
  // Newest first: the computer's game, unrated, then bob's.
  ASSERT_EQ(a.recent_size(), 2);
  EXPECT_EQ(a.recent(0).match_id(), computer_id);
  EXPECT_EQ(a.recent(0).opponent(), "Computer (greedy)");
  EXPECT_EQ(a.recent(0).result(), v1::RESULT_LOSS);
  EXPECT_FALSE(a.recent(0).rated());
  EXPECT_EQ(a.recent(1).match_id(), id);
  EXPECT_EQ(a.recent(1).opponent(), "bob");
  EXPECT_EQ(a.recent(1).scenario(), "optio/test");
  EXPECT_EQ(a.recent(1).side(), v1::SIDE_A);
  EXPECT_EQ(a.recent(1).result(), v1::RESULT_WIN);
  EXPECT_TRUE(a.recent(1).rated());
  EXPECT_NEAR(a.recent(1).rating_change(), 241.6, 1.0);
  EXPECT_GT(a.recent(1).ended_ms(), 0);

  const auto b = call(*alice.client, get_player("bob")).player();
  ASSERT_EQ(b.ratings_size(), 1);
  EXPECT_NEAR(b.ratings(0).rating(), 1500.0 - 241.6, 1.0);  // the same game, lost
  EXPECT_EQ(b.records(0).losses(), 1u);
  EXPECT_EQ(b.recent(0).result(), v1::RESULT_LOSS);
  EXPECT_EQ(b.recent(0).side(), v1::SIDE_B);

  EXPECT_EQ(error_of(call(*alice.client, get_player("nobody"))), v1::ERROR_PLAYER_NOT_FOUND);
}

TEST(Players, WhoIsOnlineCountsEachAccountOnceAndGuestsApart) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player zoe = registered(server.ws_url(), "zoe");
  Player bob = registered(server.ws_url(), "bob");
  auto zoe_again = greeted_client(server.ws_url());
  ASSERT_TRUE(call(*zoe_again, req::login("zoe", "zoe-password")).has_session());
  auto guest = greeted_client(server.ws_url());
  ASSERT_TRUE(call(*guest, guest_login()).has_session());
  v1::ClientEnvelope e;
  e.mutable_list_online();
  const auto online = call(*guest, e);
  ASSERT_TRUE(online.has_online()) << online.DebugString();
  EXPECT_EQ(online.online().count(), 2u);
  ASSERT_EQ(online.online().names_size(), 2);
  EXPECT_EQ(online.online().names(0), "bob");
  EXPECT_EQ(online.online().names(1), "zoe");
  EXPECT_EQ(online.online().guests(), 1u);
}

TEST(Rematch, OfferedAtTheEndAcceptedItStartsTheSameBattleWithTheSidesSwapped) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  const std::string id = started(alice, bob);
  EXPECT_EQ(error_of(call(*alice.client, offer_rematch(id))), v1::ERROR_NO_REMATCH);  // live
  ASSERT_FALSE(error_of(call(*bob.client, resign_match(id))));

  const auto offered = call(*alice.client, offer_rematch(id));
  ASSERT_TRUE(offered.has_match_created()) << offered.DebugString();
  const v1::MatchSummary& rematch = offered.match_created().match();
  EXPECT_NE(rematch.match_id(), id);
  EXPECT_EQ(rematch.scenario(), "optio/test");
  EXPECT_EQ(rematch.my_side(), v1::SIDE_B);  // alice was A
  EXPECT_TRUE(rematch.is_private());
  // Asked again: the same match. The opponent may not offer his own now.
  EXPECT_EQ(call(*alice.client, offer_rematch(id)).match_created().match().match_id(),
            rematch.match_id());
  EXPECT_EQ(error_of(call(*bob.client, offer_rematch(id))), v1::ERROR_NO_REMATCH);

  // Bob hears of it once alice has her seat, and accepts by joining.
  ASSERT_FALSE(error_of(call(*alice.client, sit(rematch.match_id()))));
  const auto push =
      push_of(*bob.client, [](const v1::ServerEnvelope& p) { return p.has_rematch_offered(); });
  ASSERT_TRUE(push) << "no RematchOffered";
  EXPECT_EQ(push->rematch_offered().match_id(), id);
  EXPECT_EQ(push->rematch_offered().from(), "alice");
  EXPECT_EQ(push->rematch_offered().rematch().match_id(), rematch.match_id());
  EXPECT_EQ(push->rematch_offered().rematch().my_side(), v1::SIDE_A);
  const auto joined = call(*bob.client, req::join_match(rematch.match_id(), client_entropy(),
                                                        push->rematch_offered().invitation_code()));
  ASSERT_TRUE(joined.has_match_joined()) << joined.DebugString();
  EXPECT_EQ(joined.match_joined().match().status(), v1::MATCH_LIVE);
  EXPECT_EQ(joined.match_joined().match().player_a(), "bob");
  EXPECT_EQ(joined.match_joined().match().player_b(), "alice");
  // Alice is told it has started.
  const auto started_push = push_of(*alice.client, [&](const v1::ServerEnvelope& p) {
    return p.has_match_updated() && p.match_updated().match().match_id() == rematch.match_id() &&
           p.match_updated().match().status() == v1::MATCH_LIVE;
  });
  EXPECT_TRUE(started_push) << "no MatchUpdated for the started rematch";
}

TEST(Rematch, NoneAgainstTheComputer) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  auto create = req::create_match("optio/test", false);
  create.mutable_create_match()->mutable_settings()->set_computer(v1::COMPUTER_RANDOM);
  const std::string id = call(*alice.client, create).match_created().match().match_id();
  ASSERT_FALSE(error_of(call(*alice.client, sit(id))));
  ASSERT_FALSE(error_of(call(*alice.client, resign_match(id))));
  EXPECT_EQ(error_of(call(*alice.client, offer_rematch(id))), v1::ERROR_NO_REMATCH);
}

}  // namespace
}  // namespace castra::testing
