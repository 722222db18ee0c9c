// Hostile and broken input against the real server: each class gets its documented error
// (docs/protocol.md), the server keeps running, and a bystander client is untouched. Every
// case runs in both encodings (HostileInput.X binary, JsonProtocol.HostileInput_X in JSON).
#include <gtest/gtest.h>

#include "tests/server/protocol_support.hpp"

namespace castra::testing {
namespace {

using client::ProtocolClient;
namespace req = client::requests;

v1::ClientEnvelope ping(std::uint64_t nonce) {
  v1::ClientEnvelope e;
  e.mutable_ping()->set_nonce(nonce);
  return e;
}

// A signed-in client that watches the attack from the side.
class Bystander {
 public:
  explicit Bystander(const ServerProcess& server)
      : player_(registered(server.ws_url(), "bystander")) {}
  // It still gets answers, and the server is still alive.
  void expect_untouched(const ServerProcess& server) {
    ASSERT_TRUE(player_.client);
    EXPECT_EQ(call(*player_.client, ping(42)).pong().nonce(), 42u);
    EXPECT_EQ(call(*player_.client, req::list_matches(v1::MATCH_OPEN)).body_case(),
              v1::ServerEnvelope::kMatches);
    EXPECT_TRUE(server_alive(server));
  }

 private:
  Player player_;
};

// The next frame, which must be an error; its code.
v1::ErrorCode next_error(ProtocolClient& c) {
  std::string error;
  auto frame = c.next_frame(5s, &error);
  if (!frame) {
    ADD_FAILURE() << "no frame: " << error;
    return v1::ERROR_UNSPECIFIED;
  }
  return error_of(*frame);
}

// Whether the server closed `c`, and with which code.
std::uint16_t closed_with(ProtocolClient& c) {
  std::string error;
  if (c.next_frame(5s, &error)) return 0;
  return c.socket().close_code();
}

CASTRA_ENCODED_TEST(HostileInput, MalformedProtobufGetsMalformedAndTheConnectionLives) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Bystander bystander(server);
  auto c = greeted_client(server.ws_url());
  std::string error;
  // Garbage in the connection's own kind of frame, then a frame of the other kind.
  const bool json = c->json();
  const std::string garbage = json ? std::string("{\"request_id\": 5, \"ping\": ")
                                   : std::string("\xff\xff\xff\xff\x0f garbage", 13);
  ASSERT_TRUE(c->socket().send(garbage, 2s, &error, json));
  EXPECT_EQ(next_error(*c), v1::ERROR_MALFORMED);
  const std::string other = json ? ping(4).SerializeAsString() : "{\"hello\": {}}";
  ASSERT_TRUE(c->socket().send(other, 2s, &error, !json));
  EXPECT_EQ(next_error(*c), v1::ERROR_MALFORMED);
  EXPECT_EQ(call(*c, ping(1)).pong().nonce(), 1u);
  bystander.expect_untouched(server);
}

CASTRA_ENCODED_TEST(HostileInput, UnknownMessageGetsUnknownMessageWithItsRequestId) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Bystander bystander(server);
  auto c = greeted_client(server.ws_url());
  // A request kind of a later minor version: a field this server's schema does not have.
  std::string error;
  if (c->json()) {
    ASSERT_TRUE(c->socket().send(R"({"request_id":"77","future_request":{}})", 2s, &error, true));
  } else {
    v1::ClientEnvelope future;
    future.set_request_id(77);
    future.GetReflection()->MutableUnknownFields(&future)->AddVarint(999, 1);
    ASSERT_TRUE(send_raw(*c, future, &error));
  }
  auto reply = c->next_frame(5s, &error);
  ASSERT_TRUE(reply) << error;
  EXPECT_EQ(reply->request_id(), 77u);
  EXPECT_EQ(error_of(*reply), v1::ERROR_UNKNOWN_MESSAGE);
  // No request id at all is a malformed request, answered with request id 0.
  auto anonymous = ping(3);
  ASSERT_TRUE(send_raw(*c, anonymous, &error));
  reply = c->next_frame(5s, &error);
  ASSERT_TRUE(reply) << error;
  EXPECT_EQ(reply->request_id(), 0u);
  EXPECT_EQ(error_of(*reply), v1::ERROR_INVALID_REQUEST);
  bystander.expect_untouched(server);
}

