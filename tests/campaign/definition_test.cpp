// The definition check: each rule with a sound case (the test campaigns) and a broken one.
#include <gtest/gtest.h>

#include "common/wire/campaign_play.hpp"
#include "tests/campaign/campaign_files.hpp"

namespace castra::campaign {
namespace {

using testing::definition;

rules::RuleError refusal(const v1::CampaignDefinition& d) {
  return wire::check_campaign(d).value_or(rules::RuleError{"", "accepted"});
}

v1::BattleNode& battle(v1::CampaignDefinition& d, const std::string& id) {
  for (v1::BattleNode& b : *d.mutable_battles()) {
    if (b.id() == id) return b;
  }
  ADD_FAILURE() << "no battle " << id;
  return *d.mutable_battles(0);
}

TEST(CampaignDefinition, TheTestCampaignsAreSound) {
  EXPECT_EQ(refusal(definition("optio_three")).message, "accepted");
  EXPECT_EQ(refusal(definition("stand_three")).message, "accepted");
}

TEST(CampaignDefinition, AFileThatIsNotACampaignIsRefused) {
  auto parsed = wire::parse_campaign("{\"campaign\": {\"battles\": 3}}");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().rule, "campaign.form");
}

TEST(CampaignDefinition, ACycleIsRefusedSoEveryCampaignEnds) {
  v1::CampaignDefinition d = definition("optio_three");
  battle(d, "cannae").set_on_draw("ticinus");
  EXPECT_EQ(refusal(d).rule, "campaign.definition");
  EXPECT_EQ(refusal(d).message, "the battles cannae and ticinus form a cycle");
}

TEST(CampaignDefinition, AnEdgeToNoBattleIsRefused) {
  v1::CampaignDefinition d = definition("optio_three");
  battle(d, "trebia").set_on_b_wins("zama");
  EXPECT_EQ(refusal(d).message, "battle trebia leads to zama, which is no battle");
}

TEST(CampaignDefinition, ABattleNeverReachedIsRefused) {
  v1::CampaignDefinition d = definition("stand_three");
  battle(d, "farmstead").set_on_draw("hill");
  battle(d, "farmstead").set_on_a_wins("hill");
  battle(d, "farmstead").set_on_b_wins("hill");
  EXPECT_EQ(refusal(d).message, "battle ford cannot be reached from the first");
}

TEST(CampaignDefinition, AUnitIdOfBothSidesIsRefused) {
  v1::CampaignDefinition d = definition("optio_three");
  d.mutable_side_b()->mutable_optio()->mutable_units(0)->set_id(1);
  EXPECT_EQ(refusal(d).rule, "campaign.definition.roster");
  EXPECT_EQ(refusal(d).message, "unit 1 is listed twice (ids are unique across both sides)");
}

TEST(CampaignDefinition, AReinforcementWithAnIdInUseIsRefused) {
  v1::CampaignDefinition d = definition("optio_three");
  battle(d, "trebia").mutable_reinforcements(0)->mutable_units(0)->set_id(3);
  EXPECT_EQ(refusal(d).message, "unit 3 is listed twice (ids are unique across both sides)");
}

TEST(CampaignDefinition, AGeneralKilledMustBeReplaced) {
  v1::CampaignDefinition d = definition("optio_three");
  d.mutable_optio_carry_over()->mutable_general_replacement()->set_kind(
      v1::LeaderReplacement::NONE);
  EXPECT_EQ(refusal(d).rule, "campaign.definition.carry_over");
}

TEST(CampaignDefinition, AFixedMapMustPlaceEveryUnitTheCampaignCanBring) {
  v1::CampaignDefinition d = definition("optio_three");
  auto* units = battle(d, "trebia").mutable_map()->mutable_optio()->mutable_units();
  // Unit 8 arrives before the Trebia; without its square the battle cannot be fought.
  for (int i = 0; i < units->size(); ++i) {
    if (units->Get(i).id() == 8) units->DeleteSubrange(i, 1);
  }
  EXPECT_EQ(refusal(d).rule, "campaign.definition.map");
  EXPECT_EQ(refusal(d).message,
            "battle trebia with all the campaign can bring to it: the map places no unit 8 "
            "(campaign.battle.placement)");
}

TEST(CampaignDefinition, AFixedMapNeedNotPlaceAUnitThatArrivesOnlyAfterIt) {
  v1::CampaignDefinition d = definition("optio_three");
  v1::Reinforcement later;
  later.set_side(v1::SIDE_A);
  v1::RosterUnit* u = later.add_units();
  u->set_id(9);
  u->set_type(v1::optio::UNIT_TYPE_HEAVY_INFANTRY);
  u->set_bases(2);
  u->set_command(1);
  // Unit 9 joins before Cannae, after the Trebia: the Trebia's fixed map has no square for it.
  *battle(d, "cannae").add_reinforcements() = later;
  EXPECT_EQ(refusal(d).message, "accepted");
  // Joining before the Ticinus, it can fight at the Trebia, which must place it.
  battle(d, "cannae").clear_reinforcements();
  *battle(d, "ticinus").add_reinforcements() = later;
  EXPECT_EQ(refusal(d).message,
            "battle trebia with all the campaign can bring to it: the map places no unit 9 "
            "(campaign.battle.placement)");
}

TEST(CampaignDefinition, FixedPlacementsMustHoldEveryFigureTheCampaignCanBring) {
  v1::CampaignDefinition d = definition("stand_three");
  // Side A may bring 11 infantry to the ford (8, and 3 that arrive there); its places hold 11.
  battle(d, "ford")
      .mutable_map()
      ->mutable_stand()
      ->mutable_placements(0)
      ->mutable_figures()
      ->set_infantry(5);
  EXPECT_EQ(refusal(d).rule, "campaign.definition.map");
  EXPECT_EQ(refusal(d).message,
            "battle ford with all the campaign can bring to it: the map's placements have no "
            "room for 1 infantry of side A (campaign.battle.placement)");
}

TEST(CampaignDefinition, AMapPlacingAUnitNoRosterHasIsRefused) {
  v1::CampaignDefinition d = definition("optio_three");
  auto* u = battle(d, "trebia").mutable_map()->mutable_optio()->add_units();
  u->set_id(40);
  EXPECT_EQ(refusal(d).message, "battle trebia: the map places unit 40, which no roster has");
}

TEST(CampaignDefinition, AMapTheEngineRefusesIsRefusedWithTheEnginesWords) {
  v1::CampaignDefinition d = definition("stand_three");
  battle(d, "hill").mutable_map()->mutable_stand()->set_width(1);
  EXPECT_EQ(refusal(d).rule, "campaign.definition.map");
}

TEST(CampaignDefinition, PartsOfAnotherRuleSetAreRefused) {
  v1::CampaignDefinition d = definition("optio_three");
  *battle(d, "cannae").mutable_map() = definition("stand_three").battles(0).map();
  EXPECT_EQ(refusal(d).message, "battle cannae: the map is not of the campaign's rule set");
  d = definition("optio_three");
  d.set_ruleset("chess");
  EXPECT_EQ(refusal(d).message, "unknown rule set \"chess\" (optio or stand)");
}

}  // namespace
}  // namespace castra::campaign
