#include "server/postgres/pg_match_store.hpp"

#include "server/postgres/pg_notices.hpp"

#include <cassert>
#include <map>
#include <utility>

namespace castra::postgres {

using store::AppendRequest;
using store::LogRow;
using store::MatchRow;
using store::MatchStatus;
using store::Secrets;
using store::Snapshot;
using store::Status;
namespace codes = store::status_codes;

namespace {

constexpr const char* kMatchColumns =
    "id, ruleset, rules_version, scenario_name, scenario, settings, status, dice_commitment, "
    "creator, player_a, player_b, to_act, deadline_a_ms, deadline_b_ms, outcome, created_ms, "
    "updated_ms";

MatchRow match_from(const pqxx::row& q) {
  MatchRow row;
  row.id = q[0].as<std::string>();
  row.ruleset = q[1].as<std::string>();
  row.rules_version = q[2].as<std::string>();
  row.scenario_name = q[3].as<std::string>();
  row.scenario = bytes_of(q[4]);
  row.settings = bytes_of(q[5]);
  // A word this build does not know is no state to play on: the row is shown as closed.
  row.status = store::status_from_name(q[6].as<std::string>()).value_or(MatchStatus::kClosed);
  row.dice_commitment = bytes_of(q[7]);
  row.creator = optional_integer_of(q[8]);
  row.player_a = optional_integer_of(q[9]);
  row.player_b = optional_integer_of(q[10]);
  row.to_act = q[11].as<std::string>();
  row.deadline_a_ms = optional_integer_of(q[12]);
  row.deadline_b_ms = optional_integer_of(q[13]);
  row.outcome = optional_bytes_of(q[14]);
  row.created_ms = q[15].as<std::int64_t>();
  row.updated_ms = q[16].as<std::int64_t>();
  return row;
}

Status insert_match(pqxx::transaction_base& tx, const MatchRow& row, const Secrets& secrets) {
  Params()
      .text(row.id)
      .text(row.ruleset)
      .text(row.rules_version)
      .text(row.scenario_name)
      .bytes(row.scenario)
      .bytes(row.settings)
      .text(std::string(status_name(row.status)))
      .bytes(row.dice_commitment)
      .optional_integer(row.creator)
      .optional_integer(row.player_a)
      .optional_integer(row.player_b)
      .text(row.to_act)
      .optional_integer(row.deadline_a_ms)
      .optional_integer(row.deadline_b_ms)
      .optional_bytes(row.outcome)
      .integer(row.created_ms)
      .integer(row.updated_ms)
      .run(tx, std::string("INSERT INTO matches(") + kMatchColumns +
                   ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, "
                   "$16, $17)");
  Params()
      .text(row.id)
      .bytes(secrets.server_seed)
      .optional_bytes(secrets.entropy_a)
      .optional_bytes(secrets.entropy_b)
      .run(tx,
           "INSERT INTO match_secrets(match_id, server_seed, entropy_a, entropy_b) "
           "VALUES ($1, $2, $3, $4)");
  return Status::success();
}

Status write_match_update(pqxx::transaction_base& tx, const MatchRow& row) {
  const pqxx::result r =
      Params()
          .text(row.id)
          .bytes(row.settings)
          .text(std::string(status_name(row.status)))
          .optional_integer(row.player_a)
          .optional_integer(row.player_b)
          .text(row.to_act)
          .optional_integer(row.deadline_a_ms)
          .optional_integer(row.deadline_b_ms)
          .optional_bytes(row.outcome)
          .integer(row.updated_ms)
          .run(tx,
               "UPDATE matches SET settings = $2, status = $3, player_a = $4, player_b = $5, "
               "to_act = $6, deadline_a_ms = $7, deadline_b_ms = $8, outcome = $9, "
               "updated_ms = $10 WHERE id = $1");
  if (r.affected_rows() != 1) return Status{codes::kNotFound, "there is no match " + row.id};
  return Status::success();
}

Status write_entry(pqxx::transaction_base& tx, const std::string& match_id, const LogRow& entry) {
  Params()
      .text(match_id)
      .integer(entry.entry_index)
      .integer(entry.kind)
      .integer(entry.side)
      .integer(static_cast<std::int64_t>(entry.first_event))
      .integer(entry.event_count)
      .bytes(entry.entry)
      .run(tx,
           "INSERT INTO match_log(match_id, entry_index, kind, side, first_event, event_count, "
           "entry) VALUES ($1, $2, $3, $4, $5, $6, $7)");
  for (const store::SealSalt& salt : entry.salts) {
    Params()
        .text(match_id)
        .integer(entry.entry_index)
        .integer(salt.event_index)
        .bytes(salt.salt)
        .run(tx,
             "INSERT INTO match_seal_salts(match_id, entry_index, event_index, salt) "
             "VALUES ($1, $2, $3, $4)");
  }
  return Status::success();
}

Status write_reply(pqxx::transaction_base& tx, const AppendRequest& request) {
  // ON CONFLICT DO NOTHING, then a count: a repeated client_seq is refused with its own words
  // (and the whole command with it), as the SQLite store's primary key refuses it.
  const pqxx::result r =
      Params()
          .text(request.match_id)
          .integer(request.side)
          .integer(*request.client_seq)
          .optional_integer(request.entry ? std::optional<std::int64_t>(request.entry->entry_index)
                                          : std::nullopt)
          .bytes(request.reply)
          .run(tx,
               "INSERT INTO command_replies(match_id, side, client_seq, entry_index, reply) "
               "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING");
  if (r.affected_rows() == 1) return Status::success();
  return Status{codes::kConstraint, "client_seq " + std::to_string(*request.client_seq) +
                                        " of side " + std::to_string(request.side) + " in match " +
                                        request.match_id +
                                        " was already answered: the command is not applied twice"};
}

Status write_append(pqxx::transaction_base& tx, const AppendRequest& request) {
  if (request.create) {
    assert(request.match_update && request.secrets_update && "a creation carries row and secrets");
    return insert_match(tx, *request.match_update, *request.secrets_update);
  }
  Status s;
  if (request.entry) {
    if (s = write_entry(tx, request.match_id, *request.entry); !s.ok()) return s;
  }
  if (request.client_seq) {
    if (s = write_reply(tx, request); !s.ok()) return s;
  }
  if (request.match_update) {
    if (s = write_match_update(tx, *request.match_update); !s.ok()) return s;
  }
  if (request.snapshot) {
    const Snapshot& snap = *request.snapshot;
    Params()
        .text(request.match_id)
        .integer(snap.entry_count)
        .integer(static_cast<std::int64_t>(snap.event_count))
        .bytes(snap.state)
        .bytes(snap.state_hash)
        .run(tx,
             "INSERT INTO match_snapshots(match_id, entry_count, event_count, state, state_hash) "
             "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (match_id, entry_count) DO UPDATE SET "
             "event_count = excluded.event_count, state = excluded.state, "
             "state_hash = excluded.state_hash");
  }
  if (request.secrets_update) {
    const pqxx::result r = Params()
                               .text(request.match_id)
                               .optional_bytes(request.secrets_update->entropy_a)
                               .optional_bytes(request.secrets_update->entropy_b)
                               .run(tx,
                                    "UPDATE match_secrets SET entropy_a = coalesce($2, entropy_a), "
                                    "entropy_b = coalesce($3, entropy_b) WHERE match_id = $1");
    if (r.affected_rows() != 1) {
      return Status{codes::kNotFound, "there is no match " + request.match_id};
    }
  }
  return Status::success();
}

}  // namespace

Status PgMatchStore::open(const PgStoreOptions& options, std::unique_ptr<PgMatchStore>* store) {
  store->reset();
  PgSession::Prepare prepare_write;
  if (options.leases) {
    // A node paused inside a transaction would hold its lease rows locked, and no other node
    // could take its matches over: the database ends such a session after one lease (the
    // writer's next batch then runs on a new connection, its lease checks with it).
    prepare_write = [lease_ms = options.leases->lease_ms()](pqxx::connection& c) {
      c.set_variable("idle_in_transaction_session_timeout", std::to_string(lease_ms));
    };
  }
  std::unique_ptr<PgMatchStore> opened(new PgMatchStore(options, std::move(prepare_write)));
  constexpr std::chrono::milliseconds kOnce{0};
  Status s = opened->write_.run([](pqxx::connection& c) { return migrate(c); }, kOnce);
  if (!s.ok()) return s;
  s = opened->read([](pqxx::transaction_base&) { return Status::success(); });
  if (!s.ok()) return s;
  opened->writer_ = std::make_unique<PgWriter>(opened->write_, options.queue_capacity,
                                               options.max_batch, options.reconnect_patience);
  *store = std::move(opened);
  return Status::success();
}

PgMatchStore::PgMatchStore(const PgStoreOptions& options, PgSession::Prepare prepare_write)
    : write_(options.url, "writer", std::move(prepare_write)),
      read_(options.url, "reader"),
      on_finished_(options.on_finished),
      leases_(options.leases),
      roles_(options.roles) {}

PgMatchStore::~PgMatchStore() {
  writer_.reset();
}

Status PgMatchStore::read(const std::function<Status(pqxx::transaction_base&)>& work) {
  std::lock_guard lock(read_mutex_);
  return read_.run(
      [&](pqxx::connection& c) {
        // A connection found lost at BEGIN is made again and the read runs on the new one.
        pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> tx(c);
        try {
          Status s = work(tx);
          tx.commit();
          return s;
        } catch (const pqxx::broken_connection& e) {
          // Lost part way: `work` may have gathered half its rows, so it does not run again;
          // the next read makes the connection again.
          return Status{codes::kIoError, e.what()};
        }
      },
      std::chrono::milliseconds{0});
}

int PgMatchStore::schema_version() {
  std::lock_guard lock(read_mutex_);
  int version = 0;
  read_.run(
      [&](pqxx::connection& c) {
        Status s;
        version = postgres::schema_version(c, &s);
        return s;
      },
      std::chrono::milliseconds{0});
  return version;
}

std::uint64_t PgMatchStore::reconnections() {
  return write_.reconnections() + read_.reconnections();
}

Status PgMatchStore::create_match(const MatchRow& row, const Secrets& secrets) {
  return writer_->run([&](pqxx::transaction_base& tx) { return insert_match(tx, row, secrets); });
}

Status PgMatchStore::update_match(const MatchRow& row) {
  return writer_->run([&](pqxx::transaction_base& tx) { return write_match_update(tx, row); });
}

Status PgMatchStore::find_match(const std::string& id, std::optional<MatchRow>* row) {
  row->reset();
  return read([&](pqxx::transaction_base& tx) {
    const pqxx::result r = Params().text(id).run(
        tx, std::string("SELECT ") + kMatchColumns + " FROM matches WHERE id = $1");
    if (!r.empty()) *row = match_from(r[0]);
    return Status::success();
  });
}

Status PgMatchStore::list_matches(MatchStatus status, int limit, std::vector<MatchRow>* rows) {
  rows->clear();
  return read([&](pqxx::transaction_base& tx) {
    Params p;
    p.text(std::string(status_name(status))).limit(limit);
    for (const auto& q : p.run(tx, std::string("SELECT ") + kMatchColumns +
                                       " FROM matches WHERE status = $1 "
                                       "ORDER BY updated_ms DESC, id LIMIT $2")) {
      rows->push_back(match_from(q));
    }
    return Status::success();
  });
}

Status PgMatchStore::matches_of_player(std::int64_t account, int limit,
                                       std::vector<MatchRow>* rows) {
  rows->clear();
  return read([&](pqxx::transaction_base& tx) {
    Params p;
    p.integer(account).limit(limit);
    for (const auto& q :
         p.run(tx, std::string("SELECT ") + kMatchColumns +
                       " FROM matches WHERE creator = $1 OR player_a = $1 OR player_b = $1 "
                       "ORDER BY updated_ms DESC, id LIMIT $2")) {
      rows->push_back(match_from(q));
    }
    return Status::success();
  });
}

void PgMatchStore::append(AppendRequest request, std::function<void(Status)> done) {
  assert((!request.match_update || request.match_update->id == request.match_id) &&
         "an append updates its own match only");
  const bool create = request.create;
  std::string id = request.match_id;
  writer_->submit(
      [this, request = std::move(request)](pqxx::transaction_base& tx) {
        Status s;
        // Fenced before anything is written; a new match's lease after its row (its key).
        if (leases_ && !request.create) {
          if (s = fence(tx, *leases_, request.match_id); !s.ok()) return s;
        }
        // The other nodes hear of what this append changes in its own transaction.
        std::optional<RowBefore> before;
        if (leases_ && !request.create && request.match_update) {
          before = row_before(tx, request.match_id);
        }
        s = write_append(tx, request);
        if (s.ok() && leases_ && request.create)
          s = lease_new_match(tx, *leases_, request.match_id);
        if (s.ok() && before) notify_changes(tx, leases_->node(), *before, *request.match_update);
        const bool finished =
            request.match_update && request.match_update->status == MatchStatus::kFinished;
        if (s.ok() && finished && on_finished_) s = on_finished_(tx, *request.match_update);
        return s;
      },
      [leases = leases_, create, id = std::move(id), done = std::move(done)](Status s) {
        // After the commit: the book holds only leases the database has (the renewal never
        // sees one of its own that is not there yet).
        if (leases && create && s.ok()) leases->hold(id, 1);
        // Fenced, another node has it; any other failure leaves this node's memory of the
        // match ahead of the log: the lease is given up (not renewed) and the match leaves this
        // node, to be taken over from its log once the lease has run out, by whichever node
        // takes it first (this one included).
        if (leases && !create && !s.ok()) leases->lost(id);
        done(std::move(s));
      });
}

Status PgMatchStore::flush() {
  return writer_->flush();
}

Status PgMatchStore::find_reply(const std::string& match_id, int side, std::int64_t client_seq,
                                std::optional<std::string>* reply) {
  reply->reset();
  return read([&](pqxx::transaction_base& tx) {
    const pqxx::result r = Params()
                               .text(match_id)
                               .integer(side)
                               .integer(client_seq)
                               .run(tx,
                                    "SELECT reply FROM command_replies WHERE match_id = $1 AND "
                                    "side = $2 AND client_seq = $3");
    if (!r.empty()) *reply = bytes_of(r[0][0]);
    return Status::success();
  });
}

Status PgMatchStore::replies_of(const std::string& match_id,
                                std::vector<store::StoredReply>* replies) {
  replies->clear();
  return read([&](pqxx::transaction_base& tx) {
    for (const auto& q : Params().text(match_id).run(
             tx, "SELECT side, client_seq, reply FROM command_replies WHERE match_id = $1")) {
      replies->push_back({q[0].as<int>(), q[1].as<std::int64_t>(), bytes_of(q[2])});
    }
    return Status::success();
  });
}

Status PgMatchStore::latest_snapshot(const std::string& match_id,
                                     std::optional<Snapshot>* snapshot) {
  snapshot->reset();
  return read([&](pqxx::transaction_base& tx) {
    const pqxx::result r = Params().text(match_id).run(
        tx,
        "SELECT entry_count, event_count, state, state_hash FROM match_snapshots "
        "WHERE match_id = $1 ORDER BY entry_count DESC LIMIT 1");
    if (r.empty()) return Status::success();
    *snapshot = Snapshot{r[0][0].as<std::uint32_t>(), r[0][1].as<std::uint64_t>(),
                         bytes_of(r[0][2]), bytes_of(r[0][3])};
    return Status::success();
  });
}

Status PgMatchStore::log_from(const std::string& match_id, std::uint32_t entry_index,
                              std::vector<LogRow>* rows) {
  rows->clear();
  // Entries and their salts come from one snapshot, so they always agree.
  return read([&](pqxx::transaction_base& tx) {
    std::map<std::uint32_t, std::size_t> position;
    for (const auto& q :
         Params()
             .text(match_id)
             .integer(entry_index)
             .run(tx,
                  "SELECT entry_index, kind, side, first_event, event_count, entry FROM match_log "
                  "WHERE match_id = $1 AND entry_index >= $2 ORDER BY entry_index")) {
      LogRow row;
      row.entry_index = q[0].as<std::uint32_t>();
      row.kind = q[1].as<int>();
      row.side = q[2].as<int>();
      row.first_event = q[3].as<std::uint64_t>();
      row.event_count = q[4].as<std::uint32_t>();
      row.entry = bytes_of(q[5]);
      position[row.entry_index] = rows->size();
      rows->push_back(std::move(row));
    }
    for (const auto& q :
         Params()
             .text(match_id)
             .integer(entry_index)
             .run(tx,
                  "SELECT entry_index, event_index, salt FROM match_seal_salts "
                  "WHERE match_id = $1 AND entry_index >= $2 ORDER BY entry_index, event_index")) {
      const auto at = position.find(q[0].as<std::uint32_t>());
      if (at == position.end()) continue;  // the foreign key makes this impossible
      (*rows)[at->second].salts.push_back({q[1].as<std::uint32_t>(), bytes_of(q[2])});
    }
    return Status::success();
  });
}

Status PgMatchStore::secrets(const std::string& match_id, std::optional<Secrets>* secrets) {
  secrets->reset();
  return read([&](pqxx::transaction_base& tx) {
    const pqxx::result r = Params().text(match_id).run(
        tx, "SELECT server_seed, entropy_a, entropy_b FROM match_secrets WHERE match_id = $1");
    if (!r.empty()) {
      *secrets = Secrets{bytes_of(r[0][0]), optional_bytes_of(r[0][1]), optional_bytes_of(r[0][2])};
    }
    return Status::success();
  });
}

Status PgMatchStore::open_created_by(std::int64_t account, std::int64_t* count) {
  *count = 0;
  return read([&](pqxx::transaction_base& tx) {
    *count =
        Params()
            .integer(account)
            .run(tx, "SELECT count(*) FROM matches WHERE creator = $1 AND status = 'open'")[0][0]
            .as<std::int64_t>();
    return Status::success();
  });
}

Status PgMatchStore::by_status(std::array<std::int64_t, 4>* counts) {
  counts->fill(0);
  return read([&](pqxx::transaction_base& tx) {
    for (const auto& q : tx.exec("SELECT status, count(*) FROM matches GROUP BY status")) {
      if (const auto status = store::status_from_name(q[0].as<std::string>())) {
        (*counts)[static_cast<std::size_t>(*status)] = q[1].as<std::int64_t>();
      }
    }
    return Status::success();
  });
}

}  // namespace castra::postgres
