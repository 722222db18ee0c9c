// Rng: the brain's small seeded generator (SplitMix64), and SampledDice, the dice the
// greedy brain hands the pure engine when it tries a command on its own copy of a
// position. Deterministic from the seed: the same seed plays the same game. One thread.
#pragma once

#include <cstdint>
#include <vector>

#include "common/rules/types.hpp"

namespace castra::bot {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in 0..n-1 (n > 0); the modulo bias is far below anything a game could show.
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

 private:
  std::uint64_t state_;
};

// Faces drawn from an Rng, for the brain's own trials; never the match's fair dice.
class SampledDice final : public rules::Dice {
 public:
  explicit SampledDice(Rng& rng) : rng_(rng) {}
  int roll(rules::Die die) override {
    return 1 + static_cast<int>(rng_.below(static_cast<std::size_t>(die)));
  }

 private:
  Rng& rng_;
};

// One pick from a non-empty list.
template <typename T>
const T& choose(Rng& rng, const std::vector<T>& v) {
  return v[rng.below(v.size())];
}

}  // namespace castra::bot
