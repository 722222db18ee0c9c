#include "tools/load/histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace castra::load {

// Values below 2^kSubBits map one to one; above, the top kSubBits bits after the leading one
// pick the sub-bucket within the value's power of two.
int Histogram::index_of(std::uint64_t v) {
  if (v < (1u << kSubBits)) return static_cast<int>(v);
  const int magnitude = std::bit_width(v) - kSubBits;                        // >= 1
  const int sub = static_cast<int>(v >> (magnitude - 1)) - (1 << kSubBits);  // 0..127
  const int index = ((magnitude) << kSubBits) + sub;
  return std::min(index, kBuckets - 1);
}

std::int64_t Histogram::upper_edge(int index) {
  const int magnitude = index >> kSubBits;
  const std::int64_t sub = index & ((1 << kSubBits) - 1);
  if (magnitude == 0) return sub;
  const std::int64_t low = ((1ll << kSubBits) + sub) << (magnitude - 1);
  return low + (1ll << (magnitude - 1)) - 1;
}

void Histogram::record(std::int64_t micros) {
  const std::uint64_t v = micros < 0 ? 0 : static_cast<std::uint64_t>(micros);
  ++counts_[static_cast<std::size_t>(index_of(v))];
  ++count_;
  max_ = std::max(max_, static_cast<std::int64_t>(v));
}

void Histogram::merge(const Histogram& other) {
  for (std::size_t i = 0; i < counts_.size(); ++i)
    counts_[i] += other.counts_[i];
  count_ += other.count_;
  max_ = std::max(max_, other.max_);
}

void Histogram::reset() {
  counts_.fill(0);
  count_ = 0;
  max_ = 0;
}

std::int64_t Histogram::percentile(double fraction) const {
  if (count_ == 0) return 0;
  const auto rank = static_cast<std::uint64_t>(
      std::max(1.0, std::ceil(std::clamp(fraction, 0.0, 1.0) * static_cast<double>(count_))));
  std::uint64_t seen = 0;
  for (int i = 0; i < kBuckets; ++i) {
    seen += counts_[static_cast<std::size_t>(i)];
    if (seen >= rank) return std::min(upper_edge(i), max_);
  }
  return max_;
}

}  // namespace castra::load
