// store_crash_child: plays toy matches through SqliteMatchStore as the server will, until it is
// killed. Run by store_crash_test, which kills it with SIGKILL at random moments and starts it
// again. It tells the parent what happens, one line per fact, on file descriptor 3:
//   RECOVERED <loadable> <closed>      after start-up recovery
//   CLOSED <match> <why-hex>           a match whose replay disagreed (never expected)
//   RESUMED <match> <state-hash>       each recovered match, as its replay left it
//   READY                              about to play
//   CREATED <match> / SEATED <match> <state-hash> / FINISHED <match>
//   SEND <match> <side> <seq> <command-hex>    before the command goes to the store
//   ACK <match> <side> <seq> <reply-hex>       only from the commit callback
//   DUP <match> <side> <seq> <reply-hex>       a resent command found already answered
//   FAIL <what>                        something the parent must treat as a failure
// The parent keeps the client's memory (its last command per match and side, acknowledged or
// not) in --client FILE: "<match> <side> <seq> <acked 0|1> <command-hex>" per line; the child
// re-sends every command not acknowledged, with the same client_seq.
// Threading: one thread per match, plus the store's writer (callbacks).
#include <sodium.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "server/store/recovery.hpp"
#include "server/store/sqlite_match_store.hpp"
#include "tests/store/toy_store.hpp"

