// HttpSession: reads HTTP requests on one connection (plain or TLS); answers GET /healthz,
// asks the application for the rest (GET /metrics), and hands an upgrade to /ws over to a
// WebsocketSession with the client's address (the forwarded one only from a trusted proxy).
// Lives on its socket's strand. Only server/net/*.cpp include this.
#pragma once

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <memory>
#include <optional>

#include "server/net/shared_state.hpp"

namespace castra::net {

template <class Stream>
class HttpSession : public Closable, public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  HttpSession(Stream&& stream, std::shared_ptr<SharedState> state);
  ~HttpSession() override;
  void run();
  void shut_down() override;

 private:
  void on_handshake(boost::beast::error_code ec);
  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void on_write(bool keep_alive, boost::beast::error_code ec, std::size_t bytes);
  void do_eof();
  void linger();  // plain connections only: drains the peer's bytes after our last answer
  void fail(boost::beast::error_code ec, const char* what);

  Stream stream_;
  boost::beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  std::string peer_;
  bool counted_ = false;  // in the per-address count, by peer_
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  boost::beast::http::response<boost::beast::http::string_body> response_;
};

extern template class HttpSession<boost::beast::tcp_stream>;
extern template class HttpSession<boost::beast::ssl_stream<boost::beast::tcp_stream>>;

}  // namespace castra::net
