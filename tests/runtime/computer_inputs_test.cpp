// The in-process computer opponent sees only what its side's player would be sent: every
// input it is given in an Optio match (its side's snapshot and legal list, serialized) is
// recorded through its tap, and two plays of the same match that differ only in the human's
// orders cards must give it byte-identical inputs, none holding the human's sealed paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/wire/any_match.hpp"
#include "tests/runtime/computer_support.hpp"
#include "tests/server/picker.hpp"

namespace castra::computer::testing {
namespace {

struct Played {
  std::vector<std::string> inputs;  // each: the snapshot's bytes, then the legal list's
  std::vector<v1::optio::OrdersPath> human_paths;
  std::string human_view_with_paths;  // the human's own snapshot once its card was in
  std::optional<v1::MatchRecord> record;
};

// One Optio training match: the human on side A draws orders paths `orders_extra` squares
// past their start and never advances (so its paths show in nothing it does); the greedy
// computer plays side B.
Played play_once(int orders_extra) {
  Played out;
  const std::string dir = castra::testing::make_temp_dir("castra-computer-inputs");
  auto sqlite = open_store(dir + "/castra.db");
  server::ManualClock clock(1'700'000'000'000);
  server::TaskQueue match_threads("matches", 1, 4096);
  runtime::Runtime runtime(*sqlite, clock, match_threads);
  std::mutex mu;
  ComputerOptions options;
  options.random = repeatable_random();
  options.tap = [&](const std::string&, Side, const v1::Snapshot& view,
                    const v1::GameLegal& legal) {
    std::lock_guard lock(mu);
    out.inputs.push_back(view.SerializeAsString() + legal.SerializeAsString());
  };
  Computers computers(options);

  auto host = create_against_computer(runtime, "optio/training", v1::COMPUTER_GREEDY);
  computers.play(host);
  auto human = std::make_shared<Human>(Side::kA);
  host->subscribe(rules::Viewer::kSideA, std::nullopt, human);
  EXPECT_FALSE(wait([&](auto d) { host->seat(Side::kA, 7, "the human's entropy", d); }));

  castra::testing::Picker picker;
  picker.orders_extra = orders_extra;
  std::int64_t seq = 0;
  for (int n = 0; n < 2000; ++n) {
    const auto update = human->my_turn();
    if (!update) {
      ADD_FAILURE() << "the computer never let the human move";
      break;
    }
    if (human->record() || status_of(*update).ended()) break;
    const auto command = picker.pick(update->legal(), Side::kA);
    if (!command) {
      ADD_FAILURE() << "the human has a move but nothing to pick";
      break;
    }
    const v1::CommandResult r = submit(*host, Side::kA, ++seq, *command);
    EXPECT_TRUE(r.accepted()) << r.DebugString();
    if (command->optio().has_submit_orders()) {
      for (const auto& p : command->optio().submit_orders().paths())
        out.human_paths.push_back(p);
      out.human_view_with_paths = human->board().SerializeAsString();
    }
  }
  out.record = human->record();
  computers.stop();
  std::lock_guard lock(mu);
  return out;
}

// What a leak of `path`'s squares past its start would look like: the bytes they take in a
// leader's path of a projected state, and in an orders path.
struct LeakPatterns {
  std::string as_leader_path;
  std::string as_orders_path;
};
LeakPatterns leak_patterns(const v1::optio::OrdersPath& path) {
  v1::optio::Leader leader;
  v1::optio::OrdersPath tail;
  for (int i = 1; i < path.squares_size(); ++i) {
    *leader.add_path() = path.squares(i);
    *tail.add_squares() = path.squares(i);
  }
  return {leader.SerializeAsString(), tail.SerializeAsString()};
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(BotGames, InProcessComputerNeverSeesTheOtherSidesOrdersCard) {
  const Played short_paths = play_once(2);
  const Played long_paths = play_once(3);
  ASSERT_TRUE(short_paths.record && long_paths.record) << "both matches end";
  EXPECT_EQ(wire::verify_record(*short_paths.record), std::nullopt);
  EXPECT_EQ(wire::verify_record(*long_paths.record), std::nullopt);
  ASSERT_FALSE(short_paths.human_paths.empty());
  ASSERT_EQ(short_paths.human_paths.size(), long_paths.human_paths.size());
  for (std::size_t i = 0; i < short_paths.human_paths.size(); ++i) {
    EXPECT_NE(short_paths.human_paths[i].SerializeAsString(),
              long_paths.human_paths[i].SerializeAsString())
        << "the two matches differ in the human's orders cards";
  }

  // Everything the computer was given, in order, is the same in both: the cards' content
  // never reached it. (The reveal is the end of the match, after its last input.)
  ASSERT_GT(short_paths.inputs.size(), 10u);
  ASSERT_EQ(short_paths.inputs.size(), long_paths.inputs.size());
  for (std::size_t i = 0; i < short_paths.inputs.size(); ++i) {
    ASSERT_EQ(short_paths.inputs[i], long_paths.inputs[i]) << "input " << i << " differs";
  }

  // And the squares of the human's paths past their start appear in none of them, although
  // the same search finds them in the human's own view.
  for (const Played* played : {&short_paths, &long_paths}) {
    for (const auto& path : played->human_paths) {
      const LeakPatterns leak = leak_patterns(path);
      EXPECT_TRUE(contains(played->human_view_with_paths, leak.as_leader_path));
      for (const auto& input : played->inputs) {
        EXPECT_FALSE(contains(input, leak.as_leader_path));
        EXPECT_FALSE(contains(input, leak.as_orders_path));
      }
    }
  }
}

}  // namespace
}  // namespace castra::computer::testing
