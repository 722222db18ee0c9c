// castra-sim run --from-state: a command script played from a saved position (what --state
// or --save-state wrote) rather than from a scenario's start, through wire::FreePlay.
#pragma once

#include <string>

namespace castra::sim {

struct PositionOptions {
  std::string state;  // a castra.v1.Snapshot JSON file, or the {"state": ...} line of --state
  std::string commands;
  std::string seed_hex;
  std::string dice;
  bool print_state = false;
  std::string save_state;
};

int run_from_state(const PositionOptions& o);

}  // namespace castra::sim
