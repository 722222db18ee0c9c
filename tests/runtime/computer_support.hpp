// For the in-process tests of the computer opponent: a runtime over a real SQLite store in a
// temporary directory, a human player who acts from the updates its side is sent (as a real
// client does), and a repeatable stand-in for the CSPRNG. One test thread uses them.
#pragma once

#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <fstream>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>

#include "server/base/task_queue.hpp"
#include "server/computer/computers.hpp"
#include "server/runtime/runtime.hpp"
#include "server/store/sqlite_match_store.hpp"
#include "tests/support/server_process.hpp"

namespace castra::computer::testing {

using namespace std::chrono_literals;
using rules::Side;

inline v1::ScenarioFile load_scenario(const std::string& name) {
  std::ifstream in(std::string(CASTRA_SOURCE_DIR) + "/scenarios/" + name + ".json");
  std::stringstream ss;
  ss << in.rdbuf();
  v1::ScenarioFile f;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(ss.str(), &f).ok()) << name;
  return f;
}

// The same bytes every run: two runs of a match differ only where a test makes them differ.
inline RandomBytes repeatable_random() {
  auto state = std::make_shared<std::pair<std::mutex, std::uint64_t>>();
  return [state](std::span<std::uint8_t> out) {
    std::lock_guard lock(state->first);
    for (auto& b : out)
      b = static_cast<std::uint8_t>((state->second++ * 2654435761u) >> 13);
  };
}

// The picture an update gives of who must act: its board (kept from the last one that had it).
inline const v1::Snapshot& status_of(const v1::MatchUpdate& u) {
  return u.snapshot();
}

inline bool must_act(const v1::Snapshot& s, Side side) {
  return side == Side::kA ? s.a_to_act() : s.b_to_act();
}

// A seated side's updates, kept as they come, for a test thread to wait on.
class Human final : public runtime::Observer {
 public:
  explicit Human(Side side) : side_(side) {}
  void on_update(const runtime::Update& update) override {
    const v1::MatchUpdate& u = *update.message;
    {
      std::lock_guard lock(mu_);
      // An update without a board (a count, an offer) leaves the board it had.
      if (u.has_snapshot() || !latest_) {
        latest_ = u;
      } else {
        v1::Snapshot board = latest_->snapshot();
        latest_ = u;
        *latest_->mutable_snapshot() = std::move(board);
      }
      if (u.has_record()) record_ = u.record();
      if (u.draw_offered()) saw_offer_ = true;
      ++updates_;
    }
    changed_.notify_all();
  }
  // The latest update once it gives this side a move while the other side has none (so the
  // two sides never race), or the match is over; nullopt after `timeout`.
  std::optional<v1::MatchUpdate> my_turn(std::chrono::milliseconds timeout = 30s) {
    std::unique_lock lock(mu_);
    const bool came = changed_.wait_for(lock, timeout, [&] {
      if (!latest_) return false;
      const v1::Snapshot& s = status_of(*latest_);
      return record_.has_value() || s.ended() ||
             (latest_->your_move() && !must_act(s, rules::other(side_)));
    });
    if (!came) return std::nullopt;
    return latest_;
  }
  // Waits until `pred` holds of the updates so far.
  bool wait_until(const std::function<bool(std::size_t updates, bool saw_offer,
                                           const std::optional<v1::MatchUpdate>& latest)>& pred,
                  std::chrono::milliseconds timeout = 30s) {
    std::unique_lock lock(mu_);
    return changed_.wait_for(lock, timeout, [&] { return pred(updates_, saw_offer_, latest_); });
  }
  std::size_t updates() {
    std::lock_guard lock(mu_);
    return updates_;
  }
  std::optional<v1::MatchRecord> record() {
    std::lock_guard lock(mu_);
    return record_;
  }
  // The board this side was last sent.
  v1::Snapshot board() {
    std::lock_guard lock(mu_);
    return latest_ ? latest_->snapshot() : v1::Snapshot();
  }

 private:
  const Side side_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::optional<v1::MatchUpdate> latest_;
  std::optional<v1::MatchRecord> record_;
  std::size_t updates_ = 0;
  bool saw_offer_ = false;
};

inline std::unique_ptr<store::SqliteMatchStore> open_store(const std::string& path) {
  store::StoreOptions options;
  options.database.path = path;
  std::unique_ptr<store::SqliteMatchStore> s;
  const store::Status st = store::SqliteMatchStore::open(options, &s);
  EXPECT_TRUE(st.ok()) << st.message;
  return s;
}

inline match::Bytes32 filled(std::uint8_t v) {
  match::Bytes32 b{};
  b.fill(v);
  return b;
}

// A new match against the computer on `runtime`, side A left to its creator.
inline std::shared_ptr<runtime::MatchHost> create_against_computer(runtime::Runtime& runtime,
                                                                   const std::string& scenario,
                                                                   v1::ComputerStrength strength) {
  store::MatchRow row;
  row.id = "m-computer";
  row.scenario_name = scenario;
  row.scenario = load_scenario(scenario).SerializeAsString();
  v1::MatchSettings settings;
  settings.set_spectators_allowed(true);
  settings.set_creator_side(v1::SIDE_A);
  settings.set_computer(strength);
  row.settings = settings.SerializeAsString();
  store::Secrets secrets;
  secrets.server_seed = std::string(match::as_view(filled(0x42)));
  auto prepared = runtime.prepare(row, secrets);
  EXPECT_TRUE(prepared.ok());
  if (!prepared) return nullptr;
  std::promise<std::shared_ptr<runtime::MatchHost>> hosted;
  runtime.host(std::move(*prepared), [&](runtime::Answer<std::shared_ptr<runtime::MatchHost>> a) {
    hosted.set_value(a.ok() ? a.value() : nullptr);
  });
  return hosted.get_future().get();
}

// Waits until everything asked of `host` so far has run (its requests run in order).
inline void settle(runtime::MatchHost& host) {
  std::promise<void> p;
  host.legal(Side::kA, [&](runtime::Answer<v1::GameLegal>) { p.set_value(); });
  p.get_future().get();
}

// Runs a match-level act and waits for its answer: nothing when it was done, else why not.
inline std::optional<std::string> wait(
    const std::function<void(runtime::MatchHost::Reply<runtime::Done>)>& act) {
  std::promise<std::optional<std::string>> p;
  act([&](runtime::Answer<runtime::Done> a) {
    if (a.ok()) return p.set_value(std::nullopt);
    p.set_value(a.refusal() ? a.refusal()->message : a.storage_failure()->message);
  });
  return p.get_future().get();
}

// The command's answer as the player sees it: accepted, or refused with the rule.
inline v1::CommandResult submit(runtime::MatchHost& host, Side side, std::int64_t seq,
                                const v1::GameCommand& c) {
  std::promise<v1::CommandResult> p;
  host.submit(side, seq, c, filled(0x07), nullptr, [&](runtime::Answer<runtime::Submitted> a) {
    v1::CommandResult r;
    if (a.ok()) {
      r = a->result;
    } else if (a.refusal()) {
      r.mutable_error()->set_rule(a.refusal()->rule);
      r.mutable_error()->set_message(a.refusal()->message);
    } else {
      r.mutable_error()->set_rule("storage");
    }
    p.set_value(r);
  });
  return p.get_future().get();
}

}  // namespace castra::computer::testing
