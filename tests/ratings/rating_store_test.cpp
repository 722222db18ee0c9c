// The rating step the store runs at a match's end (server/ratings/rating_store.hpp), on a
// database with every migration applied: who is rated, and that a match is rated once.
#include <gtest/gtest.h>

#include "proto/castra/v1/match.pb.h"
#include "server/ratings/rating_store.hpp"
#include "server/store/migrations.hpp"

namespace castra::ratings {
namespace {

struct Fixture {
  std::optional<store::Db> db;
  Fixture() {
    store::Status s;
    db = store::Db::open(":memory:", true, &s);
    EXPECT_TRUE(db && store::migrate(*db, store::embedded_migrations()).ok());
    EXPECT_TRUE(db->exec("INSERT INTO accounts(id, name, name_key, password_hash, created_ms) "
                         "VALUES (1, 'alice', 'alice', 'x', 0), (2, 'bob', 'bob', 'x', 0)")
                    .ok());
  }
  store::MatchRow finished(v1::Outcome::Kind kind, v1::ComputerStrength computer) {
    store::MatchRow row;
    row.id = "m" + std::to_string(++made);
    row.ruleset = "stand";
    row.status = store::MatchStatus::kFinished;
    row.player_a = 1;
    if (computer == v1::COMPUTER_NONE) row.player_b = 2;
    v1::MatchSettings settings;
    settings.set_computer(computer);
    row.settings = settings.SerializeAsString();
    v1::Outcome outcome;
    outcome.set_kind(kind);
    row.outcome = outcome.SerializeAsString();
    row.updated_ms = 1000;
    EXPECT_TRUE(db->exec("INSERT INTO matches(id, ruleset, rules_version, scenario_name, "
                         "scenario, settings, status, dice_commitment, created_ms, updated_ms) "
                         "VALUES ('" +
                         row.id +
                         "', 'stand', 'stand-1', 'stand/training', x'', x'', 'finished', "
                         "x'', 0, 0)")
                    .ok());
    return row;
  }
  std::vector<StoredRating> of(std::int64_t account) {
    std::vector<StoredRating> out;
    EXPECT_TRUE(ratings_of(*db, account, &out).ok());
    return out;
  }
  int made = 0;
};

TEST(Ratings, AMatchIsRatedOnceEvenIfItsEndIsWrittenTwice) {
  Fixture f;
  const store::MatchRow row = f.finished(v1::Outcome::DRAW, v1::COMPUTER_NONE);
  ASSERT_TRUE(rate_finished_match(*f.db, row).ok());
  ASSERT_TRUE(rate_finished_match(*f.db, row).ok());
  const auto alice = f.of(1);
  ASSERT_EQ(alice.size(), 1u);
  EXPECT_EQ(alice[0].ruleset, "stand");
  EXPECT_EQ(alice[0].games, 1);
  // A draw between two new players moves neither rating; both RDs shrink from 500.
  EXPECT_NEAR(alice[0].rating.rating, 1500.0, 1e-9);
  EXPECT_LT(alice[0].rating.deviation, 500.0);
  EXPECT_EQ(f.of(2).size(), 1u);
}

TEST(Ratings, GamesAgainstTheComputerAreUnrated) {
  Fixture f;
  const store::MatchRow row = f.finished(v1::Outcome::WIN_A, v1::COMPUTER_GREEDY);
  EXPECT_FALSE(rated(row));
  ASSERT_TRUE(rate_finished_match(*f.db, row).ok());
  EXPECT_TRUE(f.of(1).empty());
}

}  // namespace
}  // namespace castra::ratings
