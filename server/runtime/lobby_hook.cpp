#include "server/runtime/lobby_hook.hpp"

namespace castra::runtime {

namespace {
store::Status failed(const rules::RuleError& e) {
  return store::Status{1, e.message};
}
}  // namespace

store::Status LobbyHook::create(const store::MatchRow& row, const store::Secrets& secrets) {
  auto host = runtime_.create(row, secrets);
  return host ? store::Status{} : failed(host.error());
}

void LobbyHook::seat(const store::MatchRow& row, int side, std::int64_t account,
                     const std::string& entropy, Done done) {
  auto host = runtime_.find(row.id);
  if (!host) return done(store::Status{1, "match " + row.id + " is not running here"}, row);
  host->seat(side == 0 ? Side::kA : Side::kB, account, entropy,
             [host, done](std::optional<rules::RuleError> err) {
               done(err ? failed(*err) : store::Status{}, host->row());
             });
}

void LobbyHook::end(const store::MatchRow& row, const std::string& reason, Done done) {
  auto host = runtime_.find(row.id);
  if (!host) return done(store::Status{1, "match " + row.id + " is not running here"}, row);
  host->abort(reason, [host, done](std::optional<rules::RuleError> err) {
    done(err ? failed(*err) : store::Status{}, host->row());
  });
}

}  // namespace castra::runtime
