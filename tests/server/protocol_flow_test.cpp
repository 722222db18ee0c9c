// The protocol end to end, with the real server as a process and real WebSocket clients on
// 127.0.0.1: accounts, the lobby, chat, wss://, the admin socket, forwarded addresses and
// the metrics. Every case runs in both encodings (ProtocolFlow.X binary,
// JsonProtocol.ProtocolFlow_X in JSON).
#include <gtest/gtest.h>

#include <filesystem>

#include "common/match/crypto.hpp"
#include "common/match/fair_dice.hpp"
#include "server/store/database.hpp"
#include "tests/server/protocol_support.hpp"

namespace castra::testing {
namespace {

using client::ProtocolClient;
namespace req = client::requests;

// The next push of the given kind, skipping others; an empty envelope if none in time.
v1::ServerEnvelope push_of(ProtocolClient& c, v1::ServerEnvelope::BodyCase kind,
                           std::chrono::milliseconds timeout = 5s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    std::string error;
    auto push = c.next_push(std::chrono::duration_cast<std::chrono::milliseconds>(
                                deadline - std::chrono::steady_clock::now()),
                            &error);
    if (!push) break;
    if (push->body_case() == kind) return *push;
  }
  return {};
}

v1::ClientEnvelope provide_entropy(const std::string& match_id) {
  v1::ClientEnvelope e;
  e.mutable_provide_entropy()->set_match_id(match_id);
  e.mutable_provide_entropy()->set_entropy(client_entropy());
  return e;
}

v1::ClientEnvelope mute(const std::string& match_id, const std::string& name) {
  v1::ClientEnvelope e;
  e.mutable_mute_spectator()->set_match_id(match_id);
  e.mutable_mute_spectator()->set_name(name);
  return e;
}

CASTRA_ENCODED_TEST(ProtocolFlow, RegisterLoginCreateListJoinChatLogout) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  const std::string url = server.ws_url();

  Player alice = registered(url, "alice");
  Player bob = registered(url, "bob");
  ASSERT_TRUE(alice.client && bob.client);
  EXPECT_EQ(alice.token.size(), 43u);  // 256 bits, base64url

  // Alice creates a match; its dice commitment is public from the start.
  auto created = call(*alice.client, req::create_match("optio/test", /*spectators=*/true));
  ASSERT_TRUE(created.has_match_created()) << created.DebugString();
  const v1::MatchSummary& match = created.match_created().match();
  const std::string id = match.match_id();
  EXPECT_EQ(match.status(), v1::MATCH_OPEN);
  EXPECT_EQ(match.ruleset(), "optio");
  EXPECT_EQ(match.rules_version(), "optio-2");
  EXPECT_EQ(match.dice_commitment().size(), 64u);
  EXPECT_FALSE(match.seated());  // not before her entropy
  EXPECT_EQ(match.my_side(), v1::SIDE_A);
  // Listed only once she sits down with her entropy, given after seeing the commitment.
  EXPECT_EQ(call(*bob.client, req::list_matches(v1::MATCH_OPEN)).matches().matches_size(), 0);
  EXPECT_EQ(error_of(call(*bob.client, req::join_match(id, client_entropy()))),
            v1::ERROR_MATCH_NOT_OPEN);
  EXPECT_FALSE(error_of(call(*alice.client, provide_entropy(id))));

  // Bob sees it in the open list, with the same commitment, and joins with his entropy.
  auto open = call(*bob.client, req::list_matches(v1::MATCH_OPEN));
  ASSERT_EQ(open.matches().matches_size(), 1) << open.DebugString();
  EXPECT_EQ(open.matches().matches(0).match_id(), id);
  EXPECT_EQ(open.matches().matches(0).dice_commitment(), match.dice_commitment());
  EXPECT_EQ(open.matches().matches(0).creator(), "alice");
  auto joined = call(*bob.client, req::join_match(id, client_entropy()));
  ASSERT_TRUE(joined.has_match_joined()) << joined.DebugString();
  EXPECT_EQ(joined.match_joined().match().my_side(), v1::SIDE_B);
  EXPECT_EQ(joined.match_joined().match().status(), v1::MATCH_LIVE);  // both entropies in
  EXPECT_EQ(joined.match_joined().match().player_a(), "alice");
  EXPECT_EQ(joined.match_joined().match().player_b(), "bob");

