// A damaged database file is refused at start-up with a clear message and left exactly as it
// was: a file truncated mid-page, a byte flipped in any page, a file that is not SQLite, a
// database from a newer Castra; by open_database and by castra-server as a process. Every
// page carries its checksum, and a file made before checksums gains them once.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "server/store/checksum_vfs.hpp"
#include "server/store/database.hpp"
#include "server/store/migrations.hpp"
#include "server/store/sqlite_match_store.hpp"
#include "tests/store/file_util.hpp"
#include "tests/support/server_process.hpp"

namespace castra::store {
namespace {

namespace fs = std::filesystem;
using test::read_bytes;
using test::write_bytes;

class DatabaseDamageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::make_temp_dir("castra-damage");
    path_ = dir_ + "/castra.db";
    // A real database with some matches in it, closed cleanly (its WAL folded in).
    StoreOptions options;
    options.database.path = path_;
    std::unique_ptr<SqliteMatchStore> store;
    ASSERT_TRUE(SqliteMatchStore::open(options, &store).ok());
    for (int m = 0; m < 4; ++m) {
      MatchRow row;
      row.id = "m" + std::to_string(m);
      row.ruleset = "toy";
      row.rules_version = "toy-1";
      row.scenario_name = "toy/race";
      row.status = store::MatchStatus::kLive;
      ASSERT_TRUE(store->create_match(row, Secrets{std::string(32, 's'), {}, {}}).ok());
      for (std::uint32_t i = 0; i < 40; ++i) {
        AppendRequest request;
        request.match_id = row.id;
        request.client_seq = i;
        request.reply = "ok";
        request.entry =
            LogRow{i, 1, 0, i, 1, std::string(200, static_cast<char>('a' + i % 26)), {}};
        store->append(request, nullptr);
      }
    }
    store.reset();
    ASSERT_FALSE(fs::exists(path_ + "-wal")) << "a clean close folds the WAL into the file";
    good_ = read_bytes(path_);
    page_ = test::page_size_of(good_);
    ASSERT_GE(good_.size() / page_, 10u);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // open_database refuses the file as it is now, and leaves its bytes alone.
  std::string expect_refused() {
    const std::string before = read_bytes(path_);
    Status s;
    auto db = open_database({path_}, &s);
    EXPECT_FALSE(db);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message.find(path_), std::string::npos) << s.message;
    EXPECT_NE(s.message.find("nothing was written"), std::string::npos) << s.message;
    db.reset();
    EXPECT_EQ(read_bytes(path_), before) << "a refused file is never written";
    return s.message;
  }

  std::string dir_;
  std::string path_;
  std::string good_;
  std::size_t page_ = 0;
};

TEST_F(DatabaseDamageTest, EveryPageCarriesTheChecksumOfItsBytes) {
  EXPECT_EQ(static_cast<unsigned char>(good_[20]), kChecksumBytes);
  EXPECT_TRUE(test::every_page_has_its_checksum(good_));
}

TEST_F(DatabaseDamageTest, TheUndamagedFileOpens) {
  Status s;
  EXPECT_TRUE(open_database({path_}, &s)) << s.message;
}

TEST_F(DatabaseDamageTest, AFileTruncatedMidPageIsRefused) {
  const std::size_t cut = (good_.size() / page_ / 2) * page_ + page_ / 3;
  write_bytes(path_, good_.substr(0, cut));
  const std::string message = expect_refused();
  EXPECT_NE(message.find("damaged"), std::string::npos) << message;
}

TEST_F(DatabaseDamageTest, AFileMissingItsLastPagesIsRefused) {
  write_bytes(path_, good_.substr(0, good_.size() - 3 * page_));
  EXPECT_NE(expect_refused().find("damaged"), std::string::npos);
}

TEST_F(DatabaseDamageTest, AFlippedByteInAnyPageIsRefused) {
  std::mt19937 random(20261129);
  const std::size_t pages = good_.size() / page_;
  for (std::size_t page = 0; page < pages; ++page) {
    std::string bad = good_;
    const std::size_t at = page * page_ + random() % page_;
    bad[at] = static_cast<char>(bad[at] ^ (1 + random() % 255));
    write_bytes(path_, bad);
    SCOPED_TRACE("page " + std::to_string(page + 1) + ", byte " + std::to_string(at));
    const std::string message = expect_refused();
    EXPECT_NE(message.find("damaged"), std::string::npos) << message;
  }
}

TEST_F(DatabaseDamageTest, AFlippedByteInAMatchLogIsNamedByItsPage) {
  // The last page holds log rows; its checksum fails before any b-tree check could.
  std::string bad = good_;
  const std::size_t last = good_.size() / page_ - 1;
  bad[last * page_ + page_ / 2] ^= 0x01;
  write_bytes(path_, bad);
  const std::string message = expect_refused();
  EXPECT_NE(message.find("page " + std::to_string(last + 1) + " does not match its checksum"),
            std::string::npos)
      << message;
}

