// rules::summarise: one refusal standing for many candidates' refusals.
#include "common/rules/reasons.hpp"

#include <algorithm>

namespace castra::rules {

RuleError summarise(const std::vector<RuleError>& all, const std::vector<RuleError>& detail,
                    const std::string& rule, const std::string& summary) {
  const auto same = [](const std::vector<RuleError>& v) {
    return !v.empty() &&
           std::all_of(v.begin(), v.end(), [&](const RuleError& e) { return e == v.front(); });
  };
  if (same(all)) return all.front();
  if (same(detail)) return detail.front();
  constexpr std::size_t kShown = 4;
  std::vector<std::string> words;
  for (const RuleError& e : detail) {
    if (std::find(words.begin(), words.end(), e.message) == words.end()) {
      words.push_back(e.message);
    }
  }
  const bool one_rule =
      !all.empty() && std::all_of(all.begin(), all.end(),
                                  [&](const RuleError& e) { return e.rule == all.front().rule; });
  std::string message = summary;
  for (std::size_t i = 0; i < words.size() && i < kShown; ++i) {
    message += (i == 0 ? ": " : "; ") + words[i];
  }
  if (words.size() > kShown) message += "; and " + std::to_string(words.size() - kShown) + " more";
  return refuse(one_rule ? all.front().rule : rule, message);
}

}  // namespace castra::rules
