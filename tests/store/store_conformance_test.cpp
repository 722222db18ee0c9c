// StoreConformance: one typed suite over every store interface, run against SQLite (a file and
// ":memory:") and against a real PostgreSQL (tests/store/store_backends.hpp): what goes in comes
// back, a command's writes land together or not at all, a client_seq is answered once, callbacks
// run only after their commit, and the accounts, chat, campaigns, notification targets and counts
// behave the same on both. What only one database has (SQLite's pragmas, files, page checksums) is
// tested in that store's own file.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "tests/store/store_backends.hpp"
#include "tests/store/store_rows.hpp"

namespace castra::store {
namespace {

using testing::a_match;
using testing::a_seed;
using testing::an_entry;
using testing::PostgresBackend;
using testing::SqliteBackend;

template <typename Backend>
class StoreConformance : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = std::make_unique<Backend>();
    backend_->open();
  }
  void TearDown() override { backend_.reset(); }

  MatchStore& matches() { return backend_->stores().matches(); }
  accounts::AccountStore& accounts() { return backend_->stores().accounts(); }
  lobby::ChatStore& chat() { return backend_->stores().chat(); }

  // Appends and waits for the callback.
  Status append_now(AppendRequest request) {
    std::promise<Status> done;
    matches().append(std::move(request), [&](Status s) { done.set_value(std::move(s)); });
    return done.get_future().get();
  }
  // Runs a write of the service thread's stores and waits for its outcome.
  template <typename Start>
  Status write_now(Start start) {
    std::promise<Status> done;
    start([&](Status s) { done.set_value(std::move(s)); });
    return done.get_future().get();
  }
  std::optional<MatchRow> find(const std::string& id) {
    std::optional<MatchRow> row;
    EXPECT_TRUE(matches().find_match(id, &row).ok());
    return row;
  }
  std::vector<LogRow> log(const std::string& id, std::uint32_t from = 0) {
    std::vector<LogRow> rows;
    EXPECT_TRUE(matches().log_from(id, from, &rows).ok());
    return rows;
  }
  std::optional<std::string> reply(const std::string& id, int side, std::int64_t seq) {
    std::optional<std::string> r;
    EXPECT_TRUE(matches().find_reply(id, side, seq, &r).ok());
    return r;
  }
  std::int64_t new_account(const std::string& name) {
    std::promise<std::optional<std::int64_t>> done;
    accounts().insert(name, "hash of " + name, 1000, [&](Status s, std::optional<std::int64_t> id) {
      EXPECT_TRUE(s.ok()) << s.message;
      done.set_value(id);
    });
    return done.get_future().get().value_or(0);
  }

  std::unique_ptr<Backend> backend_;
};

struct BackendNames {
  template <typename T>
  static std::string GetName(int) {
    return T::kName;
  }
};

using Backends = ::testing::Types<SqliteBackend<false>, SqliteBackend<true>, PostgresBackend>;
TYPED_TEST_SUITE(StoreConformance, Backends, BackendNames);

TYPED_TEST(StoreConformance, OpensWithEveryMigrationApplied) {
  EXPECT_EQ(this->backend_->schema_version(), TypeParam::latest_migration());
}

TYPED_TEST(StoreConformance, AMatchComesBackAsItWasCreated) {
  MatchRow row = a_match("m1");
  row.deadline_a_ms = 5000;
  ASSERT_TRUE(this->matches().create_match(row, a_seed()).ok());
  const auto found = this->find("m1");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->scenario, std::string("\x0a\x03sc\0n", 6));
  EXPECT_EQ(found->dice_commitment, std::string(32, '\x7f'));
  EXPECT_EQ(found->ruleset, "optio");
  EXPECT_EQ(found->scenario_name, "optio/training");
  EXPECT_EQ(found->creator, 7);
  EXPECT_EQ(found->player_a, std::nullopt);
  EXPECT_EQ(found->deadline_a_ms, 5000);
  EXPECT_EQ(found->deadline_b_ms, std::nullopt);
  EXPECT_EQ(found->outcome, std::nullopt);
  EXPECT_EQ(found->status, MatchStatus::kOpen);
  EXPECT_EQ(found->created_ms, 1000);
  EXPECT_FALSE(this->find("nobody"));
}

