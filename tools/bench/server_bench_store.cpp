// One store append with its commit: the writes MatchHost makes for each command of the
// training games after deployment (taken from a real host), through SqliteMatchStore's writer
// to a fresh file. Arguments: the game; 0 synchronous=FULL, 1 NORMAL; how many matches append
// one command each and wait for all of them (1: one append per commit; more: their appends
// arrive together and share commits, as live matches' commands do). The CPU time is the
// whole process's (the writer thread does the work).
#include <benchmark/benchmark.h>

#include <atomic>

#include "tools/bench/allocations.hpp"
#include "tools/bench/bench_server.hpp"

namespace castra::bench {
namespace {

struct Captured {
  std::vector<store::AppendRequest> appends;  // one per command, in order
  std::string error;
};

Captured capture(const Game& g) {
  Captured c;
  auto memory = open_store(":memory:", store::Durability::kFull, &c.error);
  if (!memory) return c;
  RecordingStore recording(*memory);
  server::ManualClock clock(1'700'000'000'000);
  auto host = start_host(g, "bench-store", g.first_play, recording, clock, &c.error);
  if (!host) return c;
  recording.take();
  Latch latch;
  for (std::size_t i = g.first_play; i + 1 < g.lines.size(); ++i) {
    if (!play(*host, g, i, latch)) {
      c.error = "a command is refused";
      return c;
    }
  }
  c.appends = recording.take();
  return c;
}

const Captured& captured(std::int64_t which) {
  static const Captured kOptio = capture(game(0));
  static const Captured kStand = capture(game(1));
  return which == 0 ? kOptio : kStand;
}

// Append `r` again for match `id`, `round` times past its first use: the keys it writes
// (entry index, client_seq, snapshot) moved past every earlier round's.
store::AppendRequest again(const store::AppendRequest& r, const std::string& id,
                           std::uint32_t round) {
  const std::uint32_t offset = round * 1000;
  store::AppendRequest out = r;
  out.match_id = id;
  if (out.match_update) out.match_update->id = id;
  if (out.entry) out.entry->entry_index += offset;
  if (out.client_seq) *out.client_seq += offset;
  if (out.snapshot) out.snapshot->entry_count += offset;
  return out;
}

void BM_StoreAppendCommit(benchmark::State& state) {
  const Captured& c = captured(state.range(0));
  if (!c.error.empty()) return state.SkipWithError(c.error.c_str());
  TempDir dir;
  std::string error;
  auto store = open_store(
      dir.path() + "/castra.db",
      state.range(1) == 0 ? store::Durability::kFull : store::Durability::kNormal, &error);
  if (!store) return state.SkipWithError(error.c_str());
  const auto matches = static_cast<std::size_t>(state.range(2));
  std::vector<std::string> ids;
  for (std::size_t m = 0; m < matches; ++m) {
    ids.push_back("bench-" + std::to_string(m));
    store::MatchRow row = *c.appends.front().match_update;
    row.id = ids.back();
    if (!store->create_match(row, {std::string(32, 's'), {}, {}}).ok()) {
      return state.SkipWithError("a match is not stored");
    }
  }
  const store::WriterStats before = store->writer_stats();
  std::vector<store::AppendRequest> round;  // this round's appends, match by match
  std::size_t next = 0;
  std::uint32_t rounds = 0;
  Latch latch;
  std::atomic<bool> failed{false};
  AllocationMeter meter;
  for (auto _ : state) {
    if (next == round.size()) {
      state.PauseTiming();
      meter.pause();
      round.clear();
      for (const auto& r : c.appends) {
        for (const auto& id : ids)
          round.push_back(again(r, id, rounds));
      }
      ++rounds;
      next = 0;
      meter.resume();
      state.ResumeTiming();
    }
    latch.arm(static_cast<int>(matches));
    for (std::size_t m = 0; m < matches; ++m) {
      store->append(std::move(round[next++]), [&latch, &failed](store::Status st) {
        if (!st.ok()) failed = true;
        latch.count_down();
      });
    }
    latch.wait();
  }
  meter.report(state, static_cast<double>(matches));
  if (failed) return state.SkipWithError("an append failed");
  const store::WriterStats after = store->writer_stats();
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(matches));
  state.counters["appends_per_commit"] =
      static_cast<double>(after.jobs - before.jobs) /
      static_cast<double>(std::max<std::uint64_t>(after.commits - before.commits, 1));
  state.SetLabel(game(state.range(0)).name + (state.range(1) == 0 ? " FULL" : " NORMAL"));
}

BENCHMARK(BM_StoreAppendCommit)
    ->ArgNames({"game", "normal", "matches"})
    ->ArgsProduct({{0, 1}, {0, 1}, {1, 4, 16}})
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace castra::bench
