// One entry of a match's log (design section 2): the opening events, one accepted command
// with the events and rolls it produced, or the end. Plain values; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/match/crypto.hpp"
#include "common/match/fair_dice.hpp"
#include "common/rules/types.hpp"

namespace castra::match {

enum class EntryKind : std::uint8_t { kStart = 0, kCommand = 1, kEnd = 2 };

// Why a match ended outside the rules (kEnd entries).
enum class EndReason : std::uint8_t { kResigned = 0, kDrawAgreed = 1, kForfeit = 2, kAborted = 3 };

struct Seal {
  std::uint32_t event_index = 0;  // within its entry
  Bytes32 salt{};                 // secret until the end
  Bytes32 commitment{};           // public
  friend bool operator==(const Seal&, const Seal&) = default;
};

template <typename G>
struct Entry {
  EntryKind kind = EntryKind::kCommand;
  rules::Side side = rules::Side::kA;  // kCommand: who gave it; kEnd: who resigned or forfeited
  std::optional<typename G::Command> command;
  std::vector<typename G::Event> events;
  std::uint64_t first_event = 0;  // match-wide number of events[0]
  std::vector<Roll> rolls;
  std::vector<Seal> seals;
  std::optional<rules::Outcome> outcome;  // kEnd only
  EndReason end_reason = EndReason::kResigned;
};

}  // namespace castra::match