TYPED_TEST(StoreConformance, CreatingTheSameMatchTwiceFails) {
  ASSERT_TRUE(this->matches().create_match(a_match("m1"), a_seed()).ok());
  EXPECT_FALSE(this->matches().create_match(a_match("m1"), a_seed()).ok());
}

TYPED_TEST(StoreConformance, UpdateChangesWhatMovesDuringAMatchAndNothingElse) {
  ASSERT_TRUE(this->matches().create_match(a_match("m1"), a_seed()).ok());
  MatchRow changed = a_match("m1", 2000);
  changed.status = MatchStatus::kLive;
  changed.player_a = 1;
  changed.player_b = 2;
  changed.to_act = "AB";
  changed.deadline_b_ms = 9000;
  changed.outcome = std::string("\x08\x01", 2);
  changed.ruleset = "stand";  // fixed at creation: not written
  changed.creator = 99;       // likewise
  ASSERT_TRUE(this->matches().update_match(changed).ok());
  const auto found = this->find("m1");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->status, MatchStatus::kLive);
  EXPECT_EQ(found->player_b, 2);
  EXPECT_EQ(found->to_act, "AB");
  EXPECT_EQ(found->deadline_b_ms, 9000);
  EXPECT_EQ(found->outcome, std::string("\x08\x01", 2));
  EXPECT_EQ(found->updated_ms, 2000);
  EXPECT_EQ(found->ruleset, "optio");
  EXPECT_EQ(found->creator, 7);
}

TYPED_TEST(StoreConformance, UpdatingAMatchThatDoesNotExistFails) {
  const Status s = this->matches().update_match(a_match("ghost"));
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find("ghost"), std::string::npos) << s.message;
}

TYPED_TEST(StoreConformance, ListsMatchesByStatusMostRecentlyUpdatedFirst) {
  for (int i = 0; i < 5; ++i) {
    MatchRow row = a_match("m" + std::to_string(i), 1000 + i);
    row.status = i % 2 == 0 ? MatchStatus::kOpen : MatchStatus::kLive;
    ASSERT_TRUE(this->matches().create_match(row, a_seed()).ok());
  }
  std::vector<MatchRow> rows;
  ASSERT_TRUE(this->matches().list_matches(MatchStatus::kOpen, 10, &rows).ok());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].id, "m4");
  EXPECT_EQ(rows[2].id, "m0");
  ASSERT_TRUE(this->matches().list_matches(MatchStatus::kOpen, 2, &rows).ok());
  EXPECT_EQ(rows.size(), 2u);
  ASSERT_TRUE(this->matches().list_matches(MatchStatus::kLive, -1, &rows).ok());
  EXPECT_EQ(rows.size(), 2u);
}

TYPED_TEST(StoreConformance, ListsTheMatchesAPlayerCreatedOrPlays) {
  MatchRow created = a_match("created", 3000);
  created.creator = 1;
  MatchRow plays_a = a_match("plays-a", 2000);
  plays_a.player_a = 1;
  MatchRow plays_b = a_match("plays-b", 1000);
  plays_b.player_b = 1;
  MatchRow other = a_match("other", 4000);
  other.creator = 2;
  for (const MatchRow& row : {created, plays_a, plays_b, other}) {
    ASSERT_TRUE(this->matches().create_match(row, a_seed()).ok());
  }
  // Seats are taken by update, as the lobby will.
  ASSERT_TRUE(this->matches().update_match(plays_a).ok());
  ASSERT_TRUE(this->matches().update_match(plays_b).ok());
  std::vector<MatchRow> rows;
  ASSERT_TRUE(this->matches().matches_of_player(1, -1, &rows).ok());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].id, "created");
  EXPECT_EQ(rows[1].id, "plays-a");
  EXPECT_EQ(rows[2].id, "plays-b");
}

