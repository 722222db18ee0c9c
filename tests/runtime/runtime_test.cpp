// The match runtime over the real SQLite store on a file: commit before acknowledge, one
// answer per client sequence number, turns, deadlines, observers, spectators and recovery.
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include "server/base/task_queue.hpp"
#include "server/runtime/runtime.hpp"
#include "server/store/sqlite_match_store.hpp"
#include "tests/support/server_process.hpp"

namespace castra::runtime {
namespace {

v1::ScenarioFile load_scenario(const std::string& name) {
  std::ifstream in(std::string(CASTRA_SOURCE_DIR) + "/scenarios/" + name + ".json");
  std::stringstream ss;
  ss << in.rdbuf();
  v1::ScenarioFile f;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(ss.str(), &f).ok()) << name;
  return f;
}

match::Bytes32 filled(std::uint8_t v) {
  match::Bytes32 b{};
  b.fill(v);
  return b;
}

class Recorder final : public Observer {
 public:
  void on_update(const Update& u) override {
    std::lock_guard lock(mu_);
    updates_.push_back(*u.message);
  }
  std::vector<v1::MatchUpdate> updates() {
    std::lock_guard lock(mu_);
    return updates_;
  }

 private:
  std::mutex mu_;
  std::vector<v1::MatchUpdate> updates_;
};

// Forwards to a real store, failing the next append when asked (a full disk, an I/O error).
class FaultyStore final : public store::MatchStore {
 public:
  explicit FaultyStore(store::MatchStore& inner) : inner_(inner) {}
  void fail_next() { fail_next_ = true; }

  store::Status create_match(const store::MatchRow& r, const store::Secrets& s) override {
    return inner_.create_match(r, s);
  }
  store::Status update_match(const store::MatchRow& r) override { return inner_.update_match(r); }
  store::Status find_match(const std::string& id, std::optional<store::MatchRow>* r) override {
    return inner_.find_match(id, r);
  }
  store::Status list_matches(store::MatchStatus st, int n,
                             std::vector<store::MatchRow>* r) override {
    return inner_.list_matches(st, n, r);
  }
  store::Status matches_of_player(std::int64_t a, int n, std::vector<store::MatchRow>* r) override {
    return inner_.matches_of_player(a, n, r);
  }
  void append(store::AppendRequest req, std::function<void(store::Status)> done) override {
    if (fail_next_.exchange(false)) {
      // Like a failed commit: reported later, on another thread.
      std::thread([done] { done(store::Status{10, "disk I/O error (injected)"}); }).detach();
      return;
    }
    inner_.append(std::move(req), std::move(done));
  }
  store::Status flush() override { return inner_.flush(); }
  store::Status replies_of(const std::string& id, std::vector<store::StoredReply>* out) override {
    return inner_.replies_of(id, out);
  }
  store::Status find_reply(const std::string& m, int side, std::int64_t seq,
                           std::optional<std::string>* r) override {
    return inner_.find_reply(m, side, seq, r);
  }
  store::Status latest_snapshot(const std::string& m, std::optional<store::Snapshot>* s) override {
    return inner_.latest_snapshot(m, s);
  }
  store::Status log_from(const std::string& m, std::uint32_t i,
                         std::vector<store::LogRow>* r) override {
    return inner_.log_from(m, i, r);
  }
  store::Status secrets(const std::string& m, std::optional<store::Secrets>* s) override {
    return inner_.secrets(m, s);
  }

 private:
  store::MatchStore& inner_;
  std::atomic<bool> fail_next_{false};
};

std::unique_ptr<store::SqliteMatchStore> open_store(const std::string& path) {
  store::StoreOptions options;
  options.database.path = path;
  std::unique_ptr<store::SqliteMatchStore> s;
  const store::Status st = store::SqliteMatchStore::open(options, &s);
  EXPECT_TRUE(st.ok()) << st.message;
  return s;
}

class RuntimeTest : public ::testing::Test {
 protected:
  RuntimeTest()
      : path_(testing::make_temp_dir("castra-runtime") + "/castra.db"),
        sqlite_(open_store(path_)),
        store_(*sqlite_),
        clock_(1'700'000'000'000),
        runtime_(store_, clock_, matches_) {}

  std::optional<store::MatchRow> row(const std::string& id) {
    std::optional<store::MatchRow> r;
    EXPECT_TRUE(store_.find_match(id, &r).ok());
    return r;
  }
  std::vector<store::LogRow> log(const std::string& id) {
    std::vector<store::LogRow> rows;
    EXPECT_TRUE(store_.log_from(id, 0, &rows).ok());
    return rows;
  }