  // Alice hears that her match was joined.
  const auto updated = push_of(*alice.client, v1::ServerEnvelope::kMatchUpdated);
  EXPECT_EQ(updated.match_updated().match().player_b(), "bob") << updated.DebugString();

  // Lists: live now, and in both players' own lists.
  EXPECT_EQ(call(*bob.client, req::list_matches(v1::MATCH_OPEN)).matches().matches_size(), 0);
  EXPECT_EQ(call(*bob.client, req::list_matches(v1::MATCH_LIVE)).matches().matches_size(), 1);
  v1::ClientEnvelope mine;
  mine.mutable_my_matches();
  EXPECT_EQ(call(*alice.client, mine).matches().matches_size(), 1);

  // The players' channel: both players, nobody else.
  auto a_sub = call(*alice.client, req::subscribe(id));
  ASSERT_TRUE(a_sub.has_subscribed()) << a_sub.DebugString();
  EXPECT_EQ(a_sub.subscribed().role(), v1::ROLE_PLAYER);
  ASSERT_TRUE(call(*bob.client, req::subscribe(id)).has_subscribed());
  Player carol = registered(url, "carol");
  auto c_sub = call(*carol.client, req::subscribe(id));
  ASSERT_TRUE(c_sub.has_subscribed()) << c_sub.DebugString();
  EXPECT_EQ(c_sub.subscribed().role(), v1::ROLE_SPECTATOR);

  EXPECT_TRUE(call(*alice.client, req::chat(id, v1::CHAT_PLAYERS, "good luck")).has_done());
  EXPECT_EQ(push_of(*alice.client, v1::ServerEnvelope::kChat).chat().line().text(), "good luck");
  auto line = push_of(*bob.client, v1::ServerEnvelope::kChat);
  EXPECT_EQ(line.chat().line().text(), "good luck");
  EXPECT_EQ(line.chat().line().author(), "alice");
  EXPECT_EQ(line.chat().line().channel(), v1::CHAT_PLAYERS);

  // The spectators' channel: spectators write, players read, and a player may mute one.
  EXPECT_EQ(error_of(call(*carol.client, req::chat(id, v1::CHAT_PLAYERS, "psst"))),
            v1::ERROR_NOT_SEATED);
  EXPECT_TRUE(call(*carol.client, req::chat(id, v1::CHAT_SPECTATORS, "go bob")).has_done());
  EXPECT_EQ(push_of(*alice.client, v1::ServerEnvelope::kChat).chat().line().text(), "go bob");
  EXPECT_EQ(push_of(*bob.client, v1::ServerEnvelope::kChat).chat().line().text(), "go bob");
  EXPECT_TRUE(call(*bob.client, mute(id, "Carol")).has_done());
  EXPECT_TRUE(call(*carol.client, req::chat(id, v1::CHAT_SPECTATORS, "again")).has_done());
  EXPECT_EQ(push_of(*alice.client, v1::ServerEnvelope::kChat).chat().line().text(), "again");
  // The room sends its lines in order: had bob been sent carol's, it would come before this.
  EXPECT_TRUE(call(*alice.client, req::chat(id, v1::CHAT_PLAYERS, "after")).has_done());
  EXPECT_EQ(push_of(*bob.client, v1::ServerEnvelope::kChat).chat().line().text(), "after");
  // Carol never saw the players' line.
  EXPECT_EQ(push_of(*carol.client, v1::ServerEnvelope::kChat).chat().line().text(), "go bob");

  // Logging out ends the session: requests that need it are refused, its token is dead.
  EXPECT_TRUE(call(*alice.client, req::logout()).has_done());
  EXPECT_EQ(error_of(call(*alice.client, req::create_match("optio/test", true))),
            v1::ERROR_NOT_AUTHENTICATED);
  v1::ClientEnvelope resume;
  resume.mutable_resume_session()->set_token(alice.token);
  EXPECT_EQ(error_of(call(*alice.client, resume)), v1::ERROR_SESSION_INVALID);

