// castra-client's campaign screen without a server: a CampaignView (tests/client/data, two
// battles of an Optio campaign fought, side A's selection for the third due) handed to the
// client with --campaign; a --script clicks through the roster picker; the tests read the
// screenshots (the graph's path, results and current battle, both rosters) and the selection
// the client would have sent (--commands-out). A finished campaign's record, built from real
// matches played with the engines, is checked battle by battle and saved.
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "client/sdl/theme.hpp"
#include "tests/client/client_support.hpp"
#include "tests/support/server_process.hpp"

namespace castra {
namespace {

using namespace std::chrono_literals;
using testing::Picture;
using testing::rgb;
namespace theme = client::theme;
namespace pbu = google::protobuf::util;

struct CampaignRun {
  std::string dir;
  int exit_code = -1;
};

// Writes the view (and a record, when given) and the script, runs the client on them.
CampaignRun run_campaign(const std::string& name, const std::string& view_lines,
                         const std::string& script) {
  CampaignRun r;
  r.dir = testing::make_temp_dir("castra-client-" + name);
  testing::write_file(r.dir + "/campaign.jsonl", view_lines);
  testing::write_file(r.dir + "/script.txt", script);
  // Tall enough that both rosters show every row.
  r.exit_code =
      testing::run_client(r.dir, {"--campaign", r.dir + "/campaign.jsonl", "--commands-out",
                                  r.dir + "/commands.jsonl", "--script", r.dir + "/script.txt",
                                  "--exit-after", "100", "--width", "1280", "--height", "1060"});
  return r;
}

std::string log_of(const CampaignRun& r) {
  return testing::read_file(r.dir + "/client.log");
}

std::vector<v1::SubmitSelection> read_selections(const std::string& path) {
  std::vector<v1::SubmitSelection> out;
  std::istringstream in(testing::read_file(path));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    v1::SubmitSelection s;
    EXPECT_TRUE(pbu::JsonStringToMessage(line, &s).ok()) << line;
    out.push_back(s);
  }
  return out;
}

bool inside(const SDL_Rect& outer, const SDL_Rect& inner) {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w &&
         inner.y + inner.h <= outer.y + outer.h;
}

// More than `share` of the area is exactly `color`.
bool mostly(const Picture& p, const SDL_Rect& r, SDL_Color color, double share = 0.5) {
  return p.count(rgb(color), r) > share * r.w * r.h;
}

std::string clicks(const std::string& prefix, const std::vector<int>& ids) {
  std::string out;
  for (int id : ids)
    out += "click-button " + prefix + " " + std::to_string(id) + "\n";
  return out;
}

TEST(ClientCampaignScreen, DrawsTheGraphWithThePathTakenEachResultAndBothRosters) {
  const CampaignRun r = run_campaign("campaign", testing::json_line(testing::campaign_fixture()),
                                     "wait campaign\nexpect screen campaign\n"
                                     "expect disabled Submit selection\n"
                                     "frames 2\nscreenshot campaign.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto p = Picture::load(r.dir + "/campaign.png");
  ASSERT_TRUE(p);
  const auto graph = p->region("graph");
  ASSERT_TRUE(graph);

  // Every battle of the definition is a box in the graph, in columns by distance from the
  // Trebia: Placentia and Trasimene one result away, Geronium and Cannae two.
  std::map<std::string, SDL_Rect> node;
  for (const char* id : {"trebia", "placentia", "trasimene", "geronium", "cannae"}) {
    const auto box = p->region(std::string("node ") + id);
    ASSERT_TRUE(box) << id;
    EXPECT_TRUE(inside(*graph, *box)) << id;
    node[id] = *box;
  }
  EXPECT_LT(node["trebia"].x, node["placentia"].x);
  EXPECT_EQ(node["placentia"].x, node["trasimene"].x);
  EXPECT_LT(node["trasimene"].x, node["geronium"].x);
  EXPECT_EQ(node["geronium"].x, node["cannae"].x);
  // A's result branches above B's: Placentia (A wins at the Trebia) over Trasimene.
  EXPECT_LT(node["placentia"].y, node["trasimene"].y);

  // The two battles fought carry their result, both Carthage's (side B) wins; the others none.
  for (const char* id : {"trebia", "trasimene"}) {
    const auto strip = p->region(std::string("result ") + id);
    ASSERT_TRUE(strip) << id;
    EXPECT_TRUE(mostly(*p, *strip, theme::kSideB)) << id;
    EXPECT_FALSE(mostly(*p, *strip, theme::kSideA)) << id;
  }
  for (const char* id : {"placentia", "geronium", "cannae"})
    EXPECT_FALSE(p->region(std::string("result ") + id)) << id;

  // The path taken, Trebia -> Trasimene -> Cannae, in the path's colour; no other arrow.
  for (const char* e : {"trebia>trasimene", "trasimene>cannae"}) {
    const auto mark = p->region(std::string("edge ") + e);
    ASSERT_TRUE(mark) << e;
    EXPECT_GT(p->count(rgb(theme::kCampaignPath), *mark), 4) << e;
  }
  for (const char* e :
       {"trebia>placentia", "placentia>trasimene", "trasimene>geronium", "geronium>cannae"}) {
    const auto mark = p->region(std::string("edge ") + e);
    ASSERT_TRUE(mark) << e;
    EXPECT_EQ(p->count(rgb(theme::kCampaignPath), *mark), 0) << e;
  }
  // Cannae is the battle now, ringed.
  const auto now = p->region("current-node");
  ASSERT_TRUE(now);
  EXPECT_EQ(now->x, node["cannae"].x);
  EXPECT_EQ(now->y, node["cannae"].y);
  const SDL_Rect ring{now->x - 4, now->y - 4, now->w + 8, now->h + 8};
  EXPECT_GT(p->count(rgb(theme::kCurrentNode), ring), 2 * (now->w + now->h));

  // Rome's roster whole: the units that survived both battles and the reinforcements before
  // Cannae, each a badge in side A's colour; the units lost are gone.
  const auto roster_a = p->region("roster-a");
  const auto roster_b = p->region("roster-b");
  ASSERT_TRUE(roster_a && roster_b);
  for (int id : {3, 5, 8, 12, 15, 16, 17, 18, 19, 20}) {
    const auto badge = p->region("unit " + std::to_string(id));
    ASSERT_TRUE(badge) << "unit " << id;
    EXPECT_TRUE(inside(*roster_a, *badge)) << "unit " << id;
    EXPECT_TRUE(mostly(*p, *badge, theme::kSideA, 0.4)) << "unit " << id;
    EXPECT_TRUE(p->widget("Pick unit " + std::to_string(id))) << "unit " << id;
  }
  for (int id : {1, 2, 4, 6, 7, 9, 10, 11, 13, 14})
    EXPECT_FALSE(p->region("unit " + std::to_string(id))) << "unit " << id << " was lost";
  for (int id : {1, 2, 3, 4})
    EXPECT_TRUE(p->widget("Pick leader " + std::to_string(id))) << "leader " << id;
  // Carthage's as far as Rome has seen it: what fought, less the Gauls and elephants lost; the
  // two units never seen are counted, not shown, and nothing of it can be picked.
  for (int id : {21, 22, 23, 24, 26, 27, 28, 29, 30, 32, 33}) {
    const auto badge = p->region("unit " + std::to_string(id));
    ASSERT_TRUE(badge) << "unit " << id;
    EXPECT_TRUE(inside(*roster_b, *badge)) << "unit " << id;
    EXPECT_TRUE(mostly(*p, *badge, theme::kSideB, 0.4)) << "unit " << id;
    EXPECT_FALSE(p->widget("Pick unit " + std::to_string(id))) << "unit " << id;
  }
  for (int id : {25, 31, 34, 35})
    EXPECT_FALSE(p->region("unit " + std::to_string(id))) << "unit " << id;
  const auto hidden = p->region("hidden-b");
  ASSERT_TRUE(hidden) << "the opponent's unseen units are counted";
  EXPECT_TRUE(inside(*roster_b, *hidden));
  EXPECT_FALSE(p->region("hidden-a"));

  // The player's action is due: the gold bar, the picker; no spectator banner.
  const auto top = p->region("top-bar");
  ASSERT_TRUE(top);
  EXPECT_TRUE(mostly(*p, *top, theme::kYourMove));
  EXPECT_TRUE(p->region("picker"));
  EXPECT_TRUE(p->region("deadline"));
  EXPECT_TRUE(p->region("standings"));
  EXPECT_TRUE(p->region("history 2"));
  EXPECT_FALSE(p->region("spectator-banner"));
}

TEST(ClientCampaignScreen, ASpectatorSeesBothRostersAndNothingToPick) {
  v1::CampaignView view = testing::campaign_fixture();
  auto* s = view.mutable_summary();
  s->set_seated(false);
  s->set_my_action(false);
  const CampaignRun r = run_campaign("campaign-spectator", testing::json_line(view),
                                     "wait campaign\nframes 2\nscreenshot watch.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto p = Picture::load(r.dir + "/watch.png");
  ASSERT_TRUE(p);
  const auto banner = p->region("spectator-banner");
  ASSERT_TRUE(banner);
  EXPECT_TRUE(mostly(*p, *banner, theme::kSpectator));
  EXPECT_FALSE(p->region("picker"));
  EXPECT_FALSE(p->widget("Submit selection"));
  EXPECT_FALSE(p->widget("Pick unit 3"));
  EXPECT_FALSE(p->widget("Resign campaign"));
  EXPECT_TRUE(p->region("unit 3"));
  EXPECT_TRUE(p->region("unit 21"));
  const auto top = p->region("top-bar");
  ASSERT_TRUE(top);
  EXPECT_FALSE(mostly(*p, *top, theme::kYourMove));
}

TEST(ClientRosterPicker, ASelectionAboveTheLimitCannotBeSubmitted) {
  // Cannae's limit is 8 units. Nine ticked, with three leaders.
  const std::string dir = testing::make_temp_dir("castra-client-picker");
  testing::write_file(dir + "/campaign.jsonl", testing::json_line(testing::campaign_fixture()));
  const std::string script = dir + "/script.txt";
  testing::write_file(script, "wait campaign\n" +
                                  clicks("Pick unit", {3, 5, 8, 12, 15, 16, 17, 18, 19}) +
                                  clicks("Pick leader", {1, 3, 4}) +
                                  "frames 2\nscreenshot over.png\nexpect disabled Submit "
                                  "selection\nprint over\nfollow\n");
  testing::ClientProcess client(
      dir, {"--campaign", dir + "/campaign.jsonl", "--commands-out", dir + "/commands.jsonl",
            "--script", script, "--exit-after", "100", "--width", "1280", "--height", "1060"});
  ASSERT_TRUE(testing::ScriptWriter::wait_for_line(dir, "over", 60s))
      << testing::read_file(dir + "/client.log");
  auto over = Picture::load(dir + "/over.png");
  ASSERT_TRUE(over);
  const auto count = over->region("picker-count");
  ASSERT_TRUE(count);
  EXPECT_TRUE(mostly(*over, *count, theme::kError, 0.4)) << "nine of eight is said in red";
  const auto submit = over->widget("Submit selection");
  ASSERT_TRUE(submit);

  // A click on the disabled button sends nothing; one unit less, and it goes.
  testing::ScriptWriter steps(script);
  ASSERT_TRUE(steps.run("click " + std::to_string(submit->x + submit->w / 2) + " " +
                            std::to_string(submit->y + submit->h / 2) +
                            "\nframes 3\nexpect disabled Submit selection\n"
                            "click-button Pick unit 19\nframes 2\nscreenshot ok.png\n",
                        60s, dir))
      << testing::read_file(dir + "/client.log");
  EXPECT_TRUE(read_selections(dir + "/commands.jsonl").empty()) << "nothing above the limit";
  ASSERT_TRUE(
      steps.run("click-button Submit selection\nframes 2\nscreenshot sealed.png\n"
                "expect selection-sealed\n",
                60s, dir))
      << testing::read_file(dir + "/client.log");
  steps.append("quit\n");
  EXPECT_EQ(client.wait(60s), 0) << testing::read_file(dir + "/client.log");

  auto ok = Picture::load(dir + "/ok.png");
  ASSERT_TRUE(ok);
  ASSERT_TRUE(ok->region("picker-count"));
  EXPECT_TRUE(mostly(*ok, *ok->region("picker-count"), theme::kOk, 0.4));
  const auto sent = read_selections(dir + "/commands.jsonl");
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].campaign_id(), "c-7f3a19");
  EXPECT_EQ(sent[0].node(), "cannae");
  const std::set<int> units(sent[0].selection().units().begin(), sent[0].selection().units().end());
  const std::set<int> leaders(sent[0].selection().leaders().begin(),
                              sent[0].selection().leaders().end());
  EXPECT_EQ(units, (std::set<int>{3, 5, 8, 12, 15, 16, 17, 18}));
  EXPECT_EQ(leaders, (std::set<int>{1, 3, 4}));
  EXPECT_EQ(sent[0].entropy().size(), 32u) << "32 bytes of the client's entropy";
  // Sealed: the picker is gone.
  auto sealed = Picture::load(dir + "/sealed.png");
  ASSERT_TRUE(sealed);
  EXPECT_FALSE(sealed->region("picker"));
  EXPECT_FALSE(sealed->widget("Pick unit 3"));
}

TEST(ClientRosterPicker, StandFiguresAreChosenPerTypeWithinTheRosterAndTheLimit) {
  // Qadesh's Egyptians choose 10 figures of their 12 infantry, 4 archers and 2 chariots.
  v1::CampaignView view;
  auto* s = view.mutable_summary();
  s->set_campaign_id("c-qadesh");
  s->set_ruleset("stand");
  s->set_status(v1::CAMPAIGN_LIVE);
  s->set_stage(v1::STAGE_SELECTING);
  s->set_node("qadesh");
  s->set_player_a("ramesses");
  s->set_player_b("muwatalli");
  s->set_my_side(v1::SIDE_A);
  s->set_seated(true);
  s->set_my_action(true);
  auto* d = view.mutable_definition();
  d->set_name("egypt-and-hatti");
  d->set_title("Egypt against the Hittites");
  d->set_ruleset("stand");
  d->set_first_battle("qadesh");
  auto* b = d->add_battles();
  b->set_id("qadesh");
  b->set_name("Qadesh");
  b->set_selection_limit(10);
  view.mutable_roster_a()->set_army("Egypt");
  auto* mine = view.mutable_roster_a()->mutable_stand()->mutable_figures();
  mine->set_infantry(12);
  mine->set_archers(4);
  mine->set_chariots(2);
  view.mutable_roster_b()->set_army("Hatti");
  view.mutable_roster_b()->mutable_stand()->mutable_figures()->set_chariots(6);
  view.set_hidden_figures_b(14);
  std::string script = "wait campaign\n";
  for (int i = 0; i < 8; ++i)
    script += "click-button More infantry\n";
  for (int i = 0; i < 3; ++i)
    script += "click-button More archers\n";
  // Two chariots are all there are: the third + is disabled.
  script +=
      "click-button More chariots\nclick-button More chariots\nframes 2\n"
      "expect disabled More chariots\nscreenshot over.png\n"
      "expect disabled Submit selection\n"
      "click-button Fewer chariots\nclick-button Fewer chariots\n"
      "click-button Fewer infantry\nframes 2\nscreenshot ok.png\n"
      "click-button Submit selection\nframes 2\nquit\n";
  const CampaignRun r = run_campaign("picker-stand", testing::json_line(view), script);
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto over = Picture::load(r.dir + "/over.png");
  ASSERT_TRUE(over);
  ASSERT_TRUE(over->region("picker-count"));
  EXPECT_TRUE(mostly(*over, *over->region("picker-count"), theme::kError, 0.4));
  EXPECT_TRUE(over->region("hidden-b")) << "the Hittites' unseen figures are counted";
  const auto sent = read_selections(r.dir + "/commands.jsonl");
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].node(), "qadesh");
  EXPECT_EQ(sent[0].selection().figures().infantry(), 7);
  EXPECT_EQ(sent[0].selection().figures().archers(), 3);
  EXPECT_EQ(sent[0].selection().figures().cavalry(), 0);
  EXPECT_EQ(sent[0].selection().figures().chariots(), 0);
  EXPECT_EQ(sent[0].selection().units_size(), 0);
  EXPECT_EQ(sent[0].entropy().size(), 32u);
}

