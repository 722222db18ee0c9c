// The scenario library in scenarios/<game>/ and scenarios/<game>/lessons/: each file parses as
// a ScenarioFile of its folder's game, the engine accepts it (make_match), it is documented in
// its game's README, and short self-play games (random against random, greedy against
// greedy) reach a result with no refused command and export a record that verifies.
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/bot/brain.hpp"
#include "common/bot/self_play.hpp"
#include "common/wire/any_match.hpp"
#include "server/lobby/scenarios.hpp"

namespace castra {
namespace {

namespace fs = std::filesystem;

const fs::path kDir = fs::path(CASTRA_SOURCE_DIR) / "scenarios";

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Entry {
  std::string game;  // "optio" or "stand"
  fs::path path;
  std::string label;  // "optio/lessons/charge.json"
};

std::vector<Entry> library(bool lessons) {
  std::vector<Entry> out;
  for (const std::string game : {"optio", "stand"}) {
    const fs::path folder = lessons ? kDir / game / "lessons" : kDir / game;
    for (const auto& e : fs::directory_iterator(folder)) {
      if (e.path().extension() != ".json") continue;
      const std::string rel = lessons ? "lessons/" : "";
      out.push_back({game, e.path(), game + "/" + rel + e.path().filename().string()});
    }
  }
  return out;
}

v1::ScenarioFile parse(const Entry& e) {
  v1::ScenarioFile sf;
  const auto status = google::protobuf::util::JsonStringToMessage(read(e.path), &sf);
  EXPECT_TRUE(status.ok()) << e.label << ": " << status.ToString();
  const bool right_game = e.game == "optio" ? sf.game_case() == v1::ScenarioFile::kOptio
                                            : sf.game_case() == v1::ScenarioFile::kStand;
  EXPECT_TRUE(right_game) << e.label << " is not a " << e.game << " scenario";
  return sf;
}

void expect_loads_and_is_documented(const Entry& e) {
  SCOPED_TRACE(e.label);
  const v1::ScenarioFile sf = parse(e);
  wire::MatchSetup setup;
  setup.match_id = "library";
  setup.scenario = sf;
  setup.server_seed[0] = 7;
  auto m = wire::make_match(setup);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_FALSE((*m)->check().has_value());
  const std::string readme = read(kDir / e.game / "README.md");
  const std::string named = e.label.substr(e.game.size() + 1);
  EXPECT_NE(readme.find(named), std::string::npos) << named << " is not in the README";
}

void expect_plays_and_verifies(const Entry& e, bot::Strength strength, std::uint64_t seed) {
  SCOPED_TRACE(e.label + " " + std::string(bot::strength_name(strength)));
  bot::Brain a(strength, seed * 2 + 1);
  bot::Brain b(strength, seed * 2 + 2);
  bot::GameSetup setup{parse(e), seed, 20000, true};
  auto result = bot::play_game(setup, a, b);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_TRUE(result->outcome.has_value()) << "no result after " << result->commands;
  EXPECT_EQ(result->refused, 0) << result->first_refusal;
  ASSERT_TRUE(result->record.has_value());
  const auto bad = wire::verify_record(*result->record);
  EXPECT_FALSE(bad.has_value()) << *bad;
}

TEST(ScenarioLibrary, EachGameHasEightBattlesAndTwoLessons) {
  int optio = 0, stand = 0;
  for (const auto& e : library(false))
    ++(e.game == "optio" ? optio : stand);
  EXPECT_GE(optio, 8);
  EXPECT_GE(stand, 8);
  int optio_lessons = 0, stand_lessons = 0;
  for (const auto& e : library(true))
    ++(e.game == "optio" ? optio_lessons : stand_lessons);
  EXPECT_EQ(optio_lessons, 2);
  EXPECT_EQ(stand_lessons, 2);
}

TEST(ScenarioLibrary, EveryBattleLoadsValidatesAndIsDocumented) {
  for (const auto& e : library(false))
    expect_loads_and_is_documented(e);
}

TEST(ScenarioLibrary, EveryLessonLoadsValidatesAndIsDocumented) {
  for (const auto& e : library(true))
    expect_loads_and_is_documented(e);
}

TEST(ScenarioLibrary, EveryScenarioPlaysToAnEndWithRandomBotsAndItsRecordVerifies) {
  for (bool lessons : {false, true}) {
    for (const auto& e : library(lessons))
      expect_plays_and_verifies(e, bot::Strength::kRandom, 11);
  }
}

TEST(ScenarioLibrary, EveryScenarioPlaysToAnEndWithGreedyBotsAndItsRecordVerifies) {
  for (bool lessons : {false, true}) {
    for (const auto& e : library(lessons))
      expect_plays_and_verifies(e, bot::Strength::kGreedy, 12);
  }
}

// Between them the Optio battles field every unit type, both formations, 1-base units and
// every terrain; the STAND! battles have a ford, a bridge and a fixed deployment.
TEST(ScenarioLibrary, TheBattlesCoverEveryTypeFormationAndTerrain) {
  std::set<int> types, formations, optio_terrain, stand_terrain;
  bool one_base = false, ford = false, bridge = false, fixed = false;
  v1::stand::Figures stand_troops;  // every STAND! figure of the library, by type
  for (const auto& e : library(false)) {
    const v1::ScenarioFile sf = parse(e);
    if (sf.has_optio()) {
      for (const auto& u : sf.optio().units()) {
        types.insert(u.type());
        if (u.at().col() != 0) formations.insert(u.formation());
        one_base = one_base || u.bases() == 1;
      }
      for (const auto& t : sf.optio().terrain())
        optio_terrain.insert(t.terrain());
    } else {
      for (const auto& h : sf.stand().hexes()) {
        stand_terrain.insert(h.terrain());
        ford = ford || h.crossing() == v1::stand::CROSSING_FORD;
        bridge = bridge || h.crossing() == v1::stand::CROSSING_BRIDGE;
      }
      fixed = fixed || sf.stand().placements_size() > 0;
      for (const auto* army : {&sf.stand().side_a(), &sf.stand().side_b()}) {
        stand_troops.set_infantry(stand_troops.infantry() + army->figures().infantry());
        stand_troops.set_archers(stand_troops.archers() + army->figures().archers());
        stand_troops.set_cavalry(stand_troops.cavalry() + army->figures().cavalry());
        stand_troops.set_chariots(stand_troops.chariots() + army->figures().chariots());
      }
      for (const auto& p : sf.stand().placements()) {
        stand_troops.set_infantry(stand_troops.infantry() + p.figures().infantry());
        stand_troops.set_archers(stand_troops.archers() + p.figures().archers());
        stand_troops.set_cavalry(stand_troops.cavalry() + p.figures().cavalry());
        stand_troops.set_chariots(stand_troops.chariots() + p.figures().chariots());
      }
    }
  }
  EXPECT_EQ(types.size(), 11u);  // heavy_infantry .. chariots
  EXPECT_EQ(formations.size(), 2u);
  EXPECT_EQ(optio_terrain.size(), 6u);  // hill, woods, marsh, river, ford, camp (open unlisted)
  // woods, swamp, town, hill, steep, water (open is every hex not listed)
  EXPECT_EQ(stand_terrain.size() - stand_terrain.count(v1::stand::TERRAIN_OPEN), 6u);
  EXPECT_GT(stand_troops.infantry(), 0);
  EXPECT_GT(stand_troops.archers(), 0);
  EXPECT_GT(stand_troops.cavalry(), 0);
  EXPECT_GT(stand_troops.chariots(), 0);
  EXPECT_TRUE(one_base);
  EXPECT_TRUE(ford);
  EXPECT_TRUE(bridge);
  EXPECT_TRUE(fixed);
}

// The server offers every battle by folder and stem and every lesson under "<game>/lessons/".
TEST(ScenarioLibrary, TheServerOffersEveryBattleAndLessonByName) {
  const auto offered = lobby::Scenarios::load(kDir.string());
  std::size_t files = 0;
  for (bool lessons : {false, true}) {
    for (const auto& e : library(lessons)) {
      ++files;
      const std::string name = e.label.substr(0, e.label.size() - std::string(".json").size());
      const lobby::ScenarioEntry* found = offered.find(name);
      ASSERT_NE(found, nullptr) << name;
      EXPECT_EQ(found->ruleset, e.game);
    }
  }
  EXPECT_EQ(offered.size(), files);
  EXPECT_NE(offered.find("optio/lessons/charge"), nullptr);
  EXPECT_NE(offered.find("stand/lessons/cover"), nullptr);
}

// What the client's picker shows comes with each offered scenario: Cannae's, by hand from
// cannae.json and the optio README's balance row; Marathon's armies from its own file.
TEST(ScenarioLibrary, TheServerDescribesEachBattleForThePicker) {
  const auto offered = lobby::Scenarios::load(kDir.string());
  const auto* cannae = offered.find("optio/cannae");
  ASSERT_NE(cannae, nullptr);
  const auto& c = cannae->info;
  EXPECT_EQ(c.name(), "optio/cannae");
  EXPECT_EQ(c.title(), "Cannae, 216 BC");
  EXPECT_EQ(c.cols(), 16);
  EXPECT_EQ(c.rows(), 8);
  EXPECT_EQ(c.turn_limit(), 12);
  EXPECT_EQ(c.side_a(), "Rome");
  EXPECT_EQ(c.side_b(), "Carthage");
  EXPECT_TRUE(c.scenario().has_optio());
  EXPECT_EQ(c.balance().games(), 500);
  EXPECT_DOUBLE_EQ(c.balance().a_wins(), 0.474);
  EXPECT_DOUBLE_EQ(c.balance().draws(), 0.074);
  EXPECT_DOUBLE_EQ(c.balance().b_wins(), 0.452);
  const auto* marathon = offered.find("stand/marathon");
  ASSERT_NE(marathon, nullptr);
  EXPECT_EQ(marathon->info.side_a(), "Athenians and Plataeans of Miltiades");
  EXPECT_EQ(marathon->info.cols(), 14);
  EXPECT_EQ(marathon->info.rows(), 9);
  EXPECT_DOUBLE_EQ(marathon->info.balance().a_wins(), 0.48);
  // Every battle and lesson has all of it: a history, armies and measured figures.
  for (const std::string game : {"optio", "stand"}) {
    for (const auto* e : offered.list(game)) {
      const auto& i = e->info;
      EXPECT_FALSE(i.title().empty()) << e->name;
      EXPECT_FALSE(i.description().empty()) << e->name;
      EXPECT_FALSE(i.side_a().empty()) << e->name;
      EXPECT_FALSE(i.side_b().empty()) << e->name;
      EXPECT_GT(i.cols(), 0) << e->name;
      EXPECT_GT(i.turn_limit(), 0) << e->name;
      EXPECT_GE(i.balance().games(), 500) << e->name;
      EXPECT_NEAR(i.balance().a_wins() + i.balance().draws() + i.balance().b_wins(), 1.0, 0.002)
          << e->name;
    }
  }
}

// scenarios/library/<game>.json copies the README's balance table: every row's N and rates.
TEST(ScenarioLibrary, TheLibrarysBalanceFiguresAreTheReadmesTable) {
  const auto offered = lobby::Scenarios::load(kDir.string());
  for (const std::string game : {"optio", "stand"}) {
    std::ifstream in(kDir / game / "README.md");
    std::stringstream text;
    text << in.rdbuf();
    const std::string readme = text.str();
    const std::string table = readme.substr(readme.find("## Balance"));
    for (const auto* e : offered.list(game)) {
      const auto& b = e->info.balance();
      char row[160];
      std::snprintf(row, sizeof row, "| `%s.json` | %d | %.1f%% ",
                    e->name.substr(game.size() + 1).c_str(), b.games(), b.a_wins() * 100);
      const auto at = table.find(row);
      ASSERT_NE(at, std::string::npos) << row;
      const std::string line = table.substr(at, table.find('\n', at) - at);
      char draw[32];
      char b_wins[32];
      std::snprintf(draw, sizeof draw, "| %.1f%% (", b.draws() * 100);
      std::snprintf(b_wins, sizeof b_wins, "| %.1f%% (", b.b_wins() * 100);
      EXPECT_NE(line.find(draw), std::string::npos) << line;
      EXPECT_NE(line.find(b_wins), std::string::npos) << line;
    }
  }
}

}  // namespace
}  // namespace castra
