#include "common/campaign/progress.hpp"

#include <string>

#include "common/campaign/army.hpp"

namespace castra::campaign {

bool ends_after(const Definition& d, const BattleNode& node, rules::Outcome::Kind result,
                const std::array<Roster, 2>& after) {
  const BattleNode* next = d.battle(node.after(result));
  if (next == nullptr) return true;
  for (rules::Side side : {rules::Side::kA, rules::Side::kB}) {
    const Roster& r = after[static_cast<std::size_t>(rules::index(side))];
    if (!can_field(arrive(*next, side, r))) return true;
  }
  return false;
}

rules::Outcome campaign_outcome(Decision decided_by, const std::vector<rules::Outcome>& results) {
  using Kind = rules::Outcome::Kind;
  if (results.empty()) return rules::Outcome::draw("no battle was fought");
  if (decided_by == Decision::kLastBattle) {
    const rules::Outcome& last = results.back();
    return {last.kind, "the last battle: " + last.reason};
  }
  int a = 0, b = 0;
  for (const rules::Outcome& o : results) {
    a += o.kind == Kind::kWinA ? 1 : 0;
    b += o.kind == Kind::kWinB ? 1 : 0;
  }
  const std::string tally = "battles won " + std::to_string(a) + " to " + std::to_string(b);
  if (a > b) return rules::Outcome::win(rules::Side::kA, tally);
  if (b > a) return rules::Outcome::win(rules::Side::kB, tally);
  return rules::Outcome::draw(tally);
}

}  // namespace castra::campaign
