// Where the server keeps each account's rating per game (migrations/0008_ratings.sql) and how
// a finished match moves them (docs/ratings.md): rated when two people played it to an
// outcome, each match its own Glicko-2 rating period, once. Runs on whatever connection it is
// given: rate_finished_match inside the store's transaction that records the end (the writer
// thread), the reads on a reader's snapshot.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "server/ratings/glicko2.hpp"
#include "server/store/match_store.hpp"
#include "server/store/sqlite.hpp"

namespace castra::ratings {

// Whether a finished match counts: both seats held by people (never the computer), and an
// outcome.
bool rated(const store::MatchRow& row);
// Side A's score in a finished match: 1 a win, 0.5 a draw, 0 a loss; nullopt without an outcome.
std::optional<double> score_a(const store::MatchRow& row);

// Rates `row` (a finished match) unless it is unrated or already rated: both players' new
// ratings and the match's row in rated_matches. A store::FinishedHook.
store::Status rate_finished_match(store::Db& db, const store::MatchRow& row);

struct StoredRating {
  std::string ruleset;
  Rating rating;
  int games = 0;
};

// The account's ratings, one per game it has played rated (ruleset order).
store::Status ratings_of(store::Db& db, std::int64_t account, std::vector<StoredRating>* out);

}  // namespace castra::ratings
