#include "server/net/listener.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/strand.hpp>

#include "server/net/http_session.hpp"
#include "server/net/websocket_session.hpp"

namespace castra::net {

namespace beast = boost::beast;
using tcp = boost::asio::ip::tcp;

Listener::Listener(boost::asio::io_context& ioc, std::shared_ptr<SharedState> state,
                   boost::asio::ssl::context* tls)
    : ioc_(ioc),
      acceptor_(boost::asio::make_strand(ioc)),
      backoff_(acceptor_.get_executor()),
      state_(std::move(state)),
      tls_(tls) {}

bool Listener::open(const tcp::endpoint& endpoint, beast::error_code& ec) {
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(boost::asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(boost::asio::socket_base::max_listen_connections, ec);
  return !ec;
}

std::uint16_t Listener::port() const {
  return acceptor_.local_endpoint().port();
}

void Listener::run() {
  do_accept();
}

void Listener::stop() {
  boost::asio::dispatch(acceptor_.get_executor(), [self = shared_from_this()] {
    beast::error_code ec;
    self->acceptor_.close(ec);
    self->backoff_.cancel();
  });
}

void Listener::do_accept() {
  acceptor_.async_accept(boost::asio::make_strand(ioc_),
                         beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(beast::error_code ec, tcp::socket socket) {
  if (ec == boost::asio::error::operation_aborted) return;  // stopped
  if (ec) {
    // Out of descriptors, typically: try again shortly rather than spin.
    spdlog::warn("event=accept_error error=\"{}\"", ec.message());
    backoff_.expires_after(std::chrono::milliseconds(100));
    backoff_.async_wait([self = shared_from_this()](boost::system::error_code e) {
      if (!e && self->acceptor_.is_open()) self->do_accept();
    });
    return;
  }
  if (!state_->shutting_down()) {
    // Updates and answers are small frames sent as they happen: Nagle's algorithm would hold
    // each behind the client's delayed ACK (~40 ms a command).
    beast::error_code nodelay_error;
    socket.set_option(tcp::no_delay(true), nodelay_error);
    if (tls_ != nullptr) {
      std::make_shared<HttpSession<TlsStream>>(TlsStream(std::move(socket), *tls_), state_)->run();
    } else {
      std::make_shared<HttpSession<PlainStream>>(PlainStream(std::move(socket)), state_)->run();
    }
  }
  if (acceptor_.is_open()) do_accept();
}

}  // namespace castra::net
