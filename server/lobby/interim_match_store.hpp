// InterimMatchStore: a small synchronous SQLite MatchStore over the tables of
// migrations/0002_matches.sql, so that the lobby runs before the storage engineer's
// SqliteMatchStore (server/store/) lands; main.cpp switches to that one then and this file
// goes. It serves the lobby's needs (rows, secrets, seat appends), not the match log at speed.
// Any thread: a mutex serialises its one connection; append's callback runs on the caller.
#pragma once

#include <mutex>

#include "server/store/database.hpp"
#include "server/store/match_store.hpp"

namespace castra::lobby {

class InterimMatchStore final : public store::MatchStore {
 public:
  explicit InterimMatchStore(store::Db db) : db_(std::move(db)) {}

  store::Status create_match(const store::MatchRow& row, const store::Secrets& secrets) override;
  store::Status update_match(const store::MatchRow& row) override;
  std::optional<store::MatchRow> find_match(const std::string& id) override;
  std::vector<store::MatchRow> list_matches(const std::string& status, int limit) override;
  std::vector<store::MatchRow> matches_of_player(std::int64_t account, int limit) override;
  void append(store::AppendRequest request, std::function<void(store::Status)> done) override;
  void flush() override {}
  std::optional<std::string> find_reply(const std::string& match_id, int side,
                                        std::int64_t client_seq) override;
  std::optional<store::Snapshot> latest_snapshot(const std::string& match_id) override;
  std::vector<store::LogRow> log_from(const std::string& match_id,
                                      std::uint32_t entry_index) override;
  std::optional<store::Secrets> secrets(const std::string& match_id) override;

 private:
  store::Status write_row(const store::MatchRow& row, bool insert);
  std::vector<store::MatchRow> query(const std::string& where, const std::string& text,
                                     std::int64_t number, int limit);

  std::mutex mutex_;
  store::Db db_;
};

}  // namespace castra::lobby
