// Cluster.*, with the real clients: castra-bot's own BotLink and BotPlayer (not the tests'
// Member) on three castra-server nodes on one private PostgreSQL. A bot whose node does not
// host its match follows ERROR_MATCH_ELSEWHERE to the owner and plays there; when the owner is
// killed with SIGKILL mid-match, both bots come back through their load balancer, are sent on
// to the node that took the match over once its lease lapsed, resend what was unanswered with
// the same client_seq, and finish: every acknowledged command is in the log once and the
// record verifies.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "common/wire/any_match.hpp"
#include "tests/server/cluster_support.hpp"
#include "tests/support/postgres_cluster.hpp"
#include "tools/bot/bot_link.hpp"
#include "tools/bot/bot_player.hpp"

namespace castra::testing {
namespace {

constexpr int kLeaseMs = 1500;

// What the bots did, watched from the test's thread: submits sent, and the owner a redirect
// named.
class Watch {
 public:
  void sent(const v1::ClientEnvelope& e) {
    if (!e.has_submit_command()) return;
    std::lock_guard lock(mu_);
    ++submits_;
    cv_.notify_all();
  }
  void heard(const std::string& line) {
    const std::string moved = "match moved to ";
    if (line.rfind(moved, 0) != 0) return;
    std::lock_guard lock(mu_);
    owner_url_ = line.substr(moved.size(), line.find(',') - moved.size());
    cv_.notify_all();
  }
  // Waits for `submits` submits and a redirect; the owner's URL, "" on timeout.
  std::string wait(int submits) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(60),
                 [&] { return submits_ >= submits && !owner_url_.empty(); });
    return submits_ >= submits ? owner_url_ : "";
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int submits_ = 0;
  std::string owner_url_;
};

struct Played {
  bot::GameResult result;
  int reconnects = 0;
  int redirects = 0;
  std::string link_error;
};

// One bot as castra-bot runs it; `server` is its address (a fixed node, or a load balancer).
Played play_seat(std::function<std::string()> server, const std::string& name, bot::Seating seating,
                 const std::string& scenario, Watch& watch) {
  bot::LinkOptions lo;
  lo.server = std::move(server);
  lo.name = name;
  lo.password = name + "-password";
  lo.give_up_after = std::chrono::seconds(40);
  lo.log = [&watch](const std::string& line) { watch.heard(line); };
  lo.lose_reply = [&watch](const v1::ClientEnvelope& e) {
    watch.sent(e);
    return false;
  };
  bot::BotLink link(std::move(lo));
  Played p;
  if (!link.open()) {
    p.link_error = link.error();
    return p;
  }
  bot::PlayerOptions po;
  po.seating = seating;
  po.scenario = scenario;
  po.strength = bot::Strength::kRandom;
  po.seed = 19;
  po.find_timeout = std::chrono::seconds(30);
  p.result = bot::BotPlayer(link, po).play_one();
  p.reconnects = link.reconnects();
  p.redirects = link.redirects();
  return p;
}

// The record verifies and each side's accepted commands are its commands in the log: none
// applied twice, none lost.
void expect_once(const Played& p, const std::string& who) {
  ASSERT_TRUE(p.result.finished) << who << ": " << p.result.error << p.link_error;
  const v1::MatchRecord& r = p.result.record;
  EXPECT_EQ(wire::verify_record(r), std::nullopt) << who;
  const v1::Side side = p.result.side == rules::Side::kA ? v1::SIDE_A : v1::SIDE_B;
  int in_log = 0;
  for (const auto& e : r.entries())
    in_log += e.kind() == v1::ENTRY_COMMAND && e.side() == side;
  EXPECT_EQ(in_log, p.result.commands) << who << " (" << p.result.resent << " sent again)";
  EXPECT_GT(p.result.commands, 0) << who;
  std::printf("%s: %d commands (%d sent again), %d reconnects, %d redirects\n", who.c_str(),
              p.result.commands, p.result.resent, p.reconnects, p.redirects);
}

// A load balancer: every connection to the next node, round.
std::function<std::string()> balancer(Rig& rig, int first) {
  auto next = std::make_shared<std::atomic<int>>(first);
  return [&rig, next] { return rig.url(next->fetch_add(1) % rig.size()); };
}

// A creator and a joiner of `scenario`, each on its own thread, each reaching the cluster
// through its own address; `during` runs on the test's thread while they play.
std::pair<Played, Played> play_match(
    std::function<std::string()> creator_server, std::function<std::string()> joiner_server,
    const std::string& scenario, Watch& watch, const std::function<void()>& during = [] {}) {
  Played creator, joiner;
  std::thread a([&] {
    creator = play_seat(creator_server, "creator", bot::Seating::kCreate, scenario, watch);
  });
  std::thread b([&] {
    joiner = play_seat(joiner_server, "joiner", bot::Seating::kJoinOpen, scenario, watch);
  });
  during();
  a.join();
  b.join();
  return {creator, joiner};
}

TEST(Cluster, ARealClientFollowsTheRedirectToTheMatchsOwner) {
  const std::string url = PostgresCluster::fresh_database("cluster_redirect");
  ASSERT_FALSE(url.empty()) << PostgresCluster::shared().error();
  Rig rig(url, 3, kLeaseMs);
  ASSERT_TRUE(rig.started()) << rig.logs();

  // The creator's node hosts the match; the joiner is on another one and must be sent there.
  Watch watch;
  const auto [creator, joiner] =
      play_match([&] { return rig.url(0); }, [&] { return rig.url(1); }, "optio/test", watch);
  expect_once(creator, "creator");
  expect_once(joiner, "joiner");
  EXPECT_GE(joiner.redirects, 1);
  EXPECT_EQ(creator.result.match_id, joiner.result.match_id);
  EXPECT_EQ(watch.wait(0), rig.url(0));
  if (HasFailure()) ADD_FAILURE() << rig.logs();
}

TEST(Cluster, ARealClientFollowsItsMatchToTheNewOwnerWhenTheOwnerIsKilled) {
  const std::string url = PostgresCluster::fresh_database("cluster_redirect_kill");
  ASSERT_FALSE(url.empty()) << PostgresCluster::shared().error();
  Rig rig(url, 3, kLeaseMs);
  ASSERT_TRUE(rig.started()) << rig.logs();

  Watch watch;
  const auto [creator, joiner] =
      play_match(balancer(rig, 0), balancer(rig, 1), "stand/test", watch, [&] {
        // Mid-match: both bots play on the owner, a redirect named it; it is killed.
        const std::string owner_url = watch.wait(6);
        const int owner = rig.index_of(owner_url);
        EXPECT_GE(owner, 0) << "no redirect to an owner: " << owner_url;
        if (owner >= 0) rig.node(owner).signal(SIGKILL);
      });
  expect_once(creator, "creator");
  expect_once(joiner, "joiner");
  // Both lost the owner and came back, to whichever node took the match over.
  EXPECT_GE(creator.reconnects, 1);
  EXPECT_GE(joiner.reconnects, 2);  // the first redirect, then the kill
  if (HasFailure()) ADD_FAILURE() << rig.logs();
}

}  // namespace
}  // namespace castra::testing
