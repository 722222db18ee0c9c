// What only the PostgreSQL store has, beside StoreConformance.*: synchronous commit, cluster
// mode's fencing and leases (of matches, and of the campaigns role), and connections the database
// drops (a restart, a failover, pg_terminate_backend) made again without losing or doubling
// anything.
#include <gtest/gtest.h>

#include <functional>
#include <future>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "server/postgres/pg_access.hpp"
#include "server/postgres/pg_match_store.hpp"
#include "server/postgres/pg_table_stores.hpp"
#include "tests/store/store_rows.hpp"
#include "tests/support/postgres_cluster.hpp"

namespace castra::store {
namespace {

using testing::a_match;
using testing::a_seed;
using testing::an_entry;

std::string fresh_database(const std::string& name) {
  testing::PostgresCluster& cluster = testing::PostgresCluster::shared();
  EXPECT_TRUE(cluster.ok()) << cluster.error();
  const std::string url = cluster.create_database(name);
  EXPECT_FALSE(url.empty()) << cluster.error();
  return url;
}

postgres::PgStoreOptions options_in(const std::string& database) {
  postgres::PgStoreOptions options;
  options.url = fresh_database(database);
  return options;
}

std::unique_ptr<postgres::PgMatchStore> opened(const postgres::PgStoreOptions& options) {
  std::unique_ptr<postgres::PgMatchStore> store;
  const Status s = postgres::PgMatchStore::open(options, &store);
  EXPECT_TRUE(s.ok()) << s.message;
  return store;
}

std::string setting_of_writer(postgres::PgMatchStore& store, const std::string& name) {
  std::string value;
  const Status s = store.writer().run([&](pqxx::transaction_base& tx) {
    value = tx.exec("SHOW " + name)[0][0].as<std::string>();
    return Status::success();
  });
  EXPECT_TRUE(s.ok()) << s.message;
  return value;
}

// Commit before acknowledge on PostgreSQL: the writer's transactions are flushed to the WAL
// before COMMIT returns, whatever the server's default says.
TEST(PgMatchStore, WritesWithSynchronousCommitOn) {
  const postgres::PgStoreOptions options = options_in("synchronous_commit");
  const std::unique_ptr<postgres::PgMatchStore> store = opened(options);
  ASSERT_TRUE(store);
  EXPECT_EQ(setting_of_writer(*store, "synchronous_commit"), "on");
}

Status append_now(postgres::PgMatchStore& store, AppendRequest request) {
  std::promise<Status> done;
  store.append(std::move(request), [&](Status s) { done.set_value(std::move(s)); });
  return done.get_future().get();
}

AppendRequest entry_of(const std::string& id, std::uint32_t index, const std::string& blob) {
  AppendRequest r;
  r.match_id = id;
  r.entry = an_entry(index, index, 1);
  r.entry->entry = blob;
  return r;
}

AppendRequest create_of(const std::string& id) {
  AppendRequest create;
  create.match_id = id;
  create.create = true;
  create.match_update = a_match(id);
  create.secrets_update = a_seed();
  return create;
}

// Cluster mode's fencing (docs/architecture.md, "The cluster"): once another node has the
// match's lease at a higher epoch, this node's append fails as kFenced, writes nothing, and
// tells the lease book's owner; the new owner's append goes in.
TEST(PgMatchStore, AnAppendAfterAnotherNodeTookTheLeaseIsFencedAndWritesNothing) {
  postgres::PgStoreOptions options = options_in("fencing");
  auto book_a = std::make_shared<postgres::LeaseBook>("a", 10000);
  auto book_b = std::make_shared<postgres::LeaseBook>("b", 10000);
  std::vector<std::string> lost;
  book_a->set_on_lost([&](const std::string& id) { lost.push_back(id); });
  options.leases = book_a;
  const std::unique_ptr<postgres::PgMatchStore> a = opened(options);
  options.leases = book_b;
  const std::unique_ptr<postgres::PgMatchStore> b = opened(options);
  ASSERT_TRUE(a && b);

  ASSERT_TRUE(append_now(*a, create_of("m1")).ok());
  EXPECT_EQ(book_a->epoch_of("m1"), 1);
  ASSERT_TRUE(append_now(*a, entry_of("m1", 0, "by a")).ok());
  // B holds no lease on it: its append is fenced too.
  EXPECT_TRUE(is_fenced(append_now(*b, entry_of("m1", 1, "by b, early"))));

  // B takes the lease over, as its keeper does once A's has lapsed.
  ASSERT_TRUE(b->writer()
                  .run([](pqxx::transaction_base& tx) {
                    tx.exec(
                        "UPDATE match_leases SET node = 'b', epoch = epoch + 1 "
                        "WHERE match_id = 'm1'");
                    return Status::success();
                  })
                  .ok());
  book_b->hold("m1", 2);

  const Status late = append_now(*a, entry_of("m1", 1, "by a, late"));
  EXPECT_TRUE(is_fenced(late)) << late.code << " " << late.message;
  EXPECT_EQ(lost, std::vector<std::string>{"m1"});
  EXPECT_FALSE(book_a->epoch_of("m1"));
  ASSERT_TRUE(append_now(*b, entry_of("m1", 1, "by b")).ok());

  std::vector<LogRow> log;
  ASSERT_TRUE(b->log_from("m1", 0, &log).ok());
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].entry, "by a");
  EXPECT_EQ(log[1].entry, "by b");
}

