// The match runtime over an in-memory store: commit before acknowledge, one answer per
// client sequence number, turns, deadlines, observers, spectators and recovery.
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <fstream>
#include <future>
#include <sstream>

#include "server/runtime/runtime.hpp"
#include "tests/runtime/memory_store.hpp"

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
  void on_update(const v1::MatchUpdate& u) override {
    std::lock_guard lock(mu_);
    updates_.push_back(u);
  }
  std::vector<v1::MatchUpdate> updates() {
    std::lock_guard lock(mu_);
    return updates_;
  }

 private:
  std::mutex mu_;
  std::vector<v1::MatchUpdate> updates_;
};

class RuntimeTest : public ::testing::Test {
 protected:
  RuntimeTest() : clock_(1'700'000'000'000), runtime_(store_, clock_) {}

  std::shared_ptr<MatchHost> create(std::uint32_t seconds_per_move = 0, std::uint32_t delay = 0) {
    CreateRequest req;
    req.match_id = "m-" + std::to_string(++next_);
    req.scenario_name = "optio/training";
    req.scenario = load_scenario("optio/training");
    req.settings.mutable_time_control()->set_seconds_per_move(seconds_per_move);
    req.settings.set_spectators_allowed(true);
    req.settings.set_spectator_delay_turns(delay);
    req.server_seed = filled(0x42);
    auto host = runtime_.create(req);
    EXPECT_TRUE(host.ok());
    return *host;
  }

  static std::optional<rules::RuleError> wait(
      const std::function<void(MatchHost::Done)>& act) {
    std::promise<std::optional<rules::RuleError>> p;
    act([&](std::optional<rules::RuleError> e) { p.set_value(std::move(e)); });
    return p.get_future().get();
  }

  static v1::CommandResult submit(MatchHost& host, Side side, std::optional<std::int64_t> seq,
                                  const v1::GameCommand& c) {
    std::promise<v1::CommandResult> p;
    host.submit(side, seq, c, filled(0x07), [&](v1::CommandResult r) { p.set_value(r); });
    return p.get_future().get();
  }

  void seat_both(MatchHost& host) {
    EXPECT_FALSE(wait([&](auto d) { host.seat(Side::kA, 1, "entropy-a", d); }));
    EXPECT_FALSE(wait([&](auto d) { host.seat(Side::kB, 2, "entropy-b", d); }));
  }

