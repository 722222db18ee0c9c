#include "server/runtime/runtime.hpp"

#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include "server/store/recovery.hpp"

namespace castra::runtime {

Runtime::Runtime(store::MatchStore& store, const Clock& clock, server::Executor& executor,
                 RuntimeOptions options)
    : store_(store),
      clock_(clock),
      executor_(executor),
      host_options_(with_listener(std::move(options.host), listener_)),
      on_hosted_(std::move(options.on_hosted)),
      may_host_(std::move(options.may_host)) {}

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

rules::Checked<Prepared> Runtime::prepare(store::MatchRow row, store::Secrets secrets) const {
  Prepared p;
  v1::ScenarioFile scenario;
  if (!scenario.ParseFromString(row.scenario) || !p.settings.ParseFromString(row.settings) ||
      secrets.server_seed.size() != 32) {
    return rules::refuse("server.match", "the match's scenario, settings or seed are malformed");
  }
  match::Bytes32 seed{};
  std::copy(secrets.server_seed.begin(), secrets.server_seed.end(), seed.begin());
  auto made = wire::make_match({row.id, scenario, row.rules_version, seed});
  if (!made) return made.error();
  p.match = std::move(*made);
  row.ruleset = p.match->ruleset();
  row.rules_version = p.match->rules_version();
  row.status = store::MatchStatus::kOpen;
  row.dice_commitment = std::string(match::as_view(p.match->dice_commitment()));
  if (row.created_ms == 0) row.created_ms = clock_.now_ms();
  row.updated_ms = clock_.now_ms();
  p.row = std::move(row);
  p.secrets = std::move(secrets);
  return p;
}

void Runtime::host(Prepared prepared,
                   std::function<void(Answer<std::shared_ptr<MatchHost>>)> done) {
  store::AppendRequest req;
  req.match_id = prepared.row.id;
  req.create = true;
  req.match_update = prepared.row;
  req.secrets_update = prepared.secrets;
  auto host =
      make_host(std::move(prepared.match), std::move(prepared.row), std::move(prepared.settings));
  store_.append(std::move(req), [this, host, done = std::move(done)](store::Status st) {
    if (!st.ok()) return done(st);
    {
      std::lock_guard lock(mu_);
      hosts_[host->id()] = host;
    }
    hosted(host);
    done(host);
  });
}

std::shared_ptr<MatchHost> Runtime::make_host(std::unique_ptr<wire::AnyMatch> match,
                                              store::MatchRow row, v1::MatchSettings settings) {
  return std::make_shared<MatchHost>(std::move(match), std::move(row), std::move(settings), store_,
                                     clock_, executor_, host_options_);
}

void Runtime::hosted(const std::shared_ptr<MatchHost>& host) {
  if (on_hosted_) on_hosted_(host);
}

std::shared_ptr<MatchHost> Runtime::find(const std::string& id) {
  std::lock_guard lock(mu_);
  auto it = hosts_.find(id);
  return it == hosts_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<MatchHost>> Runtime::matches() {
  std::lock_guard lock(mu_);
  std::vector<std::shared_ptr<MatchHost>> out;
  out.reserve(hosts_.size());
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
  auto host = make_host(std::move(*made), row, settings);
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
  const bool unfinished =
      row->status == store::MatchStatus::kOpen || row->status == store::MatchStatus::kLive;
  // Another node's match: hosting it here too would run it twice.
  if (unfinished && may_host_ && !may_host_(id)) return nullptr;
  auto host = build(*row, snapshot, log);
  if (!host) return nullptr;
  std::shared_ptr<MatchHost> kept;
  {
    std::lock_guard lock(mu_);
    auto [it, inserted] = hosts_.emplace(id, host);
    if (!inserted) return it->second;
    kept = it->second;
  }
  hosted(kept);
  return kept;
}

Answer<std::optional<v1::CommandResult>> Runtime::first_answer(const std::string& id,
                                                               rules::Side side,
                                                               std::int64_t client_seq) {
  std::optional<std::string> stored;
  if (store::Status st = store_.find_reply(id, rules::index(side), client_seq, &stored); !st.ok())
    return st;
  std::optional<v1::CommandResult> result;
  if (stored) {
    v1::CommandResult r;
    if (!r.ParseFromString(*stored)) {
      return store::Status{SQLITE_CORRUPT, "the stored answer to this command is unreadable"};
    }
    result = std::move(r);
  }
  return result;
}

store::Status Runtime::stored_row(const std::string& id, std::optional<store::MatchRow>* row) {
  return store_.find_match(id, row);
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
  std::vector<std::shared_ptr<MatchHost>> hosted_now;
  {
    std::lock_guard lock(mu_);
    for (const auto& row : recovery.loadable) {
      if (auto it = loaded.find(row.id); it != loaded.end()) {
        hosts_[row.id] = it->second;
        hosted_now.push_back(it->second);
      }
    }
  }
  for (const auto& host : hosted_now)
    hosted(host);
  spdlog::info("event=recovered matches={} closed={}", recovery.loadable.size(),
               recovery.closed.size());
  return recovery.loadable.size();
}

std::shared_ptr<MatchHost> Runtime::adopt(const std::string& id) {
  if (auto host = find(id)) return host;
  std::optional<store::MatchRow> row;
  std::optional<store::Snapshot> snapshot;
  std::vector<store::LogRow> log;
  if (store::Status st = store_.find_match(id, &row); !st.ok() || !row) return nullptr;
  if (row->status != store::MatchStatus::kOpen && row->status != store::MatchStatus::kLive) {
    return nullptr;
  }
  if (store::Status st = store_.latest_snapshot(id, &snapshot); !st.ok()) return nullptr;
  if (store::Status st = store_.log_from(id, 0, &log); !st.ok()) return nullptr;
  auto host = build(*row, snapshot, log);
  if (!host) {
    // As start-up recovery does: closed, its data kept for an operator.
    store::MatchRow closed = *row;
    closed.status = store::MatchStatus::kClosed;
    closed.updated_ms = clock_.now_ms();
    if (store::Status st = store_.update_match(closed); !st.ok()) {
      spdlog::error("event=match_not_closed match={} error=\"{}\"", id, st.message);
    }
    return nullptr;
  }
  {
    std::lock_guard lock(mu_);
    auto [it, inserted] = hosts_.emplace(id, host);
    if (!inserted) return it->second;
  }
  hosted(host);
  spdlog::info("event=match_adopted match={} entries={}", id, host->seen()->entries);
  return host;
}

void Runtime::release(const std::string& id) {
  std::shared_ptr<MatchHost> host;
  {
    std::lock_guard lock(mu_);
    auto it = hosts_.find(id);
    if (it == hosts_.end()) return;
    host = std::move(it->second);
    hosts_.erase(it);
  }
  spdlog::info("event=match_released match={}", id);
  host->lose();
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
