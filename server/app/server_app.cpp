#include "server/app/server_app.hpp"

#include <spdlog/spdlog.h>

#include <future>

#include "proto/castra/v1/protocol.pb.h"
#include "server/app/requests.hpp"
#include "server/app/sqlite_stores.hpp"
#include "server/dispatch/reply.hpp"
#include "server/web/web_assets.hpp"

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

ServerApp::ServerApp(AppOptions options, store::SqliteMatchStore& store, lobby::Scenarios scenarios,
                     runtime::Runtime& play, const Clock& clock,
                     campaign_server::Definitions campaigns)
    : ServerApp(
          std::move(options),
          [&store](Stores::Post post) { return std::make_unique<SqliteStores>(store, post); },
          std::move(scenarios), play, clock, std::move(campaigns)) {}

ServerApp::ServerApp(AppOptions options, MakeStores make_stores, lobby::Scenarios scenarios,
                     runtime::Runtime& play, const Clock& clock,
                     campaign_server::Definitions campaigns)
    : options_(std::move(options)),
      clock_(clock),
      metrics_(dispatch::metric_kinds(), error_names()),
      scenarios_(std::move(scenarios)),
      play_(play),
      service_(std::make_shared<TaskQueue>("service", 1, options_.service_queue)),
      stores_(make_stores(to_service())),
      definitions_(std::move(campaigns)) {
  notifier_ =
      std::make_unique<notify::Notifier>(options_.notify, stores_->targets(), clock_, &metrics_);
  hash_pool_ = std::make_unique<TaskQueue>("hash", options_.hash_threads, options_.hash_queue);
  accounts_ = std::make_unique<accounts::Accounts>(stores_->accounts(), *hash_pool_, to_service(),
                                                   clock_, options_.accounts, &metrics_);
  lobby_ = std::make_unique<lobby::Lobby>(stores_->matches(), scenarios_, stores_->chat(), play_,
                                          stores_->counts(), to_service(), clock_, options_.lobby,
                                          &metrics_);
  campaign_server::CampaignHooks hooks;
  hooks.changed = [this](const v1::StoredCampaign& c) { handlers_->on_campaign_changed(c); };
  hooks.battle_started = [this](const store::MatchRow& row) { handlers_->on_battle_started(row); };
  // Queued, never waited for: the notifier's own thread delivers (it logs each attempt).
  hooks.remind = [notifier = notifier_.get()](const campaign_server::Reminder& r) {
    notifier->remind(
        notify::Reminder{r.account, r.kind, r.subject, r.text, r.campaign_id, r.deadline_ms});
  };
  hooks.elsewhere = options_.campaign_placement;
  campaigns_ = std::make_unique<campaign_server::Campaigns>(
      stores_->campaigns(), definitions_, play_, to_service(), clock_,
      campaign_server::CampaignOptions{}, std::move(hooks));
  handlers_ = std::make_unique<dispatch::Handlers>(dispatch::Services{
      clients_, *accounts_, *lobby_, scenarios_, metrics_, options_.net, clock_,
      options_.server_name, &play_, campaigns_.get(), &stores_->targets(), &stores_->players()});
  dispatcher_ = std::make_unique<dispatch::Dispatcher>(clients_, *this, *handlers_, &metrics_);
  admin_ = std::make_unique<admin::AdminCommands>(clients_, *accounts_, *lobby_, *handlers_,
                                                  *notifier_, clock_);
  play_.set_listener([post = to_service(), h = handlers_.get()](const runtime::HostNotice& n) {
    post([h, n] { h->on_notice(n); });
  });
  // Before the first tick and the first request: a paused campaign's battle holds its clocks
  // from the start.
  std::promise<void> recovered;
  service_->post([this, &recovered] {
    if (!options_.campaign_placement) campaigns_->recover();
    recovered.set_value();
  });
  recovered.get_future().wait();
  service_->post([this] {
    stores_->accounts().delete_expired_sessions(clock_.now_ms(), [](store::Status s) {
      if (!s.ok()) spdlog::warn("event=expired_sessions_kept error=\"{}\"", s.message);
    });
    lobby_->refresh_counts();
  });
}

