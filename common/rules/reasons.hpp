// Why a piece cannot act: what both rule sets' reasons() answer for one of the requester's
// own pieces (an Optio unit or leader, a STAND! hex). Computed from the same checks decide()
// and legal() use, so a piece has refusals for a kind of action exactly when legal() offers
// it nothing of that kind. Pure values; any thread.
#pragma once

#include <string>
#include <vector>

#include "common/rules/types.hpp"

namespace castra::rules {

// One kind of action the piece has no legal instance of now ("advance", "shoot", "attack")
// and the rule that stops it.
struct Refusal {
  std::string action;
  RuleError why;
  friend bool operator==(const Refusal&, const Refusal&) = default;
};

struct Reasons {
  bool can_act = false;           // legal() offers the piece at least one command
  std::vector<Refusal> refusals;  // one per kind of action it may not take; never empty
                                  // when it cannot act
  friend bool operator==(const Reasons&, const Reasons&) = default;
};

// The refusal for a kind whose every candidate was refused: the one refusal all of them, or
// all of `detail` (the refusals of a representative subset), share; else their one rule if
// they share it (or `rule`) with `summary` and at most four distinct messages of `detail`.
RuleError summarise(const std::vector<RuleError>& all, const std::vector<RuleError>& detail,
                    const std::string& rule, const std::string& summary);

}  // namespace castra::rules
