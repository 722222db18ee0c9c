#include "tests/server/cluster_support.hpp"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "common/wire/any_match.hpp"
#include "tests/server/protocol_support.hpp"

namespace castra::testing {

namespace req = client::requests;

Rig::Rig(std::string url, int nodes, int lease_ms) : db_url_(std::move(url)), lease_ms_(lease_ms) {
  for (int i = 0; i < nodes; ++i)
    nodes_.push_back(std::make_unique<ServerProcess>(flags(i)));
}

std::vector<std::string> Rig::flags(int i) const {
  return play_flags({"--store", db_url_, "--node-id", "node-" + std::to_string(i), "--lease-ms",
                     std::to_string(lease_ms_)});
}

bool Rig::started() const {
  for (const auto& n : nodes_) {
    if (!n->started()) return false;
  }
  return true;
}

std::string Rig::logs() const {
  std::string out;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    out += "--- node-" + std::to_string(i) + "\n" + cluster_events(nodes_[i]->log());
  }
  return out;
}

std::string Rig::all_logs() const {
  std::string out = past_logs_;
  for (const auto& n : nodes_)
    out += n->log();
  return out;
}

int Rig::index_of(const std::string& url) const {
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i]->started() && nodes_[i]->ws_url() == url) return static_cast<int>(i);
  }
  return -1;
}

bool Rig::restart(int i) {
  auto& n = nodes_[static_cast<std::size_t>(i)];
  n->signal(SIGKILL);
  n->wait(5s);
  past_logs_ += n->log();
  n = std::make_unique<ServerProcess>(flags(i));
  return n->started();
}

bool Member::open(int i) {
  c_.reset();
  node_ = i;
  std::string error;
  auto c = client::ProtocolClient::connect(rig_.url(i), 2s, &error, encoded());
  if (!c || !c->hello(2s, &error)) return false;
  auto r = c->call(req::login(name_, name_ + "-password"), 5s, &error);
  if (!r || !r->has_session()) return false;
  c_ = std::move(c);
  return true;
}

bool Member::register_account() {
  std::string error;
  auto c = client::ProtocolClient::connect(rig_.url(node_), 5s, &error, encoded());
  if (!c || !c->hello(5s, &error)) return false;
  auto r = c->call(req::register_account(name_, name_ + "-password"), 5s, &error);
  if (!r || !r->has_session()) return false;
  c_ = std::move(c);
  return true;
}

v1::ServerEnvelope Member::ask(const v1::ClientEnvelope& request,
                               std::chrono::milliseconds budget) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  std::string last;
  while (std::chrono::steady_clock::now() < deadline) {
    if (!c_ && !open(node_)) {
      last = "node-" + std::to_string(node_) + " could not be reached";
      node_ = (node_ + 1) % rig_.size();
      std::this_thread::sleep_for(50ms);
      continue;
    }
    std::string error;
    v1::ClientEnvelope copy = request;
    copy.clear_request_id();
    auto r = c_->call(copy, 3s, &error);
    if (!r) {
      // Gone, or paused: another node, which may send us back here when it is the owner.
      last = "node-" + std::to_string(node_) + ": " + error;
      c_.reset();
      node_ = (node_ + 1) % rig_.size();
      continue;
    }
    if (r->has_error() && r->error().code() == v1::ERROR_MATCH_ELSEWHERE) {
      last = r->error().message();
      const int owner = rig_.index_of(r->error().owner_url());
      if (owner >= 0 && owner != node_) {
        c_.reset();
        node_ = owner;
        continue;
      }
      // Moving between nodes: the same question again shortly (polling, with the deadline).
      std::this_thread::sleep_for(
          std::chrono::milliseconds(std::max<std::uint64_t>(50, r->error().retry_after_ms())));
      continue;
    }
    return *r;
  }
  ADD_FAILURE() << name_ << " had no answer to " << request.ShortDebugString() << ": " << last;
  return {};
}

std::string open_game(Game& g, const std::string& scenario) {
  auto created = g.players[0]->ask(req::create_match(scenario, /*spectators=*/true));
  if (!created.has_match_created()) {
    ADD_FAILURE() << created.DebugString();
    return "";
  }
  g.id = created.match_created().match().match_id();
  auto seated = g.players[0]->ask(sit(g.id));
  if (seated.has_error()) {
    ADD_FAILURE() << seated.DebugString();
    return "";
  }
  auto joined = g.players[1]->ask(req::join_match(g.id, client_entropy()));
  if (!joined.has_match_joined()) {
    ADD_FAILURE() << joined.DebugString();
    return "";
  }
  return g.id;
}

