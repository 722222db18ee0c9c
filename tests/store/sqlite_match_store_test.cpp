// SqliteMatchStore, run both on ":memory:" and on a real file with every migration applied:
// what goes in comes back, a command's writes land together or not at all, a client_seq is
// answered once, and callbacks run only after their commit.
#include "server/store/sqlite_match_store.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "server/store/migrations.hpp"
#include "tests/support/server_process.hpp"

namespace castra::store {
namespace {

enum class Backing { kMemory, kFile };

MatchRow a_match(const std::string& id, std::int64_t updated_ms = 1000) {
  MatchRow row;
  row.id = id;
  row.ruleset = "optio";
  row.rules_version = "optio-1";
  row.scenario_name = "optio/training";
  row.scenario = std::string("\x0a\x03sc\0n", 6);  // blobs keep their zero bytes
  row.settings = "settings";
  row.status = store::MatchStatus::kOpen;
  row.dice_commitment = std::string(32, '\x7f');
  row.creator = 7;
  row.created_ms = 1000;
  row.updated_ms = updated_ms;
  return row;
}

Secrets a_seed() {
  return Secrets{std::string(32, '\x01'), std::nullopt, std::nullopt};
}

LogRow an_entry(std::uint32_t index, std::uint64_t first_event, std::uint32_t events) {
  LogRow row;
  row.entry_index = index;
  row.kind = 1;
  row.side = static_cast<int>(index % 2);
  row.first_event = first_event;
  row.event_count = events;
  row.entry = "entry " + std::to_string(index);
  return row;
}

class SqliteMatchStoreTest : public ::testing::TestWithParam<Backing> {
 protected:
  void SetUp() override {
    if (GetParam() == Backing::kFile) {
      dir_ = testing::make_temp_dir("castra-store");
      options_.database.path = dir_ + "/castra.db";
    } else {
      options_.database.path = ":memory:";
    }
    reopen();
  }
  void TearDown() override {
    store_.reset();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  void reopen() {
    store_.reset();
    const Status s = SqliteMatchStore::open(options_, &store_);
    ASSERT_TRUE(s.ok()) << s.message;
  }
  // Appends and waits for the callback.
  Status append_now(AppendRequest request) {
    std::promise<Status> done;
    store_->append(std::move(request), [&](Status s) { done.set_value(std::move(s)); });
    return done.get_future().get();
  }
  std::optional<MatchRow> find(const std::string& id) {
    std::optional<MatchRow> row;
    EXPECT_TRUE(store_->find_match(id, &row).ok());
    return row;
  }
  std::vector<LogRow> log(const std::string& id, std::uint32_t from = 0) {
    std::vector<LogRow> rows;
    EXPECT_TRUE(store_->log_from(id, from, &rows).ok());
    return rows;
  }
  std::optional<std::string> reply(const std::string& id, int side, std::int64_t seq) {
    std::optional<std::string> r;
    EXPECT_TRUE(store_->find_reply(id, side, seq, &r).ok());
    return r;
  }

  std::string dir_;
  StoreOptions options_;
  std::unique_ptr<SqliteMatchStore> store_;
};

TEST_P(SqliteMatchStoreTest, OpensWithEveryMigrationApplied) {
  EXPECT_EQ(store_->schema_version(), embedded_migrations().back().number);
}

TEST_P(SqliteMatchStoreTest, AMatchComesBackAsItWasCreated) {
  MatchRow row = a_match("m1");
  row.deadline_a_ms = 5000;
  ASSERT_TRUE(store_->create_match(row, a_seed()).ok());
  const auto found = find("m1");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->scenario, row.scenario);
  EXPECT_EQ(found->dice_commitment, row.dice_commitment);
  EXPECT_EQ(found->creator, 7);
  EXPECT_EQ(found->player_a, std::nullopt);
  EXPECT_EQ(found->deadline_a_ms, 5000);
  EXPECT_EQ(found->deadline_b_ms, std::nullopt);
  EXPECT_EQ(found->outcome, std::nullopt);
  EXPECT_EQ(found->status, store::MatchStatus::kOpen);
  EXPECT_FALSE(find("nobody"));
}

TEST_P(SqliteMatchStoreTest, CreatingTheSameMatchTwiceFails) {
  ASSERT_TRUE(store_->create_match(a_match("m1"), a_seed()).ok());
  EXPECT_FALSE(store_->create_match(a_match("m1"), a_seed()).ok());
}

TEST_P(SqliteMatchStoreTest, UpdateChangesWhatMovesDuringAMatchAndNothingElse) {
  ASSERT_TRUE(store_->create_match(a_match("m1"), a_seed()).ok());
  MatchRow changed = a_match("m1", 2000);
  changed.status = store::MatchStatus::kLive;
  changed.player_a = 1;
  changed.player_b = 2;
  changed.to_act = "AB";
  changed.deadline_b_ms = 9000;
  changed.outcome = std::string("\x08\x01", 2);
  changed.ruleset = "stand";  // fixed at creation: not written
  changed.creator = 99;       // likewise
  ASSERT_TRUE(store_->update_match(changed).ok());
  const auto found = find("m1");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->status, store::MatchStatus::kLive);
  EXPECT_EQ(found->player_b, 2);
  EXPECT_EQ(found->to_act, "AB");
  EXPECT_EQ(found->deadline_b_ms, 9000);
  EXPECT_EQ(found->outcome, changed.outcome);
  EXPECT_EQ(found->updated_ms, 2000);
  EXPECT_EQ(found->ruleset, "optio");
  EXPECT_EQ(found->creator, 7);
}

TEST_P(SqliteMatchStoreTest, UpdatingAMatchThatDoesNotExistFails) {
  const Status s = store_->update_match(a_match("ghost"));
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find("ghost"), std::string::npos) << s.message;
}

