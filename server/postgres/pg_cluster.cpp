#include "server/postgres/pg_cluster.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <set>

#include "server/lobby/shared.hpp"

namespace castra::postgres {

using store::Status;

Status PgCluster::open(const std::string& url, std::shared_ptr<LeaseBook> leases,
                       PgMatchStore& store, runtime::Runtime& runtime,
                       std::unique_ptr<PgCluster>* cluster) {
  cluster->reset();
  if (!store.roles()) {
    return Status{store::status_codes::kIoError, "cluster mode needs the store's roles book"};
  }
  const std::int64_t lease_ms = leases->lease_ms();
  // A takeover waits at most one period for a row a paused node's transaction still holds
  // (that node's session is ended by the database: idle_in_transaction_session_timeout on
  // its writer); the next round tries again.
  PgSession::Prepare prepare = [lease_ms](pqxx::connection& c) {
    c.set_variable("lock_timeout", std::to_string(std::max<std::int64_t>(1, lease_ms / 3)));
    c.set_variable("statement_timeout", std::to_string(lease_ms));
  };
  std::unique_ptr<PgCluster> made(
      new PgCluster(url, std::move(prepare), std::move(leases), store, runtime));
  if (Status s = made->transact([](pqxx::work&) {}); !s.ok()) return s;
  *cluster = std::move(made);
  return Status::success();
}

PgCluster::PgCluster(const std::string& url, PgSession::Prepare prepare,
                     std::shared_ptr<LeaseBook> leases, PgMatchStore& store,
                     runtime::Runtime& runtime)
    : keeper_(url, "keeper", std::move(prepare)),
      leases_(std::move(leases)),
      store_(store),
      runtime_(runtime) {}

// A connection the database dropped is made again (one try; the next round tries again), and
// `body` runs once more on it, so a body sets its outputs afresh each time it runs.
Status PgCluster::transact(const std::function<void(pqxx::work&)>& body) {
  return keeper_.run(
      [&](pqxx::connection& c) {
        pqxx::work tx(c);
        body(tx);
        tx.commit();
        return Status::success();
      },
      std::chrono::milliseconds{0});
}

PgCluster::~PgCluster() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  // A node that stops on purpose hands its matches and roles over now rather than after a
  // lease: their epochs move on with the next owner, so a write of this node still queued is
  // refused.
  const Status s = transact([&](pqxx::work& tx) {
    Params()
        .text(leases_->node())
        .run(tx,
             "UPDATE match_leases SET expires_at = now() WHERE node = $1 AND expires_at > now()");
    Params()
        .text(leases_->node())
        .run(tx,
             "UPDATE cluster_roles SET expires_at = now() WHERE node = $1 AND expires_at > now()");
  });
  if (!s.ok()) spdlog::warn("event=leases_not_handed_over error=\"{}\"", s.message);
}

void PgCluster::start(std::string public_url) {
  public_url_ = std::move(public_url);
  spdlog::info("event=cluster_node node={} public_url={} lease_ms={}", leases_->node(), public_url_,
               leases_->lease_ms());
  thread_ = std::thread([this] { loop(); });
}

void PgCluster::loop() {
  const auto period = std::chrono::milliseconds(std::max<std::int64_t>(1, leases_->lease_ms() / 3));
  bool first = true;
  for (;;) {
    round(first);
    first = false;
    std::unique_lock lock(mu_);
    if (wake_.wait_for(lock, period, [&] { return stopping_; })) return;
  }
}

void PgCluster::round(bool first) {
  announce();
  renew();
  const bool hosted_campaigns = store_.roles()->epoch_of(kCampaignsRole).has_value();
  const bool campaigns = campaigns_role(first);
  take_over(first, campaigns);
  // After take_over: the battles this node now hosts are loaded before the campaigns are.
  if (campaigns && !hosted_campaigns && on_campaigns_) on_campaigns_(true);
}

void PgCluster::announce() {
  const Status s = transact([&](pqxx::work& tx) {
    Params()
        .text(leases_->node())
        .text(public_url_)
        .run(tx,
             "INSERT INTO cluster_nodes(node, public_url, seen_at) VALUES ($1, $2, now()) "
             "ON CONFLICT (node) DO UPDATE SET public_url = excluded.public_url, "
             "seen_at = excluded.seen_at");
  });
  if (!s.ok()) spdlog::warn("event=cluster_announce_failed error=\"{}\"", s.message);
}

