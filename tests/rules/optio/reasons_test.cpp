// Optio's reasons() and command_view(): worked cases for each rule that stops a unit, and
// random games in which every piece of both sides is explained exactly when, and for
// exactly the kinds of action that, legal() offers it nothing.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/rules/optio/reasons.hpp"
#include "common/wire/optio_codec.hpp"
#include "common/wire/reasons_codec.hpp"
#include "tests/rules/optio/random_player.hpp"
#include "tests/rules/optio/support.hpp"

namespace castra::rules::optio::testing {
namespace {

constexpr int kN = 0, kS = 2;
constexpr Side kA = Side::kA, kB = Side::kB;
using UT = UnitType;

Piece unit(int id) {
  return {Piece::Kind::kUnit, id};
}

const Refusal* refusal_for(const Reasons& r, const std::string& action) {
  for (const Refusal& x : r.refusals) {
    if (x.action == action) return &x;
  }
  return nullptr;
}

std::string rule_of(const Reasons& r, const std::string& action) {
  const Refusal* x = refusal_for(r, action);
  return x == nullptr ? "" : x->why.rule;
}

// Side A: heavy infantry 1 with the general at (5,3) facing south, its own 2 at (6,3);
// side B's general with unit 91 far away at (16,8).
Battle two_units() {
  Battle b;
  b.unit(1, kA, UT::kHeavyInfantry, {5, 3}, kS)
      .unit(2, kA, UT::kHeavyInfantry, {6, 3}, kS)
      .unit(91, kB, UT::kHeavyInfantry, {16, 8}, kN)
      .leader(1, kA, true, 1, 1)
      .leader(2, kB, true, 2, 91);
  return b;
}

TEST(Reasons, OptioUnitThatMovedSaysItHasMoved) {
  State s = two_units().start();
  play(s, kA, cmd::Advance{1, {{{5, 4}, kS}}});
  const Reasons r = reasons(s, kA, unit(1));
  EXPECT_FALSE(r.can_act);
  EXPECT_EQ(rule_of(r, "advance"), "optio.5.once");
  EXPECT_EQ(rule_of(r, "rotate"), "optio.5.once");
  EXPECT_EQ(rule_of(r, "formation"), "optio.5.once");
  EXPECT_EQ(refusal_for(r, "advance")->why.message,
            "heavy_infantry 1 at (5,4) has already moved this turn");
  EXPECT_EQ(refusal_for(r, "shoot")->why.message, "heavy_infantry do not shoot");
}

TEST(Reasons, OptioUnitOutOfCommandThatMovedLastTurnMayNotMove) {
  Battle b = two_units();
  b.unit(3, kA, UT::kHeavyInfantry, {10, 3}, kS);
  State s = b.start();
  s.unit(3)->moved_last_turn = true;
  const Reasons r = reasons(s, kA, unit(3));
  EXPECT_FALSE(r.can_act);
  EXPECT_EQ(rule_of(r, "advance"), "optio.3.out_of_command");
  EXPECT_EQ(refusal_for(r, "rotate")->why.message,
            "heavy_infantry 3 at (10,3) is out of command and moved last turn; it may not move "
            "in two turns running");
  // The same unit in command (it moved last turn too) is free to act.
  s.unit(2)->moved_last_turn = true;
  EXPECT_TRUE(reasons(s, kA, unit(2)).can_act);
  EXPECT_EQ(reasons(s, kA, unit(2)).refusals.size(), 1u);  // only shooting
}

TEST(Reasons, OptioUnitInContactMayNotAdvanceButStillRotates) {
  Battle b = two_units();
  b.unit(92, kB, UT::kHeavyInfantry, {5, 4}, kN);
  State s = b.start();
  const Reasons r = reasons(s, kA, unit(1));
  EXPECT_TRUE(r.can_act);
  EXPECT_EQ(rule_of(r, "advance"), "optio.5.contact");
  EXPECT_EQ(refusal_for(r, "rotate"), nullptr);
}

TEST(Reasons, OptioUnitWithNoSquareAheadHasNoRoom) {
  Battle b;
  b.unit(1, kA, UT::kHeavyInfantry, {5, 1}, kN)
      .unit(91, kB, UT::kHeavyInfantry, {16, 8}, kN)
      .leader(1, kA, true, 1, 1)
      .leader(2, kB, true, 2, 91);
  State s = b.start();
  const Reasons r = reasons(s, kA, unit(1));
  EXPECT_TRUE(r.can_act);  // it may still rotate
  ASSERT_NE(refusal_for(r, "advance"), nullptr);
  EXPECT_EQ(refusal_for(r, "advance")->why.rule, "optio.5.advance");
  EXPECT_EQ(refusal_for(r, "advance")->why.message,
            "heavy_infantry 1 at (5,1) has no room to advance: (4,0) is off the board; (5,0) is "
            "off the board; (6,0) is off the board");
}

TEST(Reasons, OptioPiecesOfTheSideNotMovingWaitForTheirPhase) {
  State s = two_units().start();
  const Reasons r = reasons(s, kB, unit(91));
  EXPECT_FALSE(r.can_act);
  EXPECT_EQ(refusal_for(r, "advance")->why.message, "it is side A's move phase");
  EXPECT_EQ(reasons(s, kB, unit(1)).refusals,
            (std::vector<Refusal>{{"select", refuse("optio.1.unit", "unit 1 is not yours")}}));
}

TEST(Reasons, OptioCommandViewFollowsTheChainAndMarksUnitsOutOfCommand) {
  Battle b = two_units();
  b.unit(3, kA, UT::kHeavyInfantry, {10, 3}, kS).unit(4, kA, UT::kHeavyInfantry, {6, 4}, kS);
  const State s = b.start();
  EXPECT_EQ(command_view(s, kA),
            (std::vector<UnitCommand>{
                {1, 1, 1, true, 0}, {2, 1, 1, true, 1}, {3, 1, 1, false, 0}, {4, 1, 1, true, 2}}));
}

// Two battles that differ only in side A's orders path: side B's answers, computed as the
// server computes them (on B's projection, through the wire codec), are the same bytes.
TEST(Reasons, OptioAnswersToTheOpponentAreTheSameWhateverSideAsOrders) {
  Battle b = two_units();
  b.unit(5, kA, UT::kCavalry, {3, 2}, kS, 3).leader(3, kA, false, 3, 5);
  b.unit(92, kB, UT::kHeavyInfantry, {5, 6}, kN).unit(93, kB, UT::kCavalry, {9, 6}, kN);
  const State near = b.start({{3, {{3, 2}}}});
  const State far = b.start({{3, {{3, 2}, {3, 3}, {4, 4}, {5, 5}}}});
  ASSERT_FALSE(near == far);
  for (int id : {91, 92, 93, 5}) {
    v1::Piece piece;
    piece.set_unit(id);
    const auto answer = [&](const State& s) {
      return wire::piece_reasons(Game::project(s, Viewer::kSideB), kB, piece).SerializeAsString();
    };
    EXPECT_EQ(answer(near), answer(far)) << "unit " << id;
  }
  // Side A's own answer may depend on its own path: the view is the asker's.
  v1::Piece sub;
  sub.set_unit(5);
  EXPECT_EQ(wire::piece_reasons(Game::project(near, Viewer::kSideA), kA, sub).commands_size(), 3);
}

// ---- random games ---------------------------------------------------------------------------

bool nothing(const UnitLegal& u) {
  return u.advances.empty() && u.rotations.empty() && !u.change_formation &&
         u.shoot_targets.empty() && u.placements.empty();
}

// Every piece of `side` is explained as legal() lists it; false after the first mismatch.
bool agrees(const State& s, Side side, const std::string& where) {
  const Legal legal = Game::legal(s, side);
  const bool deploying = s.phase == Phase::kDeployment;
  for (const Unit& u : s.units) {
    if (u.side != side) continue;
    const Reasons r = reasons(s, side, unit(u.id));
    const auto e = std::find_if(legal.units.begin(), legal.units.end(),
                                [&](const UnitLegal& x) { return x.unit == u.id; });
    const UnitLegal none;
    const UnitLegal& l = e == legal.units.end() ? none : *e;
    const std::string what = "unit " + std::to_string(u.id) + " " + where;
    EXPECT_EQ(r.can_act, !nothing(l)) << what;
    if (!r.can_act) {
      EXPECT_FALSE(r.refusals.empty()) << what;
    }
    if (u.on_board() || deploying) {
      const auto kinds =
          deploying ? std::vector<std::pair<std::string, bool>>{{"deploy", l.placements.empty()}}
                    : std::vector<std::pair<std::string, bool>>{{"advance", l.advances.empty()},
                                                                {"rotate", l.rotations.empty()},
                                                                {"formation", !l.change_formation},
                                                                {"shoot", l.shoot_targets.empty()}};
      for (const auto& [action, empty] : kinds) {
        EXPECT_EQ(refusal_for(r, action) != nullptr, empty) << what << " " << action;
      }
      if (!deploying && e != legal.units.end()) {
        const auto view = command_view(s, side);
        const auto c = std::find_if(view.begin(), view.end(),
                                    [&](const UnitCommand& x) { return x.unit == u.id; });
        EXPECT_TRUE(c != view.end() && c->in_command == l.in_command) << what;
      }
    }
    for (const Refusal& x : r.refusals) {
      EXPECT_FALSE(x.why.rule.empty() || x.why.message.empty()) << what;
    }
    if (::testing::Test::HasFailure()) return false;
  }
  for (const Leader& ld : s.leaders) {
    if (ld.side != side) continue;
    const Reasons r = reasons(s, side, {Piece::Kind::kLeader, ld.id});
    const auto e = std::find_if(legal.leaders.begin(), legal.leaders.end(),
                                [&](const LeaderLegal& x) { return x.leader == ld.id; });
    const bool has =
        e != legal.leaders.end() && (!e->move_to.empty() || !e->place_on.empty() || e->abandon);
    EXPECT_EQ(r.can_act, has) << "leader " << ld.id << " " << where;
    if (!has) {
      EXPECT_FALSE(r.refusals.empty()) << "leader " << ld.id << " " << where;
    }
    if (e != legal.leaders.end() && !deploying) {
      EXPECT_EQ(refusal_for(r, "move") != nullptr, e->move_to.empty()) << where;
      EXPECT_EQ(refusal_for(r, "abandon") != nullptr, !e->abandon) << where;
    }
    if (::testing::Test::HasFailure()) return false;
  }
  return true;
}

void random_games(const std::string& file, int games) {
  auto sc = wire::optio::scenario_from_json(read_file(file));
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  auto initial = Game::initial_state(*sc, rs());
  ASSERT_TRUE(initial.ok());
  int blocked = 0;
  for (int g = 0; g < games; ++g) {
    const std::uint64_t seed = 7919ull * static_cast<std::uint64_t>(g) + 3;
    RandomPlayer player(seed);
    RandomDice dice(seed ^ 0x51ed27ull);
    State s = *initial;
    for (int step = 0; step < 600 && !Game::outcome(s); ++step) {
      const std::string where =
          "(seed " + std::to_string(seed) + ", step " + std::to_string(step) + ")";
      for (Side side : {kA, kB}) {
        if (!agrees(s, side, where)) return;
        for (const Unit& u : s.units) {
          if (u.side == side && u.on_board() && !reasons(s, side, unit(u.id)).can_act) ++blocked;
        }
      }
      const Acting act = Game::acting(s);
      const Side side = act.a && (!act.b || player.chance(0.5)) ? kA : kB;
      auto c = player.from_list(s, Game::legal(s, side));
      if (!c) break;
      auto ev = Game::decide(s, side, *c, dice);
      ASSERT_TRUE(ev.ok()) << ev.error().message;
      for (const Event& e : *ev)
        Game::apply(s, e);
    }
  }
  EXPECT_GT(blocked, games) << "random games should reach units that cannot act";
}

TEST(Reasons, OptioAgreeWithLegalInRandomTrainingGames) {
  random_games("tests/rules/optio/data/training_scenario.json", 12);
}

TEST(Reasons, OptioAgreeWithLegalInRandomCannaeGames) {
  random_games("scenarios/optio/cannae.json", 4);
}

}  // namespace
}  // namespace castra::rules::optio::testing
