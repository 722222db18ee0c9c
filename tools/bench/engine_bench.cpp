// castra-bench-engine: how fast the pure parts are: a fair roll, a state hash, a projection,
// and whole recorded games replayed through the match core (commands per second).
// Run: build/tools/bench/castra-bench-engine; figures go to docs/performance.md.
#include <benchmark/benchmark.h>
#include <google/protobuf/util/json_util.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/match/fair_dice.hpp"
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

}  // namespace

BENCHMARK_MAIN();