  std::shared_ptr<MatchHost> create(std::uint32_t seconds_per_move = 0, std::uint32_t delay = 0) {
    store::MatchRow row;
    row.id = "m-" + std::to_string(++next_);
    row.scenario_name = "optio/training";
    row.scenario = load_scenario("optio/training").SerializeAsString();
    v1::MatchSettings settings;
    settings.mutable_time_control()->set_seconds_per_move(seconds_per_move);
    settings.set_spectators_allowed(true);
    settings.set_spectator_delay_turns(delay);
    row.settings = settings.SerializeAsString();
    store::Secrets secrets;
    secrets.server_seed = std::string(match::as_view(filled(0x42)));
    auto prepared = runtime_.prepare(row, secrets);
    EXPECT_TRUE(prepared.ok());
    std::promise<std::shared_ptr<MatchHost>> hosted;
    runtime_.host(std::move(*prepared), [&](Answer<std::shared_ptr<MatchHost>> a) {
      hosted.set_value(a.ok() ? a.value() : nullptr);
    });
    return hosted.get_future().get();
  }

  // Runs a match-level act and waits for its answer: true when it was done.
  static bool ok(const std::function<void(MatchHost::Reply<Done>)>& act) {
    std::promise<bool> p;
    act([&](Answer<Done> a) { p.set_value(a.ok()); });
    return p.get_future().get();
  }

  static Answer<Submitted> submit_answer(MatchHost& host, Side side,
                                         std::optional<std::int64_t> seq,
                                         const v1::GameCommand& c) {
    std::promise<Answer<Submitted>> p;
    host.submit(side, seq, c, filled(0x07), nullptr,
                [&](Answer<Submitted> a) { p.set_value(std::move(a)); });
    return p.get_future().get();
  }

  // The command's answer as the player sees it: accepted, or refused with the rule.
  static v1::CommandResult submit(MatchHost& host, Side side, std::optional<std::int64_t> seq,
                                  const v1::GameCommand& c) {
    const Answer<Submitted> a = submit_answer(host, side, seq, c);
    if (a.ok()) return a->result;
    v1::CommandResult refused;
    EXPECT_NE(a.refusal(), nullptr) << "the store failed";
    if (a.refusal()) refused.mutable_error()->set_rule(a.refusal()->rule);
    return refused;
  }

  // Waits until everything asked of `host` so far has run (its requests run in order).
  static void settle(MatchHost& host) {
    std::promise<void> p;
    host.legal(Side::kA, [&](Answer<v1::GameLegal>) { p.set_value(); });
    p.get_future().get();
  }

  void seat_both(MatchHost& host) {
    EXPECT_TRUE(ok([&](auto d) { host.seat(Side::kA, 1, "entropy-a", d); }));
    EXPECT_TRUE(ok([&](auto d) { host.seat(Side::kB, 2, "entropy-b", d); }));
  }

  // The first legal deployment of `side`, from the legal list the server would send.
  static v1::GameCommand first_deploy(MatchHost& host, Side side) {
    std::promise<v1::GameLegal> p;
    host.legal(side,
               [&](Answer<v1::GameLegal> a) { p.set_value(a.ok() ? a.value() : v1::GameLegal()); });
    const v1::GameLegal legal = p.get_future().get();
    v1::GameCommand c;
    for (const auto& u : legal.optio().units()) {
      if (u.placements_size() == 0) continue;
      auto* d = c.mutable_optio()->mutable_deploy();
      d->set_unit(u.unit());
      *d->mutable_at() = u.placements(0);
      d->set_facing(u.facings_size() > 0 ? u.facings(0) : 0);
      if (u.formations_size() > 0) d->set_formation(u.formations(0));
      return c;
    }
    ADD_FAILURE() << "no legal deployment";
    return c;
  }

