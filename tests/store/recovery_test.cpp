// Start-up recovery with the toy rule set: every unfinished match comes back with the state of
// its replay; a match whose stored log or snapshot disagrees with its replay is closed with a
// clear log line, never a crash; a read error closes nothing.
#include "server/store/recovery.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <future>
#include <map>
#include <sstream>

#include "server/store/sqlite_match_store.hpp"
#include "tests/store/toy_store.hpp"
#include "tests/support/server_process.hpp"

namespace castra::store {
namespace {

using toy_store::ToyMatch;

enum class Backing { kMemory, kFile };

class RecoveryTest : public ::testing::TestWithParam<Backing> {
 protected:
  void SetUp() override {
    StoreOptions options;
    if (GetParam() == Backing::kFile) {
      dir_ = testing::make_temp_dir("castra-recovery");
      options.database.path = dir_ + "/castra.db";
    } else {
      options.database.path = ":memory:";
    }
    const Status s = SqliteMatchStore::open(options, &store_);
    ASSERT_TRUE(s.ok()) << s.message;
    // Recovery's log lines, for the tests to read.
    logger_ = std::make_shared<spdlog::logger>(
        "test", std::make_shared<spdlog::sinks::ostream_sink_mt>(log_));
    previous_ = spdlog::default_logger();
    spdlog::set_default_logger(logger_);
  }
  void TearDown() override {
    spdlog::set_default_logger(previous_);
    store_.reset();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  void append_now(AppendRequest request) {
    std::promise<Status> done;
    store_->append(std::move(request), [&](Status s) { done.set_value(std::move(s)); });
    const Status s = done.get_future().get();
    ASSERT_TRUE(s.ok()) << s.message;
  }

  // Creates a toy match, seats both sides unless `seat` is false, and plays `commands`
  // commands (or to its end), snapshotting every 4 entries. The match as the server holds it.
  ToyMatch play(const std::string& id, int commands, bool seat = true, int goal = 200) {
    ToyMatch m = toy_store::new_toy_match(id, goal, toy_store::test_seed(id));
    MatchRow row = toy_store::new_match_row(m, 1000);
    EXPECT_TRUE(store_
                    ->create_match(row, Secrets{toy_store::as_string(toy_store::test_seed(id)),
                                                std::nullopt, std::nullopt})
                    .ok());
    if (!seat) return m;
    append_now(toy_store::seat_both(m, row, "entropy a " + id, "entropy b " + id, 1000));
    std::map<int, std::int64_t> seq;
    for (int i = 0; i < commands && !m.outcome(); ++i) {
      const auto side = toy_store::acting_side(m);
      const std::int64_t s = ++seq[rules::index(side)];
      append_now(toy_store::command_request(m, row, side, s, toy_store::next_command(m, s), 4,
                                            1000 + i, match::Bytes32{}));
    }
    return m;
  }

  // The replay check a server plugs in: here the toy rule set, keeping the rebuilt matches.
  ReplayCheck toy_check() {
    return [this](const MatchRow& row, const std::optional<Snapshot>& snapshot,
                  const std::vector<LogRow>& log) {
      std::optional<Secrets> secrets;
      if (!store_->secrets(row.id, &secrets).ok() || !secrets) return false;
      toy_store::Replayed replayed = toy_store::replay(row, *secrets, snapshot, log);
      why_[row.id] = replayed.why;
      if (!replayed.match) return false;
      resumed_.emplace(row.id, std::move(*replayed.match));
      return true;
    };
  }

  Recovery recover() {
    Recovery recovery;
    const Status s = recover_matches(*store_, toy_check(), 99000, &recovery);
    EXPECT_TRUE(s.ok()) << s.message;
    return recovery;
  }

  // Rewrites one stored blob as a damaged disk or a bad migration might.
  void tamper(const std::string& sql, const std::string& blob) {
    const Status s = store_->writer().run([&](Db& db) {
      Status st;
      Statement q = db.prepare(sql, &st);
      if (!st.ok()) return st;
      q.bind_blob(1, blob);
      return q.run();
    });
    ASSERT_TRUE(s.ok()) << s.message;
  }

  static std::vector<std::string> ids(const std::vector<MatchRow>& rows) {
    std::vector<std::string> out;
    for (const auto& r : rows)
      out.push_back(r.id);
    std::sort(out.begin(), out.end());
    return out;
  }

  std::string dir_;
  std::unique_ptr<SqliteMatchStore> store_;
  std::ostringstream log_;
  std::shared_ptr<spdlog::logger> logger_;
  std::shared_ptr<spdlog::logger> previous_;
  std::map<std::string, ToyMatch> resumed_;
  std::map<std::string, std::string> why_;
};

TEST_P(RecoveryTest, EveryUnfinishedMatchResumesWithTheStateOfItsReplay) {
  const ToyMatch live = play("live", 25);
  const ToyMatch fresh = play("fresh", 0);
  const ToyMatch waiting = play("waiting", 0, /*seat=*/false);
  const ToyMatch done = play("done", 1000, true, 8);
  ASSERT_FALSE(live.outcome());
  ASSERT_TRUE(done.outcome()) << "the toy race reaches its goal";

  const Recovery recovery = recover();
  EXPECT_EQ(ids(recovery.loadable), (std::vector<std::string>{"fresh", "live", "waiting"}));
  EXPECT_TRUE(recovery.closed.empty());
  EXPECT_EQ(resumed_.at("live").full_state_hash(), live.full_state_hash());
  EXPECT_EQ(resumed_.at("live").log().size(), live.log().size());
  EXPECT_EQ(resumed_.at("fresh").full_state_hash(), fresh.full_state_hash());
  EXPECT_FALSE(resumed_.at("waiting").started());
  EXPECT_EQ(resumed_.count("done"), 0u) << "a finished match is not replayed at start-up";
}

TEST_P(RecoveryTest, AResumedMatchPlaysOnAndResumesAgain) {
  play("m", 9, true, 200);
  ASSERT_EQ(recover().loadable.size(), 1u);
  ToyMatch m = std::move(resumed_.at("m"));
  resumed_.clear();
  std::optional<MatchRow> row;
  ASSERT_TRUE(store_->find_match("m", &row).ok());
  for (int i = 0; i < 6; ++i) {
    const auto side = toy_store::acting_side(m);
    append_now(toy_store::command_request(m, *row, side, 100 + i, toy::Advance{}, 4, 5000,
                                          match::Bytes32{}));
  }
  ASSERT_FALSE(m.outcome()) << "a goal of 200 is far away";
  ASSERT_EQ(recover().loadable.size(), 1u);
  EXPECT_EQ(resumed_.at("m").full_state_hash(), m.full_state_hash());
  EXPECT_EQ(resumed_.at("m").log().size(), m.log().size());
}

TEST_P(RecoveryTest, AMatchWhoseLogWasAlteredIsClosedWithAClearLogLine) {
  play("good", 12);
  const ToyMatch bad = play("bad", 12);
  // Entry 5 now claims a different result than its dice gave.
  toy_store::ToyEntry altered = bad.log()[5];
  for (auto& e : altered.events) {
    if (auto* moved = std::get_if<toy::Moved>(&e)) moved->to += 1;
    if (auto* noted = std::get_if<toy::Noted>(&e)) noted->text += "!";
    if (auto* set = std::get_if<toy::SecretSet>(&e)) set->text += "!";
  }
  tamper("UPDATE match_log SET entry = ?1 WHERE match_id = 'bad' AND entry_index = 5",
         toy_store::encode_entry(altered, std::nullopt));

  const Recovery recovery = recover();
  EXPECT_EQ(ids(recovery.loadable), std::vector<std::string>{"good"});
  EXPECT_EQ(ids(recovery.closed), std::vector<std::string>{"bad"});
  EXPECT_NE(why_.at("bad").find("entry 5"), std::string::npos) << why_.at("bad");
  std::optional<MatchRow> row;
  ASSERT_TRUE(store_->find_match("bad", &row).ok());
  EXPECT_EQ(row->status, store::MatchStatus::kClosed);
  EXPECT_EQ(row->updated_ms, 99000);
  logger_->flush();
  EXPECT_NE(log_.str().find("event=match_closed match=bad ruleset=toy"), std::string::npos)
      << log_.str();
  // Closed stays closed: the next start does not replay it again.
  EXPECT_TRUE(recover().closed.empty());
}

TEST_P(RecoveryTest, AMatchWhoseSnapshotDisagreesWithItsReplayIsClosed) {
  const ToyMatch m = play("m", 12);
  tamper("UPDATE match_snapshots SET state_hash = ?1 WHERE match_id = 'm'", std::string(32, 'x'));
  const Recovery recovery = recover();
  EXPECT_EQ(ids(recovery.closed), std::vector<std::string>{"m"});
  EXPECT_NE(why_.at("m").find("snapshot"), std::string::npos) << why_.at("m");
}

TEST_P(RecoveryTest, AMatchWithAnEntryMissingIsClosed) {
  play("m", 12);
  tamper("DELETE FROM match_log WHERE match_id = 'm' AND entry_index = 3 AND ?1 IS NOT NULL", "x");
  EXPECT_EQ(ids(recover().closed), std::vector<std::string>{"m"});
  EXPECT_NE(why_.at("m").find("missing"), std::string::npos) << why_.at("m");
}

// A store whose log cannot be read: recovery must stop, not take the match for damaged.
class UnreadableLog final : public MatchStore {
 public:
  explicit UnreadableLog(MatchStore& real) : real_(real) {}
  Status create_match(const MatchRow& row, const Secrets& s) override {
    return real_.create_match(row, s);
  }
  Status update_match(const MatchRow& row) override {
    ++updates;
    return real_.update_match(row);
  }
  Status find_match(const std::string& id, std::optional<MatchRow>* row) override {
    return real_.find_match(id, row);
  }
  Status list_matches(MatchStatus status, int limit, std::vector<MatchRow>* rows) override {
    return real_.list_matches(status, limit, rows);
  }
  Status matches_of_player(std::int64_t a, int limit, std::vector<MatchRow>* rows) override {
    return real_.matches_of_player(a, limit, rows);
  }
  void append(AppendRequest r, std::function<void(Status)> done) override {
    real_.append(std::move(r), std::move(done));
  }
  Status flush() override { return real_.flush(); }
  Status replies_of(const std::string& id, std::vector<StoredReply>* out) override {
    return real_.replies_of(id, out);
  }
  Status find_reply(const std::string& id, int side, std::int64_t seq,
                    std::optional<std::string>* reply) override {
    return real_.find_reply(id, side, seq, reply);
  }
  Status latest_snapshot(const std::string& id, std::optional<Snapshot>* s) override {
    return real_.latest_snapshot(id, s);
  }
  Status log_from(const std::string&, std::uint32_t, std::vector<LogRow>*) override {
    return Status{10, "disk I/O error"};
  }
  Status secrets(const std::string& id, std::optional<Secrets>* s) override {
    return real_.secrets(id, s);
  }
  int updates = 0;

 private:
  MatchStore& real_;
};

TEST_P(RecoveryTest, AReadErrorStopsRecoveryAndClosesNothing) {
  play("m", 5);
  UnreadableLog failing(*store_);
  Recovery recovery;
  bool replayed = false;
  const Status s = recover_matches(
      failing,
      [&](const MatchRow&, const std::optional<Snapshot>&, const std::vector<LogRow>&) {
        replayed = true;
        return false;
      },
      99000, &recovery);
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(replayed);
  EXPECT_EQ(failing.updates, 0);
  std::optional<MatchRow> row;
  ASSERT_TRUE(store_->find_match("m", &row).ok());
  EXPECT_EQ(row->status, store::MatchStatus::kLive);
}

INSTANTIATE_TEST_SUITE_P(OnMemoryAndFile, RecoveryTest,
                         ::testing::Values(Backing::kMemory, Backing::kFile),
                         [](const ::testing::TestParamInfo<Backing>& info) {
                           return info.param == Backing::kMemory ? "Memory" : "File";
                         });

}  // namespace
}  // namespace castra::store
