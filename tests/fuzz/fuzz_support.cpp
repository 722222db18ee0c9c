#include "tests/fuzz/fuzz_support.hpp"

#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace castra::fuzz {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> json_files(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& f : std::filesystem::directory_iterator(dir, ec)) {
    if (f.path().extension() == ".json") out.push_back(f.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void quiet_logs() {
  spdlog::set_level(spdlog::level::off);
  google::protobuf::SetLogHandler(nullptr);
}

void broken(std::string_view what) {
  std::fprintf(stderr, "castra fuzz: %.*s\n", static_cast<int>(what.size()), what.data());
  std::abort();
}

}  // namespace castra::fuzz

// AddressSanitizer's defaults for every fuzz target (ASAN_OPTIONS still overrides them): a
// quarantine of 64 MB, not 256. A freed block is still kept from reuse for the next 64 MB of
// frees, some 300 `engines` inputs' worth, so a use after free within an input is still
// caught; the larger pool kept faulting in fresh pages, and the replay of the engines corpus
// took a quarter longer and twice the memory (docs/reliability.md, "Over 1,000 a second with
// room"). Read by the sanitizer runtime at start-up; without it, nothing calls this.
extern "C" const char* __asan_default_options() {
  return "quarantine_size_mb=64";
}
