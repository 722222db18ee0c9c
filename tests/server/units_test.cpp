// The server's pieces in process: the error codes and the dispatch table against the schema,
// forwarded addresses, the rate limiter, the bounded queues, accounts (hashing, lockout,
// tokens) and the lobby (creation, commitments, "my matches") on a real SQLite file, their
// completions on a service thread of the test's own.
#include <gtest/gtest.h>
#include <sodium.h>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <future>
#include <mutex>

#include "common/match/fair_dice.hpp"
#include "proto/castra/v1/protocol.pb.h"
#include "server/accounts/accounts.hpp"
#include "server/accounts/sqlite_account_store.hpp"
#include "server/base/task_queue.hpp"
#include "server/dispatch/dispatcher.hpp"
#include "server/lobby/lobby.hpp"
#include "server/lobby/sqlite_chat_store.hpp"
#include "server/net/forwarded.hpp"
#include "server/net/rate_limiter.hpp"
#include "server/runtime/runtime.hpp"
#include "server/store/database.hpp"
#include "server/store/sql_access.hpp"
#include "server/store/sqlite_match_store.hpp"

namespace castra {
namespace {

namespace v1 = castra::v1;
using server::ErrorCode;

TEST(DispatchTable, HasOneRouteForEveryRequestKind) {
  const auto* body = v1::ClientEnvelope::descriptor()->FindOneofByName("body");
  ASSERT_NE(body, nullptr);
  std::set<int> routed;
  std::set<std::string> names;
  for (const auto& route : dispatch::routes()) {
    EXPECT_TRUE(routed.insert(static_cast<int>(route.kind)).second) << route.name;
    EXPECT_TRUE(names.insert(route.name).second) << route.name;
    EXPECT_NE(route.handle, nullptr) << route.name;
    EXPECT_EQ(route.match == dispatch::MatchCheck::kNone, route.match_id == nullptr) << route.name;
  }
  for (int i = 0; i < body->field_count(); ++i) {
    EXPECT_EQ(routed.count(body->field(i)->number()), 1u) << body->field(i)->name();
  }
  EXPECT_EQ(routed.size(), static_cast<std::size_t>(body->field_count()));
}

TEST(ForwardedAddress, IsBelievedOnlyFromATrustedProxy) {
  const std::set<std::string> proxies = {"10.0.0.1"};
  EXPECT_EQ(net::client_address("192.0.2.5", "203.0.113.7", proxies), "192.0.2.5");
  EXPECT_EQ(net::client_address("10.0.0.1", "203.0.113.7", proxies), "203.0.113.7");
  EXPECT_EQ(net::client_address("10.0.0.1", "", proxies), "10.0.0.1");
}

TEST(ForwardedAddress, IsReadFromTheRightSkippingProxies) {
  const std::set<std::string> proxies = {"10.0.0.1", "10.0.0.2"};
  // The client forged the first hop; our proxies appended the real one and themselves.
  EXPECT_EQ(net::client_address("10.0.0.1", "1.2.3.4, 203.0.113.7, 10.0.0.2", proxies),
            "203.0.113.7");
  EXPECT_EQ(net::client_address("10.0.0.1", "not-an-address", proxies), "10.0.0.1");
  EXPECT_EQ(net::client_address("::ffff:10.0.0.1", " 2001:db8::1 ", proxies), "2001:db8::1");
}

TEST(RateLimiter, AllowsABurstThenTheAverageRate) {
  const auto t0 = net::RateLimiter::Clock::now();
  net::RateLimiter limiter(10, 5, t0);
  for (int i = 0; i < 5; ++i)
    EXPECT_TRUE(limiter.allow(t0));
  EXPECT_FALSE(limiter.allow(t0));
  EXPECT_TRUE(limiter.allow(t0 + std::chrono::milliseconds(110)));
  EXPECT_FALSE(limiter.allow(t0 + std::chrono::milliseconds(110)));
}

TEST(TaskQueue, RefusesWorkBeyondItsCapacity) {
  server::TaskQueue queue("test", 1, 2);
  std::promise<void> release;
  auto released = release.get_future().share();
  std::promise<void> started;
  std::atomic<int> ran{0};
  ASSERT_TRUE(queue.try_post([released, &ran, &started] {
    started.set_value();
    released.wait();
    ++ran;
  }));
  started.get_future().wait();  // the first one is running: the queue holds none
  EXPECT_TRUE(queue.try_post([&ran] { ++ran; }));
  EXPECT_TRUE(queue.try_post([&ran] { ++ran; }));
  EXPECT_FALSE(queue.try_post([&ran] { ++ran; }));
  release.set_value();
  queue.stop();
  EXPECT_EQ(ran.load(), 3);
}

// A database file with every migration, behind the store as in the server, with a service
// thread for the completions and a pool for the matches' strands.
class WithDatabase : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GE(sodium_init(), 0);
    dir_ = std::filesystem::temp_directory_path() /
           ("castra-units-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    store::StoreOptions options;
    options.database = {(dir_ / "castra.db").string(), store::Durability::kNormal};
    const store::Status status = store::SqliteMatchStore::open(options, &matches_);
    ASSERT_TRUE(status.ok()) << status.message;
    sql_.emplace(*matches_, to_service());
  }
  void TearDown() override {
    ASSERT_TRUE(matches_->flush().ok());
    service_.stop();
    strands_.stop();
    sql_.reset();
    matches_.reset();
    std::filesystem::remove_all(dir_);
  }