  // Logging in again gives a new token, which signs in a second connection.
  auto login = call(*alice.client, req::login("ALICE", "alice-password"));
  ASSERT_TRUE(login.has_session()) << login.DebugString();
  auto second = greeted_client(url);
  resume.mutable_resume_session()->set_token(login.session().token());
  auto resumed = call(*second, resume);
  ASSERT_TRUE(resumed.has_session()) << resumed.DebugString();
  EXPECT_EQ(resumed.session().name(), "alice");
  EXPECT_TRUE(resumed.session().token().empty());  // never sent twice

  // The seed behind the commitment is stored apart, and hashes to it.
  store::Status status;
  auto db = store::open_database_read_only(server.data_dir() + "/castra.db", 5000, &status);
  ASSERT_TRUE(db) << status.message;
  auto q = db->prepare(
      "SELECT server_seed, dice_commitment FROM match_secrets JOIN matches "
      "ON matches.id = match_secrets.match_id WHERE id = ?",
      &status);
  q.bind(1, id);
  ASSERT_TRUE(q.step(&status)) << status.message;
  const std::string seed = q.column_blob(0);
  ASSERT_EQ(seed.size(), 32u);
  match::Bytes32 seed32{};
  std::copy(seed.begin(), seed.end(), seed32.begin());
  EXPECT_EQ(match::to_hex(match::dice_commitment(seed32)), match.dice_commitment());
  EXPECT_EQ(q.column_blob(1).size(), 32u);
}

CASTRA_ENCODED_TEST(ProtocolFlow, ListsScenariosAndSkipsFilesOfTheWrongGame) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  auto c = greeted_client(server.ws_url());
  ASSERT_TRUE(call(*c, req::guest()).has_session());
  v1::ClientEnvelope list;
  list.mutable_list_scenarios();
  const auto reply = call(*c, list);
  ASSERT_EQ(reply.scenarios().scenarios_size(), 2) << reply.DebugString();
  EXPECT_EQ(reply.scenarios().scenarios(0).name(), "optio/test");
  EXPECT_EQ(reply.scenarios().scenarios(1).name(), "stand/test");
  EXPECT_NE(server.log().find("event=scenario_skipped"), std::string::npos);
}

CASTRA_ENCODED_TEST(ProtocolFlow, PrivateMatchesAreUnlistedAndNeedTheirCode) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  auto created = call(*alice.client, req::create_match("stand/test", false, /*private=*/true));
  ASSERT_TRUE(created.has_match_created()) << created.DebugString();
  const std::string id = created.match_created().match().match_id();
  const std::string code = created.match_created().invitation_code();
  EXPECT_EQ(code.size(), 10u);
  EXPECT_EQ(created.match_created().match().settings().invitation_code(), code);  // creator's
  EXPECT_FALSE(error_of(call(*alice.client, provide_entropy(id))));

  auto open = call(*bob.client, req::list_matches(v1::MATCH_OPEN));
  EXPECT_EQ(open.matches().matches_size(), 0);
  EXPECT_EQ(error_of(call(*bob.client, req::join_match(id, client_entropy(), "WRONGCODE0"))),
            v1::ERROR_BAD_INVITATION);
  auto joined = call(*bob.client, req::join_match(id, client_entropy(), code));
  ASSERT_TRUE(joined.has_match_joined()) << joined.DebugString();
  EXPECT_TRUE(joined.match_joined().match().settings().invitation_code().empty());  // not his
  EXPECT_EQ(joined.match_joined().match().status(), v1::MATCH_LIVE);
  EXPECT_EQ(error_of(call(*alice.client, provide_entropy(id))), v1::ERROR_MATCH_NOT_OPEN);
  v1::ClientEnvelope mine;
  mine.mutable_my_matches();
  EXPECT_EQ(call(*bob.client, mine).matches().matches(0).status(), v1::MATCH_LIVE);
}

CASTRA_ENCODED_TEST(ProtocolFlow, TheCreatorMayWithdrawAnUnstartedMatch) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  auto created = call(*alice.client, req::create_match("optio/test", true));
  const std::string id = created.match_created().match().match_id();
  v1::ClientEnvelope leave;
  leave.mutable_leave_match()->set_match_id(id);
  EXPECT_TRUE(call(*alice.client, leave).has_done());
  EXPECT_EQ(error_of(call(*alice.client, leave)), v1::ERROR_MATCH_NOT_OPEN);
  EXPECT_EQ(call(*alice.client, req::list_matches(v1::MATCH_OPEN)).matches().matches_size(), 0);
}

