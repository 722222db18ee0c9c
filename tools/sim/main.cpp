// castra-sim: runs a scenario and a command script offline, printing every event as a JSON
// line; verifies exported match and campaign records; checks campaign definitions. Formats:
// docs/formats.md sections 5 to 8.
#include <google/protobuf/util/json_util.h>
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "common/match/crypto.hpp"
#include "common/rules/canonical.hpp"
#include "common/wire/any_match.hpp"
#include "common/wire/campaign_play.hpp"
#include "proto/castra/v1/campaign.pb.h"
#include "proto/castra/v1/match.pb.h"
#include "tools/sim/from_state.hpp"
#include "tools/sim/sim_io.hpp"

namespace {

using castra::match::Bytes32;
using castra::rules::RuleError;
using namespace castra::sim;  // the shared pieces of both runs (sim_io.hpp)
namespace pbu = google::protobuf::util;

Bytes32 derive(const Bytes32& seed, std::string_view purpose, std::uint32_t n) {
  castra::rules::ByteWriter w;
  w.str(purpose);
  w.u32(n);
  return castra::match::hmac_sha256(seed, w.bytes());
}

struct RunOptions {
  std::string scenario;
  std::string commands;
  std::string seed_hex;
  std::string dice;
  std::string record;
  std::string version;
  bool print_state = false;
  std::string save_state;
};

void print_new_events(const castra::wire::AnyMatch& m, std::uint64_t* printed) {
  print_events(m.events_for(castra::rules::Viewer::kEveryone, *printed));
  *printed = m.event_count();
}

int run(const RunOptions& o) {
  std::string text;
  if (!read_file(o.scenario, &text)) {
    std::cerr << "castra-sim: cannot read scenario " << o.scenario << "\n";
    return kExitUsage;
  }
  castra::v1::ScenarioFile scenario;
  pbu::JsonParseOptions parse;
  if (auto st = pbu::JsonStringToMessage(text, &scenario, parse); !st.ok()) {
    std::cerr << "castra-sim: " << o.scenario << ": " << st.ToString() << "\n";
    return kExitUsage;
  }
  const auto seed_given = parse_seed(o.seed_hex);
  if (!seed_given) return kExitUsage;
  const Bytes32 seed = *seed_given;
  auto created = castra::wire::make_match({"sim", scenario, o.version, seed});
  if (!created) {
    std::cerr << "castra-sim: scenario refused: " << created.error().message << "\n";
    return kExitUsage;
  }
  castra::wire::AnyMatch& m = **created;
  if (!o.dice.empty()) {
    auto faces = parse_dice(o.dice);
    if (!faces) {
      std::cerr << "castra-sim: --dice takes numbers separated by commas\n";
      return kExitUsage;
    }
    m.force_rolls(std::move(*faces));
  }
  const auto entropy_a = derive(seed, "castra-sim/entropy/A", 0);
  const auto entropy_b = derive(seed, "castra-sim/entropy/B", 0);
  m.seat(castra::rules::Side::kA, std::string(castra::match::as_view(entropy_a)));
  m.seat(castra::rules::Side::kB, std::string(castra::match::as_view(entropy_b)));
  std::uint64_t printed = 0;
  print_new_events(m, &printed);
  const int exit_code = walk_script(
      o.commands, m.ruleset(),
      [&](std::uint32_t line, const castra::v1::ScriptLine& step) -> std::optional<RuleError> {
        const auto side = side_of(step);
        if (step.resign()) {
          const auto winner = castra::rules::other(side);
          const std::string why =
              std::string("side ") + castra::rules::side_letter(side) + " resigned";
          if (auto refused = m.end(castra::match::EndReason::kResigned, side,
                                   castra::rules::Outcome::win(winner, why))) {
            return refused;
          }
        } else if (auto done =
                       m.submit(side, step.command(), derive(seed, "castra-sim/salt", line));
                   !done) {
          return done.error();
        }
        print_new_events(m, &printed);
        return std::nullopt;
      });
  if (exit_code == kExitUsage) return exit_code;

  const auto final_state = m.snapshot(castra::rules::Viewer::kEveryone);
  if (o.print_state) std::cout << "{\"state\":" << to_json_line(final_state) << "}\n";
  if (!o.save_state.empty()) std::ofstream(o.save_state) << pretty_json(final_state);
  std::cout << "{\"final_state_hash\":\"" << castra::match::to_hex(m.full_state_hash()) << "\"";
  if (auto outcome = m.outcome()) {
    castra::v1::Outcome p;
    castra::wire::outcome_to_proto(*outcome, &p);
    std::cout << ",\"outcome\":" << to_json_line(p);
  }
  std::cout << "}\n";
  if (!o.record.empty()) {
    auto record = m.record();
    if (!record) {
      std::cerr << "castra-sim: no record written: the match has not ended\n";
      return exit_code == kExitOk ? kExitUsage : exit_code;
    }
    std::ofstream(o.record) << pretty_json(*record);
  }
  return exit_code;
}

int verify_campaign(const castra::v1::CampaignRecord& record) {
  if (auto failure = castra::wire::verify_campaign(record)) {
    std::cout << "FAILED: " << *failure << "\n";
    return kExitVerifyFailed;
  }
  std::cout << "verified: campaign " << record.campaign_id() << ", " << record.battles_size()
            << " battles: every battle's record, selection, scenario and carry-over, and the path"
            << (record.finished() ? " and the outcome" : "") << " match\n";
  return kExitOk;
}

// A match record or, by its format, a campaign record.
int verify(const std::string& path) {
  std::string text;
  if (!read_file(path, &text)) {
    std::cerr << "castra-sim: cannot read " << path << "\n";
    return kExitUsage;
  }
  castra::v1::CampaignRecord campaign;
  pbu::JsonParseOptions lenient;
  lenient.ignore_unknown_fields = true;
  if (pbu::JsonStringToMessage(text, &campaign, lenient).ok() &&
      campaign.format() == "castra-campaign-record/1") {
    if (auto st = pbu::JsonStringToMessage(text, &campaign, pbu::JsonParseOptions{}); !st.ok()) {
      std::cerr << "castra-sim: " << path << ": " << st.ToString() << "\n";
      return kExitUsage;
    }
    return verify_campaign(campaign);
  }
  castra::v1::MatchRecord record;
  if (auto st = pbu::JsonStringToMessage(text, &record, pbu::JsonParseOptions{}); !st.ok()) {
    std::cerr << "castra-sim: " << path << ": " << st.ToString() << "\n";
    return kExitUsage;
  }
  if (auto failure = castra::wire::verify_record(record)) {
    std::cout << "FAILED: " << *failure << "\n";
    return kExitVerifyFailed;
  }
  std::cout << "verified: " << record.entries_size() << " entries, every roll, commitment, event "
            << "and the final state hash " << record.final_state_hash() << " match\n";
  return kExitOk;
}

int check_campaign(const std::string& path) {
  std::string text;
  if (!read_file(path, &text)) {
    std::cerr << "castra-sim: cannot read " << path << "\n";
    return kExitUsage;
  }
  auto definition = castra::wire::parse_campaign(text);
  if (!definition) {
    std::cout << "REFUSED: " << definition.error().message << " (" << definition.error().rule
              << ")\n";
    return kExitRefused;
  }
  std::cout << "sound: campaign " << definition->name() << " (" << definition->ruleset() << "), "
            << definition->battles_size() << " battles\n";
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"castra-sim: play and verify Castra matches offline"};
  app.require_subcommand(1);
  RunOptions o;
  std::string from_state;
  auto* run_cmd = app.add_subcommand(
      "run", "Play a scenario and a command script; print the events as JSON lines");
  auto* scenario_opt =
      run_cmd->add_option("--scenario", o.scenario, "Scenario file (castra.v1.ScenarioFile JSON)");
  run_cmd
      ->add_option("--from-state", from_state,
                   "Start from a saved position instead (a Snapshot JSON file from --save-state, "
                   "or the line --state prints); no record")
      ->excludes(scenario_opt);
  run_cmd->add_option("--commands", o.commands, "Command script (castra.v1.ScriptLine JSON lines)")
      ->required();
  run_cmd->add_flag("--state", o.print_state, "Also print the final state as JSON");
  run_cmd->add_option("--save-state", o.save_state,
                      "Write the final state (Snapshot JSON) to a file, for --from-state");
  run_cmd->add_option("--seed", o.seed_hex,
                      "Server seed, 64 hex digits (fixes the players' entropy too)");
  run_cmd->add_option("--dice", o.dice, "Force the next rolls, e.g. 3,1,6 (clamped to each die)");
  run_cmd->add_option("--record", o.record,
                      "Write the match record (JSON) when the match has ended");
  run_cmd->add_option("--rules-version", o.version, "Rules version (default: the current one)");
  std::string record_path;
  auto* verify_cmd = app.add_subcommand(
      "verify", "Re-check every step of an exported match record or campaign record");
  verify_cmd
      ->add_option("record", record_path,
                   "Match record (castra.v1.MatchRecord JSON) or campaign record "
                   "(castra.v1.CampaignRecord JSON, format castra-campaign-record/1)")
      ->required();
  std::string campaign_path;
  auto* check_cmd = app.add_subcommand("check-campaign", "Check a campaign definition file");
  check_cmd->add_option("file", campaign_path, "Campaign definition (castra.v1.CampaignFile JSON)")
      ->required();
  CLI11_PARSE(app, argc, argv);
  if (run_cmd->parsed() && !from_state.empty()) {
    if (!o.record.empty() || !o.version.empty()) {
      std::cerr << "castra-sim: a position from --from-state has no record and keeps the rules "
                   "version its state names (no --record, no --rules-version)\n";
      return kExitUsage;
    }
    return run_from_state(
        {from_state, o.commands, o.seed_hex, o.dice, o.print_state, o.save_state});
  }
  if (run_cmd->parsed() && o.scenario.empty()) {
    std::cerr << "castra-sim: run needs --scenario or --from-state\n";
    return kExitUsage;
  }
  if (run_cmd->parsed()) return run(o);
  if (check_cmd->parsed()) return check_campaign(campaign_path);
  return verify(record_path);
}