// The database ends both of the store's sessions between two commands (an operator's
// pg_terminate_backend, a restart): the next write and the next read each run on a new
// connection, set up as the first was, and nothing is lost or written twice.
TEST(PgMatchStore, SessionsTheDatabaseEndsAreMadeAgainAndNothingIsLost) {
  const postgres::PgStoreOptions options = options_in("sessions_ended");
  const std::unique_ptr<postgres::PgMatchStore> store = opened(options);
  ASSERT_TRUE(store);
  ASSERT_TRUE(append_now(*store, create_of("m1")).ok());
  ASSERT_TRUE(append_now(*store, entry_of("m1", 0, "before")).ok());

  EXPECT_EQ(testing::PostgresCluster::shared().end_sessions(options.url),
            2);  // the writer's and the reader's
  const Status after = append_now(*store, entry_of("m1", 1, "after"));
  EXPECT_TRUE(after.ok()) << after.message;
  std::vector<LogRow> log;
  const Status read = store->log_from("m1", 0, &log);
  EXPECT_TRUE(read.ok()) << read.message;
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].entry, "before");
  EXPECT_EQ(log[1].entry, "after");
  EXPECT_EQ(store->reconnections(), 2u);
  EXPECT_EQ(setting_of_writer(*store, "synchronous_commit"), "on");
}

// In cluster mode the new writer session gets the lease's idle-in-transaction timeout too, and
// a fenced append still finds the lease rows it checks.
TEST(PgMatchStore, AClusterWriterSessionMadeAgainKeepsItsLeaseTimeout) {
  postgres::PgStoreOptions options = options_in("cluster_session_ended");
  auto book = std::make_shared<postgres::LeaseBook>("a", 7000);
  options.leases = book;
  const std::unique_ptr<postgres::PgMatchStore> store = opened(options);
  ASSERT_TRUE(store);
  ASSERT_TRUE(append_now(*store, create_of("m1")).ok());
  EXPECT_EQ(setting_of_writer(*store, "idle_in_transaction_session_timeout"), "7s");

  EXPECT_EQ(testing::PostgresCluster::shared().end_sessions(options.url), 2);
  const Status after = append_now(*store, entry_of("m1", 0, "after"));
  EXPECT_TRUE(after.ok()) << after.message;
  EXPECT_EQ(book->epoch_of("m1"), 1);
  EXPECT_EQ(setting_of_writer(*store, "idle_in_transaction_session_timeout"), "7s");
}

// A batch runs again once on a new connection, not forever: work that ends its own session
// each time fails, as a storage failure, and the writer goes on with the next job.
TEST(PgMatchStore, ABatchThatLosesItsConnectionTwiceFailsAndTheWriterGoesOn) {
  postgres::PgStoreOptions options = options_in("lost_twice");
  options.reconnect_patience = std::chrono::milliseconds{0};
  const std::unique_ptr<postgres::PgMatchStore> store = opened(options);
  ASSERT_TRUE(store);
  int runs = 0;
  const Status lost = store->writer().run([&](pqxx::transaction_base& tx) {
    ++runs;
    tx.exec("SELECT pg_terminate_backend(pg_backend_pid())");
    return Status::success();
  });
  EXPECT_EQ(lost.code, status_codes::kIoError) << lost.message;
  EXPECT_EQ(runs, 2);
  const Status next = append_now(*store, create_of("m1"));
  EXPECT_TRUE(next.ok()) << next.message;
  std::optional<MatchRow> row;
  ASSERT_TRUE(store->find_match("m1", &row).ok());
  EXPECT_TRUE(row);
}

// Any failed append leaves the node's memory of the match ahead of its log: in cluster mode
// the lease is given up (not renewed, on_lost told), so the match leaves this node and is taken
// over from its log once the lease runs out.
TEST(PgMatchStore, AFailedAppendInClusterModeGivesTheLeaseUp) {
  postgres::PgStoreOptions options = options_in("failed_append_lease");
  auto book = std::make_shared<postgres::LeaseBook>("a", 10000);
  std::vector<std::string> lost;
  book->set_on_lost([&](const std::string& id) { lost.push_back(id); });
  options.leases = book;
  const std::unique_ptr<postgres::PgMatchStore> store = opened(options);
  ASSERT_TRUE(store);
  ASSERT_TRUE(append_now(*store, create_of("m1")).ok());
  ASSERT_TRUE(append_now(*store, entry_of("m1", 0, "first")).ok());
  EXPECT_TRUE(lost.empty());
  const Status twice = append_now(*store, entry_of("m1", 0, "the same index again"));
  EXPECT_EQ(twice.code, status_codes::kConstraint) << twice.message;
  EXPECT_EQ(lost, std::vector<std::string>{"m1"});
  EXPECT_FALSE(book->epoch_of("m1"));
}

