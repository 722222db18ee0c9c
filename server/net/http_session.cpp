#include "server/net/http_session.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/dispatch.hpp>
#include <boost/beast/websocket.hpp>

#include <algorithm>
#include <chrono>
#include <optional>
#include <type_traits>
#include <utility>

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
  if (counted_) state_->remove_address(canonical_address(peer_).value_or(peer_));
}

template <class Stream>
void HttpSession<Stream>::run() {
  // Counted from the accept, so that TLS and HTTP handshakes are limited too. A trusted
  // proxy's connections are counted by the address it forwards, once the request is read.
  const std::string address = canonical_address(peer_).value_or(peer_);
  if (state_->trusted_proxies().count(address) == 0) {
    const auto cooldown = state_->cooldown_left(address);
    if (cooldown > std::chrono::seconds(0) && state_->add_address(address)) {
      // Held unread until the cool-down ends, then closed: closed at once, the client would be
      // back within milliseconds, each retry an accept. The hold counts against the address's
      // limit, so past it the connection is closed at once (below). Logged once, when the
      // cool-down began: one line per refusal would be a flood of its own.
      spdlog::debug("event=connection_held reason=abuse_cooldown address={}", address);
      counted_ = true;
      state_->join(this, this->weak_from_this());
      const auto until = std::min<std::chrono::steady_clock::duration>(
          cooldown, std::chrono::seconds(state_->options().handshake_timeout_seconds));
      boost::asio::dispatch(stream_.get_executor(), [self = this->shared_from_this(), until] {
        beast::get_lowest_layer(self->stream_).expires_after(until);
        self->hold();
      });
      return;
    }
    if (cooldown > std::chrono::seconds(0) || !state_->add_address(address)) {
      if (cooldown > std::chrono::seconds(0)) {
        spdlog::debug("event=connection_refused reason=abuse_cooldown address={}", address);
      } else {
        spdlog::warn("event=connection_refused reason=too_many_connections address={}", address);
      }
      beast::error_code ec;
      beast::get_lowest_layer(stream_).socket().close(ec);
      return;
    }
    counted_ = true;
  }
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

namespace {

// The status a request that does not parse is answered with (RFC 9110 and 6585), or nullopt
// when there is nobody to answer (the peer left, or the handshake timeout ran out).
std::optional<http::status> status_of_refusal(beast::error_code ec) {
  if (ec == http::error::header_limit) return http::status::request_header_fields_too_large;
  if (ec == http::error::body_limit) return http::status::payload_too_large;
  if (ec == http::error::end_of_stream || ec == http::error::partial_message) return std::nullopt;
  if (ec.category() == http::make_error_code(http::error::bad_method).category()) {
    return http::status::bad_request;
  }
  return std::nullopt;
}

// Every X-Forwarded-For line, in order, as one list (RFC 9110 5.3): a proxy that appends a
// line of its own (HAProxy's `option forwardfor`) puts the address it saw in the last one,
// and reading only the first would believe what the client wrote.
template <class Request>
std::string forwarded_for(const Request& request) {
  std::string hops;
  for (auto [it, end] = request.equal_range("X-Forwarded-For"); it != end; ++it) {
    if (!hops.empty()) hops += ", ";
    hops.append(it->value().data(), it->value().size());
  }
  return hops;
}

}  // namespace

template <class Stream>
void HttpSession<Stream>::on_read(beast::error_code ec, std::size_t) {
  if (ec == http::error::end_of_stream) return do_eof();
  if (ec) {
    const auto status = status_of_refusal(ec);
    if (!status) return fail(ec, "read");
    spdlog::debug("event=http_refused peer={} status={} error=\"{}\"", peer_,
                  static_cast<int>(*status), ec.message());
    response_ = {*status, 11};
    response_.set(http::field::content_type, "text/plain");
    response_.set(http::field::server, "castra-server");
    response_.body() = std::string(http::obsolete_reason(*status)) + "\n";
    response_.keep_alive(false);
    response_.prepare_payload();
    return http::async_write(
        stream_, response_,
        beast::bind_front_handler(&HttpSession::on_write, this->shared_from_this(), false));
  }

  auto request = parser_->release();
  const std::string client =
      client_address(peer_, forwarded_for(request), state_->trusted_proxies());
  if (beast::websocket::is_upgrade(request)) {
    if (request.target() == "/ws") {
      // The count goes with the connection.
      std::make_shared<WebsocketSession<Stream>>(std::move(stream_), state_, client,
                                                 std::exchange(counted_, false))
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
    HttpRequest asked{"GET", std::string(request.target()), client,
                      std::string(request[http::field::if_none_match])};
    const HttpAnswer answer = state_->application().on_http(asked);
    response_ = {static_cast<http::status>(answer.status), request.version()};
    response_.set(http::field::content_type, answer.content_type);
    for (const auto& [field, value] : answer.headers)
      response_.set(field, value);
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
    // Read what the peer still sends until it closes: closing with unread bytes would reset
    // the connection, and a reset may destroy the answer before the peer has read it.
    stream_.expires_after(std::chrono::seconds(2));
    linger();
  }
}

template <class Stream>
void HttpSession<Stream>::linger() {
  buffer_.clear();
  stream_.async_read_some(buffer_.prepare(16 * 1024),
                          [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                            if (!ec) self->linger();
                          });
}

template <class Stream>
void HttpSession<Stream>::hold() {
  // Reads and drops whatever comes until the expiry set in run() closes the socket.
  buffer_.clear();
  beast::get_lowest_layer(stream_).async_read_some(
      buffer_.prepare(4096), [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
        if (!ec) self->hold();
      });
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
