// Online backup: a copy taken while matches are being played is consistent (every match in it
// replays), is one self-contained file with its checksums, never replaces its source, is not
// made from a damaged source; castra-server --backup copies a running server's database; and
// restoring is copying the file back.
#include "server/store/backup.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <thread>

#include "server/store/migrations.hpp"
#include "server/store/recovery.hpp"
#include "server/store/sqlite_match_store.hpp"
#include "tests/store/file_util.hpp"
#include "tests/store/toy_store.hpp"
#include "tests/support/server_process.hpp"

namespace castra::store {
namespace {

namespace fs = std::filesystem;
using test::read_bytes;
using toy_store::ToyMatch;

class BackupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::make_temp_dir("castra-backup");
    path_ = dir_ + "/castra.db";
    StoreOptions options;
    options.database.path = path_;
    ASSERT_TRUE(SqliteMatchStore::open(options, &store_).ok());
  }
  void TearDown() override {
    store_.reset();
    fs::remove_all(dir_);
  }

  // Plays `count` toy matches, one command each in turn, until `stop` (or `commands` each);
  // `entries` counts the log entries the store has committed.
  void play(int count, int commands, const std::atomic<bool>* stop = nullptr,
            std::atomic<std::size_t>* entries = nullptr) {
    auto append = [this, entries](AppendRequest request) {
      std::function<void(Status)> done;
      if (entries != nullptr && request.entry) {
        done = [entries](Status s) {
          if (s.ok()) ++*entries;
        };
      }
      store_->append(std::move(request), std::move(done));
    };
    std::vector<ToyMatch> matches;
    std::vector<MatchRow> rows;
    std::vector<std::map<int, std::int64_t>> seqs(count);
    for (int i = 0; i < count; ++i) {
      const std::string id = "m" + std::to_string(i);
      matches.push_back(toy_store::new_toy_match(id, 100000, toy_store::test_seed(id)));
      rows.push_back(toy_store::new_match_row(matches.back(), 1));
      ASSERT_TRUE(
          store_
              ->create_match(rows.back(),
                             Secrets{toy_store::as_string(toy_store::test_seed(id)), {}, {}})
              .ok());
      append(toy_store::seat_both(matches.back(), rows.back(), "a", "b", 1));
    }
    for (int n = 0; n < commands && !(stop != nullptr && *stop); ++n) {
      for (int i = 0; i < count; ++i) {
        ToyMatch& m = matches[i];
        const auto side = toy_store::acting_side(m);
        const std::int64_t seq = ++seqs[i][rules::index(side)];
        append(toy_store::command_request(m, rows[i], side, seq, toy_store::next_command(m, seq), 5,
                                          2, match::Bytes32{}));
      }
    }
    ASSERT_TRUE(store_->flush().ok());
  }

  // Opens a copy as a server would, and replays every match in it.
  static Recovery replay_copy(const std::string& copy, std::size_t* entries) {
    StoreOptions options;
    options.database.path = copy;
    std::unique_ptr<SqliteMatchStore> store;
    const Status s = SqliteMatchStore::open(options, &store);
    EXPECT_TRUE(s.ok()) << s.message;
    Recovery recovery;
    if (!s.ok()) return recovery;
    *entries = 0;
    EXPECT_TRUE(recover_matches(
                    *store,
                    [&](const MatchRow& row, const std::optional<Snapshot>& snapshot,
                        const std::vector<LogRow>& log) {
                      std::optional<Secrets> secrets;
                      store->secrets(row.id, &secrets);
                      *entries += log.size();
                      auto replayed = toy_store::replay(row, *secrets, snapshot, log);
                      EXPECT_EQ(replayed.why, "") << row.id;
                      return replayed.match.has_value();
                    },
                    3, &recovery)
                    .ok());
    return recovery;
  }

  std::string dir_;
  std::string path_;
  std::unique_ptr<SqliteMatchStore> store_;
};

// Waits until `count` exceeds `than`; false after 30 s.
bool grows_past(const std::atomic<std::size_t>& count, std::size_t than) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (count <= than && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return count > than;
}

TEST_F(BackupTest, ACopyTakenWhileMatchesArePlayedIsConsistent) {
  std::atomic<bool> stop{false};
  std::atomic<std::size_t> committed{0};
  std::thread players([&] { play(6, 1000000, &stop, &committed); });
  // Each copy is taken once the database holds more entries than the last copy did: the
  // first once all six matches are seated (their first entries), then once play went on.
  std::size_t previous = 5;
  for (int b = 0; b < 5; ++b) {
    if (!grows_past(committed, previous)) {
      ADD_FAILURE() << "play stopped at " << committed << " entries";
      break;
    }
    const std::string copy = dir_ + "/copy" + std::to_string(b) + ".db";
    BackupResult result;
    const Status s = backup_database(path_, copy, &result);
    ASSERT_TRUE(s.ok()) << s.message;
    EXPECT_GT(result.pages, 0);
    std::size_t entries = 0;
    const Recovery recovery = replay_copy(copy, &entries);
    EXPECT_EQ(recovery.loadable.size(), 6u);
    EXPECT_TRUE(recovery.closed.empty());
    EXPECT_GT(entries, previous) << "each copy holds the play so far";
    previous = entries;
  }
  stop = true;
  players.join();
}

