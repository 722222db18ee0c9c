#include "server/net/http_session.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/dispatch.hpp>
#include <boost/beast/websocket.hpp>

#include "server/net/websocket_session.hpp"

namespace castra::net {

namespace beast = boost::beast;
namespace http = beast::http;

namespace {
constexpr auto kHttpTimeout = std::chrono::seconds(30);
}  // namespace

HttpSession::HttpSession(boost::asio::ip::tcp::socket&& socket,
                         std::shared_ptr<SharedState> state, const NetOptions& options)
    : stream_(std::move(socket)), state_(std::move(state)), options_(options) {}

HttpSession::~HttpSession() { state_->leave(this); }

void HttpSession::run() {
  state_->join(this, weak_from_this());
  boost::asio::dispatch(stream_.get_executor(),
                        beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
}

void HttpSession::shut_down() {
  boost::asio::dispatch(stream_.get_executor(), [self = shared_from_this()] {
    beast::error_code ec;
    self->stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
    self->stream_.close();
  });
}

void HttpSession::do_read() {
  parser_.emplace();
  parser_->header_limit(8 * 1024);
  parser_->body_limit(options_.max_http_body_bytes);
  stream_.expires_after(kHttpTimeout);
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
  if (ec == http::error::end_of_stream) {
    stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ec);
    return;
  }
  if (ec) return fail(ec, "read");

  auto request = parser_->release();
  if (beast::websocket::is_upgrade(request)) {
    if (request.target() != "/ws") {
      response_ = {http::status::not_found, request.version()};
      response_.set(http::field::content_type, "text/plain");
      response_.body() = "WebSocket endpoint is /ws\n";
    } else {
      stream_.expires_never();
      std::make_shared<WebsocketSession>(stream_.release_socket(), state_, options_)
          ->run(std::move(request));
      return;
    }
  } else if (request.method() == http::verb::get && request.target() == "/healthz") {
    response_ = {http::status::ok, request.version()};
    response_.set(http::field::content_type, "text/plain");
    response_.body() = "ok\n";
  } else {
    response_ = {http::status::not_found, request.version()};
    response_.set(http::field::content_type, "text/plain");
    response_.body() = "not found\n";
  }
  response_.set(http::field::server, "castra-server");
  response_.keep_alive(request.keep_alive());
  response_.prepare_payload();
  const bool keep_alive = response_.keep_alive();
  http::async_write(stream_, response_,
                    beast::bind_front_handler(&HttpSession::on_write, shared_from_this(),
                                              keep_alive));
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec) return fail(ec, "write");
  if (!keep_alive) {
    stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ec);
    return;
  }
  do_read();
}

void HttpSession::fail(beast::error_code ec, const char* what) {
  if (ec == boost::asio::error::operation_aborted || ec == beast::error::timeout ||
      ec == boost::asio::error::eof) {
    return;
  }
  spdlog::debug("event=http_error where={} error=\"{}\"", what, ec.message());
}

}  // namespace castra::net
