// The one writer: jobs waiting together share one commit, a callback runs only after its
// commit, a failing job is rolled back alone, a broken transaction stops the writer, the
// queue is bounded (try_submit refusing, never waiting, when it is full), and a test's hook
// before the commit fails its batch.
#include "server/store/writer.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <thread>
#include <vector>

#include "server/store/database.hpp"
#include "tests/support/server_process.hpp"

namespace castra::store {
namespace {

using namespace std::chrono_literals;

// A database file with one table, a writer over it and a separate reader connection.
class WriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::make_temp_dir("castra-writer");
    Status s;
    auto db = open_database({dir_ + "/castra.db"}, &s);
    ASSERT_TRUE(db) << s.message;
    ASSERT_TRUE(db->exec("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)").ok());
    db_.emplace(std::move(*db));
    auto reader = open_database_read_only(dir_ + "/castra.db", 1000, &s);
    ASSERT_TRUE(reader) << s.message;
    reader_.emplace(std::move(*reader));
  }
  void TearDown() override {
    writer_.reset();
    reader_.reset();
    db_.reset();
    std::filesystem::remove_all(dir_);
  }
  void start(WriterOptions options = {}) { writer_ = std::make_unique<Writer>(*db_, options); }

  static Writer::Work insert(std::int64_t k) {
    return [k](Db& db) {
      Status s;
      Lease st = db.statement("INSERT INTO t(k, v) VALUES (?1, 'x')", &s);
      if (!s.ok()) return s;
      st->bind(1, k);
      return st->run();
    };
  }
  // Rows seen by the reader connection: only what is committed.
  std::int64_t committed_rows() {
    Status s;
    Lease q = reader_->statement("SELECT count(*) FROM t", &s);
    return q->step(&s) ? q->column_int(0) : -1;
  }
  // Holds the writer inside a job until the returned promise is set.
  std::promise<void> hold_writer() {
    std::promise<void> release;
    std::promise<void> started;
    auto gate = std::make_shared<std::shared_future<void>>(release.get_future().share());
    writer_->submit(
        [gate, &started](Db&) {
          started.set_value();
          gate->wait();
          return Status::success();
        },
        nullptr);
    started.get_future().wait();
    return release;
  }

  std::string dir_;
  std::optional<Db> db_;
  std::optional<Db> reader_;
  std::unique_ptr<Writer> writer_;
};

TEST_F(WriterTest, JobsWaitingTogetherShareOneCommit) {
  start();
  std::promise<void> release = hold_writer();
  std::atomic<int> ok{0};
  for (int k = 0; k < 50; ++k)
    writer_->submit(insert(k), [&](Status s) { ok += s.ok(); });
  release.set_value();
  ASSERT_TRUE(writer_->flush().ok());
  EXPECT_EQ(ok, 50);
  const WriterStats stats = writer_->stats();
  EXPECT_GE(stats.largest_batch, 50u);  // the flush may have joined them
  EXPECT_LE(stats.commits, 3u);         // the held job, the 50, and the flush (maybe with them)
  EXPECT_EQ(committed_rows(), 50);
}

TEST_F(WriterTest, ACallbackRunsOnlyAfterItsCommit) {
  start();
  std::vector<std::int64_t> seen;
  for (int k = 0; k < 20; ++k) {
    writer_->submit(insert(k), [&, k](Status s) {
      ASSERT_TRUE(s.ok()) << s.message;
      Status r;
      Lease q = reader_->statement("SELECT count(*) FROM t WHERE k = ?1", &r);
      q->bind(1, std::int64_t{k});
      seen.push_back(q->step(&r) ? q->column_int(0) : -1);
    });
  }
  ASSERT_TRUE(writer_->flush().ok());
  EXPECT_EQ(seen, std::vector<std::int64_t>(20, 1));
}

TEST_F(WriterTest, AFailingJobIsRolledBackAloneAndTheRestOfItsBatchCommits) {
  start();
  std::promise<void> release = hold_writer();
  Status first, bad, last;
  writer_->submit(insert(1), [&](Status s) { first = s; });
  writer_->submit(
      [](Db& db) {
        if (Status s = insert(2)(db); !s.ok()) return s;  // written, then rolled back
        return insert(1)(db);                             // a duplicate key
      },
      [&](Status s) { bad = s; });
  writer_->submit(insert(3), [&](Status s) { last = s; });
  release.set_value();
  ASSERT_TRUE(writer_->flush().ok());
  EXPECT_TRUE(first.ok());
  EXPECT_FALSE(bad.ok());
  EXPECT_TRUE(last.ok());
  EXPECT_EQ(committed_rows(), 2);  // 1 and 3; not 2
  EXPECT_EQ(writer_->stats().failed_jobs, 1u);
}