TEST_P(SqliteMatchStoreTest, ListsMatchesByStatusMostRecentlyUpdatedFirst) {
  for (int i = 0; i < 5; ++i) {
    MatchRow row = a_match("m" + std::to_string(i), 1000 + i);
    row.status = i % 2 == 0 ? MatchStatus::kOpen : MatchStatus::kLive;
    ASSERT_TRUE(store_->create_match(row, a_seed()).ok());
  }
  std::vector<MatchRow> rows;
  ASSERT_TRUE(store_->list_matches(store::MatchStatus::kOpen, 10, &rows).ok());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].id, "m4");
  EXPECT_EQ(rows[2].id, "m0");
  ASSERT_TRUE(store_->list_matches(store::MatchStatus::kOpen, 2, &rows).ok());
  EXPECT_EQ(rows.size(), 2u);
  ASSERT_TRUE(store_->list_matches(store::MatchStatus::kLive, -1, &rows).ok());
  EXPECT_EQ(rows.size(), 2u);
}

TEST_P(SqliteMatchStoreTest, ListsTheMatchesAPlayerCreatedOrPlays) {
  MatchRow created = a_match("created", 3000);
  created.creator = 1;
  MatchRow plays_a = a_match("plays-a", 2000);
  plays_a.player_a = 1;
  MatchRow plays_b = a_match("plays-b", 1000);
  plays_b.player_b = 1;
  MatchRow other = a_match("other", 4000);
  other.creator = 2;
  for (const MatchRow& row : {created, plays_a, plays_b, other}) {
    ASSERT_TRUE(store_->create_match(row, a_seed()).ok());
  }
  // Seats are taken by update, as the lobby will.
  ASSERT_TRUE(store_->update_match(plays_a).ok());
  ASSERT_TRUE(store_->update_match(plays_b).ok());
  std::vector<MatchRow> rows;
  ASSERT_TRUE(store_->matches_of_player(1, -1, &rows).ok());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].id, "created");
  EXPECT_EQ(rows[1].id, "plays-a");
  EXPECT_EQ(rows[2].id, "plays-b");
}

