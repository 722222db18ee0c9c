// HttpSession: reads HTTP requests on one connection; answers GET /healthz, hands an
// upgrade to /ws over to a WebsocketSession, and answers 404 to the rest. Lives on its
// socket's strand. Only server/net/*.cpp include this.
#pragma once

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <memory>
#include <optional>

#include "server/net/network.hpp"
#include "server/net/shared_state.hpp"

namespace castra::net {

class HttpSession : public Closable, public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state,
              const NetOptions& options);
  ~HttpSession() override;
  void run();
  void shut_down() override;

 private:
  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void on_write(bool keep_alive, boost::beast::error_code ec, std::size_t bytes);
  void fail(boost::beast::error_code ec, const char* what);

  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  NetOptions options_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  boost::beast::http::response<boost::beast::http::string_body> response_;
};

}  // namespace castra::net