TYPED_TEST(StoreConformance, CountsOpenMatchesOfACreatorAndMatchesByStatus) {
  for (int i = 0; i < 4; ++i) {
    MatchRow row = a_match("m" + std::to_string(i));
    row.status = i < 3 ? MatchStatus::kOpen : MatchStatus::kFinished;
    row.creator = i == 0 ? 8 : 7;
    ASSERT_TRUE(this->matches().create_match(row, a_seed()).ok());
  }
  MatchCounts& counts = this->backend_->stores().counts();
  std::int64_t open = -1;
  ASSERT_TRUE(counts.open_created_by(7, &open).ok());
  EXPECT_EQ(open, 2);
  std::array<std::int64_t, 4> by{};
  ASSERT_TRUE(counts.by_status(&by).ok());
  EXPECT_EQ(by[static_cast<std::size_t>(MatchStatus::kOpen)], 3);
  EXPECT_EQ(by[static_cast<std::size_t>(MatchStatus::kLive)], 0);
  EXPECT_EQ(by[static_cast<std::size_t>(MatchStatus::kFinished)], 1);
}

TYPED_TEST(StoreConformance, AnAppendWritesEverythingOfOneCommandTogether) {
  ASSERT_TRUE(this->matches().create_match(a_match("m1"), a_seed()).ok());
  AppendRequest request;
  request.match_id = "m1";
  request.side = 0;
  request.client_seq = 41;
  request.entry = an_entry(0, 0, 3);
  request.entry->salts = {{1, std::string(32, 's')}, {2, std::string(32, 't')}};
  request.reply = "accepted";
  request.match_update = a_match("m1", 2000);
  request.match_update->status = MatchStatus::kLive;
  request.snapshot = Snapshot{1, 3, "state", "hash"};
  request.secrets_update = Secrets{"", std::string("entropy a"), std::nullopt};
  ASSERT_TRUE(this->append_now(request).ok());

  const auto entries = this->log("m1");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].entry, "entry 0");
  EXPECT_EQ(entries[0].event_count, 3u);
  ASSERT_EQ(entries[0].salts.size(), 2u);
  EXPECT_EQ(entries[0].salts[1].event_index, 2u);
  EXPECT_EQ(entries[0].salts[1].salt, std::string(32, 't'));
  EXPECT_EQ(this->reply("m1", 0, 41), "accepted");
  EXPECT_EQ(this->find("m1")->status, MatchStatus::kLive);
  std::optional<Snapshot> snap;
  ASSERT_TRUE(this->matches().latest_snapshot("m1", &snap).ok());
  ASSERT_TRUE(snap);
  EXPECT_EQ(snap->state, "state");
  std::optional<Secrets> secrets;
  ASSERT_TRUE(this->matches().secrets("m1", &secrets).ok());
  ASSERT_TRUE(secrets);
  EXPECT_EQ(secrets->server_seed, std::string(32, '\x01'));
  EXPECT_EQ(secrets->entropy_a, "entropy a");
  EXPECT_EQ(secrets->entropy_b, std::nullopt);
}

TYPED_TEST(StoreConformance, AnAppendCanCreateItsMatch) {
  AppendRequest create;
  create.match_id = "m1";
  create.create = true;
  create.match_update = a_match("m1");
  create.secrets_update = a_seed();
  ASSERT_TRUE(this->append_now(create).ok());
  ASSERT_TRUE(this->find("m1"));
  std::optional<Secrets> secrets;
  ASSERT_TRUE(this->matches().secrets("m1", &secrets).ok());
  EXPECT_EQ(secrets->server_seed, std::string(32, '\x01'));
}

