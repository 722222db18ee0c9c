// Random games on every scenario, both ways round: a command drawn from the legal list is
// always accepted, and a command built at random without the list is accepted exactly when
// the list allows it. After every event the whole state is re-checked (Game::check): no hex
// over capacity, no foot with mounted, no troops where their terrain forbids them.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "common/wire/stand_codec.hpp"
#include "tests/rules/stand/support.hpp"
#include "tests/support/game_budget.hpp"

namespace castra::rules::stand {
namespace {

using namespace testing;
using Rng = std::mt19937_64;

// Sized to keep the whole stand test run well under a minute on a shared 2-core machine.
constexpr int kGamesPerScenario = castra::testing::games_in_this_build(1000);
constexpr int kMaxStepsPerGame = 400;
constexpr std::uint64_t kSeed = 0x5eed'57a2'd000'0001ull;

class RandomDice final : public Dice {
 public:
  explicit RandomDice(Rng& rng) : rng_(rng) {}
  int roll(Die die) override {
    return std::uniform_int_distribution<int>(1, static_cast<int>(die))(rng_);
  }

 private:
  Rng& rng_;
};

int uniform(Rng& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}
bool chance(Rng& rng, double p) {
  return std::bernoulli_distribution(p)(rng);
}

Hex any_hex(const State& s, Rng& rng) {
  return {uniform(rng, -1, s.width), uniform(rng, -1, s.height)};
}

// Mostly a hex of `side`'s, so that random commands are sometimes legal.
Hex some_hex(const State& s, Side side, Rng& rng) {
  std::vector<Hex> own;
  for (std::size_t i = 0; i < s.tiles.size(); ++i) {
    if (s.tiles[i].held_by(side)) own.push_back(s.hex_of(i));
  }
  if (own.empty() || chance(rng, 0.2)) return any_hex(s, rng);
  return own[static_cast<std::size_t>(uniform(rng, 0, static_cast<int>(own.size()) - 1))];
}

Figures some_figures(const Figures& like, Rng& rng) {
  Figures f;
  for (Troop t : kAllTroops) {
    if (chance(rng, 0.03)) {
      f[t] = -1;
    } else if (like[t] > 0 ? chance(rng, 0.7) : chance(rng, 0.1)) {
      f[t] = uniform(rng, 1, std::max(1, like[t] + 1));
    }
  }
  return f;
}

// A command built without looking at the legal list.
Command random_command(const State& s, Side side, Rng& rng) {
  const Hex from = some_hex(s, side, rng);
  const Figures here = s.on_map(from) ? s.at(from).figures : Figures{};
  switch (uniform(rng, 0, 5)) {
    case 0: {
      Hex h = any_hex(s, rng);
      const std::vector<Hex>& listed = s.zones[static_cast<std::size_t>(index(side))];
      if (!listed.empty() && chance(rng, 0.8)) {
        h = listed[static_cast<std::size_t>(uniform(rng, 0, static_cast<int>(listed.size()) - 1))];
      } else if (chance(rng, 0.8) && s.zone.last >= s.zone.first) {
        h = {uniform(rng, 0, s.width - 1), uniform(rng, s.zone.first, s.zone.last)};
      }
      return cmd::Deploy{h, some_figures(s.to_deploy[index(side)], rng), uniform(rng, -1, 6)};
    }
    case 1: {
      cmd::Move m{from, {}, some_figures(here, rng)};
      Hex at = from;
      const int steps = uniform(rng, 0, 6);
      for (int i = 0; i < steps; ++i) {
        at = chance(rng, 0.05) ? any_hex(s, rng) : neighbour(at, uniform(rng, 0, 5));
        m.path.push_back(at);
      }
      return m;
    }
    case 2:
      return cmd::Face{from, uniform(rng, -1, 6)};
    case 3:
      return cmd::SetPosture{from,
                             static_cast<Posture>(chance(rng, 0.02) ? 2 : uniform(rng, 0, 1))};
    case 4:
      return cmd::Attack{from,
                         chance(rng, 0.85) ? neighbour(from, uniform(rng, 0, 5)) : any_hex(s, rng)};
    default:
      return cmd::EndPhase{};
  }
}

// A command drawn from the legal list; ends the phase now and then so games move on.
std::optional<Command> drawn_command(const Legal& legal, Rng& rng) {
  if (legal.end_phase && chance(rng, 0.15)) return cmd::EndPhase{};
  const std::vector<Command> all = commands(legal);
  if (all.empty()) return std::nullopt;
  return all[static_cast<std::size_t>(uniform(rng, 0, static_cast<int>(all.size()) - 1))];
}

std::string describe_command(const Command& c) {
  return wire::stand::script_line_to_json(Side::kA, c);
}

struct Tally {
  int games = 0;
  int finished = 0;
  int drawn = 0;
  int random_accepted = 0;
  int random_refused = 0;
};

void play_random_game(const State& initial, Rng& rng, Tally& tally) {
  State s = initial;
  RandomDice dice(rng);
  for (const Event& e : Game::begin(s, dice))
    Game::apply(s, e);
  ASSERT_FALSE(Game::check(s).has_value()) << *Game::check(s);
  for (int step = 0; step < kMaxStepsPerGame && !Game::outcome(s); ++step) {
    const Acting now = Game::acting(s);
    ASSERT_TRUE(now.a != now.b) << "exactly one side acts in STAND!";
    const Side mover = now.a ? Side::kA : Side::kB;
    Command c;
    const bool from_list = chance(rng, 0.5);
    const Side side = from_list || chance(rng, 0.9) ? mover : other(mover);
    const Legal legal = Game::legal(s, side);
    if (from_list) {
      const auto drawn = drawn_command(legal, rng);
      ASSERT_TRUE(drawn.has_value()) << "the acting side always has something to do";
      c = *drawn;
    } else {
      c = random_command(s, side, rng);
    }
    const bool allowed = allows(legal, c);
    auto r = Game::decide(s, side, c, dice);
    if (from_list) {
      ASSERT_TRUE(allowed) << describe_command(c);
      ASSERT_TRUE(r.ok()) << describe_command(c) << " refused: " << r.error().message;
      ++tally.drawn;
    } else {
      ASSERT_EQ(r.ok(), allowed) << describe_command(c) << " from side " << side_letter(side)
                                 << (r.ok() ? " accepted" : " refused: " + r.error().message);
      ++(r.ok() ? tally.random_accepted : tally.random_refused);
    }
    if (!r.ok()) {
      ASSERT_FALSE(r.error().rule.empty());
      ASSERT_FALSE(r.error().message.empty());
      continue;
    }
    for (const Event& e : *r) {
      const State before = s;
      Game::apply(s, e);
      const auto broken = Game::check(s);
      ASSERT_FALSE(broken.has_value()) << *broken << " after " << Game::describe(before, e);
    }
  }
  ++tally.games;
  if (Game::outcome(s)) ++tally.finished;
}

Scenario load(const std::string& file) {
  std::ifstream in(std::string(CASTRA_SOURCE_DIR) + "/scenarios/stand/" + file);
  std::stringstream ss;
  ss << in.rdbuf();
  auto sc = wire::stand::scenario_from_json(ss.str());
  EXPECT_TRUE(sc.ok()) << sc.error().message;
  return *sc;
}

void run(const std::string& label, const Scenario& sc, std::uint64_t salt,
         int games = kGamesPerScenario) {
  auto initial = Game::initial_state(sc, stand_1());
  ASSERT_TRUE(initial.ok()) << initial.error().message;
  Rng rng(kSeed ^ salt);
  Tally tally;
  for (int g = 0; g < games; ++g) {
    play_random_game(*initial, rng, tally);
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_EQ(tally.games, games);
  // Both halves of the property were exercised, and games do reach their end.
  EXPECT_GT(tally.drawn, games * 10);
  EXPECT_GT(tally.random_accepted, games);
  EXPECT_GT(tally.random_refused, games);
  EXPECT_GT(tally.finished, 0);
  std::cout << label << ": " << tally.games << " games, " << tally.finished << " finished, "
            << tally.drawn << " listed commands, " << tally.random_accepted << " random accepted, "
            << tally.random_refused << " random refused\n";
}

TEST(StandProperty, RandomTrainingGamesKeepEveryRuleAndTheListAgreesWithDecide) {
  run("training.json", load("training.json"), 1);
}

TEST(StandProperty, RandomQadeshGamesKeepEveryRuleAndTheListAgreesWithDecide) {
  run("qadesh.json", load("qadesh.json"), 2);
}

// The rulings' "Scenario deployment" on the training field: zones listed hex by hex (with
// woods the chariots may not deploy in), and a fixed deployment with side B moving first.
constexpr int kDeploymentGames = castra::testing::games_in_this_build(300);

TEST(StandProperty, RandomGamesWithListedZonesKeepEveryRuleAndTheListAgreesWithDecide) {
  Scenario sc = load("training.json");
  for (int col = 0; col < sc.width; ++col) {
    sc.zones[0].push_back({col, 1});
    sc.zones[1].push_back({col, 6});
  }
  sc.zones[0].insert(sc.zones[0].end(), {{1, 3}, {2, 3}});
  sc.zones[1].push_back({8, 4});
  run("training.json, listed zones", sc, 3, kDeploymentGames);
}

TEST(StandProperty, RandomGamesAfterAFixedDeploymentKeepEveryRuleAndTheListAgreesWithDecide) {
  Scenario sc = load("training.json");
  sc.placements = {{Side::kA, {2, 0}, infantry(8), 5, Posture::kStanding},
                   {Side::kA, {3, 0}, archers(4), 4, Posture::kFallingBack},
                   {Side::kA, {5, 0}, figs(0, 0, 4, 1), 5, Posture::kFallingBack},
                   {Side::kB, {2, 7}, infantry(8), 1, Posture::kFallingBack},
                   {Side::kB, {3, 7}, archers(4), 2, Posture::kStanding},
                   {Side::kB, {5, 7}, cavalry(4), 1, Posture::kFallingBack},
                   {Side::kB, {6, 7}, chariots(1), 2, Posture::kFallingBack}};
  sc.first_side = Side::kB;
  run("training.json, fixed deployment", sc, 4, kDeploymentGames);
}

}  // namespace
}  // namespace castra::rules::stand