TEST_P(SqliteMatchStoreTest, AnAppendWritesEverythingOfOneCommandTogether) {
  ASSERT_TRUE(store_->create_match(a_match("m1"), a_seed()).ok());
  AppendRequest request;
  request.match_id = "m1";
  request.side = 0;
  request.client_seq = 41;
  request.entry = an_entry(0, 0, 3);
  request.entry->salts = {{1, std::string(32, 's')}, {2, std::string(32, 't')}};
  request.reply = "accepted";
  request.match_update = a_match("m1", 2000);
  request.match_update->status = store::MatchStatus::kLive;
  request.snapshot = Snapshot{1, 3, "state", "hash"};
  request.secrets_update = Secrets{"", std::string("entropy a"), std::nullopt};
  ASSERT_TRUE(append_now(request).ok());

  const auto entries = log("m1");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].entry, "entry 0");
  EXPECT_EQ(entries[0].event_count, 3u);
  ASSERT_EQ(entries[0].salts.size(), 2u);
  EXPECT_EQ(entries[0].salts[1].event_index, 2u);
  EXPECT_EQ(entries[0].salts[1].salt, std::string(32, 't'));
  EXPECT_EQ(reply("m1", 0, 41), "accepted");
  EXPECT_EQ(find("m1")->status, store::MatchStatus::kLive);
  std::optional<Snapshot> snap;
  ASSERT_TRUE(store_->latest_snapshot("m1", &snap).ok());
  ASSERT_TRUE(snap);
  EXPECT_EQ(snap->state, "state");
  std::optional<Secrets> secrets;
  ASSERT_TRUE(store_->secrets("m1", &secrets).ok());
  ASSERT_TRUE(secrets);
  EXPECT_EQ(secrets->server_seed, std::string(32, '\x01'));
  EXPECT_EQ(secrets->entropy_a, "entropy a");
  EXPECT_EQ(secrets->entropy_b, std::nullopt);
}

TEST_P(SqliteMatchStoreTest, EntropyIsAddedAndNeverReplacesTheSeed) {
  ASSERT_TRUE(store_->create_match(a_match("m1"), a_seed()).ok());
  AppendRequest a;
  a.match_id = "m1";
  a.secrets_update = Secrets{"ignored", std::string("ea"), std::nullopt};
  ASSERT_TRUE(append_now(a).ok());
  AppendRequest b;
  b.match_id = "m1";
  b.secrets_update = Secrets{"ignored", std::nullopt, std::string("eb")};
  ASSERT_TRUE(append_now(b).ok());
  std::optional<Secrets> secrets;
  ASSERT_TRUE(store_->secrets("m1", &secrets).ok());
  EXPECT_EQ(secrets->server_seed, std::string(32, '\x01'));
  EXPECT_EQ(secrets->entropy_a, "ea");
  EXPECT_EQ(secrets->entropy_b, "eb");
}

TEST_P(SqliteMatchStoreTest, ARefusedCommandKeepsOnlyItsReply) {
  ASSERT_TRUE(store_->create_match(a_match("m1"), a_seed()).ok());
  AppendRequest refused;
  refused.match_id = "m1";
  refused.side = 1;
  refused.client_seq = 5;
  refused.reply = "refused: not your turn";
  ASSERT_TRUE(append_now(refused).ok());
  EXPECT_TRUE(log("m1").empty());
  EXPECT_EQ(reply("m1", 1, 5), "refused: not your turn");
  EXPECT_EQ(reply("m1", 0, 5), std::nullopt) << "each side has its own numbers";
}

TEST_P(SqliteMatchStoreTest, ARepeatedClientSeqIsRefusedWholeSoNothingIsAppliedTwice) {
  ASSERT_TRUE(store_->create_match(a_match("m1"), a_seed()).ok());
  AppendRequest first;
  first.match_id = "m1";
  first.client_seq = 9;
  first.entry = an_entry(0, 0, 1);
  first.reply = "first";
  ASSERT_TRUE(append_now(first).ok());

  AppendRequest again = first;
  again.entry = an_entry(1, 1, 1);
  again.reply = "second";
  again.match_update = a_match("m1", 5000);
  again.match_update->status = store::MatchStatus::kFinished;
  const Status s = append_now(again);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find("already answered"), std::string::npos) << s.message;
  EXPECT_EQ(log("m1").size(), 1u);
  EXPECT_EQ(reply("m1", 0, 9), "first");
  EXPECT_EQ(find("m1")->status, store::MatchStatus::kOpen);
}