TEST_F(BackupTest, TheCopyIsOneSelfContainedFileWithItsChecksums) {
  play(2, 50);
  const std::string copy = dir_ + "/copy.db";
  BackupResult result;
  ASSERT_TRUE(backup_database(path_, copy, &result).ok());
  EXPECT_FALSE(fs::exists(copy + "-wal"));
  EXPECT_FALSE(fs::exists(copy + ".partial"));
  const std::string bytes = read_bytes(copy);
  EXPECT_EQ(result.bytes, static_cast<std::int64_t>(bytes.size()));
  EXPECT_EQ(bytes[18], 1) << "rollback journal, not WAL: nothing needed beside the file";
  EXPECT_EQ(static_cast<unsigned char>(bytes[20]), kChecksumBytes);
  EXPECT_TRUE(test::every_page_has_its_checksum(bytes));
}

TEST_F(BackupTest, ACopyNeverReplacesItsSource) {
  play(1, 10);
  store_.reset();
  const std::string before = read_bytes(path_);
  BackupResult result;
  const Status s = backup_database(path_, path_, &result);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find("overwrite the database it copies"), std::string::npos) << s.message;
  EXPECT_EQ(read_bytes(path_), before);
}

TEST_F(BackupTest, ADamagedSourceGivesNoCopy) {
  play(2, 100);
  store_.reset();
  std::string bytes = read_bytes(path_);
  bytes[bytes.size() - 100] ^= 0x10;
  test::write_bytes(path_, bytes);
  const std::string copy = dir_ + "/copy.db";
  BackupResult result;
  const Status s = backup_database(path_, copy, &result);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find("does not match its checksum"), std::string::npos) << s.message;
  EXPECT_FALSE(fs::exists(copy));
  EXPECT_FALSE(fs::exists(copy + ".partial"));
}

TEST_F(BackupTest, RestoringIsCopyingTheFileBack) {
  play(1, 10);
  const std::string copy = dir_ + "/copy.db";
  BackupResult result;
  ASSERT_TRUE(backup_database(path_, copy, &result).ok());
  std::vector<LogRow> at_backup;
  ASSERT_TRUE(store_->log_from("m0", 0, &at_backup).ok());
  AppendRequest later;  // written after the backup: gone once it is restored
  later.match_id = "m0";
  later.side = 0;
  later.client_seq = 999;
  later.reply = "after the backup";
  store_->append(later, nullptr);
  ASSERT_TRUE(store_->flush().ok());
  store_.reset();
  // The operator's steps (docs/operations.md): stop the server, copy the file back, remove
  // the old WAL and shared-memory files, start.
  fs::copy_file(copy, path_, fs::copy_options::overwrite_existing);
  fs::remove(path_ + "-wal");
  fs::remove(path_ + "-shm");
  StoreOptions options;
  options.database.path = path_;
  ASSERT_TRUE(SqliteMatchStore::open(options, &store_).ok());
  std::vector<LogRow> restored;
  ASSERT_TRUE(store_->log_from("m0", 0, &restored).ok());
  ASSERT_EQ(restored.size(), at_backup.size());
  EXPECT_EQ(restored.back().entry, at_backup.back().entry);
  std::optional<std::string> reply;
  ASSERT_TRUE(store_->find_reply("m0", 0, 999, &reply).ok());
  EXPECT_EQ(reply, std::nullopt);
}

TEST(CastraServerBackup, CopiesTheDatabaseOfARunningServer) {
  testing::ServerProcess server;
  ASSERT_TRUE(server.started()) << server.log();
  const std::string copy = server.data_dir() + "/copy.db";
  const test::Exit exit = test::run_server({"--data-dir", server.data_dir(), "--backup", copy});
  EXPECT_EQ(exit.code, 0) << exit.output;
  EXPECT_NE(exit.output.find("event=backup_done"), std::string::npos) << exit.output;
  EXPECT_EQ(testing::http_get(server.port(), "/healthz").status, 200) << "the server runs on";
  Status s;
  auto db = open_database({copy}, &s);
  ASSERT_TRUE(db) << s.message;
  EXPECT_EQ(schema_version(*db), embedded_migrations().back().number);
}

TEST(CastraServerBackup, FailsClearlyWithoutADatabase) {
  const std::string dir = testing::make_temp_dir("castra-backup");
  const test::Exit exit =
      test::run_server({"--data-dir", dir + "/nothing", "--backup", dir + "/copy.db"});
  EXPECT_EQ(exit.code, 2) << exit.output;
  EXPECT_NE(exit.output.find("event=backup_failed"), std::string::npos) << exit.output;
  EXPECT_NE(exit.output.find("there is no database"), std::string::npos) << exit.output;
  EXPECT_FALSE(fs::exists(dir + "/nothing")) << "a backup creates no data directory";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace castra::store
