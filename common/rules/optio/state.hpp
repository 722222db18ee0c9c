// Optio's values: the scenario, the game state, the commands a side gives, the events the
// engine produces and the legal-command lists. Plain copyable values compared with ==;
// nothing here has behaviour beyond small lookups. Any thread.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/rules/optio/geometry.hpp"
#include "common/rules/optio/ruleset.hpp"
#include "common/rules/types.hpp"

namespace castra::rules::optio {

enum class Formation : std::uint8_t { kLine = 0, kColumn = 1 };
enum class DeploymentMode : std::uint8_t { kFixed = 0, kZones = 1 };
// kMelee is transient: it is entered and left within the events of one command.
enum class Phase : std::uint8_t { kDeployment = 0, kOrders, kMove, kMelee, kOver };
enum class LeaderStatus : std::uint8_t { kActive = 0, kKilled, kGone };

// A rectangle of squares, inclusive.
struct Zone {
  int min_col = 0, max_col = 0, min_row = 0, max_row = 0;
  bool contains(Square s) const {
    return s.col >= min_col && s.col <= max_col && s.row >= min_row && s.row <= max_row;
  }
  friend bool operator==(const Zone&, const Zone&) = default;
};

// ---------------------------------------------------------------------------------------
// Scenario: the battle as data (scenarios/optio/*.json through the wire codec).

struct ScenarioUnit {
  int id = 0;
  Side side = Side::kA;
  UnitType type = UnitType::kHeavyInfantry;
  int bases = 2;
  int command = 0;
  std::optional<Square> at;  // required for fixed deployment, ignored for zones
  int facing = 0;
  Formation formation = Formation::kLine;
  int morale = 0;  // 0: the type's firm + shaken
  std::string name;
  // It starts the battle disordered: disorder_turns ends of turn still to pass before
  // order returns (1 up to its drill's recovery count; 0: that full count).
  bool disordered = false;
  int disorder_turns = 0;
  int missile_hits = 0;  // below the hits that cost an interval
  friend bool operator==(const ScenarioUnit&, const ScenarioUnit&) = default;
};

struct ScenarioLeader {
  int id = 0;
  Side side = Side::kA;
  bool general = false;
  int command = 0;
  int unit = 0;   // the unit he starts with (fixed deployment)
  int range = 0;  // 0: the ruleset's default
  std::string name;
  friend bool operator==(const ScenarioLeader&, const ScenarioLeader&) = default;
};

struct TerrainSquare {
  Square at;
  Terrain terrain = Terrain::kOpen;
  friend bool operator==(const TerrainSquare&, const TerrainSquare&) = default;
};

struct Scenario {
  std::string name;
  std::string title;
  std::string description;
  int cols = 0;  // 0: the ruleset's default
  int rows = 0;
  std::vector<TerrainSquare> terrain;  // squares not listed are open
  Side first_side = Side::kA;          // moves first every turn
  DeploymentMode deployment = DeploymentMode::kFixed;
  Side first_deployer = Side::kA;
  std::array<std::optional<Zone>, 2> zones;  // by side; default: the rows at its edge
  int turn_limit = 0;                        // 0: the ruleset's default
  std::vector<ScenarioUnit> units;
  std::vector<ScenarioLeader> leaders;
  friend bool operator==(const Scenario&, const Scenario&) = default;
};

// ---------------------------------------------------------------------------------------
// State.

struct Unit {
  int id = 0;
  Side side = Side::kA;
  UnitType type = UnitType::kHeavyInfantry;
  int bases = 2;
  int command = 0;
  bool placed = false;  // false only while its side deploys
  bool routed = false;  // routed units have left the board
  Square pos;
  int facing = 0;
  Formation formation = Formation::kLine;
  int morale = 0;
  int start_morale = 0;
  bool disordered = false;
  int disorder_turns = 0;  // ends of turn still to pass before order returns
  int missile_hits = 0;
  bool moved_this_turn = false;
  bool moved_last_turn = false;
  bool shot_this_phase = false;
  bool charged_this_phase = false;
  bool on_board() const { return placed && !routed; }
  friend bool operator==(const Unit&, const Unit&) = default;
};

struct Leader {
  int id = 0;
  Side side = Side::kA;
  bool general = false;
  int command = 0;
  int unit = 0;  // the unit he stands with; 0 when not placed or out of the game
  LeaderStatus status = LeaderStatus::kActive;
  bool wounded = false;
  int range = 0;
  std::vector<Square> path;  // orders path; hidden from the other side
  int progress = 0;          // index into path; hidden with it
  bool abandoned = false;
  bool moved_this_phase = false;
  bool active() const { return status == LeaderStatus::kActive; }
  friend bool operator==(const Leader&, const Leader&) = default;
};

struct State {
  std::string version;
  int cols = 0;
  int rows = 0;
  std::vector<Terrain> terrain;  // row-major, (rows x cols)
  Side first_side = Side::kA;
  DeploymentMode deployment = DeploymentMode::kFixed;
  Side first_deployer = Side::kA;
  std::array<Zone, 2> zones;
  int turn_limit = 0;
  int turn = 0;  // 0 before the first turn
  Phase phase = Phase::kDeployment;
  Side active = Side::kA;  // the side deploying or moving
  std::array<bool, 2> deployed{};
  std::array<bool, 2> orders_submitted{};
  std::array<int, 2> start_units{};
  std::array<int, 2> routed{};
  std::optional<Outcome> outcome;
  std::vector<Unit> units;      // by ascending id
  std::vector<Leader> leaders;  // by ascending id

