#include "tests/store/power_loss_trial.hpp"

#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "server/store/recovery.hpp"
#include "server/store/sqlite_match_store.hpp"
#include "tests/store/file_util.hpp"
#include "tests/store/toy_store.hpp"

namespace castra::store::test {

namespace {

using toy_store::ToyMatch;
constexpr std::uint32_t kSnapshotEvery = 5;
constexpr int kGoal = 12;  // short matches: some end and new ones begin within a run

// What the players were told: a commit callback that said ok.
struct Ack {
  std::string match;
  int side = 0;
  std::optional<std::int64_t> client_seq;  // nullopt: the match's creation or seating
  std::string reply;
  std::optional<std::uint32_t> entry_index;
};

class Acks {
 public:
  void add(Ack ack) {
    std::lock_guard lock(mutex_);
    acks_.push_back(std::move(ack));
  }
  std::vector<Ack> all() const {
    std::lock_guard lock(mutex_);
    return acks_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Ack> acks_;
};

std::string drawn_bytes(std::mt19937_64& rng, std::size_t n) {
  std::string out(n, '\0');
  for (char& c : out)
    c = static_cast<char>(rng());
  return out;
}

// Appends and waits for the commit callback; the Ack is recorded only from inside it.
bool append_and_wait(SqliteMatchStore& store, AppendRequest request, Ack ack, Acks& acks) {
  std::promise<bool> done;
  store.append(std::move(request), [&](Status s) {
    if (s.ok()) acks.add(std::move(ack));
    done.set_value(s.ok());
  });
  return done.get_future().get();
}

// One player thread: creates matches, seats both sides and plays them (both sides, as the
// crash child does), `commands` commands in all, until the store fails.
void play(SqliteMatchStore& store, Acks& acks, std::uint64_t seed, int commands) {
  std::mt19937_64 rng(seed);
  std::optional<ToyMatch> m;
  MatchRow row;
  std::int64_t seq[2] = {0, 0};
  for (int sent = 0; sent < commands;) {
    if (!m || m->outcome()) {
      const std::string id = "m" + match::to_hex(drawn_bytes(rng, 6));
      const match::Bytes32 seed_bytes = toy_store::test_seed(id);
      m = toy_store::new_toy_match(id, kGoal, seed_bytes);
      row = toy_store::new_match_row(*m, 1);
      AppendRequest create;
      create.match_id = id;
      create.create = true;
      create.match_update = row;
      create.secrets_update = Secrets{toy_store::as_string(seed_bytes), std::nullopt, std::nullopt};
      if (!append_and_wait(store, std::move(create), Ack{id, 0, std::nullopt, "", std::nullopt},
                           acks)) {
        return;
      }
      AppendRequest seat =
          toy_store::seat_both(*m, row, drawn_bytes(rng, 16), drawn_bytes(rng, 16), 2);
      if (!append_and_wait(store, std::move(seat), Ack{id, 0, std::nullopt, "", 0u}, acks)) return;
      seq[0] = seq[1] = 0;
    }
    const rules::Side side = toy_store::acting_side(*m);
    const std::int64_t client_seq = ++seq[rules::index(side)];
    match::Bytes32 salt{};
    for (auto& b : salt)
      b = static_cast<std::uint8_t>(rng());
    AppendRequest request = toy_store::command_request(*m, row, side, client_seq,
                                                       toy_store::next_command(*m, client_seq),
                                                       kSnapshotEvery, 3, salt);
    Ack ack{m->id(), rules::index(side), client_seq, request.reply, std::nullopt};
    if (request.entry) ack.entry_index = request.entry->entry_index;
    if (!append_and_wait(store, std::move(request), std::move(ack), acks)) return;
    ++sent;
  }
}

// One run of the store: open, play, close (the last run's close after the power is cut).
// False when the store could not open (the power failed while it opened) or the power is off.
bool run_store(const TrialOptions& options, std::uint64_t run, bool last, Acks& acks,
               std::string* failure) {
  StoreOptions store_options;
  store_options.database.path = options.dir + "/castra.db";
  store_options.database.durability = options.durability;
  std::unique_ptr<SqliteMatchStore> store;
  if (Status s = SqliteMatchStore::open(store_options, &store); !s.ok()) {
    if (!power_is_off()) *failure = "the store does not open (power on): " + s.message;
    return false;
  }
  std::vector<std::thread> players;
  for (int i = 0; i < options.players; ++i) {
    const std::uint64_t seed = options.seed * 1000 + run * 100 + static_cast<std::uint64_t>(i);
    players.emplace_back(
        [&store, &acks, seed, n = options.commands_per_run] { play(*store, acks, seed, n); });
  }
  for (auto& t : players)
    t.join();
  if (last) cut_power();  // if it has not failed yet: the store's next write or sync would
  return !power_is_off();
}

Status integrity(SqliteMatchStore& store) {
  return store.read([](Db& db) {
    Status s;
    Statement check = db.prepare("PRAGMA integrity_check", &s);
    std::string problems;
    while (s.ok() && check.step(&s)) {
      if (check.column_text(0) != "ok") problems += check.column_text(0) + "; ";
    }
    if (!s.ok()) return s;
    return problems.empty() ? Status::success() : Status{1, problems};
  });
}

// After the reboot: open, check, recover, and look for every acknowledgement.
void check_after_reboot(const TrialOptions& options, const std::vector<Ack>& acks,
                        TrialResult* result) {
  StoreOptions store_options;
  store_options.database.path = options.dir + "/castra.db";
  store_options.database.durability = options.durability;
  std::unique_ptr<SqliteMatchStore> store;
  if (Status s = SqliteMatchStore::open(store_options, &store); !s.ok()) {
    result->failure = "the database does not open after the power loss: " + s.message;
    return;
  }
  if (Status s = integrity(*store); !s.ok()) {
    result->failure = "integrity_check: " + s.message;
    return;
  }
  Recovery recovery;
  std::string why_closed;
  const Status recovered = recover_matches(
      *store,
      [&](const MatchRow& row, const std::optional<Snapshot>& snapshot,
          const std::vector<LogRow>& log) {
        std::optional<Secrets> secrets;
        if (!store->secrets(row.id, &secrets).ok() || !secrets) return false;
        toy_store::Replayed replayed = toy_store::replay(row, *secrets, snapshot, log);
        if (!replayed.match) why_closed = row.id + ": " + replayed.why;
        return replayed.match.has_value();
      },
      4, &recovery);
  if (!recovered.ok()) {
    result->failure = "recovery: " + recovered.message;
    return;
  }
  if (!recovery.closed.empty()) {
    result->failure = "recovery closed a match whose log does not replay: " + why_closed;
    return;
  }
  std::map<std::string, std::vector<LogRow>> logs;
  for (const Ack& ack : acks) {
    bool kept = true;
    std::optional<MatchRow> row;
    if (Status s = store->find_match(ack.match, &row); !s.ok()) {
      result->failure = "find_match: " + s.message;
      return;
    }
    kept = row.has_value();
    if (kept && ack.client_seq) {
      std::optional<std::string> reply;
      if (Status s = store->find_reply(ack.match, ack.side, *ack.client_seq, &reply); !s.ok()) {
        result->failure = "find_reply: " + s.message;
        return;
      }
      if (reply && *reply != ack.reply) {
        result->failure = "match " + ack.match + " seq " + std::to_string(*ack.client_seq) +
                          ": the stored reply is not the one acknowledged";
        return;
      }
      kept = reply.has_value();
    }
    if (kept && ack.entry_index) {
      auto [at, fresh] = logs.try_emplace(ack.match);
      if (fresh) {
        if (Status s = store->log_from(ack.match, 0, &at->second); !s.ok()) {
          result->failure = "log_from: " + s.message;
          return;
        }
      }
      kept = *ack.entry_index < at->second.size();
      if (kept) {
        const LogRow& entry = at->second[*ack.entry_index];
        auto stored = toy_store::decode_entry(entry.entry, entry.salts);
        if (!stored || stored->client_seq != ack.client_seq) {
          result->failure = "match " + ack.match + " entry " + std::to_string(*ack.entry_index) +
                            " is not the acknowledged command's";
          return;
        }
      }
    }
    if (!kept) ++result->lost;
  }
  if (options.durability == Durability::kFull && result->lost > 0) {
    result->failure = std::to_string(result->lost) + " of " + std::to_string(acks.size()) +
                      " acknowledged commits lost under synchronous=FULL";
    return;
  }
  store.reset();  // a clean close: the checkpoint moves every page into the main file
  const std::string file = read_bytes(options.dir + "/castra.db");
  if (!every_page_has_its_checksum(file)) result->failure = "a page without its checksum";
}

}  // namespace

TrialResult run_power_loss_trial(const TrialOptions& options) {
  install_power_loss_vfs();
  std::mt19937_64 rng(options.seed);
  TrialResult result;
  Acks acks;
  fail_power_at(options.fail_at);
  for (std::uint64_t run = 0; run < 2; ++run) {
    if (!run_store(options, run, run == 1, acks, &result.failure)) break;
  }
  if (!result.failure.empty()) return result;
  result.operations = operations();
  const std::vector<Ack> told = acks.all();
  result.acknowledged = told.size();
  result.reboot = reboot(rng);
  check_after_reboot(options, told, &result);
  return result;
}

}  // namespace castra::store::test

namespace castra::store::test {

Summary run_power_loss_trials(const std::string& dir, Durability durability, int trials,
                              std::uint64_t seed) {
  Summary summary;
  std::mt19937_64 rng(seed);
  auto trial_dir = [&](const std::string& name) {
    const std::string path = dir + "/" + name;
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
    return path;
  };
  // A run the power survives to its end says how many operations a trial has.
  TrialOptions measure{trial_dir("measure"), durability, seed, 0};
  const TrialResult full_run = run_power_loss_trial(measure);
  if (!full_run.failure.empty()) {
    summary.failure = "the run without a power cut: " + full_run.failure;
    return summary;
  }
  std::filesystem::remove_all(measure.dir);
  summary.operations_per_run = full_run.operations;
  for (int i = 0; i < trials; ++i) {
    TrialOptions options;
    options.durability = durability;
    options.seed = rng();
    // A tenth past the end: some trials lose the power after the last command.
    options.fail_at = 1 + rng() % (full_run.operations + full_run.operations / 10 + 1);
    options.dir = trial_dir("trial");
    const TrialResult r = run_power_loss_trial(options);
    ++summary.trials;
    summary.acknowledged += r.acknowledged;
    summary.lost += r.lost;
    summary.unsynced_writes += r.reboot.unsynced_writes;
    summary.sectors_kept += r.reboot.sectors_kept;
    summary.sectors_lost += r.reboot.sectors_lost;
    if (!r.failure.empty()) {
      summary.failure = "trial " + std::to_string(i) + " (seed " + std::to_string(options.seed) +
                        ", power failed at operation " + std::to_string(options.fail_at) +
                        ", files kept in " + options.dir + "): " + r.failure;
      return summary;
    }
    std::filesystem::remove_all(options.dir);
  }
  return summary;
}

}  // namespace castra::store::test
