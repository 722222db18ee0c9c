// What only the JSON encoding has: the subprotocol negotiation, text frames with the .proto's
// names, the parser's strictness with the request_id kept, and a room where binary and JSON
// spectators watch side by side (each gets the same updates, in its own encoding). The cases
// both encodings share run from hostile_input_test and protocol_flow_test.
#include <gtest/gtest.h>

#include <google/protobuf/util/message_differencer.h>

#include <tuple>

#include "tests/server/picker.hpp"
#include "tests/server/protocol_support.hpp"

namespace castra::testing {
namespace {

using client::ProtocolClient;
using client::WsClient;
namespace req = client::requests;

std::unique_ptr<WsClient> ws_asking(const ServerProcess& server, const std::string& subprotocol,
                                    std::string* error) {
  client::ClientOptions options;
  options.subprotocol = subprotocol;
  return WsClient::connect(server.ws_url(), 5s, error, options);
}

// The next frame on `ws`, which must be text; its bytes.
std::string text_frame(WsClient& ws) {
  std::string error;
  auto frame = ws.receive(5s, &error);
  EXPECT_TRUE(frame) << error;
  EXPECT_TRUE(ws.received_text());
  return frame.value_or("");
}

TEST(JsonProtocol, TheServerAnswersTheSubprotocolItTook) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  std::string error;
  auto json = ws_asking(server, "castra.v1.json", &error);
  ASSERT_TRUE(json) << error;
  EXPECT_EQ(json->subprotocol(), "castra.v1.json");
  auto binary = ws_asking(server, "castra.v1", &error);
  ASSERT_TRUE(binary) << error;
  EXPECT_EQ(binary->subprotocol(), "castra.v1");
  auto plain = ws_asking(server, "", &error);
  ASSERT_TRUE(plain) << error;
  EXPECT_EQ(plain->subprotocol(), "");
  // A client that names only a subprotocol the server does not speak is answered none, and
  // fails the connection, as a browser does.
  EXPECT_FALSE(ws_asking(server, "castra.v9.json", &error));
  EXPECT_NE(server.log().find("encoding=castra.v1.json"), std::string::npos);
}

TEST(JsonProtocol, FramesAreTextWithTheProtosFieldNames) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  std::string error;
  auto ws = ws_asking(server, "castra.v1.json", &error);
  ASSERT_TRUE(ws) << error;
  ASSERT_TRUE(ws->send(R"({"request_id":1,"hello":{"major":1,"minor":4,"client":"json-test"}})", 2s,
                       &error, true));
  const std::string hello = text_frame(*ws);
  EXPECT_EQ(hello.rfind(R"({"request_id":"1","hello":{"major":1,"minor":4,)", 0), 0u) << hello;
  EXPECT_NE(hello.find(R"("max_frame_bytes":65536)"), std::string::npos) << hello;
  // Either spelling of a name is read; 64-bit integers from numbers or strings.
  ASSERT_TRUE(ws->send(R"({"requestId":"2","ping":{"nonce":"12345678901"}})", 2s, &error, true));
  const std::string pong = text_frame(*ws);
  EXPECT_EQ(pong.rfind(R"({"request_id":"2","pong":{"nonce":"12345678901","server_time_ms":")", 0),
            0u)
      << pong;
  ASSERT_TRUE(ws->send(R"({"request_id":3,"guest_login":{}})", 2s, &error, true));
  const std::string session = text_frame(*ws);
  EXPECT_NE(session.find(R"("guest":true)"), std::string::npos) << session;
  // An enum by its name; a field at its default is left out (MATCH_OPEN would be absent).
  ASSERT_TRUE(
      ws->send(R"({"request_id":4,"list_matches":{"status":"MATCH_LIVE"}})", 2s, &error, true));
  EXPECT_EQ(text_frame(*ws), R"({"request_id":"4","matches":{}})");
}

