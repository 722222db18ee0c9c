// Fuzz target (a): client frames into castra-server's WebSocket session
// (server/net/websocket_session), over a real loopback connection (tests/fuzz/loopback.hpp),
// after a valid upgrade request to /ws: the input is the raw bytes of the client's frames
// (masked or not, fragmented, control frames, oversize lengths, a close, garbage), then the
// client half-closes. The application behind it echoes each message and closes on request
// and on every violation (the frame limit, the rate limit), so the outbound queue and every
// way of closing run. The session must end the connection once the client has, and leave
// nothing counted.
#include <string>

#include "tests/fuzz/fuzz_support.hpp"
#include "tests/fuzz/loopback.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace castra::fuzz;
  static EchoApplication application;
  static Loopback loopback(fuzz_net_options(), application);
  // A few frames' worth; the frame limit (64 KiB) is reached through a frame's length field.
  constexpr std::size_t kMaxInput = 16 * 1024;
  Input in(data, size);
  const std::string answer = loopback.exchange(kUpgrade, in.bytes(kMaxInput));
  if (answer.rfind("HTTP/1.1 101", 0) != 0) broken("the upgrade to /ws was not accepted");
  return 0;
}
