// Rows for the store tests: a match, its first secrets and a log entry, each with the fields a
// store must keep byte for byte (a blob with zero bytes, a 32-byte commitment).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "server/store/match_store.hpp"

namespace castra::testing {

inline store::MatchRow a_match(const std::string& id, std::int64_t updated_ms = 1000) {
  store::MatchRow row;
  row.id = id;
  row.ruleset = "optio";
  row.rules_version = "optio-1";
  row.scenario_name = "optio/training";
  row.scenario = std::string("\x0a\x03sc\0n", 6);  // blobs keep their zero bytes
  row.settings = "settings";
  row.status = store::MatchStatus::kOpen;
  row.dice_commitment = std::string(32, '\x7f');
  row.creator = 7;
  row.created_ms = 1000;
  row.updated_ms = updated_ms;
  return row;
}

inline store::Secrets a_seed() {
  return store::Secrets{std::string(32, '\x01'), std::nullopt, std::nullopt};
}

inline store::LogRow an_entry(std::uint32_t index, std::uint64_t first_event,
                              std::uint32_t events) {
  store::LogRow row;
  row.entry_index = index;
  row.kind = 1;
  row.side = static_cast<int>(index % 2);
  row.first_event = first_event;
  row.event_count = events;
  row.entry = "entry " + std::to_string(index);
  return row;
}

}  // namespace castra::testing