  // The first legal deployment of `side`, from the legal list the server would send.
  static v1::GameCommand first_deploy(const MatchHost& host, Side side) {
    const v1::GameLegal legal = host.legal(side);
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

  testing::MemoryStore store_;
  ManualClock clock_;
  Runtime runtime_;
  int next_ = 0;
};

TEST_F(RuntimeTest, AMatchIsOpenUntilBothSeatsAreTakenThenLive) {
  auto host = create();
  EXPECT_EQ(store_.find_match(host->id())->status, "open");
  EXPECT_FALSE(wait([&](auto d) { host->seat(Side::kA, 1, "a", d); }));
  EXPECT_EQ(store_.find_match(host->id())->status, "open");
  EXPECT_FALSE(wait([&](auto d) { host->seat(Side::kB, 2, "b", d); }));
  const auto row = store_.find_match(host->id());
  EXPECT_EQ(row->status, "live");
  EXPECT_EQ(row->player_a, 1);
  EXPECT_EQ(row->player_b, 2);
  EXPECT_EQ(row->to_act, "A");  // side A deploys first in the training battle
  EXPECT_TRUE(wait([&](auto d) { host->seat(Side::kB, 3, "again", d); }).has_value());
}

TEST_F(RuntimeTest, ACommandIsAcknowledgedOnlyOnceItIsStored) {
  auto host = create();
  seat_both(*host);
  const std::size_t before = store_.log_from(host->id(), 0).size();
  std::promise<std::size_t> stored_at_ack;
  host->submit(Side::kA, 1, first_deploy(*host, Side::kA), filled(1),
               [&](v1::CommandResult r) {
                 EXPECT_TRUE(r.accepted()) << r.error().message();
                 stored_at_ack.set_value(store_.log_from(host->id(), 0).size());
               });
  EXPECT_EQ(stored_at_ack.get_future().get(), before + 1);
}

TEST_F(RuntimeTest, ARepeatedClientSequenceNumberGetsTheFirstAnswerAndIsNotAppliedTwice) {
  auto host = create();
  seat_both(*host);
  const v1::GameCommand deploy = first_deploy(*host, Side::kA);
  const v1::CommandResult first = submit(*host, Side::kA, 7, deploy);
  ASSERT_TRUE(first.accepted()) << first.error().message();
  const std::uint64_t events = host->committed_events();
  const std::size_t appends = store_.appends();
  const v1::CommandResult again = submit(*host, Side::kA, 7, deploy);
  EXPECT_EQ(again.SerializeAsString(), first.SerializeAsString());
  EXPECT_EQ(host->committed_events(), events);
  EXPECT_EQ(store_.appends(), appends);
}

TEST_F(RuntimeTest, ARepeatIsRecognisedAfterARestart) {
  auto host = create();
  seat_both(*host);
  const v1::GameCommand deploy = first_deploy(*host, Side::kA);
  const v1::CommandResult first = submit(*host, Side::kA, 11, deploy);
  ASSERT_TRUE(first.accepted());
  store_.flush();
  Runtime restarted(store_, clock_);
  ASSERT_EQ(restarted.recover(), 1u);
  auto again_host = restarted.find(host->id());
  ASSERT_NE(again_host, nullptr);
  const v1::CommandResult again = submit(*again_host, Side::kA, 11, deploy);
  EXPECT_EQ(again.SerializeAsString(), first.SerializeAsString());
  EXPECT_EQ(again_host->committed_events(), host->committed_events());
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
  ASSERT_TRUE(store_.find_match(host->id())->deadline_a_ms.has_value());
  clock_.advance(59'000);
  runtime_.tick();
  store_.flush();
  EXPECT_FALSE(host->ended());
  clock_.advance(2'000);
  runtime_.tick();
  store_.flush();
  ASSERT_TRUE(host->ended());
  const auto row = store_.find_match(host->id());
  EXPECT_EQ(row->status, "finished");
  v1::Outcome outcome;
  ASSERT_TRUE(outcome.ParseFromString(*row->outcome));
  EXPECT_EQ(outcome.kind(), v1::Outcome::WIN_B);
  EXPECT_NE(outcome.reason().find("deadline"), std::string::npos);
}

TEST_F(RuntimeTest, DeadlinesSurviveARestart) {
  auto host = create(/*seconds_per_move=*/60);
  seat_both(*host);
  store_.flush();
  Runtime restarted(store_, clock_);
  ASSERT_EQ(restarted.recover(), 1u);
  clock_.advance(61'000);
  restarted.tick();
  store_.flush();
  EXPECT_TRUE(restarted.find(host->id())->ended());
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
  store_.flush();
  const auto au = a->updates();
  ASSERT_GE(au.size(), 2u);
  EXPECT_TRUE(au.front().has_snapshot());
  EXPECT_TRUE(au.back().your_move());
  EXPECT_TRUE(au.back().has_legal());
  EXPECT_GT(au.back().events_size(), 0);
  for (const auto& u : b->updates()) EXPECT_FALSE(u.has_legal());
  for (const auto& u : spectator->updates()) EXPECT_FALSE(u.has_legal());
  EXPECT_EQ(spectator->updates().back().events_size(), au.back().events_size());
}

TEST_F(RuntimeTest, AReconnectingClientGetsExactlyTheEventsItMissed) {
  auto host = create();
  seat_both(*host);
  ASSERT_TRUE(submit(*host, Side::kA, 1, first_deploy(*host, Side::kA)).accepted());
  const std::uint64_t seen = host->committed_events();
  ASSERT_TRUE(submit(*host, Side::kA, 2, first_deploy(*host, Side::kA)).accepted());
  ASSERT_TRUE(submit(*host, Side::kA, 3, first_deploy(*host, Side::kA)).accepted());
  auto back = std::make_shared<Recorder>();
  host->subscribe(Viewer::kSideA, seen, back);
  const auto updates = back->updates();
  ASSERT_EQ(updates.size(), 1u);
  EXPECT_FALSE(updates[0].has_snapshot());
  ASSERT_EQ(static_cast<std::uint64_t>(updates[0].events_size()), host->committed_events() - seen);
  EXPECT_EQ(updates[0].events(0).number(), seen);
}

TEST_F(RuntimeTest, AResignationEndsTheMatchWithAVerifiableRecord) {
  auto host = create();
  seat_both(*host);
  ASSERT_TRUE(submit(*host, Side::kA, 1, first_deploy(*host, Side::kA)).accepted());
  EXPECT_FALSE(wait([&](auto d) { host->resign(Side::kA, d); }));
  ASSERT_TRUE(host->ended());
  auto record = host->record();
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(wire::verify_record(*record), std::nullopt);
  EXPECT_EQ(record->outcome().kind(), v1::Outcome::WIN_B);
}

TEST_F(RuntimeTest, ADrawNeedsAnOfferFromTheOtherSide) {
  auto host = create();
  seat_both(*host);
  EXPECT_TRUE(wait([&](auto d) { host->accept_draw(Side::kB, d); }).has_value());
  EXPECT_FALSE(wait([&](auto d) { host->offer_draw(Side::kA, d); }));
  EXPECT_TRUE(wait([&](auto d) { host->accept_draw(Side::kA, d); }).has_value());
  EXPECT_FALSE(wait([&](auto d) { host->accept_draw(Side::kB, d); }));
  EXPECT_TRUE(host->ended());
}

TEST_F(RuntimeTest, AFailedCommitClosesTheMatchAndIsNeverAcknowledged) {
  auto host = create();
  seat_both(*host);
  store_.fail_next();
  const v1::CommandResult r = submit(*host, Side::kA, 1, first_deploy(*host, Side::kA));
  EXPECT_FALSE(r.accepted());
  EXPECT_EQ(r.error().rule(), "server.storage");
  EXPECT_EQ(submit(*host, Side::kA, 2, first_deploy(*host, Side::kA)).error().rule(),
            "match.closed");
}

TEST_F(RuntimeTest, RecoveryClosesAMatchWhoseLogDoesNotReplay) {
  auto host = create();
  seat_both(*host);
  ASSERT_TRUE(submit(*host, Side::kA, 1, first_deploy(*host, Side::kA)).accepted());
  store_.flush();
  // Tamper with the stored entry: its events no longer follow from its command.
  auto log = store_.log_from(host->id(), 0);
  v1::LogEntry e;
  ASSERT_TRUE(e.ParseFromString(log.back().entry));
  e.mutable_command()->mutable_optio()->mutable_deploy()->set_facing(
      (e.command().optio().deploy().facing() + 1) % 4);
  store::AppendRequest req;
  req.match_id = host->id();
  req.entry = log.back();
  req.entry->entry_index = 99;  // appended as a bogus extra entry
  req.entry->entry = e.SerializeAsString();
  std::promise<void> written;
  store_.append(req, [&](store::Status) { written.set_value(); });
  written.get_future().get();
  Runtime restarted(store_, clock_);
  EXPECT_EQ(restarted.recover(), 0u);
  EXPECT_EQ(store_.find_match(host->id())->status, "closed");
}

}  // namespace
}  // namespace castra::runtime
