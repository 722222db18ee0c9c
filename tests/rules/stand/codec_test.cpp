// The stand codec: every command, event and state survives the trip through protobuf, and
// malformed input of every kind is a RuleError, never a crash.
#include "common/wire/stand_codec.hpp"

#include <gtest/gtest.h>

#include <google/protobuf/util/json_util.h>

#include "proto/castra/v1/match.pb.h"
#include "tests/rules/stand/support.hpp"

namespace castra::wire::stand {
namespace {

using namespace castra::rules::stand::testing;
using castra::rules::stand::Game;
using castra::rules::stand::Hex;
using castra::rules::stand::Posture;
using castra::rules::stand::Troop;
namespace cmd = castra::rules::stand::cmd;
namespace ev = castra::rules::stand::ev;

std::vector<rs::Command> every_command() {
  return {cmd::Deploy{{1, 2}, figs(3, 2, 0, 0), 4},
          cmd::Move{{1, 2}, {{2, 2}, {3, 2}}, figs(0, 0, 2, 1)},
          cmd::Face{{0, 7}, 5},
          cmd::SetPosture{{4, 4}, Posture::kStanding},
          cmd::Attack{{2, 2}, {3, 2}},
          cmd::EndPhase{}};
}

std::vector<rs::Event> every_event() {
  return {ev::RollOff{kB, 6},
          ev::RollOffWon{kB},
          ev::DeploymentBegan{kA, {0, 2}},
          ev::Deployed{kA, {1, 1}, figs(8, 4, 0, 0), 5},
          ev::DeploymentEnded{kB, chariots(2)},
          ev::BattleBegan{{24, 30}},
          ev::PhaseBegan{kA, rs::Phase::kFight, 3},
          ev::PhaseEnded{kB, rs::Phase::kMove},
          ev::Moved{kB, {4, 6}, {{4, 5}, {4, 4}}, cavalry(3), 2, Posture::kStanding},
          ev::Faced{kA, {2, 2}, 3},
          ev::PostureSet{kA, {2, 2}, Posture::kStanding},
          ev::Attacked{kA, {2, 2}, {3, 2}, archers(7), Posture::kStanding, true, false, 14, 1, 0},
          ev::FractionRolled{4, 3, true},
          ev::Casualties{kB, {3, 2}, infantry(2), 2},
          ev::GameEnded{rules::Outcome::win(kA, "side B's army broke")}};
}

TEST(StandCodec, EveryCommandSurvivesTheTripThroughProtobuf) {
  for (const rs::Command& c : every_command()) {
    const pb::Command p = to_proto(c);
    auto back = to_domain(p);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, c);
  }
}

TEST(StandCodec, EveryEventSurvivesTheTrip) {
  for (const rs::Event& e : every_event()) {
    const pb::Event p = to_proto(e);
    auto back = to_domain(p);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, e);
  }
}

TEST(StandCodec, AScriptLineReadsAsJson) {
  auto step = script_line_from_json(
      R"({"side": "SIDE_B", "command": {"stand": {"move": {"from": {"col": 1, "row": 2},
          "path": [{"col": 2, "row": 2}], "figures": {"cavalry": 3}}}}})");
  ASSERT_TRUE(step.ok()) << step.error().message;
  EXPECT_EQ(step->side, kB);
  EXPECT_EQ(step->command, (rs::Command{cmd::Move{{1, 2}, {{2, 2}}, cavalry(3)}}));

  auto face = script_line_from_json(
      R"({"side": "SIDE_A", "command": {"stand": {"face": {"hex": {"row": 3}, "facing": "FACING_SW"}}}})");
  ASSERT_TRUE(face.ok()) << face.error().message;
  EXPECT_EQ(face->command, (rs::Command{cmd::Face{{0, 3}, 4}}));

  for (const rs::Command& c : every_command()) {
    auto again = script_line_from_json(script_line_to_json(kA, c));
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(again->command, c);
  }
}

TEST(StandCodec, AMalformedCommandIsARuleError) {
  EXPECT_EQ(to_domain(pb::Command{}).error().rule, "stand.wire.command");

  pb::Command no_hex;
  no_hex.mutable_face()->set_facing(pb::FACING_NE);
  EXPECT_EQ(to_domain(no_hex).error().rule, "stand.wire.command");

  pb::Command bad_facing = to_proto(rs::Command{cmd::Face{{1, 1}, 2}});
  bad_facing.mutable_face()->set_facing(static_cast<pb::Facing>(9));
  EXPECT_EQ(to_domain(bad_facing).error().rule, "stand.wire.command");

  pb::Command bad_posture = to_proto(rs::Command{cmd::SetPosture{{1, 1}, Posture::kStanding}});
  bad_posture.mutable_set_posture()->set_posture(static_cast<pb::Posture>(-3));
  EXPECT_EQ(to_domain(bad_posture).error().rule, "stand.wire.command");

  pb::Command no_target;
  *no_target.mutable_attack()->mutable_from() = castra::v1::Coord{};
  EXPECT_FALSE(to_domain(no_target).ok());

  EXPECT_FALSE(script_line_from_json("{").ok());
  EXPECT_FALSE(script_line_from_json(R"({"side": "SIDE_C", "command": {}})").ok());
  EXPECT_FALSE(script_line_from_json(R"({"side": "SIDE_A", "command": {}})").ok());
  EXPECT_FALSE(script_line_from_json(
                   R"({"side": "SIDE_A", "command": {"stand": {"face": {"facing": "UP"}}}})")
                   .ok());
  EXPECT_FALSE(script_line_from_json(R"({"side": "SIDE_A", "resign": true})").ok());
}

