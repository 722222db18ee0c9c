// bench_store: appends per second through SqliteMatchStore on a real file, with
// synchronous=FULL and NORMAL, single (one client waiting for each acknowledgement) and grouped
// (16 clients at once, as many matches would; or a burst queued without waiting). A build
// target, not a test: `cmake --build build --target bench_store && build/tests/store/bench_store`.
// The file goes under $CASTRA_BENCH_DIR if set, else the system's temporary directory.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <future>
#include <thread>
#include <vector>

#include "server/store/sqlite_match_store.hpp"

namespace castra::store {
namespace {

namespace fs = std::filesystem;

// A fresh database in its own directory, removed at the end.
class BenchDb {
 public:
  explicit BenchDb(Durability durability) {
    const char* base = std::getenv("CASTRA_BENCH_DIR");
    std::string tmpl = (fs::path(base != nullptr ? base : fs::temp_directory_path().string()) /
                        "castra-bench-XXXXXX")
                           .string();
    dir_ = mkdtemp(tmpl.data()) != nullptr ? tmpl : "";
    StoreOptions options;
    options.database.path = dir_ + "/castra.db";
    options.database.durability = durability;
    status_ = SqliteMatchStore::open(options, &store_);
  }
  ~BenchDb() {
    store_.reset();
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  SqliteMatchStore* store() { return store_.get(); }
  const Status& status() const { return status_; }

 private:
  std::string dir_;
  Status status_;
  std::unique_ptr<SqliteMatchStore> store_;
};

MatchRow bench_match(const std::string& id) {
  MatchRow row;
  row.id = id;
  row.ruleset = "optio";
  row.rules_version = "optio-1";
  row.scenario_name = "optio/training";
  row.scenario = std::string(2000, 's');
  row.settings = std::string(40, 'x');
  row.status = store::MatchStatus::kLive;
  row.dice_commitment = std::string(32, 'c');
  return row;
}

// One command's writes, about the size of a real one: an entry of a few events, the reply,
// and the match row's new turn.
AppendRequest command(const MatchRow& row, std::uint32_t index) {
  AppendRequest request;
  request.match_id = row.id;
  request.side = static_cast<int>(index % 2);
  request.client_seq = index;
  request.entry = LogRow{index, 1, request.side, index * 3u, 3, std::string(300, 'e'), {}};
  request.reply = std::string(60, 'r');
  request.match_update = row;
  request.match_update->to_act = index % 2 == 0 ? "B" : "A";
  request.match_update->updated_ms = index;
  return request;
}

Status append_and_wait(SqliteMatchStore& store, AppendRequest request) {
  std::promise<Status> done;
  store.append(std::move(request), [&](Status s) { done.set_value(std::move(s)); });
  return done.get_future().get();
}

// range(0): 0 FULL, 1 NORMAL. range(1): clients, each waiting for its acknowledgement before
// sending the next command (the server's way: one command in flight per match).
void BM_AppendAcknowledged(benchmark::State& state) {
  BenchDb db(state.range(0) == 0 ? Durability::kFull : Durability::kNormal);
  if (!db.status().ok()) {
    state.SkipWithError(db.status().message.c_str());
    return;
  }
  const int clients = static_cast<int>(state.range(1));
  std::vector<MatchRow> rows;
  for (int c = 0; c < clients; ++c) {
    rows.push_back(bench_match("m" + std::to_string(c)));
    db.store()->create_match(rows.back(), Secrets{std::string(32, 's'), {}, {}});
  }
  constexpr int kPerClient = 50;
  std::uint32_t next = 0;
  std::atomic<bool> failed{false};
  for (auto _ : state) {
    std::vector<std::thread> threads;
    for (int c = 0; c < clients; ++c) {
      threads.emplace_back([&, c, first = next] {
        for (std::uint32_t i = 0; i < kPerClient; ++i) {
          if (!append_and_wait(*db.store(), command(rows[c], first + i)).ok()) failed = true;
        }
      });
    }
    for (auto& t : threads)
      t.join();
    next += kPerClient;
  }
  if (failed) state.SkipWithError("an append failed");
  const WriterStats stats = db.store()->writer_stats();
  state.SetItemsProcessed(state.iterations() * clients * kPerClient);
  state.counters["appends_per_commit"] =
      static_cast<double>(stats.jobs) /
      static_cast<double>(std::max<std::uint64_t>(stats.commits, 1));
}

// range(0): 0 FULL, 1 NORMAL. A burst of 1000 appends queued without waiting, then a flush.
void BM_AppendBurst(benchmark::State& state) {
  BenchDb db(state.range(0) == 0 ? Durability::kFull : Durability::kNormal);
  if (!db.status().ok()) {
    state.SkipWithError(db.status().message.c_str());
    return;
  }
  const MatchRow row = bench_match("burst");
  db.store()->create_match(row, Secrets{std::string(32, 's'), {}, {}});
  constexpr int kBurst = 1000;
  std::uint32_t next = 0;
  for (auto _ : state) {
    for (int i = 0; i < kBurst; ++i)
      db.store()->append(command(row, next++), nullptr);
    if (!db.store()->flush().ok()) state.SkipWithError("a commit failed");
  }
  const WriterStats stats = db.store()->writer_stats();
  state.SetItemsProcessed(state.iterations() * kBurst);
  state.counters["appends_per_commit"] =
      static_cast<double>(stats.jobs) /
      static_cast<double>(std::max<std::uint64_t>(stats.commits, 1));
}

BENCHMARK(BM_AppendAcknowledged)
    ->ArgNames({"normal", "clients"})
    ->Args({0, 1})
    ->Args({1, 1})
    ->Args({0, 16})
    ->Args({1, 16})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AppendBurst)
    ->ArgNames({"normal"})
    ->Arg(0)
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace castra::store

BENCHMARK_MAIN();
