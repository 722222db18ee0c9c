// castra-balance: how balanced a scenario is. Plays N greedy-versus-greedy games of one
// scenario file offline (common/bot/self_play: the match layer and the bot's brain, no
// sockets), game i with seed S*1000003+i for i in 1..N, and prints side A's and side B's win,
// draw and loss rates with 95% Wilson score intervals and the mean game length.
// Run: castra-balance [--games 500] [--seed 1] scenarios/optio/cannae.json
#include <google/protobuf/util/json_util.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "common/bot/brain.hpp"
#include "common/bot/self_play.hpp"

namespace {

using castra::bot::Brain;
using castra::bot::Strength;
using castra::rules::Outcome;

struct Tally {
  int win_a = 0, win_b = 0, draws = 0, unfinished = 0, refused = 0;
  long turns = 0;
  long entries = 0;
};

// The 95% Wilson score interval of k successes in n trials.
std::pair<double, double> wilson(int k, int n) {
  const double z = 1.96;
  const double p = static_cast<double>(k) / n;
  const double d = 1 + z * z / n;
  const double centre = (p + z * z / (2.0 * n)) / d;
  const double half = z / d * std::sqrt(p * (1 - p) / n + z * z / (4.0 * n * n));
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

void print_rate(const char* what, int k, int n) {
  const auto [lo, hi] = wilson(k, n);
  std::printf("  %-5s %5.1f%%  (95%% %5.1f%% .. %5.1f%%)  %d/%d\n", what, 100.0 * k / n, 100.0 * lo,
              100.0 * hi, k, n);
}

// Draws and unfinished games (cut short by the command cap) both count as draws: neither
// side won. The unfinished are also printed on their own.
void print_side(const char* side, int wins, int losses, int games) {
  std::printf("side %s\n", side);
  print_rate("win", wins, games);
  print_rate("draw", games - wins - losses, games);
  print_rate("loss", losses, games);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"castra-balance: greedy against greedy on one scenario, each side's rates"};
  int games = 500;
  std::uint64_t seed = 1;
  std::string file;
  int record_game = 0;
  std::string record_path;
  app.add_option("--games", games, "games to play")->check(CLI::PositiveNumber);
  app.add_option("--record-game", record_game,
                 "write this game's match record (JSON) to --record, to look at one game");
  app.add_option("--record", record_path, "where --record-game's record goes");
  app.add_option("--seed", seed, "seed of the whole run");
  app.add_option("file", file, "a castra.v1.ScenarioFile JSON file")->required();
  CLI11_PARSE(app, argc, argv);

  std::ifstream in(file);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", file.c_str());
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  castra::v1::ScenarioFile scenario;
  if (!google::protobuf::util::JsonStringToMessage(text.str(), &scenario).ok()) {
    std::fprintf(stderr, "cannot read %s as a ScenarioFile\n", file.c_str());
    return 1;
  }

  Tally t;
  for (int game = 1; game <= games; ++game) {
    const std::uint64_t game_seed = seed * 1000003u + static_cast<std::uint64_t>(game);
    Brain a(Strength::kGreedy, game_seed * 2 + 1);
    Brain b(Strength::kGreedy, game_seed * 2 + 2);
    const bool keep = game == record_game && !record_path.empty();
    auto result = castra::bot::play_game({scenario, game_seed, 20000, keep}, a, b);
    if (!result) {
      std::fprintf(stderr, "bad scenario: %s\n", result.error().message.c_str());
      return 1;
    }
    if (keep && result->record) {
      std::string json;
      google::protobuf::util::JsonPrintOptions pretty;
      pretty.add_whitespace = true;
      pretty.preserve_proto_field_names = true;
      (void)google::protobuf::util::MessageToJsonString(*result->record, &json, pretty);
      std::ofstream(record_path) << json;
    }
    t.turns += result->turns;
    t.entries += static_cast<long>(result->entries);
    t.refused += result->refused;
    if (!result->outcome) {
      ++t.unfinished;
    } else if (result->outcome->kind == Outcome::Kind::kDraw) {
      ++t.draws;
    } else if (result->outcome->kind == Outcome::Kind::kWinA) {
      ++t.win_a;
    } else {
      ++t.win_b;
    }
  }

  std::printf("%s: greedy against greedy, %d games, seed %llu\n", file.c_str(), games,
              static_cast<unsigned long long>(seed));
  print_side("A", t.win_a, t.win_b, games);
  print_side("B", t.win_b, t.win_a, games);
  std::printf("  unfinished %d, refused commands %d\n", t.unfinished, t.refused);
  std::printf("mean length: %.1f turns, %.1f log entries\n", static_cast<double>(t.turns) / games,
              static_cast<double>(t.entries) / games);
  return 0;
}
