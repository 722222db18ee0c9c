#include "tools/load/match_load.hpp"

#include <algorithm>
#include <deque>
#include <optional>
#include <unordered_map>

#include "client/net/protocol_client.hpp"
#include "common/bot/brain.hpp"

namespace castra::load {

namespace req = client::requests;

void MatchStats::reset() {
  *this = MatchStats();
}

void MatchStats::record_ack(std::chrono::steady_clock::time_point scheduled,
                            std::chrono::steady_clock::time_point arrived) {
  const auto late = std::chrono::duration_cast<std::chrono::microseconds>(arrived - scheduled);
  ack.record(late.count());
  if (late.count() <= kSlowMicros) return;
  ++slow_count;
  if (slow.size() < kSlowKept)
    slow.push_back({std::chrono::duration<double>(scheduled - since).count(), late.count()});
}

namespace {

std::int64_t micros(Clock::duration d) {
  return std::chrono::duration_cast<std::chrono::microseconds>(d).count();
}

// What one player knows of one match: the entries it has been told of, its board (the
// last snapshot it got) and, when it must act, its legal commands.
struct PlayerView {
  std::uint32_t entries = 0;
  std::optional<v1::Snapshot> board;
  std::optional<v1::GameLegal> legal;
  bool your_move = false;
  bool refreshing = false;
  bool fresh() const { return board && board->entry_count() == entries; }
};

// The command that made a log entry: when it was scheduled, and who sent it.
struct Sent {
  Clock::time_point scheduled;
  int player = 0;
};

std::string entropy(std::uint64_t n) {
  std::string e(32, '\0');
  for (std::size_t i = 0; i < e.size(); ++i)
    e[i] = static_cast<char>((n >> (8 * (i % 8))) ^ (i * 37));
  return e;
}

}  // namespace

struct MatchLoad::Game {
  std::string id;
  PlayerView players[2];
  std::vector<std::uint32_t> spectator_entries;
  std::unordered_map<std::uint32_t, Sent> sent;
  std::uint64_t seq[2] = {0, 0};
  std::size_t subscribed = 0;
  int last_actor = 1;
  bool ready = false;
  bool ended = false;
  bool in_flight = false;
};

struct MatchLoad::Slot {
  int index = 0;
  std::unique_ptr<Peer> players[2];
  std::vector<std::unique_ptr<Peer>> spectators;
  std::optional<bot::Brain> brains[2];
  std::shared_ptr<Game> current;
  std::shared_ptr<Game> next;  // being prepared, or ready to follow `current`
  // The game that ended last: its final updates may reach one connection after another has
  // already learnt of the end (a MatchEnded, the acting player's own update), and still count.
  std::shared_ptr<Game> finished;
  std::deque<Clock::time_point> due;
  bool preparing = false;