TYPED_TEST(StoreConformance, EntropyIsAddedAndNeverReplacesTheSeed) {
  ASSERT_TRUE(this->matches().create_match(a_match("m1"), a_seed()).ok());
  AppendRequest a;
  a.match_id = "m1";
  a.secrets_update = Secrets{"ignored", std::string("ea"), std::nullopt};
  ASSERT_TRUE(this->append_now(a).ok());
  AppendRequest b;
  b.match_id = "m1";
  b.secrets_update = Secrets{"ignored", std::nullopt, std::string("eb")};
  ASSERT_TRUE(this->append_now(b).ok());
  std::optional<Secrets> secrets;
  ASSERT_TRUE(this->matches().secrets("m1", &secrets).ok());
  EXPECT_EQ(secrets->server_seed, std::string(32, '\x01'));
  EXPECT_EQ(secrets->entropy_a, "ea");
  EXPECT_EQ(secrets->entropy_b, "eb");
}

TYPED_TEST(StoreConformance, ARefusedCommandKeepsOnlyItsReply) {
  ASSERT_TRUE(this->matches().create_match(a_match("m1"), a_seed()).ok());
  AppendRequest refused;
  refused.match_id = "m1";
  refused.side = 1;
  refused.client_seq = 5;
  refused.reply = "refused: not your turn";
  ASSERT_TRUE(this->append_now(refused).ok());
  EXPECT_TRUE(this->log("m1").empty());
  EXPECT_EQ(this->reply("m1", 1, 5), "refused: not your turn");
  EXPECT_EQ(this->reply("m1", 0, 5), std::nullopt) << "each side has its own numbers";
  std::vector<StoredReply> all;
  ASSERT_TRUE(this->matches().replies_of("m1", &all).ok());
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].side, 1);
  EXPECT_EQ(all[0].client_seq, 5);
}

TYPED_TEST(StoreConformance, ARepeatedClientSeqIsRefusedWholeSoNothingIsAppliedTwice) {
  ASSERT_TRUE(this->matches().create_match(a_match("m1"), a_seed()).ok());
  AppendRequest first;
  first.match_id = "m1";
  first.client_seq = 9;
  first.entry = an_entry(0, 0, 1);
  first.reply = "first";
  ASSERT_TRUE(this->append_now(first).ok());

  AppendRequest again = first;
  again.entry = an_entry(1, 1, 1);
  again.reply = "second";
  again.match_update = a_match("m1", 5000);
  again.match_update->status = MatchStatus::kFinished;
  const Status s = this->append_now(again);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find("already answered"), std::string::npos) << s.message;
  EXPECT_EQ(this->log("m1").size(), 1u);
  EXPECT_EQ(this->reply("m1", 0, 9), "first");
  EXPECT_EQ(this->find("m1")->status, MatchStatus::kOpen);
}

TYPED_TEST(StoreConformance, AFailedAppendLeavesTheOthersOfItsCommitIntact) {
  for (const char* id : {"m1", "m2"})
    ASSERT_TRUE(this->matches().create_match(a_match(id), a_seed()).ok());
  std::promise<void> release;
  std::promise<void> held;
  this->backend_->hold_writer(held, release.get_future().share());
  held.get_future().wait();
  Status ok1, bad, ok2;
  AppendRequest r1;
  r1.match_id = "m1";
  r1.entry = an_entry(0, 0, 1);
  this->matches().append(r1, [&](Status s) { ok1 = s; });
  AppendRequest dup = r1;  // the same entry index again: a bug in the caller
  this->matches().append(dup, [&](Status s) { bad = s; });
  AppendRequest r2;
  r2.match_id = "m2";
  r2.entry = an_entry(0, 0, 1);
  this->matches().append(r2, [&](Status s) { ok2 = s; });
  release.set_value();
  ASSERT_TRUE(this->matches().flush().ok());
  EXPECT_TRUE(ok1.ok());
  EXPECT_FALSE(bad.ok());
  EXPECT_TRUE(ok2.ok());
  EXPECT_EQ(this->log("m1").size(), 1u);
  EXPECT_EQ(this->log("m2").size(), 1u);
}

