// MatchStore: the narrow interface through which the server keeps matches durable
// (design section 6). Blobs are protobuf bytes the store never parses. Two implementations:
// SQLite (sqlite_match_store.hpp) and PostgreSQL (server/postgres/pg_match_store.hpp), held to
// one typed suite (StoreConformance.*, on ":memory:", a file and a private PostgreSQL).
// Threading: append() may be called from any thread but the store's writer thread; its
// callback runs on that writer thread after the commit. Every other call is synchronous and
// thread-safe. I/O errors come back as a Status, "not found" as an empty optional.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/store/status.hpp"

namespace castra::store {

// Where a match is in its life; stored as the matches.status column's words.
enum class MatchStatus : std::uint8_t {
  kOpen,      // waiting for its players
  kLive,      // both seats taken
  kFinished,  // ended with an outcome
  kClosed,    // ended without one (withdrawn, aborted, or a log that did not replay)
};
std::string_view status_name(MatchStatus status);  // "open", "live", "finished", "closed"
std::optional<MatchStatus> status_from_name(std::string_view name);

struct MatchRow {
  std::string id;
  std::string ruleset;
  std::string rules_version;
  std::string scenario_name;
  std::string scenario;  // castra.v1.ScenarioFile bytes
  std::string settings;  // castra.v1.MatchSettings bytes
  MatchStatus status = MatchStatus::kOpen;
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

// What one command leaves behind, written together or not at all: the log entry (if accepted),
// the reply under the side's client sequence number, and the match row's new columns.
// A client_seq already recorded for (match, side) fails the whole request: nothing of a
// command is ever applied twice, even when the caller forgot to ask find_reply() first.
struct AppendRequest {
  std::string match_id;
  int side = 0;
  std::optional<std::int64_t> client_seq;
  std::optional<LogRow> entry;            // nullopt: a refused command (only the reply is kept)
  std::string reply;                      // the answer given, for a repeat of client_seq
  std::optional<MatchRow> match_update;   // status, to_act, deadlines, outcome...
  std::optional<Snapshot> snapshot;       // every N entries
  std::optional<Secrets> secrets_update;  // entropy when a player is seated
  // The request makes its match: match_update is inserted with secrets_update (both set), so
  // a new match is stored through the writer's queue like everything else.
  bool create = false;
};

// One answer kept under a side's client sequence number.
struct StoredReply {
  int side = 0;
  std::int64_t client_seq = 0;
  std::string reply;  // castra.v1.CommandResult bytes
};

class MatchStore {
 public:
  virtual ~MatchStore() = default;

  // create_match and update_match go through the same single writer as append() and return
  // once committed; never call them from an append callback (they would wait on themselves).
  virtual Status create_match(const MatchRow& row, const Secrets& secrets) = 0;
  // Writes the columns that change during a match: settings, status, player_a, player_b,
  // to_act, the deadlines, outcome and updated_ms. Fails when there is no such match.
  virtual Status update_match(const MatchRow& row) = 0;
  virtual Status find_match(const std::string& id, std::optional<MatchRow>* row) = 0;
  // Matches by status, most recently updated first (the lobby's lists); limit < 0: all.
  virtual Status list_matches(MatchStatus status, int limit, std::vector<MatchRow>* rows) = 0;
  // Matches the account created or plays in, most recently updated first; limit < 0: all.
  virtual Status matches_of_player(std::int64_t account, int limit,
                                   std::vector<MatchRow>* rows) = 0;

  // Queues one command's writes. `done` runs after they are committed (durable under the
  // configured synchronous setting) or failed; never before. Appends that arrive together
  // share one commit (group commit), but no callback waits for a later one. While the queue
  // is full, append() blocks: the disk is slower than the commands, and waiting is the
  // backpressure. A failed append means the caller's in-memory match is ahead of the store:
  // drop that match and load it again.
  virtual void append(AppendRequest request, std::function<void(Status)> done) = 0;
  // Blocks until everything queued so far is committed (shutdown, tests).
  virtual Status flush() = 0;

  // The first answer given to (match, side, client_seq), if any.
  virtual Status find_reply(const std::string& match_id, int side, std::int64_t client_seq,
                            std::optional<std::string>* reply) = 0;
  // Every answer given in a match, loaded with it: a hosted match answers repeats from memory.
  virtual Status replies_of(const std::string& match_id, std::vector<StoredReply>* replies) = 0;
  // The latest snapshot and every log entry from an index on (start-up recovery, reconnects).
  virtual Status latest_snapshot(const std::string& match_id,
                                 std::optional<Snapshot>* snapshot) = 0;
  virtual Status log_from(const std::string& match_id, std::uint32_t entry_index,
                          std::vector<LogRow>* rows) = 0;
  // For play (the dice) and the reveal at the end only: never sent before then.
  virtual Status secrets(const std::string& match_id, std::optional<Secrets>* secrets) = 0;
};

// The lobby's counts over the stored matches: its limit on open matches per account and the
// metrics' totals. Beside MatchStore, not in it, because the runtime never counts. Reads only,
// any thread.
class MatchCounts {
 public:
  virtual ~MatchCounts() = default;
  // How many open matches `account` created.
  virtual Status open_created_by(std::int64_t account, std::int64_t* count) = 0;
  // How many matches are in each status, indexed by MatchStatus.
  virtual Status by_status(std::array<std::int64_t, 4>* counts) = 0;
};

}  // namespace castra::store