TEST(StandCodec, AMalformedEventIsARuleError) {
  EXPECT_EQ(to_domain(pb::Event{}).error().rule, "stand.wire.event");
  pb::Event moved = to_proto(every_event()[8]);
  moved.mutable_moved()->clear_path();
  EXPECT_EQ(to_domain(moved).error().rule, "stand.wire.event");
  pb::Event roll = to_proto(every_event()[0]);
  roll.mutable_roll_off()->set_side(static_cast<castra::v1::Side>(7));
  EXPECT_EQ(to_domain(roll).error().rule, "stand.wire.event");
  pb::Event phase = to_proto(every_event()[6]);
  phase.mutable_phase_began()->set_phase(static_cast<pb::Phase>(12));
  EXPECT_EQ(to_domain(phase).error().rule, "stand.wire.event");
}

rs::State mid_battle() {
  rs::State s = battle(8, 8,
                       {ground({2, 3}, rs::Terrain::kWoods),
                        ground({4, 4}, rs::Terrain::kWater, rs::Crossing::kFord, 6)},
                       rs::Phase::kMove, kA);
  put(s, kA, {1, 2}, figs(0, 0, 3, 1), 4, Posture::kStanding);
  put(s, kA, {2, 3}, figs(5, 2, 0, 0));
  put(s, kB, {6, 6}, archers(5), 2);
  s.outcome.reset();
  s.roll_off = {5, 2};
  s.army_names = {"Blue", "Red"};
  s.at({1, 2}).unmoved = cavalry(1);
  return s;
}

TEST(StandCodec, AStateSurvivesTheTripWithTheSameCanonicalBytes) {
  const rs::State s = mid_battle();
  ASSERT_FALSE(Game::check(s).has_value());
  auto back = to_domain(to_proto(s));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, s);
  rules::ByteWriter a;
  rules::ByteWriter b;
  Game::encode(s, a);
  Game::encode(*back, b);
  EXPECT_EQ(a.bytes(), b.bytes());

  rs::State over = s;
  over.phase = rs::Phase::kOver;
  over.outcome = rules::Outcome::draw("turn limit");
  for (rs::Tile& t : over.tiles)
    t.unmoved = {};
  auto back_over = to_domain(to_proto(over));
  ASSERT_TRUE(back_over.ok()) << back_over.error().message;
  EXPECT_EQ(*back_over, over);
}

TEST(StandCodec, AMalformedOrInconsistentStateIsARuleError) {
  pb::State p = to_proto(mid_battle());
  pb::State fewer = p;
  fewer.mutable_tiles()->RemoveLast();
  EXPECT_EQ(to_domain(fewer).error().rule, "stand.wire.state");

  pb::State overfull = p;
  overfull.mutable_tiles(2 * 8 + 1)->mutable_troops()->mutable_figures()->set_cavalry(9);
  EXPECT_EQ(to_domain(overfull).error().rule, "stand.wire.state");

  pb::State mixed = p;
  mixed.mutable_tiles(2 * 8 + 1)->mutable_troops()->mutable_figures()->set_infantry(1);
  EXPECT_EQ(to_domain(mixed).error().rule, "stand.wire.state");

  pb::State shuffled = p;
  shuffled.mutable_tiles()->SwapElements(0, 1);
  EXPECT_EQ(to_domain(shuffled).error().rule, "stand.wire.state");

  pb::State version = p;
  version.set_version("stand-99");
  EXPECT_EQ(to_domain(version).error().rule, "stand.wire.state");

  pb::State huge = p;
  huge.set_width(1 << 30);
  EXPECT_EQ(to_domain(huge).error().rule, "stand.wire.state");
}