TYPED_TEST(StoreConformance, AnAppendToAMatchThatDoesNotExistFails) {
  AppendRequest orphan;
  orphan.match_id = "ghost";
  orphan.entry = an_entry(0, 0, 1);
  EXPECT_FALSE(this->append_now(orphan).ok());
}

TYPED_TEST(StoreConformance, TheCallbackSeesItsCommandAlreadyCommitted) {
  ASSERT_TRUE(this->matches().create_match(a_match("m1"), a_seed()).ok());
  std::vector<std::optional<std::string>> seen(30);
  for (int seq = 0; seq < 30; ++seq) {
    AppendRequest request;
    request.match_id = "m1";
    request.client_seq = seq;
    request.entry = an_entry(static_cast<std::uint32_t>(seq), static_cast<std::uint64_t>(seq), 1);
    request.reply = "r" + std::to_string(seq);
    this->matches().append(request, [&, seq](Status s) {
      ASSERT_TRUE(s.ok()) << s.message;
      // A read from the read connection: only committed data is visible there.
      EXPECT_TRUE(this->matches().find_reply("m1", 0, seq, &seen[seq]).ok());
    });
  }
  ASSERT_TRUE(this->matches().flush().ok());
  for (int seq = 0; seq < 30; ++seq)
    EXPECT_EQ(seen[seq], "r" + std::to_string(seq));
}

TYPED_TEST(StoreConformance, AppendsFromManyThreadsAreAllKeptAndShareCommits) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 50;
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(this->matches().create_match(a_match("m" + std::to_string(t)), a_seed()).ok());
  }
  const std::uint64_t commits_before = this->backend_->commits();
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        AppendRequest request;
        request.match_id = "m" + std::to_string(t);
        request.client_seq = i;
        request.entry = an_entry(static_cast<std::uint32_t>(i), static_cast<std::uint64_t>(i), 1);
        this->matches().append(request, [&](Status s) { ok += s.ok(); });
      }
    });
  }
  for (auto& th : threads)
    th.join();
  ASSERT_TRUE(this->matches().flush().ok());
  EXPECT_EQ(ok, kThreads * kPerThread);
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(this->log("m" + std::to_string(t)).size(), 50u);
  EXPECT_LT(this->backend_->commits() - commits_before, std::uint64_t{kThreads * kPerThread});
}

TYPED_TEST(StoreConformance, LogFromStartsAtTheGivenEntryWithItsSalts) {
  ASSERT_TRUE(this->matches().create_match(a_match("m1"), a_seed()).ok());
  for (std::uint32_t i = 0; i < 5; ++i) {
    AppendRequest request;
    request.match_id = "m1";
    request.entry = an_entry(i, i * 2, 2);
    request.entry->salts = {{0, "salt" + std::to_string(i)}};
    ASSERT_TRUE(this->append_now(request).ok());
  }
  const auto rows = this->log("m1", 3);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].entry_index, 3u);
  EXPECT_EQ(rows[0].first_event, 6u);
  ASSERT_EQ(rows[1].salts.size(), 1u);
  EXPECT_EQ(rows[1].salts[0].salt, "salt4");
}

TYPED_TEST(StoreConformance, TheLatestSnapshotIsTheNewest) {
  ASSERT_TRUE(this->matches().create_match(a_match("m1"), a_seed()).ok());
  std::optional<Snapshot> snap;
  ASSERT_TRUE(this->matches().latest_snapshot("m1", &snap).ok());
  EXPECT_FALSE(snap);
  for (std::uint32_t at : {10u, 30u, 20u}) {
    AppendRequest request;
    request.match_id = "m1";
    request.snapshot = Snapshot{at, at * 3, "state" + std::to_string(at), "h"};
    ASSERT_TRUE(this->append_now(request).ok());
  }
  ASSERT_TRUE(this->matches().latest_snapshot("m1", &snap).ok());
  ASSERT_TRUE(snap);
  EXPECT_EQ(snap->entry_count, 30u);
  EXPECT_EQ(snap->event_count, 90u);
  EXPECT_EQ(snap->state, "state30");
}

