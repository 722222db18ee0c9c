// Histogram: latencies in microseconds in log-linear buckets, HdrHistogram's layout (Debian
// packages no C or C++ HdrHistogram): each power of two is cut into 128 linear sub-buckets,
// so a percentile is within 1% of the value recorded, from 1 us to over an hour, in 40 KiB.
// Recording is O(1) with no allocation. One thread uses a Histogram at a time.
#pragma once

#include <array>
#include <cstdint>

namespace castra::load {

class Histogram {
 public:
  void record(std::int64_t micros);
  void merge(const Histogram& other);
  void reset();

  std::uint64_t count() const { return count_; }
  std::int64_t max() const { return max_; }
  // The smallest recorded value at or below which `fraction` (0..1) of the values lie (the
  // bucket's upper edge); 0 when empty.
  std::int64_t percentile(double fraction) const;

 private:
  static constexpr int kSubBits = 7;      // 128 sub-buckets per power of two
  static constexpr int kMagnitudes = 33;  // up to 2^39 us
  static constexpr int kBuckets = kMagnitudes << kSubBits;
  static int index_of(std::uint64_t v);
  static std::int64_t upper_edge(int index);

  std::array<std::uint64_t, kBuckets> counts_{};
  std::uint64_t count_ = 0;
  std::int64_t max_ = 0;
};

}  // namespace castra::load
