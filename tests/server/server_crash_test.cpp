// The storage crash test through the real server: two WebSocket clients play while the server
// is killed with SIGKILL at random moments, at least 20 times. After each restart both players
// log in again and re-send their last unanswered command with the same client_seq. At the end
// every acknowledged command is in the match's record exactly once, and the record verifies.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "common/wire/any_match.hpp"
#include "tests/server/picker.hpp"
#include "tests/server/protocol_support.hpp"

namespace castra::testing {
namespace {

namespace req = client::requests;

std::vector<std::string> flags() {
  return test_flags({"--messages-per-second", "10000", "--message-burst", "10000"});
}

v1::ClientEnvelope submit(const std::string& id, std::uint64_t seq, const v1::GameCommand& c) {
  v1::ClientEnvelope e;
  e.mutable_submit_command()->set_match_id(id);
  e.mutable_submit_command()->set_client_seq(seq);
  *e.mutable_submit_command()->mutable_command() = c;
  return e;
}

struct Side {
  std::uint64_t next_seq = 1;
  std::optional<std::pair<std::uint64_t, v1::GameCommand>> unanswered;
  std::map<std::uint64_t, std::uint32_t> acked;  // client_seq -> log entry
};

// A new match between alice (side A) and bob (side B), both seated; its id. Nothing when the
// server died on the way (a match left half set up is never played, so never checked).
std::optional<std::string> new_match(client::ProtocolClient& alice, client::ProtocolClient& bob) {
  std::string error;
  auto created = alice.call(req::create_match("stand/test", false), 2s, &error);
  if (!created) return std::nullopt;
  EXPECT_TRUE(created->has_match_created()) << created->DebugString();
  const std::string id = created->match_created().match().match_id();
  v1::ClientEnvelope sit;
  sit.mutable_provide_entropy()->set_match_id(id);
  sit.mutable_provide_entropy()->set_entropy(client_entropy());
  auto seated = alice.call(sit, 2s, &error);
  if (!seated) return std::nullopt;
  EXPECT_FALSE(error_of(*seated)) << seated->DebugString();
  auto joined = bob.call(req::join_match(id, client_entropy()), 2s, &error);
  if (!joined) return std::nullopt;
  EXPECT_TRUE(joined->has_match_joined()) << joined->DebugString();
  return id;
}

struct Track {
  std::string id;
  Side sides[2];
  std::vector<std::string> journal;  // what happened to each command, for a failure's message
};

std::string describe(const v1::GameCommand& c) {
  std::string text = c.ShortDebugString();
  return text.size() > 120 ? text.substr(0, 120) : text;
}

// The server's own warnings and errors over all its lives (its log is appended to).
std::string server_trouble(const std::string& log_path) {
  std::ifstream in(log_path);
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.find("error") != std::string::npos || line.find("warn") != std::string::npos ||
        line.find("closed") != std::string::npos || line.find("recover") != std::string::npos)
      out += line + "\n";
  }
  return out;
}

