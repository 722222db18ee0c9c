// castra-bench-engine: how fast the pure parts are: a fair roll, a state hash, a projection,
// whole recorded games replayed through the match core (commands per second), and past
// pictures and recovery from checkpoints and adopted entries against rebuilds from scratch.
// Run: build/tools/bench/castra-bench-engine; figures go to docs/performance.md.
#include <benchmark/benchmark.h>
#include <google/protobuf/util/json_util.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/bot/brain.hpp"
#include "common/match/fair_dice.hpp"
#include "common/match/match.hpp"
#include "common/wire/any_match.hpp"

namespace {

using castra::rules::Side;
using castra::rules::Viewer;

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Script {
  castra::v1::ScenarioFile scenario;
  std::vector<castra::v1::ScriptLine> lines;
  std::vector<int> dice;
};

// The Optio training game of tests/rules/optio/data, as castra-sim plays it.
const Script& optio_training() {
  static const Script kScript = [] {
    Script s;
    const std::string root = CASTRA_SOURCE_DIR;
    (void)google::protobuf::util::JsonStringToMessage(read(root + "/scenarios/optio/training.json"),
                                                      &s.scenario);
    std::istringstream lines(read(root + "/tests/rules/optio/data/training_game.jsonl"));
    std::string line;
    while (std::getline(lines, line)) {
      if (line.empty()) continue;
      // The data file holds bare Optio commands; wrap them as the server receives them.
      castra::v1::optio::ScriptLine bare;
      (void)google::protobuf::util::JsonStringToMessage(line, &bare);
      castra::v1::ScriptLine wrapped;
      wrapped.set_side(bare.side());
      *wrapped.mutable_command()->mutable_optio() = bare.command();
      s.lines.push_back(wrapped);
    }
    std::istringstream dice(read(root + "/tests/rules/optio/data/training_game.dice"));
    int face = 0;
    while (dice >> face)
      s.dice.push_back(face);
    return s;
  }();
  return kScript;
}

std::unique_ptr<castra::wire::AnyMatch> fresh(const Script& s) {
  castra::match::Bytes32 seed{};
  auto m = castra::wire::make_match({"bench", s.scenario, "", seed});
  (*m)->seat(Side::kA, "a");
  (*m)->seat(Side::kB, "b");
  (*m)->force_rolls(s.dice);
  return std::move(*m);
}

void BM_FairRollD6(benchmark::State& state) {
  castra::match::DiceInputs in;
  in.match_id = "bench";
  std::uint64_t n = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(castra::match::fair_roll(in, n++, castra::rules::Die::kD6));
}
BENCHMARK(BM_FairRollD6);

void BM_OptioTrainingGame(benchmark::State& state) {
  const Script& s = optio_training();
  castra::match::Bytes32 salt{};
  {
    auto m = fresh(s);
    for (const auto& line : s.lines) {
      if (!m->submit(line.side() == castra::v1::SIDE_B ? Side::kB : Side::kA, line.command(),
                     salt)) {
        state.SkipWithError("the training game's script is refused");
        return;
      }
    }
    if (!m->outcome()) {
      state.SkipWithError("the training game did not reach its result");
      return;
    }
  }
  for (auto _ : state) {
    auto m = fresh(s);
    for (const auto& line : s.lines) {
      auto done =
          m->submit(line.side() == castra::v1::SIDE_B ? Side::kB : Side::kA, line.command(), salt);
      benchmark::DoNotOptimize(done.ok());
    }
  }
  state.counters["commands/s"] = benchmark::Counter(
      static_cast<double>(s.lines.size()) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_OptioTrainingGame)->Unit(benchmark::kMillisecond);

void BM_OptioStateHash(benchmark::State& state) {
  auto m = fresh(optio_training());
  for (auto _ : state)
    benchmark::DoNotOptimize(m->full_state_hash());
}
BENCHMARK(BM_OptioStateHash);

void BM_OptioSpectatorSnapshot(benchmark::State& state) {
  auto m = fresh(optio_training());
  for (auto _ : state)
    benchmark::DoNotOptimize(m->snapshot(Viewer::kSpectator).ByteSizeLong());
}
BENCHMARK(BM_OptioSpectatorSnapshot);

void BM_OptioLegalCommands(benchmark::State& state) {
  const Script& s = optio_training();
  auto m = fresh(s);
  castra::match::Bytes32 salt{};
  // Play into the move phase, where the legal list is largest.
  for (std::size_t i = 0; i < s.lines.size() / 2; ++i) {
    (void)m->submit(s.lines[i].side() == castra::v1::SIDE_B ? Side::kB : Side::kA,
                    s.lines[i].command(), salt);
  }
  const Side side = m->acting().a ? Side::kA : Side::kB;
  for (auto _ : state)
    benchmark::DoNotOptimize(m->legal(side).ByteSizeLong());
}
BENCHMARK(BM_OptioLegalCommands);

// A match rebuilt from its stored log up to its last entry, then pictured for everyone: what
// GetSnapshot does for the last step of a replay, and what start-up recovery does per match.
void BM_OptioRebuildFromLog(benchmark::State& state) {
  const Script& s = optio_training();
  castra::match::Bytes32 salt{};
  auto played = fresh(s);
  for (const auto& line : s.lines) {
    (void)played->submit(line.side() == castra::v1::SIDE_B ? Side::kB : Side::kA, line.command(),
                         salt);
  }
  std::vector<castra::v1::LogEntry> log;
  std::vector<std::vector<castra::wire::SealSalt>> salts;
  for (std::size_t i = 1; i < played->entry_count(); ++i) {  // entry 0: the seating
    log.push_back(played->log_entry(i));
    salts.push_back(played->salts(i));
  }
  for (auto _ : state) {
    auto m = fresh(s);
    for (std::size_t i = 0; i < log.size(); ++i) {
      if (auto error = m->replay(log[i], salts[i])) {
        state.SkipWithError(error->c_str());
        return;
      }
    }
    benchmark::DoNotOptimize(m->snapshot(Viewer::kEveryone).ByteSizeLong());
  }
  state.counters["entries/s"] =
      benchmark::Counter(static_cast<double>(log.size()) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_OptioRebuildFromLog)->Unit(benchmark::kMicrosecond);

// A long game on fair dice: Optio's Cannae between two random computer players (their
// turning and re-posturing make the longest logs), as the store would hold it.
struct LongGame {
  std::unique_ptr<castra::wire::AnyMatch> match;
  std::vector<castra::v1::LogEntry> log;
  std::vector<std::vector<castra::wire::SealSalt>> salts;
};

std::unique_ptr<castra::wire::AnyMatch> fresh_fair(const castra::v1::ScenarioFile& scenario) {
  castra::match::Bytes32 seed{};
  seed.fill(0x42);
  auto m = castra::wire::make_match({"bench-long", scenario, "", seed});
  (*m)->seat(Side::kA, "a");
  (*m)->seat(Side::kB, "b");
  return std::move(*m);
}

const castra::v1::ScenarioFile& cannae() {
  static const castra::v1::ScenarioFile kScenario = [] {
    castra::v1::ScenarioFile f;
    (void)google::protobuf::util::JsonStringToMessage(
        read(std::string(CASTRA_SOURCE_DIR) + "/scenarios/optio/cannae.json"), &f);
    return f;
  }();
  return kScenario;
}

const LongGame& long_game() {
  static const LongGame kGame = [] {
    LongGame g;
    g.match = fresh_fair(cannae());
    castra::bot::Brain a(castra::bot::Strength::kRandom, 1);
    castra::bot::Brain b(castra::bot::Strength::kRandom, 2);
    castra::match::Bytes32 salt{};
    for (int n = 0; n < 5000 && !g.match->outcome(); ++n) {
      const Side side = g.match->acting().a ? Side::kA : Side::kB;
      auto& brain = side == Side::kA ? a : b;
      auto command =
          brain.pick(g.match->snapshot(castra::rules::viewer_of(side)), g.match->legal(side), side);
      salt[0] = static_cast<std::uint8_t>(n);
      if (!command || !g.match->submit(side, *command, salt).ok()) break;
    }
    for (std::size_t i = 0; i < g.match->entry_count(); ++i) {
      g.log.push_back(g.match->log_entry(i));
      g.salts.push_back(g.match->salts(i));
    }
    return g;
  }();
  return kGame;
}

// The entry counts the picture benchmarks look at: each folds the most entries from its
// checkpoint (kCheckpointEvery - 1 of them), the worst case of a past picture; the last is
// near the end of the long game.
void picture_counts(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {31, 127, 223})
    b->Arg(n);
}

// A delayed spectator's or a replay step's picture after `range(0)` entries of the long game,
// folded from the nearest checkpoint: its cost is bounded by the checkpoint interval.
void BM_OptioLongGameSnapshotAfter(benchmark::State& state) {
  const LongGame& g = long_game();
  const auto at = static_cast<std::size_t>(state.range(0));
  if (at > g.log.size()) {
    state.SkipWithError("the long game is shorter than that");
    return;
  }
  for (auto _ : state) {
    auto past = g.match->snapshot_after(at, Viewer::kSpectator);
    benchmark::DoNotOptimize(past.ok());
  }
}
BENCHMARK(BM_OptioLongGameSnapshotAfter)->Apply(picture_counts)->Unit(benchmark::kMicrosecond);

// The same picture as the server made it before checkpoints: a fresh match and every entry
// up to it replayed (re-decided), then projected for the spectator.
void BM_OptioLongGameRebuildFromScratch(benchmark::State& state) {
  const LongGame& g = long_game();
  const auto at = static_cast<std::size_t>(state.range(0));
  if (at > g.log.size()) {
    state.SkipWithError("the long game is shorter than that");
    return;
  }
  for (auto _ : state) {
    auto m = fresh_fair(cannae());
    for (std::size_t i = 1; i < at; ++i) {
      if (auto error = m->replay(g.log[i], g.salts[i])) {
        state.SkipWithError(error->c_str());
        return;
      }
    }
    benchmark::DoNotOptimize(m->snapshot(Viewer::kSpectator).ByteSizeLong());
  }
}
BENCHMARK(BM_OptioLongGameRebuildFromScratch)->Apply(picture_counts)->Unit(benchmark::kMicrosecond);

// Start-up recovery of the long game with its latest stored snapshot `behind` entries before
// its end (the server stores one every 32): adopt up to it, check the hash, replay the rest.
void BM_OptioLongGameRecoverFromSnapshot(benchmark::State& state) {
  const LongGame& g = long_game();
  const std::size_t snapshot_at = g.log.size() - static_cast<std::size_t>(state.range(0));
  const castra::match::Bytes32 stored = [&] {
    auto m = fresh_fair(cannae());
    for (std::size_t i = 1; i < snapshot_at; ++i)
      (void)m->adopt(g.log[i], g.salts[i]);
    return m->full_state_hash();
  }();
  for (auto _ : state) {
    auto m = fresh_fair(cannae());
    for (std::size_t i = 1; i < g.log.size(); ++i) {
      auto error =
          i < snapshot_at ? m->adopt(g.log[i], g.salts[i]) : m->replay(g.log[i], g.salts[i]);
      if (!error && i + 1 == snapshot_at) error = m->check_hash(stored);
      if (error) {
        state.SkipWithError(error->c_str());
        return;
      }
    }
    benchmark::DoNotOptimize(m->full_state_hash());
  }
  state.counters["entries"] = static_cast<double>(g.log.size());
}
BENCHMARK(BM_OptioLongGameRecoverFromSnapshot)->Arg(0)->Arg(31)->Unit(benchmark::kMicrosecond);

// The same recovery as before: every entry replayed (re-decided) from the start. Also what
// verify_from_start costs.
void BM_OptioLongGameRecoverByReplay(benchmark::State& state) {
  const LongGame& g = long_game();
  for (auto _ : state) {
    auto m = fresh_fair(cannae());
    for (std::size_t i = 1; i < g.log.size(); ++i) {
      if (auto error = m->replay(g.log[i], g.salts[i])) {
        state.SkipWithError(error->c_str());
        return;
      }
    }
    benchmark::DoNotOptimize(m->full_state_hash());
  }
  state.counters["entries"] = static_cast<double>(g.log.size());
}
BENCHMARK(BM_OptioLongGameRecoverByReplay)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
