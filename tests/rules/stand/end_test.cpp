// Sections 2 and 6 of the rules: turns, phases, army break and the turn limit; and the
// contract's views of a state (acting, projection, canonical bytes, check, describe).
#include <gtest/gtest.h>

#include "common/rules/canonical.hpp"
#include "tests/rules/stand/support.hpp"

namespace castra::rules::stand {
namespace {

using namespace testing;

constexpr Hex kFrom{2, 2};
constexpr Hex kTarget{3, 2};

State clash(const Figures& defenders) {
  State s = battle(8, 8, {}, Phase::kFight, kA);
  put(s, kA, kFrom, infantry(10));
  put(s, kB, kTarget, defenders, 3, Posture::kStanding);
  start(s);
  return s;
}

TEST(StandBreak, AnArmyThatLosesHalfItsStrengthBreaksAndLosesAtOnce) {
  State s = clash(infantry(8));  // 10 infantry against Standing: 4 casualties, half of 8
  const auto events = play(s, kA, cmd::Attack{kFrom, kTarget});
  const auto ended = only<ev::GameEnded>(events);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].outcome, Outcome::win(kA, "side B's army broke: it lost 4 of 8 strength"));
  EXPECT_TRUE(std::holds_alternative<ev::GameEnded>(events.back()));
  EXPECT_EQ(Game::outcome(s), ended[0].outcome);
  EXPECT_EQ(Game::acting(s), (Acting{false, false, "over", 1}));
}

TEST(StandBreak, AnArmyThatLosesLessThanHalfFightsOn) {
  State s = clash(infantry(9));
  const auto events = play(s, kA, cmd::Attack{kFrom, kTarget});
  EXPECT_TRUE(only<ev::GameEnded>(events).empty());
  EXPECT_FALSE(Game::outcome(s).has_value());
  EXPECT_EQ(s.lost_strength[index(kB)], 4);
}

TEST(StandBreak, NoLaterAttackOfThatPhaseIsMade) {
  State s = clash(infantry(8));
  put(s, kA, {3, 3}, infantry(5));
  play(s, kA, cmd::Attack{kFrom, kTarget});
  EXPECT_EQ(refusal(s, kA, cmd::Attack{{3, 3}, kTarget}), "stand.6.over");
  EXPECT_EQ(refusal(s, kA, cmd::EndPhase{}), "stand.6.over");
  EXPECT_TRUE(Game::legal(s, kA).empty());
}

// The last fight phase of the turn limit: side B moved second and is fighting.
State last_fight(int lost_a, int start_a, int lost_b, int start_b) {
  State s = battle(8, 8, {}, Phase::kFight, kB);
  put(s, kA, {1, 1}, infantry(12));
  put(s, kB, {6, 6}, infantry(12));
  s.turn_limit = 3;
  s.game_turn = 3;
  s.start_strength = {start_a, start_b};
  s.lost_strength = {lost_a, lost_b};
  s.losses = {infantry(lost_a), infantry(lost_b)};
  return s;
}

TEST(StandTurnLimit, TheSideThatLostTheSmallerShareWins) {
  State s = last_fight(2, 10, 4, 9);
  const auto events = play(s, kB, cmd::EndPhase{});
  ASSERT_EQ(only<ev::GameEnded>(events).size(), 1u);
  EXPECT_EQ(only<ev::GameEnded>(events)[0].outcome,
            Outcome::win(kA,
                         "turn limit of 3 reached: side A lost 2 of 10 strength, side B "
                         "lost 4 of 9"));
  EXPECT_EQ(Game::outcome(s)->kind, Outcome::Kind::kWinA);

  State t = last_fight(5, 10, 4, 9);
  play(t, kB, cmd::EndPhase{});
  EXPECT_EQ(Game::outcome(t)->kind, Outcome::Kind::kWinB);
}

TEST(StandTurnLimit, EqualSharesDraw) {
  State s = last_fight(1, 10, 2, 20);
  play(s, kB, cmd::EndPhase{});
  EXPECT_EQ(Game::outcome(s)->kind, Outcome::Kind::kDraw);
}

TEST(StandTurnLimit, TheLimitIsCheckedAfterTheSecondPlayersTurnOnly) {
  State s = last_fight(0, 12, 0, 12);
  s.active = kA;
  play(s, kA, cmd::EndPhase{});
  EXPECT_FALSE(Game::outcome(s).has_value());
  EXPECT_EQ(Game::acting(s), (Acting{false, true, "move", 3}));
  EXPECT_EQ(s.game_turn, 3);
}

TEST(StandTurnLimit, TheDefaultLimitIsTwelveGameTurns) {
  State s = battle(8, 8);
  put(s, kA, {1, 1}, infantry(12));
  put(s, kB, {6, 6}, infantry(12));
  start(s);
  s.turn_limit = stand_1().default_turn_limit;
  int player_turns = 0;
  while (!Game::outcome(s)) {
    const Side side = s.active;
    play(s, side, cmd::EndPhase{});
    play(s, side, cmd::EndPhase{});
    ++player_turns;
    ASSERT_LT(player_turns, 100);
  }
  EXPECT_EQ(player_turns, 24);
  EXPECT_EQ(s.game_turn, 12);
  EXPECT_EQ(Game::outcome(s)->kind, Outcome::Kind::kDraw);
}

