#include "tools/bench/bench_server.hpp"

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>

#include "server/dispatch/reply.hpp"

namespace castra::bench {

namespace fs = std::filesystem;

TempDir::TempDir() {
  const char* base = std::getenv("CASTRA_BENCH_DIR");
  std::string tmpl = (fs::path(base != nullptr ? base : fs::temp_directory_path().string()) /
                      "castra-bench-server-XXXXXX")
                         .string();
  if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ignored;
  if (!path_.empty()) fs::remove_all(path_, ignored);
}

std::unique_ptr<store::SqliteMatchStore> open_store(const std::string& path,
                                                    store::Durability durability,
                                                    std::string* error) {
  store::StoreOptions options;
  options.database.path = path;
  options.database.durability = durability;
  std::unique_ptr<store::SqliteMatchStore> s;
  if (store::Status st = store::SqliteMatchStore::open(options, &s); !st.ok()) {
    *error = "the store does not open: " + st.message;
  }
  return s;
}

void Latch::arm(int count) {
  std::lock_guard lock(mu_);
  left_ = count;
}

void Latch::count_down() {
  std::lock_guard lock(mu_);
  if (--left_ == 0) done_.notify_all();
}

void Latch::wait() {
  std::unique_lock lock(mu_);
  done_.wait(lock, [this] { return left_ <= 0; });
}

void FramingObserver::on_update(const runtime::Update& update) {
  ++frames_;
  bytes_ += update.frames->in(server::Encoding::kBinary)->size();
}

void KeepingObserver::on_update(const runtime::Update& update) {
  std::lock_guard lock(mu_);
  last_ = *update.message;
}

v1::MatchUpdate KeepingObserver::last() const {
  std::lock_guard lock(mu_);
  return last_;
}

std::vector<store::AppendRequest> RecordingStore::take() {
  std::lock_guard lock(mu_);
  return std::exchange(appends_, {});
}

store::Status RecordingStore::create_match(const store::MatchRow& row,
                                           const store::Secrets& secrets) {
  return inner_.create_match(row, secrets);
}
store::Status RecordingStore::update_match(const store::MatchRow& row) {
  return inner_.update_match(row);
}
store::Status RecordingStore::find_match(const std::string& id,
                                         std::optional<store::MatchRow>* row) {
  return inner_.find_match(id, row);
}
store::Status RecordingStore::list_matches(store::MatchStatus status, int limit,
                                           std::vector<store::MatchRow>* rows) {
  return inner_.list_matches(status, limit, rows);
}
store::Status RecordingStore::matches_of_player(std::int64_t account, int limit,
                                                std::vector<store::MatchRow>* rows) {
  return inner_.matches_of_player(account, limit, rows);
}
void RecordingStore::append(store::AppendRequest request, std::function<void(store::Status)> done) {
  {
    std::lock_guard lock(mu_);
    appends_.push_back(request);
  }
  inner_.append(std::move(request), std::move(done));
}
store::Status RecordingStore::flush() {
  return inner_.flush();
}
store::Status RecordingStore::replies_of(const std::string& match_id,
                                         std::vector<store::StoredReply>* replies) {
  return inner_.replies_of(match_id, replies);
}
store::Status RecordingStore::find_reply(const std::string& match_id, int side,
                                         std::int64_t client_seq,
                                         std::optional<std::string>* reply) {
  return inner_.find_reply(match_id, side, client_seq, reply);
}
store::Status RecordingStore::latest_snapshot(const std::string& match_id,
                                              std::optional<store::Snapshot>* snapshot) {
  return inner_.latest_snapshot(match_id, snapshot);
}
store::Status RecordingStore::log_from(const std::string& match_id, std::uint32_t entry_index,
                                       std::vector<store::LogRow>* rows) {
  return inner_.log_from(match_id, entry_index, rows);
}
store::Status RecordingStore::secrets(const std::string& match_id,
                                      std::optional<store::Secrets>* secrets) {
  return inner_.secrets(match_id, secrets);
}

namespace {

// What Runtime::create stores for a new match, with the dice forced before anyone is seated.
std::shared_ptr<runtime::MatchHost> new_host(const Game& g, const std::string& id,
                                             store::MatchStore& store, const server::Clock& clock,
                                             std::string* error) {
  match::Bytes32 seed{};
  seed.fill(0x42);
  auto made = wire::make_match({id, g.scenario, "", seed});
  if (!made) {
    *error = "the scenario is refused: " + made.error().message;
    return nullptr;
  }
  (*made)->force_rolls(g.dice);
  v1::MatchSettings settings;
  settings.set_spectators_allowed(true);
  store::MatchRow row;
  row.id = id;
  row.ruleset = (*made)->ruleset();
  row.rules_version = (*made)->rules_version();
  row.scenario_name = g.scenario_name;
  row.scenario = g.scenario.SerializeAsString();
  row.settings = settings.SerializeAsString();
  row.status = store::MatchStatus::kOpen;
  row.dice_commitment = std::string(match::as_view((*made)->dice_commitment()));
  row.created_ms = row.updated_ms = clock.now_ms();
  const store::Secrets secrets{std::string(match::as_view(seed)), {}, {}};
  if (store::Status st = store.create_match(row, secrets); !st.ok()) {
    *error = "the match is not stored: " + st.message;
    return nullptr;
  }
  // The host's strand runs on the calling thread, and on the store's writer thread after a
  // commit, as a test's would: the benchmarks time the host's own work, not a hand-off.
  static server::InlineExecutor inline_executor;
  return std::make_shared<runtime::MatchHost>(std::move(*made), std::move(row), settings, store,
                                              clock, inline_executor, runtime::HostOptions{});
}

}  // namespace

std::shared_ptr<runtime::MatchHost> start_host(const Game& g, const std::string& id,
                                               std::size_t played, store::MatchStore& store,
                                               const server::Clock& clock, std::string* error) {
  auto host = new_host(g, id, store, clock, error);
  if (!host) return nullptr;
  Latch latch;
  bool seated = true;
  for (const rules::Side side : {rules::Side::kA, rules::Side::kB}) {
    latch.arm(1);
    host->seat(side, rules::index(side) + 1, side == rules::Side::kA ? "entropy-a" : "entropy-b",
               [&](runtime::Answer<runtime::Done> a) {
                 seated = seated && a.ok();
                 latch.count_down();
               });
    latch.wait();
  }
  if (!seated) {
    *error = "a side could not be seated";
    return nullptr;
  }
  for (std::size_t i = 0; i < played; ++i) {
    if (!play(*host, g, i, latch)) {
      *error = "command " + std::to_string(i) + " of the " + g.name + " script is refused";
      return nullptr;
    }
  }
  return host;
}

bool play(runtime::MatchHost& host, const Game& g, std::size_t i, Latch& latch) {
  bool accepted = false;
  latch.arm(1);
  host.submit(side_of(g.lines[i]), static_cast<std::int64_t>(i), g.lines[i].command(), salt_of(i),
              nullptr, [&latch, &accepted](runtime::Answer<runtime::Submitted> a) {
                accepted = a.ok() && a->result.accepted();
                latch.count_down();
              });
  latch.wait();
  return accepted;
}

}  // namespace castra::bench
