// The games the checkpoint, adoption and verification tests look at, each played once to its
// end through AnyMatch and kept with its log as the store holds it: the two scripted training
// games (Optio's and Ancient STAND!'s, their dice forced so the fights go as written) and one
// game of each rule set between two computer players on fair dice (Optio's training battle
// and STAND!'s Qadesh, long enough to cross several checkpoints), which verify from the seed
// and put sealed orders cards in Optio's log. Read-only once played; one test thread.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "common/wire/any_match.hpp"
#include "proto/castra/v1/match.pb.h"

namespace castra::wire::testing {

enum class Which { kOptioScript, kStandScript, kOptioFair, kStandFair };

struct PlayedGame {
  std::string name;  // "OptioScript" ...: the parameterised tests' label
  v1::ScenarioFile scenario;
  std::vector<int> dice;                     // forced faces in order; empty on fair dice
  std::unique_ptr<AnyMatch> match;           // the game as played, to its end
  std::vector<v1::LogEntry> log;             // its entries as stored (no salts)
  std::vector<std::vector<SealSalt>> salts;  // their salts, stored apart
};

const PlayedGame& played(Which which);

// A new match of the game, its dice forced as when it was played, nobody seated.
std::unique_ptr<AnyMatch> fresh(const PlayedGame& g);
// Both seats taken as when it was played (the opening entry is made).
void seat(AnyMatch& m);

// What the server's rebuild does today: a fresh match, seated if the log opens, and the
// first `entries` stored entries replayed (re-decided). Fails the test on a refusal.
std::unique_ptr<AnyMatch> replayed(const PlayedGame& g, std::size_t entries);

// Recovery from a stored snapshot: the first `adopted` entries adopted as facts, then the
// entries up to `entries` replayed. The forced dice the adopted entries used are skipped, as
// the stored dice stream moves past their rolls. Fails the test on a refusal.
std::unique_ptr<AnyMatch> adopted_then_replayed(const PlayedGame& g, std::size_t adopted,
                                                std::size_t entries);

// A salt for command number i (any fixed bytes do).
match::Bytes32 salt_of(std::size_t i);

}  // namespace castra::wire::testing