TEST_P(SqliteMatchStoreTest, AFailedAppendLeavesTheOthersOfItsCommitIntact) {
  for (const char* id : {"m1", "m2"})
    ASSERT_TRUE(store_->create_match(a_match(id), a_seed()).ok());
  std::promise<void> release;
  std::promise<void> held;
  store_->writer().submit(
      [&](Db&) {
        held.set_value();
        release.get_future().wait();
        return Status::success();
      },
      nullptr);
  held.get_future().wait();
  Status ok1, bad, ok2;
  AppendRequest r1;
  r1.match_id = "m1";
  r1.entry = an_entry(0, 0, 1);
  store_->append(r1, [&](Status s) { ok1 = s; });
  AppendRequest dup = r1;  // the same entry index again: a bug in the caller
  store_->append(dup, [&](Status s) { bad = s; });
  AppendRequest r2;
  r2.match_id = "m2";
  r2.entry = an_entry(0, 0, 1);
  store_->append(r2, [&](Status s) { ok2 = s; });
  release.set_value();
  ASSERT_TRUE(store_->flush().ok());
  EXPECT_TRUE(ok1.ok());
  EXPECT_FALSE(bad.ok());
  EXPECT_TRUE(ok2.ok());
  EXPECT_EQ(log("m1").size(), 1u);
  EXPECT_EQ(log("m2").size(), 1u);
}

TEST_P(SqliteMatchStoreTest, AnAppendToAMatchThatDoesNotExistFails) {
  AppendRequest orphan;
  orphan.match_id = "ghost";
  orphan.entry = an_entry(0, 0, 1);
  EXPECT_FALSE(append_now(orphan).ok());
}

TEST_P(SqliteMatchStoreTest, TheCallbackSeesItsCommandAlreadyCommitted) {
  ASSERT_TRUE(store_->create_match(a_match("m1"), a_seed()).ok());
  std::vector<std::optional<std::string>> seen(30);
  for (int seq = 0; seq < 30; ++seq) {
    AppendRequest request;
    request.match_id = "m1";
    request.client_seq = seq;
    request.entry = an_entry(static_cast<std::uint32_t>(seq), static_cast<std::uint64_t>(seq), 1);
    request.reply = "r" + std::to_string(seq);
    store_->append(request, [&, seq](Status s) {
      ASSERT_TRUE(s.ok()) << s.message;
      // A read from the read connection: only committed data is visible there.
      EXPECT_TRUE(store_->find_reply("m1", 0, seq, &seen[seq]).ok());
    });
  }
  ASSERT_TRUE(store_->flush().ok());
  for (int seq = 0; seq < 30; ++seq)
    EXPECT_EQ(seen[seq], "r" + std::to_string(seq));
}

TEST_P(SqliteMatchStoreTest, AppendsFromManyThreadsAreAllKeptAndShareCommits) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 50;
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(store_->create_match(a_match("m" + std::to_string(t)), a_seed()).ok());
  }
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        AppendRequest request;
        request.match_id = "m" + std::to_string(t);
        request.client_seq = i;
        request.entry = an_entry(static_cast<std::uint32_t>(i), static_cast<std::uint64_t>(i), 1);
        store_->append(request, [&](Status s) { ok += s.ok(); });
      }
    });
  }
  for (auto& th : threads)
    th.join();
  ASSERT_TRUE(store_->flush().ok());
  EXPECT_EQ(ok, kThreads * kPerThread);
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(log("m" + std::to_string(t)).size(), 50u);
  EXPECT_LT(store_->writer_stats().commits, std::uint64_t{kThreads * kPerThread});
}

TEST_P(SqliteMatchStoreTest, LogFromStartsAtTheGivenEntryWithItsSalts) {
  ASSERT_TRUE(store_->create_match(a_match("m1"), a_seed()).ok());
  for (std::uint32_t i = 0; i < 5; ++i) {
    AppendRequest request;
    request.match_id = "m1";
    request.entry = an_entry(i, i * 2, 2);
    request.entry->salts = {{0, "salt" + std::to_string(i)}};
    ASSERT_TRUE(append_now(request).ok());
  }
  const auto rows = log("m1", 3);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].entry_index, 3u);
  EXPECT_EQ(rows[0].first_event, 6u);
  ASSERT_EQ(rows[1].salts.size(), 1u);
  EXPECT_EQ(rows[1].salts[0].salt, "salt4");
}