void PgCluster::renew() {
  const std::vector<LeaseBook::Held> held = leases_->held();
  if (held.empty()) return;
  std::set<std::string> renewed;
  // A body runs again whole on a connection made again: `renewed` is set afresh.
  const Status s = transact([&](pqxx::work& tx) { renewed = renew_leases(tx, *leases_, held); });
  // Not renewed this round is not lost: the database is the judge, and it still says ours
  // until the lease runs out (and fencing holds whatever happens meanwhile).
  if (!s.ok()) {
    spdlog::warn("event=lease_renewal_failed error=\"{}\"", s.message);
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  const auto grace = std::chrono::milliseconds(leases_->lease_ms());
  for (const LeaseBook::Held& h : held) {
    if (!renewed.contains(h.match_id)) {
      spdlog::warn("event=lease_lost match={} node={} epoch={}", h.match_id, leases_->node(),
                   h.epoch);
      leases_->lost(h.match_id);
      continue;
    }
    // An ended match needs no owner (any node serves its record): its lease may lapse. One
    // that is not hosted (it could not be loaded) neither, once it has had time to be.
    const auto host = runtime_.find(h.match_id);
    if ((host && host->seen()->ended) || (!host && now - h.since > grace)) {
      leases_->forget(h.match_id);
    }
  }
}

bool PgCluster::campaigns_role(bool first) {
  LeaseBook& roles = *store_.roles();
  const std::optional<std::int64_t> held = roles.epoch_of(kCampaignsRole);
  std::optional<std::int64_t> epoch;
  const Status s = transact([&](pqxx::work& tx) {
    epoch.reset();
    // Renewed at the same epoch while this node holds it (or it lapsed and nobody took it);
    // taken over at epoch + 1 once it lapsed, or at once after a restart under the same id.
    const pqxx::result r =
        Params()
            .text(kCampaignsRole)
            .text(leases_->node())
            .integer(leases_->lease_ms())
            .integer(held.value_or(0))
            .text(first ? "true" : "false")
            .run(tx,
                 "INSERT INTO cluster_roles(role, node, epoch, expires_at) "
                 "VALUES ($1, $2, 1, now() + $3::bigint * interval '1 millisecond') "
                 "ON CONFLICT (role) DO UPDATE SET node = excluded.node, "
                 "expires_at = excluded.expires_at, epoch = CASE WHEN cluster_roles.node = "
                 "excluded.node AND cluster_roles.epoch = $4 THEN cluster_roles.epoch "
                 "ELSE cluster_roles.epoch + 1 END "
                 "WHERE (cluster_roles.node = excluded.node AND cluster_roles.epoch = $4) OR "
                 "cluster_roles.expires_at < now() OR "
                 "($5::boolean AND cluster_roles.node = excluded.node) RETURNING epoch");
    if (!r.empty()) epoch = r[0][0].as<std::int64_t>();
  });
  // Not renewed this round is not lost, as with a match's lease (renew()).
  if (!s.ok()) {
    spdlog::warn("event=campaigns_role_renewal_failed error=\"{}\"", s.message);
    return held.has_value();
  }
  if (!epoch) {
    if (held) {
      spdlog::warn("event=campaigns_role_lost node={} epoch={}", leases_->node(), *held);
      roles.forget(kCampaignsRole);
      if (on_campaigns_) on_campaigns_(false);
    }
    return false;
  }
  if (held != epoch) {
    roles.hold(kCampaignsRole, *epoch);
    spdlog::info("event=campaigns_role_taken node={} epoch={}", leases_->node(), *epoch);
  }
  return true;
}

void PgCluster::take_over(bool first, bool campaigns) {
  std::vector<std::string> lapsed;
  Status s = transact([&](pqxx::work& tx) {
    lapsed.clear();
    // After a restart under the same node id this node's own leases are its again at once
    // (the process that held them is gone; their epochs move on all the same). A campaign's
    // battle belongs to the node holding the campaigns role, whose keeper takes it at once,
    // lapsed or not: its lease may run a little past the role's (it began when the battle was
    // made, between two renewals), and the old owner's appends are fenced from here on.
    const pqxx::result r =
        Params()
            .text(leases_->node())
            .text(first ? "true" : "false")
            .text(campaigns ? "true" : "false")
            .run(tx,
                 "SELECT m.id FROM matches m LEFT JOIN match_leases l ON l.match_id = m.id "
                 "LEFT JOIN campaigns c ON c.battle_match_id = m.id "
                 "WHERE m.status IN ('open', 'live') AND (l.match_id IS NULL OR "
                 "l.expires_at < now() OR ($2::boolean AND l.node = $1) OR "
                 "($3::boolean AND c.id IS NOT NULL AND l.node <> $1)) AND "
                 "($3::boolean OR c.id IS NULL) "
                 "ORDER BY m.updated_ms LIMIT 256");
    for (const auto& row : r)
      lapsed.push_back(row[0].as<std::string>());
  });
  if (!s.ok()) {
    spdlog::warn("event=lease_scan_failed error=\"{}\"", s.message);
    return;
  }
  for (const std::string& id : lapsed) {
    if (leases_->epoch_of(id)) continue;
    std::optional<std::int64_t> epoch;
    s = transact([&](pqxx::work& tx) {
      epoch.reset();
      const pqxx::result r =
          Params()
              .text(id)
              .text(leases_->node())
              .integer(leases_->lease_ms())
              .text(first ? "true" : "false")
              .text(campaigns ? "true" : "false")
              .run(tx,
                   "INSERT INTO match_leases(match_id, node, epoch, expires_at) "
                   "VALUES ($1, $2, 1, now() + $3::bigint * interval '1 millisecond') "
                   "ON CONFLICT (match_id) DO UPDATE SET node = excluded.node, "
                   "epoch = match_leases.epoch + 1, expires_at = excluded.expires_at "
                   "WHERE match_leases.expires_at < now() OR "
                   "($4::boolean AND match_leases.node = excluded.node) OR ($5::boolean AND "
                   "match_leases.node <> excluded.node AND EXISTS (SELECT 1 FROM campaigns c "
                   "WHERE c.battle_match_id = excluded.match_id)) RETURNING epoch");
      if (!r.empty()) epoch = r[0][0].as<std::int64_t>();
    });
    if (!s.ok()) {
      // A row a paused node's transaction still locks: the next round tries again.
      spdlog::info("event=takeover_deferred match={} error=\"{}\"", id, s.message);
      continue;
    }
    if (!epoch) continue;  // another node was quicker
    leases_->hold(id, *epoch);
    spdlog::info("event=match_taken_over match={} node={} epoch={}", id, leases_->node(), *epoch);
    // A host of it still here is one closed by a failed write: the log is loaded afresh.
    if (auto stale = runtime_.find(id); stale && stale->seen()->closed) runtime_.release(id);
    if (!runtime_.adopt(id)) leases_->forget(id);
  }
}

namespace {

// The owner's node announced itself within the last $2 milliseconds. A node killed or cut off
// still holds its leases until they run out, but stops announcing at once: a client is not
// sent to it (where it would find nothing, come back, and be sent there again) once it has
// missed two rounds; it is told to ask again shortly instead.
const std::string kFresh =
    "coalesce(n.seen_at > now() - $2::bigint * interval '1 millisecond', false)";

}  // namespace

std::optional<server::Failure> PgCluster::elsewhere(const std::string& match_id) {
  return owner_failure(match_id,
                       "SELECT l.node, l.expires_at > now() AND " + kFresh +
                           ", coalesce(n.public_url, '') "
                           "FROM match_leases l LEFT JOIN cluster_nodes n ON n.node = l.node "
                           "WHERE l.match_id = $1",
                       "this match");
}

std::optional<server::Failure> PgCluster::campaigns_elsewhere() {
  if (store_.roles()->epoch_of(kCampaignsRole)) return std::nullopt;
  return owner_failure(kCampaignsRole,
                       "SELECT r.node, r.expires_at > now() AND " + kFresh +
                           ", coalesce(n.public_url, '') "
                           "FROM cluster_roles r LEFT JOIN cluster_nodes n ON n.node = r.node "
                           "WHERE r.role = $1",
                       "the campaigns");
}

// `sql` names the owner of `key` ($1): its node, whether its lease runs and its node is fresh
// (kFresh), its public URL.
std::optional<server::Failure> PgCluster::owner_failure(const std::string& key,
                                                        const std::string& sql,
                                                        const std::string& what) {
  struct Owner {
    std::string node;
    bool live = false;
    std::string url;
  };
  std::optional<Owner> owner;
  const Status s = store_.read([&](pqxx::transaction_base& tx) {
    const pqxx::result r = Params()
                               .text(key)
                               .integer(2 * std::max<std::int64_t>(1, leases_->lease_ms() / 3))
                               .run(tx, sql);
    if (!r.empty())
      owner = Owner{r[0][0].as<std::string>(), r[0][1].as<bool>(), r[0][2].as<std::string>()};
    return Status::success();
  });
  if (!s.ok()) return lobby::storage_failure(s, "owner");
  const std::uint64_t retry = static_cast<std::uint64_t>(leases_->lease_ms() / 3);
  if (owner && owner->live && owner->node != leases_->node() && !owner->url.empty()) {
    server::Failure f = server::fail(v1::ERROR_MATCH_ELSEWHERE,
                                     "node " + owner->node + " hosts " + what + ": connect there");
    f.owner_url = owner->url;
    return f;
  }
  return server::fail(
      v1::ERROR_MATCH_ELSEWHERE,
      "no node hosts " + what + " now (its lease lapsed, or its node stopped answering); ask again",
      retry);
}

}  // namespace castra::postgres