TEST(StandCodec, AScenarioReadsFromItsFileFormat) {
  auto sc = scenario_from_json(R"({"stand": {"name": "t", "width": 6, "height": 6,
      "hexes": [{"hex": {"col": 1, "row": 1}, "terrain": "TERRAIN_WATER", "crossing": "CROSSING_FORD"},
                {"hex": {"col": 2, "row": 1}, "terrain": "TERRAIN_HILL", "capacity": 4}],
      "side_a": {"name": "Blue", "figures": {"infantry": 3}},
      "side_b": {"name": "Red", "figures": {"chariots": 2}}}})");
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  EXPECT_EQ(sc->width, 6);
  ASSERT_EQ(sc->hexes.size(), 2u);
  EXPECT_EQ(sc->hexes[0].crossing, rs::Crossing::kFord);
  EXPECT_FALSE(sc->hexes[0].capacity.has_value());
  EXPECT_EQ(sc->hexes[1].capacity, 4);
  EXPECT_EQ(sc->armies[1].figures, chariots(2));
  EXPECT_EQ(sc->turn_limit, 0);
  EXPECT_TRUE(Game::initial_state(*sc, rules::stand::stand_1()).ok());
}

TEST(StandCodec, AMalformedScenarioIsARuleError) {
  EXPECT_FALSE(scenario_from_json("not json").ok());
  EXPECT_FALSE(scenario_from_json(R"({"optio": {}})").ok());
  EXPECT_FALSE(scenario_from_json(R"({"stand": {"width": 6, "height": 6, "colour": 3}})").ok());
  EXPECT_FALSE(scenario_from_json(R"({"stand": {"width": 6, "height": 6,
      "hexes": [{"hex": {"col": 1}, "terrain": "TERRAIN_LAVA"}]}})")
                   .ok());
  // Well-formed but missing an army: the codec refuses it.
  EXPECT_EQ(
      scenario_from_json(R"({"stand": {"width": 6, "height": 6, "side_a": {}}})").error().rule,
      "stand.wire.scenario");
  pb::Scenario p;
  p.set_width(6);
  p.set_height(6);
  p.mutable_side_a();
  p.mutable_side_b();
  p.add_hexes()->set_terrain(static_cast<pb::Terrain>(40));
  EXPECT_EQ(to_domain(p).error().rule, "stand.wire.scenario");
  p.mutable_hexes(0)->set_terrain(pb::TERRAIN_WOODS);
  EXPECT_EQ(to_domain(p).error().rule, "stand.wire.scenario");  // the hex names no coordinate
  // Well-formed, but the rules refuse it: empty armies.
  *p.mutable_hexes(0)->mutable_hex() = castra::v1::Coord{};
  auto sc = to_domain(p);
  ASSERT_TRUE(sc.ok());
  EXPECT_EQ(Game::initial_state(*sc, rules::stand::stand_1()).error().rule, "stand.scenario");
}

TEST(StandCodec, TheLegalListTravelsWhole) {
  rs::State s = mid_battle();
  s.at({1, 2}).unmoved = figs(0, 0, 3, 1);
  const rs::Legal legal = Game::legal(s, kA);
  const pb::Legal p = to_proto(legal);
  EXPECT_EQ(p.side(), castra::v1::SIDE_A);
  EXPECT_EQ(p.phase(), pb::PHASE_MOVE);
  EXPECT_TRUE(p.end_phase());
  EXPECT_EQ(p.space().chariots(), 4);
  ASSERT_EQ(p.moves_size(), static_cast<int>(legal.moves.size()));
  for (int i = 0; i < p.moves_size(); ++i) {
    const auto& g = legal.moves[static_cast<std::size_t>(i)];
    EXPECT_EQ(p.moves(i).from().col(), g.from.col);
    EXPECT_EQ(p.moves(i).reach(), g.reach);
    ASSERT_EQ(p.moves(i).destinations_size(), static_cast<int>(g.destinations.size()));
    const auto& d = g.destinations.back();
    const auto& pd = p.moves(i).destinations(p.moves(i).destinations_size() - 1);
    EXPECT_EQ(pd.path_size(), static_cast<int>(d.path.size()));
    EXPECT_EQ(pd.room(), d.room);
    EXPECT_EQ(pd.most().cavalry(), d.most[Troop::kCavalry]);
  }
  const auto& mixed = p.moves(2);  // cavalry and chariots together, from (1,2)
  ASSERT_EQ(mixed.types_size(), 2);
  EXPECT_EQ(mixed.types(0), pb::TROOP_CAVALRY);
  EXPECT_EQ(mixed.types(1), pb::TROOP_CHARIOTS);
  EXPECT_EQ(p.passages_size(), static_cast<int>(legal.passages.size()));
  EXPECT_EQ(p.facings_size(), 2);
  EXPECT_EQ(p.postures(0).posture(), pb::POSTURE_STANDING);
  std::string json;
  ASSERT_TRUE(google::protobuf::util::MessageToJsonString(p, &json).ok());
  EXPECT_NE(json.find("\"moves\""), std::string::npos);
}

}  // namespace
}  // namespace castra::wire::stand