TEST_F(WriterTest, AJobThatLosesTheTransactionFailsItsBatchAndStopsTheWriter) {
  start();
  std::promise<void> release = hold_writer();
  Status before, broken, after, later;
  writer_->submit(insert(1), [&](Status s) { before = s; });
  // As SQLite does by itself after some I/O errors: the whole transaction is gone.
  writer_->submit(
      [](Db& db) {
        db.exec("ROLLBACK");
        return Status{10, "disk I/O error"};
      },
      [&](Status s) { broken = s; });
  writer_->submit(insert(2), [&](Status s) { after = s; });
  release.set_value();
  writer_->flush();
  writer_->submit(insert(3), [&](Status s) { later = s; });
  EXPECT_FALSE(writer_->flush().ok());
  EXPECT_FALSE(before.ok()) << "its writes were rolled back with the rest";
  EXPECT_FALSE(broken.ok());
  EXPECT_FALSE(after.ok());
  EXPECT_FALSE(later.ok());
  EXPECT_NE(later.message.find("stopped writing after an earlier failure"), std::string::npos)
      << later.message;
  EXPECT_EQ(committed_rows(), 0);
}

TEST_F(WriterTest, TheQueueIsBoundedAndSubmitWaitsForRoom) {
  WriterOptions options;
  options.queue_capacity = 2;
  start(options);
  std::promise<void> release = hold_writer();
  writer_->submit(insert(1), nullptr);
  writer_->submit(insert(2), nullptr);
  std::atomic<bool> third_queued{false};
  std::thread producer([&] {
    writer_->submit(insert(3), nullptr);
    third_queued = true;
  });
  // Waits for the producer to be inside submit, waiting for room (not merely not yet run).
  while (writer_->stats().blocked_submitters == 0)
    std::this_thread::yield();
  EXPECT_FALSE(third_queued) << "a full queue makes submit wait";
  EXPECT_EQ(writer_->stats().queued, 2u);
  release.set_value();
  producer.join();
  EXPECT_TRUE(third_queued);
  ASSERT_TRUE(writer_->flush().ok());
  EXPECT_EQ(committed_rows(), 3);
}

// The service thread's way in: it must never wait, so a full queue refuses at once.
TEST_F(WriterTest, TrySubmitRefusesAtOnceWhenTheQueueIsFullAndNeverCallsBack) {
  WriterOptions options;
  options.queue_capacity = 2;
  start(options);
  std::promise<void> release = hold_writer();
  std::atomic<int> answered{0};
  auto count = [&answered](Status s) { answered += s.ok(); };
  EXPECT_TRUE(writer_->try_submit(insert(1), count));
  EXPECT_TRUE(writer_->try_submit(insert(2), count));
  EXPECT_FALSE(writer_->try_submit(insert(3), count));
  release.set_value();
  ASSERT_TRUE(writer_->flush().ok());
  EXPECT_EQ(answered, 2);
  EXPECT_EQ(committed_rows(), 2);
  EXPECT_TRUE(writer_->try_submit(insert(3), count)) << "room again once the writer drained";
}

TEST_F(WriterTest, AFailureBeforeCommitFailsTheWholeBatchLikeAFailedCommit) {
  WriterOptions options;
  options.before_commit = [] { return Status{10, "disk I/O error (injected)"}; };
  start(options);
  EXPECT_EQ(writer_->run(insert(1)).code, 10);
  EXPECT_EQ(committed_rows(), 0);
  EXPECT_FALSE(writer_->run(insert(2)).ok()) << "the writer stops after a failed commit";
}

TEST_F(WriterTest, RunWaitsForTheCommitAndReturnsTheOutcome) {
  start();
  EXPECT_TRUE(writer_->run(insert(7)).ok());
  EXPECT_EQ(committed_rows(), 1);
  EXPECT_FALSE(writer_->run(insert(7)).ok());
}

TEST_F(WriterTest, DestroyingTheWriterCommitsEverythingQueued) {
  start();
  std::atomic<int> ok{0};
  {
    std::promise<void> release = hold_writer();
    for (int k = 0; k < 100; ++k)
      writer_->submit(insert(k), [&](Status s) { ok += s.ok(); });
    release.set_value();
  }
  writer_.reset();
  EXPECT_EQ(ok, 100);
  EXPECT_EQ(committed_rows(), 100);
}

}  // namespace
}  // namespace castra::store