CASTRA_ENCODED_TEST(HostileInput, WrongVersionGetsVersionUnsupportedThenAClose) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Bystander bystander(server);
  auto c = connected(server.ws_url());
  ASSERT_TRUE(c);
  v1::ClientEnvelope hello;
  hello.mutable_hello()->set_major(2);
  auto reply = call(*c, hello);
  EXPECT_EQ(error_of(reply), v1::ERROR_VERSION_UNSUPPORTED);
  EXPECT_NE(reply.error().message().find("protocol 1"), std::string::npos);
  EXPECT_EQ(closed_with(*c), 1002);
  bystander.expect_untouched(server);
}

CASTRA_ENCODED_TEST(HostileInput, RequestsBeforeHelloOrLoginAreRefused) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Bystander bystander(server);
  auto c = connected(server.ws_url());
  ASSERT_TRUE(c);
  std::string error;
  EXPECT_EQ(error_of(call(*c, req::login("x", "y"))), v1::ERROR_HANDSHAKE_REQUIRED);
  ASSERT_TRUE(c->hello(5s, &error)) << error;
  v1::ClientEnvelope again;
  again.mutable_hello()->set_major(v1::PROTOCOL_MAJOR);
  EXPECT_EQ(error_of(call(*c, again)), v1::ERROR_ALREADY_GREETED);
  EXPECT_EQ(error_of(call(*c, req::create_match("optio/test", true))), v1::ERROR_NOT_AUTHENTICATED);
  EXPECT_EQ(error_of(call(*c, req::list_matches(v1::MATCH_OPEN))), v1::ERROR_NOT_AUTHENTICATED);
  ASSERT_TRUE(call(*c, req::guest()).has_session());
  EXPECT_EQ(error_of(call(*c, req::create_match("optio/test", true))), v1::ERROR_GUEST_NOT_ALLOWED);
  bystander.expect_untouched(server);
}

CASTRA_ENCODED_TEST(HostileInput, NoHelloInTimeGetsHandshakeRequiredThenAClose) {
  ServerProcess server(test_flags({"--handshake-timeout", "1"}));
  ASSERT_TRUE(server.started()) << server.log();
  Bystander bystander(server);
  auto c = connected(server.ws_url());
  ASSERT_TRUE(c);
  EXPECT_EQ(next_error(*c), v1::ERROR_HANDSHAKE_REQUIRED);
  EXPECT_EQ(closed_with(*c), 1008);
  bystander.expect_untouched(server);
}

CASTRA_ENCODED_TEST(HostileInput, ASilentClientIsPingedThenDroppedAndAListeningOneStays) {
  ServerProcess server(test_flags({"--idle-timeout", "1"}));
  ASSERT_TRUE(server.started()) << server.log();
  auto silent = greeted_client(server.ws_url());
  auto listening = greeted_client(server.ws_url());
  // Reading answers the server's pings; not reading for as long leaves them unanswered.
  std::string error;
  EXPECT_FALSE(listening->next_frame(2500ms, &error));
  EXPECT_EQ(error, "receive timed out");
  EXPECT_EQ(call(*listening, ping(8)).pong().nonce(), 8u);
  EXPECT_FALSE(silent->next_frame(2s, &error));
  EXPECT_NE(error, "receive timed out");
  EXPECT_TRUE(server_alive(server));
}

CASTRA_ENCODED_TEST(HostileInput, OversizedFrameGetsFrameTooLargeThenAClose) {
  ServerProcess server(test_flags({"--max-frame-bytes", "4096"}));
  ASSERT_TRUE(server.started()) << server.log();
  Bystander bystander(server);
  auto c = greeted_client(server.ws_url());
  v1::ClientEnvelope big =
      req::chat(std::string(32, 'a'), v1::CHAT_PLAYERS, std::string(1 << 20, 'x'));
  big.set_request_id(9);
  std::string error;
  send_raw(*c, big, &error);  // may fail once the server closes
  EXPECT_EQ(next_error(*c), v1::ERROR_FRAME_TOO_LARGE);
  EXPECT_EQ(closed_with(*c), 1009);
  bystander.expect_untouched(server);
}

