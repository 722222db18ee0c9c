// Writes the scripted training game of scripted_game_test.cpp: a greedy player for both
// sides (charge, else shoot, else close on the nearest enemy) on
// tests/rules/optio/data/training_scenario.json (the training battle as first shipped;
// scenarios/optio/training.json has since changed). Run by hand when the rules change on purpose:
//   optio_script_gen SOURCE_DIR   (rewrites tests/rules/optio/data/training_game.*)
// and update the expected result in scripted_game_test.cpp from what it prints.
#include <fstream>
#include <iostream>
#include <random>

#include "common/wire/optio_codec.hpp"
#include "tests/rules/optio/support.hpp"

using namespace castra::rules;
using namespace castra::rules::optio;

namespace {

class RecordingDice final : public Dice {
 public:
  int roll(Die die) override {
    const int f = std::uniform_int_distribution<int>(1, static_cast<int>(die))(gen_);
    faces.push_back(f);
    return f;
  }
  std::vector<int> faces;

 private:
  std::mt19937 gen_{371};
};

int nearest_enemy(const State& s, Side side, Square at) {
  int best = 1000;
  for (const Unit& u : s.units) {
    if (u.on_board() && u.side != side) best = std::min(best, distance(at, u.pos));
  }
  return best;
}

Command choose(const State& s, Side side) {
  const Legal l = Game::legal(s, side);
  const int forward = side == Side::kA ? 2 : 0;
  switch (s.phase) {
    case Phase::kDeployment: {
      for (const UnitLegal& u : l.units) {
        if (s.unit(u.unit)->placed) continue;
        const int row = side == Side::kA ? 2 : s.rows - 1;
        for (const Square q : u.placements) {
          if (q.row == row && q.col >= 2) return cmd::Deploy{u.unit, q, forward, Formation::kLine};
        }
        return cmd::Deploy{u.unit, u.placements.front(), forward, Formation::kLine};
      }
      for (const LeaderLegal& x : l.leaders) {
        if (s.leader(x.leader)->unit == 0) return cmd::PlaceLeader{x.leader, x.place_on.front()};
      }
      return cmd::EndDeployment{};
    }
    case Phase::kOrders: {
      cmd::SubmitOrders o;
      for (const OrdersPath& start : l.orders.starts) {
        OrdersPath p = start;
        for (int i = 0; i < 5; ++i) {
          Square next = ahead(p.squares.back(), forward);
          if (!s.on_board(next)) break;
          p.squares.push_back(next);
        }
        o.paths.push_back(p);
      }
      return o;
    }
    default:
      break;
  }
  for (const UnitLegal& u : l.units) {
    for (const AdvanceOption& a : u.advances) {
      if (a.charge_target != 0) return cmd::Advance{u.unit, a.steps};
    }
  }
  for (const UnitLegal& u : l.units) {
    if (!u.shoot_targets.empty()) return cmd::Shoot{u.unit, u.shoot_targets.front()};
  }
  for (const UnitLegal& u : l.units) {
    const Unit& unit = *s.unit(u.unit);
    const int now = nearest_enemy(s, side, unit.pos);
    const AdvanceOption* best = nullptr;
    int best_d = now;
    for (const AdvanceOption& a : u.advances) {
      if (a.disorders) continue;
      const int d = nearest_enemy(s, side, a.steps.back().to);
      if (d < best_d && a.steps.back().facing == unit.facing) {
        best = &a;
        best_d = d;
      }
    }
    if (best != nullptr) return cmd::Advance{u.unit, best->steps};
  }
  return cmd::EndPhase{};
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  std::ifstream in(dir + "/tests/rules/optio/data/training_scenario.json");
  std::stringstream ss;
  ss << in.rdbuf();
  auto sc = castra::wire::optio::scenario_from_json(ss.str());
  if (!sc) {
    std::cerr << sc.error().message << "\n";
    return 1;
  }
  State s = *Game::initial_state(*sc, *Game::ruleset("optio-1"));
  RecordingDice dice;
  std::ofstream script(dir + "/tests/rules/optio/data/training_game.jsonl");
  int n = 0;
  while (!Game::outcome(s) && n < 2000) {
    const Acting a = Game::acting(s);
    const Side side = a.a ? Side::kA : Side::kB;
    const Command c = choose(s, side);
    auto ev = Game::decide(s, side, c, dice);
    if (!ev) {
      std::cerr << "refused: " << ev.error().message << "\n";
      return 1;
    }
    script << castra::wire::optio::script_line_to_json(side, c) << "\n";
    for (const Event& e : *ev)
      Game::apply(s, e);
    ++n;
  }
  std::ofstream faces(dir + "/tests/rules/optio/data/training_game.dice");
  for (std::size_t i = 0; i < dice.faces.size(); ++i)
    faces << (i ? " " : "") << dice.faces[i];
  faces << "\n";
  std::cout << n << " commands, " << dice.faces.size() << " dice\n";
  std::cout << "outcome " << static_cast<int>(Game::outcome(s)->kind) << ": "
            << Game::outcome(s)->reason << "\n";
  std::cout << "turn " << s.turn << "\nrouted:";
  for (const Unit& u : s.units) {
    if (u.routed) std::cout << " " << u.id;
  }
  std::cout << "\nhash " << std::hex << castra::rules::optio::testing::state_hash(s) << "\n";
  return 0;
}