TYPED_TEST(StoreConformance, AnAccountIsFoundByAnyCaseOfItsNameAndANameIsTakenOnce) {
  const std::int64_t id = this->new_account("Marcus");
  ASSERT_NE(id, 0);
  Status s;
  const auto found = this->accounts().find_by_name("MARCUS", &s);
  ASSERT_TRUE(s.ok()) << s.message;
  ASSERT_TRUE(found);
  EXPECT_EQ(found->id, id);
  EXPECT_EQ(found->name, "Marcus");
  EXPECT_EQ(found->password_hash, "hash of Marcus");
  EXPECT_EQ(found->created_ms, 1000);
  EXPECT_EQ(this->accounts().find_by_id(id, &s)->name, "Marcus");
  EXPECT_EQ(this->new_account("marcus"), 0) << "taken regardless of case: an answer, no error";
  EXPECT_FALSE(this->accounts().find_by_name("Nobody", &s));
  EXPECT_TRUE(s.ok());
}

TYPED_TEST(StoreConformance, RepeatedFailuresLockAnAccountAndTheCountStartsAgain) {
  const std::int64_t id = this->new_account("Livia");
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(this->write_now([&](auto done) {
                      this->accounts().record_failure(id, 3, 60000, 5000, done);
                    })
                    .ok());
  }
  Status s;
  const auto locked = this->accounts().find_by_id(id, &s);
  EXPECT_EQ(locked->locked_until_ms, 65000);
  EXPECT_EQ(locked->failed_logins, 0);
  ASSERT_TRUE(this->write_now([&](auto done) {
                    this->accounts().record_failure(id, 3, 60000, 70000, done);
                  })
                  .ok());
  EXPECT_EQ(this->accounts().find_by_id(id, &s)->failed_logins, 1);
}

TYPED_TEST(StoreConformance, SessionsAreKeptByTokenHashAndEndWithABanOrAPasswordChange) {
  const std::int64_t id = this->new_account("Titus");
  const std::string token_a(32, '\xa1');
  const std::string token_b(32, '\0');  // a hash may hold zero bytes
  for (const std::string& token : {token_a, token_b}) {
    ASSERT_TRUE(this->write_now([&](auto done) {
                      this->accounts().create_session({token, id, 100, 900}, true,
                                                      std::string("rehashed"), done);
                    })
                    .ok());
  }
  Status s;
  const auto session = this->accounts().find_session(token_b, &s);
  ASSERT_TRUE(session);
  EXPECT_EQ(session->account_id, id);
  EXPECT_EQ(session->expires_ms, 900);
  EXPECT_EQ(this->accounts().find_by_id(id, &s)->password_hash, "rehashed");

  ASSERT_TRUE(
      this->write_now([&](auto done) { this->accounts().set_password(id, "new", token_a, done); })
          .ok());
  EXPECT_TRUE(this->accounts().find_session(token_a, &s)) << "the session that changed it stays";
  EXPECT_FALSE(this->accounts().find_session(token_b, &s));

  ASSERT_TRUE(
      this->write_now([&](auto done) { this->accounts().set_banned(id, true, "spam", done); })
          .ok());
  const auto banned = this->accounts().find_by_id(id, &s);
  EXPECT_TRUE(banned->banned);
  EXPECT_EQ(banned->ban_reason, "spam");
  EXPECT_FALSE(this->accounts().find_session(token_a, &s));
}