namespace castra::store {
namespace {

using toy_store::ToyMatch;
constexpr int kReportFd = 3;
constexpr std::uint32_t kSnapshotEvery = 5;

void report(const std::string& line) {
  const std::string out = line + "\n";
  // Shorter than PIPE_BUF: one write, never interleaved with another thread's line.
  if (::write(kReportFd, out.data(), out.size()) != static_cast<ssize_t>(out.size())) _exit(5);
}

[[noreturn]] void fail(const std::string& what) {
  report("FAIL " + what);
  _exit(4);
}

std::string hex(std::string_view bytes) {
  return match::to_hex(bytes);
}

std::string random_bytes(std::size_t n) {
  std::string out(n, '\0');
  randombytes_buf(out.data(), n);
  return out;
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string encode(const toy::Command& c) {
  rules::ByteWriter w;
  toy_store::encode_command(c, w);
  return w.take();
}

// What the client remembers of its last command for one side of one match.
struct Remembered {
  std::int64_t seq = 0;
  bool acked = true;
  std::string command;  // encoded
};
using Key = std::pair<std::string, int>;

struct Options {
  std::string db;
  std::string client;
  Durability durability = Durability::kFull;
  int matches = 6;
  int goal = 60;
};

class Child {
 public:
  Child(Options options, std::unique_ptr<SqliteMatchStore> store)
      : options_(std::move(options)), store_(std::move(store)) {}

  void run() {
    read_client_memory();
    recover();
    answer_resends_of_matches_not_loaded();
    report("READY");
    std::vector<std::thread> players;
    for (auto& [id, m] : loaded_) {
      players.emplace_back([this, id = id, m = std::move(m)]() mutable { play(std::move(m)); });
    }
    for (int i = static_cast<int>(loaded_.size()); i < options_.matches; ++i) {
      players.emplace_back([this] { play(create()); });
    }
    for (auto& t : players)
      t.join();  // never: each player starts a new match after its end
  }

 private:
  void read_client_memory() {
    std::ifstream in(options_.client);
    std::string id, command;
    int side = 0, acked = 0;
    std::int64_t seq = 0;
    while (in >> id >> side >> seq >> acked >> command) {
      auto bytes = match::bytes_from_hex(command);
      if (!bytes) fail("unreadable client memory");
      memory_[{id, side}] = Remembered{seq, acked != 0, *bytes};
    }
  }

  void recover() {
    Recovery recovery;
    const Status s = recover_matches(
        *store_,
        [&](const MatchRow& row, const std::optional<Snapshot>& snapshot,
            const std::vector<LogRow>& log) {
          std::optional<Secrets> secrets;
          if (!store_->secrets(row.id, &secrets).ok() || !secrets) return false;
          toy_store::Replayed replayed = toy_store::replay(row, *secrets, snapshot, log);
          if (!replayed.match) {
            report("CLOSED " + row.id + " " + hex(replayed.why));
            return false;
          }
          report("RESUMED " + row.id + " " + match::to_hex(replayed.match->full_state_hash()));
          rows_[row.id] = row;
          loaded_.emplace(row.id, std::move(*replayed.match));
          return true;
        },
        now_ms(), &recovery);
    if (!s.ok()) fail("recovery: " + s.message);
    report("RECOVERED " + std::to_string(recovery.loadable.size()) + " " +
           std::to_string(recovery.closed.size()));
  }

  // A resent command of a match that is over: it can only have been committed already.
  void answer_resends_of_matches_not_loaded() {
    for (const auto& [key, r] : memory_) {
      if (r.acked || loaded_.count(key.first) != 0) continue;
      std::optional<std::string> reply;
      if (!store_->find_reply(key.first, key.second, r.seq, &reply).ok()) fail("find_reply");
      if (!reply) fail("unanswered command of a match that is not live: " + key.first);
      report("DUP " + key.first + " " + std::to_string(key.second) + " " + std::to_string(r.seq) +
             " " + hex(*reply));
    }
  }

  ToyMatch create() {
    const std::string id = "m" + hex(random_bytes(6));
    match::Bytes32 seed{};
    randombytes_buf(seed.data(), seed.size());
    ToyMatch m = toy_store::new_toy_match(id, options_.goal, seed);
    MatchRow row = toy_store::new_match_row(m, now_ms());
    const Status s =
        store_->create_match(row, Secrets{toy_store::as_string(seed), std::nullopt, std::nullopt});
    if (!s.ok()) fail("create_match: " + s.message);
    {
      std::lock_guard lock(mutex_);
      rows_[id] = row;
    }
    report("CREATED " + id);
    return m;
  }

  MatchRow& row_of(const std::string& id) {
    std::lock_guard lock(mutex_);
    return rows_[id];
  }

  Status append_and_wait(AppendRequest request, const std::function<void()>& on_commit) {
    std::promise<Status> done;
    store_->append(std::move(request), [&](Status s) {
      if (s.ok()) on_commit();
      done.set_value(std::move(s));
    });
    return done.get_future().get();
  }

  void play(ToyMatch m) {
    for (;;) {
      const std::string id = m.id();
      MatchRow& row = row_of(id);
      if (!m.started()) {
        AppendRequest seat =
            toy_store::seat_both(m, row, random_bytes(16), random_bytes(16), now_ms());
        const std::string hash = match::to_hex(m.full_state_hash());
        const Status s =
            append_and_wait(std::move(seat), [&] { report("SEATED " + id + " " + hash); });
        if (!s.ok()) fail("seat: " + s.message);
      }
      std::int64_t last[2] = {0, 0};
      for (int side = 0; side < 2; ++side) {
        auto at = memory_.find({id, side});
        if (at == memory_.end()) continue;
        last[side] = at->second.seq;
        if (!at->second.acked) {
          auto command = toy_store::decode_command_bytes(at->second.command);
          if (!command) fail("unreadable remembered command");
          send(m, row, toy_store::side_of(side), at->second.seq, *command);
        }
      }
      while (!m.outcome()) {
        const rules::Side side = toy_store::acting_side(m);
        const std::int64_t seq = ++last[rules::index(side)];
        send(m, row, side, seq, toy_store::next_command(m, seq));
      }
      report("FINISHED " + id);
      m = create();
    }
  }

  // A client's command with its client_seq, as the server's runtime will take it.
  void send(ToyMatch& m, MatchRow& row, rules::Side side, std::int64_t seq,
            const toy::Command& command) {
    const std::string where =
        m.id() + " " + std::to_string(rules::index(side)) + " " + std::to_string(seq);
    report("SEND " + where + " " + hex(encode(command)));
    std::optional<std::string> first;
    if (!store_->find_reply(m.id(), rules::index(side), seq, &first).ok()) fail("find_reply");
    if (first) {
      report("DUP " + where + " " + hex(*first));
      return;
    }
    match::Bytes32 salt{};
    randombytes_buf(salt.data(), salt.size());
    AppendRequest request =
        toy_store::command_request(m, row, side, seq, command, kSnapshotEvery, now_ms(), salt);
    // The reply carries the state hash the player is told, so the parent can check resumption.
    request.reply += " " + match::to_hex(m.full_state_hash());
    const std::string reply = request.reply;
    const Status s =
        append_and_wait(std::move(request), [&] { report("ACK " + where + " " + hex(reply)); });
    if (!s.ok()) fail("append " + where + ": " + s.message);
  }

  const Options options_;
  std::unique_ptr<SqliteMatchStore> store_;
  std::map<Key, Remembered> memory_;  // read before the players start; read-only after
  std::map<std::string, ToyMatch> loaded_;
  std::mutex mutex_;
  std::map<std::string, MatchRow> rows_;  // std::map: references stay valid as it grows
};

}  // namespace
}  // namespace castra::store

int main(int argc, char** argv) {
  using namespace castra::store;
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--db") {
      options.db = value;
    } else if (flag == "--client") {
      options.client = value;
    } else if (flag == "--durability") {
      options.durability = value == "normal" ? Durability::kNormal : Durability::kFull;
    } else if (flag == "--matches") {
      options.matches = std::atoi(value.c_str());
    } else if (flag == "--goal") {
      options.goal = std::atoi(value.c_str());
    }
  }
  if (sodium_init() < 0) fail("sodium_init");
  spdlog::set_level(spdlog::level::warn);
  StoreOptions store_options;
  store_options.database.path = options.db;
  store_options.database.durability = options.durability;
  std::unique_ptr<SqliteMatchStore> store;
  if (const Status s = SqliteMatchStore::open(store_options, &store); !s.ok()) {
    fail("open: " + s.message);
  }
  Child(options, std::move(store)).run();
  return 0;
}