CASTRA_ENCODED_TEST(HostileInput, FloodGetsRateLimitedThenAClose) {
  ServerProcess server(test_flags({"--messages-per-second", "20", "--message-burst", "20"}));
  ASSERT_TRUE(server.started()) << server.log();
  Bystander bystander(server);
  auto c = greeted_client(server.ws_url());
  std::string error;
  for (int i = 1; i <= 200; ++i) {
    auto p = ping(static_cast<std::uint64_t>(i));
    p.set_request_id(1000 + static_cast<std::uint64_t>(i));
    if (!send_raw(*c, p, &error)) break;
  }
  // Some pongs (of the burst; those not yet answered at the close are dropped), the error,
  // then the close.
  v1::ErrorCode code = v1::ERROR_UNSPECIFIED;
  int pongs = 0;
  for (;;) {
    auto frame = c->next_frame(5s, &error);
    if (!frame) break;
    if (frame->has_pong()) ++pongs;
    if (frame->has_error()) code = frame->error().code();
  }
  EXPECT_EQ(code, v1::ERROR_RATE_LIMITED);
  EXPECT_LT(pongs, 200);
  EXPECT_EQ(c->socket().close_code(), 1008);
  bystander.expect_untouched(server);
}

CASTRA_ENCODED_TEST(HostileInput, TooManyConnectionsFromOneAddressAreClosedAtTheAccept) {
  ServerProcess server(test_flags({"--max-connections-per-address", "4"}));
  ASSERT_TRUE(server.started()) << server.log();
  Bystander bystander(server);
  auto second = greeted_client(server.ws_url());
  auto third = greeted_client(server.ws_url());
  auto fourth = greeted_client(server.ws_url());
  // Counted from the accept: the fifth is closed before its upgrade, with nothing said.
  std::string error;
  EXPECT_FALSE(ProtocolClient::connect(server.ws_url(), 5s, &error, encoded()));
  // A connection that leaves frees its place (once the server has read its close).
  third->socket().close(2s);
  third.reset();
  std::unique_ptr<ProtocolClient> again;
  for (int i = 0; i < 100 && !again; ++i)
    again = ProtocolClient::connect(server.ws_url(), 5s, &error, encoded());
  EXPECT_TRUE(again) << error;
  again.reset();
  fourth.reset();
  // The bystander's health check needs a place of its own.
  for (int i = 0; i < 100 && http_get(server.port(), "/healthz").status != 200; ++i) {
  }
  bystander.expect_untouched(server);
}

CASTRA_ENCODED_TEST(HostileInput, ForgedMatchIdsAreNotFound) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Bystander bystander(server);
  Player mallory = registered(server.ws_url(), "mallory");
  const std::string forged(32, 'f');
  EXPECT_EQ(error_of(call(*mallory.client, req::join_match(forged, client_entropy()))),
            v1::ERROR_MATCH_NOT_FOUND);
  EXPECT_EQ(error_of(call(*mallory.client, req::subscribe(forged))), v1::ERROR_MATCH_NOT_FOUND);
  EXPECT_EQ(error_of(call(*mallory.client, req::chat(forged, v1::CHAT_PLAYERS, "x"))),
            v1::ERROR_MATCH_NOT_FOUND);
  v1::ClientEnvelope resign;
  resign.mutable_resign()->set_match_id(forged);
  EXPECT_EQ(error_of(call(*mallory.client, resign)), v1::ERROR_MATCH_NOT_FOUND);
  EXPECT_EQ(error_of(call(*mallory.client, req::join_match("../../etc", client_entropy()))),
            v1::ERROR_INVALID_REQUEST);
  // A real match in which mallory has no seat.
  Player alice = registered(server.ws_url(), "alice");
  const std::string id =
      call(*alice.client, req::create_match("optio/test", true)).match_created().match().match_id();
  resign.mutable_resign()->set_match_id(id);
  EXPECT_EQ(error_of(call(*mallory.client, resign)), v1::ERROR_NOT_SEATED);
  v1::ClientEnvelope leave;
  leave.mutable_leave_match()->set_match_id(id);
  EXPECT_EQ(error_of(call(*mallory.client, leave)), v1::ERROR_NOT_SEATED);
  bystander.expect_untouched(server);
}

