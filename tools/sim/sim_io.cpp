#include "tools/sim/sim_io.hpp"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <sodium.h>

#include <fstream>
#include <iostream>
#include <sstream>

namespace castra::sim {

namespace {

namespace pbu = google::protobuf::util;

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out.push_back(c);
  }
  return out + "\"";
}

// One script line: a castra.v1.ScriptLine, or the same with the rule set's bare command
// ({"side": "SIDE_A", "command": {"deploy": {...}}}), which is wrapped under the match's
// rule set. An empty string on success, else why the line is malformed.
std::string parse_script_line(const std::string& line, const std::string& ruleset,
                              v1::ScriptLine* out) {
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

}  // namespace

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

std::string pretty_json(const google::protobuf::Message& m) {
  pbu::JsonPrintOptions pretty;
  pretty.add_whitespace = true;
  pretty.preserve_proto_field_names = true;
  pretty.always_print_primitive_fields = true;
  std::string json;
  (void)pbu::MessageToJsonString(m, &json, pretty);
  return json;
}

std::optional<std::vector<int>> parse_dice(const std::string& list) {
  std::vector<int> faces;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    try {
      faces.push_back(std::stoi(item));
    } catch (...) {
      return std::nullopt;
    }
  }
  return faces;
}

std::optional<match::Bytes32> parse_seed(const std::string& hex) {
  match::Bytes32 seed{};
  if (hex.empty()) {
    if (sodium_init() < 0) return std::nullopt;
    randombytes_buf(seed.data(), seed.size());
    return seed;
  }
  if (auto parsed = match::bytes32_from_hex(hex)) return *parsed;
  std::cerr << "castra-sim: --seed takes 64 hex digits\n";
  return std::nullopt;
}

void print_events(const std::vector<v1::ViewEvent>& events) {
  for (const auto& e : events)
    std::cout << "{\"event\":" << to_json_line(e) << "}\n";
}

int walk_script(const std::string& path, const std::string& ruleset, const ScriptStep& step) {
  std::string script;
  if (!read_file(path, &script)) {
    std::cerr << "castra-sim: cannot read commands " << path << "\n";
    return kExitUsage;
  }
  std::istringstream lines(script);
  std::string line;
  std::uint32_t number = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    v1::ScriptLine parsed;
    if (auto st = parse_script_line(line, ruleset, &parsed); !st.empty()) {
      std::cerr << "castra-sim: " << path << ":" << number << ": " << st << "\n";
      return kExitUsage;
    }
    if (auto refused = step(number, parsed)) {
      std::cout << "{\"refused\":{\"line\":" << number << ",\"side\":\""
                << rules::side_letter(side_of(parsed))
                << "\",\"rule\":" << json_string(refused->rule)
                << ",\"message\":" << json_string(refused->message) << "}}\n";
      return kExitRefused;
    }
  }
  return kExitOk;
}

}  // namespace castra::sim