// The fixture's campaign finished, with a record of two real battles: the training game on
// fair dice, side A resigning, played twice.
struct Finished {
  v1::CampaignView view;
  v1::CampaignRecord record;
};

Finished finished_campaign() {
  Finished f;
  f.view = testing::campaign_fixture();
  auto* s = f.view.mutable_summary();
  s->set_status(v1::CAMPAIGN_FINISHED);
  s->set_stage(v1::STAGE_OVER);
  s->set_my_action(false);
  s->set_deadline_ms(0);
  s->mutable_outcome()->set_kind(v1::Outcome::WIN_B);
  s->mutable_outcome()->set_reason("Carthage won 2 battles of 2");
  f.record.set_format("castra-campaign-record/1");
  f.record.set_campaign_id(s->campaign_id());
  *f.record.mutable_definition() = f.view.definition();
  f.record.set_finished(true);
  *f.record.mutable_outcome() = s->outcome();
  for (const auto& fought : f.view.history()) {
    auto m = testing::optio_training(26, true);
    EXPECT_FALSE(m->end(match::EndReason::kResigned, rules::Side::kA,
                        rules::Outcome::win(rules::Side::kB, "side A resigned"))
                     .has_value());
    auto* b = f.record.add_battles();
    b->set_node(fought.node());
    *b->mutable_roster_a_before() = fought.roster_a_before();
    *b->mutable_roster_a_after() = fought.roster_a_after();
    *b->mutable_match() = *m->record();
  }
  return f;
}