TEST_P(SqliteMatchStoreTest, TheLatestSnapshotIsTheNewest) {
  ASSERT_TRUE(store_->create_match(a_match("m1"), a_seed()).ok());
  std::optional<Snapshot> snap;
  ASSERT_TRUE(store_->latest_snapshot("m1", &snap).ok());
  EXPECT_FALSE(snap);
  for (std::uint32_t at : {10u, 30u, 20u}) {
    AppendRequest request;
    request.match_id = "m1";
    request.snapshot = Snapshot{at, at * 3, "state" + std::to_string(at), "h"};
    ASSERT_TRUE(append_now(request).ok());
  }
  ASSERT_TRUE(store_->latest_snapshot("m1", &snap).ok());
  ASSERT_TRUE(snap);
  EXPECT_EQ(snap->entry_count, 30u);
  EXPECT_EQ(snap->state, "state30");
}

TEST_P(SqliteMatchStoreTest, TheDurabilitySettingReachesTheWriterConnection) {
  for (Durability d : {Durability::kNormal, Durability::kFull}) {
    options_.database.durability = d;
    reopen();
    std::int64_t synchronous = -1;
    ASSERT_TRUE(store_->writer()
                    .run([&](Db& db) {
                      Status s;
                      Lease q = db.statement("PRAGMA synchronous", &s);
                      if (q->step(&s)) synchronous = q->column_int(0);
                      return s;
                    })
                    .ok());
    EXPECT_EQ(synchronous, d == Durability::kFull ? 2 : 1);  // FULL = 2, NORMAL = 1
  }
}

TEST_P(SqliteMatchStoreTest, AFullDiskFailsTheAppendWithAStatusAndReadsGoOn) {
  ASSERT_TRUE(store_->create_match(a_match("m1"), a_seed()).ok());
  // No room for a single new page: as a full disk would.
  ASSERT_TRUE(
      store_->writer().run([](Db& db) { return db.exec("PRAGMA max_page_count = 1"); }).ok());
  AppendRequest big;
  big.match_id = "m1";
  big.entry = an_entry(0, 0, 1);
  big.entry->entry = std::string(200000, 'x');
  const Status s = append_now(big);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(find("m1").has_value());
}

INSTANTIATE_TEST_SUITE_P(OnMemoryAndFile, SqliteMatchStoreTest,
                         ::testing::Values(Backing::kMemory, Backing::kFile),
                         [](const ::testing::TestParamInfo<Backing>& info) {
                           return info.param == Backing::kMemory ? "Memory" : "File";
                         });

// Only a file outlives its store.
TEST(SqliteMatchStoreOnFile, EverythingSurvivesClosingAndOpeningAgain) {
  const std::string dir = testing::make_temp_dir("castra-store");
  StoreOptions options;
  options.database.path = dir + "/castra.db";
  std::unique_ptr<SqliteMatchStore> store;
  ASSERT_TRUE(SqliteMatchStore::open(options, &store).ok());
  ASSERT_TRUE(store->create_match(a_match("m1"), a_seed()).ok());
  AppendRequest request;
  request.match_id = "m1";
  request.client_seq = 1;
  request.entry = an_entry(0, 0, 1);
  request.reply = "kept";
  store->append(request, nullptr);
  store.reset();  // the destructor commits what is queued
  ASSERT_TRUE(SqliteMatchStore::open(options, &store).ok());
  std::vector<LogRow> rows;
  ASSERT_TRUE(store->log_from("m1", 0, &rows).ok());
  EXPECT_EQ(rows.size(), 1u);
  std::optional<std::string> reply;
  ASSERT_TRUE(store->find_reply("m1", 0, 1, &reply).ok());
  EXPECT_EQ(reply, "kept");
  store.reset();
  std::filesystem::remove_all(dir);
}

TEST(SqliteMatchStoreOnFile, OpeningADamagedDatabaseFailsWithAStatus) {
  const std::string dir = testing::make_temp_dir("castra-store");
  { std::ofstream(dir + "/castra.db") << std::string(8192, 'x'); }
  StoreOptions options;
  options.database.path = dir + "/castra.db";
  std::unique_ptr<SqliteMatchStore> store;
  const Status s = SqliteMatchStore::open(options, &store);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(store, nullptr);
  EXPECT_NE(s.message.find("not a SQLite database"), std::string::npos) << s.message;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace castra::store
