#include "server/runtime/lobby_hook.hpp"

#include <future>

namespace castra::runtime {

namespace {

store::Status failed(const rules::RuleError& e) {
  return store::Status{1, e.message};
}

store::Status status_of(const Answer<Done>& a) {
  if (a.ok()) return store::Status{};
  return a.refusal() ? failed(*a.refusal()) : *a.storage_failure();
}

}  // namespace

store::Status LobbyHook::create(const store::MatchRow& row, const store::Secrets& secrets) {
  auto prepared = runtime_.prepare(row, secrets);
  if (!prepared) return failed(prepared.error());
  std::promise<store::Status> stored;
  runtime_.host(std::move(*prepared), [&stored](Answer<std::shared_ptr<MatchHost>> a) {
    stored.set_value(a.ok() ? store::Status{} : *a.storage_failure());
  });
  return stored.get_future().get();
}

void LobbyHook::seat(const store::MatchRow& row, int side, std::int64_t account,
                     const std::string& entropy, Done done) {
  auto host = runtime_.find(row.id);
  if (!host) return done(store::Status{1, "match " + row.id + " is not running here"}, row);
  host->seat(side == 0 ? Side::kA : Side::kB, account, entropy,
             [host, done](Answer<runtime::Done> a) { done(status_of(a), host->seen()->row); });
}

void LobbyHook::end(const store::MatchRow& row, const std::string& reason, Done done) {
  auto host = runtime_.find(row.id);
  if (!host) return done(store::Status{1, "match " + row.id + " is not running here"}, row);
  host->abort(reason,
              [host, done](Answer<runtime::Done> a) { done(status_of(a), host->seen()->row); });
}

}  // namespace castra::runtime