TEST(ClientCampaignVerify, ChecksEveryBattlesSeedAndSavesTheCampaignRecord) {
  const Finished f = finished_campaign();
  ASSERT_EQ(f.record.battles_size(), 2);
  const CampaignRun r =
      run_campaign("campaign-verify", testing::json_line(f.view) + testing::json_line(f.record),
                   "wait campaign-record\nframes 2\nscreenshot verify.png\n"
                   "click-button Save campaign record\nframes 2\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto p = Picture::load(r.dir + "/verify.png");
  ASSERT_TRUE(p);
  for (const char* b : {"battle-seed 1", "battle-seed 2"}) {
    const auto badge = p->region(b);
    ASSERT_TRUE(badge) << b;
    EXPECT_TRUE(mostly(*p, *badge, theme::kOk)) << b << " is green";
  }
  EXPECT_FALSE(p->region("picker"));
  EXPECT_FALSE(p->region("current-node")) << "a finished campaign has no battle now";
  // The record saved is the one the server exported, whole.
  v1::CampaignRecord saved;
  const std::string path = r.dir + "/castra-campaign-c-7f3a19.json";
  ASSERT_TRUE(pbu::JsonStringToMessage(testing::read_file(path), &saved).ok()) << path;
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(saved, f.record));
}

TEST(ClientCampaignVerify, WarnsOfTheBattleWhoseSeedDoesNotMatchItsCommitment) {
  Finished f = finished_campaign();
  // The second battle's revealed seed is not the one committed to.
  f.record.mutable_battles(1)->mutable_match()->set_server_seed(std::string(64, '1'));
  const CampaignRun r =
      run_campaign("campaign-tampered", testing::json_line(f.view) + testing::json_line(f.record),
                   "wait campaign-record\nframes 2\nscreenshot verify.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto p = Picture::load(r.dir + "/verify.png");
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->region("battle-seed 1") && p->region("battle-seed 2"));
  EXPECT_TRUE(mostly(*p, *p->region("battle-seed 1"), theme::kOk));
  EXPECT_TRUE(mostly(*p, *p->region("battle-seed 2"), theme::kError)) << "the warning is red";
}

}  // namespace
}  // namespace castra

namespace castra {
namespace {

TEST(ClientCampaignVerify, ChecksABattlesSeedAgainstTheCommitmentShownBeforeItsSelections) {
  Finished f = finished_campaign();
  // While the second battle's selections were made the client was shown a commitment that is
  // not the one its record holds (whose seed matches the record's own).
  v1::CampaignView selecting = testing::campaign_fixture();
  selecting.mutable_history()->RemoveLast();
  selecting.mutable_summary()->set_node("trasimene");
  selecting.mutable_summary()->set_battle_dice_commitment(std::string(64, 'a'));
  const CampaignRun r = run_campaign(
      "campaign-shown",
      testing::json_line(selecting) + testing::json_line(f.view) + testing::json_line(f.record),
      "wait campaign-record\nframes 2\nscreenshot verify.png\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << log_of(r);
  auto p = Picture::load(r.dir + "/verify.png");
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->region("battle-seed 1") && p->region("battle-seed 2"));
  EXPECT_TRUE(mostly(*p, *p->region("battle-seed 1"), theme::kOk));
  EXPECT_TRUE(mostly(*p, *p->region("battle-seed 2"), theme::kError));
}

}  // namespace
}  // namespace castra
