// WebsocketSession: one client's WebSocket. Owns the stream, a read buffer and a bounded
// outbound queue with one write in flight. Lives on its socket's strand; its lifetime is
// the shared_ptr bound into each pending handler. Only server/net/*.cpp include this.
#pragma once

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <deque>
#include <memory>
#include <string>

#include "server/net/network.hpp"
#include "server/net/shared_state.hpp"

namespace castra::net {

class WebsocketSession : public Closable, public std::enable_shared_from_this<WebsocketSession> {
 public:
  WebsocketSession(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state,
                   const NetOptions& options);
  ~WebsocketSession() override;

  // Accepts the upgrade request the HTTP session read.
  void run(boost::beast::http::request<boost::beast::http::string_body> request);
  // Queues one binary frame. Any thread.
  void send(std::shared_ptr<const std::string> frame);
  void shut_down() override;

 private:
  void on_accept(boost::beast::error_code ec);
  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void do_write();
  void on_write(boost::beast::error_code ec, std::size_t bytes);
  void fail(boost::beast::error_code ec, const char* what);

  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  NetOptions options_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  bool closing_ = false;
};

}  // namespace castra::net
