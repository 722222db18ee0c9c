// Fuzz target (c): sequences of arbitrary commands against both rules engines, on every
// scenario of scenarios/ (battles and lessons), through the match layer (Match<G>) as the
// server plays them. The first byte picks the scenario, the second a starting point: the
// opening, or the position after 8, 16, 32, 64 or 128 commands of a game of listed commands
// played once at start-up (so that a short input reaches the middle and the end of a battle,
// and an input costs its own steps only). Then each step is a command from the legal list, one
// built blindly from the state's shape (Optio), or protobuf bytes through the rule set's
// codec, given by the acting side or, now and then, by the other one. After every accepted
// command: check() holds on the state and on a spectator's projection, projection commutes
// with apply for every viewer who may see each event, and the events fold to the match's own
// state. At the end the accepted commands replayed on the starting point give the same full
// state hash, and the projections that hide nothing (kEveryone's; every viewer's in a rule
// set that hides nothing) are the state itself; each starting point was itself replayed from
// a new match at start-up, then compacted (its later log entries adopted as one, checked to
// give the same state).
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/match/match.hpp"
#include "common/rules/optio/game.hpp"
#include "common/rules/stand/game.hpp"
#include "common/rules/stand/legal.hpp"
#include "common/wire/optio_codec.hpp"
#include "common/wire/stand_codec.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "tests/rules/optio/random_player.hpp"

