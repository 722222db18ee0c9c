// Migrations: applied in order once, recorded, and never silently mixed with another version.
#include <gtest/gtest.h>

#include "server/store/database.hpp"
#include "server/store/migrations.hpp"
#include "server/store/sqlite.hpp"

namespace castra::store {
namespace {

std::vector<Migration> two_migrations() {
  return {{1, "0001_a.sql", "CREATE TABLE a (x INTEGER);"},
          {2, "0002_b.sql", "CREATE TABLE b (y INTEGER);"}};
}

Db memory_db() {
  Status s;
  auto db = Db::open(":memory:", true, &s);
  EXPECT_TRUE(db) << s.message;
  return std::move(*db);
}

TEST(Migrations, AppliesEachOnceInOrder) {
  Db db = memory_db();
  ASSERT_TRUE(migrate(db, two_migrations()).ok());
  EXPECT_EQ(schema_version(db), 2);
  ASSERT_TRUE(migrate(db, two_migrations()).ok());  // second run: nothing to do
  EXPECT_TRUE(db.exec("INSERT INTO a VALUES (1); INSERT INTO b VALUES (2);").ok());
}

TEST(Migrations, RefusesADatabaseFromANewerCastra) {
  Db db = memory_db();
  ASSERT_TRUE(migrate(db, two_migrations()).ok());
  auto older = two_migrations();
  older.pop_back();
  const Status s = migrate(db, older);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find("newer Castra"), std::string::npos) << s.message;
}

TEST(Migrations, RefusesAnEditedAppliedMigration) {
  Db db = memory_db();
  ASSERT_TRUE(migrate(db, two_migrations()).ok());
  auto edited = two_migrations();
  edited[0].sql = "CREATE TABLE a (x INTEGER, z TEXT);";
  const Status s = migrate(db, edited);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find("never be edited"), std::string::npos) << s.message;
}

TEST(Migrations, AFailingMigrationLeavesNoTrace) {
  Db db = memory_db();
  std::vector<Migration> bad = {{1, "0001_bad.sql", "CREATE TABLE c (x); SELECT * FROM nope;"}};
  EXPECT_FALSE(migrate(db, bad).ok());
  EXPECT_EQ(schema_version(db), 0);
  EXPECT_TRUE(db.exec("CREATE TABLE c (x);").ok());  // the failed one was rolled back
}

TEST(Migrations, EmbeddedMigrationsApplyToAFreshDatabase) {
  Status s;
  auto db = open_database({":memory:"}, &s);
  ASSERT_TRUE(db) << s.message;
  EXPECT_EQ(schema_version(*db), embedded_migrations().back().number);
}

}  // namespace
}  // namespace castra::store
