// Allocation counts for castra-bench-server: allocations.cpp replaces the global operator new
// and delete of the benchmark program with counting ones, and AllocationMeter turns the counts
// into per-iteration benchmark counters. Counts every thread's C++ allocations (the store's
// writer thread does part of a command's work); SQLite's own malloc calls are not counted.
// An AllocationMeter belongs to the benchmark's thread.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>

namespace castra::bench {

// Every operator new of the process so far: how many, and how many bytes asked for.
std::uint64_t allocations_so_far();
std::uint64_t allocated_bytes_so_far();

// Counts from its construction; pause() and resume() leave out what a benchmark does between
// its PauseTiming and ResumeTiming. report() sets "allocs" and "alloc_bytes" per operation
// (an iteration does `ops_per_iteration` of them).
class AllocationMeter {
 public:
  AllocationMeter();
  void pause();
  void resume();
  void report(benchmark::State& state, double ops_per_iteration = 1) const;

 private:
  std::uint64_t count_ = 0;  // at construction
  std::uint64_t bytes_ = 0;
  std::uint64_t left_out_count_ = 0;
  std::uint64_t left_out_bytes_ = 0;
  std::uint64_t paused_count_ = 0;
  std::uint64_t paused_bytes_ = 0;
};

}  // namespace castra::bench
