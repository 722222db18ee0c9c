#include "server/lobby/interim_match_store.hpp"

namespace castra::lobby {

namespace {

constexpr const char* kColumns =
    "SELECT id, ruleset, rules_version, scenario_name, scenario, settings, status, "
    "dice_commitment, creator, player_a, player_b, to_act, deadline_a_ms, deadline_b_ms, "
    "outcome, created_ms, updated_ms FROM matches ";

std::optional<std::int64_t> opt_int(const store::Statement& q, int i) {
  if (q.column_is_null(i)) return std::nullopt;
  return q.column_int(i);
}

store::MatchRow read_row(const store::Statement& q) {
  store::MatchRow r;
  r.id = q.column_text(0);
  r.ruleset = q.column_text(1);
  r.rules_version = q.column_text(2);
  r.scenario_name = q.column_text(3);
  r.scenario = q.column_blob(4);
  r.settings = q.column_blob(5);
  r.status = q.column_text(6);
  r.dice_commitment = q.column_blob(7);
  r.creator = opt_int(q, 8);
  r.player_a = opt_int(q, 9);
  r.player_b = opt_int(q, 10);
  r.to_act = q.column_text(11);
  r.deadline_a_ms = opt_int(q, 12);
  r.deadline_b_ms = opt_int(q, 13);
  if (!q.column_is_null(14)) r.outcome = q.column_blob(14);
  r.created_ms = q.column_int(15);
  r.updated_ms = q.column_int(16);
  return r;
}

void bind_opt(store::Statement& q, int i, const std::optional<std::int64_t>& v) {
  if (v) {
    q.bind(i, *v);
  } else {
    q.bind_null(i);
  }
}

}  // namespace

store::Status InterimMatchStore::write_row(const store::MatchRow& r, bool insert) {
  store::Status s;
  store::Statement q = db_.prepare(
      insert ? "INSERT INTO matches(ruleset, rules_version, scenario_name, scenario, settings, "
               "status, dice_commitment, creator, player_a, player_b, to_act, deadline_a_ms, "
               "deadline_b_ms, outcome, created_ms, updated_ms, id) "
               "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)"
             : "UPDATE matches SET ruleset = ?1, rules_version = ?2, scenario_name = ?3, "
               "scenario = ?4, settings = ?5, status = ?6, dice_commitment = ?7, creator = ?8, "
               "player_a = ?9, player_b = ?10, to_act = ?11, deadline_a_ms = ?12, "
               "deadline_b_ms = ?13, outcome = ?14, created_ms = ?15, updated_ms = ?16 "
               "WHERE id = ?17",
      &s);
  if (!s.ok()) return s;
  q.bind(1, r.ruleset).bind(2, r.rules_version).bind(3, r.scenario_name);
  q.bind_blob(4, r.scenario).bind_blob(5, r.settings).bind(6, r.status);
  q.bind_blob(7, r.dice_commitment);
  bind_opt(q, 8, r.creator);
  bind_opt(q, 9, r.player_a);
  bind_opt(q, 10, r.player_b);
  q.bind(11, r.to_act);
  bind_opt(q, 12, r.deadline_a_ms);
  bind_opt(q, 13, r.deadline_b_ms);
  if (r.outcome) {
    q.bind_blob(14, *r.outcome);
  } else {
    q.bind_null(14);
  }
  q.bind(15, r.created_ms).bind(16, r.updated_ms).bind(17, r.id);
  s = q.run();
  if (s.ok() && !insert && db_.changes() != 1) s = store::Status{12, "no match " + r.id};
  return s;
}

store::Status InterimMatchStore::create_match(const store::MatchRow& row,
                                              const store::Secrets& secrets) {
  std::lock_guard lock(mutex_);
  store::Transaction tx(db_);
  if (!tx.begun().ok()) return tx.begun();
  if (auto s = write_row(row, true); !s.ok()) return s;
  store::Status s;
  store::Statement q = db_.prepare(
      "INSERT INTO match_secrets(match_id, server_seed, entropy_a, entropy_b) VALUES (?, ?, ?, ?)",
      &s);
  if (!s.ok()) return s;
  q.bind(1, row.id).bind_blob(2, secrets.server_seed);
  if (secrets.entropy_a)
    q.bind_blob(3, *secrets.entropy_a);
  else
    q.bind_null(3);
  if (secrets.entropy_b)
    q.bind_blob(4, *secrets.entropy_b);
  else
    q.bind_null(4);
  if (s = q.run(); !s.ok()) return s;
  return tx.commit();
}

store::Status InterimMatchStore::update_match(const store::MatchRow& row) {
  std::lock_guard lock(mutex_);
  return write_row(row, false);
}

std::vector<store::MatchRow> InterimMatchStore::query(const std::string& where,
                                                      const std::string& text, std::int64_t number,
                                                      int limit) {
  std::vector<store::MatchRow> out;
  store::Status s;
  store::Statement q = db_.prepare(std::string(kColumns) + where, &s);
  if (!s.ok()) return out;
  if (!text.empty()) {
    q.bind(1, text);
  } else {
    q.bind(1, number);
  }
  q.bind(2, static_cast<std::int64_t>(limit));
  while (q.step(&s))
    out.push_back(read_row(q));
  return out;
}

std::optional<store::MatchRow> InterimMatchStore::find_match(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto rows = query("WHERE id = ?1 LIMIT ?2", id, 0, 1);
  if (rows.empty()) return std::nullopt;
  return std::move(rows.front());
}

std::vector<store::MatchRow> InterimMatchStore::list_matches(const std::string& status, int limit) {
  std::lock_guard lock(mutex_);
  return query("WHERE status = ?1 ORDER BY updated_ms DESC, id LIMIT ?2", status, 0, limit);
}

std::vector<store::MatchRow> InterimMatchStore::matches_of_player(std::int64_t account, int limit) {
  std::lock_guard lock(mutex_);
  return query(
      "WHERE player_a = ?1 OR player_b = ?1 OR creator = ?1 ORDER BY updated_ms DESC, id "
      "LIMIT ?2",
      "", account, limit);
}

void InterimMatchStore::append(store::AppendRequest request,
                               std::function<void(store::Status)> done) {
  store::Status result;
  {
    std::lock_guard lock(mutex_);
    store::Transaction tx(db_);
    result = tx.begun();
    if (result.ok() && request.match_update) result = write_row(*request.match_update, false);
    if (result.ok() && request.secrets_update) {
      store::Statement q = db_.prepare(
          "UPDATE match_secrets SET entropy_a = ?, entropy_b = ? WHERE match_id = ?", &result);
      if (result.ok()) {
        const auto& sec = *request.secrets_update;
        if (sec.entropy_a)
          q.bind_blob(1, *sec.entropy_a);
        else
          q.bind_null(1);
        if (sec.entropy_b)
          q.bind_blob(2, *sec.entropy_b);
        else
          q.bind_null(2);
        result = q.bind(3, request.match_id).run();
      }
    }
    if (result.ok() && (request.entry || request.client_seq)) {
      result = store::Status{1, "the interim store keeps no match log"};
    }
    if (result.ok()) result = tx.commit();
  }
  done(result);
}

std::optional<std::string> InterimMatchStore::find_reply(const std::string&, int, std::int64_t) {
  return std::nullopt;
}

std::optional<store::Snapshot> InterimMatchStore::latest_snapshot(const std::string&) {
  return std::nullopt;
}

std::vector<store::LogRow> InterimMatchStore::log_from(const std::string&, std::uint32_t) {
  return {};
}

std::optional<store::Secrets> InterimMatchStore::secrets(const std::string& match_id) {
  std::lock_guard lock(mutex_);
  store::Status s;
  store::Statement q = db_.prepare(
      "SELECT server_seed, entropy_a, entropy_b FROM match_secrets WHERE match_id = ?", &s);
  if (!s.ok()) return std::nullopt;
  q.bind(1, match_id);
  if (!q.step(&s)) return std::nullopt;
  store::Secrets out;
  out.server_seed = q.column_blob(0);
  if (!q.column_is_null(1)) out.entropy_a = q.column_blob(1);
  if (!q.column_is_null(2)) out.entropy_b = q.column_blob(2);
  return out;
}

}  // namespace castra::lobby
