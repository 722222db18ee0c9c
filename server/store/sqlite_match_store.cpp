#include "server/store/sqlite_match_store.hpp"

#include <sqlite3.h>

#include <cassert>
#include <map>
#include <utility>

#include "server/store/migrations.hpp"

namespace castra::store {

std::string_view status_name(MatchStatus status) {
  switch (status) {
    case MatchStatus::kOpen:
      return "open";
    case MatchStatus::kLive:
      return "live";
    case MatchStatus::kFinished:
      return "finished";
    case MatchStatus::kClosed:
      return "closed";
  }
  return "closed";
}

std::optional<MatchStatus> status_from_name(std::string_view name) {
  for (MatchStatus s :
       {MatchStatus::kOpen, MatchStatus::kLive, MatchStatus::kFinished, MatchStatus::kClosed}) {
    if (status_name(s) == name) return s;
  }
  return std::nullopt;
}

namespace {

// Every statement is prepared once per connection (Db::statement) and reused.
constexpr const char* kMatchColumns =
    "id, ruleset, rules_version, scenario_name, scenario, settings, status, dice_commitment, "
    "creator, player_a, player_b, to_act, deadline_a_ms, deadline_b_ms, outcome, created_ms, "
    "updated_ms";

const std::string kInsertMatch = std::string("INSERT INTO matches(") + kMatchColumns +
                                 ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
                                 "?13, ?14, ?15, ?16, ?17)";
constexpr const char* kInsertSecrets =
    "INSERT INTO match_secrets(match_id, server_seed, entropy_a, entropy_b) VALUES (?1, ?2, ?3, "
    "?4)";
constexpr const char* kUpdateMatch =
    "UPDATE matches SET settings = ?2, status = ?3, player_a = ?4, player_b = ?5, to_act = ?6, "
    "deadline_a_ms = ?7, deadline_b_ms = ?8, outcome = ?9, updated_ms = ?10 WHERE id = ?1";
constexpr const char* kUpdateSecrets =
    "UPDATE match_secrets SET entropy_a = coalesce(?2, entropy_a), "
    "entropy_b = coalesce(?3, entropy_b) WHERE match_id = ?1";
constexpr const char* kInsertEntry =
    "INSERT INTO match_log(match_id, entry_index, kind, side, first_event, event_count, entry) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
constexpr const char* kInsertSalt =
    "INSERT INTO match_seal_salts(match_id, entry_index, event_index, salt) VALUES (?1, ?2, ?3, "
    "?4)";
constexpr const char* kInsertReply =
    "INSERT INTO command_replies(match_id, side, client_seq, entry_index, reply) "
    "VALUES (?1, ?2, ?3, ?4, ?5)";
constexpr const char* kInsertSnapshot =
    "INSERT OR REPLACE INTO match_snapshots(match_id, entry_count, event_count, state, "
    "state_hash) VALUES (?1, ?2, ?3, ?4, ?5)";

const std::string kSelectMatch =
    std::string("SELECT ") + kMatchColumns + " FROM matches WHERE id = ?1";
const std::string kListMatches = std::string("SELECT ") + kMatchColumns +
                                 " FROM matches WHERE status = ?1 "
                                 "ORDER BY updated_ms DESC, id LIMIT ?2";
const std::string kMatchesOfPlayer =
    std::string("SELECT ") + kMatchColumns +
    " FROM matches WHERE creator = ?1 OR player_a = ?1 OR player_b = ?1 "
    "ORDER BY updated_ms DESC, id LIMIT ?2";
constexpr const char* kRepliesOf =
    "SELECT side, client_seq, reply FROM command_replies WHERE match_id = ?1";
constexpr const char* kSelectReply =
    "SELECT reply FROM command_replies WHERE match_id = ?1 AND side = ?2 AND client_seq = ?3";
constexpr const char* kLatestSnapshot =
    "SELECT entry_count, event_count, state, state_hash FROM match_snapshots "
    "WHERE match_id = ?1 ORDER BY entry_count DESC LIMIT 1";
constexpr const char* kLogFrom =
    "SELECT entry_index, kind, side, first_event, event_count, entry FROM match_log "
    "WHERE match_id = ?1 AND entry_index >= ?2 ORDER BY entry_index";
constexpr const char* kSaltsFrom =
    "SELECT entry_index, event_index, salt FROM match_seal_salts "
    "WHERE match_id = ?1 AND entry_index >= ?2 ORDER BY entry_index, event_index";
constexpr const char* kSelectSecrets =
    "SELECT server_seed, entropy_a, entropy_b FROM match_secrets WHERE match_id = ?1";

void bind_optional(Statement& st, int i, const std::optional<std::int64_t>& v) {
  if (v) {
    st.bind(i, *v);
  } else {
    st.bind_null(i);
  }
}

void bind_optional_blob(Statement& st, int i, const std::optional<std::string>& v) {
  if (v) {
    st.bind_blob(i, *v);
  } else {
    st.bind_null(i);
  }
}

std::optional<std::int64_t> optional_int(const Statement& q, int i) {
  if (q.column_is_null(i)) return std::nullopt;
  return q.column_int(i);
}

std::optional<std::string> optional_blob(const Statement& q, int i) {
  if (q.column_is_null(i)) return std::nullopt;
  return q.column_blob(i);
}

MatchRow match_from(const Statement& q) {
  MatchRow row;
  row.id = q.column_text(0);
  row.ruleset = q.column_text(1);
  row.rules_version = q.column_text(2);
  row.scenario_name = q.column_text(3);
  row.scenario = q.column_blob(4);
  row.settings = q.column_blob(5);
  // A word this build does not know is no state to play on: the row is shown as closed.
  row.status = status_from_name(q.column_text(6)).value_or(MatchStatus::kClosed);
  row.dice_commitment = q.column_blob(7);
  row.creator = optional_int(q, 8);
  row.player_a = optional_int(q, 9);
  row.player_b = optional_int(q, 10);
  row.to_act = q.column_text(11);
  row.deadline_a_ms = optional_int(q, 12);
  row.deadline_b_ms = optional_int(q, 13);
  row.outcome = optional_blob(q, 14);
  row.created_ms = q.column_int(15);
  row.updated_ms = q.column_int(16);
  return row;
}

Status insert_match(Db& db, const MatchRow& row, const Secrets& secrets) {
  Status s;
  {
    Lease st = db.statement(kInsertMatch, &s);
    if (!s.ok()) return s;
    st->bind(1, row.id).bind(2, row.ruleset).bind(3, row.rules_version).bind(4, row.scenario_name);
    st->bind_blob(5, row.scenario)
        .bind_blob(6, row.settings)
        .bind(7, std::string(status_name(row.status)));
    st->bind_blob(8, row.dice_commitment);
    bind_optional(*st, 9, row.creator);
    bind_optional(*st, 10, row.player_a);
    bind_optional(*st, 11, row.player_b);
    st->bind(12, row.to_act);
    bind_optional(*st, 13, row.deadline_a_ms);
    bind_optional(*st, 14, row.deadline_b_ms);
    bind_optional_blob(*st, 15, row.outcome);
    st->bind(16, row.created_ms).bind(17, row.updated_ms);
    if (s = st->run(); !s.ok()) return s;
  }
  Lease st = db.statement(kInsertSecrets, &s);
  if (!s.ok()) return s;
  st->bind(1, row.id).bind_blob(2, secrets.server_seed);
  bind_optional_blob(*st, 3, secrets.entropy_a);
  bind_optional_blob(*st, 4, secrets.entropy_b);
  return st->run();
}

Status write_match_update(Db& db, const MatchRow& row) {
  Status s;
  Lease st = db.statement(kUpdateMatch, &s);
  if (!s.ok()) return s;
  st->bind(1, row.id).bind_blob(2, row.settings).bind(3, std::string(status_name(row.status)));
  bind_optional(*st, 4, row.player_a);
  bind_optional(*st, 5, row.player_b);
  st->bind(6, row.to_act);
  bind_optional(*st, 7, row.deadline_a_ms);
  bind_optional(*st, 8, row.deadline_b_ms);
  bind_optional_blob(*st, 9, row.outcome);
  st->bind(10, row.updated_ms);
  if (s = st->run(); !s.ok()) return s;
  if (db.changes() != 1) return Status{SQLITE_NOTFOUND, "there is no match " + row.id};
  return Status::success();
}

Status write_entry(Db& db, const std::string& match_id, const LogRow& entry) {
  Status s;
  {
    Lease st = db.statement(kInsertEntry, &s);
    if (!s.ok()) return s;
    st->bind(1, match_id).bind(2, static_cast<std::int64_t>(entry.entry_index));
    st->bind(3, static_cast<std::int64_t>(entry.kind))
        .bind(4, static_cast<std::int64_t>(entry.side));
    st->bind(5, static_cast<std::int64_t>(entry.first_event));
    st->bind(6, static_cast<std::int64_t>(entry.event_count)).bind_blob(7, entry.entry);
    if (s = st->run(); !s.ok()) return s;
  }
  for (const SealSalt& salt : entry.salts) {
    Lease st = db.statement(kInsertSalt, &s);
    if (!s.ok()) return s;
    st->bind(1, match_id).bind(2, static_cast<std::int64_t>(entry.entry_index));
    st->bind(3, static_cast<std::int64_t>(salt.event_index)).bind_blob(4, salt.salt);
    if (s = st->run(); !s.ok()) return s;
  }
  return Status::success();
}

Status write_append(Db& db, const AppendRequest& request) {
  if (request.create) {
    assert(request.match_update && request.secrets_update && "a creation carries row and secrets");
    return insert_match(db, *request.match_update, *request.secrets_update);
  }
  Status s;
  if (request.entry) {
    if (s = write_entry(db, request.match_id, *request.entry); !s.ok()) return s;
  }
  if (request.client_seq) {
    Lease st = db.statement(kInsertReply, &s);
    if (!s.ok()) return s;
    st->bind(1, request.match_id).bind(2, static_cast<std::int64_t>(request.side));
    st->bind(3, *request.client_seq);
    if (request.entry) {
      st->bind(4, static_cast<std::int64_t>(request.entry->entry_index));
    } else {
      st->bind_null(4);
    }
    st->bind_blob(5, request.reply);
    if (s = st->run(); !s.ok()) {
      if (s.code == SQLITE_CONSTRAINT_PRIMARYKEY) {
        s.message = "client_seq " + std::to_string(*request.client_seq) + " of side " +
                    std::to_string(request.side) + " in match " + request.match_id +
                    " was already answered: the command is not applied twice";
      }
      return s;
    }
  }
  if (request.match_update) {
    if (s = write_match_update(db, *request.match_update); !s.ok()) return s;
  }
  if (request.snapshot) {
    const Snapshot& snap = *request.snapshot;
    Lease st = db.statement(kInsertSnapshot, &s);
    if (!s.ok()) return s;
    st->bind(1, request.match_id).bind(2, static_cast<std::int64_t>(snap.entry_count));
    st->bind(3, static_cast<std::int64_t>(snap.event_count));
    st->bind_blob(4, snap.state).bind_blob(5, snap.state_hash);
    if (s = st->run(); !s.ok()) return s;
  }
  if (request.secrets_update) {
    Lease st = db.statement(kUpdateSecrets, &s);
    if (!s.ok()) return s;
    st->bind(1, request.match_id);
    bind_optional_blob(*st, 2, request.secrets_update->entropy_a);
    bind_optional_blob(*st, 3, request.secrets_update->entropy_b);
    if (s = st->run(); !s.ok()) return s;
    if (db.changes() != 1) return Status{SQLITE_NOTFOUND, "there is no match " + request.match_id};
  }
  return Status::success();
}

// Runs a query and hands each row to `each`; the Status of the whole walk.
template <typename Bind, typename Each>
Status query(Db& db, std::string_view sql, Bind&& bind, Each&& each) {
  Status s;
  Lease q = db.statement(sql, &s);
  if (!s.ok()) return s;
  bind(*q);
  while (q->step(&s))
    each(*q);
  return s;
}

Status list_by(Db& db, const std::string& sql, const std::function<void(Statement&)>& bind,
               std::vector<MatchRow>* rows) {
  rows->clear();
  return query(db, sql, bind, [&](const Statement& q) { rows->push_back(match_from(q)); });
}

}  // namespace

Status SqliteMatchStore::open(const StoreOptions& options,
                              std::unique_ptr<SqliteMatchStore>* store) {
  store->reset();
  Status s;
  std::optional<Db> write_db = open_database(options.database, &s);
  if (!write_db) return s;
  std::optional<Db> read_db;
  if (options.database.path != ":memory:") {
    read_db = open_database_read_only(options.database.path, options.database.busy_timeout_ms, &s);
    if (!read_db) return s;
  }
  std::unique_ptr<SqliteMatchStore> opened(
      new SqliteMatchStore(std::move(*write_db), std::move(read_db), options.on_finished));
  opened->writer_ = std::make_unique<Writer>(opened->write_db_, options.writer,
                                             opened->read_db_ ? nullptr : &opened->read_mutex_);
  *store = std::move(opened);
  return Status::success();
}

SqliteMatchStore::SqliteMatchStore(Db write_db, std::optional<Db> read_db, FinishedHook on_finished)
    : write_db_(std::move(write_db)),
      read_db_(std::move(read_db)),
      on_finished_(std::move(on_finished)) {}

SqliteMatchStore::~SqliteMatchStore() {
  writer_.reset();
}

Status SqliteMatchStore::read(const std::function<Status(Db&)>& work) {
  std::lock_guard lock(read_mutex_);
  Db& db = read_db_ ? *read_db_ : write_db_;
  Status s;
  {
    Lease begin = db.statement("BEGIN", &s);
    if (s.ok()) s = begin->run();
    if (!s.ok()) return s;
  }
  const Status outcome = work(db);
  // A read transaction: COMMIT only ends it, and nothing can fail to be written.
  Lease end = db.statement("COMMIT", &s);
  if (s.ok()) s = end->run();
  return outcome.ok() ? s : outcome;
}

int SqliteMatchStore::schema_version() {
  int version = 0;
  read([&](Db& db) {
    version = store::schema_version(db);
    return Status::success();
  });
  return version;
}

Status SqliteMatchStore::create_match(const MatchRow& row, const Secrets& secrets) {
  return writer_->run([&](Db& db) { return insert_match(db, row, secrets); });
}

Status SqliteMatchStore::update_match(const MatchRow& row) {
  return writer_->run([&](Db& db) { return write_match_update(db, row); });
}

Status SqliteMatchStore::find_match(const std::string& id, std::optional<MatchRow>* row) {
  row->reset();
  return read([&](Db& db) {
    return query(
        db, kSelectMatch, [&](Statement& q) { q.bind(1, id); },
        [&](const Statement& q) { *row = match_from(q); });
  });
}

Status SqliteMatchStore::list_matches(MatchStatus status, int limit, std::vector<MatchRow>* rows) {
  return read([&](Db& db) {
    return list_by(
        db, kListMatches,
        [&](Statement& q) {
          q.bind(1, std::string(status_name(status))).bind(2, std::int64_t{limit});
        },
        rows);
  });
}

Status SqliteMatchStore::matches_of_player(std::int64_t account, int limit,
                                           std::vector<MatchRow>* rows) {
  return read([&](Db& db) {
    return list_by(
        db, kMatchesOfPlayer,
        [&](Statement& q) { q.bind(1, account).bind(2, std::int64_t{limit}); }, rows);
  });
}

void SqliteMatchStore::append(AppendRequest request, std::function<void(Status)> done) {
  assert((!request.match_update || request.match_update->id == request.match_id) &&
         "an append updates its own match only");
  writer_->submit(
      [this, request = std::move(request)](Db& db) {
        Status s = write_append(db, request);
        const bool finished =
            request.match_update && request.match_update->status == MatchStatus::kFinished;
        if (s.ok() && finished && on_finished_) s = on_finished_(db, *request.match_update);
        return s;
      },
      std::move(done));
}

Status SqliteMatchStore::flush() {
  return writer_->flush();
}

Status SqliteMatchStore::find_reply(const std::string& match_id, int side, std::int64_t client_seq,
                                    std::optional<std::string>* reply) {
  reply->reset();
  return read([&](Db& db) {
    return query(
        db, kSelectReply,
        [&](Statement& q) { q.bind(1, match_id).bind(2, std::int64_t{side}).bind(3, client_seq); },
        [&](const Statement& q) { *reply = q.column_blob(0); });
  });
}

Status SqliteMatchStore::replies_of(const std::string& match_id,
                                    std::vector<StoredReply>* replies) {
  replies->clear();
  return read([&](Db& db) {
    return query(
        db, kRepliesOf, [&](Statement& q) { q.bind(1, match_id); },
        [&](const Statement& q) {
          replies->push_back(
              {static_cast<int>(q.column_int(0)), q.column_int(1), q.column_blob(2)});
        });
  });
}

Status SqliteMatchStore::latest_snapshot(const std::string& match_id,
                                         std::optional<Snapshot>* snapshot) {
  snapshot->reset();
  return read([&](Db& db) {
    return query(
        db, kLatestSnapshot, [&](Statement& q) { q.bind(1, match_id); },
        [&](const Statement& q) {
          Snapshot snap;
          snap.entry_count = static_cast<std::uint32_t>(q.column_int(0));
          snap.event_count = static_cast<std::uint64_t>(q.column_int(1));
          snap.state = q.column_blob(2);
          snap.state_hash = q.column_blob(3);
          *snapshot = std::move(snap);
        });
  });
}

Status SqliteMatchStore::log_from(const std::string& match_id, std::uint32_t entry_index,
                                  std::vector<LogRow>* rows) {
  rows->clear();
  // Entries and their salts come from one read transaction, so they always agree.
  return read([&](Db& db) {
    auto bind = [&](Statement& q) {
      q.bind(1, match_id).bind(2, static_cast<std::int64_t>(entry_index));
    };
    std::map<std::uint32_t, std::size_t> position;
    Status s = query(db, kLogFrom, bind, [&](const Statement& q) {
      LogRow row;
      row.entry_index = static_cast<std::uint32_t>(q.column_int(0));
      row.kind = static_cast<int>(q.column_int(1));
      row.side = static_cast<int>(q.column_int(2));
      row.first_event = static_cast<std::uint64_t>(q.column_int(3));
      row.event_count = static_cast<std::uint32_t>(q.column_int(4));
      row.entry = q.column_blob(5);
      position[row.entry_index] = rows->size();
      rows->push_back(std::move(row));
    });
    if (!s.ok()) return s;
    return query(db, kSaltsFrom, bind, [&](const Statement& q) {
      auto at = position.find(static_cast<std::uint32_t>(q.column_int(0)));
      if (at == position.end()) return;  // the foreign key makes this impossible
      (*rows)[at->second].salts.push_back(
          SealSalt{static_cast<std::uint32_t>(q.column_int(1)), q.column_blob(2)});
    });
  });
}

Status SqliteMatchStore::secrets(const std::string& match_id, std::optional<Secrets>* secrets) {
  secrets->reset();
  return read([&](Db& db) {
    return query(
        db, kSelectSecrets, [&](Statement& q) { q.bind(1, match_id); },
        [&](const Statement& q) {
          *secrets = Secrets{q.column_blob(0), optional_blob(q, 1), optional_blob(q, 2)};
        });
  });
}

Status SqliteMatchStore::open_created_by(std::int64_t account, std::int64_t* count) {
  *count = 0;
  return read([&](Db& db) {
    return query(
        db, "SELECT count(*) FROM matches WHERE creator = ?1 AND status = 'open'",
        [&](Statement& q) { q.bind(1, account); },
        [&](const Statement& q) { *count = q.column_int(0); });
  });
}

Status SqliteMatchStore::by_status(std::array<std::int64_t, 4>* counts) {
  counts->fill(0);
  return read([&](Db& db) {
    return query(
        db, "SELECT status, count(*) FROM matches GROUP BY status", [](Statement&) {},
        [&](const Statement& q) {
          if (const auto status = status_from_name(q.column_text(0))) {
            (*counts)[static_cast<std::size_t>(*status)] = q.column_int(1);
          }
        });
  });
}

}  // namespace castra::store
