// An address whose connections are cut off for abuse again and again gets no new connection
// for --abuse-cooldown seconds, twice as long each time it earns another: each is held unread,
// then closed (docs/protocol.md, "Limits"). Its open connections carry on.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <vector>

#include "tests/server/protocol_support.hpp"

namespace castra::testing {
namespace {

using client::ProtocolClient;

// Connects, sends one frame over the limit, and returns the close code the server ended with
// after its error (0 when no close came).
std::uint16_t cut_off_for_an_oversized_frame(const ServerProcess& server,
                                             v1::ErrorCode* error_code) {
  auto c = greeted_client(server.ws_url());
  if (!c) return 0;
  std::string error;
  c->socket().send(std::string(64 * 1024, 'x'), 5s, &error);  // may fail once the server closes
  *error_code = v1::ERROR_UNSPECIFIED;
  while (auto frame = c->next_frame(5s, &error)) {
    if (frame->has_error()) *error_code = frame->error().code();
  }
  return c->socket().close_code();
}

// Connects until the address's cool-down is over (held connections end in a close); null if
// it is not over within 30 s, with the last attempt's failure in *error.
std::unique_ptr<ProtocolClient> let_back_in(const ServerProcess& server, std::string* error) {
  std::unique_ptr<ProtocolClient> again;
  const auto give_up = std::chrono::steady_clock::now() + 30s;
  while (!again && std::chrono::steady_clock::now() < give_up) {
    again = ProtocolClient::connect(server.ws_url(), 5s, error);
  }
  return again;
}

TEST(AbuseCooldown, AThirdCutOffRefusesTheAddressAtTheAcceptUntilTheCooldownEnds) {
  ServerProcess server(test_flags({"--max-frame-bytes", "4096", "--abuse-cooldown", "2"}));
  ASSERT_TRUE(server.started()) << server.log();
  Player bystander = registered(server.ws_url(), "bystander");
  ASSERT_TRUE(bystander.client);

  // Two cut-offs: the address may still connect.
  for (int i = 0; i < 2; ++i) {
    v1::ErrorCode code = v1::ERROR_UNSPECIFIED;
    EXPECT_EQ(cut_off_for_an_oversized_frame(server, &code), 1009);
    EXPECT_EQ(code, v1::ERROR_FRAME_TOO_LARGE);
  }
  std::string error;
  EXPECT_TRUE(ProtocolClient::connect(server.ws_url(), 5s, &error)) << error;

  // The third is told why like the others; then the address cools down: a new connection is
  // held without an upgrade until the cool-down ends, and closed.
  v1::ErrorCode code = v1::ERROR_UNSPECIFIED;
  EXPECT_EQ(cut_off_for_an_oversized_frame(server, &code), 1009);
  EXPECT_EQ(code, v1::ERROR_FRAME_TOO_LARGE);
  EXPECT_FALSE(ProtocolClient::connect(server.ws_url(), 5s, &error));
  EXPECT_NE(server.log().find("event=abuse_cooldown address=127.0.0.1 seconds=2"),
            std::string::npos)
      << server.log();

  // A connection that was already open is not touched.
  v1::ClientEnvelope ping;
  ping.mutable_ping()->set_nonce(7);
  EXPECT_EQ(call(*bystander.client, ping).pong().nonce(), 7u);

  // Once the cool-down is over the address is let back in.
  EXPECT_TRUE(let_back_in(server, &error)) << error;
  EXPECT_TRUE(server_alive(server));
}

TEST(AbuseCooldown, ABurstOfCutOffsIsOneCooldownAndTheNextIsTwiceAsLong) {
  ServerProcess server(test_flags({"--max-frame-bytes", "4096", "--abuse-cooldown", "2"}));
  ASSERT_TRUE(server.started()) << server.log();

  // Six connections open at once, all cut off together: one cool-down, not two.
  std::vector<std::unique_ptr<ProtocolClient>> open;
  for (int i = 0; i < 6; ++i) {
    open.push_back(greeted_client(server.ws_url()));
    ASSERT_TRUE(open.back());
  }
  std::string error;
  for (auto& c : open)
    c->socket().send(std::string(64 * 1024, 'x'), 5s, &error);
  for (auto& c : open) {
    while (c->next_frame(5s, &error)) {
    }
    EXPECT_EQ(c->socket().close_code(), 1009);
  }
  EXPECT_FALSE(ProtocolClient::connect(server.ws_url(), 5s, &error));
  EXPECT_NE(server.log().find("address=127.0.0.1 seconds=2 cooldowns=1"), std::string::npos)
      << server.log();
  EXPECT_EQ(server.log().find("cooldowns=2"), std::string::npos) << server.log();

  // Let back in, the address earns another: twice as long.
  ASSERT_TRUE(let_back_in(server, &error)) << error;
  for (int i = 0; i < 3; ++i) {
    v1::ErrorCode code = v1::ERROR_UNSPECIFIED;
    EXPECT_EQ(cut_off_for_an_oversized_frame(server, &code), 1009);
  }
  EXPECT_FALSE(ProtocolClient::connect(server.ws_url(), 5s, &error));
  EXPECT_NE(server.log().find("address=127.0.0.1 seconds=4 cooldowns=2"), std::string::npos)
      << server.log();
  EXPECT_TRUE(server_alive(server));
}

}  // namespace
}  // namespace castra::testing
