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
// state hash; each starting point was itself replayed from a new match at start-up.
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
constexpr std::array<Viewer, 4> kViewers = {Viewer::kSideA, Viewer::kSideB, Viewer::kSpectator,
                                            Viewer::kEveryone};
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
  static std::optional<G::Command> listed(const G::State& s, Side side, std::uint16_t seed) {
    const auto all = rules::stand::commands(G::legal(s, side));
    if (all.empty()) return std::nullopt;
    return all[seed % all.size()];
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
// the one the next event's check starts from, so it is carried on, not made again.
template <class G>
void check_entry(typename G::State before, const match::Match<G>& m) {
  using State = typename G::State;
  State s = std::move(before);
  std::array<std::optional<State>, kViewers.size()> seen;  // by viewer: project(s, viewer)
  for (const auto& e : m.log().back().events) {
    State next = s;
    G::apply(next, e);
    const rules::Visibility vis = G::visibility(e);
    for (std::size_t i = 0; i < kViewers.size(); ++i) {
      if (!vis.visible_to(kViewers[i])) {
        seen[i].reset();
        continue;
      }
      State projected = seen[i] ? std::move(*seen[i]) : G::project(s, kViewers[i]);
      G::apply(projected, e);
      seen[i] = G::project(next, kViewers[i]);
      if (!(*seen[i] == projected)) {
        broken(std::string(G::kName) + ": projection does not commute with " + G::describe(s, e));
      }
    }
    s = std::move(next);
  }
  if (!(s == m.state())) broken(std::string(G::kName) + ": the events do not fold to the state");
#ifndef CASTRA_CHECK_INVARIANTS
  // With CASTRA_CHECK_INVARIANTS (tools/fuzz's build) the match has run it on this entry.
  if (auto bad = G::check(m.state())) broken(std::string(G::kName) + ": check(): " + *bad);
#endif
  const State projected = seen[kSpectatorAt] ? std::move(*seen[kSpectatorAt])
                                             : G::project(m.state(), Viewer::kSpectator);
  if (auto bad = G::check(projected)) {
    broken(std::string(G::kName) + ": check() of a spectator's projection: " + *bad);
  }
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
  return m;
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
