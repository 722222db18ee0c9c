// A whole command through runtime::MatchHost without sockets: submit, decide, append and
// commit, then one framed update to every watcher (side A, side B and the spectators) and the
// answer to the actor, each command of the training games after deployment in turn.
// Arguments: the game; the store (0 ":memory:", 1 a file with synchronous=FULL, 2 NORMAL);
// the spectators subscribed (0, 1, 10, 100). BM_MatchSubmit is the same commands decided and
// applied by AnyMatch alone, the rules' share of a command. The CPU time is the whole
// process's (both threads); the real time includes the hand-offs between them.
#include <benchmark/benchmark.h>

#include "tools/bench/allocations.hpp"
#include "tools/bench/bench_server.hpp"

namespace castra::bench {
namespace {

// The watchers of the match being played; they outlive each host in turn.
struct Room {
  explicit Room(std::size_t spectators) {
    for (std::size_t i = 0; i < spectators + 2; ++i)
      observers.push_back(std::make_shared<FramingObserver>());
  }
  void watch(runtime::MatchHost& host) const {
    for (std::size_t i = 0; i < observers.size(); ++i) {
      const rules::Viewer v = i == 0   ? rules::Viewer::kSideA
                              : i == 1 ? rules::Viewer::kSideB
                                       : rules::Viewer::kSpectator;
      host.subscribe(v, host.seen()->events, observers[i]);
    }
  }
  std::uint64_t frames() const {
    std::uint64_t n = 0;
    for (const auto& o : observers)
      n += o->frames();
    return n;
  }
  std::uint64_t bytes() const {
    std::uint64_t n = 0;
    for (const auto& o : observers)
      n += o->bytes();
    return n;
  }
  std::vector<std::shared_ptr<FramingObserver>> observers;
};

const char* store_name(std::int64_t arg) {
  static const char* const kNames[] = {"memory", "file FULL", "file NORMAL"};
  return kNames[arg];
}

void BM_HostCommand(benchmark::State& state) {
  const Game& g = game(state.range(0));
  if (!g.error.empty()) return state.SkipWithError(g.error.c_str());
  TempDir dir;
  std::string error;
  auto store = open_store(
      state.range(1) == 0 ? ":memory:" : dir.path() + "/castra.db",
      state.range(1) == 2 ? store::Durability::kNormal : store::Durability::kFull, &error);
  if (!store) return state.SkipWithError(error.c_str());
  server::ManualClock clock(1'700'000'000'000);
  const Room room(static_cast<std::size_t>(state.range(2)));
  std::shared_ptr<runtime::MatchHost> host;
  std::size_t next = g.lines.size() - 1;
  int matches = 0;
  std::uint64_t setup_frames = 0;
  std::uint64_t setup_bytes = 0;
  Latch latch;
  AllocationMeter meter;
  for (auto _ : state) {
    if (next + 1 == g.lines.size()) {
      // A new match at the end of deployment, its watchers subscribed, off the clock.
      state.PauseTiming();
      meter.pause();
      const std::uint64_t frames = room.frames();
      const std::uint64_t bytes = room.bytes();
      host =
          start_host(g, "bench-" + std::to_string(++matches), g.first_play, *store, clock, &error);
      if (host) room.watch(*host);
      setup_frames += room.frames() - frames;
      setup_bytes += room.bytes() - bytes;
      next = g.first_play;
      meter.resume();
      state.ResumeTiming();
      if (!host) return state.SkipWithError(error.c_str());
    }
    if (!play(*host, g, next++, latch)) return state.SkipWithError("a command is refused");
  }
  meter.report(state);
  state.counters["frames"] = benchmark::Counter(static_cast<double>(room.frames() - setup_frames),
                                                benchmark::Counter::kAvgIterations);
  state.counters["frame_bytes"] = benchmark::Counter(
      static_cast<double>(room.bytes() - setup_bytes), benchmark::Counter::kAvgIterations);
  state.SetLabel(g.name + " " + store_name(state.range(1)) + " " + std::to_string(state.range(2)) +
                 " spectators");
}

void BM_MatchSubmit(benchmark::State& state) {
  const Game& g = game(state.range(0));
  if (!g.error.empty()) return state.SkipWithError(g.error.c_str());
  std::unique_ptr<wire::AnyMatch> m;
  std::size_t next = g.lines.size() - 1;
  AllocationMeter meter;
  for (auto _ : state) {
    if (next + 1 == g.lines.size()) {
      state.PauseTiming();
      meter.pause();
      m = played_match(g, g.first_play);
      next = g.first_play;
      meter.resume();
      state.ResumeTiming();
      if (!m) return state.SkipWithError("the script is refused");
    }
    const std::size_t i = next++;
    if (!m->submit(side_of(g.lines[i]), g.lines[i].command(), salt_of(i))) {
      return state.SkipWithError("a command is refused");
    }
  }
  meter.report(state);
  state.SetLabel(g.name);
}

BENCHMARK(BM_HostCommand)
    ->ArgNames({"game", "store", "spectators"})
    ->ArgsProduct({{0, 1}, {0, 1, 2}, {0, 1, 10, 100}})
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MatchSubmit)->ArgNames({"game"})->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace castra::bench
