#include "tools/sim/from_state.hpp"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <fstream>
#include <iostream>

#include "common/wire/any_match.hpp"
#include "common/wire/free_play.hpp"
#include "tools/sim/sim_io.hpp"

namespace castra::sim {

namespace {

namespace pbu = google::protobuf::util;

bool parse_snapshot(const std::string& json, v1::Snapshot* out) {
  return pbu::JsonStringToMessage(json, out, pbu::JsonParseOptions{}).ok() &&
         out->state().game_case() != v1::GameState::GAME_NOT_SET;
}

// The snapshot in `text`: a Snapshot's JSON, or --state's {"state": Snapshot} line.
std::optional<v1::Snapshot> read_snapshot(const std::string& text) {
  v1::Snapshot snapshot;
  if (parse_snapshot(text, &snapshot)) return snapshot;
  google::protobuf::Struct line;
  if (!pbu::JsonStringToMessage(text, &line, pbu::JsonParseOptions{}).ok()) return std::nullopt;
  const auto inner = line.fields().find("state");
  if (inner == line.fields().end()) return std::nullopt;
  std::string json;
  (void)pbu::MessageToJsonString(inner->second, &json);
  if (parse_snapshot(json, &snapshot)) return snapshot;
  return std::nullopt;
}

std::string ruleset_of(const v1::GameState& s) {
  return s.game_case() == v1::GameState::kOptio ? "optio" : "stand";
}

}  // namespace

int run_from_state(const PositionOptions& o) {
  std::string text;
  if (!read_file(o.state, &text)) {
    std::cerr << "castra-sim: cannot read state " << o.state << "\n";
    return kExitUsage;
  }
  auto snapshot = read_snapshot(text);
  if (!snapshot) {
    std::cerr << "castra-sim: " << o.state
              << ": not a snapshot (castra.v1.Snapshot JSON, or the line --state prints)\n";
    return kExitUsage;
  }
  auto seed = parse_seed(o.seed_hex);
  if (!seed) return kExitUsage;
  auto faces = parse_dice(o.dice);
  if (!faces) {
    std::cerr << "castra-sim: --dice takes numbers separated by commas\n";
    return kExitUsage;
  }
  auto created = wire::free_play({snapshot->state(), *seed, std::move(*faces)});
  if (!created) {
    std::cerr << "castra-sim: state refused: " << created.error().message << "\n";
    return kExitUsage;
  }
  wire::FreePlay& position = **created;
  const int exit_code = walk_script(
      o.commands, ruleset_of(snapshot->state()),
      [&](std::uint32_t, const v1::ScriptLine& step) -> std::optional<rules::RuleError> {
        if (step.resign()) {
          return rules::RuleError{"sim.from_state",
                                  "a position from a saved state has no match to resign"};
        }
        auto events = position.submit(side_of(step), step.command());
        if (!events) return events.error();
        print_events(*events);
        return std::nullopt;
      });
  if (exit_code == kExitUsage) return exit_code;

  v1::Snapshot after;
  *after.mutable_state() = position.state();
  after.set_state_hash(match::to_hex(position.state_hash()));
  if (o.print_state) std::cout << "{\"state\":" << to_json_line(after) << "}\n";
  if (!o.save_state.empty()) std::ofstream(o.save_state) << pretty_json(after);
  std::cout << "{\"final_state_hash\":\"" << match::to_hex(position.state_hash()) << "\"";
  if (auto outcome = position.outcome()) {
    v1::Outcome p;
    wire::outcome_to_proto(*outcome, &p);
    std::cout << ",\"outcome\":" << to_json_line(p);
  }
  std::cout << "}\n";
  return exit_code;
}

}  // namespace castra::sim
