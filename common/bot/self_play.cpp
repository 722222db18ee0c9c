// Offline self-play: seats two players in a match of the match layer and runs it to its end.
#include "common/bot/self_play.hpp"

#include <memory>

#include "common/bot/rng.hpp"
#include "common/wire/any_match.hpp"

namespace castra::bot {
namespace {

using rules::Side;

match::Bytes32 bytes32(Rng& rng) {
  match::Bytes32 out{};
  for (auto& b : out)
    b = static_cast<std::uint8_t>(rng.next());
  return out;
}

std::string entropy(Rng& rng) {
  std::string out(32, '\0');
  for (char& c : out)
    c = static_cast<char>(rng.next());
  return out;
}

// One command of whichever side must act; false when nobody acted.
bool step(wire::AnyMatch& m, const PickFn& player_a, const PickFn& player_b, Rng& rng,
          GameResult& result) {
  const rules::Acting acting = m.acting();
  for (Side side : {Side::kA, Side::kB}) {
    if (!acting.must_act(side)) continue;
    const PickFn& player = side == Side::kA ? player_a : player_b;
    auto command = player(side, m.snapshot(rules::viewer_of(side)), m.legal(side));
    if (!command) continue;
    ++result.commands;
    auto entry = m.submit(side, *command, bytes32(rng));
    if (!entry && result.refused++ == 0) result.first_refusal = entry.error().message;
    return entry.ok();
  }
  return false;
}

}  // namespace

rules::Checked<GameResult> play_game(const GameSetup& setup, const PickFn& player_a,
                                     const PickFn& player_b) {
  Rng rng(setup.seed);
  wire::MatchSetup ms;
  ms.match_id = "self-play-" + std::to_string(setup.seed);
  ms.scenario = setup.scenario;
  ms.server_seed = bytes32(rng);
  auto made = wire::make_match(ms);
  if (!made) return made.error();
  wire::AnyMatch& m = **made;
  for (Side side : {Side::kA, Side::kB}) {
    if (auto bad = m.seat(side, entropy(rng))) return *bad;
  }
  GameResult result;
  while (!m.outcome() && result.commands < setup.max_commands) {
    if (!step(m, player_a, player_b, rng, result)) break;
  }
  result.outcome = m.outcome();
  result.entries = m.entry_count();
  result.turns = m.acting().turn;
  if (setup.keep_record) result.record = m.record();
  return result;
}

rules::Checked<GameResult> play_game(const GameSetup& setup, Brain& a, Brain& b) {
  auto pick_a = [&](Side side, const v1::Snapshot& view, const v1::GameLegal& legal) {
    return a.pick(view, legal, side);
  };
  auto pick_b = [&](Side side, const v1::Snapshot& view, const v1::GameLegal& legal) {
    return b.pick(view, legal, side);
  };
  return play_game(setup, PickFn(pick_a), PickFn(pick_b));
}

}  // namespace castra::bot