namespace castra::fuzz {
namespace {

using rules::Side;
using rules::Viewer;

// Bounds an input's cost (libFuzzer's inputs may be long): a step costs a legal list, a
// decide and the checks, up to some 80 microseconds on the biggest battles without
// sanitizers (Optio's legal list words every refusal it weighs).
constexpr int kMaxSteps = 8;
constexpr std::array<std::size_t, 6> kDepths = {0, 8, 16, 32, 64, 128};
constexpr std::size_t kMaxWireBytes = 64;
// The viewers a projection may hide something from. kEveryone's projection is the state
// itself (types.hpp), as every viewer's is in a rule set that hides nothing: for those,
// commuting follows from project(s, v) == s, which see_all() checks on each input's last
// state instead of a copy per event.
constexpr std::array<Viewer, 3> kViewers = {Viewer::kSideA, Viewer::kSideB, Viewer::kSpectator};
constexpr std::size_t kSpectatorAt = 2;
static_assert(kViewers[kSpectatorAt] == Viewer::kSpectator);

template <class G>
struct Moves;

template <>
struct Moves<rules::optio::Game> {
  using G = rules::optio::Game;
  static std::optional<G::Command> listed(const G::State& s, Side side, std::uint16_t seed) {
    rules::optio::testing::RandomPlayer player(seed);
    return player.from_list(s, G::legal(s, side));
  }
  static std::optional<G::Command> blind(const G::State& s, Side side, std::uint16_t seed) {
    rules::optio::testing::RandomPlayer player(seed);
    return player.blind(s, side);
  }
  static std::optional<G::Command> wire(std::string_view bytes) {
    v1::optio::Command m;
    if (!m.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return std::nullopt;
    auto c = wire::optio::to_domain(m);
    if (!c) return std::nullopt;
    return *c;
  }
  static rules::Checked<G::Scenario> scenario(const std::string& json) {
    return wire::optio::scenario_from_json(json);
  }
};

template <>
struct Moves<rules::stand::Game> {
  using G = rules::stand::Game;
  // commands(legal)[seed % its size], without building the list (under the address sanitizer
  // its growing buffer was a tenth of the target's time): the list is counted, then the one
  // command made, a deployment or a move by commands() of a legal list of its destination
  // alone. Builds without the sanitizers (the corpus replay in ctest) compare it with the
  // whole list's.
  static std::optional<G::Command> listed(const G::State& s, Side side, std::uint16_t seed) {
    namespace stand = rules::stand;
    const stand::Legal legal = G::legal(s, side);
    std::size_t n = legal.end_phase ? 1 : 0;
    for (const stand::AttackChoice& a : legal.attacks)
      n += a.targets.size();
    for (const stand::FacingChoice& f : legal.facings)
      n += faces(f);
    n += legal.postures.size();
    for (const auto* groups : {&legal.deploy, &legal.moves}) {
      for (const stand::Group& g : *groups) {
        for (const stand::Destination& d : g.destinations)
          n += per_destination(legal, g, d);
      }
    }
    if (n == 0) return std::nullopt;
    const std::size_t k = seed % n;
    const G::Command picked = nth(legal, k);
#ifndef CASTRA_SANITIZED
    const auto all = stand::commands(legal);
    if (all.size() != n || !(all[k] == picked)) {
      broken("stand: the fuzzer's pick from the legal list is not commands()'s");
    }
#endif
    return picked;
  }
  // Face commands of a facing choice: every direction but the present one.
  static std::size_t faces(const rules::stand::FacingChoice& f) {
    std::size_t n = 0;
    for (int d = 0; d < rules::stand::kDirections; ++d)
      n += d != f.facing ? 1 : 0;
    return n;
  }
  // commands() gives a destination the most figures that fit (legal.cpp's fill) and, when
  // that is more than one of each type, one of each.
  static std::size_t per_destination(const rules::stand::Legal& legal, const rules::stand::Group& g,
                                     const rules::stand::Destination& d) {
    using rules::stand::Troop;
    rules::stand::Figures one;
    for (Troop t : rules::stand::kAllTroops)
      one[t] = rules::stand::has(g.types, t) ? 1 : 0;
    auto space = [&](Troop t) {
      return legal.space[static_cast<std::size_t>(rules::stand::index(t))];
    };
    int left = d.room;
    for (Troop t : rules::stand::kAllTroops)
      left -= one[t] * space(t);
    rules::stand::Figures most = one;
    for (Troop t : rules::stand::kAllTroops) {
      if (!rules::stand::has(g.types, t)) continue;
      const int more = std::min(g.available[t] - 1, left / space(t));
      most[t] += more;
      left -= more * space(t);
    }
    return most == one ? 1 : 2;
  }
  // The k-th command of commands(legal), in its order.
  static G::Command nth(const rules::stand::Legal& legal, std::size_t k) {
    namespace stand = rules::stand;
    if (legal.end_phase) {
      if (k == 0) return stand::cmd::EndPhase{};
      --k;
    }
    for (const stand::AttackChoice& a : legal.attacks) {
      if (k < a.targets.size()) return stand::cmd::Attack{a.from, a.targets[k]};
      k -= a.targets.size();
    }
    for (const stand::FacingChoice& f : legal.facings) {
      for (int d = 0; d < stand::kDirections; ++d) {
        if (d == f.facing) continue;
        if (k == 0) return stand::cmd::Face{f.hex, d};
        --k;
      }
    }
    if (k < legal.postures.size()) {
      const stand::PostureChoice& p = legal.postures[k];
      return stand::cmd::SetPosture{p.hex, p.posture == stand::Posture::kStanding
                                               ? stand::Posture::kFallingBack
                                               : stand::Posture::kStanding};
    }
    k -= legal.postures.size();
    for (const auto* groups : {&legal.deploy, &legal.moves}) {
      for (const stand::Group& g : *groups) {
        for (const stand::Destination& d : g.destinations) {
          const std::size_t c = per_destination(legal, g, d);
          if (k >= c) {
            k -= c;
            continue;
          }
          stand::Legal alone;
          alone.side = legal.side;
          alone.phase = legal.phase;
          alone.space = legal.space;
          (groups == &legal.deploy ? alone.deploy : alone.moves)
              .push_back({g.from, g.types, g.available, g.reach, {d}});
          const auto made = stand::commands(alone);
          if (made.size() != c) broken("stand: a destination's commands are not counted right");
          return made[k];
        }
      }
    }
    broken("stand: a pick past the legal list's end");
  }
  // STAND!'s blind commands are the codec's: its messages name hexes and figures directly.
  static std::optional<G::Command> blind(const G::State&, Side, std::uint16_t) {
    return std::nullopt;
  }
  static std::optional<G::Command> wire(std::string_view bytes) {
    v1::stand::Command m;
    if (!m.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return std::nullopt;
    auto c = wire::stand::to_domain(m);
    if (!c) return std::nullopt;
    return *c;
  }
  static rules::Checked<G::Scenario> scenario(const std::string& json) {
    return wire::stand::scenario_from_json(json);
  }
};

template <class G>
struct Accepted {
  Side side;
  typename G::Command command;
  match::Bytes32 salt;
};

template <class G>
match::Match<G> new_match(const typename G::Scenario& scenario) {
  match::Bytes32 seed{};
  seed[0] = 16;
  auto made = match::Match<G>::create({"fuzz", scenario, "", seed});
  if (!made) broken("a scenario that loaded makes no match: " + made.error().message);
  auto m = std::move(*made);
  m.seat(Side::kA, "entropy-a");
  m.seat(Side::kB, "entropy-b");
  return m;
}

// Projection commutes with apply for each event of the newest entry, folded from `before`;
// the fold ends at the match's state. A viewer's projection of the state after an event is
// the one the next event's check starts from, so it is carried on, not made again; the fold
// applies each event in place (the state before it is folded again only to word a failure).
// A rule set that hides nothing has no viewer to check here (see_all).
template <class G>
void check_entry(typename G::State before, const match::Match<G>& m) {
  using State = typename G::State;
  constexpr std::size_t kHiding = G::kHidesInformation ? kViewers.size() : 0;
  State s = std::move(before);
  std::array<std::optional<State>, kViewers.size()> seen;  // by viewer: project(s, viewer)
  const match::Entry<G>& entry = m.log().back();
  for (std::size_t k = 0; k < entry.events.size(); ++k) {
    const auto& e = entry.events[k];
    const rules::Visibility vis = G::visibility(e);
    std::array<std::optional<State>, kViewers.size()> applied;  // project(s, viewer) + e
    for (std::size_t i = 0; i < kHiding; ++i) {
      if (!vis.visible_to(kViewers[i])) {
        seen[i].reset();
        continue;
      }
      applied[i] = seen[i] ? std::move(*seen[i]) : G::project(s, kViewers[i]);
      G::apply(*applied[i], e);
    }
    G::apply(s, e);
    for (std::size_t i = 0; i < kHiding; ++i) {
      if (!applied[i]) continue;
      seen[i] = G::project(s, kViewers[i]);
      if (!(*seen[i] == *applied[i])) {
        const auto at = m.position_after_events(entry.first_event + k);
        broken(std::string(G::kName) + ": projection does not commute with " +
               G::describe(at->state, e));
      }
    }
  }
  if (!(s == m.state())) broken(std::string(G::kName) + ": the events do not fold to the state");
#ifndef CASTRA_CHECK_INVARIANTS
  // With CASTRA_CHECK_INVARIANTS (tools/fuzz's build) the match has run it on this entry.
  if (auto bad = G::check(m.state())) broken(std::string(G::kName) + ": check(): " + *bad);
#endif
  if constexpr (G::kHidesInformation) {  // otherwise the projection is the state just checked
    const State projected = seen[kSpectatorAt] ? std::move(*seen[kSpectatorAt])
                                               : G::project(m.state(), Viewer::kSpectator);
    if (auto bad = G::check(projected)) {
      broken(std::string(G::kName) + ": check() of a spectator's projection: " + *bad);
    }
  }
}

// What makes check_entry's viewers enough: kEveryone's projection is the state itself, and
// in a rule set that hides nothing so is every viewer's.
template <class G>
void see_all(const typename G::State& s) {
  for (Viewer v : {Viewer::kSideA, Viewer::kSideB, Viewer::kSpectator, Viewer::kEveryone}) {
    if (G::kHidesInformation && v != Viewer::kEveryone) continue;
    if (!(G::project(s, v) == s)) {
      broken(std::string(G::kName) + ": a projection hides something it may not");
    }
  }
}

// `played` as a match whose log is its opening entry and one adopted entry holding every later
// event and roll in order: the same state, event count and roll count (so the same dice from
// here on), checked, but a copy costs one checkpoint and two entries instead of a checkpoint
// every kCheckpointEvery entries and up to 129 entries. Each input copies its starting point
// twice (to play on and to replay on); what it checks reads only the newest entry and the
// state. The log is shorter, so a deep starting point's few steps reach no new checkpoint.
template <class G>
match::Match<G> compact(const match::Match<G>& played) {
  auto m = new_match<G>(played.scenario());
  match::Entry<G> rest;
  rest.kind = match::EntryKind::kCommand;
  rest.first_event = m.event_count();
  for (std::size_t i = m.log().size(); i < played.log().size(); ++i) {
    const auto& e = played.log()[i];
    rest.events.insert(rest.events.end(), e.events.begin(), e.events.end());
    rest.rolls.insert(rest.rolls.end(), e.rolls.begin(), e.rolls.end());
  }
  if (played.log().size() > m.log().size()) m.adopt(std::move(rest));
  if (!(m.state() == played.state()) || m.event_count() != played.event_count() ||
      m.roll_count() != played.roll_count() ||
      m.outcome().has_value() != played.outcome().has_value() ||
      m.full_state_hash() != played.full_state_hash()) {
    broken(std::string(G::kName) + ": a compacted starting point is not the match it compacts");
  }
  return m;
}

// A match after `depth` accepted commands of a game of listed commands (fewer when the game
// ends first), checked: replayed from a new match it gives the same state hash.
template <class G>
match::Match<G> starting_point(const typename G::Scenario& scenario, std::size_t depth) {
  auto m = new_match<G>(scenario);
  std::vector<Accepted<G>> accepted;
  for (std::uint16_t seed = 1; accepted.size() < depth && !m.outcome() && seed < 4 * depth;
       ++seed) {
    const rules::Acting acting = m.acting();
    const Side side = acting.a ? Side::kA : Side::kB;
    auto command = Moves<G>::listed(m.state(), side, static_cast<std::uint16_t>(seed * 7919));
    if (!command) continue;
    match::Bytes32 salt{};
    salt[1] = static_cast<std::uint8_t>(seed);
    if (m.submit(side, *command, salt)) accepted.push_back({side, *command, salt});
  }
  auto again = new_match<G>(scenario);
  for (const auto& a : accepted)
    again.submit(a.side, a.command, a.salt);
  if (again.full_state_hash() != m.full_state_hash()) {
    broken(std::string(G::kName) + ": a starting point's replay ends in another state hash");
  }
  see_all<G>(m.state());
  return compact(m);
}

template <class G>
void play(const match::Match<G>& start, Input& in) {
  auto m = start;
  std::vector<Accepted<G>> accepted;
  for (int step = 0; step < kMaxSteps && !in.empty() && !m.outcome(); ++step) {
    const std::uint8_t op = in.byte();
    const rules::Acting acting = m.acting();
    Side side = acting.a ? Side::kA : Side::kB;
    if (acting.a && acting.b && (op & 0x10)) side = Side::kB;
    if (op & 0x20) side = rules::other(side);
    std::optional<typename G::Command> command;
    switch (op & 0x3) {
      case 0:
      case 1:
        command = Moves<G>::listed(m.state(), side, in.u16());
        break;
      case 2:
        command = Moves<G>::blind(m.state(), side, in.u16());
        break;
      default:
        command = Moves<G>::wire(in.bytes(in.byte() % kMaxWireBytes));
        break;
    }
    if (!command) continue;
    match::Bytes32 salt{};
    salt[0] = static_cast<std::uint8_t>(step);
    typename G::State before = m.state();
    if (!m.submit(side, *command, salt)) continue;
    check_entry(std::move(before), m);
    accepted.push_back({side, *command, salt});
  }
  if (accepted.empty()) return;  // m is start as it was: nothing to replay
  auto again = start;
  for (const auto& a : accepted) {
    if (!again.submit(a.side, a.command, a.salt)) {
      broken(std::string(G::kName) + ": an accepted command is refused on replay");
    }
  }
  if (again.full_state_hash() != m.full_state_hash()) {
    broken(std::string(G::kName) + ": the replay ends in another state hash");
  }
  see_all<G>(m.state());
}

// Per scenario, its starting points in the order of kDepths.
template <class G>
using Starts = std::vector<std::vector<match::Match<G>>>;

struct Scenarios {
  Starts<rules::optio::Game> optio;
  Starts<rules::stand::Game> stand;
};

template <class G>
void load(const std::string& folder, Starts<G>& out) {
  for (const std::string& dir : {folder, folder + "/lessons"}) {
    for (const std::string& file : json_files(dir)) {
      auto sc = Moves<G>::scenario(read_file(file));
      if (!sc) broken(file + " does not load: " + sc.error().message);
      std::vector<match::Match<G>> starts;
      for (std::size_t depth : kDepths)
        starts.push_back(starting_point<G>(*sc, depth));
      out.push_back(std::move(starts));
    }
  }
}

const Scenarios& scenarios() {
  static const Scenarios all = [] {
    Scenarios s;
    load<rules::optio::Game>(CASTRA_SOURCE_DIR "/scenarios/optio", s.optio);
    load<rules::stand::Game>(CASTRA_SOURCE_DIR "/scenarios/stand", s.stand);
    if (s.optio.empty() || s.stand.empty()) broken("no scenarios under scenarios/");
    return s;
  }();
  return all;
}

}  // namespace
}  // namespace castra::fuzz

// The starting points are played before the first input, outside libFuzzer's per-input
// timeout (seconds under the sanitizers).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  castra::fuzz::scenarios();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace castra::fuzz;
  const Scenarios& all = scenarios();
  Input in(data, size);
  const std::size_t pick = in.byte() % (all.optio.size() + all.stand.size());
  const std::size_t depth = in.byte() % kDepths.size();
  if (pick < all.optio.size()) {
    play(all.optio[pick][depth], in);
  } else {
    play(all.stand[pick - all.optio.size()][depth], in);
  }
  return 0;
}
