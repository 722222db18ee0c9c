// FixedDice: dice that return given faces in order, for tests, castra-sim's --dice and
// rules designers. Running out is a bug in the test, so it asserts.
#pragma once

#include <cassert>
#include <cstddef>
#include <utility>
#include <vector>

#include "common/rules/types.hpp"

namespace castra::rules {

class FixedDice final : public Dice {
 public:
  explicit FixedDice(std::vector<int> faces) : faces_(std::move(faces)) {}
  int roll(Die die) override {
    assert(next_ < faces_.size() && "FixedDice ran out of faces");
    const int face = faces_[next_++];
    assert(face >= 1 && face <= static_cast<int>(die));
    (void)die;
    return face;
  }
  std::size_t used() const { return next_; }
  bool exhausted() const { return next_ >= faces_.size(); }

 private:
  std::vector<int> faces_;
  std::size_t next_ = 0;
};

}  // namespace castra::rules
