// A player's finished matches as his page shows them (GetPlayer): each with his side, his
// opponent's seat and, when rated, his rating before and after. Reads only: PlayerRecords is
// the interface, whichever database holds them; the SQLite functions run on a reader's
// connection (SqlAccess::read). The protocol's shape is made in server/dispatch.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "server/ratings/rating_store.hpp"
#include "server/store/sql_access.hpp"
#include "server/store/sqlite.hpp"

namespace castra::ratings {

struct FinishedMatch {
  std::string id;
  std::string ruleset;
  std::string scenario;
  int side = 0;                          // the player's: 0 A, 1 B
  std::optional<std::int64_t> opponent;  // nullopt: the computer's seat
  std::string settings;                  // castra.v1.MatchSettings bytes
  std::string outcome;                   // castra.v1.Outcome bytes
  std::int64_t ended_ms = 0;
  bool rated = false;
  double rating_change = 0.0;  // rated only
};

struct PlayerAccount {
  std::int64_t id = 0;
  std::string name;
  std::int64_t created_ms = 0;
};

// The account whose name has this key (accounts::name_key: any case); nullopt when none.
store::Status find_account(store::Db& db, const std::string& name_key,
                           std::optional<PlayerAccount>* out);
// Every finished match of `account`, newest first.
store::Status finished_matches_of(store::Db& db, std::int64_t account,
                                  std::vector<FinishedMatch>* out);

// A player's page as stored, read on one consistent snapshot. Any thread but a store writer's.
class PlayerRecords {
 public:
  virtual ~PlayerRecords() = default;
  // The account whose name has this key (nullopt when none) and, when there is one, its
  // finished matches (newest first) and its ratings.
  virtual store::Status page(const std::string& name_key, std::optional<PlayerAccount>* account,
                             std::vector<FinishedMatch>* matches,
                             std::vector<StoredRating>* ratings) = 0;
};

class SqlitePlayerRecords final : public PlayerRecords {
 public:
  explicit SqlitePlayerRecords(store::SqlAccess& sql) : sql_(sql) {}
  store::Status page(const std::string& name_key, std::optional<PlayerAccount>* account,
                     std::vector<FinishedMatch>* matches,
                     std::vector<StoredRating>* ratings) override;

 private:
  store::SqlAccess& sql_;
};

}  // namespace castra::ratings
