// Cluster test support: three (or more) castra-server nodes on one private PostgreSQL
// database, and clients that behave as a cluster's clients must: a request answered
// ERROR_MATCH_ELSEWHERE is asked again at the owner's URL (or again shortly, while the match
// moves), and a node that stops answering is left for another node. Used by the Cluster.*
// tests and by tools/cluster/kill_run (the long run of kills). One thread per object.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/net/protocol_client.hpp"
#include "tests/server/picker.hpp"
#include "tests/support/server_process.hpp"

namespace castra::testing {

namespace v1 = castra::v1;
using namespace std::chrono_literals;

class Rig {
 public:
  // `nodes` nodes on the database at `url`, each with a lease of `lease_ms`.
  Rig(std::string url, int nodes, int lease_ms);
  bool started() const;
  std::string logs() const;

  int size() const { return static_cast<int>(nodes_.size()); }
  ServerProcess& node(int i) { return *nodes_[static_cast<std::size_t>(i)]; }
  std::string url(int i) const { return nodes_[static_cast<std::size_t>(i)]->ws_url(); }
  // The node whose public URL is `url`; -1 when none.
  int index_of(const std::string& url) const;
  // Starts node `i` again (after a kill), under the same node id.
  bool restart(int i);
  std::vector<std::string> flags(int i) const;
  // Every node's whole log, its lives before restarts included.
  std::string all_logs() const;

 private:
  std::string db_url_;
  int lease_ms_;
  std::vector<std::unique_ptr<ServerProcess>> nodes_;
  std::string past_logs_;  // of the lives before restarts
};

// One account's connection to the cluster, following redirects.
class Member {
 public:
  Member(Rig& rig, std::string name, int node) : rig_(rig), name_(std::move(name)), node_(node) {}
  // Registers the account (on its first node).
  bool register_account();
  // The answer to `request` from whichever node serves it, after redirects, reconnects and
  // retries; an empty envelope after `budget` (the caller's test fails then).
  v1::ServerEnvelope ask(const v1::ClientEnvelope& request, std::chrono::milliseconds budget = 90s);
  client::ProtocolClient* client() { return c_.get(); }
  int node() const { return node_; }
  const std::string& name() const { return name_; }
  // Drops the connection (the next ask() connects again, to the same node first).
  void hang_up() { c_.reset(); }
  // Connects to node `i` and signs in; false when it could not.
  bool open(int i);

 private:
  Rig& rig_;
  std::string name_;
  int node_;
  std::unique_ptr<client::ProtocolClient> c_;
};

// What one side did: the commands it had acknowledged, by client_seq, and the entries they
// got.
struct SideBook {
  std::uint64_t next_seq = 1;
  std::map<std::uint64_t, std::uint32_t> acked;  // client_seq -> log entry
  Picker picker;
};

// A match two members play.
struct Game {
  std::string id;
  Member* players[2] = {nullptr, nullptr};
  SideBook sides[2];
  std::vector<std::string> journal;
};

// alice creates `scenario` and sits at side A, bob joins; the match's id, "" on failure.
std::string open_game(Game& g, const std::string& scenario);
// One round: each side that has legal commands submits one (re-sent with the same client_seq
// until answered). Accepted commands this round; -1 once the match has a record.
int play_round(Game& g);
// Plays until the match has ended (resigning for side A after `max_rounds`).
bool play_to_end(Game& g, int max_rounds = 400);
// The record, every acknowledged command in it once and every command in it acknowledged,
// and the record verifies; failures added to the running test. The number of commands.
std::size_t check_record(Game& g, Member& reader);

// A spectator that follows a match across nodes on a thread of its own: it subscribes (again
// after every hop, from the last event it has) and keeps the numbers of the events it was
// sent, until the record comes or stop().
class Spectator {
 public:
  Spectator(Rig& rig, std::string name, int node, std::string match_id);
  ~Spectator();
  bool register_account() { return m_.register_account(); }
  void start();
  void stop();
  // The event numbers seen, in the order they came (each number once, from 0, when all went
  // well), and whether the record came.
  std::vector<std::uint64_t> numbers() const;
  bool saw_record() const { return record_; }
  int hops() const { return hops_; }

 private:
  void run();

  Member m_;
  std::string match_id_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> record_{false};
  std::atomic<int> hops_{0};
  mutable std::mutex mu_;
  std::vector<std::uint64_t> numbers_;
};

// A node's log lines that say what the cluster did (leases, takeovers, fencing).
std::string cluster_events(const std::string& log);

}  // namespace castra::testing
