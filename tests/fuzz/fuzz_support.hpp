// What the fuzz targets of tests/fuzz share: reading the repository's files, walking a
// fuzzer's input byte by byte, and stopping at a broken invariant. A target's
// LLVMFuzzerTestOneInput runs under libFuzzer (CASTRA_FUZZ) or under replay_main.cpp, which
// feeds it every file of its corpus (ctest's FuzzCorpus.*). One thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace castra::fuzz {

// The whole file, or empty when it cannot be read.
std::string read_file(const std::string& path);
// Every *.json file of `dir` (not its subfolders), sorted, so that an input picks the same
// file on every machine.
std::vector<std::string> json_files(const std::string& dir);

// Turns the server's log (spdlog) and protobuf's off: a refused input is a warning there, and
// protobuf writes a line to stderr for each string field that is not UTF-8, which under
// libFuzzer was most of an input's time. Call before the first input.
void quiet_logs();

// Writes what broke to stderr and aborts: libFuzzer keeps the input as a crash, a corpus
// replay fails its test.
[[noreturn]] void broken(std::string_view what);

// Takes bytes off the front of a fuzzer's input; past its end every byte reads as 0.
class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool empty() const { return at_ >= size_; }
  std::size_t left() const { return empty() ? 0 : size_ - at_; }
  std::uint8_t byte() { return empty() ? 0 : data_[at_++]; }
  std::uint16_t u16() { return static_cast<std::uint16_t>(byte() | (byte() << 8)); }
  // Up to n bytes (fewer at the end).
  std::string_view bytes(std::size_t n) {
    const std::size_t k = n < left() ? n : left();
    std::string_view out(reinterpret_cast<const char*>(data_ + at_), k);
    at_ += k;
    return out;
  }
  std::string_view rest() { return bytes(left()); }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

}  // namespace castra::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
// Optional, as in libFuzzer: a target's set-up before its first input.
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);
