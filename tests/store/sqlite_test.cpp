// The SQLite wrapper: cached statements are reused and reset after each use, transactions
// roll back unless committed, and a read-only connection cannot write.
#include "server/store/sqlite.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "server/store/database.hpp"
#include "tests/support/server_process.hpp"

namespace castra::store {
namespace {

Db memory_db() {
  Status s;
  auto db = Db::open(":memory:", true, &s);
  EXPECT_TRUE(db) << s.message;
  EXPECT_TRUE(db->exec("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)").ok());
  return std::move(*db);
}

TEST(Sqlite, ACachedStatementIsPreparedOnceAndReused) {
  Db db = memory_db();
  Status s;
  Statement* first = nullptr;
  {
    Lease ins = db.statement("INSERT INTO t(k, v) VALUES (?1, ?2)", &s);
    ASSERT_TRUE(s.ok()) << s.message;
    first = &*ins;
    ins->bind(1, std::int64_t{1}).bind(2, "one");
    ASSERT_TRUE(ins->run().ok());
  }
  Lease again = db.statement("INSERT INTO t(k, v) VALUES (?1, ?2)", &s);
  EXPECT_EQ(&*again, first);
}

TEST(Sqlite, ALeaseResetsItsStatementSoNoReadStaysOpen) {
  Db db = memory_db();
  ASSERT_TRUE(db.exec("INSERT INTO t VALUES (1, 'a'), (2, 'b')").ok());
  Status s;
  {
    Lease q = db.statement("SELECT v FROM t ORDER BY k", &s);
    ASSERT_TRUE(q->step(&s));
    EXPECT_EQ(q->column_text(0), "a");
  }  // left mid-result: the lease resets it
  Lease q = db.statement("SELECT v FROM t ORDER BY k", &s);
  ASSERT_TRUE(q->step(&s));
  EXPECT_EQ(q->column_text(0), "a");
}

TEST(Sqlite, ABadStatementGivesAnInvalidLeaseAndSaysWhy) {
  Db db = memory_db();
  Status s;
  Lease q = db.statement("SELECT v FROM nowhere", &s);
  EXPECT_FALSE(q.valid());
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find("nowhere"), std::string::npos) << s.message;
}

TEST(Sqlite, ATransactionRollsBackUnlessCommitted) {
  Db db = memory_db();
  {
    Transaction tx(db);
    ASSERT_TRUE(tx.begun().ok());
    ASSERT_TRUE(db.exec("INSERT INTO t VALUES (1, 'a')").ok());
    EXPECT_FALSE(db.autocommit());
  }
  EXPECT_TRUE(db.autocommit());
  Status s;
  Lease q = db.statement("SELECT count(*) FROM t", &s);
  ASSERT_TRUE(q->step(&s));
  EXPECT_EQ(q->column_int(0), 0);
}

TEST(Sqlite, AReadOnlyConnectionCannotWrite) {
  const std::string dir = testing::make_temp_dir("castra-sqlite");
  const std::string path = dir + "/castra.db";
  Status s;
  ASSERT_TRUE(open_database({path}, &s)) << s.message;
  auto reader = open_database_read_only(path, 1000, &s);
  ASSERT_TRUE(reader) << s.message;
  const Status w = reader->exec("CREATE TABLE x (y)");
  EXPECT_FALSE(w.ok());
  EXPECT_NE(w.message.find("readonly"), std::string::npos) << w.message;
  std::filesystem::remove_all(dir);
}

TEST(Sqlite, OpeningAMissingFileReadOnlyFailsAndCreatesNothing) {
  const std::string dir = testing::make_temp_dir("castra-sqlite");
  Status s;
  EXPECT_FALSE(open_database_read_only(dir + "/none.db", 1000, &s));
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(std::filesystem::exists(dir + "/none.db"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace castra::store
