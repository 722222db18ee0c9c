// castra-sim: runs a scenario and a command script offline, printing every event as a JSON
// line; verifies exported match and campaign records; checks campaign definitions. Formats:
// docs/formats.md sections 5 to 8.
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <sodium.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "common/match/crypto.hpp"
#include "common/rules/canonical.hpp"
#include "common/wire/any_match.hpp"
#include "common/wire/campaign_play.hpp"
#include "proto/castra/v1/campaign.pb.h"
#include "proto/castra/v1/match.pb.h"

namespace {

using castra::match::Bytes32;
namespace pbu = google::protobuf::util;

// Exit codes, documented in docs/formats.md 6.
constexpr int kExitOk = 0;
constexpr int kExitUsage = 1;
constexpr int kExitRefused = 3;
constexpr int kExitVerifyFailed = 4;

bool read_file(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

std::string to_json_line(const google::protobuf::Message& m) {
  pbu::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  // Enum zero values (SIDE_A, WIN_A) are facts too: always print them.
  options.always_print_primitive_fields = true;
  std::string out;
  (void)pbu::MessageToJsonString(m, &out, options);
  return out;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out.push_back(c);
  }
  return out + "\"";
}

Bytes32 derive(const Bytes32& seed, std::string_view purpose, std::uint32_t n) {
  castra::rules::ByteWriter w;
  w.str(purpose);
  w.u32(n);
  return castra::match::hmac_sha256(seed, w.bytes());
}

// One script line: a castra.v1.ScriptLine, or the same with the rule set's bare command
// ({"side": "SIDE_A", "command": {"deploy": {...}}}), which is wrapped under the match's
// rule set. An empty string on success, else why the line is malformed.
std::string parse_script_line(const std::string& line, const std::string& ruleset,
                              castra::v1::ScriptLine* out) {
  if (pbu::JsonStringToMessage(line, out, pbu::JsonParseOptions{}).ok()) return "";
  google::protobuf::Struct bare;
  if (auto st = pbu::JsonStringToMessage(line, &bare, pbu::JsonParseOptions{}); !st.ok()) {
    return st.ToString();
  }
  auto* fields = bare.mutable_fields();
  if (fields->count("command") == 0) return "a script line needs \"command\" or \"resign\"";
  google::protobuf::Value wrapped;
  (*wrapped.mutable_struct_value()->mutable_fields())[ruleset] = (*fields)["command"];
  (*fields)["command"] = wrapped;
  std::string json;
  (void)pbu::MessageToJsonString(bare, &json);
  out->Clear();
  if (auto st = pbu::JsonStringToMessage(json, out, pbu::JsonParseOptions{}); !st.ok()) {
    return st.ToString();
  }
  return "";
}

struct RunOptions {
  std::string scenario;
  std::string commands;
  std::string seed_hex;
  std::string dice;
  std::string record;
  std::string version;
  bool print_state = false;
};

void print_events(const castra::wire::AnyMatch& m, std::uint64_t* printed) {
  for (const auto& e : m.events_for(castra::rules::Viewer::kEveryone, *printed)) {
    std::cout << "{\"event\":" << to_json_line(e) << "}\n";
  }
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
  Bytes32 seed{};
  if (o.seed_hex.empty()) {
    if (sodium_init() < 0) return kExitUsage;
    randombytes_buf(seed.data(), seed.size());
  } else if (auto parsed = castra::match::bytes32_from_hex(o.seed_hex)) {
    seed = *parsed;
  } else {
    std::cerr << "castra-sim: --seed takes 64 hex digits\n";
    return kExitUsage;
  }
  auto created = castra::wire::make_match({"sim", scenario, o.version, seed});
  if (!created) {
    std::cerr << "castra-sim: scenario refused: " << created.error().message << "\n";
    return kExitUsage;
  }
  castra::wire::AnyMatch& m = **created;
  if (!o.dice.empty()) {
    std::vector<int> faces;
    std::stringstream ss(o.dice);
    std::string item;
    while (std::getline(ss, item, ',')) {
      try {
        faces.push_back(std::stoi(item));
      } catch (...) {
        std::cerr << "castra-sim: --dice takes numbers separated by commas\n";
        return kExitUsage;
      }
    }
    m.force_rolls(std::move(faces));
  }
  const auto entropy_a = derive(seed, "castra-sim/entropy/A", 0);
  const auto entropy_b = derive(seed, "castra-sim/entropy/B", 0);
  m.seat(castra::rules::Side::kA, std::string(castra::match::as_view(entropy_a)));
  m.seat(castra::rules::Side::kB, std::string(castra::match::as_view(entropy_b)));
  std::uint64_t printed = 0;
  print_events(m, &printed);

  std::string script;
  if (!read_file(o.commands, &script)) {
    std::cerr << "castra-sim: cannot read commands " << o.commands << "\n";
    return kExitUsage;
  }
  std::istringstream lines(script);
  std::string line;
  std::uint32_t number = 0;
  int exit_code = kExitOk;
  while (std::getline(lines, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    castra::v1::ScriptLine step;
    if (auto st = parse_script_line(line, m.ruleset(), &step); !st.empty()) {
      std::cerr << "castra-sim: " << o.commands << ":" << number << ": " << st << "\n";
      return kExitUsage;
    }
    const auto side =
        step.side() == castra::v1::SIDE_B ? castra::rules::Side::kB : castra::rules::Side::kA;
    std::optional<castra::rules::RuleError> refused;
    if (step.resign()) {
      refused = m.end(castra::match::EndReason::kResigned, side,
                      castra::rules::Outcome::win(
                          castra::rules::other(side),
                          std::string("side ") + castra::rules::side_letter(side) + " resigned"));
    } else {
      auto done = m.submit(side, step.command(), derive(seed, "castra-sim/salt", number));
      if (!done) refused = done.error();
    }
    if (refused) {
      std::cout << "{\"refused\":{\"line\":" << number << ",\"side\":\""
                << castra::rules::side_letter(side) << "\",\"rule\":" << json_string(refused->rule)
                << ",\"message\":" << json_string(refused->message) << "}}\n";
      exit_code = kExitRefused;
      break;
    }
    print_events(m, &printed);
  }

  if (o.print_state) {
    std::cout << "{\"state\":" << to_json_line(m.snapshot(castra::rules::Viewer::kEveryone))
              << "}\n";
  }
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
    pbu::JsonPrintOptions pretty;
    pretty.add_whitespace = true;
    pretty.preserve_proto_field_names = true;
    pretty.always_print_primitive_fields = true;
    std::string json;
    (void)pbu::MessageToJsonString(*record, &json, pretty);
    std::ofstream(o.record) << json;
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
  auto* run_cmd = app.add_subcommand(
      "run", "Play a scenario and a command script; print the events as JSON lines");
  run_cmd->add_option("--scenario", o.scenario, "Scenario file (castra.v1.ScenarioFile JSON)")
      ->required();
  run_cmd->add_option("--commands", o.commands, "Command script (castra.v1.ScriptLine JSON lines)")
      ->required();
  run_cmd->add_flag("--state", o.print_state, "Also print the final state as JSON");
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
  if (run_cmd->parsed()) return run(o);
  if (check_cmd->parsed()) return check_campaign(campaign_path);
  return verify(record_path);
}
