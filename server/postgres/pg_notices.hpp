// Cluster mode's notices between nodes over PostgreSQL's LISTEN/NOTIFY: a match's row change
// that the lobby pushes (MatchUpdated: joined, left, started, ended), a side's coming to
// act ("your move") and a campaign's change (CampaignUpdated) are NOTIFYed in the transaction of
// the append that makes them, so they reach the other nodes exactly when (and only if) the change
// is committed; each node LISTENs on a connection of its own (PgListener) and pushes them to its
// own connections of the players. A node ignores its own notices (it told its connections already).
// Threading: the two write functions on the writer thread; PgListener's hook on its thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "server/postgres/pg.hpp"
#include "server/store/match_store.hpp"

namespace castra::postgres {

// The columns of a match's row whose change is news for the other nodes, before an append.
struct RowBefore {
  std::string status;
  std::optional<std::int64_t> player_a, player_b;
  std::string to_act;
};
std::optional<RowBefore> row_before(pqxx::transaction_base& tx, const std::string& match_id);
// NOTIFYs, in `tx`, what changed from `before` to `after`.
void notify_changes(pqxx::transaction_base& tx, const std::string& node, const RowBefore& before,
                    const store::MatchRow& after);

// NOTIFYs, in the transaction that writes it, that `campaign_id` changed (the node hosting
// the campaigns writes them; the others' followers and players hear of it from this).
void notify_campaign_changed(pqxx::transaction_base& tx, const std::string& node,
                             const std::string& campaign_id);

struct ClusterNotice {
  enum class Kind { kMatchChanged, kYourMove, kCampaignChanged };
  Kind kind = Kind::kMatchChanged;
  std::string id;                // the match's; kCampaignChanged: the campaign's
  std::int64_t account = 0;      // kYourMove: the player who has to act
  std::int64_t deadline_ms = 0;  // kYourMove: his deadline, 0 when untimed
};

class PgListener {
 public:
  // Connects to `url` and LISTENs; `on_notice` gets the other nodes' notices, on the
  // listener's thread (it must only post).
  static store::Status open(const std::string& url, std::string node,
                            std::function<void(const ClusterNotice&)> on_notice,
                            std::unique_ptr<PgListener>* listener);
  ~PgListener();
  PgListener(const PgListener&) = delete;
  PgListener& operator=(const PgListener&) = delete;

 private:
  struct Receivers;
  PgListener(std::string url, std::string node, std::function<void(const ClusterNotice&)> hook);
  void loop();
  bool listen();

  const std::string url_;
  const std::string node_;
  const std::function<void(const ClusterNotice&)> on_notice_;
  std::unique_ptr<pqxx::connection> connection_;
  std::unique_ptr<Receivers> receivers_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace castra::postgres
