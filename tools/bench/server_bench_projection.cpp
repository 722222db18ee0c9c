// Projection per viewer at each game's mid-game position: what AnyMatch gives side A, side B
// and a spectator (the second argument: 0, 1, 2) as a snapshot, the events of the last
// command as each of them sees them, and the legal list of the side that must act. These are
// what the server builds for every watcher of every command (MatchHost::collect_updates).
#include <benchmark/benchmark.h>

#include "tools/bench/allocations.hpp"
#include "tools/bench/bench_games.hpp"

namespace castra::bench {
namespace {

struct Position {
  std::unique_ptr<wire::AnyMatch> match;
  std::uint64_t events_before_last = 0;  // the event count before its last command
};

Position make_position(const Game& g) {
  Position p;
  p.match = played_match(g, g.mid - 1);
  if (!p.match) return p;
  p.events_before_last = p.match->event_count();
  const std::size_t last = g.mid - 1;
  if (!p.match->submit(side_of(g.lines[last]), g.lines[last].command(), salt_of(last))) {
    p.match.reset();
  }
  return p;
}

const Position& position(std::int64_t which) {
  static const Position kOptio = make_position(game(0));
  static const Position kStand = make_position(game(1));
  return which == 0 ? kOptio : kStand;
}

rules::Viewer viewer(std::int64_t arg) {
  static const rules::Viewer kViewers[] = {rules::Viewer::kSideA, rules::Viewer::kSideB,
                                           rules::Viewer::kSpectator};
  return kViewers[arg];
}

void label(benchmark::State& state) {
  static const char* const kViewers[] = {"side A", "side B", "spectator"};
  state.SetLabel(game(state.range(0)).name + " " + kViewers[state.range(1)]);
}

void BM_ProjectSnapshot(benchmark::State& state) {
  const Position& p = position(state.range(0));
  if (!p.match) return state.SkipWithError("the script is refused");
  const rules::Viewer v = viewer(state.range(1));
  AllocationMeter meter;
  for (auto _ : state)
    benchmark::DoNotOptimize(p.match->snapshot(v));
  meter.report(state);
  state.counters["bytes"] = static_cast<double>(p.match->snapshot(v).ByteSizeLong());
  label(state);
}

void BM_ProjectLastEvents(benchmark::State& state) {
  const Position& p = position(state.range(0));
  if (!p.match) return state.SkipWithError("the script is refused");
  const rules::Viewer v = viewer(state.range(1));
  AllocationMeter meter;
  for (auto _ : state)
    benchmark::DoNotOptimize(p.match->events_for(v, p.events_before_last));
  meter.report(state);
  state.counters["events"] =
      static_cast<double>(p.match->events_for(v, p.events_before_last).size());
  label(state);
}

void BM_ProjectLegal(benchmark::State& state) {
  const Position& p = position(state.range(0));
  if (!p.match) return state.SkipWithError("the script is refused");
  const rules::Side side = side_of(game(state.range(0)).lines[game(state.range(0)).mid]);
  AllocationMeter meter;
  for (auto _ : state)
    benchmark::DoNotOptimize(p.match->legal(side));
  meter.report(state);
  state.counters["bytes"] = static_cast<double>(p.match->legal(side).ByteSizeLong());
  state.SetLabel(game(state.range(0)).name + " side to act");
}

BENCHMARK(BM_ProjectSnapshot)->ArgNames({"game", "viewer"})->ArgsProduct({{0, 1}, {0, 1, 2}});
BENCHMARK(BM_ProjectLastEvents)->ArgNames({"game", "viewer"})->ArgsProduct({{0, 1}, {0, 1, 2}});
BENCHMARK(BM_ProjectLegal)->ArgNames({"game"})->Arg(0)->Arg(1);

}  // namespace
}  // namespace castra::bench
