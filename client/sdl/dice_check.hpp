// The client's own check of fair dice: whether a revealed server seed hashes to the dice
// commitment shown before play, SHA-256("castra/dice-commitment/v1" || seed) in lower-case
// hex (docs/formats.md). The match's end screen and a campaign's verification use it. Any
// thread.
#pragma once

#include <optional>
#include <string>

namespace castra::client {

// nullopt while either is unknown (empty); false also for a seed that is not hex.
std::optional<bool> dice_seed_matches(const std::string& seed_hex,
                                      const std::string& commitment_hex);

// Lower-case hex of n bytes.
std::string to_hex(const unsigned char* bytes, std::size_t n);

}  // namespace castra::client
