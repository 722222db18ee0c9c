// The crash test: store_crash_child plays toy matches through the store; this test kills it
// with SIGKILL at random moments, again and again, restarting it each time with the client's
// memory (re-sending every unacknowledged command with the same client_seq, and now and then
// one whose acknowledgement was "lost"). Then: every acknowledged command is in the store with
// the reply the player got, nothing was applied twice, and every match resumed with the state
// hash of its replay, which is the state the player was last told.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "server/store/recovery.hpp"
#include "server/store/sqlite_match_store.hpp"
#include "tests/store/file_util.hpp"
#include "tests/store/toy_store.hpp"
#include "tests/support/server_process.hpp"

namespace castra::store {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr int kKills = 25;

struct Key {
  std::string match;
  int side = 0;
  std::int64_t seq = 0;
  auto operator<=>(const Key&) const = default;
};

// What the client side knows, kept across the child's lives (the child's memory dies with it).
class Client {
 public:
  void sent(const std::string& match, int side, std::int64_t seq, const std::string& command) {
    auto& last = last_[{match, side}];
    last = Last{seq, false, command};
    pending_[match] = Key{match, side, seq};
  }
  // An acknowledgement (ACK) or a repeated answer (DUP) for a command.
  void answered(const Key& key, const std::string& reply, bool dup) {
    auto& last = last_[{key.match, key.side}];
    ASSERT_EQ(last.seq, key.seq) << "an answer for a command the client did not send last";
    last.acked = true;
    const bool was_pending = pending_.count(key.match) != 0 && pending_[key.match] == key;
    if (was_pending) pending_.erase(key.match);
    auto [at, fresh] = answers_.emplace(key, reply);
    if (!fresh) {
      ASSERT_TRUE(dup) << "acknowledged twice: " << key.match << " " << key.seq;
      EXPECT_EQ(at->second, reply) << "a repeated command must get its first answer";
    }
    if (dup) ++dups_;
    if (!dup && resent_.count(key) != 0) ++resent_then_applied_;
    const std::string after = reply.substr(reply.rfind(' ') + 1);
    // A match resumed while this command was unanswered: found committed, it must have resumed
    // after it; applied only now, before it.
    if (auto waiting = awaiting_.find(key.match);
        waiting != awaiting_.end() && waiting->second.first == key) {
      EXPECT_EQ(waiting->second.second, dup ? after : state_hash_[key.match])
          << "match " << key.match << " resumed elsewhere";
      ++resumptions_checked_;
      awaiting_.erase(waiting);
    }
    // A repeated answer to an older command (one whose acknowledgement was "lost" while the
    // other side has played since) tells an old state: the client keeps the newer one.
    if (!dup || was_pending) state_hash_[key.match] = after;
  }
  void seated(const std::string& match, const std::string& hash) { state_hash_[match] = hash; }
  // A resumed match must be where the client was last told it is; if its last command is
  // still unanswered, before or after that command, as the answer to it will tell.
  void resumed(const std::string& match, const std::string& hash) {
    if (state_hash_.count(match) == 0) return;  // killed before its seating was reported
    if (auto pending = pending_.find(match); pending != pending_.end()) {
      awaiting_[match] = {pending->second, hash};  // decided by the answer to that command
      return;
    }
    EXPECT_EQ(state_hash_[match], hash) << "match " << match << " resumed elsewhere";
    ++resumptions_checked_;
  }

  // Writes the memory the next child starts from. With `lose` one acknowledged command is
  // marked unacknowledged, as if its acknowledgement had been lost on the way.
  void write(const std::string& path, std::mt19937& random, bool lose) {
    std::vector<std::pair<std::string, int>> acked;
    for (const auto& [k, last] : last_) {
      if (last.acked) acked.push_back(k);
    }
    std::pair<std::string, int> lost;
    if (lose && !acked.empty()) lost = acked[random() % acked.size()];
    resent_.clear();
    std::ofstream out(path, std::ios::trunc);
    for (const auto& [k, last] : last_) {
      const bool acked_here = last.acked && k != lost;
      if (!acked_here) resent_.insert(Key{k.first, k.second, last.seq});
      out << k.first << " " << k.second << " " << last.seq << " " << (acked_here ? 1 : 0) << " "
          << last.command << "\n";
    }
    if (!lost.first.empty()) ++lost_acks_;
  }

  const std::map<Key, std::string>& answers() const { return answers_; }
  int dups() const { return dups_; }
  int lost_acks() const { return lost_acks_; }
  int resent_then_applied() const { return resent_then_applied_; }
  int resumptions_checked() const { return resumptions_checked_; }

