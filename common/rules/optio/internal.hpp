// Helpers shared by the Optio engine's own files (decide.cpp, legal.cpp, game.cpp): the
// board's occupancy, command chains, contact, combat shifts and command validation. Not
// part of the engine's interface; same threading as the engine (pure functions).
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "common/rules/optio/forecast.hpp"
#include "common/rules/optio/state.hpp"
#include "common/rules/types.hpp"

namespace castra::rules::optio::detail {

const Ruleset& rules_of(const State& s);

// Unit ids by square, for the units on the board.
class Board {
 public:
  explicit Board(const State& s);
  int at(Square sq) const;  // unit id, 0 if empty or off the board
  bool empty(Square sq) const { return at(sq) == 0; }

 private:
  int cols_ = 0;
  int rows_ = 0;
  std::vector<int> ids_;
};

bool is_shaken(const Ruleset& rs, const Unit& u);
bool is_deep_line(const Unit& u);
bool can_form_column(const Ruleset& rs, const Unit& u);
bool is_agile_foot(const Ruleset& rs, const Unit& u);
bool is_rough(Terrain t);  // woods or marsh
bool may_enter(const Ruleset& rs, const Unit& u, Terrain t);

// u faces v: v is on the square directly ahead of u.
bool faces(const Unit& u, const Unit& v);
// Engaged: an enemy orthogonally adjacent with one of the two facing the other.
bool engaged(const State& s, const Board& b, const Unit& u);

// Active leaders standing with a unit, by ascending id.
std::vector<int> leaders_with(const State& s, int unit_id);
// A subcommander's command whose leader is killed or gone: the general's chain runs there.
bool orphaned(const State& s, Side side, int command);
// Whether leader L may stand with unit u (his command; for the general, orphaned ones too).
bool may_stand_with(const State& s, const Leader& l, const Unit& u);
// The units leader L puts in command (his chain), by unit id; empty if he is not placed.
std::vector<int> chain(const State& s, const Board& b, const Leader& l);
// Whether unit u is in command now.
bool in_command(const State& s, const Board& b, const Unit& u);

// Orders: whether L's moves are checked against a path now.
bool bound_by_orders(const Leader& l);
// Progress after L ends a move on `to`: the first later occurrence, else unchanged.
int progress_after(const Leader& l, Square to);

// The modifiers of section 6 that apply to unit u fighting opp, each named as the rules'
// table names it, in the table's order. `charged` marks the unit that was charged in charge
// combat (the only one that may defend a ford or a camp there). The shifts decide() uses and
// the forecasts clients see are both made from these terms, so they cannot disagree.
std::vector<ShiftTerm> combat_terms(const State& s, const Unit& u, const Unit& opp, FightKind kind,
                                    bool charged);
// The shooting modifiers of section 7 for shooter at target.
std::vector<ShiftTerm> shooting_terms(const State& s, const Unit& shooter, const Unit& target);
int sum_of(const std::vector<ShiftTerm>& terms);
// A unit's whole score from those terms: base value, raw and clamped shift, hits.
Score combat_score(const State& s, const Unit& u, const Unit& opp, FightKind kind, bool charged);
Score shooting_score(const State& s, const Unit& shooter, const Unit& target);
// The Fight and Shot events decide() emits, scored on s (a is the charger in a charge).
ev::Fight fight_of(const State& s, FightKind kind, const Unit& a, const Unit& b);
ev::Shot shot_of(const State& s, const Unit& shooter, const Unit& target, bool at_charger);

// What validating many commands against one state shares: the board, and which units
// are in command (worked out once per side).
class Ctx {
 public:
  explicit Ctx(const State& state);
  const State& s;
  const Ruleset& rs;
  Board board;
  bool in_command(const Unit& u);
  // Whether the check under way words its refusal (validate()) or only decides (allowed()).
  bool wording() const { return wording_; }

 private:
  friend std::optional<RuleError> validate(Ctx&, Side, const Command&);
  friend bool allowed(Ctx&, Side, const Command&);
  friend std::vector<std::vector<Step>> allowed_advances(Ctx&, Side, const Unit&);
  std::array<std::optional<std::vector<bool>>, 2> in_command_;  // by unit index
  bool wording_ = true;
};

// The rule a command breaks, or nothing. Needs no dice; decide() and reasons() share it.
std::optional<RuleError> validate(Ctx& ctx, Side side, const Command& c);
std::optional<RuleError> validate(const State& s, Side side, const Command& c);
// Whether validate() accepts the command, decided by the same checks without wording the
// refusal: legal() weighs every candidate this way, and its list reports no refusal.
bool allowed(Ctx& ctx, Side side, const Command& c);

// The ids of the units on the board of a side, ascending.
std::vector<int> units_of(const State& s, Side side);

// Every advance of up to `move` steps unit u could try, legal or not, in one fixed order:
// each step straight or diagonally ahead, a column turning 90 degrees before any step, a path
// before the longer ones that go on from it. Each is handed to visit(path), which says
// whether to go on to those longer ones. legal() lists the ones validate() accepts
// (allowed_advances); reasons() explains the rest.
template <typename Visit>
void advance_paths(const Unit& u, int move, Visit&& visit);

// The advances of unit u (one of `side`'s) that validate() accepts, in advance_paths' order:
// legal()'s list. check(Advance)'s own checks, made as a walk of the tree of paths: the
// unit's once, a step's once for all the paths through it, a path's end once for each. A
// step is checked against the steps before it alone, so a path refused at its last step
// refuses every longer one through it, and the walk does not go on there (a column of cavalry
// has 819 paths).
std::vector<std::vector<Step>> allowed_advances(Ctx& ctx, Side side, const Unit& u);

template <typename Visit>
void advance_paths_from(const Unit& u, int move, std::vector<Step>& path, int facing, Square at,
                        Visit& visit) {
  if (static_cast<int>(path.size()) == move) return;
  // Straight on, then (a column) a quarter turn either way.
  const std::array<int, 3> facings{facing, turn(facing, -1), turn(facing, 1)};
  const std::size_t turns = u.formation == Formation::kColumn ? 3 : 1;
  for (std::size_t i = 0; i < turns; ++i) {
    const int f = facings[i];
    const auto diag = diagonally_ahead(at, f);
    for (Square to : {diag[0], ahead(at, f), diag[1]}) {
      path.push_back({to, f});
      if (visit(static_cast<const std::vector<Step>&>(path))) {
        advance_paths_from(u, move, path, f, to, visit);
      }
      path.pop_back();
    }
  }
}

template <typename Visit>
void advance_paths(const Unit& u, int move, Visit&& visit) {
  std::vector<Step> path;
  path.reserve(static_cast<std::size_t>(std::max(move, 0)));
  advance_paths_from(u, move, path, u.facing, u.pos, visit);
}

}  // namespace castra::rules::optio::detail
