#include "server/app/server_app.hpp"

#include <spdlog/spdlog.h>

#include "proto/castra/v1/protocol.pb.h"
#include "server/dispatch/reply.hpp"

namespace castra::server {

namespace v1 = castra::v1;

namespace {

std::vector<std::string> error_names() {
  std::vector<std::string> names(128);
  for (int code = 1; code < 128; ++code) {
    if (v1::ErrorCode_IsValid(code)) {
      names[static_cast<std::size_t>(code)] = v1::ErrorCode_Name(static_cast<v1::ErrorCode>(code));
    }
  }
  return names;
}

}  // namespace

ServerApp::ServerApp(AppOptions options, store::MatchStore& matches, store::SqlAccess& sql,
                     lobby::Scenarios scenarios, lobby::MatchRuntime* runtime,
                     runtime::Runtime* play)
    : options_(std::move(options)),
      matches_(matches),
      metrics_(dispatch::metric_kinds(), error_names()),
      sql_(sql),
      account_store_(sql_),
      chat_store_(sql_),
      scenarios_(std::move(scenarios)),
      own_runtime_(runtime ? nullptr : std::make_unique<lobby::LobbyOnlyRuntime>(matches)),
      runtime_(runtime ? *runtime : *own_runtime_),
      play_(play) {
  // Work done before the threads start: no task can race it.
  account_store_.delete_expired_sessions(accounts::Accounts::now_ms());
  service_ = std::make_unique<TaskQueue>("service", 1, options_.service_queue);
  hash_pool_ = std::make_unique<TaskQueue>("hash", options_.hash_threads, options_.hash_queue);
  auto to_service = [q = service_.get()](std::function<void()> task) { q->post(std::move(task)); };
  accounts_ = std::make_unique<accounts::Accounts>(account_store_, *hash_pool_, to_service,
                                                   options_.accounts, &metrics_);
  lobby_ = std::make_unique<lobby::Lobby>(matches_, scenarios_, chat_store_, runtime_, sql_,
                                          to_service, options_.lobby, &metrics_);
  handlers_ = std::make_unique<dispatch::Handlers>(
      dispatch::Services{clients_, *accounts_, *lobby_, scenarios_, metrics_, options_.net,
                         options_.server_name, play_});
  dispatcher_ = std::make_unique<dispatch::Dispatcher>(clients_, *this, *handlers_, &metrics_);
  admin_ = std::make_unique<admin::AdminCommands>(clients_, *accounts_, *lobby_, *handlers_);
  if (play_ != nullptr) {
    play_->set_listener([q = service_.get(), h = handlers_.get()](const runtime::HostNotice& n) {
      q->post([h, n] { h->on_notice(n); });
    });
  }
  service_->post([this] { lobby_->refresh_counts(); });
}

ServerApp::~ServerApp() {
  if (play_ != nullptr) play_->set_listener(nullptr);
  // The pool's completions go to the service queue: stop the pool first.
  hash_pool_->stop();
  service_->stop();
}

std::optional<store::MatchRow> ServerApp::find(const std::string& match_id) {
  return lobby_->find(match_id);
}

void ServerApp::refuse(const std::shared_ptr<net::Connection>& connection, std::uint64_t request_id,
                       const Failure& failure) {
  metrics_.error(static_cast<int>(failure.code));
  connection->send(dispatch::frame_of(dispatch::error_envelope(request_id, failure)));
}

void ServerApp::on_open(const std::shared_ptr<net::Connection>& connection) {
  metrics_.connection_opened();
  spdlog::info("event=connected connection={} address={} tls={}", connection->id(),
               connection->address(), connection->secure() ? "on" : "off");
  std::weak_ptr<net::Connection> weak = connection;
  service_->post([this, id = connection->id(), weak, address = connection->address(),
                  secure = connection->secure()] {
    clients_.add(id, weak, address, secure, accounts::Accounts::now_ms());
  });
}

void ServerApp::on_message(const std::shared_ptr<net::Connection>& connection, std::string frame,
                           bool text) {
  const auto received = dispatch::Clock::now();
  if (text) {
    return refuse(connection, 0,
                  fail(v1::ERROR_MALFORMED, "frames are binary protobuf ClientEnvelopes"));
  }
  auto request = std::make_shared<v1::ClientEnvelope>();
  if (!request->ParseFromString(frame)) {
    return refuse(connection, 0, fail(v1::ERROR_MALFORMED, "not a castra.v1.ClientEnvelope"));
  }
  if (stopping_) {
    return refuse(connection, request->request_id(),
                  fail(v1::ERROR_SHUTTING_DOWN, "the server is stopping; reconnect later"));
  }
  const bool queued = service_->try_post([this, id = connection->id(), request, received] {
    dispatcher_->dispatch(id, *request, received);
  });
  if (!queued) {
    refuse(connection, request->request_id(),
           fail(v1::ERROR_SERVER_BUSY, "the server is busy; try again", 1000));
  }
}

void ServerApp::on_violation(const std::shared_ptr<net::Connection>& connection,
                             net::Violation violation) {
  Failure f;
  net::CloseCode code = net::CloseCode::kPolicy;
  switch (violation) {
    case net::Violation::kFrameTooLarge:
      f = fail(
          v1::ERROR_FRAME_TOO_LARGE,
          "a frame may have at most " + std::to_string(options_.net.max_frame_bytes) + " bytes");
      code = net::CloseCode::kTooBig;
      break;
    case net::Violation::kRateLimited:
      f = fail(v1::ERROR_RATE_LIMITED,
               "more than " + std::to_string(static_cast<int>(options_.net.messages_per_second)) +
                   " messages a second",
               1000);
      break;
    case net::Violation::kTooManyConnections:
      f = fail(v1::ERROR_TOO_MANY_CONNECTIONS, "too many connections from your address", 10000);
      break;
    case net::Violation::kGreetingTimeout:
      f = fail(v1::ERROR_HANDSHAKE_REQUIRED, "no Hello in time");
      break;
    case net::Violation::kSlowReader:
      metrics_.slow_reader();
      return;  // already cut off: nothing can reach it
  }
  metrics_.error(static_cast<int>(f.code));
  spdlog::info("event=limit_broken connection={} address={} code={}", connection->id(),
               connection->address(), v1::ErrorCode_Name(f.code));
  connection->close(code, f.message, dispatch::frame_of(dispatch::error_envelope(0, f)));
}

void ServerApp::on_closed(std::uint64_t connection_id) {
  metrics_.connection_closed();
  spdlog::info("event=disconnected connection={}", connection_id);
  service_->post([this, connection_id] {
    handlers_->client_gone(connection_id);
    clients_.remove(connection_id);
  });
}

net::HttpAnswer ServerApp::on_http(const net::HttpRequest& request) {
  if (request.target == "/metrics") {
    return {200, "text/plain; version=0.0.4", metrics_.render()};
  }
  return {};
}

void ServerApp::on_shutdown_started() {
  stopping_ = true;
}

void ServerApp::on_stopped() {
  if (play_ != nullptr) play_->set_listener(nullptr);
  hash_pool_->stop();
  service_->stop();
  if (const store::Status s = matches_.flush(); !s.ok()) {
    spdlog::error("event=store_flush_failed error=\"{}\"", s.message);
  }
  spdlog::info("event=application_stopped");
}

void ServerApp::on_admin(std::string line, std::function<void(std::string)> reply) {
  const bool queued =
      service_->try_post([this, line = std::move(line), reply] { admin_->run(line, reply); });
  if (!queued) reply("error the server is busy; try again\n");
}

}  // namespace castra::server
