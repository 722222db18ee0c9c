// What only SqliteMatchStore has, on ":memory:" and on a real file: its durability pragma, a
// full disk, a file that outlives its store, a damaged file. What every store does is
// StoreConformance.* (store_conformance_test.cpp), run on SQLite and PostgreSQL alike.
#include "server/store/sqlite_match_store.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>

#include "tests/store/store_rows.hpp"
#include "tests/support/server_process.hpp"

namespace castra::store {
namespace {

enum class Backing { kMemory, kFile };

using testing::a_match;
using testing::a_seed;
using testing::an_entry;

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

  std::string dir_;
  StoreOptions options_;
  std::unique_ptr<SqliteMatchStore> store_;
};

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
