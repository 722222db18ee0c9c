// MatchHost's requests and commits: every request is a task on the match's strand; one write
// is in flight at a time, and the requests that come meanwhile wait their turn, so the match in
// memory never runs ahead of its store when anything is sent. The room's side is in
// match_room.cpp, rebuilding the past in match_restore.cpp.
#include "server/runtime/match_host.hpp"

#include <google/protobuf/util/message_differencer.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <climits>
#include <iterator>
#include <utility>

namespace castra::runtime {

namespace {

std::string side_name(Side s) {
  return std::string("side ") + rules::side_letter(s);
}

rules::RuleError closed_refusal(bool moved) {
  if (moved) return {"match.moved", "another node of the cluster hosts this match now"};
  return {"match.closed", "the match is closed; see the server's log"};
}

// Seats and ends answer Done; their entry's CommandResult stays inside the host.
MatchHost::Reply<Submitted> as_done(MatchHost::Reply<Done> done) {
  return [done = std::move(done)](Answer<Submitted> a) {
    if (a.ok()) return done(Done{});
    if (a.refusal()) return done(*a.refusal());
    done(*a.storage_failure());
  };
}

}  // namespace

// The one write in flight. `entry` is the log entry it writes, UINT32_MAX for a seat that
// makes none (the first player to sit down).
struct MatchHost::InFlight {
  std::uint32_t entry = UINT32_MAX;
  Side side = Side::kA;
  std::optional<std::int64_t> client_seq;
  v1::CommandResult result;
  std::shared_ptr<const Observer> mover;
  Reply<Submitted> done;
};

MatchHost::MatchHost(std::unique_ptr<wire::AnyMatch> match, store::MatchRow row,
                     v1::MatchSettings settings, store::MatchStore& store, const Clock& clock,
                     server::Executor& executor, HostOptions options)
    : id_(row.id),
      store_(store),
      clock_(clock),
      options_(std::move(options)),
      settings_(std::move(settings)),
      strand_(executor),
      match_(std::move(match)),
      row_(std::move(row)) {
  last_tick_ms_ = clock_.now_ms();
  last_used_ms_ = last_tick_ms_;
  publish();
}

MatchHost::~MatchHost() = default;

void MatchHost::act(Op op) {
  last_used_ms_ = clock_.now_ms();
  strand_.post([self = shared_from_this(), op = std::move(op)]() mutable {
    self->run_or_queue(std::move(op));
  });
}

void MatchHost::run_or_queue(Op op) {
  if (in_flight_) {
    queue_.push_back(std::move(op));
    return;
  }
  op();
}

void MatchHost::drain() {
  while (!in_flight_ && !queue_.empty()) {
    Op op = std::move(queue_.front());
    queue_.pop_front();
    op();
  }
}

void MatchHost::seat(Side side, std::optional<std::int64_t> account, std::string entropy,
                     Reply<Done> done) {
  act([this, side, account, entropy = std::move(entropy), done = std::move(done)] {
    if (closed_) return done(closed_refusal(moved_));
    const std::size_t before = match_->entry_count();
    if (auto err = match_->seat(side, entropy)) return done(*err);
    (side == Side::kA ? row_.player_a : row_.player_b) = account;
    store::Secrets secrets;
    const auto& dice = match_->secrets();
    secrets.server_seed.assign(reinterpret_cast<const char*>(dice.server_seed.data()),
                               dice.server_seed.size());
    if (match_->seated(Side::kA)) secrets.entropy_a = dice.entropy_a;
    if (match_->seated(Side::kB)) secrets.entropy_b = dice.entropy_b;
    v1::CommandResult ok;
    ok.set_accepted(true);
    if (match_->entry_count() > before) {
      ok.set_entry(static_cast<std::uint32_t>(before));
      ok.set_event_count(match_->event_count());
      persist_entry(static_cast<std::uint32_t>(before), side, std::nullopt, ok, nullptr,
                    as_done(done), secrets);
      return;
    }
    // The first seat: only the row and the entropy change.
    fill_row();
    store::AppendRequest req;
    req.match_id = id_;
    req.side = rules::index(side);
    req.match_update = row_;
    req.secrets_update = secrets;
    auto flight = std::make_unique<InFlight>();
    flight->side = side;
    flight->result = ok;
    flight->done = as_done(done);
    write(std::move(req), std::move(flight));
  });
}

void MatchHost::submit(Side side, std::optional<std::int64_t> client_seq,
                       const v1::GameCommand& command, const match::Bytes32& command_salt,
                       std::shared_ptr<const Observer> mover, Reply<Submitted> done) {
  act([this, side, client_seq, command, command_salt, mover = std::move(mover),
       done = std::move(done)] {
    if (client_seq) {
      // Every answer of the match was loaded with it: one not here was never given.
      auto it = replies_.find({rules::index(side), *client_seq});
      if (it != replies_.end()) {
        if (!same_command(it->second, command)) {
          return done(rules::RuleError{"match.sequence",
                                       "client_seq " + std::to_string(*client_seq) +
                                           " was already used for another command of this side"});
        }
        return done(Submitted{it->second, std::nullopt});
      }
      // Per side strictly increasing: a number below the last accepted one that is not known
      // is a client that lost count, and applying it would make repeats ambiguous.
      if (const auto last = last_seq(side); last && *client_seq < *last) {
        return done(rules::RuleError{"match.sequence", "client_seq " + std::to_string(*client_seq) +
                                                           " is below this side's last one (" +
                                                           std::to_string(*last) +
                                                           ") and is not one the server knows"});
      }
    }
    if (closed_) return done(closed_refusal(moved_));
    draw_offer_.reset();
    auto decided = match_->submit(side, command, command_salt);
    // A refused command changes nothing; its answer is not stored, so a repeat is checked
    // again (and refused again).
    if (!decided) return done(decided.error());
    v1::CommandResult ok;
    ok.set_accepted(true);
    ok.set_entry(static_cast<std::uint32_t>(*decided));
    ok.set_event_count(match_->event_count());
    persist_entry(static_cast<std::uint32_t>(*decided), side, client_seq, ok, mover, done);
  });
}

std::optional<std::int64_t> MatchHost::last_seq(Side side) const {
  auto it = replies_.lower_bound({rules::index(side) + 1, INT64_MIN});
  if (it == replies_.begin() || std::prev(it)->first.first != rules::index(side)) {
    return std::nullopt;
  }
  return std::prev(it)->first.second;
}

bool MatchHost::same_command(const v1::CommandResult& first, const v1::GameCommand& command) const {
  if (first.entry() >= match_->entry_count()) return false;
  // The log holds the command as the rules decoded it: compared by value, not by bytes.
  return google::protobuf::util::MessageDifferencer::Equivalent(
      match_->log_entry(first.entry()).command(), command);
}

void MatchHost::persist_entry(std::uint32_t entry, Side side,
                              std::optional<std::int64_t> client_seq, v1::CommandResult result,
                              std::shared_ptr<const Observer> mover, Reply<Submitted> done,
                              std::optional<store::Secrets> secrets) {
  const v1::LogEntry e = match_->log_entry(entry);
  store::LogRow lr;
  lr.entry_index = entry;
  lr.kind = static_cast<int>(e.kind());
  lr.side = static_cast<int>(e.side());
  lr.first_event = e.first_event();
  lr.event_count = static_cast<std::uint32_t>(e.events_size());
  lr.entry = e.SerializeAsString();
  for (const auto& s : match_->salts(entry)) {
    lr.salts.push_back({s.event_index, std::string(match::as_view(s.salt))});
  }
  update_deadlines();
  fill_row();
  store::AppendRequest req;
  req.match_id = id_;
  req.side = rules::index(side);
  req.client_seq = client_seq;
  req.entry = std::move(lr);
  req.reply = result.SerializeAsString();
  req.match_update = row_;
  req.secrets_update = std::move(secrets);
  if (options_.snapshot_every > 0 && (entry + 1) % options_.snapshot_every == 0) {
    store::Snapshot snap;
    snap.entry_count = entry + 1;
    snap.event_count = match_->event_count();
    snap.state = match_->snapshot(Viewer::kEveryone).state().SerializeAsString();
    snap.state_hash = std::string(match::as_view(match_->full_state_hash()));
    req.snapshot = std::move(snap);
  }
  turn_after_entry_.push_back(match_->acting().turn);
  events_after_entry_.push_back(match_->event_count());
  auto flight = std::make_unique<InFlight>();
  flight->entry = entry;
  flight->side = side;
  flight->client_seq = client_seq;
  flight->result = std::move(result);
  flight->mover = std::move(mover);
  flight->done = std::move(done);
  write(std::move(req), std::move(flight));
}

void MatchHost::write(store::AppendRequest request, std::unique_ptr<InFlight> in_flight) {
  in_flight_ = std::move(in_flight);
  // The writer thread only hands the outcome back: everything after the commit happens here.
  store_.append(std::move(request), [self = shared_from_this()](store::Status st) {
    self->strand_.post([self, st = std::move(st)] { self->on_committed(st); });
  });
}

void MatchHost::on_committed(const store::Status& status) {
  std::unique_ptr<InFlight> done = std::move(in_flight_);
  if (!status.ok()) {
    // The match in memory is now ahead of the store: it may not go on.
    closed_ = true;
    if (store::is_fenced(status)) {
      spdlog::warn("event=append_fenced match={} error=\"{}\"", id_, status.message);
    } else {
      spdlog::error("event=match_closed match={} reason=store_failed error=\"{}\"", id_,
                    status.message);
    }
    publish();
    done->done(status);
  } else {
    if (done->entry != UINT32_MAX) {
      committed_entries_ = done->entry + 1;
      committed_events_ = events_after_entry_[done->entry];
    }
    if (done->client_seq) replies_[{rules::index(done->side), *done->client_seq}] = done->result;
    legal_[0].reset();
    legal_[1].reset();
    const bool ended_now = match_->outcome() && !record_;
    if (ended_now) {
      if (auto r = match_->record()) record_ = std::make_shared<const v1::MatchRecord>(*r);
      verify_whole_log();
    }
    // What other threads read is the committed match before anyone hears of it (a viewer told
    // of the end may ask for the record at once); then the room hears of the move, then the
    // mover gets his answer (with his own update in it).
    publish();
    std::optional<Update> mover_update = fan_out(Change::kMove, done->mover.get());
    collect_notices();
    done->done(Submitted{done->result, std::move(mover_update)});
    // After the mover's answer (which holds his last update), so that the room's MatchEnded
    // follows every connection's last update.
    if (ended_now && options_.notify) {
      HostNotice n;
      n.kind = HostNotice::Kind::kEnded;
      n.match_id = id_;
      options_.notify(n);
    }
  }
  drain();
  publish();
}

void MatchHost::update_deadlines() {
  const std::int64_t now = clock_.now_ms();
  const std::int64_t per_move = std::int64_t{settings_.time_control().seconds_per_move()} * 1000;
  const rules::Acting act = match_->acting();
  // While the clocks are held, a new deadline starts from the hold: the release adds the time
  // held to it like to the others.
  const std::int64_t from = held_since_.value_or(now);
  auto set = [&](Side s, std::optional<std::int64_t>& deadline) {
    if (per_move == 0 || !act.must_act(s)) {
      deadline.reset();
    } else if (!deadline) {
      deadline = from + per_move;  // from the moment it has to act
    }
  };
  set(Side::kA, row_.deadline_a_ms);
  set(Side::kB, row_.deadline_b_ms);
}

void MatchHost::fill_row() {
  const rules::Acting act = match_->acting();
  row_.to_act = std::string(act.a ? "A" : "") + (act.b ? "B" : "");
  if (auto o = match_->outcome()) {
    row_.status = aborted_ ? store::MatchStatus::kClosed : store::MatchStatus::kFinished;
    v1::Outcome p;
    wire::outcome_to_proto(*o, &p);
    row_.outcome = p.SerializeAsString();
    row_.deadline_a_ms.reset();
    row_.deadline_b_ms.reset();
  } else if (closed_) {
    row_.status = store::MatchStatus::kClosed;
  } else if (match_->seated(Side::kA) && match_->seated(Side::kB)) {
    row_.status = store::MatchStatus::kLive;
  } else {
    row_.status = store::MatchStatus::kOpen;
  }
  row_.updated_ms = clock_.now_ms();
}

void MatchHost::publish() {
  auto s = std::make_shared<Seen>();
  s->row = row_;
  s->acting = match_->acting();
  s->seated[0] = match_->seated(Side::kA);
  s->seated[1] = match_->seated(Side::kB);
  s->ended = closed_ || match_->outcome().has_value();
  s->closed = closed_;
  s->entries = committed_entries_;
  s->events = committed_events_;
  s->spectators = spectator_count();
  for (const Member& m : room_)
    s->watchers += m.observer.expired() ? 0 : 1;
  s->quiet = !in_flight_ && queue_.empty();
  s->record = record_;
  seen_.store(std::move(s));
}

void MatchHost::end_now(match::EndReason reason, Side side, rules::Outcome outcome,
                        Reply<Done> done) {
  if (closed_) return done(closed_refusal(moved_));
  if (auto err = match_->end(reason, side, std::move(outcome))) return done(*err);
  const auto entry = static_cast<std::uint32_t>(match_->entry_count() - 1);
  v1::CommandResult ok;
  ok.set_accepted(true);
  ok.set_entry(entry);
  ok.set_event_count(match_->event_count());
  persist_entry(entry, side, std::nullopt, ok, nullptr, as_done(std::move(done)));
}

void MatchHost::resign(Side side, Reply<Done> done) {
  act([this, side, done = std::move(done)] {
    if (!match_->seated(Side::kA) || !match_->seated(Side::kB)) {
      return done(rules::RuleError{"match.not_started", "the match has not started yet"});
    }
    end_now(match::EndReason::kResigned, side,
            rules::Outcome::win(rules::other(side), side_name(side) + " resigned"), done);
  });
}

void MatchHost::offer_draw(Side side, Reply<Done> done) {
  act([this, side, done = std::move(done)] {
    if (closed_ || match_->outcome() || !match_->seated(rules::other(side))) {
      return done(rules::RuleError{"match.over", "a draw can be offered only in a running match"});
    }
    draw_offer_ = side;
    fan_out(Change::kState);
    done(Done{});
  });
}

void MatchHost::accept_draw(Side side, Reply<Done> done) {
  act([this, side, done = std::move(done)] {
    if (closed_ || match_->outcome()) {
      return done(rules::RuleError{"match.over", "the match is over"});
    }
    if (draw_offer_ != rules::other(side)) {
      return done(rules::RuleError{"match.draw", "your opponent has not offered a draw"});
    }
    draw_offer_.reset();
    end_now(match::EndReason::kDrawAgreed, side, rules::Outcome::draw("draw agreed"), done);
  });
}

void MatchHost::decline_draw(Side side, Reply<Done> done) {
  act([this, side, done = std::move(done)] {
    if (closed_ || match_->outcome()) {
      return done(rules::RuleError{"match.over", "the match is over"});
    }
    if (draw_offer_ != rules::other(side)) {
      return done(rules::RuleError{"match.draw", "your opponent has not offered a draw"});
    }
    draw_offer_.reset();
    fan_out(Change::kState);
    done(Done{});
  });
}

void MatchHost::claim_win(Side side, Reply<Done> done) {
  act([this, side, done = std::move(done)] {
    const Side away = rules::other(side);
    const std::int64_t grace =
        std::int64_t{settings_.time_control().disconnect_grace_seconds()} * 1000;
    const bool live = settings_.time_control().kind() == v1::TimeControl::LIVE;
    if (!live || grace == 0 || connections_[rules::index(away)] > 0 ||
        absent_acting_ms_[rules::index(away)] < grace) {
      return done(rules::RuleError{"match.claim",
                                   "the win can be claimed only after your opponent has been "
                                   "away past the grace period while it had to act"});
    }
    end_now(match::EndReason::kForfeit, away,
            rules::Outcome::win(side, side_name(away) + " left the game"), done);
  });
}

void MatchHost::abort(const std::string& why, Reply<Done> done) {
  act([this, why, done = std::move(done)] {
    aborted_ = true;
    end_now(match::EndReason::kAborted, Side::kA,
            rules::Outcome::draw("ended by an operator: " + why), done);
  });
}

void MatchHost::legal(Side side, Reply<v1::GameLegal> done) {
  act([this, side, done = std::move(done)] {
    const bool over = closed_ || match_->outcome().has_value();
    done(over || !match_->acting().must_act(side) ? v1::GameLegal() : legal_now(side));
  });
}

void MatchHost::reasons(Side side, v1::Piece piece, Reply<v1::PieceReasons> done) {
  act([this, side, piece = std::move(piece), done = std::move(done)] {
    v1::PieceReasons out = match_->reasons(side, piece);
    out.set_event_count(match_->event_count());
    done(std::move(out));
  });
}

const v1::GameLegal& MatchHost::legal_now(Side side) {
  auto& cached = legal_[rules::index(side)];
  if (!cached) cached = match_->legal(side);
  return *cached;
}

void MatchHost::tick() {
  strand_.post([self = shared_from_this()] {
    MatchHost& h = *self;
    const std::int64_t now = h.clock_.now_ms();
    const std::int64_t elapsed = now - h.last_tick_ms_;
    h.last_tick_ms_ = now;
    if (h.count_due_ && !h.in_flight_) h.send_count();
    // Nothing runs out while a command is being committed (the next tick looks again), or
    // while a paused campaign holds the clocks.
    if (h.closed_ || h.match_->outcome() || h.in_flight_ || h.held_since_) return;
    const rules::Acting act = h.match_->acting();
    for (Side s : {Side::kA, Side::kB}) {
      const int i = rules::index(s);
      if (h.connections_[i] == 0 && act.must_act(s)) h.absent_acting_ms_[i] += elapsed;
    }
    for (Side s : {Side::kA, Side::kB}) {
      const auto& deadline = s == Side::kA ? h.row_.deadline_a_ms : h.row_.deadline_b_ms;
      if (deadline && now >= *deadline && act.must_act(s)) {
        spdlog::info("event=deadline_missed match={} side={}", h.id_, rules::side_letter(s));
        h.end_now(match::EndReason::kForfeit, s,
                  rules::Outcome::win(rules::other(s), side_name(s) + " missed its deadline"),
                  [](Answer<Done>) {});
        return;
      }
    }
  });
}

void MatchHost::hold_clocks(bool held, std::int64_t since_ms, Reply<Done> done) {
  act([this, held, since_ms, done = std::move(done)] {
    if (held == held_since_.has_value()) return done(Done{});
    if (held) {
      held_since_ = since_ms;
      return done(Done{});
    }
    const std::int64_t shift = std::max<std::int64_t>(0, clock_.now_ms() - *held_since_);
    held_since_.reset();
    if (closed_ || match_->outcome()) return done(Done{});
    for (auto* deadline : {&row_.deadline_a_ms, &row_.deadline_b_ms}) {
      if (*deadline) **deadline += shift;
    }
    fill_row();
    store::AppendRequest req;
    req.match_id = id_;
    req.match_update = row_;
    auto flight = std::make_unique<InFlight>();
    flight->result.set_accepted(true);
    flight->done = as_done(done);
    write(std::move(req), std::move(flight));
  });
}

void MatchHost::verify_whole_log() {
  if (auto err = match_->verify_from_start()) {
    spdlog::error("event=match_log_does_not_replay match={} error=\"{}\"", id_, *err);
  }
}

void MatchHost::lose() {
  strand_.post([self = shared_from_this()] {
    MatchHost& h = *self;
    h.closed_ = true;
    h.moved_ = true;
    std::vector<Member> room = std::move(h.room_);
    h.room_.clear();
    for (const Member& m : room) {
      if (auto o = m.observer.lock()) o->on_moved();
    }
    h.publish();
  });
}

bool MatchHost::may_leave_memory() const {
  const auto s = seen();
  return s->ended && s->watchers == 0 && s->quiet &&
         clock_.now_ms() - last_used_ms_.load() >= options_.keep_ended_ms;
}

}  // namespace castra::runtime