  std::string path_;
  std::unique_ptr<store::SqliteMatchStore> sqlite_;
  FaultyStore store_;
  server::ManualClock clock_;
  server::TaskQueue matches_{"matches", 1, 4096};
  Runtime runtime_;
  int next_ = 0;
};

TEST_F(RuntimeTest, AMatchIsOpenUntilBothSeatsAreTakenThenLive) {
  auto host = create();
  EXPECT_EQ(row(host->id())->status, store::MatchStatus::kOpen);
  EXPECT_TRUE(ok([&](auto d) { host->seat(Side::kA, 1, "a", d); }));
  EXPECT_EQ(row(host->id())->status, store::MatchStatus::kOpen);
  EXPECT_TRUE(ok([&](auto d) { host->seat(Side::kB, 2, "b", d); }));
  const auto stored = row(host->id());
  EXPECT_EQ(stored->status, store::MatchStatus::kLive);
  EXPECT_EQ(stored->player_a, 1);
  EXPECT_EQ(stored->player_b, 2);
  EXPECT_EQ(stored->to_act, "A");  // side A deploys first in the training battle
  EXPECT_FALSE(ok([&](auto d) { host->seat(Side::kB, 3, "again", d); }));
}

TEST_F(RuntimeTest, ACommandIsAcknowledgedOnlyOnceItIsStored) {
  auto host = create();
  seat_both(*host);
  const std::size_t before = log(host->id()).size();
  std::promise<std::size_t> stored_at_ack;
  host->submit(Side::kA, 1, first_deploy(*host, Side::kA), filled(1), nullptr,
               [&](Answer<Submitted> a) {
                 EXPECT_TRUE(a.ok());
                 stored_at_ack.set_value(log(host->id()).size());
               });
  EXPECT_EQ(stored_at_ack.get_future().get(), before + 1);
}

TEST_F(RuntimeTest, ARepeatedClientSequenceNumberGetsTheFirstAnswerAndIsNotAppliedTwice) {
  auto host = create();
  seat_both(*host);
  const v1::GameCommand deploy = first_deploy(*host, Side::kA);
  const v1::CommandResult first = submit(*host, Side::kA, 7, deploy);
  ASSERT_TRUE(first.accepted()) << first.error().message();
  const std::uint64_t events = host->seen()->events;
  const std::size_t entries = log(host->id()).size();
  const v1::CommandResult again = submit(*host, Side::kA, 7, deploy);
  EXPECT_EQ(again.SerializeAsString(), first.SerializeAsString());
  EXPECT_EQ(host->seen()->events, events);
  EXPECT_EQ(log(host->id()).size(), entries);
}

TEST_F(RuntimeTest, ARepeatIsRecognisedAfterARestart) {
  auto host = create();
  seat_both(*host);
  const v1::GameCommand deploy = first_deploy(*host, Side::kA);
  const v1::CommandResult first = submit(*host, Side::kA, 11, deploy);
  ASSERT_TRUE(first.accepted());
  ASSERT_TRUE(store_.flush().ok());
  Runtime restarted(store_, clock_, matches_);
  ASSERT_EQ(restarted.recover(), 1u);
  auto again_host = restarted.find(host->id());
  ASSERT_NE(again_host, nullptr);
  const v1::CommandResult again = submit(*again_host, Side::kA, 11, deploy);
  EXPECT_EQ(again.SerializeAsString(), first.SerializeAsString());
  EXPECT_EQ(again_host->seen()->events, host->seen()->events);
}

TEST_F(RuntimeTest, OutOfTurnCommandsAreRefusedWithTheTurnRule) {
  auto host = create();
  seat_both(*host);
  const v1::CommandResult r = submit(*host, Side::kB, 1, first_deploy(*host, Side::kA));
  EXPECT_FALSE(r.accepted());
  EXPECT_EQ(r.error().rule(), "match.turn");
}

TEST_F(RuntimeTest, AMissedDeadlineForfeitsTheMatch) {
  auto host = create(/*seconds_per_move=*/60);
  seat_both(*host);
  ASSERT_TRUE(row(host->id())->deadline_a_ms.has_value());
  clock_.advance(59'000);
  runtime_.tick();
  settle(*host);
  EXPECT_FALSE(host->seen()->ended);
  clock_.advance(2'000);
  runtime_.tick();
  settle(*host);
  ASSERT_TRUE(host->seen()->ended);
  const auto stored = row(host->id());
  EXPECT_EQ(stored->status, store::MatchStatus::kFinished);
  v1::Outcome outcome;
  ASSERT_TRUE(outcome.ParseFromString(*stored->outcome));
  EXPECT_EQ(outcome.kind(), v1::Outcome::WIN_B);
  EXPECT_NE(outcome.reason().find("deadline"), std::string::npos);
}

TEST_F(RuntimeTest, DeadlinesSurviveARestart) {
  auto host = create(/*seconds_per_move=*/60);
  seat_both(*host);
  ASSERT_TRUE(store_.flush().ok());
  Runtime restarted(store_, clock_, matches_);
  ASSERT_EQ(restarted.recover(), 1u);
  clock_.advance(61'000);
  restarted.tick();
  auto again = restarted.find(host->id());
  settle(*again);
  EXPECT_TRUE(again->seen()->ended);
}

TEST_F(RuntimeTest, ThePlayerToActGetsTheLegalCommandsAndSpectatorsNever) {
  auto host = create();
  seat_both(*host);
  auto a = std::make_shared<Recorder>();
  auto b = std::make_shared<Recorder>();
  auto spectator = std::make_shared<Recorder>();
  host->subscribe(Viewer::kSideA, std::nullopt, a);
  host->subscribe(Viewer::kSideB, std::nullopt, b);
  host->subscribe(Viewer::kSpectator, std::nullopt, spectator);
  ASSERT_TRUE(submit(*host, Side::kA, 1, first_deploy(*host, Side::kA)).accepted());
  const auto au = a->updates();
  ASSERT_GE(au.size(), 2u);
  EXPECT_TRUE(au.front().has_snapshot());
  EXPECT_TRUE(au.back().your_move());
  EXPECT_TRUE(au.back().has_legal());
  EXPECT_GT(au.back().events_size(), 0);
  for (const auto& u : b->updates())
    EXPECT_FALSE(u.has_legal());
  for (const auto& u : spectator->updates())
    EXPECT_FALSE(u.has_legal());
  EXPECT_EQ(spectator->updates().back().events_size(), au.back().events_size());
}

TEST_F(RuntimeTest, AReconnectingClientGetsExactlyTheEventsItMissed) {
  auto host = create();
  seat_both(*host);
  ASSERT_TRUE(submit(*host, Side::kA, 1, first_deploy(*host, Side::kA)).accepted());
  const std::uint64_t seen = host->seen()->events;
  ASSERT_TRUE(submit(*host, Side::kA, 2, first_deploy(*host, Side::kA)).accepted());
  ASSERT_TRUE(submit(*host, Side::kA, 3, first_deploy(*host, Side::kA)).accepted());
  auto back = std::make_shared<Recorder>();
  host->subscribe(Viewer::kSideA, seen, back);
  settle(*host);
  const auto updates = back->updates();
  ASSERT_EQ(updates.size(), 1u);
  EXPECT_TRUE(updates[0].has_snapshot()) << "the board comes with the first update";
  ASSERT_EQ(static_cast<std::uint64_t>(updates[0].events_size()), host->seen()->events - seen);
  EXPECT_EQ(updates[0].events(0).number(), seen);
}

TEST_F(RuntimeTest, AResignationEndsTheMatchWithAVerifiableRecord) {
  auto host = create();
  seat_both(*host);
  ASSERT_TRUE(submit(*host, Side::kA, 1, first_deploy(*host, Side::kA)).accepted());
  EXPECT_TRUE(ok([&](auto d) { host->resign(Side::kA, d); }));
  ASSERT_TRUE(host->seen()->ended);
  auto record = host->seen()->record;
  ASSERT_TRUE(record);
  EXPECT_EQ(wire::verify_record(*record), std::nullopt);
  EXPECT_EQ(record->outcome().kind(), v1::Outcome::WIN_B);
}

TEST_F(RuntimeTest, ADrawNeedsAnOfferFromTheOtherSide) {
  auto host = create();
  seat_both(*host);
  EXPECT_FALSE(ok([&](auto d) { host->accept_draw(Side::kB, d); }));
  EXPECT_TRUE(ok([&](auto d) { host->offer_draw(Side::kA, d); }));
  EXPECT_FALSE(ok([&](auto d) { host->accept_draw(Side::kA, d); }));
  EXPECT_TRUE(ok([&](auto d) { host->accept_draw(Side::kB, d); }));
  EXPECT_TRUE(host->seen()->ended);
}

TEST_F(RuntimeTest, AFailedCommitClosesTheMatchAndIsNeverAcknowledged) {
  auto host = create();
  seat_both(*host);
  const v1::GameCommand deploy = first_deploy(*host, Side::kA);
  store_.fail_next();
  const auto failed = submit_answer(*host, Side::kA, 1, deploy);
  EXPECT_FALSE(failed.ok());
  ASSERT_NE(failed.storage_failure(), nullptr) << "a failed commit is the store's, not a rule's";
  EXPECT_EQ(failed.refusal(), nullptr);
  EXPECT_EQ(submit(*host, Side::kA, 2, deploy).error().rule(), "match.closed");
}

TEST_F(RuntimeTest, RecoveryClosesAMatchWhoseLogDoesNotReplay) {
  auto host = create();
  seat_both(*host);
  ASSERT_TRUE(submit(*host, Side::kA, 1, first_deploy(*host, Side::kA)).accepted());
  ASSERT_TRUE(store_.flush().ok());
  // Edit the stored command behind the server's back: its events no longer follow from it.
  auto rows = log(host->id());
  v1::LogEntry e;
  ASSERT_TRUE(e.ParseFromString(rows.back().entry));
  auto* deploy = e.mutable_command()->mutable_optio()->mutable_deploy();
  deploy->set_facing((deploy->facing() + 1) % 4);
  {
    store::Status st;
    auto db = store::Db::open(path_, false, &st);
    ASSERT_TRUE(db) << st.message;
    auto update =
        db->prepare("UPDATE match_log SET entry = ? WHERE match_id = ? AND entry_index = ?", &st);
    ASSERT_TRUE(st.ok()) << st.message;
    update.bind_blob(1, e.SerializeAsString())
        .bind(2, host->id())
        .bind(3, std::int64_t{rows.back().entry_index});
    ASSERT_TRUE(update.run().ok());
  }
  Runtime restarted(store_, clock_, matches_);
  EXPECT_EQ(restarted.recover(), 0u);
  EXPECT_EQ(row(host->id())->status, store::MatchStatus::kClosed);
}

TEST_F(RuntimeTest, AnEndedMatchNobodyWatchesLeavesMemoryAndComesBackFromTheStore) {
  auto ended = create();
  seat_both(*ended);
  const v1::GameCommand deploy = first_deploy(*ended, Side::kA);
  ASSERT_TRUE(submit(*ended, Side::kA, 1, deploy).accepted());
  EXPECT_TRUE(ok([&](auto d) { ended->resign(Side::kB, d); }));
  const auto record = ended->seen()->record;
  ASSERT_TRUE(record);
  auto watched = create();
  seat_both(*watched);
  EXPECT_TRUE(ok([&](auto d) { watched->resign(Side::kA, d); }));
  auto spectator = std::make_shared<Recorder>();
  watched->subscribe(Viewer::kSpectator, std::nullopt, spectator);
  settle(*watched);
  auto running = create();
  seat_both(*running);
  const std::string ids[3] = {ended->id(), watched->id(), running->id()};
  ended.reset();
  watched.reset();
  running.reset();

  runtime_.tick();  // not yet idle long enough
  EXPECT_NE(runtime_.find(ids[0]), nullptr);
  clock_.advance(HostOptions{}.keep_ended_ms);
  runtime_.tick();
  EXPECT_EQ(runtime_.find(ids[0]), nullptr);
  EXPECT_NE(runtime_.find(ids[1]), nullptr) << "a spectator still watches it";
  EXPECT_NE(runtime_.find(ids[2]), nullptr) << "it is being played";
  // Loaded again from the store: the same record, and its answers still found.
  auto back = runtime_.load(ids[0]);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->seen()->record->SerializeAsString(), record->SerializeAsString());
  // A repeat is the same command sent again (another one under the same number is refused).
  auto repeat = submit(*back, Side::kA, 1, deploy);
  EXPECT_TRUE(repeat.accepted());
  EXPECT_EQ(repeat.entry(), 1u);
}

TEST_F(RuntimeTest, TheSpectatorCountFollowsSpectatorsComingAndGoing) {
  auto host = create();
  seat_both(*host);
  auto player = std::make_shared<Recorder>();
  auto first = std::make_shared<Recorder>();
  auto second = std::make_shared<Recorder>();
  host->subscribe(Viewer::kSideA, std::nullopt, player);
  host->subscribe(Viewer::kSpectator, std::nullopt, first);
  host->subscribe(Viewer::kSpectator, std::nullopt, second);
  // The room hears of comings and goings once a tick, whatever their number.
  settle(*host);
  const std::size_t before = player->updates().size();
  runtime_.tick();
  settle(*host);
  ASSERT_EQ(player->updates().size(), before + 1);
  EXPECT_EQ(player->updates().back().spectators(), 2u);
  EXPECT_FALSE(player->updates().back().has_snapshot()) << "a count alone carries no board";
  host->unsubscribe(second);
  runtime_.tick();
  settle(*host);
  EXPECT_EQ(player->updates().back().spectators(), 1u);
  EXPECT_EQ(first->updates().back().spectators(), 1u);
  EXPECT_EQ(host->seen()->spectators, 1u);
}

}  // namespace
}  // namespace castra::runtime