TEST(StandTurns, EachPlayerTurnIsAMovePhaseThenAFightPhase) {
  State s = battle(8, 8, {}, Phase::kMove, kB);
  s.first = kB;
  put(s, kA, {1, 1}, infantry(12));
  put(s, kB, {6, 6}, infantry(12));
  start(s);
  EXPECT_EQ(Game::acting(s), (Acting{false, true, "move", 1}));
  EXPECT_EQ(
      play(s, kB, cmd::EndPhase{}),
      (std::vector<Event>{ev::PhaseEnded{kB, Phase::kMove}, ev::PhaseBegan{kB, Phase::kFight, 1}}));
  EXPECT_EQ(Game::acting(s), (Acting{false, true, "fight", 1}));
  play(s, kB, cmd::EndPhase{});
  EXPECT_EQ(Game::acting(s), (Acting{true, false, "move", 1}));
  EXPECT_EQ(s.game_turn, 1);
  play(s, kA, cmd::EndPhase{});
  EXPECT_EQ(refusal(s, kB, cmd::EndPhase{}), "stand.2.turn");
  play(s, kA, cmd::EndPhase{});
  EXPECT_EQ(s.game_turn, 2);
  EXPECT_EQ(Game::acting(s), (Acting{false, true, "move", 2}));
}

TEST(StandContract, EveryEventIsPublicAndProjectionChangesNothing) {
  State s = clash(infantry(9));
  State before = s;
  ScriptedDice dice;
  auto events = Game::decide(s, kA, cmd::Attack{kFrom, kTarget}, dice);
  ASSERT_TRUE(events.ok());
  for (const Event& e : *events) {
    EXPECT_EQ(Game::visibility(e), Visibility::everyone());
    EXPECT_EQ(Game::sealed_bytes(e), "");
    for (Viewer v : {Viewer::kSideA, Viewer::kSideB, Viewer::kSpectator, Viewer::kEveryone}) {
      State applied = s;
      Game::apply(applied, e);
      State projected = Game::project(s, v);
      Game::apply(projected, e);
      EXPECT_EQ(Game::project(applied, v), projected);
    }
    Game::apply(s, e);
  }
  EXPECT_EQ(Game::project(before, Viewer::kSpectator), before);
}

TEST(StandContract, DecideNeverChangesTheState) {
  State s = clash(infantry(9));
  const State before = s;
  ScriptedDice dice;
  ASSERT_TRUE(Game::decide(s, kA, cmd::Attack{kFrom, kTarget}, dice).ok());
  EXPECT_EQ(s, before);
}

std::string bytes(const State& s) {
  ByteWriter w;
  Game::encode(s, w);
  return w.take();
}

TEST(StandContract, CanonicalBytesAreDeterministicAndCoverTheWholeState) {
  State s = clash(infantry(9));
  EXPECT_EQ(bytes(s), bytes(State(s)));
  State t = s;
  t.at({5, 5}).capacity = 11;
  EXPECT_NE(bytes(s), bytes(t));
  t = s;
  t.at(kTarget).posture = Posture::kFallingBack;
  EXPECT_NE(bytes(s), bytes(t));
  t = s;
  t.roll_off = {3, 2};
  EXPECT_NE(bytes(s), bytes(t));
}

TEST(StandContract, CheckFindsAnOverfilledOrMixedHex) {
  State s = clash(infantry(9));
  EXPECT_FALSE(Game::check(s).has_value());
  State t = s;
  t.at(kTarget).figures = infantry(13);
  EXPECT_TRUE(Game::check(t).has_value());
  t = s;
  t.at(kTarget).figures = figs(4, 0, 1, 0);
  EXPECT_TRUE(Game::check(t).has_value());
  t = s;
  t.at({0, 0}).facing = 2;  // an empty hex keeps no troop fields
  EXPECT_TRUE(Game::check(t).has_value());
  t = s;
  t.at(kTarget).terrain = Terrain::kWater;
  EXPECT_TRUE(Game::check(t).has_value());
}

TEST(StandContract, EventsAreDescribedInWords) {
  const State s = battle(6, 6);
  EXPECT_EQ(Game::describe(s, ev::FractionRolled{4, 3, true}),
            "d10 rolled 3 for fraction 0.4: extra casualty");
  EXPECT_EQ(Game::describe(s, ev::Casualties{kB, {3, 4}, cavalry(2), 4}),
            "hex (3,4) loses 2 cavalry (side B strength lost 4)");
  EXPECT_EQ(Game::describe(s, ev::RollOff{kA, 5}), "side A rolls 5 on d6 for the roll-off");
  EXPECT_EQ(Game::describe(s, ev::Deployed{kB, {3, 7}, figs(0, 1, 0, 1), 2}),
            "side B deploys 1 archer and 1 chariot in (3,7), facing NW");
  EXPECT_EQ(Game::describe(
                s, ev::Moved{kA, {1, 2}, {{2, 2}, {3, 2}}, infantry(3), 0, Posture::kFallingBack}),
            "side A moves 3 infantry from (1,2) by (2,2) (3,2); (3,2) faces E, Falling back");
  // The attack is told term by term: 7 archers at 0.2 each against Standing troops in cover.
  EXPECT_EQ(
      Game::describe(
          s,
          ev::Attacked{kA, {2, 2}, {3, 2}, archers(7), Posture::kStanding, true, false, 14, 1, 0}),
      "side A's 7 archers in (2,2) attack (3,2) (Standing in cover): 7 archers x 0.2 = T "
      "1.4: 1 sure casualty");
}

}  // namespace
}  // namespace castra::rules::stand
