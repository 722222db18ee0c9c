// PgCluster: cluster mode's keeper, one per node (castra-server --node-id). On a thread and a
// database connection of its own, every lease_ms / 3 it
//   - says where this node is reached (cluster_nodes: its public URL),
//   - renews the leases of the matches it hosts, and gives up at once every one the database
//     no longer gives it (another node took it over while this one was paused or cut off:
//     Runtime::release),
//   - takes over every unfinished match whose lease has lapsed (its node stopped renewing),
//     epoch + 1, and loads it from its log as a restart would (Runtime::adopt).
// It also answers the dispatcher's "where is this match?" (elsewhere()). The database's clock
// decides expiry, so the nodes' clocks need not agree; the fencing in every append
// (pg_leases.hpp) is what makes a late node harmless, the keeper only what makes it quick.
// Threading: elsewhere() from any thread (the store's read connection); start() once.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "server/base/failure.hpp"
#include "server/postgres/pg_leases.hpp"
#include "server/postgres/pg_match_store.hpp"
#include "server/runtime/runtime.hpp"

namespace castra::postgres {

class PgCluster {
 public:
  // Connects to `url`; on failure `*cluster` is left empty and the Status says why. `leases`
  // is the book `store` fences with; `runtime` hosts this node's matches.
  static store::Status open(const std::string& url, std::shared_ptr<LeaseBook> leases,
                            PgMatchStore& store, runtime::Runtime& runtime,
                            std::unique_ptr<PgCluster>* cluster);
  // Stops the thread. The leases are left to lapse: another node takes the matches over
  // after lease_ms (a restart of the same node id takes its own back at once).
  ~PgCluster();
  PgCluster(const PgCluster&) = delete;
  PgCluster& operator=(const PgCluster&) = delete;

  // Starts the keeper; clients redirected to this node are sent to `public_url`.
  void start(std::string public_url);

  // ERROR_MATCH_ELSEWHERE for an unfinished match this node does not host: with its owner's
  // URL while the owner's lease runs, without one (retry shortly) while it lapses or moves.
  std::optional<server::Failure> elsewhere(const std::string& match_id);

 private:
  PgCluster(std::unique_ptr<pqxx::connection> connection, std::string url,
            std::shared_ptr<LeaseBook> leases, PgMatchStore& store, runtime::Runtime& runtime);
  void loop();
  void round(bool first);
  void announce();
  void renew();
  void take_over(bool first);

  std::unique_ptr<pqxx::connection> connection_;  // the keeper thread's alone
  const std::string url_;
  const std::shared_ptr<LeaseBook> leases_;
  PgMatchStore& store_;
  runtime::Runtime& runtime_;
  std::string public_url_;

  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace castra::postgres