TEST(ServerCrash, NoAcknowledgedCommandIsLostOrAppliedTwiceAcrossTwentySigkills) {
  const std::string dir = make_temp_dir("castra-server-crash");
  std::mt19937 rng(20261129);
  const std::string names[2] = {"alice", "bob"};
  std::vector<Track> tracks;
  constexpr int kKills = 20;
  int kills = 0;
  std::optional<ServerProcess> last;  // the life after the last kill
  for (int life = 0; life <= kKills; ++life) {
    std::optional<ServerProcess> alive_server;
    ServerProcess& server =
        life == kKills ? last.emplace(flags(), dir) : alive_server.emplace(flags(), dir);
    ASSERT_TRUE(server.started()) << server.log();
    std::unique_ptr<client::ProtocolClient> c[2];
    for (int s = 0; s < 2; ++s) {
      if (life == 0) {
        c[s] = std::move(registered(server.ws_url(), names[s]).client);
      } else {
        c[s] = greeted_client(server.ws_url());
        ASSERT_TRUE(call(*c[s], req::login(names[s], names[s] + "-password")).has_session());
      }
    }
    if (tracks.empty()) {
      auto id = new_match(*c[0], *c[1]);
      ASSERT_TRUE(id) << "the first match could not be set up";
      tracks.push_back({*id, {}, {}});
    }
    // After a restart: the unanswered commands again, with their own client_seq.
    for (auto& t : tracks) {
      for (int s = 0; s < 2; ++s) {
        if (!t.sides[s].unanswered) continue;
        auto [seq, cmd] = *t.sides[s].unanswered;
        auto r = call(*c[s], submit(t.id, seq, cmd));
        ASSERT_TRUE(r.has_command_result()) << r.DebugString();
        const auto& result = r.command_result();
        t.journal.push_back("life " + std::to_string(life) + " side " + std::to_string(s) +
                            " re-sent seq " + std::to_string(seq) + ": " +
                            (result.accepted() ? "entry " + std::to_string(result.entry())
                                               : "refused " + result.error().rule()));
        // "server.storage" means the server could not tell whether it had applied it.
        ASSERT_NE(result.error().rule(), "server.storage") << server_trouble(server.log_path());
        if (result.accepted()) t.sides[s].acked[seq] = result.entry();
        t.sides[s].unanswered.reset();
      }
    }
    if (life == kKills) break;  // every answer is in: the records are checked below
    // Play until the kill, which comes at a random moment from another thread.
    std::atomic<bool> killed{false};
    const int delay_ms = std::uniform_int_distribution<int>(5, 120)(rng);
    std::thread killer([&server, &killed, delay_ms] {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
      server.signal(SIGKILL);
      killed = true;
    });
    bool alive = true;
    for (int step = 0; step < 2000 && alive && !killed; ++step) {
      Track& t = tracks.back();
      bool moved = false;
      bool over = false;
      for (int s = 0; s < 2 && alive; ++s) {
        v1::ClientEnvelope get;
        get.mutable_get_legal()->set_match_id(t.id);
        std::string error;
        auto legal = c[s]->call(get, 2s, &error);
        if (!legal) {
          alive = false;
          break;
        }
        auto cmd =
            Picker().pick(legal->legal().legal(), s == 0 ? rules::Side::kA : rules::Side::kB);
        if (!cmd) continue;
        const std::uint64_t seq = t.sides[s].next_seq++;
        t.sides[s].unanswered = std::make_pair(seq, *cmd);
        auto r = c[s]->call(submit(t.id, seq, *cmd), 2s, &error);
        if (!r) {  // the server died: this one stays unanswered
          alive = false;
          break;
        }
        t.sides[s].unanswered.reset();
        const auto& result = r->command_result();
        t.journal.push_back("life " + std::to_string(life) + " side " + std::to_string(s) +
                            " seq " + std::to_string(seq) + " " + describe(*cmd) + ": " +
                            (result.accepted() ? "entry " + std::to_string(result.entry())
                                               : "refused " + result.error().rule()));
        if (result.accepted()) {
          t.sides[s].acked[seq] = result.entry();
          moved = true;
        }
        over = over || r->command_result().error().rule() == "match.over";
      }
      if (alive && (over || !moved)) {
        auto id = new_match(*c[0], *c[1]);
        if (id) {
          tracks.push_back({*id, {}, {}});
        } else {
          alive = false;
        }
      }
    }
    killer.join();
    server.wait(5s);
    ++kills;
  }
  EXPECT_GE(kills, kKills);

  // The life after the last kill: end every match and check its record.
  ASSERT_TRUE(last);
  ServerProcess& server = *last;
  auto alice = greeted_client(server.ws_url());
  ASSERT_TRUE(call(*alice, req::login("alice", "alice-password")).has_session());
  std::size_t total = 0;
  for (const auto& t : tracks) {
    v1::ClientEnvelope resign;
    resign.mutable_resign()->set_match_id(t.id);
    call(*alice, resign);  // an ended match refuses; that is fine
    v1::ClientEnvelope exp;
    exp.mutable_export_record()->set_match_id(t.id);
    auto record = call(*alice, exp);
    ASSERT_TRUE(record.has_record()) << record.DebugString();
    const v1::MatchRecord& r = record.record();
    EXPECT_EQ(wire::verify_record(r), std::nullopt);
    std::size_t acked = 0;
    std::set<std::uint32_t> entries;
    for (int s = 0; s < 2; ++s) {
      for (const auto& [seq, entry] : t.sides[s].acked) {
        ++acked;
        ASSERT_LT(entry, static_cast<std::uint32_t>(r.entries_size()));
        EXPECT_EQ(r.entries(entry).kind(), v1::ENTRY_COMMAND);
        EXPECT_EQ(r.entries(entry).side(), s == 0 ? v1::SIDE_A : v1::SIDE_B);
        EXPECT_TRUE(entries.insert(entry).second) << "two acknowledgements name entry " << entry;
      }
    }
    std::size_t commands = 0;
    for (const auto& e : r.entries())
      commands += e.kind() == v1::ENTRY_COMMAND;
    // Every command in the log was acknowledged once (a commit whose answer was lost in a
    // kill was answered again, from the store, when re-sent): none applied twice, none lost.
    if (commands != acked) {
      std::string entries_text;
      for (int i = 0; i < r.entries_size(); ++i) {
        entries_text += std::to_string(i) + ": kind " + std::to_string(r.entries(i).kind()) +
                        " side " + std::to_string(r.entries(i).side()) +
                        (entries.count(static_cast<std::uint32_t>(i)) ? " acked" : "") + "\n";
      }
      std::string journal;
      for (const auto& j : t.journal)
        journal += j + "\n";
      ADD_FAILURE() << "match " << t.id << ": " << commands << " commands in the log, " << acked
                    << " acknowledged\nlog:\n"
                    << entries_text << "journal:\n"
                    << journal << "server:\n"
                    << server_trouble(server.log_path());
    }
    total += acked;
  }
  EXPECT_GT(total, 50u);
}

}  // namespace
}  // namespace castra::testing
