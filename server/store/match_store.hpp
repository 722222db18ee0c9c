// MatchStore: the narrow interface through which the server keeps matches durable
// (design section 6). Blobs are protobuf bytes the store never parses. One implementation,
// SQLite (sqlite_match_store.hpp); tests run it on ":memory:" and on real files.
// Threading: append() may be called from any thread; its callback runs on the store's
// writer thread after the commit. Every other call is synchronous and thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "server/store/sqlite.hpp"

namespace castra::store {

struct MatchRow {
  std::string id;
  std::string ruleset;
  std::string rules_version;
  std::string scenario_name;
  std::string scenario;  // castra.v1.ScenarioFile bytes
  std::string settings;  // castra.v1.MatchSettings bytes
  std::string status;    // "open", "live", "finished", "closed"
  std::string dice_commitment;
  std::optional<std::int64_t> creator, player_a, player_b;
  std::string to_act;
  std::optional<std::int64_t> deadline_a_ms, deadline_b_ms;
  std::optional<std::string> outcome;
  std::int64_t created_ms = 0;
  std::int64_t updated_ms = 0;
};

struct Secrets {
  std::string server_seed;
  std::optional<std::string> entropy_a, entropy_b;
};

struct SealSalt {
  std::uint32_t event_index = 0;
  std::string salt;
};

struct LogRow {
  std::uint32_t entry_index = 0;
  int kind = 0;
  int side = 0;
  std::uint64_t first_event = 0;
  std::uint32_t event_count = 0;
  std::string entry;  // castra.v1.LogEntry bytes (no secrets)
  std::vector<SealSalt> salts;
};

struct Snapshot {
  std::uint32_t entry_count = 0;
  std::uint64_t event_count = 0;
  std::string state;
  std::string state_hash;
};

// What one command leaves behind, written in one transaction: the log entry (if accepted),
// the reply under the side's client sequence number, and the match row's new columns.
struct AppendRequest {
  std::string match_id;
  int side = 0;
  std::optional<std::int64_t> client_seq;
  std::optional<LogRow> entry;            // nullopt: a refused command (only the reply is kept)
  std::string reply;                      // the answer given, for a repeat of client_seq
  std::optional<MatchRow> match_update;   // status, to_act, deadlines, outcome...
  std::optional<Snapshot> snapshot;       // every N entries
  std::optional<Secrets> secrets_update;  // entropy when a player is seated
};

class MatchStore {
 public:
  virtual ~MatchStore() = default;

  virtual Status create_match(const MatchRow& row, const Secrets& secrets) = 0;
  virtual Status update_match(const MatchRow& row) = 0;
  virtual std::optional<MatchRow> find_match(const std::string& id) = 0;
  // Matches by status, newest first (the lobby's lists).
  virtual std::vector<MatchRow> list_matches(const std::string& status, int limit) = 0;
  virtual std::vector<MatchRow> matches_of_player(std::int64_t account, int limit) = 0;

  // Queues one command's writes. `done` runs after they are committed (durable under the
  // configured synchronous setting) or failed; never before. Appends that arrive together
  // share one commit (group commit), but no callback waits for a later one.
  virtual void append(AppendRequest request, std::function<void(Status)> done) = 0;
  // Blocks until everything queued so far is committed (shutdown, tests).
  virtual void flush() = 0;

  // The first answer given to (match, side, client_seq), if any.
  virtual std::optional<std::string> find_reply(const std::string& match_id, int side,
                                                std::int64_t client_seq) = 0;
  // The latest snapshot and every log entry after it (start-up recovery, reconnects).
  virtual std::optional<Snapshot> latest_snapshot(const std::string& match_id) = 0;
  virtual std::vector<LogRow> log_from(const std::string& match_id, std::uint32_t entry_index) = 0;
  virtual std::optional<Secrets> secrets(const std::string& match_id) = 0;
};

}  // namespace castra::store
