// castra-balance as a program: a few games of each rule set's training battle, and the figures
// it prints add up (each side's win, draw and loss to the games played; A's wins are B's
// losses) with intervals around their rates.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/tool_run.hpp"

namespace {

const std::string kSource = CASTRA_SOURCE_DIR;
const std::string kBalance = std::string(CASTRA_BINARY_DIR) + "/tools/balance/castra-balance";

using castra::testing::ToolRun;

ToolRun run(const std::string& args) {
  return castra::testing::run_tool(kBalance + " " + args);
}

struct Rate {
  double percent, lo, hi;
  int k, n;
};

std::vector<Rate> rates(const std::string& out) {
  static const std::regex line(
      R"((win|draw|loss)\s+([0-9.]+)%\s+\(95%\s+([0-9.]+)% \.\.\s+([0-9.]+)%\)\s+(\d+)/(\d+))");
  std::vector<Rate> v;
  for (auto it = std::sregex_iterator(out.begin(), out.end(), line); it != std::sregex_iterator();
       ++it) {
    const auto& m = *it;
    v.push_back(
        {std::stod(m[2]), std::stod(m[3]), std::stod(m[4]), std::stoi(m[5]), std::stoi(m[6])});
  }
  return v;
}

void expect_sane(const std::string& scenario) {
  SCOPED_TRACE(scenario);
  const ToolRun r = run("--games 6 --seed 3 " + kSource + "/scenarios/" + scenario);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto v = rates(r.out);
  ASSERT_EQ(v.size(), 6u) << r.out;  // A win/draw/loss, then B's
  for (const auto& rate : v) {
    EXPECT_EQ(rate.n, 6);
    EXPECT_LE(rate.lo, rate.percent);
    EXPECT_GE(rate.hi, rate.percent);
    EXPECT_GE(rate.lo, 0.0);
    EXPECT_LE(rate.hi, 100.0);
  }
  EXPECT_EQ(v[0].k + v[1].k + v[2].k, 6);
  EXPECT_EQ(v[0].k, v[5].k);  // A's wins are B's losses
  EXPECT_EQ(v[2].k, v[3].k);
  EXPECT_EQ(v[1].k, v[4].k);
  EXPECT_NE(r.out.find("refused commands 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mean length: "), std::string::npos) << r.out;
}

TEST(CastraBalance, OptioTrainingFiguresAddUp) {
  expect_sane("optio/training.json");
}

TEST(CastraBalance, StandTrainingFiguresAddUp) {
  expect_sane("stand/training.json");
}

TEST(CastraBalance, RefusesAMissingFile) {
  const ToolRun r = run("--games 1 " + kSource + "/scenarios/no-such-battle.json");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("cannot open"), std::string::npos) << r.out;
}

}  // namespace
