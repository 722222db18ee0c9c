// The stores StoreConformance.* runs against, each behind the same interfaces: SQLite on a
// fresh file and on ":memory:", and PostgreSQL in a fresh database of the test program's private
// cluster (tests/support/postgres_cluster.hpp; a cluster that cannot start fails the test). A
// backend's writes answer on the writer's thread (its Post runs the task at once).
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <string>

#include "server/app/pg_stores.hpp"
#include "server/app/sqlite_stores.hpp"
#include "server/store/migrations.hpp"
#include "tests/support/postgres_cluster.hpp"
#include "tests/support/server_process.hpp"

namespace castra::testing {

inline server::Stores::Post inline_post() {
  return [](std::function<void()> task) { task(); };
}

// On a file (two connections, WAL) or on ":memory:" (one connection, reads under the writer's
// batch lock): the two ways SqliteMatchStore runs.
template <bool kInMemory>
class SqliteBackend {
 public:
  static constexpr const char* kName = kInMemory ? "SqliteMemory" : "SqliteFile";
  ~SqliteBackend() {
    stores_.reset();
    store_.reset();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  // Opens the store with every migration applied; a failure fails the test.
  void open() {
    store::StoreOptions options;
    if (kInMemory) {
      options.database.path = ":memory:";
    } else {
      dir_ = make_temp_dir("castra-conformance");
      options.database.path = dir_ + "/castra.db";
    }
    const store::Status s = store::SqliteMatchStore::open(options, &store_);
    ASSERT_TRUE(s.ok()) << s.message;
    stores_ = std::make_unique<server::SqliteStores>(*store_, inline_post());
  }
  server::Stores& stores() { return *stores_; }
  // Holds the writer inside a job of its own until `release` is ready, once `held` is set.
  void hold_writer(std::promise<void>& held, std::shared_future<void> release) {
    store_->writer().submit(
        [&held, release](store::Db&) {
          held.set_value();
          release.wait();
          return store::Status::success();
        },
        nullptr);
  }
  std::uint64_t commits() { return store_->writer_stats().commits; }
  int schema_version() { return store_->schema_version(); }
  static int latest_migration() { return store::embedded_migrations().back().number; }

 private:
  std::string dir_;
  std::unique_ptr<store::SqliteMatchStore> store_;
  std::unique_ptr<server::Stores> stores_;
};

class PostgresBackend {
 public:
  static constexpr const char* kName = "Postgres";
  ~PostgresBackend() {
    stores_.reset();
    store_.reset();
  }
  void open() {
    PostgresCluster& cluster = PostgresCluster::shared();
    ASSERT_TRUE(cluster.ok()) << cluster.error();
    static std::atomic<int> next{0};
    const std::string url = cluster.create_database("conformance_" + std::to_string(next++));
    ASSERT_FALSE(url.empty()) << cluster.error();
    postgres::PgStoreOptions options;
    options.url = url;
    const store::Status s = postgres::PgMatchStore::open(options, &store_);
    ASSERT_TRUE(s.ok()) << s.message;
    stores_ = std::make_unique<server::PgStores>(*store_, inline_post());
  }
  server::Stores& stores() { return *stores_; }
  void hold_writer(std::promise<void>& held, std::shared_future<void> release) {
    store_->writer().submit(
        [&held, release](pqxx::transaction_base&) {
          held.set_value();
          release.wait();
          return store::Status::success();
        },
        nullptr);
  }
  std::uint64_t commits() { return store_->writer().commits(); }
  int schema_version() { return store_->schema_version(); }
  static int latest_migration() { return postgres::embedded_postgresql_migrations().back().number; }

 private:
  std::unique_ptr<postgres::PgMatchStore> store_;
  std::unique_ptr<server::Stores> stores_;
};

}  // namespace castra::testing
