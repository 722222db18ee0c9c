#include "tests/notify/receivers.hpp"

#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <istream>

namespace castra::testing {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

Receiver::Receiver() : acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
  port_ = acceptor_.local_endpoint().port();
}

Receiver::~Receiver() = default;

void Receiver::start() {
  accept();
  thread_ = std::thread([this] { io_.run(); });
}

void Receiver::stop() {
  io_.stop();
  if (thread_.joinable()) thread_.join();
}

void Receiver::accept() {
  acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
    if (ec) return;
    serve(socket);
    boost::system::error_code ignored;
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    accept();
  });
}

void Receiver::counted() {
  {
    std::lock_guard lock(mu_);
    ++count_;
  }
  changed_.notify_all();
}

bool Receiver::wait_for(std::size_t n, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return changed_.wait_for(lock, timeout, [&] { return count_ >= n; });
}

std::size_t Receiver::count() {
  std::lock_guard lock(mu_);
  return count_;
}

int Receiver::nth(const std::vector<int>& list, std::size_t n) {
  return list[std::min(n, list.size() - 1)];
}

// ---- HTTP ---------------------------------------------------------------------------------

HttpReceiver::HttpReceiver(std::vector<int> statuses) : statuses_(std::move(statuses)) {
  start();
}

HttpReceiver::~HttpReceiver() {
  stop();
}

std::string HttpReceiver::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port()) + path;
}

std::vector<HttpReceiver::Request> HttpReceiver::requests() {
  std::lock_guard lock(mu_);
  return requests_;
}

void HttpReceiver::serve(tcp::socket& socket) {
  boost::beast::flat_buffer buffer;
  http::request<http::string_body> request;
  boost::system::error_code ec;
  http::read(socket, buffer, request, ec);
  if (ec) return;
  Request r;
  r.method = std::string(request.method_string());
  r.target = std::string(request.target());
  for (const auto& field : request) {
    std::string name(field.name_string());
    std::transform(name.begin(), name.end(), name.begin(), ::tolower);
    r.headers[name] = std::string(field.value());
  }
  r.body = request.body();
  int status = 0;
  {
    std::lock_guard lock(mu_);
    status = nth(statuses_, requests_.size());
    requests_.push_back(std::move(r));
  }
  http::response<http::string_body> response(static_cast<http::status>(status), 11);
  response.body() = "ok";
  response.keep_alive(false);
  response.prepare_payload();
  http::write(socket, response, ec);
  counted();
}

// ---- SMTP ---------------------------------------------------------------------------------

SmtpReceiver::SmtpReceiver(std::vector<int> data_replies, std::vector<int> rcpt_replies)
    : data_replies_(std::move(data_replies)), rcpt_replies_(std::move(rcpt_replies)) {
  start();
}

SmtpReceiver::~SmtpReceiver() {
  stop();
}

std::string SmtpReceiver::url() const {
  return "smtp://127.0.0.1:" + std::to_string(port());
}

std::vector<SmtpReceiver::Message> SmtpReceiver::messages() {
  std::lock_guard lock(mu_);
  return messages_;
}

void SmtpReceiver::serve(tcp::socket& socket) {
  asio::streambuf in;
  boost::system::error_code ec;
  const auto say = [&](const std::string& line) {
    asio::write(socket, asio::buffer(line + "\r\n"), ec);
  };
  const auto read_line = [&](std::string* line) {
    asio::read_until(socket, in, "\r\n", ec);
    if (ec) return false;
    std::istream stream(&in);
    std::getline(stream, *line);
    if (!line->empty() && line->back() == '\r') line->pop_back();
    return true;
  };
  const auto starts = [](const std::string& line, const char* verb) {
    std::string upper = line.substr(0, std::string(verb).size());
    std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
    return upper == verb;
  };
  const auto finish = [&](Message& m) {
    {
      std::lock_guard lock(mu_);
      messages_.push_back(m);
    }
    counted();
    m = Message{};
  };

  say("220 receiver ESMTP test");
  Message m;
  std::string line;
  while (!ec && read_line(&line)) {
    if (starts(line, "EHLO") || starts(line, "HELO")) {
      say("250 receiver");
    } else if (starts(line, "MAIL FROM:")) {
      m.mail_from = line.substr(10);
      say("250 sender ok");
    } else if (starts(line, "RCPT TO:")) {
      int reply = 0;
      {
        std::lock_guard lock(mu_);
        reply = nth(rcpt_replies_, rcpts_++);
      }
      if (reply == 250) {
        m.rcpt_to.push_back(line.substr(8));
        say("250 recipient ok");
      } else {
        say(std::to_string(reply) + " recipient refused");
        finish(m);
      }
    } else if (starts(line, "DATA")) {
      say("354 go ahead");
      std::string data;
      while (read_line(&line) && line != ".") {
        // RFC 5321 4.5.2: a leading dot was doubled by the sender.
        if (!line.empty() && line[0] == '.') line.erase(0, 1);
        data += line + "\r\n";
      }
      m.data = data;
      int reply = 0;
      {
        std::lock_guard lock(mu_);
        reply = nth(data_replies_, datas_++);
      }
      m.accepted = reply == 250;
      say(std::to_string(reply) + (m.accepted ? " queued" : " not now"));
      finish(m);
    } else if (starts(line, "RSET")) {
      m = Message{};
      say("250 ok");
    } else if (starts(line, "NOOP")) {
      say("250 ok");
    } else if (starts(line, "QUIT")) {
      say("221 bye");
      return;
    } else {
      say("502 not implemented");
    }
  }
}

// ---- Silent -------------------------------------------------------------------------------

SilentListener::SilentListener()
    : acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
  port_ = acceptor_.local_endpoint().port();
}

}  // namespace castra::testing