CASTRA_ENCODED_TEST(ProtocolFlow, GuestsMaySpectateButNotPlayOrChat) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  const std::string id =
      call(*alice.client, req::create_match("optio/test", true)).match_created().match().match_id();
  auto guest = greeted_client(server.ws_url());
  auto session = call(*guest, req::guest());
  ASSERT_TRUE(session.has_session());
  EXPECT_TRUE(session.session().guest());
  EXPECT_EQ(session.session().name().rfind("guest-", 0), 0u);
  EXPECT_EQ(call(*guest, req::subscribe(id)).subscribed().role(), v1::ROLE_SPECTATOR);
  EXPECT_EQ(error_of(call(*guest, req::chat(id, v1::CHAT_SPECTATORS, "hi"))),
            v1::ERROR_GUEST_NOT_ALLOWED);
  EXPECT_EQ(error_of(call(*guest, req::join_match(id, client_entropy()))),
            v1::ERROR_GUEST_NOT_ALLOWED);
  // A match without spectators keeps guests out.
  const std::string closed = call(*alice.client, req::create_match("optio/test", false))
                                 .match_created()
                                 .match()
                                 .match_id();
  EXPECT_EQ(error_of(call(*guest, req::subscribe(closed))), v1::ERROR_SPECTATORS_NOT_ALLOWED);
}

CASTRA_ENCODED_TEST(ProtocolFlow, ChangingThePasswordEndsOtherSessions) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  auto other = greeted_client(server.ws_url());
  ASSERT_TRUE(call(*other, req::login("alice", "alice-password")).has_session());
  v1::ClientEnvelope change;
  change.mutable_change_password()->set_old_password("wrong-password");
  change.mutable_change_password()->set_new_password("a-new-password");
  EXPECT_EQ(error_of(call(*alice.client, change)), v1::ERROR_BAD_CREDENTIALS);
  change.mutable_change_password()->set_old_password("alice-password");
  EXPECT_TRUE(call(*alice.client, change).has_done());
  EXPECT_EQ(push_of(*other, v1::ServerEnvelope::kNotice).notice().code(),
            v1::ERROR_SESSION_INVALID);
  EXPECT_EQ(error_of(call(*other, req::create_match("optio/test", true))),
            v1::ERROR_NOT_AUTHENTICATED);
  EXPECT_EQ(error_of(call(*other, req::login("alice", "alice-password"))),
            v1::ERROR_BAD_CREDENTIALS);
  EXPECT_TRUE(call(*other, req::login("alice", "a-new-password")).has_session());
}

CASTRA_ENCODED_TEST(ProtocolFlow, WssWithATestCertificateWorks) {
  const std::string dir = source_dir() + "/tests/data/tls";
  ServerProcess server(
      test_flags({"--tls-cert", dir + "/test_cert.pem", "--tls-key", dir + "/test_key.pem"}));
  ASSERT_TRUE(server.started()) << server.log();
  const std::string url = "wss://127.0.0.1:" + std::to_string(server.port()) + "/ws";
  client::ClientOptions options;
  options.ca_file = dir + "/test_cert.pem";
  auto c = greeted_client(url, options);
  ASSERT_TRUE(c);
  auto reply = call(*c, req::register_account("tls-user", "tls-user-password"));
  EXPECT_TRUE(reply.has_session()) << reply.DebugString();
  EXPECT_NE(server.log().find("tls=on"), std::string::npos);

  // A client that does not trust the certificate, and a plain ws:// client, get nowhere.
  std::string error;
  EXPECT_EQ(client::WsClient::connect(url, 5s, &error), nullptr);
  EXPECT_EQ(client::WsClient::connect(server.ws_url(), 5s, &error), nullptr);
  // The others are untouched.
  v1::ClientEnvelope ping;
  ping.mutable_ping()->set_nonce(7);
  EXPECT_EQ(call(*c, ping).pong().nonce(), 7u);
}

