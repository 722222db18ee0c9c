// The server's parts as castra-bench-server drives them, without sockets: a SQLite match store
// on ":memory:" or a fresh file, a MatchHost for one of the training games, observers that
// frame each update as a connection would, and a store that keeps a copy of every append.
// Built and driven from the benchmark's thread; callbacks come on the store's writer thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/runtime/match_host.hpp"
#include "server/store/sqlite_match_store.hpp"
#include "tools/bench/bench_games.hpp"

namespace castra::bench {

// A fresh directory under $CASTRA_BENCH_DIR, else the system's temporary one; removed at the
// end with everything in it.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The store on `path` (":memory:" or a file); null, and `*error` set, if it does not open.
std::unique_ptr<store::SqliteMatchStore> open_store(const std::string& path,
                                                    store::Durability durability,
                                                    std::string* error);

// Waits for a number of callbacks that come on another thread; allocates nothing, so that it
// does not count in the benchmarks' allocations.
class Latch {
 public:
  void arm(int count);
  void count_down();
  void wait();

 private:
  std::mutex mu_;
  std::condition_variable done_;
  int left_ = 0;
};

// Counts the frames the host made for it (the ServerEnvelope push each connection is sent),
// instead of sending them.
class FramingObserver final : public runtime::Observer {
 public:
  void on_update(const runtime::Update& update) override;
  std::uint64_t frames() const { return frames_; }
  std::uint64_t bytes() const { return bytes_; }

 private:
  std::uint64_t frames_ = 0;  // written on the writer thread, read after the Latch
  std::uint64_t bytes_ = 0;
};

// Keeps the last update it was given.
class KeepingObserver final : public runtime::Observer {
 public:
  void on_update(const runtime::Update& update) override;
  v1::MatchUpdate last() const;

 private:
  mutable std::mutex mu_;
  v1::MatchUpdate last_;
};

// A MatchStore that passes everything to another and keeps a copy of each append.
class RecordingStore final : public store::MatchStore {
 public:
  explicit RecordingStore(store::MatchStore& inner) : inner_(inner) {}
  std::vector<store::AppendRequest> take();

  store::Status create_match(const store::MatchRow& row, const store::Secrets& secrets) override;
  store::Status update_match(const store::MatchRow& row) override;
  store::Status find_match(const std::string& id, std::optional<store::MatchRow>* row) override;
  store::Status list_matches(store::MatchStatus status, int limit,
                             std::vector<store::MatchRow>* rows) override;
  store::Status matches_of_player(std::int64_t account, int limit,
                                  std::vector<store::MatchRow>* rows) override;
  void append(store::AppendRequest request, std::function<void(store::Status)> done) override;
  store::Status flush() override;
  store::Status replies_of(const std::string& match_id,
                           std::vector<store::StoredReply>* replies) override;
  store::Status find_reply(const std::string& match_id, int side, std::int64_t client_seq,
                           std::optional<std::string>* reply) override;
  store::Status latest_snapshot(const std::string& match_id,
                                std::optional<store::Snapshot>* snapshot) override;
  store::Status log_from(const std::string& match_id, std::uint32_t entry_index,
                         std::vector<store::LogRow>* rows) override;
  store::Status secrets(const std::string& match_id,
                        std::optional<store::Secrets>* secrets) override;

 private:
  store::MatchStore& inner_;
  std::mutex mu_;
  std::vector<store::AppendRequest> appends_;
};

// A MatchHost for a new match `id` of `g` in `store` (stored, both sides seated, the dice
// forced), with its first `played` commands committed; null, and `*error` set, if not.
std::shared_ptr<runtime::MatchHost> start_host(const Game& g, const std::string& id,
                                               std::size_t played, store::MatchStore& store,
                                               const server::Clock& clock, std::string* error);

// Submits command `i` of `g` as client_seq i and waits for its answer (after the commit and
// every observer's update). False if it was refused.
bool play(runtime::MatchHost& host, const Game& g, std::size_t i, Latch& latch);

}  // namespace castra::bench
