// WebsocketSession: one client's WebSocket over plain TCP or TLS, and the Connection the
// application holds. Owns the stream, a read buffer and a bounded outbound queue with one
// write in flight; enforces the frame size, the message rate and the greeting deadline. Lives
// on its socket's strand; its lifetime is the shared_ptr bound into each pending handler (and
// the application's, until on_closed). Only server/net/*.cpp include this.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>

#include <atomic>
#include <deque>
#include <memory>
#include <string>

#include "server/net/connection.hpp"
#include "server/net/rate_limiter.hpp"
#include "server/net/shared_state.hpp"

namespace castra::net {

using PlainStream = boost::beast::tcp_stream;
using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;

template <class NextLayer>
class WebsocketSession : public Connection,
                         public Closable,
                         public std::enable_shared_from_this<WebsocketSession<NextLayer>> {
 public:
  // `counted`: the connection is in the per-address count already (by `address`, from its
  // accept); otherwise it is counted when the upgrade is accepted.
  WebsocketSession(NextLayer&& stream, std::shared_ptr<SharedState> state, std::string address,
                   bool counted);
  ~WebsocketSession() override;

  // Accepts the upgrade request the HTTP session read.
  void run(boost::beast::http::request<boost::beast::http::string_body> request);

  std::uint64_t id() const override { return id_; }
  const std::string& address() const override { return address_; }
  bool secure() const override;
  server::Encoding encoding() const override { return encoding_; }
  void send(std::shared_ptr<const std::string> frame) override;
  void close(CloseCode code, std::string reason, std::shared_ptr<const std::string> last) override;
  void greeted() override;
  void shut_down() override;

 private:
  void on_accept(boost::beast::error_code ec);
  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void do_write();
  void on_write(boost::beast::error_code ec, std::size_t bytes);
  void start_close();
  void on_close(boost::beast::error_code ec);
  void violation(Violation v);
  void hard_close();
  void finish(boost::beast::error_code ec, const char* what);

  boost::beast::websocket::stream<NextLayer> ws_;
  boost::beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  const std::uint64_t id_;
  const std::string address_;
  RateLimiter limiter_;
  server::Encoding encoding_ = server::Encoding::kBinary;  // set in run(), before on_open
  boost::asio::steady_timer greeting_timer_;
  boost::asio::steady_timer close_timer_;

  std::deque<std::shared_ptr<const std::string>> queue_;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false;
  bool closing_ = false;        // no more reads dispatched, no more sends queued
  bool close_started_ = false;  // async_close issued
  boost::beast::websocket::close_reason close_reason_;
  bool counted_ = false;  // in the per-address count (by address_)
  bool opened_ = false;   // the application saw on_open
  bool finished_ = false;
  bool greeted_ = false;
};

extern template class WebsocketSession<PlainStream>;
extern template class WebsocketSession<TlsStream>;

}  // namespace castra::net
