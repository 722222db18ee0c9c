// The normal build's main for a fuzz target: runs LLVMFuzzerTestOneInput on every file of
// each directory (or file) named on the command line, in sorted order, and says how many it
// ran. A broken invariant aborts inside the target; an empty corpus is a failure, so that a
// mistyped path cannot pass. Under CASTRA_FUZZ libFuzzer's own main replaces this one.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_support.hpp"

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path p(argv[i]);
    if (std::filesystem::is_directory(p)) {
      for (const auto& f : std::filesystem::directory_iterator(p)) {
        if (f.is_regular_file()) files.push_back(f.path());
      }
    } else {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    const std::string bytes = castra::fuzz::read_file(f.string());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("%zu inputs replayed\n", files.size());
  return files.empty() ? 1 : 0;
}
