// Fuzz target (d): what the server and castra-sim load from files people write or tools
// export, through their own loaders. The first byte picks the loader; the rest is the file:
//   0 a scenario file (JSON), through the lobby's loader (lobby::Scenarios::load, as the
//     server reads scenarios/ at start-up), then a match made of each one it keeps, from its
//     stored bytes, as the runtime does, both seats taken;
//   1 a campaign file (JSON), through campaign_server::Definitions::load;
//   2 a record (JSON) as `castra-sim verify` reads one: a campaign record by its format,
//     else a match record, replayed from scratch;
//   3 a scenario as stored (binary castra.v1.ScenarioFile), through make_match;
//   4 a match record in binary, through verify_record.
// A scenario that loads must give a state whose check() holds and a legal list for both sides.
#include <google/protobuf/util/json_util.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/wire/any_match.hpp"
#include "common/wire/campaign_play.hpp"
#include "server/campaign/definitions.hpp"
#include "server/lobby/scenarios.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace castra::fuzz {
namespace {

namespace fs = std::filesystem;
namespace pbu = google::protobuf::util;

// One folder for the whole run, rewritten by each input: the loaders read folders.
const fs::path& folder() {
  static const fs::path dir = [] {
    quiet_logs();
    const fs::path d =
        fs::temp_directory_path() / ("castra-fuzz-loaders-" + std::to_string(::getpid()));
    fs::remove_all(d);
    for (const char* sub : {"optio", "stand", "campaigns"})
      fs::create_directories(d / sub);
    return d;
  }();
  return dir;
}

// A new file each time: truncating the old one in place makes ext4 write its blocks out at
// close (auto_da_alloc), a wait on the disk per input.
void write(const fs::path& path, std::string_view bytes) {
  fs::remove(path);
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void play(const v1::ScenarioFile& scenario) {
  match::Bytes32 seed{};
  auto made = wire::make_match({"fuzz", scenario, "", seed});
  if (!made) return;
  wire::AnyMatch& m = **made;
  if (auto bad = m.check())
    broken("a scenario that loads makes a state that fails check(): " + *bad);
  m.seat(rules::Side::kA, "entropy-a");
  m.seat(rules::Side::kB, "entropy-b");
  if (auto bad = m.check()) broken("a scenario's opening fails check(): " + *bad);
  m.legal(rules::Side::kA);
  m.legal(rules::Side::kB);
  m.snapshot(rules::Viewer::kSpectator);
}

void scenario_file(std::string_view json) {
  write(folder() / "optio" / "fuzz.json", json);
  write(folder() / "stand" / "fuzz.json", json);
  const auto loaded = lobby::Scenarios::load(folder().string());
  for (const std::string game : {"optio", "stand"}) {
    for (const lobby::ScenarioEntry* entry : loaded.list(game)) {
      v1::ScenarioFile scenario;
      if (!scenario.ParseFromString(entry->bytes)) broken("a loaded scenario's bytes do not parse");
      play(scenario);
    }
  }
}

void campaign_file(std::string_view json) {
  write(folder() / "campaigns" / "fuzz.json", json);
  campaign_server::Definitions::load(folder().string());
}

// As castra-sim's verify (tools/sim/main.cpp).
void record_file(std::string_view json) {
  const std::string text(json);
  v1::CampaignRecord campaign;
  pbu::JsonParseOptions lenient;
  lenient.ignore_unknown_fields = true;
  if (pbu::JsonStringToMessage(text, &campaign, lenient).ok() &&
      campaign.format() == "castra-campaign-record/1") {
    if (pbu::JsonStringToMessage(text, &campaign, pbu::JsonParseOptions{}).ok()) {
      wire::verify_campaign(campaign);
    }
    return;
  }
  v1::MatchRecord record;
  if (pbu::JsonStringToMessage(text, &record, pbu::JsonParseOptions{}).ok()) {
    wire::verify_record(record);
  }
}

}  // namespace
}  // namespace castra::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace castra::fuzz;
  Input in(data, size);
  const std::uint8_t kind = in.byte() % 5;
  const std::string_view file = in.rest();
  switch (kind) {
    case 0:
      scenario_file(file);
      break;
    case 1:
      campaign_file(file);
      break;
    case 2:
      record_file(file);
      break;
    case 3: {
      castra::v1::ScenarioFile scenario;
      if (scenario.ParseFromArray(file.data(), static_cast<int>(file.size()))) play(scenario);
      break;
    }
    default: {
      castra::v1::MatchRecord record;
      if (record.ParseFromArray(file.data(), static_cast<int>(file.size()))) {
        castra::wire::verify_record(record);
      }
      break;
    }
  }
  return 0;
}