int play_round(Game& g) {
  int accepted = 0;
  for (int s = 0; s < 2; ++s) {
    Member& m = *g.players[s];
    auto legal = m.ask(get_legal(g.id));
    if (!legal.has_legal()) {
      if (error_of(legal) == v1::ERROR_MATCH_NOT_LIVE) return -1;
      continue;
    }
    auto cmd =
        g.sides[s].picker.pick(legal.legal().legal(), s == 0 ? rules::Side::kA : rules::Side::kB);
    if (!cmd) continue;
    const std::uint64_t seq = g.sides[s].next_seq++;
    // Asked until answered, with its own client_seq whichever node answers: applied once.
    auto r = m.ask(submit(g.id, seq, *cmd));
    if (!r.has_command_result()) {
      if (error_of(r) == v1::ERROR_MATCH_NOT_LIVE) return -1;
      ADD_FAILURE() << m.name() << " seq " << seq << ": " << r.DebugString();
      continue;
    }
    const auto& result = r.command_result();
    g.journal.push_back(m.name() + " seq " + std::to_string(seq) + " on node-" +
                        std::to_string(m.node()) + ": " +
                        (result.accepted() ? "entry " + std::to_string(result.entry())
                                           : "refused " + result.error().rule()));
    if (result.accepted()) {
      g.sides[s].acked[seq] = result.entry();
      ++accepted;
    }
    if (result.error().rule() == "match.over") return -1;
  }
  // Nobody could act: ended (its record is out), or waiting on the other side's turn.
  if (accepted == 0 && g.players[0]->ask(export_record(g.id)).has_record()) return -1;
  return accepted;
}

bool play_to_end(Game& g, int max_rounds) {
  for (int round = 0; round < max_rounds; ++round) {
    if (play_round(g) < 0) return true;
  }
  v1::ClientEnvelope resign;
  resign.mutable_resign()->set_match_id(g.id);
  g.players[0]->ask(resign);
  return false;
}

std::size_t check_record(Game& g, Member& reader) {
  auto exported = reader.ask(export_record(g.id));
  if (!exported.has_record()) {
    ADD_FAILURE() << g.id << ": " << exported.DebugString();
    return 0;
  }
  const v1::MatchRecord& r = exported.record();
  EXPECT_EQ(wire::verify_record(r), std::nullopt) << g.id;
  std::set<std::uint32_t> entries;
  std::size_t acked = 0;
  for (int s = 0; s < 2; ++s) {
    for (const auto& [seq, entry] : g.sides[s].acked) {
      ++acked;
      if (entry >= static_cast<std::uint32_t>(r.entries_size())) {
        ADD_FAILURE() << g.id << ": seq " << seq << " acknowledged as entry " << entry
                      << ", past the log's end";
        continue;
      }
      EXPECT_EQ(r.entries(static_cast<int>(entry)).kind(), v1::ENTRY_COMMAND);
      EXPECT_EQ(r.entries(static_cast<int>(entry)).side(), s == 0 ? v1::SIDE_A : v1::SIDE_B);
      EXPECT_TRUE(entries.insert(entry).second) << "two acknowledgements name entry " << entry;
    }
  }
  std::size_t commands = 0;
  for (const auto& e : r.entries())
    commands += e.kind() == v1::ENTRY_COMMAND;
  // Every command in the log was acknowledged, once: none applied twice, none lost.
  if (commands != acked) {
    std::string journal;
    for (const auto& j : g.journal)
      journal += j + "\n";
    ADD_FAILURE() << g.id << ": " << commands << " commands in the log, " << acked
                  << " acknowledged\n"
                  << journal;
  }
  return acked;
}

Spectator::Spectator(Rig& rig, std::string name, int node, std::string match_id)
    : m_(rig, std::move(name), node), match_id_(std::move(match_id)) {}

Spectator::~Spectator() {
  stop();
}

void Spectator::start() {
  thread_ = std::thread([this] { run(); });
}

void Spectator::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

std::vector<std::uint64_t> Spectator::numbers() const {
  std::lock_guard lock(mu_);
  return numbers_;
}

void Spectator::run() {
  bool subscribed = false;
  auto quiet_since = std::chrono::steady_clock::now();
  while (!stop_ && !record_) {
    if (!subscribed) {
      // A fresh connection each time, so no update of an earlier subscription is still
      // on its way when the new one starts from the last event it has.
      m_.hang_up();
      v1::ClientEnvelope e;
      e.mutable_subscribe_match()->set_match_id(match_id_);
      {
        std::lock_guard lock(mu_);
        e.mutable_subscribe_match()->set_has_last_seen_event(true);
        e.mutable_subscribe_match()->set_last_seen_event(numbers_.size());
      }
      auto r = m_.ask(e, 60s);
      if (!r.has_subscribed()) continue;
      subscribed = true;
      ++hops_;
      quiet_since = std::chrono::steady_clock::now();
    }
    std::string error;
    auto push = m_.client()->next_push(200ms, &error);
    if (!push) {
      // Closed, or quiet too long (a paused node says nothing): subscribe again, wherever
      // the match is now.
      if (!m_.client()->socket().is_open() ||
          std::chrono::steady_clock::now() - quiet_since > 2500ms) {
        subscribed = false;
      }
      continue;
    }
    quiet_since = std::chrono::steady_clock::now();
    if (push->has_notice() && push->notice().code() == v1::ERROR_MATCH_ELSEWHERE) {
      subscribed = false;
      continue;
    }
    if (!push->has_match_update() || push->match_update().match_id() != match_id_) continue;
    const auto& u = push->match_update();
    {
      std::lock_guard lock(mu_);
      for (const auto& ev : u.events())
        numbers_.push_back(ev.number());
    }
    if (u.has_record()) record_ = true;
  }
}

std::string cluster_events(const std::string& log) {
  std::istringstream in(log);
  std::string line, out;
  while (std::getline(in, line)) {
    for (const char* word : {"lease", "taken_over", "fenced", "released", "adopted", "moved",
                             "cluster", "level=error"}) {
      if (line.find(word) != std::string::npos) {
        out += line + "\n";
        break;
      }
    }
  }
  return out;
}

}  // namespace castra::testing