// The lock an append's fence takes (docs/architecture.md, "Fencing"): held until the append's
// COMMIT, it holds back a takeover (which moves the epoch the append checked) but not the
// keeper's renewal. When it held back both, a renewal and a writer's batch, each locking several
// matches' rows in its own order, could deadlock, and PostgreSQL failed the append.
TEST(PgMatchStore, AnAppendInFlightHoldsBackATakeoverButNotARenewal) {
  postgres::PgStoreOptions options = options_in("lease_locks");
  auto book = std::make_shared<postgres::LeaseBook>("a", 10000);
  options.leases = book;
  const std::unique_ptr<postgres::PgMatchStore> store = opened(options);
  ASSERT_TRUE(store);
  ASSERT_TRUE(append_now(*store, create_of("m1")).ok());

  // An append's fence, its transaction kept open on the writer's thread until `release`.
  std::promise<void> checked, release;
  std::promise<Status> appended;
  store->writer().submit(
      [&](pqxx::transaction_base& tx) {
        const Status s = postgres::fence(tx, *book, "m1");
        checked.set_value();
        release.get_future().wait();
        return s;
      },
      [&](Status s) { appended.set_value(std::move(s)); });
  checked.get_future().wait();

  // Another session, as the keeper's, that waits at most 500 ms for a row lock.
  pqxx::connection keeper(options.url);
  auto with_lock_timeout = [&](const std::function<void(pqxx::work&)>& body) {
    pqxx::work tx(keeper);
    tx.exec("SET LOCAL lock_timeout = '500ms'");
    body(tx);
    tx.commit();
  };
  std::set<std::string> renewed;
  EXPECT_NO_THROW(with_lock_timeout(
      [&](pqxx::work& tx) { renewed = postgres::renew_leases(tx, *book, book->held()); }));
  EXPECT_EQ(renewed, std::set<std::string>{"m1"});
  EXPECT_THROW(with_lock_timeout([](pqxx::work& tx) {
                 tx.exec(
                     "UPDATE match_leases SET node = 'b', epoch = epoch + 1 "
                     "WHERE match_id = 'm1'");
               }),
               pqxx::sql_error);

  release.set_value();
  const Status s = appended.get_future().get();
  EXPECT_TRUE(s.ok()) << s.message;
}

Status put_now(campaign_server::CampaignStore& store, const castra::v1::StoredCampaign& c) {
  std::promise<Status> done;
  store.put(c, [&](Status s) { done.set_value(std::move(s)); });
  return done.get_future().get();
}

Status run_sql(postgres::PgMatchStore& store, const std::string& sql) {
  return store.writer().run([&](pqxx::transaction_base& tx) {
    tx.exec(sql);
    return Status::success();
  });
}

// In cluster mode only the node holding the campaigns role writes campaigns: a write without
// the role, or after another node took it over, fails as kFenced and writes nothing.
TEST(PgMatchStore, ACampaignWriteWithoutTheCampaignsRoleIsFencedAndWritesNothing) {
  postgres::PgStoreOptions options = options_in("campaigns_role");
  options.leases = std::make_shared<postgres::LeaseBook>("a", 10000);
  options.roles = std::make_shared<postgres::LeaseBook>("a", 10000);
  const std::unique_ptr<postgres::PgMatchStore> store = opened(options);
  ASSERT_TRUE(store);
  postgres::PgAccess access(*store, [](std::function<void()> task) { task(); });
  postgres::PgCampaignStore campaigns(access);
  ASSERT_TRUE(run_sql(*store,
                      "INSERT INTO accounts(id, name, name_key, password_hash, created_ms) "
                      "VALUES (1, 'alice', 'alice', '-', 0)")
                  .ok());
  castra::v1::StoredCampaign c;
  c.set_campaign_id("c1");
  c.set_status(castra::v1::CAMPAIGN_OPEN);
  c.set_creator(1);
  EXPECT_TRUE(is_fenced(put_now(campaigns, c)));

  // The role, as a keeper takes it.
  ASSERT_TRUE(run_sql(*store,
                      "INSERT INTO cluster_roles VALUES ('campaigns', 'a', 1, "
                      "now() + interval '10 seconds')")
                  .ok());
  options.roles->hold(postgres::kCampaignsRole, 1);
  const Status put = put_now(campaigns, c);
  EXPECT_TRUE(put.ok()) << put.message;

  // Node b takes it over (this node was paused past it): the next write is refused.
  ASSERT_TRUE(run_sql(*store, "UPDATE cluster_roles SET node = 'b', epoch = 2").ok());
  c.set_status(castra::v1::CAMPAIGN_LIVE);
  EXPECT_TRUE(is_fenced(put_now(campaigns, c)));
  std::optional<castra::v1::StoredCampaign> stored;
  ASSERT_TRUE(campaigns.find("c1", &stored).ok());
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->status(), castra::v1::CAMPAIGN_OPEN);
}

}  // namespace
}  // namespace castra::store