CASTRA_ENCODED_TEST(ProtocolFlow, AdminSocketListsBansAndEndsMatches) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  const std::string id =
      call(*alice.client, req::create_match("optio/test", true)).match_created().match().match_id();
  ASSERT_TRUE(call(*alice.client, req::subscribe(id)).has_subscribed());

  int code = -1;
  std::string out = admin(server, "connections", &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("ok connections=2"), std::string::npos) << out;
  EXPECT_NE(out.find("name=alice"), std::string::npos) << out;
  EXPECT_NE(out.find("address=127.0.0.1"), std::string::npos) << out;

  out = admin(server, "ban bob cheating at dice", &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("connections_closed=1"), std::string::npos) << out;
  std::string error;
  auto notice = bob.client->next_frame(5s, &error);
  ASSERT_TRUE(notice) << error;
  EXPECT_EQ(notice->notice().code(), v1::ERROR_ACCOUNT_BANNED);
  EXPECT_FALSE(bob.client->next_frame(5s, &error));
  EXPECT_EQ(bob.client->socket().close_code(), 1008);
  auto again = greeted_client(server.ws_url());
  EXPECT_EQ(error_of(call(*again, req::login("bob", "bob-password"))), v1::ERROR_ACCOUNT_BANNED);
  EXPECT_EQ(admin(server, "unban bob", &code).rfind("ok", 0), 0u);
  EXPECT_TRUE(call(*again, req::login("bob", "bob-password")).has_session());

  out = admin(server, "end-match " + id + " a test", &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("status=closed"), std::string::npos) << out;
  EXPECT_EQ(push_of(*alice.client, v1::ServerEnvelope::kMatchEnded).match_ended().status(),
            v1::MATCH_CLOSED);
  EXPECT_EQ(admin(server, "end-match " + id, &code).rfind("error", 0), 0u);
  EXPECT_EQ(code, 1);
  EXPECT_EQ(admin(server, "frobnicate", &code).rfind("error", 0), 0u);
  EXPECT_TRUE(server_alive(server));
}

CASTRA_ENCODED_TEST(ProtocolFlow, TrustsForwardedAddressesOnlyFromConfiguredProxies) {
  client::ClientOptions forwarded;
  forwarded.headers = {{"X-Forwarded-For", "198.51.100.9, 203.0.113.7"}};
  {
    ServerProcess server(test_flags({"--trusted-proxy", "127.0.0.1"}));
    ASSERT_TRUE(server.started()) << server.log();
    auto c = greeted_client(server.ws_url(), forwarded);
    std::string out = admin(server, "connections", nullptr);
    EXPECT_NE(out.find("address=203.0.113.7"), std::string::npos) << out;
    // A proxy that adds a line of its own below the client's forged one: the last line counts.
    client::ClientOptions two_lines;
    two_lines.headers = {{"X-Forwarded-For", "6.6.6.6"}, {"X-Forwarded-For", "203.0.113.8"}};
    auto d = greeted_client(server.ws_url(), two_lines);
    out = admin(server, "connections", nullptr);
    EXPECT_NE(out.find("address=203.0.113.8"), std::string::npos) << out;
    EXPECT_EQ(out.find("6.6.6.6"), std::string::npos) << out;
  }
  {
    ServerProcess server(test_flags());
    ASSERT_TRUE(server.started()) << server.log();
    auto c = greeted_client(server.ws_url(), forwarded);
    std::string out = admin(server, "connections", nullptr);
    EXPECT_NE(out.find("address=127.0.0.1"), std::string::npos) << out;
    EXPECT_EQ(out.find("203.0.113.7"), std::string::npos) << out;
  }
}

CASTRA_ENCODED_TEST(ProtocolFlow, ServesPrometheusMetrics) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  call(*alice.client, req::create_match("optio/test", true));
  call(*alice.client, req::create_match("no/such", true));
  const auto metrics = http_get(server.port(), "/metrics");
  ASSERT_EQ(metrics.status, 200);
  for (const char* expected :
       {"castra_connections 1", "castra_matches{status=\"open\"} 1",
        "castra_requests_total{kind=\"hello\"} 1", "castra_requests_total{kind=\"register\"} 1",
        "castra_errors_total{code=\"ERROR_SCENARIO_NOT_FOUND\"} 1",
        "castra_request_duration_seconds_count 4", "castra_password_hashes_total 1"}) {
    EXPECT_NE(metrics.body.find(expected), std::string::npos) << expected << "\n" << metrics.body;
  }
}

}  // namespace
}  // namespace castra::testing
