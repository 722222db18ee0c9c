// castra-bench-bot: how well and how fast the computer plays. Per rule set, greedy plays
// random over that rule set's scenarios (sides alternating) through offline self-play, and
// the program prints greedy's win, draw and loss rates with 95% Wilson intervals, the mean
// game length, and the mean time of one pick at each strength.
// Run: build/tools/bench/castra-bench-bot [--games 200] [--seed 1].
#include <google/protobuf/util/json_util.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/bot/brain.hpp"
#include "common/bot/self_play.hpp"

namespace {

using castra::bot::Brain;
using castra::bot::Strength;
using castra::rules::Outcome;
using castra::rules::Side;
using Clock = std::chrono::steady_clock;

struct RuleSet {
  std::string name;
  std::vector<std::string> scenarios;
};

castra::v1::ScenarioFile load(const std::string& name) {
  std::ifstream in(std::string(CASTRA_SOURCE_DIR) + "/scenarios/" + name + ".json");
  std::stringstream text;
  text << in.rdbuf();
  castra::v1::ScenarioFile out;
  if (!google::protobuf::util::JsonStringToMessage(text.str(), &out).ok()) {
    std::fprintf(stderr, "cannot read scenario %s\n", name.c_str());
    std::exit(1);
  }
  return out;
}

struct PickTime {
  double seconds = 0.0;
  double longest = 0.0;
  long picks = 0;
  double mean_ms() const { return picks == 0 ? 0.0 : 1000.0 * seconds / picks; }
};

// A player that times its brain.
castra::bot::PickFn timed(Brain& brain, PickTime& time) {
  return [&brain, &time](Side side, const castra::v1::Snapshot& view,
                         const castra::v1::GameLegal& legal) {
    const auto start = Clock::now();
    auto c = brain.pick(view, legal, side);
    const double took = std::chrono::duration<double>(Clock::now() - start).count();
    time.seconds += took;
    time.longest = std::max(time.longest, took);
    ++time.picks;
    return c;
  };
}

struct Tally {
  int wins = 0, draws = 0, losses = 0, unfinished = 0, refused = 0;
  long commands = 0;
  long turns = 0;
  PickTime greedy, random;
};

// The 95% Wilson score interval of k successes in n.
std::pair<double, double> wilson(int k, int n) {
  const double z = 1.96;
  const double p = static_cast<double>(k) / n;
  const double d = 1 + z * z / n;
  const double centre = (p + z * z / (2.0 * n)) / d;
  const double half = z / d * std::sqrt(p * (1 - p) / n + z * z / (4.0 * n * n));
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

void play_one(const castra::v1::ScenarioFile& sf, int game, std::uint64_t seed, Tally& t) {
  const Side greedy_side = game % 2 == 0 ? Side::kA : Side::kB;
  const std::uint64_t game_seed = seed * 1000003u + static_cast<std::uint64_t>(game);
  Brain greedy(Strength::kGreedy, game_seed * 2 + 1);
  Brain random(Strength::kRandom, game_seed * 2 + 2);
  auto g = timed(greedy, t.greedy);
  auto r = timed(random, t.random);
  auto result = greedy_side == Side::kA ? castra::bot::play_game({sf, game_seed, 20000}, g, r)
                                        : castra::bot::play_game({sf, game_seed, 20000}, r, g);
  if (!result) {
    std::fprintf(stderr, "bad scenario: %s\n", result.error().message.c_str());
    std::exit(1);
  }
  t.commands += result->commands;
  t.turns += result->turns;
  t.refused += result->refused;
  if (!result->outcome) {
    ++t.unfinished;
  } else if (result->outcome->kind == Outcome::Kind::kDraw) {
    ++t.draws;
  } else if ((result->outcome->kind == Outcome::Kind::kWinA) == (greedy_side == Side::kA)) {
    ++t.wins;
  } else {
    ++t.losses;
  }
}

void print_rate(const char* what, int k, int n) {
  const auto [lo, hi] = wilson(k, n);
  std::printf("  %-6s %5.1f%%  (95%% Wilson %5.1f%% .. %5.1f%%)  %d/%d\n", what, 100.0 * k / n,
              100.0 * lo, 100.0 * hi, k, n);
}

void run(const RuleSet& rules, int games, std::uint64_t seed) {
  std::vector<castra::v1::ScenarioFile> files;
  for (const auto& s : rules.scenarios)
    files.push_back(load(s));
  Tally t;
  for (int game = 0; game < games; ++game) {
    // Two games per scenario in a row, one on each side, so side and scenario do not align.
    play_one(files[static_cast<std::size_t>(game / 2) % files.size()], game, seed, t);
  }
  std::printf("%s: greedy against random, %d games over", rules.name.c_str(), games);
  for (const auto& s : rules.scenarios)
    std::printf(" %s", s.c_str());
  std::printf(", sides alternating\n");
  print_rate("win", t.wins, games);
  print_rate("draw", t.draws, games);
  print_rate("loss", t.losses, games);
  std::printf("  unfinished %d, refused commands %d\n", t.unfinished, t.refused);
  std::printf("  mean game: %.1f commands, %.1f turns\n", static_cast<double>(t.commands) / games,
              static_cast<double>(t.turns) / games);
  std::printf(
      "  mean pick: greedy %.3f ms (%ld picks, longest %.1f ms), random %.3f ms (%ld picks)\n",
      t.greedy.mean_ms(), t.greedy.picks, 1000.0 * t.greedy.longest, t.random.mean_ms(),
      t.random.picks);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"castra-bench-bot: greedy against random, win rates and pick times"};
  int games = 200;
  std::uint64_t seed = 1;
  std::string only;
  app.add_option("--games", games, "games per rule set")->check(CLI::PositiveNumber);
  app.add_option("--seed", seed, "seed of the whole run");
  app.add_option("--ruleset", only, "optio or stand (default: both)");
  CLI11_PARSE(app, argc, argv);
  const std::vector<RuleSet> all = {{"optio", {"optio/training", "optio/cannae"}},
                                    {"stand", {"stand/training", "stand/qadesh"}}};
  for (const auto& r : all) {
    if (only.empty() || only == r.name) run(r, games, seed);
  }
  return 0;
}