TYPED_TEST(StoreConformance, ExpiredSessionsAreDeletedAndLiveOnesStay) {
  const std::int64_t id = this->new_account("Gaius");
  const std::string old_token(32, 'o');
  const std::string live_token(32, 'l');
  ASSERT_TRUE(
      this->write_now([&](auto done) {
            this->accounts().create_session({old_token, id, 0, 500}, false, std::nullopt, done);
          })
          .ok());
  ASSERT_TRUE(
      this->write_now([&](auto done) {
            this->accounts().create_session({live_token, id, 0, 5000}, false, std::nullopt, done);
          })
          .ok());
  ASSERT_TRUE(
      this->write_now([&](auto done) { this->accounts().touch_session(live_token, 700, done); })
          .ok());
  ASSERT_TRUE(
      this->write_now([&](auto done) { this->accounts().delete_expired_sessions(1000, done); })
          .ok());
  Status s;
  EXPECT_FALSE(this->accounts().find_session(old_token, &s));
  EXPECT_TRUE(this->accounts().find_session(live_token, &s));
  ASSERT_TRUE(
      this->write_now([&](auto done) { this->accounts().delete_session(live_token, done); }).ok());
  EXPECT_FALSE(this->accounts().find_session(live_token, &s));
}

TYPED_TEST(StoreConformance, ChatLinesComeBackOldestFirstPageByPageAndMutesAreKept) {
  const std::int64_t author = this->new_account("Brutus");
  ASSERT_TRUE(this->matches().create_match(a_match("m1"), a_seed()).ok());
  std::vector<std::int64_t> ids;
  for (int i = 0; i < 5; ++i) {
    std::promise<lobby::ChatLine> stored;
    lobby::ChatLine line;
    line.match_id = "m1";
    line.channel = i == 4 ? lobby::Channel::kSpectators : lobby::Channel::kPlayers;
    line.author_id = author;
    line.author = "Brutus";
    line.text = "line " + std::to_string(i);
    line.sent_ms = 100 + i;
    this->chat().add(line, [&](Status s, lobby::ChatLine l) {
      EXPECT_TRUE(s.ok()) << s.message;
      stored.set_value(std::move(l));
    });
    ids.push_back(stored.get_future().get().id);
  }
  EXPECT_LT(ids[0], ids[1]) << "ids grow";
  Status s;
  const auto newest = this->chat().history("m1", lobby::Channel::kPlayers, 0, 2, &s);
  ASSERT_EQ(newest.size(), 2u);
  EXPECT_EQ(newest[0].text, "line 2");
  EXPECT_EQ(newest[1].text, "line 3");
  EXPECT_EQ(newest[1].sent_ms, 103);
  const auto older = this->chat().history("m1", lobby::Channel::kPlayers, newest[0].id, 10, &s);
  ASSERT_EQ(older.size(), 2u);
  EXPECT_EQ(older[0].text, "line 0");
  EXPECT_EQ(this->chat().history("m1", lobby::Channel::kSpectators, 0, 10, &s).size(), 1u);

  for (const char* key : {"rufus", "rufus", "varro"}) {
    ASSERT_TRUE(
        this->write_now([&](auto done) { this->chat().mute("m1", author, key, done); }).ok());
  }
  ASSERT_TRUE(
      this->write_now([&](auto done) { this->chat().unmute("m1", author, "varro", done); }).ok());
  EXPECT_EQ(this->chat().mutes("m1", author, &s), std::set<std::string>{"rufus"});
}

