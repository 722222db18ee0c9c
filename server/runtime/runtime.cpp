#include "server/runtime/runtime.hpp"

#include <spdlog/spdlog.h>

#include "server/store/recovery.hpp"

namespace castra::runtime {

Runtime::Runtime(store::MatchStore& store, const Clock& clock, HostOptions options)
    : store_(store), clock_(clock), options_(with_listener(std::move(options), listener_)) {}

HostOptions Runtime::with_listener(HostOptions options, std::shared_ptr<ListenerSlot> slot) {
  options.notify = [slot, given = std::move(options.notify)](const HostNotice& n) {
    if (given) given(n);
    std::function<void(const HostNotice&)> listener;
    {
      std::lock_guard lock(slot->mu);
      listener = slot->listener;
    }
    if (listener) listener(n);
  };
  return options;
}

void Runtime::set_listener(std::function<void(const HostNotice&)> listener) {
  std::lock_guard lock(listener_->mu);
  listener_->listener = std::move(listener);
}

rules::Checked<std::shared_ptr<MatchHost>> Runtime::create(const CreateRequest& request) {
  store::MatchRow row;
  row.id = request.match_id;
  row.scenario_name = request.scenario_name;
  row.scenario = request.scenario.SerializeAsString();
  row.settings = request.settings.SerializeAsString();
  row.creator = request.creator;
  store::Secrets secrets;
  secrets.server_seed = std::string(match::as_view(request.server_seed));
  return create(row, secrets);
}

rules::Checked<std::shared_ptr<MatchHost>> Runtime::create(const store::MatchRow& given,
                                                           const store::Secrets& secrets) {
  v1::ScenarioFile scenario;
  v1::MatchSettings settings;
  if (!scenario.ParseFromString(given.scenario) || !settings.ParseFromString(given.settings) ||
      secrets.server_seed.size() != 32) {
    return rules::refuse("server.match", "the match's scenario, settings or seed are malformed");
  }
  match::Bytes32 seed{};
  std::copy(secrets.server_seed.begin(), secrets.server_seed.end(), seed.begin());
  auto made = wire::make_match({given.id, scenario, given.rules_version, seed});
  if (!made) return made.error();
  std::unique_ptr<wire::AnyMatch> m = std::move(*made);

  store::MatchRow row = given;
  row.ruleset = m->ruleset();
  row.rules_version = m->rules_version();
  row.status = store::MatchStatus::kOpen;
  row.dice_commitment = std::string(match::as_view(m->dice_commitment()));
  if (row.created_ms == 0) row.created_ms = clock_.now_ms();
  row.updated_ms = clock_.now_ms();
  if (store::Status st = store_.create_match(row, secrets); !st.ok()) {
    return rules::refuse("server.storage", "the match could not be stored: " + st.message);
  }
  auto host =
      std::make_shared<MatchHost>(std::move(m), std::move(row), settings, store_, clock_, options_);
  std::lock_guard lock(mu_);
  hosts_[given.id] = host;
  return host;
}

std::shared_ptr<MatchHost> Runtime::find(const std::string& id) {
  std::lock_guard lock(mu_);
  auto it = hosts_.find(id);
  return it == hosts_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<MatchHost>> Runtime::matches() {
  std::lock_guard lock(mu_);
  std::vector<std::shared_ptr<MatchHost>> out;
  for (auto& [id, host] : hosts_)
    out.push_back(host);
  return out;
}

std::shared_ptr<MatchHost> Runtime::build(const store::MatchRow& row,
                                          const std::optional<store::Snapshot>& snapshot,
                                          const std::vector<store::LogRow>& log) {
  std::optional<store::Secrets> secrets;
  v1::ScenarioFile scenario;
  v1::MatchSettings settings;
  if (!store_.secrets(row.id, &secrets).ok() || !secrets || secrets->server_seed.size() != 32 ||
      !scenario.ParseFromString(row.scenario) || !settings.ParseFromString(row.settings)) {
    spdlog::error(
        "event=match_not_loaded match={} reason=\"unreadable scenario, settings or "
        "secrets\"",
        row.id);
    return nullptr;
  }
  match::Bytes32 seed{};
  std::copy(secrets->server_seed.begin(), secrets->server_seed.end(), seed.begin());
  auto made = wire::make_match({row.id, scenario, row.rules_version, seed});
  if (!made) {
    spdlog::error("event=match_not_loaded match={} reason=\"scenario refused: {}\"", row.id,
                  made.error().message);
    return nullptr;
  }
  auto host =
      std::make_shared<MatchHost>(std::move(*made), row, settings, store_, clock_, options_);
  if (auto err = host->restore(*secrets, log, snapshot)) {
    spdlog::error("event=match_not_loaded match={} reason=\"log does not replay: {}\"", row.id,
                  *err);
    return nullptr;
  }
  return host;
}

std::shared_ptr<MatchHost> Runtime::load(const std::string& id) {
  if (auto host = find(id)) return host;
  std::optional<store::MatchRow> row;
  std::optional<store::Snapshot> snapshot;
  std::vector<store::LogRow> log;
  if (!store_.find_match(id, &row).ok() || !row || !store_.latest_snapshot(id, &snapshot).ok() ||
      !store_.log_from(id, 0, &log).ok()) {
    return nullptr;
  }
  auto host = build(*row, snapshot, log);
  if (!host) return nullptr;
  std::lock_guard lock(mu_);
  return hosts_.emplace(id, host).first->second;
}

rules::Checked<std::optional<v1::CommandResult>> Runtime::first_answer(const std::string& id,
                                                                       rules::Side side,
                                                                       std::int64_t client_seq) {
  std::optional<std::string> stored;
  if (store::Status st = store_.find_reply(id, rules::index(side), client_seq, &stored); !st.ok())
    return rules::refuse("server.storage",
                         "the server could not check this command; send it again");
  std::optional<v1::CommandResult> result;
  if (stored) {
    v1::CommandResult r;
    if (!r.ParseFromString(*stored))
      return rules::refuse("server.storage", "the stored answer to this command is unreadable");
    result = std::move(r);
  }
  return result;
}

std::size_t Runtime::recover() {
  std::map<std::string, std::shared_ptr<MatchHost>> loaded;
  auto replay = [&](const store::MatchRow& row, const std::optional<store::Snapshot>& snapshot,
                    const std::vector<store::LogRow>& log) {
    auto host = build(row, snapshot, log);
    if (!host) return false;
    loaded[row.id] = std::move(host);
    return true;
  };
  store::Recovery recovery;
  if (store::Status st = store::recover_matches(store_, replay, clock_.now_ms(), &recovery);
      !st.ok()) {
    spdlog::error("event=recovery_failed error=\"{}\"", st.message);
  }
  std::lock_guard lock(mu_);
  for (const auto& row : recovery.loadable) {
    if (auto it = loaded.find(row.id); it != loaded.end()) hosts_[row.id] = it->second;
  }
  spdlog::info("event=recovered matches={} closed={}", recovery.loadable.size(),
               recovery.closed.size());
  return recovery.loadable.size();
}

void Runtime::tick() {
  std::vector<std::string> idle;
  for (auto& host : matches()) {
    host->tick();
    if (host->may_leave_memory()) idle.push_back(host->id());
  }
  if (idle.empty()) return;
  std::lock_guard lock(mu_);
  for (const auto& id : idle) {
    auto it = hosts_.find(id);
    // Looked at again under the lock: a request may have used it since.
    if (it != hosts_.end() && it->second->may_leave_memory()) hosts_.erase(it);
  }
}

}  // namespace castra::runtime
