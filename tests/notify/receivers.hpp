// Local receivers for the reminder tests: an HTTP server that records every request and
// answers each with the status it was given, and an SMTP server (220, EHLO/HELO, MAIL, RCPT,
// DATA, QUIT) that records every message it is handed. Each listens on 127.0.0.1 and a free
// port and serves one connection at a time on a thread of its own; the test thread waits for
// what they received with a generous timeout, never a sleep.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace castra::testing {

using namespace std::chrono_literals;

// The accept loop and the bookkeeping both receivers share.
class Receiver {
 public:
  Receiver();
  virtual ~Receiver();
  Receiver(const Receiver&) = delete;
  Receiver& operator=(const Receiver&) = delete;
  std::uint16_t port() const { return port_; }
  // Waits until `n` exchanges (requests, or messages offered with DATA) have been recorded.
  bool wait_for(std::size_t n, std::chrono::milliseconds timeout = 20s);
  std::size_t count();

 protected:
  // Serves one accepted connection, blocking, on the receiver's thread.
  virtual void serve(boost::asio::ip::tcp::socket& socket) = 0;
  // Starts accepting; the derived constructor calls it last.
  void start();
  void stop();  // the derived destructor calls it first
  // Counts one exchange and wakes wait_for.
  void counted();
  // The answer for the `n`th exchange (0-based): its entry in `list`, the last one after that.
  static int nth(const std::vector<int>& list, std::size_t n);

  std::mutex mu_;

 private:
  void accept();
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::uint16_t port_ = 0;
  std::thread thread_;
  std::condition_variable changed_;
  std::size_t count_ = 0;
};

class HttpReceiver final : public Receiver {
 public:
  struct Request {
    std::string method;
    std::string target;
    std::map<std::string, std::string> headers;  // names in lower case
    std::string body;
  };
  // `statuses`: the status of each request in turn, the last one for every later request.
  explicit HttpReceiver(std::vector<int> statuses = {200});
  ~HttpReceiver() override;
  std::string url(const std::string& path = "/hook") const;
  std::vector<Request> requests();

 private:
  void serve(boost::asio::ip::tcp::socket& socket) override;
  std::vector<int> statuses_;
  std::vector<Request> requests_;
};

class SmtpReceiver final : public Receiver {
 public:
  struct Message {
    std::string mail_from;  // MAIL FROM's argument, "<...>"
    std::vector<std::string> rcpt_to;
    std::string data;  // what DATA carried, dot-stuffing undone, without the final "."
    bool accepted = false;
  };
  // `rcpt_replies` and `data_replies`: the reply to each RCPT and to each message's end, in
  // turn, the last one for every later one (250: accepted).
  explicit SmtpReceiver(std::vector<int> data_replies = {250},
                        std::vector<int> rcpt_replies = {250});
  ~SmtpReceiver() override;
  std::string url() const;
  std::vector<Message> messages();

 private:
  void serve(boost::asio::ip::tcp::socket& socket) override;
  std::vector<int> data_replies_;
  std::vector<int> rcpt_replies_;
  std::size_t rcpts_ = 0;  // RCPTs and DATAs answered so far
  std::size_t datas_ = 0;
  std::vector<Message> messages_;
};

// A port that completes TCP handshakes (the kernel's backlog) and never answers: a webhook that
// hangs.
class SilentListener {
 public:
  SilentListener();
  std::uint16_t port() const { return port_; }

 private:
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::uint16_t port_ = 0;
};

}  // namespace castra::testing
