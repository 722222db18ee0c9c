#include "tests/fuzz/loopback.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>

#include <array>
#include <chrono>
#include <functional>

#include "server/net/http_session.hpp"
#include "server/net/shared_state.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace castra::fuzz {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

void EchoApplication::on_message(const std::shared_ptr<net::Connection>& connection,
                                 std::string frame, bool) {
  connection->greeted();
  if (frame.rfind("close", 0) == 0) {
    connection->close(net::CloseCode::kNormal, "asked to",
                      std::make_shared<const std::string>("last"));
    return;
  }
  connection->send(std::make_shared<const std::string>(std::move(frame)));
}

void EchoApplication::on_violation(const std::shared_ptr<net::Connection>& connection,
                                   net::Violation) {
  connection->close(net::CloseCode::kPolicy, "limit exceeded",
                    std::make_shared<const std::string>("why"));
}

net::HttpAnswer EchoApplication::on_http(const net::HttpRequest& request) {
  net::HttpAnswer answer;
  if (request.target == "/metrics") {
    answer.status = 200;
    answer.body = "metrics\n";
  }
  return answer;
}

net::NetOptions fuzz_net_options() {
  net::NetOptions o;
  o.handshake_timeout_seconds = 1;
  o.idle_timeout_seconds = 1;
  o.close_timeout_seconds = 1;
  o.max_connections_per_address = 2;
  // Every input comes from 127.0.0.1: after its third violation the cool-down would hold
  // every later connection, and each input is one connection on its own.
  o.abuse_cooldown_seconds = 0;
  return o;
}

struct Loopback::Impl {
  Impl(const net::NetOptions& options, net::Application& application)
      : acceptor(accept_context, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)),
        state(std::make_shared<net::SharedState>(options, application)),
        per_address(options.max_connections_per_address) {
    quiet_logs();
  }

  asio::io_context accept_context;
  tcp::acceptor acceptor;
  std::shared_ptr<net::SharedState> state;
  int per_address;
};

Loopback::Loopback(const net::NetOptions& options, net::Application& application)
    : impl_(std::make_unique<Impl>(options, application)) {}

Loopback::~Loopback() = default;

std::string Loopback::exchange(std::string_view request, std::string_view then) {
  std::string received;
  {
    // A context per exchange: whatever the session left pending (a timer, a linger) is
    // destroyed with it, and with it the session.
    asio::io_context context;
    tcp::socket client(context);
    // Connect and accept without blocking calls a signal could interrupt (libFuzzer's
    // timers send SIGALRM): the kernel completes a loopback handshake before accept.
    bool connected = false;
    client.async_connect(impl_->acceptor.local_endpoint(), [&](beast::error_code ec) {
      if (ec) broken("connect to the loopback listener: " + ec.message());
      connected = true;
    });
    tcp::socket server(context);
    beast::error_code accepted;
    do {
      impl_->acceptor.accept(server, accepted);
    } while (accepted == asio::error::interrupted);
    if (accepted) broken("accept on the loopback listener: " + accepted.message());
    while (!connected)
      context.run_one();
    context.restart();  // it ran out of work with the connect
    std::make_shared<net::HttpSession<beast::tcp_stream>>(beast::tcp_stream(std::move(server)),
                                                          impl_->state)
        ->run();
    bool ended = false;
    bool waiting = !then.empty();  // for the end of the server's answer to `request`
    auto finish_sending = [&] {
      beast::error_code ignored;
      client.shutdown(tcp::socket::shutdown_send, ignored);
    };
    std::array<char, 16 * 1024> chunk;
    std::function<void()> read = [&] {
      client.async_read_some(asio::buffer(chunk), [&](beast::error_code ec, std::size_t n) {
        received.append(chunk.data(), n);
        if (waiting && received.find("\r\n\r\n") != std::string::npos) {
          waiting = false;
          asio::async_write(client, asio::buffer(then.data(), then.size()),
                            [&](beast::error_code, std::size_t) { finish_sending(); });
        }
        if (ec) {
          ended = true;
          return;
        }
        read();
      });
    };
    read();
    asio::async_write(client, asio::buffer(request.data(), request.size()),
                      [&](beast::error_code, std::size_t) {
                        if (then.empty()) finish_sending();
                      });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!ended) {
      if (std::chrono::steady_clock::now() > deadline ||
          context.run_one_for(std::chrono::seconds(10)) == 0) {
        broken("the server neither closed the connection nor let it go within 10 s");
      }
    }
  }
  if (impl_->state->connections() != 0) broken("a session is still registered after its end");
  // Every connection from 127.0.0.1 is uncounted once its session is gone: the whole
  // allowance is free again.
  for (int i = 0; i < impl_->per_address; ++i) {
    if (!impl_->state->add_address("127.0.0.1"))
      broken("a connection stayed counted after its end");
  }
  for (int i = 0; i < impl_->per_address; ++i)
    impl_->state->remove_address("127.0.0.1");
  return received;
}

}  // namespace castra::fuzz
