// Carry-over from scripted battles: the events are written by hand (known routs, killed
// leaders, figures lost) and so are the rosters expected after them. Then a property test over
// seeded random battles: carry-over is deterministic and never gains what the data does not
// grant.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "common/campaign/carry_over.hpp"

namespace castra::campaign {
namespace {

namespace ev = optio::ev;
using optio::UnitType;
using rules::Side;

const optio::Ruleset& rs() {
  return *optio::find_ruleset(optio::kCurrentVersion);
}

// Heavy infantry's full morale is 4, skirmishers' 2, cavalry's 3 (docs/rules/optio.md §1).
Roster rome() {
  OptioRoster r;
  r.units = {{1, UnitType::kHeavyInfantry, 2, 1, 0, "hastati"},
             {2, UnitType::kHeavyInfantry, 2, 1, 3, "principes"},
             {3, UnitType::kSkirmishers, 2, 1, 0, "velites"},
             {4, UnitType::kCavalry, 2, 2, 0, "equites I"},
             {5, UnitType::kCavalry, 2, 2, 2, "equites II"},
             {6, UnitType::kHeavyInfantry, 4, 1, 0, "triarii"}};
  r.leaders = {{1, true, 1, 0, "Scipio"}, {2, false, 2, 0, "Laelius"}};
  return {"Rome", r};
}

Selection all_but_the_triarii() {
  return {{1, 2, 3, 4, 5}, {1, 2}, {}};
}

OptioCarryOver data(LeaderReplacement::Kind subcommander) {
  OptioCarryOver d;
  d.morale_recovery = 1;
  d.general = {LeaderReplacement::Kind::kPromoted, 3, "{name}'s legate"};
  d.subcommander = {subcommander, 0, "new prefect"};
  return d;
}

// Units 11 and 12 are the enemy's: their events are not Rome's.
std::vector<optio::Event> the_battle() {
  return {ev::MoraleChanged{1, 4, 2},
          ev::MoraleChanged{11, 3, 1},
          ev::Routed{3, Side::kA, {4, 2}, 1, {}},
          ev::MoraleChanged{2, 3, 1},
          ev::MoraleChanged{2, 1, 2},  // regained when an enemy beside it routed
          ev::LeaderRoll{1, 6, 6, optio::LeaderFate::kKilled},
          ev::LeaderRoll{2, 6, 3, optio::LeaderFate::kWounded},
          ev::Routed{12, Side::kB, {5, 5}, 1, {}},
          ev::MoraleChanged{4, 3, 1}};
}

TEST(CampaignCarryOver, OptioRoutedUnitsAreLostAndSurvivorsRecoverUpToTheirMaximum) {
  auto after = carry_over(data(LeaderReplacement::Kind::kNone), rs(), rome(), all_but_the_triarii(),
                          the_battle());
  ASSERT_TRUE(after.ok()) << after.error().message;
  const OptioRoster& r = *after->optio();
  const std::vector<OptioUnit> want = {{1, UnitType::kHeavyInfantry, 2, 1, 3, "hastati"},
                                       {2, UnitType::kHeavyInfantry, 2, 1, 3, "principes"},
                                       {4, UnitType::kCavalry, 2, 2, 2, "equites I"},
                                       {5, UnitType::kCavalry, 2, 2, 3, "equites II"},
                                       {6, UnitType::kHeavyInfantry, 4, 1, 0, "triarii"}};
  EXPECT_EQ(r.units, want);
  EXPECT_EQ(after->army, "Rome");
}

TEST(CampaignCarryOver, OptioAKilledGeneralIsReplacedAsTheDataSays) {
  auto after = carry_over(data(LeaderReplacement::Kind::kNone), rs(), rome(), all_but_the_triarii(),
                          the_battle());
  ASSERT_TRUE(after.ok()) << after.error().message;
  const std::vector<OptioLeader> want = {{1, true, 1, 3, "Scipio's legate"},
                                         {2, false, 2, 0, "Laelius"}};
  EXPECT_EQ(after->optio()->leaders, want);
}

TEST(CampaignCarryOver, OptioAKilledSubcommanderNotReplacedLeavesHisUnitsToTheGeneral) {
  std::vector<optio::Event> events = {ev::LeaderRoll{2, 6, 6, optio::LeaderFate::kKilled}};
  auto after =
      carry_over(data(LeaderReplacement::Kind::kNone), rs(), rome(), all_but_the_triarii(), events);
  ASSERT_TRUE(after.ok()) << after.error().message;
  const OptioRoster& r = *after->optio();
  const std::vector<OptioLeader> leaders = {{1, true, 1, 0, "Scipio"}};
  EXPECT_EQ(r.leaders, leaders);
  EXPECT_EQ(r.units[3], (OptioUnit{4, UnitType::kCavalry, 2, 1, 3, "equites I"}));
  EXPECT_EQ(r.units[4], (OptioUnit{5, UnitType::kCavalry, 2, 1, 3, "equites II"}));
}

TEST(CampaignCarryOver, OptioAKilledSubcommanderPromotedKeepsHisCommand) {
  std::vector<optio::Event> events = {ev::LeaderRoll{2, 6, 6, optio::LeaderFate::kKilled}};
  auto after = carry_over(data(LeaderReplacement::Kind::kPromoted), rs(), rome(),
                          all_but_the_triarii(), events);
  ASSERT_TRUE(after.ok()) << after.error().message;
  const std::vector<OptioLeader> want = {{1, true, 1, 0, "Scipio"},
                                         {2, false, 2, 0, "new prefect"}};
  EXPECT_EQ(after->optio()->leaders, want);
  EXPECT_EQ(after->optio()->units[3].command, 2);
}

TEST(CampaignCarryOver, OptioUnfieldedUnitsAndLeadersAreUnchanged) {
  Selection only_the_general = {{1}, {1}, {}};
  auto after = carry_over(data(LeaderReplacement::Kind::kNone), rs(), rome(), only_the_general, {});
  ASSERT_TRUE(after.ok()) << after.error().message;
  Roster want = rome();
  std::get<OptioRoster>(want.game).units[0].morale = 4;  // fielded at full: written out, still 4
  EXPECT_EQ(*after, want);
}

TEST(CampaignCarryOver, OptioEventsOfAnUnfieldedUnitAreRefused) {
  std::vector<optio::Event> events = {ev::MoraleChanged{6, 4, 3}};
  auto after =
      carry_over(data(LeaderReplacement::Kind::kNone), rs(), rome(), all_but_the_triarii(), events);
  ASSERT_FALSE(after.ok());
  EXPECT_EQ(after.error().rule, "campaign.carry_over");
}

stand::Figures figures(int infantry, int archers, int cavalry, int chariots) {
  stand::Figures f;
  f.n = {infantry, archers, cavalry, chariots};
  return f;
}

TEST(CampaignCarryOver, StandFiguresLostStayLost) {
  const Roster before{"Egypt", StandRoster{figures(10, 4, 3, 1)}};
  const Selection fielded{{}, {}, figures(6, 2, 3, 0)};
  const std::vector<stand::Event> events = {
      stand::ev::DeploymentEnded{Side::kA, figures(0, 1, 0, 0)},  // left out, not lost
      stand::ev::Casualties{Side::kA, {3, 2}, figures(2, 0, 0, 0), 10},
      stand::ev::Casualties{Side::kB, {3, 3}, figures(3, 0, 0, 0), 12},
      stand::ev::Casualties{Side::kA, {4, 2}, figures(1, 0, 1, 0), 7}};
  auto after = carry_over(Side::kA, before, fielded, events);
  ASSERT_TRUE(after.ok()) << after.error().message;
  EXPECT_EQ(*after, (Roster{"Egypt", StandRoster{figures(7, 4, 2, 1)}}));
}

TEST(CampaignCarryOver, StandLosingMoreThanWasFieldedIsRefused) {
  const Roster before{"Egypt", StandRoster{figures(10, 4, 3, 1)}};
  const Selection fielded{{}, {}, figures(2, 0, 0, 0)};
  const std::vector<stand::Event> events = {
      stand::ev::Casualties{Side::kA, {3, 2}, figures(3, 0, 0, 0), 10}};
  auto after = carry_over(Side::kA, before, fielded, events);
  ASSERT_FALSE(after.ok());
  EXPECT_EQ(after.error().rule, "campaign.carry_over");
}

// ---- The property: nothing is gained that the data does not grant, and twice is the same.

// A random battle over Rome's fielded units and leaders and two enemy units: morale changes to
// any value a unit may have, routs and leader dice of every fate.
std::vector<optio::Event> random_battle(std::mt19937& rng, const Selection& fielded) {
  std::vector<int> units = fielded.units;
  units.push_back(11);
  units.push_back(12);
  std::vector<optio::Event> out;
  const int n = std::uniform_int_distribution<int>(0, 30)(rng);
  for (int i = 0; i < n; ++i) {
    const int unit = units[std::uniform_int_distribution<std::size_t>(0, units.size() - 1)(rng)];
    switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
      case 0:
      case 1:
        out.push_back(ev::MoraleChanged{unit, 0, std::uniform_int_distribution<int>(1, 4)(rng)});
        break;
      case 2:
        out.push_back(ev::Routed{unit, Side::kA, {1, 1}, 1, {}});
        break;
      default:
        if (fielded.leaders.empty()) break;
        const int leader = fielded.leaders[std::uniform_int_distribution<std::size_t>(
            0, fielded.leaders.size() - 1)(rng)];
        out.push_back(ev::LeaderRoll{
            leader, 6, 6,
            static_cast<optio::LeaderFate>(std::uniform_int_distribution<int>(0, 2)(rng))});
    }
  }
  return out;
}

Selection random_selection(std::mt19937& rng, const OptioRoster& r) {
  Selection s;
  for (const OptioUnit& u : r.units) {
    if (std::bernoulli_distribution(0.7)(rng)) s.units.push_back(u.id);
  }
  for (const OptioLeader& l : r.leaders) {
    if (std::bernoulli_distribution(0.8)(rng)) s.leaders.push_back(l.id);
  }
  return s;
}

TEST(CampaignCarryOver, OptioNeverGainsWhatTheDataDoesNotGrantAndIsDeterministic) {
  std::mt19937 rng(20240613);
  for (int round = 0; round < 2000; ++round) {
    const auto kind =
        round % 2 == 0 ? LeaderReplacement::Kind::kNone : LeaderReplacement::Kind::kPromoted;
    const OptioCarryOver d = data(kind);
    const Roster before = rome();
    const OptioRoster& b = *before.optio();
    const Selection fielded = random_selection(rng, b);
    const auto events = random_battle(rng, fielded);
    auto after = carry_over(d, rs(), before, fielded, events);
    ASSERT_TRUE(after.ok()) << after.error().message;
    EXPECT_EQ(*after, *carry_over(d, rs(), before, fielded, events)) << "round " << round;
    std::set<int> routed, killed;
    std::map<int, int> highest;  // the most morale the battle gave each unit
    for (const OptioUnit& u : b.units)
      highest[u.id] = start_morale(rs(), u);
    for (const auto& e : events) {
      if (auto* m = std::get_if<ev::MoraleChanged>(&e)) {
        if (highest.count(m->unit) != 0) highest[m->unit] = std::max(highest[m->unit], m->to);
      }
      if (auto* r = std::get_if<ev::Routed>(&e)) routed.insert(r->unit);
      if (auto* l = std::get_if<ev::LeaderRoll>(&e)) {
        if (l->fate == optio::LeaderFate::kKilled) killed.insert(l->leader);
      }
    }
    const OptioRoster& a = *after->optio();
    for (const OptioUnit& u : a.units) {
      const OptioUnit* was = b.unit(u.id);
      ASSERT_NE(was, nullptr) << "unit " << u.id << " appeared";
      EXPECT_EQ(routed.count(u.id), 0u) << "routed unit " << u.id << " survived";
      EXPECT_EQ(u.type, was->type);
      EXPECT_EQ(u.bases, was->bases);
      EXPECT_EQ(u.name, was->name);
      EXPECT_LE(u.morale, max_morale(rs(), u.type));
      const bool fought = std::count(fielded.units.begin(), fielded.units.end(), u.id) != 0;
      if (fought) {
        EXPECT_LE(u.morale, highest[u.id] + d.morale_recovery) << "unit " << u.id;
      } else {
        EXPECT_EQ(u.morale, was->morale) << "unfielded unit " << u.id;
      }
      const bool orphaned = a.leader(2) == nullptr;
      EXPECT_TRUE(u.command == was->command || (orphaned && u.command == 1)) << "unit " << u.id;
    }
    const auto lost =
        std::count_if(routed.begin(), routed.end(), [&](int id) { return b.unit(id) != nullptr; });
    EXPECT_EQ(a.units.size(), b.units.size() - static_cast<std::size_t>(lost));
    for (const OptioLeader& l : a.leaders) {
      const OptioLeader* was = b.leader(l.id);
      ASSERT_NE(was, nullptr) << "leader " << l.id << " appeared";
      EXPECT_EQ(l.general, was->general);
      EXPECT_EQ(l.command, was->command);
      if (killed.count(l.id) == 0) {
        EXPECT_EQ(l, *was);
      } else {
        const LeaderReplacement& rep = l.general ? d.general : d.subcommander;
        EXPECT_EQ(rep.kind, LeaderReplacement::Kind::kPromoted);
        EXPECT_EQ(l.range, rep.range);
      }
    }
  }
}

TEST(CampaignCarryOver, StandNeverGainsFiguresAndIsDeterministic) {
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    stand::Figures roster, fielded;
    for (int t = 0; t < stand::kTroopTypes; ++t) {
      roster.n[t] = std::uniform_int_distribution<int>(0, 20)(rng);
      fielded.n[t] = std::uniform_int_distribution<int>(0, roster.n[t])(rng);
    }
    std::vector<stand::Event> events;
    stand::Figures left = fielded;
    const int n = std::uniform_int_distribution<int>(0, 12)(rng);
    for (int i = 0; i < n; ++i) {
      const Side side = std::bernoulli_distribution(0.5)(rng) ? Side::kA : Side::kB;
      stand::Figures lost;
      for (int t = 0; t < stand::kTroopTypes; ++t) {
        lost.n[t] = std::uniform_int_distribution<int>(0, std::min(2, left.n[t]))(rng);
        if (side == Side::kA) left.n[t] -= lost.n[t];
      }
      events.push_back(stand::ev::Casualties{side, {0, 0}, lost, 0});
    }
    const Roster before{"Egypt", StandRoster{roster}};
    const Selection sel{{}, {}, fielded};
    auto after = carry_over(Side::kA, before, sel, events);
    ASSERT_TRUE(after.ok()) << after.error().message;
    EXPECT_EQ(*after, *carry_over(Side::kA, before, sel, events));
    for (int t = 0; t < stand::kTroopTypes; ++t) {
      const int now = after->stand()->figures.n[t];
      EXPECT_LE(now, roster.n[t]);
      EXPECT_GE(now, roster.n[t] - fielded.n[t]);
      EXPECT_EQ(now, roster.n[t] - fielded.n[t] + left.n[t]);
    }
  }
}

}  // namespace
}  // namespace castra::campaign