ServerApp::~ServerApp() {
  notifier_->stop();
  play_.set_listener(nullptr);
  // The pool's completions go to the service queue: stop the pool first.
  hash_pool_->stop();
  service_->stop();
}

void ServerApp::tick() {
  if (stopping_) return;
  service_->post([this] { campaigns_->tick(); });
}

void ServerApp::remote_match_changed(std::string match_id) {
  if (stopping_) return;
  // A full queue drops the notice: the client sees the change when it next asks.
  (void)service_->try_post(
      [this, id = std::move(match_id)] { handlers_->remote_match_changed(id); });
}

void ServerApp::remote_your_move(std::string match_id, std::int64_t account,
                                 std::int64_t deadline_ms) {
  if (stopping_) return;
  (void)service_->try_post([this, id = std::move(match_id), account, deadline_ms] {
    handlers_->remote_your_move(id, account, deadline_ms);
  });
}

void ServerApp::remote_campaign_changed(std::string campaign_id) {
  if (stopping_) return;
  (void)service_->try_post(
      [this, id = std::move(campaign_id)] { handlers_->remote_campaign_changed(id); });
}

void ServerApp::host_campaigns(bool hosting) {
  if (stopping_) return;
  service_->post([this, hosting] { campaigns_->host(hosting); });
}

std::function<void(std::function<void()>)> ServerApp::to_service() const {
  return [weak = std::weak_ptr<TaskQueue>(service_)](std::function<void()> task) {
    if (auto queue = weak.lock()) queue->post(std::move(task));
  };
}

std::optional<store::MatchRow> ServerApp::find(const std::string& match_id) {
  return lobby_->find(match_id);
}

std::optional<Failure> ServerApp::elsewhere(const store::MatchRow& row) {
  if (!options_.placement || play_.find(row.id)) return std::nullopt;
  return options_.placement(row.id);
}

void ServerApp::refuse(const std::shared_ptr<net::Connection>& connection, std::uint64_t request_id,
                       const Failure& failure) {
  metrics_.error(static_cast<int>(failure.code));
  connection->send(
      dispatch::frame_of(dispatch::error_envelope(request_id, failure), connection->encoding()));
}

void ServerApp::on_open(const std::shared_ptr<net::Connection>& connection) {
  metrics_.connection_opened();
  spdlog::info("event=connected connection={} address={} tls={} encoding={}", connection->id(),
               connection->address(), connection->secure() ? "on" : "off",
               subprotocol_name(connection->encoding()));
  std::weak_ptr<net::Connection> weak = connection;
  service_->post([this, id = connection->id(), weak, address = connection->address(),
                  secure = connection->secure()] {
    clients_.add(id, weak, address, secure, clock_.now_ms());
  });
}

void ServerApp::on_message(const std::shared_ptr<net::Connection>& connection, std::string frame,
                           bool text) {
  const auto received = dispatch::Clock::now();
  auto read = read_request(frame, text, connection->encoding());
  if (!read.request) return refuse(connection, read.request_id, read.failure);
  auto request = std::move(read.request);
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
  connection->close(code, f.message,
                    dispatch::frame_of(dispatch::error_envelope(0, f), connection->encoding()));
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
    return {200, "text/plain; version=0.0.4", metrics_.render(), {}};
  }
  if (auto page = web::answer(request)) return *std::move(page);
  return {};
}

void ServerApp::on_shutdown_started() {
  stopping_ = true;
}

void ServerApp::on_stopped() {
  notifier_->stop();
  play_.set_listener(nullptr);
  hash_pool_->stop();
  service_->stop();
  if (const store::Status s = stores_->matches().flush(); !s.ok()) {
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