  Peer& peer(int role) { return role < 2 ? *players[role] : *spectators[role - 2]; }
  std::shared_ptr<Game> find(const std::string& id) const {
    if (current && current->id == id) return current;
    if (next && next->id == id) return next;
    if (finished && finished->id == id) return finished;
    return nullptr;
  }
};

MatchLoad::MatchLoad(Net& net, MatchLoadOptions options)
    : net_(net), options_(std::move(options)), gate_(options_.setup_concurrency), timer_(net.ioc) {}

MatchLoad::~MatchLoad() = default;

std::size_t MatchLoad::connections() const {
  return slots_.size() * (2 + static_cast<std::size_t>(options_.spectators)) + idle_.size();
}

void MatchLoad::error(const std::string& key) {
  ++stats_.errors[key];
}

void MatchLoad::prepare(std::function<void(const std::string&)> ready) {
  ready_ = std::move(ready);
  const int n = options_.matches;
  auto pending = std::make_shared<std::size_t>(
      static_cast<std::size_t>(n) * (2 + static_cast<std::size_t>(options_.spectators)) +
      static_cast<std::size_t>(options_.idle));
  auto opened = [this, pending](const std::string& err, std::function<void()> done) {
    done();
    if (!err.empty() && !failed_) {
      failed_ = true;
      if (ready_) std::exchange(ready_, nullptr)("connecting: " + err);
    }
    if (--*pending == 0 && !failed_) {
      for (auto& slot : slots_)
        prepare_game(*slot);
    }
  };
  // Players speak binary. JSON spectators glance at their frames (tools/load/json_glance.hpp),
  // all but the first of each slot, which reads every frame in full: a sample that checks
  // the whole JSON of each update parses, at one full parse per slot and frame.
  auto wire_of = [this](int role) {
    if (role < 2 || !options_.json_spectators) return Wire::kBinary;
    return role == 2 ? Wire::kJson : Wire::kJsonGlance;
  };
  int account = 0;
  auto next_name = [this, &account] { return options_.prefix + "a" + std::to_string(account++); };
  for (int s = 0; s < n; ++s) {
    auto slot = std::make_unique<Slot>();
    slot->index = s;
    Slot& sl = *slot;
    for (int i = 0; i < 2 + options_.spectators; ++i) {
      auto peer = std::make_unique<Peer>(net_.ioc, wire_of(i));
      peer->on_push([this, &sl, i, p = peer.get()](const v1::ServerEnvelope& e) {
        if (e.has_match_update()) on_update(sl, i, e.match_update(), p->arrived());
        if (e.has_match_ended()) {
          if (auto g = sl.find(e.match_ended().match_id())) end_game(sl, g);
        }
      });
      peer->on_closed([this](const std::string&) { error("disconnected"); });
      Peer& p = *peer;
      if (i < 2) {
        sl.players[i] = std::move(peer);
        sl.brains[i].emplace(bot::Strength::kRandom,
                             options_.seed * 1000003u + static_cast<std::uint64_t>(2 * s + i));
        gate_.run([this, &p, name = next_name(), opened](std::function<void()> done) {
          open_registered(net_, p, name, [opened, done](const std::string& e, const std::string&) {
            opened(e, done);
          });
        });
      } else {
        sl.spectators.push_back(std::move(peer));
        gate_.run([this, &p, opened](std::function<void()> done) {
          open_guest(net_, p, [opened, done](const std::string& e) { opened(e, done); });
        });
      }
    }
    slots_.push_back(std::move(slot));
  }
  for (int i = 0; i < options_.idle; ++i) {
    idle_.push_back(std::make_unique<Peer>(net_.ioc));
    Peer& p = *idle_.back();
    p.on_closed([this](const std::string&) { error("disconnected"); });
    gate_.run([this, &p, name = next_name(), opened](std::function<void()> done) {
      open_registered(net_, p, name, [opened, done](const std::string& e, const std::string&) {
        opened(e, done);
      });
    });
  }
}

// Created by player 0 (side A), seated, joined by player 1 (side B), then subscribed by
// everyone of the slot; a failed step is counted and the whole tried again a second later.
void MatchLoad::prepare_game(Slot& slot) {
  if (slot.preparing) return;
  slot.preparing = true;
  auto g = std::make_shared<Game>();
  g->spectator_entries.assign(slot.spectators.size(), 0);
  slot.next = g;
  gate_.run([this, &slot, g](std::function<void()> done) {
    stats_.requests += 3;
    call_retrying(net_.ioc, *slot.players[0],
                  req::create_match(options_.scenario, /*spectators=*/true),
                  [this, &slot, g, done](const v1::ServerEnvelope& e) {
                    if (!e.has_match_created()) return setup_failed(slot, "create", e, done);
                    g->id = e.match_created().match().match_id();
                    seat_and_join(slot, g, done);
                  });
  });
}

void MatchLoad::seat_and_join(Slot& slot, const std::shared_ptr<Game>& g,
                              std::function<void()> done) {
  v1::ClientEnvelope sit;
  sit.mutable_provide_entropy()->set_match_id(g->id);
  sit.mutable_provide_entropy()->set_entropy(entropy(stats_.requests));
  call_retrying(net_.ioc, *slot.players[0], std::move(sit),
                [this, &slot, g, done](const v1::ServerEnvelope& e) {
                  if (!e.has_done()) return setup_failed(slot, "sit", e, done);
                  call_following(
                      net_, *slot.players[1], req::join_match(g->id, entropy(~stats_.requests)),
                      [this, &slot, g, done](const v1::ServerEnvelope& e2) {
                        if (!e2.has_match_joined()) return setup_failed(slot, "join", e2, done);
                        subscribe_all(slot, g, done);
                      },
                      &moves_);
                });
}

void MatchLoad::subscribe_all(Slot& slot, const std::shared_ptr<Game>& g,
                              std::function<void()> done) {
  const std::size_t everyone = 2 + slot.spectators.size();
  stats_.requests += everyone;
  for (std::size_t r = 0; r < everyone; ++r) {
    call_following(
        net_, slot.peer(static_cast<int>(r)), req::subscribe(g->id),
        [this, &slot, g, done, everyone](const v1::ServerEnvelope& e) {
          if (!e.has_subscribed()) error("setup_subscribe:" + error_key(e));
          if (++g->subscribed < everyone) return;
          done();
          on_game_ready(slot, g);
        },
        &moves_);
  }
}

void MatchLoad::setup_failed(Slot& slot, const std::string& step, const v1::ServerEnvelope& e,
                             const std::function<void()>& done) {
  done();
  error("setup_" + step + ":" + error_key(e));
  slot.preparing = false;
  slot.next = nullptr;
  if (ready_ && !failed_) {
    failed_ = true;
    std::exchange(ready_, nullptr)(step + ": " + e.ShortDebugString());
    return;
  }
  after(net_.ioc, std::chrono::seconds(1), [this, &slot] { prepare_game(slot); });
}

void MatchLoad::on_game_ready(Slot& slot, const std::shared_ptr<Game>& game) {
  slot.preparing = false;
  if (game->ended) {
    if (slot.next == game) slot.next = nullptr;
    prepare_game(slot);
    return;
  }
  game->ready = true;
  if (!slot.current) {
    slot.current = std::move(slot.next);
    prepare_game(slot);
    act(slot);
    return;
  }
  if (ready_ && ++slots_ready_ == slots_.size()) std::exchange(ready_, nullptr)("");
}

void MatchLoad::end_game(Slot& slot, const std::shared_ptr<Game>& game) {
  if (game->ended) return;
  game->ended = true;
  slot.finished = game;
  ++stats_.matches_finished;
  // Leave its room, so that rooms per connection stay few and the server may unload it.
  for (int r = 0; r < 2 + static_cast<int>(slot.spectators.size()); ++r) {
    v1::ClientEnvelope leave;
    leave.mutable_unsubscribe_match()->set_match_id(game->id);
    ++stats_.requests;
    slot.peer(r).request(std::move(leave), [](const v1::ServerEnvelope&) {});
  }
  if (slot.current == game) {
    slot.current = nullptr;
    if (slot.next && slot.next->ready) {
      slot.current = std::move(slot.next);
      prepare_game(slot);
    }
  } else if (slot.next == game && game->ready) {
    slot.next = nullptr;
    prepare_game(slot);
  }
  act(slot);
}

void MatchLoad::on_update(Slot& slot, int role, const v1::MatchUpdate& u, Clock::time_point at) {
  const auto game = slot.find(u.match_id());
  if (!game) return;
  Game& g = *game;
  std::uint32_t& seen = role < 2 ? g.players[role].entries : g.spectator_entries[role - 2];
  // Protocol 1.1 carries the board in `snapshot`; a 1.0 server sent a `status` without one.
  const v1::Snapshot* view = u.has_snapshot() ? &u.snapshot()
                             : u.has_status() ? &u.status()
                                              : nullptr;
  // The update that carries the record of an ended match may carry no board: the record's
  // entries are what it tells of.
  const std::uint32_t count = view != nullptr ? view->entry_count()
                              : u.has_record()
                                  ? static_cast<std::uint32_t>(u.record().entries_size())
                                  : seen;
  for (std::uint32_t e = seen; e < count; ++e) {
    auto it = g.sent.find(e);
    if (it == g.sent.end()) continue;
    if (role >= 2) {
      stats_.spectator.record(micros(at - it->second.scheduled));
    } else if (role != it->second.player) {
      stats_.opponent.record(micros(at - it->second.scheduled));
    }
  }
  seen = std::max(seen, count);
  if (g.ended) return;
  if (role < 2) {
    PlayerView& p = g.players[role];
    if (u.has_snapshot()) p.board = u.snapshot();
    if (view != nullptr) {
      p.your_move = u.your_move();
      p.legal.reset();
      if (u.has_legal()) p.legal = u.legal();
    }
  }
  const bool over = u.has_record() || (view != nullptr && view->ended());
  if (over) return end_game(slot, game);
  if (slot.current == game) act(slot);
}

// A protocol 1.0 server's MatchUpdate carries a status, not the board: the brain's board then
// comes from GetSnapshot at the entry count the player has been told of. A 1.1 server's
// updates carry it, and this is never asked (the report's `board_refreshes` says which).
void MatchLoad::refresh_board(Slot& slot, const std::shared_ptr<Game>& game, int player) {
  PlayerView& p = game->players[player];
  p.refreshing = true;
  const auto asked = Clock::now();
  ++stats_.requests;
  Peer& peer = *slot.players[player];
  peer.request(req::get_snapshot(game->id, p.entries),
               [this, &slot, &peer, game, player, asked](const v1::ServerEnvelope& e) {
                 PlayerView& pv = game->players[player];
                 pv.refreshing = false;
                 if (!e.has_snapshot()) {
                   error("refresh:" + error_key(e));
                   return;
                 }
                 stats_.refresh.record(micros(peer.arrived() - asked));
                 if (e.snapshot().entry_count() >= (pv.board ? pv.board->entry_count() : 0)) {
                   pv.board = e.snapshot();
                 }
                 if (slot.current == game) act(slot);
               });
}

// Sends the slot's oldest due command if a player of its current match can act: one command
// in flight per match, so that each entry is known to be that command's. A player told to
// act with an old board first refreshes it.
void MatchLoad::act(Slot& slot) {
  const auto game = slot.current;
  if (!game || !game->ready || game->ended || game->in_flight) return;
  int chosen = -1;
  for (int k = 0; k < 2; ++k) {
    const int i = (game->last_actor + 1 + k) % 2;
    PlayerView& p = game->players[i];
    if (!p.your_move || !p.legal) continue;
    if (!p.fresh()) {
      if (!p.refreshing && slot.players[i]->open()) refresh_board(slot, game, i);
      continue;
    }
    if (chosen < 0) chosen = i;
  }
  if (chosen < 0 || slot.due.empty()) return;
  PlayerView& p = game->players[chosen];
  Peer& peer = *slot.players[chosen];
  if (!peer.open()) return;
  const rules::Side side = chosen == 0 ? rules::Side::kA : rules::Side::kB;
  auto command = slot.brains[chosen]->pick(*p.board, *p.legal, side);
  if (!command) {
    error("brain_no_command");
    p.your_move = false;
    return;
  }
  const Clock::time_point scheduled = slot.due.front();
  slot.due.pop_front();
  const std::uint32_t entry = p.entries;
  v1::ClientEnvelope submit;
  auto* s = submit.mutable_submit_command();
  s->set_match_id(game->id);
  s->set_client_seq(++game->seq[chosen]);
  *s->mutable_command() = std::move(*command);
  game->in_flight = true;
  game->last_actor = chosen;
  game->sent[entry] = Sent{scheduled, chosen};
  p.your_move = false;
  ++stats_.sent;
  ++stats_.requests;
  ++in_flight_;
  stats_.send_delay.record(micros(Clock::now() - scheduled));
  stats_.submit_bytes += peer.request(std::move(submit), [this, &slot, game, chosen, scheduled,
                                                          entry](const v1::ServerEnvelope& e) {
    on_result(slot, game, chosen, scheduled, entry, e);
  });
}

void MatchLoad::on_result(Slot& slot, const std::shared_ptr<Game>& game, int player,
                          Clock::time_point scheduled, std::uint32_t entry,
                          const v1::ServerEnvelope& e) {
  --in_flight_;
  game->in_flight = false;
  PlayerView& p = game->players[player];
  if (e.has_command_result()) {
    ++stats_.acked;
    stats_.record_ack(scheduled, slot.players[player]->arrived());
    const auto& r = e.command_result();
    if (r.accepted()) {
      ++stats_.accepted;
      ++stats_.opponent_expected;
      stats_.spectator_expected += slot.spectators.size();
      if (r.entry() != entry) {
        error("entry_mismatch");
        game->sent[r.entry()] = game->sent[entry];
        game->sent.erase(entry);
      }
    } else {
      error("refused:" + r.error().rule());
      game->sent.erase(entry);
      p.your_move = p.legal.has_value();  // nothing changed: it may try again
    }
  } else {
    const std::string key = error_key(e);
    error(key);
    game->sent.erase(entry);
    if (e.error().code() == v1::ERROR_SERVER_BUSY) {
      slot.due.push_front(scheduled);  // sent again, still late from its scheduled time
      p.your_move = p.legal.has_value();
    }
  }
  act(slot);
}

void MatchLoad::run_at(double rate) {
  timer_.cancel();
  rate_ = rate;
  start_ = Clock::now();
  k_ = 0;
  scheduling_ = rate > 0 && !slots_.empty();
  if (scheduling_) arm_arrivals();
}

void MatchLoad::arm_arrivals() {
  const auto due = start_ + std::chrono::duration_cast<Clock::duration>(
                                std::chrono::duration<double>(static_cast<double>(k_) / rate_));
  timer_.expires_at(due);
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec && scheduling_) on_arrivals();
  });
}

