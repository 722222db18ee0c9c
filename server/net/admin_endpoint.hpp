// AdminEndpoint: the operators' local channel, a Unix socket (mode 0600, so only the server's
// own user can connect) that takes one command line per connection and answers with text
// (docs/operations.md). `castra-server admin ...` is its client. Only server/net/*.cpp
// include this; it runs on the network's io_context.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/beast/core/error.hpp>

#include <memory>
#include <string>

#include "server/net/connection.hpp"

namespace castra::net {

class AdminEndpoint : public std::enable_shared_from_this<AdminEndpoint> {
 public:
  AdminEndpoint(boost::asio::io_context& ioc, Application& application);
  // Binds `path` (replacing a stale socket file) and restricts it to the owner.
  bool open(const std::string& path, boost::beast::error_code& ec);
  void run();
  void stop();

 private:
  void do_accept();

  boost::asio::io_context& ioc_;
  boost::asio::local::stream_protocol::acceptor acceptor_;
  Application& application_;
  std::string path_;
};

}  // namespace castra::net
