// Cluster mode's leases as this node holds them (LeaseBook), and the two checks every match
// write makes in its own transaction (docs/architecture.md, "The cluster"): a new match is
// leased to its creating node at epoch 1 in the transaction that stores it, and every later
// append first locks its lease row and checks that it still names this node at the epoch
// this node holds (fence); the keeper renews the rows it holds (renew_leases). A node paused past
// its lease finds another node's epoch there and its append fails with status_codes::kFenced,
// nothing written. The book itself is memory only: the database's match_leases row is the truth,
// the book what this node believes. Threading: LeaseBook from any thread (one mutex); the check
// functions on the writer thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "server/postgres/pg.hpp"

namespace castra::postgres {

class LeaseBook {
 public:
  struct Held {
    std::string match_id;
    std::int64_t epoch = 0;
    std::chrono::steady_clock::time_point since;
  };

  LeaseBook(std::string node, std::int64_t lease_ms)
      : node_(std::move(node)), lease_ms_(lease_ms) {}

  const std::string& node() const { return node_; }
  std::int64_t lease_ms() const { return lease_ms_; }

  std::optional<std::int64_t> epoch_of(const std::string& match_id) const;
  // This node has the lease at `epoch` (committed: created here, or taken over).
  void hold(const std::string& match_id, std::int64_t epoch);
  // Stops renewing it (the match ended); true when it was held.
  bool forget(const std::string& match_id);
  // The database says another node has it: forgotten, and on_lost told.
  void lost(const std::string& match_id);
  std::vector<Held> held() const;
  // Told of every lease lost (the runtime drops the match). Set before the first append.
  void set_on_lost(std::function<void(const std::string&)> on_lost);

 private:
  const std::string node_;
  const std::int64_t lease_ms_;
  mutable std::mutex mu_;
  std::map<std::string, Held> held_;
  std::function<void(const std::string&)> on_lost_;
};

// In the transaction that creates `match_id`: its lease, this node's at epoch 1.
store::Status lease_new_match(pqxx::transaction_base& tx, const LeaseBook& book,
                              const std::string& match_id);
// Before any other write of an append: the lease row, locked FOR KEY SHARE until the commit,
// still names this node at the epoch it holds; kFenced otherwise. A takeover moves the epoch,
// part of a unique key (migrations/postgresql/0004), so its UPDATE waits for the lock; a
// renewal sets expires_at alone and does not (renew_leases never waits for an append).
store::Status fence(pqxx::transaction_base& tx, const LeaseBook& book, const std::string& match_id);

// The keeper's renewal of `held`: their rows that still name this node at the epochs held get
// a new expiry. The ids renewed; one held but not returned is another node's now.
std::set<std::string> renew_leases(pqxx::transaction_base& tx, const LeaseBook& book,
                                   const std::vector<LeaseBook::Held>& held);

// The role the campaigns are hosted by (cluster_roles.role): one node at a time.
inline constexpr const char* kCampaignsRole = "campaigns";
// fence() for a cluster role: its cluster_roles row, locked FOR SHARE, still names this node
// at the epoch `roles` holds it at; kFenced otherwise.
store::Status fence_role(pqxx::transaction_base& tx, const LeaseBook& roles,
                         const std::string& role);

}  // namespace castra::postgres