void MatchLoad::on_arrivals() {
  const auto now = Clock::now();
  for (;;) {
    const auto due = start_ + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(static_cast<double>(k_) / rate_));
    if (due > now) break;
    Slot& slot = *slots_[k_ % slots_.size()];
    slot.due.push_back(due);
    ++stats_.scheduled;
    ++k_;
    act(slot);
  }
  arm_arrivals();
}

std::uint64_t MatchLoad::backlog() const {
  std::uint64_t n = 0;
  for (const auto& s : slots_)
    n += s->due.size();
  return n;
}

std::uint64_t MatchLoad::in_flight() const {
  return in_flight_;
}

void MatchLoad::stop(std::chrono::milliseconds timeout, std::function<void()> drained) {
  scheduling_ = false;
  timer_.cancel();
  drained_ = std::move(drained);
  drain_deadline_ = Clock::now() + timeout;
  check_drained();
}

void MatchLoad::check_drained() {
  if (!drained_) return;
  const bool delivered = stats_.opponent.count() >= stats_.opponent_expected &&
                         stats_.spectator.count() >= stats_.spectator_expected;
  if ((backlog() == 0 && in_flight() == 0 && delivered) || Clock::now() >= drain_deadline_) {
    std::exchange(drained_, nullptr)();
    return;
  }
  after(net_.ioc, std::chrono::milliseconds(5), [this] { check_drained(); });
}

}  // namespace castra::load
