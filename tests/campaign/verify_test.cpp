// A campaign record verifies end to end, and each kind of tampering fails naming its step.
// The records are played offline by two greedy computer players (campaign_files.hpp).
#include <gtest/gtest.h>

#include "common/wire/campaign_play.hpp"
#include "tests/campaign/campaign_files.hpp"

namespace castra::campaign {
namespace {

using testing::played;

std::string failure(const v1::CampaignRecord& r) {
  return wire::verify_campaign(r).value_or("verified");
}

TEST(CampaignVerify, APlayedOptioCampaignOfThreeBattlesVerifies) {
  const v1::CampaignRecord& r = played("optio_three");
  ASSERT_EQ(r.battles_size(), 3);
  EXPECT_EQ(r.battles(0).node(), "ticinus");
  EXPECT_EQ(r.battles(1).node(), "trebia");
  EXPECT_EQ(r.battles(2).node(), "cannae");
  EXPECT_TRUE(r.finished());
  EXPECT_EQ(failure(r), "verified");
}

TEST(CampaignVerify, APlayedStandCampaignOfThreeBattlesVerifies) {
  const v1::CampaignRecord& r = played("stand_three");
  ASSERT_EQ(r.battles_size(), 3);
  EXPECT_EQ(failure(r), "verified");
}

TEST(CampaignVerify, OneFigureAddedToARosterBeforeFails) {
  v1::CampaignRecord r = played("stand_three");
  auto* f = r.mutable_battles(1)->mutable_roster_a_before()->mutable_stand()->mutable_figures();
  f->set_infantry(f->infantry() + 1);
  EXPECT_EQ(failure(r),
            "battle 2 (ford): side A's roster before is not the carry-over of battle 1 with this "
            "battle's reinforcements");
}

TEST(CampaignVerify, OneFigureAddedToARosterAfterFails) {
  v1::CampaignRecord r = played("stand_three");
  auto* f = r.mutable_battles(0)->mutable_roster_b_after()->mutable_stand()->mutable_figures();
  f->set_cavalry(f->cavalry() + 1);
  EXPECT_EQ(failure(r),
            "battle 1 (farmstead): side B's roster after is not the carry-over of the battle");
}

TEST(CampaignVerify, ASwappedBattleRecordFails) {
  v1::CampaignRecord r = played("stand_three");
  r.mutable_battles(0)->mutable_match()->Swap(r.mutable_battles(2)->mutable_match());
  EXPECT_EQ(failure(r),
            "battle 1 (farmstead): the match was not fought with this battle's map and the "
            "fielded armies");
}

TEST(CampaignVerify, AnAlteredStandSelectionFails) {
  v1::CampaignRecord r = played("stand_three");
  auto* f = r.mutable_battles(0)->mutable_selection_a()->mutable_selection()->mutable_figures();
  f->set_infantry(f->infantry() - 1);
  EXPECT_EQ(failure(r), "battle 1 (farmstead): side A's selection does not match its commitment");
}

TEST(CampaignVerify, AnAlteredOptioSelectionFails) {
  v1::CampaignRecord r = played("optio_three");
  r.mutable_battles(2)->mutable_selection_b()->mutable_selection()->mutable_units()->RemoveLast();
  EXPECT_EQ(failure(r), "battle 3 (cannae): side B's selection does not match its commitment");
}

TEST(CampaignVerify, AnOptioRosterWithAUnitAddedFails) {
  v1::CampaignRecord r = played("optio_three");
  v1::RosterUnit* u = r.mutable_battles(1)->mutable_roster_b_before()->mutable_optio()->add_units();
  u->set_id(99);
  u->set_type(v1::optio::UNIT_TYPE_ELEPHANTS);
  u->set_bases(2);
  u->set_command(3);
  EXPECT_EQ(failure(r),
            "battle 2 (trebia): side B's roster before is not the carry-over of battle 1 with this "
            "battle's reinforcements");
}

TEST(CampaignVerify, ABattleOffThePathFails) {
  v1::CampaignRecord r = played("optio_three");
  r.mutable_battles(1)->set_node("cannae");
  EXPECT_EQ(failure(r), "battle 2 (cannae): the path through the battles leads to trebia");
}

TEST(CampaignVerify, AnOutcomeTheDefinitionDoesNotGiveFails) {
  v1::CampaignRecord r = played("stand_three");
  const v1::Outcome::Kind kind = r.outcome().kind();
  r.mutable_outcome()->set_kind(kind == v1::Outcome::WIN_A ? v1::Outcome::WIN_B
                                                           : v1::Outcome::WIN_A);
  EXPECT_TRUE(failure(r).starts_with("the campaign's outcome is not the definition's decision"))
      << failure(r);
}

TEST(CampaignVerify, AFinishedRecordWithABattleLeftOutFails) {
  v1::CampaignRecord r = played("stand_three");
  r.mutable_battles()->RemoveLast();
  EXPECT_EQ(failure(r), "the record is finished, but the campaign goes on after battle 2");
  r.set_finished(false);
  r.clear_outcome();
  EXPECT_EQ(failure(r), "verified");  // a campaign in play exports the battles fought so far
}

TEST(CampaignVerify, AnEditedRollInABattleFails) {
  v1::CampaignRecord r = played("stand_three");
  v1::MatchRecord* m = r.mutable_battles(0)->mutable_match();  // it opens with a roll-off
  bool edited = false;
  for (v1::LogEntry& e : *m->mutable_entries()) {
    if (e.rolls_size() == 0) continue;
    e.mutable_rolls(0)->set_face(e.rolls(0).face() % 6 + 1);
    edited = true;
    break;
  }
  ASSERT_TRUE(edited);
  EXPECT_TRUE(failure(r).starts_with("battle 1 (farmstead): the match record: entry "))
      << failure(r);
}

TEST(CampaignVerify, TheFixedDeploymentBattleIsFoughtFromTheCarriedRosters) {
  const v1::CampaignRecord& r = played("stand_three");
  const v1::stand::Scenario& ford = r.battles(1).match().scenario().stand();
  EXPECT_GT(ford.placements_size(), 0);
  EXPECT_EQ(ford.side_a().figures().SerializeAsString(),
            r.battles(1).roster_a_before().stand().figures().SerializeAsString());
}

}  // namespace
}  // namespace castra::campaign