  bool on_board(Square s) const {
    return s.col >= 1 && s.col <= cols && s.row >= 1 && s.row <= rows;
  }
  Terrain terrain_at(Square s) const {
    return terrain[static_cast<std::size_t>((s.row - 1) * cols + (s.col - 1))];
  }
  const Unit* unit(int id) const;
  Unit* unit(int id);
  const Leader* leader(int id) const;
  Leader* leader(int id);
  const Unit* unit_at(Square s) const;  // the unit on the board there, if any
  friend bool operator==(const State&, const State&) = default;
};

// ---------------------------------------------------------------------------------------
// Commands.

struct Step {
  Square to;
  int facing = 0;  // the unit's facing while it takes this step
  friend bool operator==(const Step&, const Step&) = default;
};

struct OrdersPath {
  int leader = 0;
  std::vector<Square> squares;
  friend bool operator==(const OrdersPath&, const OrdersPath&) = default;
};

namespace cmd {
struct Deploy {
  int unit = 0;
  Square at;
  int facing = 0;
  Formation formation = Formation::kLine;
  friend bool operator==(const Deploy&, const Deploy&) = default;
};
struct PlaceLeader {
  int leader = 0;
  int unit = 0;
  friend bool operator==(const PlaceLeader&, const PlaceLeader&) = default;
};
struct EndDeployment {
  friend bool operator==(const EndDeployment&, const EndDeployment&) = default;
};
struct SubmitOrders {
  std::vector<OrdersPath> paths;
  friend bool operator==(const SubmitOrders&, const SubmitOrders&) = default;
};
struct Advance {
  int unit = 0;
  std::vector<Step> steps;
  friend bool operator==(const Advance&, const Advance&) = default;
};
struct Rotate {
  int unit = 0;
  int facing = 0;
  friend bool operator==(const Rotate&, const Rotate&) = default;
};
struct ChangeFormation {
  int unit = 0;
  friend bool operator==(const ChangeFormation&, const ChangeFormation&) = default;
};
struct Shoot {
  int unit = 0;
  int target = 0;
  friend bool operator==(const Shoot&, const Shoot&) = default;
};
struct MoveLeader {
  int leader = 0;
  int unit = 0;  // the unit he ends with
  friend bool operator==(const MoveLeader&, const MoveLeader&) = default;
};
struct AbandonOrders {
  int leader = 0;
  friend bool operator==(const AbandonOrders&, const AbandonOrders&) = default;
};
struct EndPhase {
  friend bool operator==(const EndPhase&, const EndPhase&) = default;
};
}  // namespace cmd

using Command = std::variant<cmd::Deploy, cmd::PlaceLeader, cmd::EndDeployment, cmd::SubmitOrders,
                             cmd::Advance, cmd::Rotate, cmd::ChangeFormation, cmd::Shoot,
                             cmd::MoveLeader, cmd::AbandonOrders, cmd::EndPhase>;

// ---------------------------------------------------------------------------------------
// Events: facts with their results, so that applying one is mechanical.

enum class FightKind : std::uint8_t { kCharge = 0, kMelee = 1 };
enum class LeaderFate : std::uint8_t { kUnharmed = 0, kWounded, kKilled };

// A leader carried off by his unit's rout: to another unit, or out of the game (unit 0).
struct LeaderRelocation {
  int leader = 0;
  int to_unit = 0;
  friend bool operator==(const LeaderRelocation&, const LeaderRelocation&) = default;
};

namespace ev {
struct UnitDeployed {
  int unit = 0;
  Square at;
  int facing = 0;
  Formation formation = Formation::kLine;
  friend bool operator==(const UnitDeployed&, const UnitDeployed&) = default;
};
struct LeaderPlaced {
  int leader = 0;
  int unit = 0;
  friend bool operator==(const LeaderPlaced&, const LeaderPlaced&) = default;
};
struct DeploymentEnded {
  Side side = Side::kA;
  friend bool operator==(const DeploymentEnded&, const DeploymentEnded&) = default;
};
// Public: that a side has handed in its card.
struct OrdersSubmitted {
  Side side = Side::kA;
  friend bool operator==(const OrdersSubmitted&, const OrdersSubmitted&) = default;
};
// Sealed: the card itself.
struct OrdersCard {
  Side side = Side::kA;
  std::vector<OrdersPath> paths;
  friend bool operator==(const OrdersCard&, const OrdersCard&) = default;
};
// A new phase: deployment or move (with `side`), melee, or orders.
struct PhaseStarted {
  Phase phase = Phase::kOrders;
  int turn = 0;
  Side side = Side::kA;
  friend bool operator==(const PhaseStarted&, const PhaseStarted&) = default;
};
struct Advanced {
  int unit = 0;
  Square from;
  std::vector<Step> steps;
  bool disordered = false;  // entered woods or marsh and is now disordered
  int disorder_turns = 0;
  int charge_target = 0;  // the enemy now directly ahead, 0 if none
  friend bool operator==(const Advanced&, const Advanced&) = default;
};
struct Rotated {
  int unit = 0;
  int from_facing = 0;
  int facing = 0;
  bool disordered = false;
  int disorder_turns = 0;
  friend bool operator==(const Rotated&, const Rotated&) = default;
};
struct FormationChanged {
  int unit = 0;
  Formation formation = Formation::kLine;
  friend bool operator==(const FormationChanged&, const FormationChanged&) = default;
};
// Shooting changes the missile-hit count only; lost intervals follow as MoraleChanged or
// Routed.
struct Shot {
  int shooter = 0;
  int target = 0;
  bool at_charger = false;
  int base = 0;
  int shift = 0;
  int hits = 0;
  int missile_before = 0;
  int missile_after = 0;
  int intervals = 0;  // intervals the hits cost
  friend bool operator==(const Shot&, const Shot&) = default;
};
// A fight's scores; the losses follow as MoraleChanged or Routed.
struct Fight {
  FightKind kind = FightKind::kCharge;
  int a = 0;  // in a charge, the charger
  int b = 0;
  int base_a = 0, shift_a = 0, hits_a = 0;
  int base_b = 0, shift_b = 0, hits_b = 0;
  int loss_a = 0, loss_b = 0;
  friend bool operator==(const Fight&, const Fight&) = default;
};
struct MoraleChanged {
  int unit = 0;
  int from = 0;
  int to = 0;  // never 0: a unit at 0 routs (Routed)
  friend bool operator==(const MoraleChanged&, const MoraleChanged&) = default;
};
struct Routed {
  int unit = 0;
  Side side = Side::kA;
  Square at;
  int from_morale = 0;
  std::vector<LeaderRelocation> leaders;
  friend bool operator==(const Routed&, const Routed&) = default;
};
struct LeaderMoved {
  int leader = 0;
  int from_unit = 0;
  int to_unit = 0;
  friend bool operator==(const LeaderMoved&, const LeaderMoved&) = default;
};
struct LeaderRoll {
  int leader = 0;
  int first = 0;
  int second = 0;  // 0 when not rolled
  LeaderFate fate = LeaderFate::kUnharmed;
  friend bool operator==(const LeaderRoll&, const LeaderRoll&) = default;
};
// Private to the leader's side: progress along his (hidden) path.
struct Progress {
  int leader = 0;
  Side side = Side::kA;
  int index = 0;
  friend bool operator==(const Progress&, const Progress&) = default;
};
struct OrdersAbandoned {
  int leader = 0;
  friend bool operator==(const OrdersAbandoned&, const OrdersAbandoned&) = default;
};
struct DisorderRecovered {
  int unit = 0;
  friend bool operator==(const DisorderRecovered&, const DisorderRecovered&) = default;
};
// The end of a turn: the remaining disorder counts go down by one, this turn's moves
// become last turn's.
struct TurnEnded {
  int turn = 0;
  friend bool operator==(const TurnEnded&, const TurnEnded&) = default;
};
struct GameEnded {
  Outcome outcome;
  friend bool operator==(const GameEnded&, const GameEnded&) = default;
};
}  // namespace ev

using Event =
    std::variant<ev::UnitDeployed, ev::LeaderPlaced, ev::DeploymentEnded, ev::OrdersSubmitted,
                 ev::OrdersCard, ev::PhaseStarted, ev::Advanced, ev::Rotated, ev::FormationChanged,
                 ev::Shot, ev::Fight, ev::MoraleChanged, ev::Routed, ev::LeaderMoved,
                 ev::LeaderRoll, ev::Progress, ev::OrdersAbandoned, ev::DisorderRecovered,
                 ev::TurnEnded, ev::GameEnded>;

// ---------------------------------------------------------------------------------------
// Legal commands for one side, complete enough that a client needs no rules code.

struct AdvanceOption {
  std::vector<Step> steps;
  int charge_target = 0;   // the enemy it would charge, 0 if none
  bool disorders = false;  // it would end disordered in woods or marsh
  friend bool operator==(const AdvanceOption&, const AdvanceOption&) = default;
};

struct UnitLegal {
  int unit = 0;
  bool in_command = false;
  // Move phase.
  std::vector<AdvanceOption> advances;
  std::vector<int> rotations;  // facings it may rotate to
  bool change_formation = false;
  std::vector<int> shoot_targets;
  // Deployment.
  std::vector<Square> placements;
  std::vector<int> facings;
  std::vector<Formation> formations;
  friend bool operator==(const UnitLegal&, const UnitLegal&) = default;
};

struct LeaderLegal {
  int leader = 0;
  std::vector<int> move_to;   // units he may move to (move phase)
  std::vector<int> place_on;  // units he may be placed with (deployment)
  bool abandon = false;
  friend bool operator==(const LeaderLegal&, const LeaderLegal&) = default;
};

// What a well-formed orders card is: one path per listed subcommander, starting on his
// square, each square king-adjacent to and different from the one before, on the board,
// at most max_squares long.
struct OrdersLegal {
  bool submit = false;
  std::vector<OrdersPath> starts;  // each subcommander with his one-square start
  int max_squares = 0;
  int cols = 0;
  int rows = 0;
  friend bool operator==(const OrdersLegal&, const OrdersLegal&) = default;
};

struct Legal {
  Side side = Side::kA;
  std::string phase;
  std::vector<UnitLegal> units;
  std::vector<LeaderLegal> leaders;
  bool end_phase = false;
  bool end_deployment = false;
  OrdersLegal orders;
  friend bool operator==(const Legal&, const Legal&) = default;
};

// Whether `c` is on the list: the one membership test for clients and tests.
bool listed(const Legal& legal, const Command& c);

}  // namespace castra::rules::optio
