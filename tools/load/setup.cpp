#include "tools/load/setup.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>

#include "client/net/elsewhere.hpp"
#include "client/net/protocol_client.hpp"
#include "client/net/ws_client.hpp"

namespace castra::load {

namespace req = client::requests;
using boost::asio::ip::tcp;

boost::asio::ip::address Net::next_source() {
  if (sources.empty()) return {};
  return sources[opened++ % sources.size()];
}

std::optional<Target> resolve_target(const std::string& url, std::string* error) {
  const auto parsed = client::Url::parse(url);
  if (!parsed || parsed->tls) {
    *error = "expected ws://HOST:PORT/PATH, got " + url;
    return std::nullopt;
  }
  boost::asio::io_context ioc;
  tcp::resolver resolver(ioc);
  boost::system::error_code ec;
  auto results = resolver.resolve(tcp::v4(), parsed->host, parsed->port, ec);
  if (ec || results.empty()) {
    *error = "resolve " + parsed->host + ": " + ec.message();
    return std::nullopt;
  }
  return Target{results.begin()->endpoint(), parsed->host + ":" + parsed->port, parsed->path};
}

std::vector<boost::asio::ip::address> source_addresses(std::size_t connections,
                                                       std::size_t per_source) {
  const std::size_t count = (connections + per_source - 1) / std::max<std::size_t>(per_source, 1);
  std::vector<boost::asio::ip::address> out;
  if (count <= 1) return out;
  for (std::size_t i = 0; i < count; ++i) {
    out.push_back(boost::asio::ip::address_v4(0x7f000002u + static_cast<std::uint32_t>(i)));
  }
  return out;
}

void after(boost::asio::io_context& ioc, std::chrono::milliseconds delay,
           std::function<void()> fn) {
  auto timer = std::make_shared<boost::asio::steady_timer>(ioc, delay);
  timer->async_wait([timer, fn = std::move(fn)](const boost::system::error_code& ec) {
    if (!ec) fn();
  });
}

void Gate::run(Task task) {
  waiting_.push_back(std::move(task));
  start_next();
}

void Gate::start_next() {
  while (running_ < limit_ && !waiting_.empty()) {
    Task task = std::move(waiting_.front());
    waiting_.pop_front();
    ++running_;
    task([this] {
      --running_;
      start_next();
    });
  }
}

void call_retrying(boost::asio::io_context& ioc, Peer& peer, v1::ClientEnvelope request,
                   Peer::Reply reply, int attempts) {
  peer.request(request, [&ioc, &peer, request, reply = std::move(reply),
                         attempts](const v1::ServerEnvelope& e) mutable {
    if (e.has_error() && e.error().code() == v1::ERROR_SERVER_BUSY && attempts > 1) {
      const auto wait =
          std::chrono::milliseconds(std::clamp<std::uint64_t>(e.error().retry_after_ms(), 5, 1000));
      after(ioc, wait, [&ioc, &peer, request, reply = std::move(reply), attempts]() mutable {
        call_retrying(ioc, peer, std::move(request), std::move(reply), attempts - 1);
      });
      return;
    }
    reply(e);
  });
}

void call_following(Net& net, Peer& peer, v1::ClientEnvelope request, Peer::Reply reply,
                    std::uint64_t* moves, int hops) {
  auto again = [&net, &peer, request, reply, moves, hops]() mutable {
    call_following(net, peer, std::move(request), std::move(reply), moves, hops - 1);
  };
  call_retrying(net.ioc, peer, request,
                [&net, &peer, reply, moves, hops, again](const v1::ServerEnvelope& e) mutable {
                  const auto go = client::elsewhere(e);
                  if (!go || hops <= 1) return reply(e);
                  if (go->owner_url.empty()) return after(net.ioc, go->retry_after, again);
                  std::string bad;
                  const auto owner = resolve_target(go->owner_url, &bad);
                  if (!owner) return reply(e);
                  if (moves != nullptr) ++*moves;
                  peer.close();
                  auto moved = [e, reply, again](const std::string& error) mutable {
                    if (!error.empty()) return reply(e);
                    again();
                  };
                  // A guest has no session to resume: it is a new guest there.
                  if (peer.token().empty()) return open_guest(net, peer, *owner, moved);
                  open_resumed(net, peer, *owner, peer.token(), moved);
                });
}

void open_registered(Net& net, Peer& peer, const std::string& name,
                     std::function<void(const std::string&, const std::string&)> done) {
  peer.open(net.target, net.next_source(), [&net, &peer, name, done](const std::string& error) {
    if (!error.empty()) return done(error, "");
    call_retrying(net.ioc, peer, req::register_account(name, kPassword),
                  [&peer, done](const v1::ServerEnvelope& e) {
                    if (!e.has_session()) return done("register: " + error_key(e), "");
                    peer.signed_in(e.session().token());
                    done("", e.session().token());
                  });
  });
}

void open_guest(Net& net, Peer& peer, std::function<void(const std::string&)> done) {
  open_guest(net, peer, net.target, std::move(done));
}

void open_guest(Net& net, Peer& peer, const Target& target,
                std::function<void(const std::string&)> done) {
  peer.open(target, net.next_source(), [&net, &peer, done](const std::string& error) {
    if (!error.empty()) return done(error);
    call_retrying(net.ioc, peer, req::guest(), [done](const v1::ServerEnvelope& e) {
      done(e.has_session() ? "" : "guest: " + error_key(e));
    });
  });
}

void open_resumed(Net& net, Peer& peer, const std::string& token,
                  std::function<void(const std::string&)> done) {
  open_resumed(net, peer, net.target, token, std::move(done));
}

void open_resumed(Net& net, Peer& peer, const Target& target, const std::string& token,
                  std::function<void(const std::string&)> done) {
  peer.open(target, net.next_source(), [&net, &peer, token, done](const std::string& error) {
    if (!error.empty()) return done(error);
    v1::ClientEnvelope resume;
    resume.mutable_resume_session()->set_token(token);
    call_retrying(net.ioc, peer, std::move(resume),
                  [&peer, token, done](const v1::ServerEnvelope& e) {
                    if (!e.has_session()) return done("resume: " + error_key(e));
                    peer.signed_in(token);
                    done("");
                  });
  });
}

std::string error_key(const v1::ServerEnvelope& e) {
  if (e.has_error()) {
    return e.error().code() == v1::ERROR_UNSPECIFIED ? "disconnected"
                                                     : v1::ErrorCode_Name(e.error().code());
  }
  return "";
}

}  // namespace castra::load