 private:
  struct Last {
    std::int64_t seq = 0;
    bool acked = true;
    std::string command;
  };
  std::map<std::pair<std::string, int>, Last> last_;
  std::map<std::string, Key> pending_;  // per match: its command not answered yet
  std::map<Key, std::string> answers_;  // every answer the client got, by command
  std::map<std::string, std::string> state_hash_;
  std::set<Key> resent_;
  std::map<std::string, std::pair<Key, std::string>> awaiting_;  // match: command, resumed hash
  int dups_ = 0;
  int lost_acks_ = 0;
  int resent_then_applied_ = 0;
  int resumptions_checked_ = 0;
};

std::string unhex(const std::string& h) {
  return match::bytes_from_hex(h).value_or("<bad hex>");
}

class StoreCrashTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::make_temp_dir("castra-crash");
    db_ = dir_ + "/castra.db";
  }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }

  // One life of the child: started, fed its lines to the client, killed after `life`.
  void run_child(bool normal, std::chrono::milliseconds life) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    const std::string child_log = dir_ + "/child.log";
    const pid_t pid = fork();
    if (pid == 0) {
      close(fds[0]);  // first: it may be descriptor 3 itself
      if (fds[1] != 3) {
        dup2(fds[1], 3);
        close(fds[1]);
      }
      const int out = open(child_log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      dup2(out, 1);
      dup2(out, 2);
      const std::string exe = testing::binary_dir() + "/tests/store/store_crash_child";
      execl(exe.c_str(), exe.c_str(), "--db", db_.c_str(), "--client", (dir_ + "/client").c_str(),
            "--durability", normal ? "normal" : "full", "--matches", "6", "--goal", "60",
            static_cast<char*>(nullptr));
      _exit(127);
    }
    close(fds[1]);
    const auto kill_at = Clock::now() + life;
    std::string buffer;
    bool killed = false;
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(kill_at - Clock::now()).count();
      if (!killed && left <= 0) {
        kill(pid, SIGKILL);
        killed = true;
      }
      pollfd p{fds[0], POLLIN, 0};
      poll(&p, 1, killed ? 1000 : static_cast<int>(std::max<long long>(left, 1)));
      char chunk[65536];
      const ssize_t n =
          (p.revents & (POLLIN | POLLHUP)) != 0 ? read(fds[0], chunk, sizeof chunk) : -2;
      if (n == 0) break;  // every line written before the kill has been read
      if (n > 0) {
        buffer.append(chunk, static_cast<std::size_t>(n));
        std::size_t end;
        while ((end = buffer.find('\n')) != std::string::npos) {
          handle(buffer.substr(0, end));
          buffer.erase(0, end + 1);
        }
      }
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "the child ended by itself; its log:\n"
        << test::read_bytes(child_log);
    EXPECT_TRUE(buffer.empty()) << "a line cut in half: " << buffer;
  }

  void handle(const std::string& line) {
    std::istringstream in(line);
    std::string what;
    in >> what;
    if (what == "SEND") {
      std::string match, command;
      int side = 0;
      std::int64_t seq = 0;
      in >> match >> side >> seq >> command;
      client_.sent(match, side, seq, command);
      ++sends_;
    } else if (what == "ACK" || what == "DUP") {
      Key key;
      std::string reply;
      in >> key.match >> key.side >> key.seq >> reply;
      client_.answered(key, unhex(reply), what == "DUP");
      if (what == "ACK") ++acks_;
    } else if (what == "SEATED") {
      std::string match, hash;
      in >> match >> hash;
      client_.seated(match, hash);
    } else if (what == "RESUMED") {
      std::string match, hash;
      in >> match >> hash;
      client_.resumed(match, hash);
      ++resumed_;
    } else if (what == "READY") {
      ++ready_;
    } else if (what == "FINISHED") {
      ++finished_;
    } else if (what == "CLOSED" || what == "FAIL") {
      ADD_FAILURE() << "the child says: " << line;
    }
  }

  // After the last kill, with nobody else on the file: checks the store itself.
  void check_store() {
    StoreOptions options;
    options.database.path = db_;
    std::unique_ptr<SqliteMatchStore> store;
    const Status opened = SqliteMatchStore::open(options, &store);
    ASSERT_TRUE(opened.ok()) << opened.message;

    // Every acknowledged command is there, with the answer the player got.
    for (const auto& [key, reply] : client_.answers()) {
      std::optional<std::string> stored;
      ASSERT_TRUE(store->find_reply(key.match, key.side, key.seq, &stored).ok());
      ASSERT_EQ(stored, reply) << key.match << " side " << key.side << " seq " << key.seq;
      if (reply.rfind("ok ", 0) != 0) continue;
      const auto index = static_cast<std::uint32_t>(std::stoul(reply.substr(3)));
      std::vector<LogRow> rows;
      ASSERT_TRUE(store->log_from(key.match, index, &rows).ok());
      ASSERT_FALSE(rows.empty());
      auto entry = toy_store::decode_entry(rows[0].entry, rows[0].salts);
      ASSERT_TRUE(entry);
      EXPECT_EQ(entry->client_seq, key.seq);
      EXPECT_EQ(rules::index(entry->entry.side), key.side);
    }

    // Nothing was applied twice, and every match replays, finished ones included.
    std::size_t commands = 0;
    for (MatchStatus status :
         {MatchStatus::kOpen, MatchStatus::kLive, MatchStatus::kFinished, MatchStatus::kClosed}) {
      std::vector<MatchRow> rows;
      ASSERT_TRUE(store->list_matches(status, -1, &rows).ok());
      EXPECT_TRUE(status != MatchStatus::kClosed || rows.empty()) << "a match was closed";
      for (const MatchRow& row : rows) {
        std::optional<Secrets> secrets;
        std::optional<Snapshot> snapshot;
        std::vector<LogRow> log;
        ASSERT_TRUE(store->secrets(row.id, &secrets).ok());
        ASSERT_TRUE(store->latest_snapshot(row.id, &snapshot).ok());
        ASSERT_TRUE(store->log_from(row.id, 0, &log).ok());
        const auto replayed = toy_store::replay(row, *secrets, snapshot, log);
        EXPECT_EQ(replayed.why, "") << row.id;
        std::set<std::pair<int, std::int64_t>> seen;
        std::int64_t last_seq[2] = {0, 0};
        for (std::size_t i = 0; i < log.size(); ++i) {
          const auto& seq =
              replayed.client_seqs.size() > i ? replayed.client_seqs[i] : std::nullopt;
          if (!seq) continue;
          ++commands;
          const int side = log[i].side;
          EXPECT_TRUE(seen.insert({side, *seq}).second) << row.id << " applied twice: " << *seq;
          EXPECT_GT(*seq, last_seq[side]) << row.id << ": client_seq out of order";
          last_seq[side] = *seq;
        }
      }
    }
    std::int64_t replies_with_entries = -1;
    ASSERT_TRUE(store
                    ->read([&](Db& db) {
                      Status s;
                      Lease q = db.statement(
                          "SELECT count(*) FROM command_replies WHERE entry_index IS NOT NULL", &s);
                      if (q->step(&s)) replies_with_entries = q->column_int(0);
                      return s;
                    })
                    .ok());
    EXPECT_EQ(static_cast<std::size_t>(replies_with_entries), commands)
        << "each applied command has exactly one reply, each such reply one entry";

    // And start-up recovery, run once more, keeps every unfinished match.
    Recovery recovery;
    ASSERT_TRUE(recover_matches(
                    *store,
                    [&](const MatchRow& row, const std::optional<Snapshot>& snapshot,
                        const std::vector<LogRow>& log) {
                      std::optional<Secrets> secrets;
                      store->secrets(row.id, &secrets);
                      return toy_store::replay(row, *secrets, snapshot, log).match.has_value();
                    },
                    0, &recovery)
                    .ok());
    EXPECT_TRUE(recovery.closed.empty());
  }

  std::string dir_;
  std::string db_;
  Client client_;
  int sends_ = 0;
  int acks_ = 0;
  int ready_ = 0;
  int resumed_ = 0;
  int finished_ = 0;
};

