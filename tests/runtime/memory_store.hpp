// MemoryStore: a MatchStore in memory with a writer thread, for runtime unit tests that need
// no disk. It keeps the store's contract: callbacks run on the writer thread, in order,
// never in the caller's. `fail_next` makes the next append fail.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "server/store/match_store.hpp"

namespace castra::testing {

class MemoryStore final : public store::MatchStore {
 public:
  MemoryStore() : writer_([this] { run(); }) {}
  ~MemoryStore() override {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    writer_.join();
  }

  store::Status create_match(const store::MatchRow& row, const store::Secrets& secrets) override {
    std::lock_guard lock(mu_);
    rows_[row.id] = row;
    secrets_[row.id] = secrets;
    return {};
  }
  store::Status update_match(const store::MatchRow& row) override {
    std::lock_guard lock(mu_);
    rows_[row.id] = row;
    return {};
  }
  std::optional<store::MatchRow> find_match(const std::string& id) override {
    std::lock_guard lock(mu_);
    auto it = rows_.find(id);
    if (it == rows_.end()) return std::nullopt;
    return it->second;
  }
  std::vector<store::MatchRow> list_matches(const std::string& status, int) override {
    std::lock_guard lock(mu_);
    std::vector<store::MatchRow> out;
    for (auto& [id, r] : rows_) {
      if (r.status == status) out.push_back(r);
    }
    return out;
  }
  std::vector<store::MatchRow> matches_of_player(std::int64_t, int) override { return {}; }

  void append(store::AppendRequest request, std::function<void(store::Status)> done) override {
    {
      std::lock_guard lock(mu_);
      queue_.emplace_back(std::move(request), std::move(done));
    }
    cv_.notify_all();
  }
  void flush() override {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return queue_.empty() && !busy_; });
  }
  std::optional<std::string> find_reply(const std::string& match_id, int side,
                                        std::int64_t client_seq) override {
    std::lock_guard lock(mu_);
    auto it = replies_.find({match_id, side, client_seq});
    if (it == replies_.end()) return std::nullopt;
    return it->second;
  }
  std::optional<store::Snapshot> latest_snapshot(const std::string& match_id) override {
    std::lock_guard lock(mu_);
    auto it = snapshots_.find(match_id);
    if (it == snapshots_.end()) return std::nullopt;
    return it->second;
  }
  std::vector<store::LogRow> log_from(const std::string& match_id, std::uint32_t from) override {
    std::lock_guard lock(mu_);
    std::vector<store::LogRow> out;
    for (const auto& r : logs_[match_id]) {
      if (r.entry_index >= from) out.push_back(r);
    }
    return out;
  }
  std::optional<store::Secrets> secrets(const std::string& match_id) override {
    std::lock_guard lock(mu_);
    auto it = secrets_.find(match_id);
    if (it == secrets_.end()) return std::nullopt;
    return it->second;
  }

  void fail_next() {
    std::lock_guard lock(mu_);
    fail_next_ = true;
  }
  std::size_t appends() {
    std::lock_guard lock(mu_);
    return appends_;
  }

 private:
  void run() {
    std::unique_lock lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (queue_.empty() && stop_) return;
      auto [req, done] = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
      store::Status st;
      if (fail_next_) {
        fail_next_ = false;
        st = store::Status{10, "disk I/O error (injected)"};
      } else {
        ++appends_;
        if (req.entry) logs_[req.match_id].push_back(*req.entry);
        if (req.client_seq && req.entry) replies_[{req.match_id, req.side, *req.client_seq}] = req.reply;
        if (req.match_update) rows_[req.match_id] = *req.match_update;
        if (req.snapshot) snapshots_[req.match_id] = *req.snapshot;
        if (req.secrets_update) secrets_[req.match_id] = *req.secrets_update;
      }
      lock.unlock();
      done(st);
      lock.lock();
      busy_ = false;
      cv_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::pair<store::AppendRequest, std::function<void(store::Status)>>> queue_;
  std::map<std::string, store::MatchRow> rows_;
  std::map<std::string, store::Secrets> secrets_;
  std::map<std::string, std::vector<store::LogRow>> logs_;
  std::map<std::string, store::Snapshot> snapshots_;
  std::map<std::tuple<std::string, int, std::int64_t>, std::string> replies_;
  bool stop_ = false;
  bool busy_ = false;
  bool fail_next_ = false;
  std::size_t appends_ = 0;
  std::thread writer_;
};

}  // namespace castra::testing
