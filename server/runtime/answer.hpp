// Answer<T>: what the match runtime answers one request: its value, the rule that refused it
// (rules::RuleError: the player's mistake, or a match-level refusal such as "match.over"), or
// the store's failure to make it durable (store::Status). Each kind keeps its own type up to
// the dispatcher, the one place that turns them into protocol errors: a refusal is never
// reported as a storage failure, nor the reverse. A value type; any thread.
#pragma once

#include <cassert>
#include <utility>
#include <variant>

#include "common/rules/types.hpp"
#include "server/store/sqlite.hpp"

namespace castra::runtime {

struct Done {};

template <class T>
class Answer {
 public:
  Answer(T value) : v_(std::move(value)) {}                     // NOLINT: implicit on purpose
  Answer(rules::RuleError refusal) : v_(std::move(refusal)) {}  // NOLINT
  Answer(store::Status failure) : v_(std::move(failure)) {      // NOLINT
    assert(!std::get<2>(v_).ok());
  }

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const { return std::get<0>(v_); }
  T& value() { return std::get<0>(v_); }
  const T* operator->() const { return &value(); }
  // Refused by a rule: the match is as it was.
  const rules::RuleError* refusal() const { return std::get_if<1>(&v_); }
  // Not made durable: the match is closed (its memory would run ahead of its store).
  const store::Status* storage_failure() const { return std::get_if<2>(&v_); }

 private:
  std::variant<T, rules::RuleError, store::Status> v_;
};

}  // namespace castra::runtime
