// STAND!'s reasons(): whether legal_for() offers the hex each kind of action, and for a
// kind it does not, the refusals decide() gives the candidates that kind would try.
#include "common/rules/stand/reasons.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "common/rules/stand/game.hpp"
#include "common/rules/stand/legal.hpp"

namespace castra::rules::stand {
namespace {

// decide() rolls only for an attack it accepts; reasons() asks only about refused ones.
class NoDice final : public Dice {
 public:
  int roll(Die) override { return 1; }
};

struct Words {
  const State& s;
  Side side;
  NoDice dice;
  std::vector<RuleError> refusals(const std::vector<Command>& candidates) {
    std::vector<RuleError> out;
    for (const Command& c : candidates) {
      auto e = Game::decide(s, side, c, dice);
      if (!e) out.push_back(e.error());
    }
    return out;
  }
};

template <typename T, typename F>
bool any(const std::vector<T>& v, F f) {
  return std::any_of(v.begin(), v.end(), f);
}

}  // namespace

Reasons reasons(const State& s, Side side, Hex hex) {
  Reasons out;
  const std::string where = "hex " + to_string(hex);
  if (!s.on_map(hex) || !s.at(hex).held_by(side)) {
    out.refusals.push_back({"select", refuse("stand.3.own", where + " holds none of your troops")});
    return out;
  }
  const Legal legal = legal_for(s, side);
  const Tile& tile = s.at(hex);
  Words words{s, side, {}};
  const auto kind = [&](const char* action, bool possible, const std::vector<Command>& candidates,
                        const std::vector<Command>& detail, const std::string& rule,
                        const std::string& summary) {
    if (possible) {
      out.can_act = true;
      return;
    }
    out.refusals.push_back(
        {action, summarise(words.refusals(candidates), words.refusals(detail), rule, summary)});
  };
  std::vector<Command> faces;
  for (int d = 0; d < kDirections; ++d) {
    if (d != tile.facing) faces.push_back(cmd::Face{hex, d});
  }
  const bool may_face = any(legal.facings, [&](const FacingChoice& f) { return f.hex == hex; });
  switch (s.phase) {
    case Phase::kDeploy:
      kind("face", may_face, faces, {}, "stand.3.facing", where + " may not turn");
      break;
    case Phase::kMove: {
      // A figure of each type that may still move (or, when none may, of each type there),
      // one hex in each direction: every first step a move would take.
      std::vector<Command> steps;
      const Figures& pool = tile.unmoved.empty() ? tile.figures : tile.unmoved;
      for (Troop t : kAllTroops) {
        if (pool[t] == 0) continue;
        Figures one;
        one[t] = 1;
        for (int d = 0; d < kDirections; ++d)
          steps.push_back(cmd::Move{hex, {neighbour(hex, d)}, one});
      }
      kind("move", any(legal.moves, [&](const Group& g) { return g.from == hex; }), steps, steps,
           "stand.3.room", where + " has no hex its troops may move to");
      kind("face", may_face, faces, {}, "stand.3.facing", where + " may not turn");
      const Posture flip =
          tile.posture == Posture::kStanding ? Posture::kFallingBack : Posture::kStanding;
      kind("posture", any(legal.postures, [&](const PostureChoice& p) { return p.hex == hex; }),
           {cmd::SetPosture{hex, flip}}, {}, "stand.3.posture",
           where + " may not change its posture");
      break;
    }
    case Phase::kFight: {
      std::vector<Command> attacks;
      for (int d = 0; d < kDirections; ++d)
        attacks.push_back(cmd::Attack{hex, neighbour(hex, d)});
      kind("attack", any(legal.attacks, [&](const AttackChoice& a) { return a.from == hex; }),
           attacks, {}, "stand.4.target", "no enemy hex is next to " + where);
      break;
    }
    case Phase::kRollOff:
    case Phase::kOver:
      kind("act", false, {cmd::EndPhase{}}, {}, "stand.2.phase", "there is nothing to do now");
      break;
  }
  return out;
}

}  // namespace castra::rules::stand
