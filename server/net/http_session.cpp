#include "server/net/http_session.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/dispatch.hpp>
#include <boost/beast/websocket.hpp>

#include <type_traits>

#include "server/net/forwarded.hpp"
#include "server/net/websocket_session.hpp"

namespace castra::net {

namespace beast = boost::beast;
namespace http = beast::http;

template <class Stream>
HttpSession<Stream>::HttpSession(Stream&& stream, std::shared_ptr<SharedState> state)
    : stream_(std::move(stream)), state_(std::move(state)) {
  beast::error_code ec;
  const auto endpoint = beast::get_lowest_layer(stream_).socket().remote_endpoint(ec);
  peer_ = ec ? std::string("unknown") : endpoint.address().to_string();
}

template <class Stream>
HttpSession<Stream>::~HttpSession() {
  state_->leave(this);
}

template <class Stream>
void HttpSession<Stream>::run() {
  state_->join(this, this->weak_from_this());
  boost::asio::dispatch(stream_.get_executor(), [self = this->shared_from_this()] {
    auto& tcp = beast::get_lowest_layer(self->stream_);
    tcp.expires_after(std::chrono::seconds(self->state_->options().handshake_timeout_seconds));
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      self->stream_.async_handshake(boost::asio::ssl::stream_base::server,
                                    beast::bind_front_handler(&HttpSession::on_handshake, self));
    } else {
      self->do_read();
    }
  });
}

template <class Stream>
void HttpSession<Stream>::on_handshake(beast::error_code ec) {
  if (ec) return fail(ec, "tls_handshake");
  do_read();
}

template <class Stream>
void HttpSession<Stream>::shut_down() {
  boost::asio::dispatch(stream_.get_executor(), [self = this->shared_from_this()] {
    beast::error_code ec;
    auto& tcp = beast::get_lowest_layer(self->stream_);
    tcp.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
    tcp.close();
  });
}

template <class Stream>
void HttpSession<Stream>::do_read() {
  parser_.emplace();
  parser_->header_limit(8 * 1024);
  parser_->body_limit(state_->options().max_http_body_bytes);
  beast::get_lowest_layer(stream_).expires_after(
      std::chrono::seconds(state_->options().handshake_timeout_seconds));
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::on_read, this->shared_from_this()));
}

template <class Stream>
void HttpSession<Stream>::on_read(beast::error_code ec, std::size_t) {
  if (ec == http::error::end_of_stream) return do_eof();
  if (ec) return fail(ec, "read");

  auto request = parser_->release();
  const std::string client =
      client_address(peer_, request["X-Forwarded-For"], state_->trusted_proxies());
  if (beast::websocket::is_upgrade(request)) {
    if (request.target() == "/ws") {
      std::make_shared<WebsocketSession<Stream>>(std::move(stream_), state_, client)
          ->run(std::move(request));
      return;
    }
    response_ = {http::status::not_found, request.version()};
    response_.set(http::field::content_type, "text/plain");
    response_.body() = "WebSocket endpoint is /ws\n";
  } else if (request.method() == http::verb::get && request.target() == "/healthz") {
    response_ = {http::status::ok, request.version()};
    response_.set(http::field::content_type, "text/plain");
    response_.body() = "ok\n";
  } else if (request.method() == http::verb::get) {
    HttpRequest asked{"GET", std::string(request.target()), client};
    const HttpAnswer answer = state_->application().on_http(asked);
    response_ = {static_cast<http::status>(answer.status), request.version()};
    response_.set(http::field::content_type, answer.content_type);
    response_.body() = answer.body;
  } else {
    response_ = {http::status::method_not_allowed, request.version()};
    response_.set(http::field::content_type, "text/plain");
    response_.body() = "method not allowed\n";
  }
  response_.set(http::field::server, "castra-server");
  response_.keep_alive(request.keep_alive());
  response_.prepare_payload();
  const bool keep_alive = response_.keep_alive();
  http::async_write(
      stream_, response_,
      beast::bind_front_handler(&HttpSession::on_write, this->shared_from_this(), keep_alive));
}

template <class Stream>
void HttpSession<Stream>::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec) return fail(ec, "write");
  if (!keep_alive) return do_eof();
  do_read();
}

template <class Stream>
void HttpSession<Stream>::do_eof() {
  beast::error_code ec;
  if constexpr (std::is_same_v<Stream, TlsStream>) {
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(2));
    stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {});
  } else {
    stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ec);
  }
}

template <class Stream>
void HttpSession<Stream>::fail(beast::error_code ec, const char* what) {
  if (ec == boost::asio::error::operation_aborted || ec == beast::error::timeout ||
      ec == boost::asio::error::eof || ec == boost::asio::ssl::error::stream_truncated) {
    return;
  }
  spdlog::debug("event=http_error where={} peer={} error=\"{}\"", what, peer_, ec.message());
}

template class HttpSession<PlainStream>;
template class HttpSession<TlsStream>;

}  // namespace castra::net
