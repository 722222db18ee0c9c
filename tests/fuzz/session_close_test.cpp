// The WebSocket session's close when the client breaks off (server/net/websocket_session):
// found by the session fuzz target, where such inputs each waited out the close timeout.
// The application closes on a message; the same segment carries a frame the client may not
// send (unmasked), then the client half-closes. The server must end the connection at once,
// not when its close timeout cuts it off.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "tests/fuzz/loopback.hpp"

namespace castra::fuzz {
namespace {

TEST(SessionClose, ProtocolErrorAfterTheApplicationClosedEndsAtOnce) {
  net::NetOptions options = fuzz_net_options();
  // Far longer than the exchange may take: an end by timeout cannot pass for an end.
  options.handshake_timeout_seconds = 60;
  options.idle_timeout_seconds = 60;
  options.close_timeout_seconds = 60;
  EchoApplication application;
  Loopback loopback(options, application);
  // A masked binary "close " (the application closes on it), then an unmasked binary frame
  // header, then the client is done (the corpus input 3f739bcc... of tests/fuzz/corpus/session).
  const std::string frames(
      "\x82\x89\x00\x00\x00\x00"
      "close "
      "\x82\x78\x78\x82\x81\x00\x00\x00\x00\x00\x00\x00\x78",
      25);
  const auto start = std::chrono::steady_clock::now();
  // exchange() itself fails the process after 10 s without an end.
  const std::string answer = loopback.exchange(kUpgrade, frames);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(answer.rfind("HTTP/1.1 101", 0), 0u);
  // The last frame the application queued ("last") reached the client before the close.
  EXPECT_NE(answer.find("last"), std::string::npos);
  EXPECT_LT(took, std::chrono::seconds(5));
}

}  // namespace
}  // namespace castra::fuzz
