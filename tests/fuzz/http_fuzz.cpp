// Fuzz target (e): HTTP requests into castra-server's HTTP session (server/net/http_session),
// over a real loopback connection (tests/fuzz/loopback.hpp). The input is what the client
// sends before it half-closes: requests, pipelined or torn, of any size up to the session's
// header and body limits and past them. The session must answer with an HTTP status line or
// nothing, end the connection once the client has, and leave nothing counted.
#include <string>

#include "tests/fuzz/fuzz_support.hpp"
#include "tests/fuzz/loopback.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace castra::fuzz;
  static EchoApplication application;
  static Loopback loopback(fuzz_net_options(), application);
  // Past the header limit (8 KiB) and a little body, nothing new happens but copying.
  constexpr std::size_t kMaxInput = 20 * 1024;
  Input in(data, size);
  const std::string answer = loopback.exchange(in.bytes(kMaxInput));
  if (!answer.empty() && answer.rfind("HTTP/1.", 0) != 0) {
    broken("the HTTP session answered something that is no HTTP response");
  }
  return 0;
}
