// PgCluster: cluster mode's keeper, one per node (castra-server --node-id). On a thread and a
// database connection of its own (a PgSession, made again with its timeouts when the
// database drops it), every lease_ms / 3 it
//   - says where this node is reached (cluster_nodes: its public URL),
//   - renews the leases of the matches it hosts, and gives up at once every one the database
//     no longer gives it (another node took it over while this one was paused or cut off:
//     Runtime::release),
//   - holds, renews or takes over the campaigns role (kCampaignsRole): one node hosts every
//     campaign at a time, and the battle of a campaign is taken over by that node alone, at once,
//     so a campaign and its battle stay on one node (docs/architecture.md, "Campaigns in a
//     cluster"),
//   - takes over every unfinished match whose lease has lapsed (its node stopped renewing),
//     epoch + 1, and loads it from its log as a restart would (Runtime::adopt).
// It also answers the dispatcher's "where is this match?" (elsewhere()) and "where are the
// campaigns?" (campaigns_elsewhere()). The database's clock
// decides expiry, so the nodes' clocks need not agree; the fencing in every append
// (pg_leases.hpp) is what makes a late node harmless, the keeper only what makes it quick.
// Threading: elsewhere() from any thread (the store's read connection); start() once.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "server/base/failure.hpp"
#include "server/postgres/pg_leases.hpp"
#include "server/postgres/pg_match_store.hpp"
#include "server/postgres/pg_session.hpp"
#include "server/runtime/runtime.hpp"

namespace castra::postgres {

class PgCluster {
 public:
  // Connects to `url`; on failure `*cluster` is left empty and the Status says why. `leases`
  // is the book `store` fences with; `runtime` hosts this node's matches.
  // `store.roles()` is the roles book campaign writes are fenced with.
  static store::Status open(const std::string& url, std::shared_ptr<LeaseBook> leases,
                            PgMatchStore& store, runtime::Runtime& runtime,
                            std::unique_ptr<PgCluster>* cluster);
  // Stops the thread. The leases are left to lapse: another node takes the matches over
  // after lease_ms (a restart of the same node id takes its own back at once).
  ~PgCluster();
  PgCluster(const PgCluster&) = delete;
  PgCluster& operator=(const PgCluster&) = delete;

  // Told, on the keeper's thread, when this node begins to host the campaigns (true: after
  // the battles it took over are hosted) and when it stops (false: the role went to another
  // node). Set before start().
  void on_campaigns(std::function<void(bool hosting)> changed) {
    on_campaigns_ = std::move(changed);
  }
  // Starts the keeper; clients redirected to this node are sent to `public_url`.
  void start(std::string public_url);

  // ERROR_MATCH_ELSEWHERE for an unfinished match this node does not host: with its owner's
  // URL while the owner's lease runs, without one (retry shortly) while it lapses or moves.
  std::optional<server::Failure> elsewhere(const std::string& match_id);
  // Nothing while this node hosts the campaigns; else ERROR_MATCH_ELSEWHERE with the URL of
  // the node that does (without one, to retry shortly, while the role lapses or moves).
  std::optional<server::Failure> campaigns_elsewhere();

 private:
  PgCluster(const std::string& url, PgSession::Prepare prepare, std::shared_ptr<LeaseBook> leases,
            PgMatchStore& store, runtime::Runtime& runtime);
  // `body` in one transaction on the keeper's connection, committed after it.
  store::Status transact(const std::function<void(pqxx::work&)>& body);
  void loop();
  void round(bool first);
  void announce();
  void renew();
  // Whether this node holds the campaigns role after this round; tells on_campaigns_ of a loss.
  bool campaigns_role(bool first);
  void take_over(bool first, bool campaigns);
  std::optional<server::Failure> owner_failure(const std::string& key, const std::string& sql,
                                               const std::string& what);

  PgSession keeper_;  // the keeper thread's alone (and the destructor's, once it has stopped)
  const std::shared_ptr<LeaseBook> leases_;
  PgMatchStore& store_;
  runtime::Runtime& runtime_;
  std::string public_url_;
  std::function<void(bool)> on_campaigns_;

  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace castra::postgres