TYPED_TEST(StoreConformance, ACampaignIsReplacedWholeAndListedByStatusAndPlayer) {
  const std::int64_t creator = this->new_account("Scipio");
  const std::int64_t other = this->new_account("Hannibal");
  campaign_server::CampaignStore& campaigns = this->backend_->stores().campaigns();
  v1::StoredCampaign c;
  c.set_campaign_id("c1");
  c.mutable_definition()->set_name("hannibal-in-italy");
  c.mutable_definition()->set_ruleset("optio");
  c.set_creator(creator);
  c.set_status(v1::CAMPAIGN_OPEN);
  c.set_created_ms(10);
  c.set_updated_ms(10);
  ASSERT_TRUE(this->write_now([&](auto done) { campaigns.put(c, done); }).ok());
  c.set_player_b(other);
  c.set_status(v1::CAMPAIGN_LIVE);
  c.set_updated_ms(20);
  ASSERT_TRUE(this->write_now([&](auto done) { campaigns.put(c, done); }).ok());

  std::optional<v1::StoredCampaign> found;
  ASSERT_TRUE(campaigns.find("c1", &found).ok());
  ASSERT_TRUE(found);
  EXPECT_EQ(found->player_b(), other);
  EXPECT_EQ(found->status(), v1::CAMPAIGN_LIVE);
  std::vector<v1::StoredCampaign> unfinished;
  ASSERT_TRUE(campaigns.unfinished(&unfinished).ok());
  EXPECT_EQ(unfinished.size(), 1u);
  std::vector<std::string> ids;
  ASSERT_TRUE(campaigns.ids_by_status("live", 10, &ids).ok());
  EXPECT_EQ(ids, std::vector<std::string>{"c1"});
  ids.clear();
  ASSERT_TRUE(campaigns.ids_by_status("open", 10, &ids).ok());
  EXPECT_TRUE(ids.empty());
  ASSERT_TRUE(campaigns.ids_of_player(other, 10, &ids).ok());
  EXPECT_EQ(ids, std::vector<std::string>{"c1"});
  ids.clear();
  ASSERT_TRUE(campaigns.ids_of_player(creator, -1, &ids).ok()) << "-1: no limit";
  EXPECT_EQ(ids, std::vector<std::string>{"c1"});
}

TYPED_TEST(StoreConformance, NotificationTargetsAreReplacedAndRemovedWhenEmpty) {
  const std::int64_t id = this->new_account("Cato");
  notify::TargetStore& targets = this->backend_->stores().targets();
  ASSERT_TRUE(this->write_now([&](auto done) {
                    targets.set(id, {"https://example.org/hook", ""}, 10, done);
                  })
                  .ok());
  ASSERT_TRUE(this->write_now([&](auto done) {
                    targets.set(id, {"", "cato@example.org"}, 20, done);
                  })
                  .ok());
  Status s;
  notify::Targets found = targets.find(id, &s);
  EXPECT_EQ(found.webhook_url, "");
  EXPECT_EQ(found.email, "cato@example.org");
  ASSERT_TRUE(this->write_now([&](auto done) { targets.set(id, {"", ""}, 30, done); }).ok());
  found = targets.find(id, &s);
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(found.email, "");
}

TYPED_TEST(StoreConformance, APlayersPageHoldsHisFinishedMatchesWithTheSideHePlayed) {
  const std::int64_t a = this->new_account("Crassus");
  const std::int64_t b = this->new_account("Spartacus");
  MatchRow row = a_match("m1", 5000);
  ASSERT_TRUE(this->matches().create_match(row, a_seed()).ok());
  row.status = MatchStatus::kFinished;
  row.player_a = a;
  row.player_b = b;
  row.outcome = std::string("outcome");
  ASSERT_TRUE(this->matches().update_match(row).ok());
  std::optional<ratings::PlayerAccount> account;
  std::vector<ratings::FinishedMatch> finished;
  std::vector<ratings::StoredRating> rated;
  ASSERT_TRUE(
      this->backend_->stores().players().page("spartacus", &account, &finished, &rated).ok());
  ASSERT_TRUE(account);
  EXPECT_EQ(account->id, b);
  EXPECT_EQ(account->name, "Spartacus");
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished[0].id, "m1");
  EXPECT_EQ(finished[0].side, 1);
  EXPECT_EQ(finished[0].opponent, a);
  EXPECT_EQ(finished[0].outcome, "outcome");
  EXPECT_EQ(finished[0].ended_ms, 5000);
  EXPECT_FALSE(finished[0].rated);
  EXPECT_TRUE(rated.empty());
  ASSERT_TRUE(this->backend_->stores().players().page("nobody", &account, &finished, &rated).ok());
  EXPECT_FALSE(account);
}

}  // namespace
}  // namespace castra::store