CASTRA_ENCODED_TEST(HostileInput, WrongPasswordRepeatedlyLocksTheAccount) {
  ServerProcess server(test_flags({"--max-login-failures", "3", "--lockout-seconds", "60"}));
  ASSERT_TRUE(server.started()) << server.log();
  Bystander bystander(server);
  Player victim = registered(server.ws_url(), "victim");
  auto attacker = greeted_client(server.ws_url());
  EXPECT_EQ(error_of(call(*attacker, req::login("victim", "guess-one"))),
            v1::ERROR_BAD_CREDENTIALS);
  EXPECT_EQ(error_of(call(*attacker, req::login("victim", "guess-two"))),
            v1::ERROR_BAD_CREDENTIALS);
  EXPECT_EQ(error_of(call(*attacker, req::login("victim", "guess-three"))),
            v1::ERROR_ACCOUNT_LOCKED);
  const auto locked = call(*attacker, req::login("victim", "victim-password"));
  EXPECT_EQ(error_of(locked), v1::ERROR_ACCOUNT_LOCKED);
  EXPECT_GT(locked.error().retry_after_ms(), 50'000u);
  // An unknown name answers like a wrong password.
  EXPECT_EQ(error_of(call(*attacker, req::login("nobody", "whatever"))), v1::ERROR_BAD_CREDENTIALS);
  // The signed-in session is not thrown out.
  EXPECT_EQ(call(*victim.client, ping(5)).pong().nonce(), 5u);
  bystander.expect_untouched(server);
}

CASTRA_ENCODED_TEST(HostileInput, BadRegistrationsAreRefusedWithTheirReason) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  auto c = greeted_client(server.ws_url());
  EXPECT_EQ(error_of(call(*c, req::register_account("Alice", "long-enough-password"))),
            v1::ERROR_NAME_TAKEN);
  EXPECT_EQ(error_of(call(*c, req::register_account("guest-1234", "long-enough-password"))),
            v1::ERROR_NAME_INVALID);
  EXPECT_EQ(error_of(call(*c, req::register_account("a b", "long-enough-password"))),
            v1::ERROR_NAME_INVALID);
  EXPECT_EQ(error_of(call(*c, req::register_account("dave", "short"))), v1::ERROR_PASSWORD_INVALID);
  EXPECT_EQ(error_of(call(*alice.client, req::login("alice", "alice-password"))),
            v1::ERROR_ALREADY_AUTHENTICATED);
}

CASTRA_ENCODED_TEST(HostileInput, MatchRuntimeRequestsAreCheckedBeforeTheMatchStarts) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  const std::string id =
      call(*alice.client, req::create_match("optio/test", true)).match_created().match().match_id();
  v1::ClientEnvelope resign;
  resign.mutable_resign()->set_match_id(id);
  EXPECT_EQ(error_of(call(*alice.client, resign)), v1::ERROR_NOT_SEATED);  // no entropy yet
  v1::ClientEnvelope sit;
  sit.mutable_provide_entropy()->set_match_id(id);
  sit.mutable_provide_entropy()->set_entropy(client_entropy());
  ASSERT_TRUE(call(*alice.client, sit).has_done());
  const auto reply = call(*alice.client, resign);
  EXPECT_EQ(error_of(reply), v1::ERROR_MATCH_NOT_LIVE);  // nobody has joined yet
  v1::ClientEnvelope submit;
  submit.mutable_submit_command()->set_match_id(id);
  submit.mutable_submit_command()->set_client_seq(1);
  submit.mutable_submit_command()->mutable_command()->mutable_optio()->mutable_end_phase();
  const auto refused = call(*alice.client, submit);
  ASSERT_TRUE(refused.has_command_result()) << refused.DebugString();
  EXPECT_FALSE(refused.command_result().accepted());
  EXPECT_EQ(refused.command_result().error().rule(), "match.not_started");
  submit.mutable_submit_command()->set_client_seq(0);
  EXPECT_EQ(error_of(call(*alice.client, submit)), v1::ERROR_INVALID_REQUEST);
}

}  // namespace
}  // namespace castra::testing
