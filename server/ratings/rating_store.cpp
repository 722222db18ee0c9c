#include "server/ratings/rating_store.hpp"

#include <optional>

#include "proto/castra/v1/match.pb.h"

namespace castra::ratings {

namespace v1 = castra::v1;

namespace {

constexpr const char* kSelectRating =
    "SELECT rating, deviation, volatility, games FROM ratings WHERE account_id = ?1 AND "
    "ruleset = ?2";
constexpr const char* kUpsertRating =
    "INSERT INTO ratings(account_id, ruleset, rating, deviation, volatility, games, updated_ms) "
    "VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6) ON CONFLICT(account_id, ruleset) DO UPDATE SET "
    "rating = ?3, deviation = ?4, volatility = ?5, games = games + 1, updated_ms = ?6";
constexpr const char* kInsertRated =
    "INSERT OR IGNORE INTO rated_matches(match_id, ruleset, player_a, player_b, score_a, "
    "rating_a, rating_b, new_rating_a, new_rating_b, rated_ms) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
constexpr const char* kRatingsOf =
    "SELECT ruleset, rating, deviation, volatility, games FROM ratings WHERE account_id = ?1 "
    "ORDER BY ruleset";
// The player's rating in `ruleset` as it stands, a new player's when he has none.
store::Status current(store::Db& db, std::int64_t account, const std::string& ruleset,
                      Rating* out) {
  store::Status s;
  store::Lease q = db.statement(kSelectRating, &s);
  if (!s.ok()) return s;
  q->bind(1, account).bind(2, ruleset);
  *out = Rating{};
  if (q->step(&s)) *out = Rating{q->column_real(0), q->column_real(1), q->column_real(2)};
  return s;
}

store::Status save(store::Db& db, std::int64_t account, const std::string& ruleset, const Rating& r,
                   std::int64_t now_ms) {
  store::Status s;
  store::Lease q = db.statement(kUpsertRating, &s);
  if (!s.ok()) return s;
  q->bind(1, account).bind(2, ruleset).bind_real(3, r.rating).bind_real(4, r.deviation);
  q->bind_real(5, r.volatility).bind(6, now_ms);
  return q->run();
}

}  // namespace

std::optional<double> score_a(const store::MatchRow& row) {
  v1::Outcome outcome;
  if (!row.outcome || !outcome.ParseFromString(*row.outcome)) return std::nullopt;
  switch (outcome.kind()) {
    case v1::Outcome::WIN_A:
      return 1.0;
    case v1::Outcome::WIN_B:
      return 0.0;
    case v1::Outcome::DRAW:
      return 0.5;
    default:
      return std::nullopt;
  }
}

bool rated(const store::MatchRow& row) {
  v1::MatchSettings settings;
  if (!settings.ParseFromString(row.settings)) return false;
  return settings.computer() == v1::COMPUTER_NONE && row.player_a && row.player_b &&
         *row.player_a != *row.player_b && row.status == store::MatchStatus::kFinished &&
         score_a(row).has_value();
}

store::Status rate_finished_match(store::Db& db, const store::MatchRow& row) {
  if (!rated(row)) return store::Status::success();
  const double s_a = *score_a(row);
  Rating a;
  Rating b;
  store::Status s = current(db, *row.player_a, row.ruleset, &a);
  if (s.ok()) s = current(db, *row.player_b, row.ruleset, &b);
  if (!s.ok()) return s;
  // Each from both ratings as they stood before the match: the order of the two updates
  // does not matter.
  const Rating new_a = update(a, {{b, s_a}});
  const Rating new_b = update(b, {{a, 1.0 - s_a}});
  {
    store::Lease q = db.statement(kInsertRated, &s);
    if (!s.ok()) return s;
    q->bind(1, row.id).bind(2, row.ruleset).bind(3, *row.player_a).bind(4, *row.player_b);
    q->bind_real(5, s_a).bind_real(6, a.rating).bind_real(7, b.rating);
    q->bind_real(8, new_a.rating).bind_real(9, new_b.rating).bind(10, row.updated_ms);
    if (s = q->run(); !s.ok()) return s;
  }
  // Already rated (an end written twice): the ratings stay as they are.
  if (db.changes() != 1) return store::Status::success();
  if (s = save(db, *row.player_a, row.ruleset, new_a, row.updated_ms); !s.ok()) return s;
  return save(db, *row.player_b, row.ruleset, new_b, row.updated_ms);
}

store::Status ratings_of(store::Db& db, std::int64_t account, std::vector<StoredRating>* out) {
  out->clear();
  store::Status s;
  store::Lease q = db.statement(kRatingsOf, &s);
  if (!s.ok()) return s;
  q->bind(1, account);
  while (q->step(&s)) {
    out->push_back(StoredRating{q->column_text(0),
                                Rating{q->column_real(1), q->column_real(2), q->column_real(3)},
                                static_cast<int>(q->column_int(4))});
  }
  return s;
}

}  // namespace castra::ratings
