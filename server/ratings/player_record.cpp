#include "server/ratings/player_record.hpp"

namespace castra::ratings {

namespace {

constexpr const char* kFindAccount =
    "SELECT id, name, created_ms FROM accounts WHERE name_key = ?1";
constexpr const char* kFinishedOf =
    "SELECT m.id, m.ruleset, m.scenario_name, m.player_a, m.player_b, m.settings, m.outcome, "
    "m.updated_ms, r.match_id IS NOT NULL, r.rating_a, r.new_rating_a, r.rating_b, "
    "r.new_rating_b FROM matches m LEFT JOIN rated_matches r ON r.match_id = m.id "
    "WHERE m.status = 'finished' AND (m.player_a = ?1 OR m.player_b = ?1) "
    "ORDER BY m.updated_ms DESC, m.id";

}  // namespace

store::Status find_account(store::Db& db, const std::string& name_key,
                           std::optional<PlayerAccount>* out) {
  out->reset();
  store::Status s;
  store::Lease q = db.statement(kFindAccount, &s);
  if (!s.ok()) return s;
  q->bind(1, name_key);
  if (q->step(&s)) *out = PlayerAccount{q->column_int(0), q->column_text(1), q->column_int(2)};
  return s;
}

store::Status finished_matches_of(store::Db& db, std::int64_t account,
                                  std::vector<FinishedMatch>* out) {
  out->clear();
  store::Status s;
  store::Lease q = db.statement(kFinishedOf, &s);
  if (!s.ok()) return s;
  q->bind(1, account);
  while (q->step(&s)) {
    FinishedMatch m;
    m.id = q->column_text(0);
    m.ruleset = q->column_text(1);
    m.scenario = q->column_text(2);
    const bool is_a = !q->column_is_null(3) && q->column_int(3) == account;
    m.side = is_a ? 0 : 1;
    const int other = is_a ? 4 : 3;
    if (!q->column_is_null(other)) m.opponent = q->column_int(other);
    m.settings = q->column_blob(5);
    m.outcome = q->column_blob(6);
    m.ended_ms = q->column_int(7);
    m.rated = q->column_int(8) != 0;
    if (m.rated) {
      m.rating_change =
          is_a ? q->column_real(10) - q->column_real(9) : q->column_real(12) - q->column_real(11);
    }
    out->push_back(std::move(m));
  }
  return s;
}

store::Status SqlitePlayerRecords::page(const std::string& name_key,
                                        std::optional<PlayerAccount>* account,
                                        std::vector<FinishedMatch>* matches,
                                        std::vector<StoredRating>* ratings) {
  return sql_.read([&](store::Db& db) {
    store::Status s = find_account(db, name_key, account);
    if (s.ok() && *account) s = finished_matches_of(db, (*account)->id, matches);
    if (s.ok() && *account) s = ratings_of(db, (*account)->id, ratings);
    return s;
  });
}

}  // namespace castra::ratings