TEST(JsonProtocol, WhatIsNotAClientEnvelopeIsMalformedWithItsRequestIdWhereItReads) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  EncodingScope scope(Encoding::kJson);
  auto c = greeted_client(server.ws_url());
  ASSERT_TRUE(c);
  struct Case {
    const char* text;
    std::uint64_t id;
    v1::ErrorCode code;
  };
  const Case cases[] = {
      {R"({"request_id":9,"ping":{"nonse":1}})", 9, v1::ERROR_MALFORMED},  // a member it lacks
      {R"({"request_id":"10","list_matches":{"status":"MATCH_BOGUS"}})", 10, v1::ERROR_MALFORMED},
      {R"({"request_id":11,"ping":7})", 11, v1::ERROR_MALFORMED},
      {R"({"request_id":12,"provide_entropy":{"entropy":"%%%"}})", 12, v1::ERROR_MALFORMED},
      {R"({"request_id":13,"ping":{},"tomorrow":{}})", 13, v1::ERROR_MALFORMED},
      {R"({"request_id":14,"tomorrow":{}})", 14, v1::ERROR_UNKNOWN_MESSAGE},
      {R"([1,2])", 0, v1::ERROR_MALFORMED},
      {R"()", 0, v1::ERROR_MALFORMED},
      {R"({})", 0, v1::ERROR_INVALID_REQUEST},
      {R"({"ping":{}})", 0, v1::ERROR_INVALID_REQUEST},
  };
  for (const Case& k : cases) {
    std::string error;
    ASSERT_TRUE(c->socket().send(k.text, 2s, &error, true)) << error;
    auto reply = c->next_frame(5s, &error);
    ASSERT_TRUE(reply) << k.text << ": " << error;
    EXPECT_EQ(reply->request_id(), k.id) << k.text;
    EXPECT_EQ(error_of(*reply), k.code) << k.text << " " << reply->ShortDebugString();
  }
  v1::ClientEnvelope ping;
  ping.mutable_ping()->set_nonce(6);
  EXPECT_EQ(call(*c, ping).pong().nonce(), 6u);
}

TEST(JsonProtocol, ATextFrameThatIsNotUtf8IsClosedWith1007) {
  ServerProcess server(test_flags());
  ASSERT_TRUE(server.started()) << server.log();
  EncodingScope scope(Encoding::kJson);
  auto bystander = greeted_client(server.ws_url());
  auto c = greeted_client(server.ws_url());
  ASSERT_TRUE(c && bystander);
  std::string error;
  ASSERT_TRUE(
      c->socket().send("{\"request_id\":5,\"ping\":{\"x\":\"\xff\xfe\"}}", 2s, &error, true));
  EXPECT_FALSE(c->next_frame(5s, &error));
  EXPECT_EQ(c->socket().close_code(), 1007);
  v1::ClientEnvelope ping;
  ping.mutable_ping()->set_nonce(8);
  EXPECT_EQ(call(*bystander, ping).pong().nonce(), 8u);
  EXPECT_TRUE(server_alive(server));
}

// Until the next MatchUpdate push.
v1::MatchUpdate next_update(ProtocolClient& c) {
  std::string error;
  for (int i = 0; i < 100; ++i) {
    auto push = c.next_push(5s, &error);
    if (!push) break;
    if (push->has_match_update()) return push->match_update();
  }
  ADD_FAILURE() << "no update: " << error;
  return {};
}

TEST(JsonProtocol, BinaryAndJsonSpectatorsOfOneRoomGetTheSameUpdates) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  const std::string id =
      call(*alice.client, req::create_match("optio/test", true)).match_created().match().match_id();
  ASSERT_FALSE(error_of(call(*alice.client, sit(id))));
  ASSERT_TRUE(call(*bob.client, req::join_match(id, client_entropy())).has_match_joined());
  auto binary = greeted_client(server.ws_url());
  std::unique_ptr<ProtocolClient> json;
  {
    EncodingScope scope(Encoding::kJson);
    json = greeted_client(server.ws_url());
  }
  ASSERT_TRUE(binary && json && json->json() && !binary->json());
  for (auto* c : {binary.get(), json.get()}) {
    ASSERT_TRUE(call(*c, req::guest()).has_session());
    ASSERT_TRUE(call(*c, req::subscribe(id)).has_subscribed());
  }
  // Both get the board first, then one update after each of alice's commands.
  Picker pick_a;
  Picker pick_b;
  std::uint64_t seq_a = 0;
  std::uint64_t seq_b = 0;
  int compared = 0;
  for (int round = 0; round < 6; ++round) {
    v1::MatchUpdate b = next_update(*binary);
    v1::MatchUpdate j = next_update(*json);
    // The spectator count goes out once a tick: skip count-only updates on either side.
    while (!b.has_snapshot() && b.events_size() == 0 && b.spectators() > 0)
      b = next_update(*binary);
    while (!j.has_snapshot() && j.events_size() == 0 && j.spectators() > 0)
      j = next_update(*json);
    b.clear_spectators();
    j.clear_spectators();
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(b, j))
        << b.ShortDebugString().substr(0, 500) << "\n---\n"
        << j.ShortDebugString().substr(0, 500);
    ++compared;
    // Whoever may act makes one command.
    bool moved = false;
    for (auto [player, side, picker, next] : {std::tuple{&alice, rules::Side::kA, &pick_a, &seq_a},
                                              std::tuple{&bob, rules::Side::kB, &pick_b, &seq_b}}) {
      auto legal = call(*player->client, get_legal(id));
      auto cmd = picker->pick(legal.legal().legal(), side);
      if (!cmd) continue;
      ASSERT_TRUE(call(*player->client, submit(id, ++*next, *cmd)).command_result().accepted());
      moved = true;
      break;
    }
    if (!moved) break;
  }
  EXPECT_GE(compared, 2);
}

}  // namespace
}  // namespace castra::testing
