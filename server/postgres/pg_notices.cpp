#include "server/postgres/pg_notices.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <sstream>

namespace castra::postgres {

namespace {

constexpr const char* kMatchChannel = "castra_match_changed";
constexpr const char* kYourMoveChannel = "castra_your_move";
constexpr const char* kCampaignChannel = "castra_campaign_changed";

void notify(pqxx::transaction_base& tx, const char* channel, const std::string& payload) {
  Params().text(channel).text(payload).run(tx, "SELECT pg_notify($1, $2)");
}

}  // namespace

std::optional<RowBefore> row_before(pqxx::transaction_base& tx, const std::string& match_id) {
  const pqxx::result r = Params().text(match_id).run(
      tx, "SELECT status, player_a, player_b, to_act FROM matches WHERE id = $1");
  if (r.empty()) return std::nullopt;
  return RowBefore{r[0][0].as<std::string>(), optional_integer_of(r[0][1]),
                   optional_integer_of(r[0][2]), r[0][3].as<std::string>()};
}

void notify_changes(pqxx::transaction_base& tx, const std::string& node, const RowBefore& before,
                    const store::MatchRow& after) {
  const std::string status(store::status_name(after.status));
  if (status != before.status || after.player_a != before.player_a ||
      after.player_b != before.player_b) {
    notify(tx, kMatchChannel, node + " " + after.id);
  }
  if (after.status != store::MatchStatus::kLive) return;
  for (const char side : {'A', 'B'}) {
    const bool now = after.to_act.find(side) != std::string::npos;
    const bool was = before.status == "live" && before.to_act.find(side) != std::string::npos;
    const auto& account = side == 'A' ? after.player_a : after.player_b;
    if (!now || was || !account) continue;
    const auto& deadline = side == 'A' ? after.deadline_a_ms : after.deadline_b_ms;
    notify(tx, kYourMoveChannel,
           node + " " + after.id + " " + std::to_string(*account) + " " +
               std::to_string(deadline.value_or(0)));
  }
}

void notify_campaign_changed(pqxx::transaction_base& tx, const std::string& node,
                             const std::string& campaign_id) {
  notify(tx, kCampaignChannel, node + " " + campaign_id);
}

struct PgListener::Receivers {
  struct Receiver final : pqxx::notification_receiver {
    Receiver(pqxx::connection_base& c, const std::string& channel, PgListener& owner,
             ClusterNotice::Kind kind)
        : pqxx::notification_receiver(c, channel), owner(owner), kind(kind) {}
    void operator()(const std::string& payload, int /*backend_pid*/) override {
      std::istringstream in(payload);
      std::string node;
      ClusterNotice n;
      n.kind = kind;
      in >> node >> n.id;
      if (kind == ClusterNotice::Kind::kYourMove) in >> n.account >> n.deadline_ms;
      if (!in || node == owner.node_) return;  // ours, or not one of ours
      owner.on_notice_(n);
    }
    PgListener& owner;
    ClusterNotice::Kind kind;
  };
  Receivers(pqxx::connection_base& c, PgListener& owner)
      : match(c, kMatchChannel, owner, ClusterNotice::Kind::kMatchChanged),
        your_move(c, kYourMoveChannel, owner, ClusterNotice::Kind::kYourMove),
        campaign(c, kCampaignChannel, owner, ClusterNotice::Kind::kCampaignChanged) {}
  Receiver match;
  Receiver your_move;
  Receiver campaign;
};

store::Status PgListener::open(const std::string& url, std::string node,
                               std::function<void(const ClusterNotice&)> on_notice,
                               std::unique_ptr<PgListener>* listener) {
  listener->reset(new PgListener(url, std::move(node), std::move(on_notice)));
  if (!(*listener)->listen()) {
    listener->reset();
    return store::Status{store::status_codes::kIoError, "the listener could not connect"};
  }
  (*listener)->thread_ = std::thread([l = listener->get()] { l->loop(); });
  return store::Status::success();
}

PgListener::PgListener(std::string url, std::string node,
                       std::function<void(const ClusterNotice&)> hook)
    : url_(std::move(url)), node_(std::move(node)), on_notice_(std::move(hook)) {}

PgListener::~PgListener() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
  receivers_.reset();
  connection_.reset();
}

bool PgListener::listen() {
  receivers_.reset();
  store::Status s;
  connection_ = connect(url_, &s);
  if (!connection_) return false;
  s = guarded([&] {
    receivers_ = std::make_unique<Receivers>(*connection_, *this);
    return store::Status::success();
  });
  return s.ok();
}

void PgListener::loop() {
  while (!stopping_) {
    const store::Status s = guarded([&] {
      connection_->await_notification(0, 250000);
      return store::Status::success();
    });
    if (s.ok()) continue;
    spdlog::warn("event=cluster_listener_failed error=\"{}\"", s.message);
    // A notice sent while we were away is lost: the client sees the change when it next asks.
    while (!stopping_ && !listen())
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
}

}  // namespace castra::postgres