  // Posts a completion to the test's service thread.
  std::function<void(std::function<void()>)> to_service() {
    return [this](std::function<void()> task) { service_.post(std::move(task)); };
  }
  // Starts `start` with a callback and waits for the value it is called with.
  template <class T, class Start>
  T wait(Start start) {
    std::promise<T> done;
    auto f = done.get_future();
    start([&done](T r) { done.set_value(std::move(r)); });
    return f.get();
  }
  // A new account's id, through the store as the server writes it.
  std::int64_t insert_account(accounts::AccountStore& store, const std::string& name) {
    std::promise<std::optional<std::int64_t>> done;
    auto f = done.get_future();
    store.insert(name, "x", 1, [&done](store::Status s, std::optional<std::int64_t> id) {
      EXPECT_TRUE(s.ok()) << s.message;
      done.set_value(id);
    });
    return f.get().value_or(0);
  }

  std::filesystem::path dir_;
  server::SystemClock clock_;
  server::TaskQueue service_{"service", 1, 1024};
  server::TaskQueue strands_{"matches", 1, 1024};
  std::unique_ptr<store::SqliteMatchStore> matches_;
  std::optional<store::StoreSqlAccess> sql_;
};

using AccountsTest = WithDatabase;

TEST_F(AccountsTest, LockoutAfterRepeatedFailuresThenTheRightPasswordWaits) {
  accounts::SqliteAccountStore store(*sql_);
  server::TaskQueue pool("hash", 1, 8);
  accounts::AccountOptions options;
  options.cost = accounts::minimum_cost();
  options.max_failures = 2;
  options.lockout_seconds = 60;
  accounts::Accounts accounts(store, pool, to_service(), clock_, options, nullptr);
  auto wait = [&](auto start) { return this->wait<server::Result<accounts::SignedIn>>(start); };
  auto reg = wait([&](auto cb) { accounts.register_account("erin", "erin-password", cb); });
  ASSERT_TRUE(reg) << reg.failure().message;
  auto bad = wait([&](auto cb) { accounts.login("erin", "nope-nope", cb); });
  EXPECT_EQ(bad.failure().code, v1::ERROR_BAD_CREDENTIALS);
  bad = wait([&](auto cb) { accounts.login("Erin", "nope-nope", cb); });
  EXPECT_EQ(bad.failure().code, v1::ERROR_ACCOUNT_LOCKED);
  bad = wait([&](auto cb) { accounts.login("erin", "erin-password", cb); });
  EXPECT_EQ(bad.failure().code, v1::ERROR_ACCOUNT_LOCKED);
  EXPECT_GT(bad.failure().retry_after_ms, 0u);
  pool.stop();
}

TEST_F(AccountsTest, TokensAreStoredOnlyAsHashesAndResumeASession) {
  accounts::SqliteAccountStore store(*sql_);
  server::TaskQueue pool("hash", 1, 8);
  accounts::AccountOptions options;
  options.cost = accounts::minimum_cost();
  accounts::Accounts accounts(store, pool, to_service(), clock_, options, nullptr);
  std::promise<server::Result<accounts::SignedIn>> done;
  accounts.register_account("frank", "frank-password",
                            [&done](server::Result<accounts::SignedIn> r) { done.set_value(r); });
  auto in = done.get_future().get();
  ASSERT_TRUE(in);
  pool.stop();

  std::string stored;
  ASSERT_TRUE(sql_->read([&](store::Db& db) {
                    store::Status st;
                    auto q = db.prepare("SELECT token_hash FROM sessions", &st);
                    if (q.step(&st)) stored = q.column_blob(0);
                    return st;
                  })
                  .ok());
  EXPECT_EQ(stored.size(), 32u);
  EXPECT_EQ(stored.find(in->token), std::string::npos);
  store::Status s;
  auto account = store.find_by_name("FRANK", &s);
  ASSERT_TRUE(account);
  EXPECT_EQ(account->password_hash.rfind("$argon2id$", 0), 0u);

  auto resumed = accounts.resume(in->token);
  ASSERT_TRUE(resumed);
  EXPECT_EQ(resumed->account_id, in->account_id);
  const auto out =
      wait<server::Result<server::Ok>>([&](auto cb) { accounts.logout(in->token_hash, cb); });
  EXPECT_TRUE(out);
  EXPECT_EQ(accounts.resume(in->token).failure().code, v1::ERROR_SESSION_INVALID);
  EXPECT_EQ(accounts.resume("not a token").failure().code, v1::ERROR_SESSION_INVALID);
}

// A refused task is destroyed with what it captured; the refusal must still be answered
// (it once called a moved-from callback and crashed the server under a burst of sign-ins).
TEST_F(AccountsTest, AFullHashingQueueAnswersBusyToRegisterLoginAndChangePassword) {
  accounts::SqliteAccountStore store(*sql_);
  server::TaskQueue roomy("hash", 1, 8);
  accounts::AccountOptions options;
  options.cost = accounts::minimum_cost();
  std::promise<server::Result<accounts::SignedIn>> made;
  accounts::Accounts setup(store, roomy, to_service(), clock_, options, nullptr);
  setup.register_account("gina", "gina-password",
                         [&made](server::Result<accounts::SignedIn> r) { made.set_value(r); });
  const auto gina = made.get_future().get();
  ASSERT_TRUE(gina);
  roomy.stop();

  server::TaskQueue full("hash", 1, 0);  // refuses every task
  accounts::Accounts accounts(store, full, to_service(), clock_, options, nullptr);
  std::vector<ErrorCode> codes;
  auto keep = [&codes](const auto& r) { codes.push_back(r ? ErrorCode{} : r.failure().code); };
  accounts.register_account("hank", "hank-password", keep);
  accounts.login("gina", "gina-password", keep);
  accounts.change_password(gina->account_id, "gina-password", "gina-password-2", gina->token_hash,
                           keep);
  EXPECT_EQ(codes, std::vector<ErrorCode>(3, v1::ERROR_SERVER_BUSY));
  full.stop();
}

using LobbyTest = WithDatabase;

TEST_F(LobbyTest, CreationStoresASeedThatMatchesThePublishedCommitment) {
  lobby::Scenarios scenarios = lobby::Scenarios::load(CASTRA_SOURCE_DIR "/tests/data/scenarios");
  lobby::SqliteChatStore chat(*sql_);
  runtime::Runtime runtime(*matches_, clock_, strands_);
  lobby::Lobby lobby(*matches_, scenarios, chat, runtime, *matches_, to_service(), clock_, {},
                     nullptr);
  accounts::SqliteAccountStore accounts(*sql_);
  const auto creator = insert_account(accounts, "gina");
  ASSERT_NE(creator, 0);
  auto create = [&](const std::string& scenario, const v1::MatchSettings& settings) {
    return wait<server::Result<lobby::Created>>(
        [&](auto cb) { lobby.create(creator, scenario, settings, false, cb); });
  };

  v1::MatchSettings settings;
  settings.set_creator_side(v1::SIDE_B);
  auto created = create("stand/test", settings);
  ASSERT_TRUE(created) << created.failure().message;
  EXPECT_FALSE(created->row.player_a);  // seats are taken with entropy, later
  EXPECT_FALSE(created->row.player_b);
  EXPECT_EQ(lobby::creator_side(lobby.settings_of(created->row)), 1);
  std::optional<store::Secrets> secrets;
  ASSERT_TRUE(matches_->secrets(created->row.id, &secrets).ok());
  ASSERT_TRUE(secrets);
  match::Bytes32 seed{};
  ASSERT_EQ(secrets->server_seed.size(), seed.size());
  std::copy(secrets->server_seed.begin(), secrets->server_seed.end(), seed.begin());
  EXPECT_EQ(std::string(match::as_view(match::dice_commitment(seed))),
            created->row.dice_commitment);
  EXPECT_EQ(create("stand/none", settings).failure().code, v1::ERROR_SCENARIO_NOT_FOUND);
}

TEST_F(LobbyTest, MyMatchesListThoseWhereItIsMyMoveFirst) {
  lobby::Scenarios scenarios = lobby::Scenarios::load(CASTRA_SOURCE_DIR "/tests/data/scenarios");
  lobby::SqliteChatStore chat(*sql_);
  runtime::Runtime runtime(*matches_, clock_, strands_);
  lobby::Lobby lobby(*matches_, scenarios, chat, runtime, *matches_, to_service(), clock_, {},
                     nullptr);
  accounts::SqliteAccountStore accounts(*sql_);
  const auto me = insert_account(accounts, "hal");
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    auto created = wait<server::Result<lobby::Created>>(
        [&](auto cb) { lobby.create(me, "optio/test", {}, false, cb); });
    ASSERT_TRUE(created);
    ids.push_back(created->row.id);
  }
  // The oldest one is live and waits for side A (me).
  std::optional<store::MatchRow> found;
  ASSERT_TRUE(matches_->find_match(ids[0], &found).ok());
  auto row = *found;
  row.status = store::MatchStatus::kLive;
  row.player_a = me;
  row.to_act = "A";
  row.updated_ms = 0;
  ASSERT_TRUE(matches_->update_match(row).ok());
  const auto mine = lobby.mine(me, 10);
  ASSERT_EQ(mine.size(), 3u);
  EXPECT_EQ(mine[0].id, ids[0]);
}

TEST(LobbySettings, AreCheckedAndGetDefaults) {
  v1::MatchSettings s;
  auto live = lobby::normalized_settings(s);
  ASSERT_TRUE(live);
  EXPECT_EQ(live->time_control().seconds_per_move(), 600u);
  EXPECT_EQ(live->time_control().disconnect_grace_seconds(), 120u);
  s.mutable_time_control()->set_kind(v1::TimeControl::CORRESPONDENCE);
  EXPECT_EQ(lobby::normalized_settings(s)->time_control().seconds_per_move(), 3u * 24 * 3600);
  s.mutable_time_control()->set_seconds_per_move(60);
  EXPECT_EQ(lobby::normalized_settings(s).failure().code, v1::ERROR_INVALID_REQUEST);
  s = {};
  s.set_spectator_delay_turns(99);
  EXPECT_FALSE(lobby::normalized_settings(s));
  s = {};
  s.set_invitation_code("mine");
  EXPECT_TRUE(lobby::normalized_settings(s)->invitation_code().empty());
}

}  // namespace
}  // namespace castra
