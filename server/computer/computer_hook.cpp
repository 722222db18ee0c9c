#include "server/computer/computer_hook.hpp"

namespace castra::computer {

store::Status ComputerHook::create(const store::MatchRow& row, const store::Secrets& secrets) {
  store::Status st = inner_.create(row, secrets);
  if (!st.ok()) return st;
  if (auto host = runtime_.find(row.id)) computers_.play(host);
  return st;
}

}  // namespace castra::computer
