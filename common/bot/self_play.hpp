// Offline self-play: one whole game of a scenario between two players (Brains, or anything
// that picks like one), through the match layer exactly as the server runs it
// (wire::make_match), with every random input derived from one seed. Pure: no clock, no
// I/O; castra-bench-bot, the tests and the balance program call it. One thread per game.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "common/bot/brain.hpp"
#include "common/rules/types.hpp"
#include "proto/castra/v1/match.pb.h"

namespace castra::bot {

// A player: side's command in view, from legal; nullopt to pass (the game then stalls).
using PickFn = std::function<std::optional<v1::GameCommand>(
    rules::Side side, const v1::Snapshot& view, const v1::GameLegal& legal)>;

struct GameResult {
  std::optional<rules::Outcome> outcome;  // nullopt: cut short by the cap, or stalled
  std::size_t entries = 0;                // log entries, the opening one included
  int commands = 0;                       // commands submitted (refused ones included)
  int turns = 0;                          // the game turn reached
  int refused = 0;                        // commands the match refused (a brain's bug)
  std::string first_refusal;              // the rule's words, when refused > 0
  std::optional<v1::MatchRecord> record;  // with GameSetup::keep_record, once it has ended
};

struct GameSetup {
  v1::ScenarioFile scenario;
  std::uint64_t seed = 0;    // the server seed, both sides' entropy and every salt
  int max_commands = 20000;  // the game is abandoned past this many commands
  bool keep_record = false;  // export the match record (campaigns chain battles by theirs)
};

// The game between player_a (side A) and player_b; the scenario's rule error if it is bad.
rules::Checked<GameResult> play_game(const GameSetup& setup, const PickFn& player_a,
                                     const PickFn& player_b);

// The same between two Brains.
rules::Checked<GameResult> play_game(const GameSetup& setup, Brain& a, Brain& b);

}  // namespace castra::bot
