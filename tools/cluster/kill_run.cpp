// castra-cluster-kills: the long run of cluster mode (docs/reliability.md, "A node lost"):
// three nodes on a private PostgreSQL, two matches played at a time (an Optio and a STAND!
// one, new ones as they end), and a node SIGKILLed again and again: the node hosting one of
// them, at a random moment while both are being played (commands in flight); it stays down
// while its matches move to the others, then comes back under its own id. At the end every record verifies and every
// acknowledged command is in its log once. Not a ctest test (it runs for minutes):
//   build/tests/server/castra-cluster-kills [--kills N] [--lease-ms MS] [--seed S]
// It prints its figures; its exit status is 0 when every check held.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "tests/server/cluster_support.hpp"
#include "tests/server/protocol_support.hpp"
#include "tests/support/postgres_cluster.hpp"

namespace castra::testing {
namespace {

int g_kills = 20;
int g_lease_ms = 1500;
unsigned g_seed = 20261202;

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

TEST(ClusterKills, EveryAcknowledgedCommandOnceAcrossManyKills) {
  PostgresCluster& pg = PostgresCluster::shared();
  ASSERT_TRUE(pg.ok()) << pg.error();
  const std::string url = pg.create_database("cluster_kills");
  ASSERT_FALSE(url.empty()) << pg.error();
  Rig rig(url, 3, g_lease_ms);
  ASSERT_TRUE(rig.started()) << rig.logs();
  std::mt19937 rng(g_seed);

  std::vector<std::unique_ptr<Member>> members;
  const char* names[4] = {"alice", "bob", "carol", "dave"};
  for (int i = 0; i < 4; ++i) {
    members.push_back(std::make_unique<Member>(rig, names[i], i % 3));
    ASSERT_TRUE(members.back()->register_account()) << names[i];
  }
  Member reader(rig, "reader", 2);
  ASSERT_TRUE(reader.register_account());
  const char* scenarios[2] = {"optio/test", "stand/test"};
  std::vector<std::unique_ptr<Game>> games;
  Game* live[2] = {nullptr, nullptr};
  auto open = [&](int slot) {
    auto g = std::make_unique<Game>();
    g->players[0] = members[static_cast<std::size_t>(2 * slot)].get();
    g->players[1] = members[static_cast<std::size_t>(2 * slot + 1)].get();
    if (open_game(*g, scenarios[slot]).empty()) return false;
    live[slot] = g.get();
    games.push_back(std::move(g));
    return true;
  };
  ASSERT_TRUE(open(0));
  ASSERT_TRUE(open(1));

  std::vector<double> failover_ms;
  int kills = 0;
  std::size_t rounds = 0;
  while (kills < g_kills) {
    // A few rounds, then the node hosting one of the two matches dies.
    const int before = std::uniform_int_distribution<int>(1, 6)(rng);
    for (int r = 0; r < before; ++r, ++rounds) {
      for (int slot = 0; slot < 2; ++slot) {
        if (play_round(*live[slot]) < 0) {
          ASSERT_TRUE(open(slot));
        }
      }
    }
    const int slot = std::uniform_int_distribution<int>(0, 1)(rng);
    const int victim = live[slot]->players[0]->node();
    // The kill comes from another thread while both matches are being played, so commands
    // are in flight (answered or not) when it lands; theirs are re-sent until answered.
    const int delay_ms = std::uniform_int_distribution<int>(0, 150)(rng);
    std::atomic<bool> killed{false};
    Clock::time_point killed_at;
    std::thread killer([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
      rig.node(victim).signal(SIGKILL);
      killed_at = Clock::now();
      killed = true;
    });
    ++kills;
    // Until the match hosted there has taken a command again (elsewhere) after the kill:
    // the failover time.
    Game& moved = *live[slot];
    auto acked_of = [](const Game& g) { return g.sides[0].acked.size() + g.sides[1].acked.size(); };
    std::optional<std::size_t> acked_at_kill;
    bool went_on = false;  // false: the match ended first (a new one took its place)
    for (int r = 0; r < 200; ++r, ++rounds) {
      const bool was_killed = killed;
      if (was_killed && !acked_at_kill) acked_at_kill = acked_of(moved);
      if (play_round(moved) < 0) {
        killer.join();
        ASSERT_TRUE(open(slot));
        break;
      }
      if (play_round(*live[1 - slot]) < 0) {
        ASSERT_TRUE(open(1 - slot));
      }
      if (acked_at_kill && acked_of(moved) > *acked_at_kill) {
        went_on = true;
        break;
      }
    }
    if (killer.joinable()) killer.join();
    rig.node(victim).wait(5s);
    if (went_on) failover_ms.push_back(ms_since(killed_at));
    // Then the node comes back.
    ASSERT_TRUE(rig.restart(victim)) << rig.node(victim).log();
    if (went_on) {
      std::printf("kill %d: node-%d, match %s went on after %.0f ms\n", kills, victim,
                  moved.id.c_str(), failover_ms.back());
    } else {
      std::printf("kill %d: node-%d, after its match had ended\n", kills, victim);
    }
  }
  for (int slot = 0; slot < 2; ++slot)
    play_to_end(*live[slot]);

  std::size_t acked = 0;
  for (auto& g : games)
    acked += check_record(*g, reader);
  ASSERT_FALSE(failover_ms.empty());
  std::sort(failover_ms.begin(), failover_ms.end());
  const auto pick = [&](double q) {
    return failover_ms[std::min(failover_ms.size() - 1,
                                static_cast<std::size_t>(q * static_cast<double>(failover_ms.size())))];
  };
  std::size_t takeovers = 0;
  const std::string log = rig.all_logs();
  for (std::size_t at = log.find("event=match_taken_over"); at != std::string::npos;
       at = log.find("event=match_taken_over", at + 1))
    ++takeovers;
  std::printf(
      "kills=%d lease_ms=%d matches=%zu acknowledged_commands=%zu rounds=%zu takeovers=%zu\n"
      "failovers=%zu failover_ms: min=%.0f median=%.0f p90=%.0f max=%.0f\n",
      kills, g_lease_ms, games.size(), acked, rounds, takeovers, failover_ms.size(), failover_ms.front(), pick(0.5),
      pick(0.9), failover_ms.back());
}

}  // namespace
}  // namespace castra::testing

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i + 1 < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--kills") castra::testing::g_kills = std::atoi(argv[++i]);
    if (flag == "--lease-ms") castra::testing::g_lease_ms = std::atoi(argv[++i]);
    if (flag == "--seed") castra::testing::g_seed = static_cast<unsigned>(std::atoi(argv[++i]));
  }
  return RUN_ALL_TESTS();
}