TEST_F(StoreCrashTest, KilledAtRandomMomentsItLosesNoAcknowledgedCommandAndAppliesNoneTwice) {
  const unsigned seed = std::random_device{}();
  std::mt19937 random(seed);
  RecordProperty("seed", std::to_string(seed));
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto started = Clock::now();
  for (int life = 0; life < kKills && !HasFailure(); ++life) {
    client_.write(dir_ + "/client", random, /*lose=*/life > 0 && random() % 3 == 0);
    // Mostly after start-up, sometimes during recovery itself.
    const auto ms = std::chrono::milliseconds(life % 5 == 4 ? random() % 60 : 150 + random() % 600);
    run_child(/*normal=*/life % 2 == 1, ms);
  }
  check_store();
  const auto seconds =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count() / 1e3;
  std::cout << "crash test: " << kKills << " kills in " << seconds << " s; " << sends_
            << " commands sent, " << acks_ << " acknowledged, " << client_.dups()
            << " answered as duplicates (" << client_.lost_acks() << " acknowledgements lost), "
            << client_.resent_then_applied() << " resent after a kill and applied once, "
            << finished_ << " matches finished, " << resumed_ << " resumptions ("
            << client_.resumptions_checked() << " checked against the client's last state)\n";
  EXPECT_GE(ready_, kKills / 2) << "most lives got past recovery";
  EXPECT_GE(acks_, 500) << "enough play to mean something";
  EXPECT_GE(client_.dups(), 1) << "a resent, already answered command was recognised";
  EXPECT_GE(client_.resumptions_checked(), kKills) << "resumed states were checked";
}

}  // namespace
}  // namespace castra::store
