// The server's computer opponent in process, on the runtime and a real SQLite store: it takes
// its seat when the match is made, plays a whole match against a rules-blind human, declines
// a draw offer, and plays on after the runtime recovers from a restart.
#include <gtest/gtest.h>

#include "common/wire/any_match.hpp"
#include "tests/runtime/computer_support.hpp"
#include "tests/server/picker.hpp"

namespace castra::computer::testing {
namespace {

class ComputerOpponentTest : public ::testing::Test {
 protected:
  ComputerOpponentTest()
      : dir_(castra::testing::make_temp_dir("castra-computer")),
        store_(open_store(dir_ + "/castra.db")),
        clock_(1'700'000'000'000) {}

  // Plays side A with the Picker until the match ends or `commands` were played; whether the
  // human always had a move when the computer had none.
  bool play(runtime::MatchHost& host, Human& human, int commands = 5000) {
    for (int n = 0; n < commands; ++n) {
      const auto update = human.my_turn();
      if (!update) return false;
      if (human.record() || status_of(*update).ended()) return true;
      const auto command = picker_.pick(update->legal(), Side::kA);
      if (!command) return false;
      const v1::CommandResult r = submit(host, Side::kA, ++seq_, *command);
      EXPECT_TRUE(r.accepted()) << r.DebugString();
    }
    return true;
  }

  // Commands side B (the computer) played, from the match's record.
  static int computer_commands(const v1::MatchRecord& record) {
    int n = 0;
    for (const auto& e : record.entries())
      n += e.kind() == v1::ENTRY_COMMAND && e.side() == v1::SIDE_B;
    return n;
  }

  std::string dir_;
  std::unique_ptr<store::SqliteMatchStore> store_;
  server::ManualClock clock_;
  server::TaskQueue queue_{"matches", 1, 4096};
  castra::testing::Picker picker_;
  std::int64_t seq_ = 0;
};

TEST_F(ComputerOpponentTest, TakesTheFreeSideAtOnceAndTheMatchGoesLiveWithTheCreator) {
  runtime::Runtime runtime(*store_, clock_, queue_);
  Computers computers;
  auto host = create_against_computer(runtime, "optio/training", v1::COMPUTER_RANDOM);
  computers.play(host);
  settle(*host);
  EXPECT_TRUE(host->seen()->seated[rules::index(Side::kB)]);
  EXPECT_FALSE(host->seen()->seated[rules::index(Side::kA)]);
  EXPECT_EQ(host->seen()->row.status, store::MatchStatus::kOpen);
  EXPECT_FALSE(host->seen()->row.player_b.has_value()) << "the computer has no account";
  EXPECT_FALSE(wait([&](auto d) { host->seat(Side::kA, 7, "entropy", d); }));
  EXPECT_EQ(host->seen()->row.status, store::MatchStatus::kLive);
  EXPECT_EQ(computers.playing(), 1u);
}

TEST_F(ComputerOpponentTest, PlaysAWholeMatchAndLeavesItWhenItEnds) {
  runtime::Runtime runtime(*store_, clock_, queue_);
  Computers computers;
  auto host = create_against_computer(runtime, "stand/training", v1::COMPUTER_GREEDY);
  computers.play(host);
  auto human = std::make_shared<Human>(Side::kA);
  host->subscribe(rules::Viewer::kSideA, std::nullopt, human);
  ASSERT_FALSE(wait([&](auto d) { host->seat(Side::kA, 7, "entropy", d); }));
  ASSERT_TRUE(play(*host, *human));
  const auto record = human->record();
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(wire::verify_record(*record), std::nullopt);
  EXPECT_GT(computer_commands(*record), 5);
  computers.tick();
  EXPECT_EQ(computers.playing(), 0u);
}

TEST_F(ComputerOpponentTest, DeclinesADrawOffer) {
  runtime::Runtime runtime(*store_, clock_, queue_);
  Computers computers;
  auto host = create_against_computer(runtime, "optio/training", v1::COMPUTER_GREEDY);
  computers.play(host);
  auto human = std::make_shared<Human>(Side::kA);
  host->subscribe(rules::Viewer::kSideA, std::nullopt, human);
  ASSERT_FALSE(wait([&](auto d) { host->seat(Side::kA, 7, "entropy", d); }));
  ASSERT_TRUE(human->my_turn());
  const std::size_t before = human->updates();
  ASSERT_FALSE(wait([&](auto d) { host->offer_draw(Side::kA, d); }));
  // Two updates: the offer, and its withdrawal by the computer's answer (in either order:
  // the computer may answer before the offer's update has reached the human).
  EXPECT_TRUE(human->wait_until([before](std::size_t updates, bool saw_offer, const auto&) {
    return saw_offer && updates >= before + 2;
  }));
  EXPECT_FALSE(host->seen()->ended);
  // Declined, not accepted: accepting it now finds no offer.
  EXPECT_TRUE(wait([&](auto d) { host->accept_draw(Side::kA, d); }).has_value());
}

TEST_F(ComputerOpponentTest, PlaysOnAfterTheRuntimeRecoversFromARestart) {
  std::string id;
  int entries_before = 0;
  {
    runtime::Runtime runtime(*store_, clock_, queue_);
    Computers computers;
    auto host = create_against_computer(runtime, "optio/training", v1::COMPUTER_GREEDY);
    id = host->id();
    computers.play(host);
    auto human = std::make_shared<Human>(Side::kA);
    host->subscribe(rules::Viewer::kSideA, std::nullopt, human);
    ASSERT_FALSE(wait([&](auto d) { host->seat(Side::kA, 7, "entropy", d); }));
    ASSERT_TRUE(play(*host, *human, 12));
    ASSERT_FALSE(host->seen()->ended);
    computers.stop();
    // A restart in one process: the old host finishes what it had taken before the new one
    // reads the store, as a killed server would have nothing more in flight.
    settle(*host);
    entries_before = static_cast<int>(host->seen()->entries);
  }
  // What the server does as it stops: every write queued is committed.
  ASSERT_TRUE(store_->flush().ok());
  runtime::Runtime runtime(*store_, clock_, queue_);
  ASSERT_EQ(runtime.recover(), 1u);
  Computers computers;
  EXPECT_EQ(computers.resume(runtime), 1u);
  auto host = runtime.find(id);
  ASSERT_TRUE(host);
  auto human = std::make_shared<Human>(Side::kA);
  host->subscribe(rules::Viewer::kSideA, std::nullopt, human);
  ASSERT_TRUE(play(*host, *human));
  const auto record = human->record();
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(wire::verify_record(*record), std::nullopt);
  int after = 0;
  for (int i = entries_before; i < record->entries_size(); ++i)
    after +=
        record->entries(i).kind() == v1::ENTRY_COMMAND && record->entries(i).side() == v1::SIDE_B;
  EXPECT_GT(after, 0) << "the computer played on after the restart";
}

}  // namespace
}  // namespace castra::computer::testing
