// FanOut: the frames the real server sends for one game command, counted on the wire. In a room
// of S spectators a command costs S spectator frames (one update each, the same bytes for all),
// one frame to the opponent, and one to the mover: his answer with the room's update in it. No
// count update, no re-sent board, nothing else. A Ping after the answer is the fence: every
// frame a command made is queued to its connection before the mover is answered, so whatever a
// connection receives before its Pong is all it got from the command. Each room is run in
// binary and in JSON (every connection of the case in one encoding).
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "tests/server/picker.hpp"
#include "tests/server/protocol_support.hpp"

namespace castra::testing {
namespace {

namespace req = client::requests;

std::vector<std::string> fan_out_flags() {
  return test_flags({"--messages-per-second", "10000", "--message-burst", "10000",
                     "--max-connections-per-address", "400"});
}

v1::ServerEnvelope frame_on(client::ProtocolClient& c) {
  std::string error;
  auto raw = c.socket().receive(5s, &error);
  v1::ServerEnvelope e;
  EXPECT_TRUE(raw && c.decode(*raw, c.socket().received_text(), &e)) << error;
  return e;
}

// Sends a Ping and returns every frame that comes before its Pong.
std::vector<v1::ServerEnvelope> frames_until_pong(client::ProtocolClient& c, std::uint64_t id) {
  v1::ClientEnvelope ping;
  ping.set_request_id(id);
  ping.mutable_ping()->set_nonce(id);
  std::string error;
  EXPECT_TRUE(send_raw(c, ping, &error)) << error;
  std::vector<v1::ServerEnvelope> before;
  for (int i = 0; i < 1000; ++i) {
    v1::ServerEnvelope e = frame_on(c);
    if (e.has_pong() && e.request_id() == id) return before;
    if (e.body_case() == v1::ServerEnvelope::BODY_NOT_SET && !e.has_match_update_first()) break;
    before.push_back(std::move(e));
  }
  ADD_FAILURE() << "no Pong";
  return before;
}

// Reads until an update to `id`'s room with a board and no more than `spectators` watching
// and then the count update that says `spectators`: the room is settled.
void settle(client::ProtocolClient& c, std::uint32_t spectators) {
  for (int i = 0; i < 1000; ++i) {
    v1::ServerEnvelope e = frame_on(c);
    if (e.body_case() == v1::ServerEnvelope::BODY_NOT_SET) break;
    if (!e.has_match_update()) continue;
    const auto& u = e.match_update();
    if (!u.has_snapshot() && u.spectators() == spectators) return;
  }
  ADD_FAILURE() << "the room never said it had " << spectators << " spectators";
}

// The spectators in the room, and the encoding every connection of the case speaks.
class FanOut : public ::testing::TestWithParam<std::tuple<int, Encoding>> {};

TEST_P(FanOut, OneCommandCostsOneFramePerSpectatorOneToTheOpponentAndOneToTheMover) {
  const auto [spectators, encoding] = GetParam();
  EncodingScope scope(encoding);
  ServerProcess server(fan_out_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  auto created = call(*alice.client, req::create_match("optio/test", true));
  const std::string id = created.match_created().match().match_id();
  v1::ClientEnvelope sit;
  sit.mutable_provide_entropy()->set_match_id(id);
  sit.mutable_provide_entropy()->set_entropy(client_entropy());
  ASSERT_FALSE(error_of(call(*alice.client, sit)));
  ASSERT_TRUE(call(*bob.client, req::join_match(id, client_entropy())).has_match_joined());
  ASSERT_TRUE(call(*alice.client, req::subscribe(id)).has_subscribed());
  ASSERT_TRUE(call(*bob.client, req::subscribe(id)).has_subscribed());
  std::vector<std::unique_ptr<client::ProtocolClient>> watchers;
  for (int i = 0; i < spectators; ++i) {
    watchers.push_back(greeted_client(server.ws_url()));
    ASSERT_TRUE(call(*watchers.back(), req::guest()).has_session());
    ASSERT_TRUE(call(*watchers.back(), req::subscribe(id)).has_subscribed());
  }
  // Everyone has its board and has heard the final count: nothing more is owed.
  const auto n = static_cast<std::uint32_t>(spectators);
  settle(*alice.client, n);
  settle(*bob.client, n);
  for (auto& w : watchers)
    settle(*w, n);

  // Alice deploys her first unit (the legal list comes on a connection of its own).
  v1::ClientEnvelope legal;
  legal.mutable_get_legal()->set_match_id(id);
  Player alice_too{greeted_client(server.ws_url()), "alice", ""};
  ASSERT_TRUE(call(*alice_too.client, req::login("alice", "alice-password")).has_session());
  const auto listed = call(*alice_too.client, legal);
  Picker picker;
  const auto command = picker.pick(listed.legal().legal(), rules::Side::kA);
  ASSERT_TRUE(command);
  v1::ClientEnvelope submit;
  submit.set_request_id(7001);
  submit.mutable_submit_command()->set_match_id(id);
  submit.mutable_submit_command()->set_client_seq(1);
  *submit.mutable_submit_command()->mutable_command() = *command;
  std::string error;
  ASSERT_TRUE(send_raw(*alice.client, submit, &error)) << error;

  // The mover: one frame, the answer, with the room's update in it.
  const v1::ServerEnvelope answer = frame_on(*alice.client);
  ASSERT_EQ(answer.request_id(), 7001u) << answer.DebugString();
  ASSERT_TRUE(answer.command_result().accepted()) << answer.DebugString();
  ASSERT_TRUE(answer.has_match_update_first());
  const std::uint32_t entries = answer.command_result().entry() + 1;
  EXPECT_EQ(answer.match_update_first().snapshot().entry_count(), entries);
  EXPECT_TRUE(frames_until_pong(*alice.client, 9001).empty())
      << "the mover got more than his answer";

  // The opponent: one update with the new board (it is still alice's deployment: no YourMove).
  const auto to_bob = frames_until_pong(*bob.client, 9002);
  ASSERT_EQ(to_bob.size(), 1u);
  EXPECT_EQ(to_bob[0].match_update().snapshot().entry_count(), entries);

  // Each spectator: one update, the same bytes for all of them.
  std::map<std::string, int> distinct;
  for (std::size_t i = 0; i < watchers.size(); ++i) {
    const auto got = frames_until_pong(*watchers[i], 9100 + i);
    ASSERT_EQ(got.size(), 1u) << "spectator " << i;
    EXPECT_EQ(got[0].match_update().snapshot().entry_count(), entries);
    ++distinct[got[0].SerializeAsString()];
  }
  EXPECT_EQ(distinct.size(), 1u) << "every spectator sees the same and gets the same frame";
}

// Spectators/FanOut.*/0..2 in binary, JsonProtocol/FanOut.*/0..2 the same rooms in JSON.
INSTANTIATE_TEST_SUITE_P(Spectators, FanOut,
                         ::testing::Combine(::testing::Values(1, 10, 100),
                                            ::testing::Values(Encoding::kBinary)));
INSTANTIATE_TEST_SUITE_P(JsonProtocol, FanOut,
                         ::testing::Combine(::testing::Values(1, 10, 100),
                                            ::testing::Values(Encoding::kJson)));

}  // namespace
}  // namespace castra::testing
