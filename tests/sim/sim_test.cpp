// castra-sim as a program: scripted games to their results and golden hashes, `verify` on
// honest and tampered match and campaign records, and `check-campaign`.
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "common/wire/any_match.hpp"
#include "proto/castra/v1/match.pb.h"
#include "tests/campaign/campaign_files.hpp"
#include "tests/support/tool_run.hpp"

namespace castra {
namespace {

namespace pbu = google::protobuf::util;

const std::string kSource = CASTRA_SOURCE_DIR;
const std::string kSim = std::string(CASTRA_BINARY_DIR) + "/tools/sim/castra-sim";
const std::string kSeed(64, '0');

using SimRun = castra::testing::ToolRun;

SimRun run(const std::string& args) {
  return testing::run_tool(kSim + " " + args);
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string dice_list(const std::string& path) {
  std::stringstream in(read(path));
  std::string out;
  int face = 0;
  while (in >> face)
    out += (out.empty() ? "" : ",") + std::to_string(face);
  return out;
}

// The value of `"key":"value"` in the last line that has it.
std::string last_string(const std::string& out, const std::string& key) {
  const std::string needle = "\"" + key + "\":\"";
  const auto at = out.rfind(needle);
  if (at == std::string::npos) return "";
  const auto start = at + needle.size();
  return out.substr(start, out.find('"', start) - start);
}

// The golden hash was recorded under optio-1; a game keeps the rules version it began with.
TEST(CastraSim, TheOptioTrainingGameRunsToItsResultAndGoldenHash) {
  const SimRun r = run("run --rules-version optio-1 --scenario " + kSource +
                       "/tests/rules/optio/data/training_scenario.json --commands " + kSource +
                       "/tests/rules/optio/data/training_game.jsonl --seed " + kSeed + " --dice " +
                       dice_list(kSource + "/tests/rules/optio/data/training_game.dice"));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(last_string(r.out, "kind"), "WIN_B");
  std::set<int> routed;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    const auto at = line.find("\"routed\":{\"unit\":");
    if (at != std::string::npos) routed.insert(std::stoi(line.substr(at + 17)));
  }
  EXPECT_EQ(routed, (std::set<int>{1, 4, 6, 14, 15}));
  std::string golden;
  std::istringstream(read(kSource + "/tests/data/optio_training.hash")) >> golden;
  EXPECT_EQ(last_string(r.out, "final_state_hash"), golden);
}

// The ViewEvents of castra-sim's output.
std::vector<v1::ViewEvent> events_of(const std::string& out) {
  std::vector<v1::ViewEvent> events;
  std::istringstream lines(out);
  std::string line;
  const std::string prefix = "{\"event\":";
  while (std::getline(lines, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    v1::ViewEvent e;
    EXPECT_TRUE(
        pbu::JsonStringToMessage(line.substr(prefix.size(), line.size() - prefix.size() - 1), &e)
            .ok());
    events.push_back(e);
  }
  return events;
}

TEST(CastraSim, TheStandTrainingGameRunsToItsResultAndGoldenHash) {
  // The dice of tests/rules/stand/scripted_game_test.cpp: a tied roll-off rolled again,
  // then two d10s for fractions.
  const SimRun r =
      run("run --scenario " + kSource + "/scenarios/stand/training.json --commands " + kSource +
          "/tests/rules/stand/data/training_game.jsonl --seed " + kSeed + " --dice 4,4,6,3,2,1");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(last_string(r.out, "kind"), "WIN_A");
  std::map<std::string, int> lost_a;
  std::map<std::string, int> lost_b;
  for (const auto& e : events_of(r.out)) {
    if (!e.event().stand().has_casualties()) continue;
    const auto& c = e.event().stand().casualties();
    auto& lost = c.side() == v1::SIDE_A ? lost_a : lost_b;
    lost["infantry"] += c.lost().infantry();
    lost["archers"] += c.lost().archers();
    lost["cavalry"] += c.lost().cavalry();
    lost["chariots"] += c.lost().chariots();
  }
  EXPECT_EQ(lost_a, (std::map<std::string, int>{
                        {"archers", 0}, {"cavalry", 2}, {"chariots", 1}, {"infantry", 0}}));
  EXPECT_EQ(lost_b, (std::map<std::string, int>{
                        {"archers", 4}, {"cavalry", 0}, {"chariots", 0}, {"infantry", 8}}));
  std::string golden;
  std::istringstream(read(kSource + "/tests/data/stand_training.hash")) >> golden;
  EXPECT_EQ(last_string(r.out, "final_state_hash"), golden);
}

TEST(CastraSim, ARefusedCommandPrintsItsRuleAndExitsThree) {
  const std::string script = ::testing::TempDir() + "/refused.jsonl";
  std::ofstream(script)
      << "{\"side\":\"SIDE_B\",\"command\":{\"optio\":{\"end_deployment\":{}}}}\n";
  const SimRun r = run("run --scenario " + kSource +
                       "/tests/rules/optio/data/training_scenario.json --commands " + script +
                       " --seed " + kSeed);
  EXPECT_EQ(r.exit_code, 3) << r.out;
  EXPECT_NE(r.out.find("\"refused\":{\"line\":1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("match.turn"), std::string::npos) << r.out;
}

// An Optio match played on fair dice from legal commands only: deployment, both orders
// cards, then `phases` move phases. Side A's card goes straight ahead from each start
// square for `a_length` squares, zigzagging when `a_zigzag`.
std::unique_ptr<wire::AnyMatch> play_optio(int phases, int a_length, bool a_zigzag) {
  v1::ScenarioFile scenario;
  EXPECT_TRUE(pbu::JsonStringToMessage(
                  read(kSource + "/tests/rules/optio/data/training_scenario.json"), &scenario)
                  .ok());
  match::Bytes32 seed{};
  seed.fill(0x5A);
  auto made = wire::make_match({"verify-optio", scenario, "", seed});
  EXPECT_TRUE(made.ok());
  auto& m = **made;
  m.seat(rules::Side::kA, "entropy of A");
  m.seat(rules::Side::kB, "entropy of B");
  match::Bytes32 salt{};
  int ended_phases = 0;
  std::set<int> deployed;  // a deployed unit may be moved again until deployment ends
  std::set<int> placed;
  for (int step = 0; step < 200 && ended_phases < phases; ++step) {
    const rules::Acting act = m.acting();
    const rules::Side side = act.a ? rules::Side::kA : rules::Side::kB;
    const v1::optio::Legal legal = m.legal(side).optio();
    v1::GameCommand c;
    auto* oc = c.mutable_optio();
    bool chosen = false;
    for (const auto& u : legal.units()) {
      if (u.placements_size() == 0 || !deployed.insert(u.unit()).second) continue;
      auto* d = oc->mutable_deploy();
      d->set_unit(u.unit());
      *d->mutable_at() = u.placements(0);
      d->set_facing(u.facings_size() > 0 ? u.facings(0) : 0);
      if (u.formations_size() > 0) d->set_formation(u.formations(0));
      chosen = true;
      break;
    }
    for (const auto& l : legal.leaders()) {
      if (chosen || l.place_on_size() == 0 || !placed.insert(l.leader()).second) continue;
      oc->mutable_place_leader()->set_leader(l.leader());
      oc->mutable_place_leader()->set_unit(l.place_on(0));
      chosen = true;
    }
    if (!chosen && legal.end_deployment()) {
      oc->mutable_end_deployment();
      chosen = true;
    }
    if (!chosen && legal.orders().submit()) {
      auto* submit = oc->mutable_submit_orders();
      for (const auto& start : legal.orders().starts()) {
        auto* path = submit->add_paths();
        *path = start;
        v1::Coord next = start.squares(0);
        const int length = side == rules::Side::kA ? a_length : 1;
        for (int k = 0; k < length; ++k) {
          next.set_row(side == rules::Side::kA ? next.row() + 1 : next.row() - 1);
          if (side == rules::Side::kA && a_zigzag) next.set_col(next.col() + (k % 2 == 0 ? 1 : -1));
          *path->add_squares() = next;
        }
      }
      chosen = true;
    }
    if (!chosen && legal.end_phase()) {
      oc->mutable_end_phase();
      ++ended_phases;
      chosen = true;
    }
    EXPECT_TRUE(chosen) << "no legal command at step " << step;
    salt[0] = static_cast<std::uint8_t>(step);
    auto done = m.submit(side, c, salt);
    EXPECT_TRUE(done.ok()) << done.error().message;
  }
  return std::move(*made);
}

v1::MatchRecord optio_record() {
  auto m = play_optio(4, 1, false);
  m->end(match::EndReason::kResigned, rules::Side::kA,
         rules::Outcome::win(rules::Side::kB, "side A resigned"));
  auto record = m->record();
  EXPECT_TRUE(record.has_value());
  return *record;
}

// Everything viewer v receives, as the bytes the server would serialise, with the
// commitment values masked or not.
std::string stream_for(const wire::AnyMatch& m, rules::Viewer v, bool mask) {
  std::string out;
  for (auto e : m.events_for(v, 0)) {
    if (mask && !e.commitment().empty()) e.set_commitment(std::string(64, '*'));
    out += e.SerializeAsString();
  }
  for (rules::Side side : {rules::Side::kA, rules::Side::kB}) {
    if (v == rules::viewer_of(side)) out += m.legal(side).SerializeAsString();
  }
  return out + m.snapshot(v).SerializeAsString();
}

TEST(OptioNonInterference, OrdersCardsNeverReachTheOpponentOrSpectatorsBeforeTheEnd) {
  auto one = play_optio(3, 3, true);
  auto two = play_optio(3, 1, false);
  ASSERT_FALSE(one->outcome().has_value());
  // The planted pattern: side A's first path as the bytes of its protobuf message.
  std::string planted;
  for (std::size_t i = 0; i < one->entry_count(); ++i) {
    const v1::LogEntry e = one->log_entry(i);
    if (e.command().optio().has_submit_orders() && e.side() == v1::SIDE_A) {
      planted = e.command().optio().submit_orders().paths(0).SerializeAsString();
    }
  }
  ASSERT_GT(planted.size(), 8u);
  for (rules::Viewer v : {rules::Viewer::kSideB, rules::Viewer::kSpectator}) {
    EXPECT_EQ(stream_for(*one, v, true), stream_for(*two, v, true))
        << "viewer " << static_cast<int>(v);
    EXPECT_EQ(stream_for(*one, v, false).find(planted), std::string::npos);
  }
  EXPECT_NE(stream_for(*one, rules::Viewer::kSideA, false).find(planted), std::string::npos);
  EXPECT_NE(stream_for(*one, rules::Viewer::kSideB, false),
            stream_for(*two, rules::Viewer::kSideB, false));
}

SimRun verify(const google::protobuf::Message& record, const std::string& name) {
  const std::string path = ::testing::TempDir() + "/" + name + ".json";
  std::string json;
  EXPECT_TRUE(pbu::MessageToJsonString(record, &json).ok());
  std::ofstream(path) << json;
  return run("verify " + path);
}

// The index of the entry whose command is the first of `kind`, e.g. submit_orders.
int entry_with(const v1::MatchRecord& r, bool (*is)(const v1::optio::Command&)) {
  for (int i = 0; i < r.entries_size(); ++i) {
    if (r.entries(i).command().has_optio() && is(r.entries(i).command().optio())) return i;
  }
  return -1;
}

TEST(CastraSimVerify, AnHonestRecordVerifies) {
  const SimRun r = verify(optio_record(), "honest");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("verified"), std::string::npos);
}

// A STAND! match on fair dice: the roll-off, then side B resigns.
v1::MatchRecord stand_record() {
  v1::ScenarioFile scenario;
  EXPECT_TRUE(
      pbu::JsonStringToMessage(read(kSource + "/scenarios/stand/training.json"), &scenario).ok());
  match::Bytes32 seed{};
  seed.fill(0x33);
  auto made = wire::make_match({"verify-stand", scenario, "", seed});
  EXPECT_TRUE(made.ok());
  auto& m = **made;
  m.seat(rules::Side::kA, "entropy of A");
  m.seat(rules::Side::kB, "entropy of B");
  m.end(match::EndReason::kResigned, rules::Side::kB,
        rules::Outcome::win(rules::Side::kA, "side B resigned"));
  return *m.record();
}

TEST(CastraSimVerify, AnHonestStandRecordVerifies) {
  const v1::MatchRecord rec = stand_record();
  ASSERT_GE(rec.entries(0).rolls_size(), 2);  // the roll-off
  const SimRun r = verify(rec, "honest-stand");
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

TEST(CastraSimVerify, AnEditedRollFails) {
  v1::MatchRecord rec = stand_record();
  auto* roll = rec.mutable_entries(0)->mutable_rolls(0);
  roll->set_face(roll->face() % 6 + 1);
  const SimRun r = verify(rec, "edited-roll");
  EXPECT_EQ(r.exit_code, 4) << r.out;
  EXPECT_NE(r.out.find("roll 0 is recorded as"), std::string::npos) << r.out;
}

TEST(CastraSimVerify, AnEditedCommandFails) {
  v1::MatchRecord rec = optio_record();
  const int i = entry_with(rec, [](const v1::optio::Command& c) { return c.has_deploy(); });
  ASSERT_GE(i, 0);
  auto* d = rec.mutable_entries(i)->mutable_command()->mutable_optio()->mutable_deploy();
  d->set_facing((d->facing() + 2) % 4);
  const SimRun r = verify(rec, "edited-command");
  EXPECT_EQ(r.exit_code, 4) << r.out;
  EXPECT_NE(r.out.find("entry " + std::to_string(i)), std::string::npos) << r.out;
}

TEST(CastraSimVerify, AnEditedEventFails) {
  v1::MatchRecord rec = optio_record();
  const int i = entry_with(rec, [](const v1::optio::Command& c) { return c.has_deploy(); });
  ASSERT_GE(i, 0);
  auto* e = rec.mutable_entries(i)->mutable_events(0)->mutable_optio()->mutable_unit_deployed();
  e->set_facing((e->facing() + 1) % 4);
  const SimRun r = verify(rec, "edited-event");
  EXPECT_EQ(r.exit_code, 4) << r.out;
  EXPECT_NE(r.out.find("entry " + std::to_string(i)), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("event 0"), std::string::npos) << r.out;
}

TEST(CastraSimVerify, ASwappedOrdersCardFails) {
  v1::MatchRecord rec = optio_record();
  const int i = entry_with(rec, [](const v1::optio::Command& c) { return c.has_submit_orders(); });
  ASSERT_GE(i, 0);
  auto* entry = rec.mutable_entries(i);
  ASSERT_GT(entry->seals_size(), 0);
  // Another card, the same in the command and in the sealed event: only the commitment,
  // published before, can tell.
  auto swap = [](v1::optio::OrdersPath* p) {
    v1::Coord* last = p->mutable_squares(p->squares_size() - 1);
    last->set_col(last->col() + (last->col() > 1 ? -1 : 1));
  };
  swap(entry->mutable_command()->mutable_optio()->mutable_submit_orders()->mutable_paths(0));
  for (auto& e : *entry->mutable_events()) {
    if (e.optio().has_orders_card())
      swap(e.mutable_optio()->mutable_orders_card()->mutable_paths(0));
  }
  const SimRun r = verify(rec, "swapped-card");
  EXPECT_EQ(r.exit_code, 4) << r.out;
  EXPECT_NE(r.out.find("commitment"), std::string::npos) << r.out;
}

TEST(CastraSimVerify, AWrongSeedFails) {
  v1::MatchRecord rec = optio_record();
  std::string seed = rec.server_seed();
  seed[0] = seed[0] == '0' ? '1' : '0';
  rec.set_server_seed(seed);
  const SimRun r = verify(rec, "wrong-seed");
  EXPECT_EQ(r.exit_code, 4) << r.out;
  EXPECT_NE(r.out.find("dice commitment"), std::string::npos) << r.out;
}

TEST(CastraSimVerify, ACommitmentThatDoesNotMatchFails) {
  v1::MatchRecord rec = optio_record();
  const int i = entry_with(rec, [](const v1::optio::Command& c) { return c.has_submit_orders(); });
  ASSERT_GE(i, 0);
  auto* seal = rec.mutable_entries(i)->mutable_seals(0);
  std::string c = seal->commitment();
  c[5] = c[5] == 'a' ? 'b' : 'a';
  seal->set_commitment(c);
  const SimRun r = verify(rec, "bad-commitment");
  EXPECT_EQ(r.exit_code, 4) << r.out;
  EXPECT_NE(r.out.find("commitment"), std::string::npos) << r.out;
}

TEST(CastraSimVerify, AnEditedFinalHashFails) {
  v1::MatchRecord rec = optio_record();
  std::string h = rec.final_state_hash();
  h[0] = h[0] == 'f' ? 'e' : 'f';
  rec.set_final_state_hash(h);
  const SimRun r = verify(rec, "final-hash");
  EXPECT_EQ(r.exit_code, 4) << r.out;
  EXPECT_NE(r.out.find("final state"), std::string::npos) << r.out;
}

// A campaign record, told from a match record by its format, verifies end to end.
TEST(CastraSimVerify, AnHonestCampaignRecordVerifies) {
  const SimRun r = verify(campaign::testing::played("stand_three"), "honest-campaign");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("verified: campaign test-stand_three, 3 battles"), std::string::npos)
      << r.out;
}

TEST(CastraSimVerify, ATamperedCampaignRecordFailsNamingTheStep) {
  v1::CampaignRecord rec = campaign::testing::played("optio_three");
  rec.mutable_battles(1)->mutable_roster_a_after()->mutable_optio()->mutable_units(0)->set_morale(
      1);
  const SimRun r = verify(rec, "tampered-campaign");
  EXPECT_EQ(r.exit_code, 4) << r.out;
  EXPECT_EQ(r.out,
            "FAILED: battle 2 (trebia): side A's roster after is not the carry-over of the "
            "battle\n");
}

TEST(CastraSimCheckCampaign, ASoundDefinitionPasses) {
  const SimRun r = run("check-campaign " + kSource + "/tests/data/campaigns/optio_three.json");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "sound: campaign optio-test (optio), 3 battles\n");
}

TEST(CastraSimCheckCampaign, ABrokenDefinitionIsRefusedWithItsRule) {
  v1::CampaignFile file;
  *file.mutable_campaign() = campaign::testing::definition("stand_three");
  file.mutable_campaign()->mutable_battles(2)->set_on_a_wins("farmstead");
  const std::string path = ::testing::TempDir() + "/cyclic-campaign.json";
  std::string json;
  ASSERT_TRUE(pbu::MessageToJsonString(file, &json).ok());
  std::ofstream(path) << json;
  const SimRun r = run("check-campaign " + path);
  EXPECT_EQ(r.exit_code, 3) << r.out;
  EXPECT_EQ(r.out, "REFUSED: the battles hill and farmstead form a cycle (campaign.definition)\n");
}

}  // namespace
}  // namespace castra