TEST_F(DatabaseDamageTest, AFileThatIsNotADatabaseIsRefused) {
  write_bytes(path_, std::string(3 * 4096, '\x5a'));
  EXPECT_NE(expect_refused().find("not a SQLite database"), std::string::npos);
}

TEST_F(DatabaseDamageTest, TheServerRefusesADamagedFileAndLeavesItAlone) {
  struct Case {
    const char* name;
    std::string bytes;
  };
  std::string flipped = good_;
  flipped[5 * page_ + 100] ^= 0x40;
  const std::vector<Case> cases = {
      {"truncated mid-page", good_.substr(0, 4 * page_ + 1000)},
      {"a byte flipped", flipped},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    write_bytes(path_, c.bytes);
    const test::Exit exit = test::run_server({"--port", "0", "--data-dir", dir_});
    EXPECT_EQ(exit.code, 2) << exit.output;
    EXPECT_NE(exit.output.find("event=database_failed"), std::string::npos) << exit.output;
    EXPECT_NE(exit.output.find("damaged"), std::string::npos) << exit.output;
    EXPECT_EQ(exit.output.find("event=listening"), std::string::npos) << exit.output;
    EXPECT_EQ(read_bytes(path_), c.bytes) << "the file is left exactly as it was";
  }
}

TEST_F(DatabaseDamageTest, TheServerRefusesADatabaseFromANewerCastra) {
  {
    Status s;
    auto db = open_database({path_}, &s);
    ASSERT_TRUE(db) << s.message;
    ASSERT_TRUE(db->exec("INSERT INTO schema_migrations(number, name, checksum) "
                         "VALUES (9999, '9999_future.sql', 'x')")
                    .ok());
  }
  const std::string before = read_bytes(path_);
  const test::Exit exit = test::run_server({"--port", "0", "--data-dir", dir_});
  EXPECT_EQ(exit.code, 2) << exit.output;
  EXPECT_NE(exit.output.find("newer Castra"), std::string::npos) << exit.output;
  EXPECT_EQ(read_bytes(path_), before);
}

TEST(DatabaseChecksums, ALargeFirstTransactionWithATinyCacheKeepsEveryChecksum) {
  // Pages spilled from a small cache before page 1 reached the file would carry no checksum.
  const std::string dir = testing::make_temp_dir("castra-damage");
  const std::string path = dir + "/castra.db";
  {
    Status s;
    auto db = open_database({path}, &s);
    ASSERT_TRUE(db) << s.message;
    ASSERT_TRUE(db->exec("PRAGMA cache_size = 5; BEGIN; CREATE TABLE t (k INTEGER PRIMARY KEY, v);"
                         "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
                         "WHERE x < 5000) INSERT INTO t SELECT x, randomblob(300) FROM c; COMMIT;")
                    .ok());
  }
  EXPECT_TRUE(test::every_page_has_its_checksum(read_bytes(path)));
  Status s;
  EXPECT_TRUE(open_database({path}, &s)) << s.message;
  fs::remove_all(dir);
}

TEST(DatabaseChecksums, AFileMadeBeforeChecksumsGainsThemOnceWithItsDataIntact) {
  const std::string dir = testing::make_temp_dir("castra-damage");
  const std::string path = dir + "/castra.db";
  {
    Status s;
    auto plain = Db::open(path, true, &s);  // SQLite's own VFS: no reserved bytes
    ASSERT_TRUE(plain) << s.message;
    ASSERT_TRUE(plain
                    ->exec("PRAGMA journal_mode=WAL; CREATE TABLE t (k INTEGER PRIMARY KEY, v);"
                           "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
                           "WHERE x < 2000) INSERT INTO t SELECT x, randomblob(100) FROM c;")
                    .ok());
  }
  ASSERT_EQ(read_bytes(path)[20], 0);
  {
    Status s;
    auto db = open_database({path}, &s);
    ASSERT_TRUE(db) << s.message;
    Lease q = db->statement("SELECT count(*) FROM t", &s);
    ASSERT_TRUE(q->step(&s));
    EXPECT_EQ(q->column_int(0), 2000);
  }
  const std::string converted = read_bytes(path);
  EXPECT_EQ(static_cast<unsigned char>(converted[20]), kChecksumBytes);
  EXPECT_TRUE(test::every_page_has_its_checksum(converted));
  Status s;
  EXPECT_TRUE(open_database({path}, &s)) << s.message;
  EXPECT_EQ(read_bytes(path), converted) << "converted once: a second open changes nothing";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace castra::store
