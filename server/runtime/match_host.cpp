#include "server/runtime/match_host.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cassert>
#include <utility>

namespace castra::runtime {

namespace {

std::string side_name(Side s) {
  return std::string("side ") + rules::side_letter(s);
}

v1::CommandResult refused(const rules::RuleError& e) {
  v1::CommandResult r;
  r.set_accepted(false);
  r.mutable_error()->set_rule(e.rule);
  r.mutable_error()->set_message(e.message);
  return r;
}

std::optional<rules::RuleError> error_of(const v1::CommandResult& r) {
  if (r.accepted()) return std::nullopt;
  return rules::RuleError{r.error().rule(), r.error().message()};
}

bool is_player(Viewer v) {
  return v == Viewer::kSideA || v == Viewer::kSideB;
}
Side side_of(Viewer v) {
  return v == Viewer::kSideB ? Side::kB : Side::kA;
}

}  // namespace

MatchHost::MatchHost(std::unique_ptr<wire::AnyMatch> match, store::MatchRow row,
                     v1::MatchSettings settings, store::MatchStore& store, const Clock& clock,
                     HostOptions options)
    : id_(row.id),
      store_(store),
      clock_(clock),
      options_(options),
      settings_(std::move(settings)),
      match_(std::move(match)),
      row_(std::move(row)) {
  last_tick_ms_ = clock_.now_ms();
  last_used_ms_ = last_tick_ms_;
}

store::MatchRow MatchHost::row() const {
  std::lock_guard lock(mu_);
  return row_;
}

bool MatchHost::ended() const {
  std::lock_guard lock(mu_);
  return match_->outcome().has_value();
}

bool MatchHost::seated(Side side) const {
  std::lock_guard lock(mu_);
  return match_->seated(side);
}

rules::Acting MatchHost::acting() const {
  std::lock_guard lock(mu_);
  return match_->acting();
}

std::uint64_t MatchHost::committed_events() const {
  std::lock_guard lock(mu_);
  return committed_events_;
}

v1::Snapshot MatchHost::snapshot(Viewer viewer) const {
  std::lock_guard lock(mu_);
  return match_->snapshot(viewer);
}

v1::GameLegal MatchHost::legal(Side side) const {
  std::lock_guard lock(mu_);
  return match_->legal(side);
}

std::optional<v1::MatchRecord> MatchHost::record() const {
  std::lock_guard lock(mu_);
  last_used_ms_ = clock_.now_ms();
  return match_->record();
}

std::size_t MatchHost::spectators() const {
  std::lock_guard lock(mu_);
  std::size_t n = 0;
  for (const auto& s : subscribers_)
    n += s.viewer == Viewer::kSpectator;
  return n;
}

void MatchHost::act(Op op) {
  Deliveries out;
  {
    std::lock_guard lock(mu_);
    last_used_ms_ = clock_.now_ms();
    run_or_queue(std::move(op), out);
  }
  for (auto& f : out)
    f();
}

void MatchHost::run_or_queue(Op op, Deliveries& out) {
  if (in_flight_) {
    queue_.push_back(std::move(op));
    return;
  }
  op(out);
}

void MatchHost::drain(Deliveries& out) {
  while (!in_flight_ && !queue_.empty()) {
    Op op = std::move(queue_.front());
    queue_.pop_front();
    op(out);
  }
}

void MatchHost::seat(Side side, std::optional<std::int64_t> account, std::string entropy,
                     std::function<void(std::optional<rules::RuleError>)> done) {
  act([this, side, account, entropy = std::move(entropy), done](Deliveries& out) mutable {
    if (closed_) {
      out.push_back([done] { done(rules::RuleError{"match.closed", "the match is closed"}); });
      return;
    }
    const std::size_t before = match_->entry_count();
    if (auto err = match_->seat(side, entropy)) {
      out.push_back([done, e = *err] { done(e); });
      return;
    }
    (side == Side::kA ? row_.player_a : row_.player_b) = account;
    store::Secrets secrets;
    const auto& dice = match_->secrets();
    secrets.server_seed.assign(reinterpret_cast<const char*>(dice.server_seed.data()),
                               dice.server_seed.size());
    if (match_->seated(Side::kA)) secrets.entropy_a = dice.entropy_a;
    if (match_->seated(Side::kB)) secrets.entropy_b = dice.entropy_b;
    auto wrap = [done](v1::CommandResult r) { done(error_of(r)); };
    v1::CommandResult ok;
    ok.set_accepted(true);
    if (match_->entry_count() > before) {
      ok.set_entry(static_cast<std::uint32_t>(before));
      ok.set_event_count(match_->event_count());
      persist_entry(static_cast<std::uint32_t>(before), side, std::nullopt, ok, wrap, secrets);
      return;
    }
    // The first seat: only the row and the entropy change.
    fill_row();
    store::AppendRequest req;
    req.match_id = id_;
    req.side = rules::index(side);
    req.match_update = row_;
    req.secrets_update = secrets;
    in_flight_ = InFlight{committed_entries_, side, std::nullopt, ok, wrap};
    store_.append(std::move(req), [self = shared_from_this()](store::Status st) {
      self->on_committed(UINT32_MAX, st);
    });
  });
}

void MatchHost::submit(Side side, std::optional<std::int64_t> client_seq,
                       const v1::GameCommand& command, const match::Bytes32& command_salt,
                       std::function<void(v1::CommandResult)> done) {
  act([this, side, client_seq, command, command_salt, done](Deliveries& out) {
    if (client_seq) {
      const auto key = std::make_pair(rules::index(side), *client_seq);
      auto it = replies_.find(key);
      if (it == replies_.end()) {
        std::optional<std::string> stored;
        if (store::Status st = store_.find_reply(id_, rules::index(side), *client_seq, &stored);
            !st.ok()) {
          // Without knowing whether it was applied, it must not be applied now.
          out.push_back([done] {
            done(refused({"server.storage",
                          "the server could not check this command; "
                          "send it again"}));
          });
          return;
        }
        v1::CommandResult r;
        if (stored && r.ParseFromString(*stored)) it = replies_.emplace(key, r).first;
      }
      if (it != replies_.end()) {
        out.push_back([done, r = it->second] { done(r); });
        return;
      }
    }
    if (closed_) {
      out.push_back([done] {
        done(refused({"match.closed", "the match is closed; see the server's log"}));
      });
      return;
    }
    draw_offer_.reset();
    auto decided = match_->submit(side, command, command_salt);
    if (!decided) {
      // A refused command changes nothing; its answer is not stored, so a repeat is
      // checked again (and refused again).
      out.push_back([done, r = refused(decided.error())] { done(r); });
      return;
    }
    v1::CommandResult ok;
    ok.set_accepted(true);
    ok.set_entry(static_cast<std::uint32_t>(*decided));
    ok.set_event_count(match_->event_count());
    persist_entry(static_cast<std::uint32_t>(*decided), side, client_seq, ok, done);
  });
}

void MatchHost::persist_entry(std::uint32_t entry, Side side,
                              std::optional<std::int64_t> client_seq, v1::CommandResult result,
                              std::function<void(v1::CommandResult)> done,
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
  in_flight_ = InFlight{entry, side, client_seq, std::move(result), std::move(done)};
  store_.append(std::move(req), [self = shared_from_this(), entry](store::Status st) {
    self->on_committed(entry, st);
  });
}

void MatchHost::on_committed(std::uint32_t entry, const store::Status& status) {
  Deliveries out;
  {
    std::lock_guard lock(mu_);
    assert(in_flight_ && (entry == UINT32_MAX || in_flight_->entry == entry));
    InFlight done = std::move(*in_flight_);
    in_flight_.reset();
    if (!status.ok()) {
      // The match in memory is now ahead of the store: it may not go on.
      closed_ = true;
      spdlog::error("event=match_closed match={} reason=store_failed error=\"{}\"", id_,
                    status.message);
      out.push_back([d = std::move(done.done)] {
        d(refused({"server.storage", "the server could not store this; the match is closed"}));
      });
    } else {
      if (entry != UINT32_MAX) {
        committed_entries_ = entry + 1;
        committed_events_ = events_after_entry_[entry];
      }
      if (done.client_seq) replies_[{rules::index(done.side), *done.client_seq}] = done.result;
      // The room is sent the update before the actor its answer: whatever the actor does
      // next reaches every connection after it.
      collect_updates(&out);
      out.push_back([d = std::move(done.done), r = done.result] { d(r); });
    }
    if (!queue_.empty()) {
      // Queued requests run off the store's writer thread: an append from there could wait
      // on the writer's own full queue.
      options_.post([self = shared_from_this()] {
        Deliveries later;
        {
          std::lock_guard lock(self->mu_);
          self->drain(later);
        }
        for (auto& f : later)
          f();
      });
    }
  }
  for (auto& f : out)
    f();
}

void MatchHost::update_deadlines() {
  const std::int64_t now = clock_.now_ms();
  const std::int64_t per_move = std::int64_t{settings_.time_control().seconds_per_move()} * 1000;
  const rules::Acting act = match_->acting();
  auto set = [&](Side s, std::optional<std::int64_t>& deadline) {
    if (per_move == 0 || !act.must_act(s)) {
      deadline.reset();
    } else if (!deadline) {
      deadline = now + per_move;  // from the moment it has to act
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

void MatchHost::end_now(match::EndReason reason, Side side, rules::Outcome outcome, Done done,
                        Deliveries& out) {
  if (closed_) {
    out.push_back([done] { done(rules::RuleError{"match.closed", "the match is closed"}); });
    return;
  }
  if (auto err = match_->end(reason, side, std::move(outcome))) {
    out.push_back([done, e = *err] { done(e); });
    return;
  }
  const auto entry = static_cast<std::uint32_t>(match_->entry_count() - 1);
  v1::CommandResult ok;
  ok.set_accepted(true);
  ok.set_entry(entry);
  ok.set_event_count(match_->event_count());
  persist_entry(entry, side, std::nullopt, ok, [done](v1::CommandResult r) { done(error_of(r)); });
}

void MatchHost::resign(Side side, Done done) {
  act([this, side, done](Deliveries& out) {
    if (!match_->seated(Side::kA) || !match_->seated(Side::kB)) {
      out.push_back([done] {
        done(rules::RuleError{"match.not_started", "the match has not started yet"});
      });
      return;
    }
    end_now(match::EndReason::kResigned, side,
            rules::Outcome::win(rules::other(side), side_name(side) + " resigned"), done, out);
  });
}

void MatchHost::offer_draw(Side side, Done done) {
  act([this, side, done](Deliveries& out) {
    if (match_->outcome() || !match_->seated(rules::other(side))) {
      out.push_back([done] {
        done(rules::RuleError{"match.draw", "a draw can be offered only in a running match"});
      });
      return;
    }
    draw_offer_ = side;
    collect_updates(&out);
    out.push_back([done] { done(std::nullopt); });
  });
}

void MatchHost::accept_draw(Side side, Done done) {
  act([this, side, done](Deliveries& out) {
    if (draw_offer_ != rules::other(side)) {
      out.push_back([done] {
        done(rules::RuleError{"match.draw", "your opponent has not offered a draw"});
      });
      return;
    }
    draw_offer_.reset();
    end_now(match::EndReason::kDrawAgreed, side, rules::Outcome::draw("draw agreed"), done, out);
  });
}

void MatchHost::decline_draw(Side side, Done done) {
  act([this, side, done](Deliveries& out) {
    if (draw_offer_ != rules::other(side)) {
      out.push_back([done] {
        done(rules::RuleError{"match.draw", "your opponent has not offered a draw"});
      });
      return;
    }
    draw_offer_.reset();
    collect_updates(&out);
    out.push_back([done] { done(std::nullopt); });
  });
}

void MatchHost::claim_win(Side side, Done done) {
  act([this, side, done](Deliveries& out) {
    const Side away = rules::other(side);
    const std::int64_t grace =
        std::int64_t{settings_.time_control().disconnect_grace_seconds()} * 1000;
    const bool live = settings_.time_control().kind() == v1::TimeControl::LIVE;
    if (!live || grace == 0 || connections_[rules::index(away)] > 0 ||
        absent_acting_ms_[rules::index(away)] < grace) {
      out.push_back([done] {
        done(rules::RuleError{"match.claim",
                              "the win can be claimed only after your "
                              "opponent has been away past the grace "
                              "period while it had to act"});
      });
      return;
    }
    end_now(match::EndReason::kForfeit, away,
            rules::Outcome::win(side, side_name(away) + " left the game"), done, out);
  });
}

void MatchHost::abort(const std::string& why, Done done) {
  act([this, why, done](Deliveries& out) {
    aborted_ = true;
    end_now(match::EndReason::kAborted, Side::kA,
            rules::Outcome::draw("ended by an operator: " + why), done, out);
  });
}

void MatchHost::set_connected(Side side, bool connected) {
  Deliveries out;
  {
    std::lock_guard lock(mu_);
    const int i = rules::index(side);
    const bool was = connections_[i] > 0;
    connections_[i] = connected ? connections_[i] + 1 : std::max(0, connections_[i] - 1);
    if (connected) absent_acting_ms_[i] = 0;
    if (was != (connections_[i] > 0) && !closed_ && !match_->outcome()) {
      tell_presence(side, &out);
    }
  }
  for (auto& f : out)
    f();
}

Presence MatchHost::presence(Side side) const {
  const int i = rules::index(side);
  Presence p;
  p.side = side;
  p.connected = connections_[i] > 0;
  const std::int64_t grace =
      std::int64_t{settings_.time_control().disconnect_grace_seconds()} * 1000;
  const bool live = settings_.time_control().kind() == v1::TimeControl::LIVE;
  if (!p.connected && live && grace > 0 && !match_->outcome() && match_->acting().must_act(side)) {
    p.grace_ends_ms = clock_.now_ms() + std::max<std::int64_t>(0, grace - absent_acting_ms_[i]);
  }
  return p;
}

void MatchHost::tell_presence(Side side, Deliveries* out, const Observer* only) {
  const Presence p = presence(side);
  for (const auto& s : subscribers_) {
    auto observer = s.observer.lock();
    if (!observer || (only != nullptr && observer.get() != only)) continue;
    out->push_back([observer, p] { observer->on_presence(p); });
  }
}

void MatchHost::collect_notices(Deliveries* out) {
  const bool over = closed_ || match_->outcome().has_value();
  const rules::Acting act = match_->acting();
  for (Side s : {Side::kA, Side::kB}) {
    const int i = rules::index(s);
    const bool must = !over && act.must_act(s);
    if (must && !told_to_act_[i]) {
      if (options_.notify) {
        HostNotice n;
        n.match_id = id_;
        n.side = s;
        n.account = s == Side::kA ? row_.player_a : row_.player_b;
        n.deadline_ms = (s == Side::kA ? row_.deadline_a_ms : row_.deadline_b_ms).value_or(0);
        out->push_back([notify = options_.notify, n] { notify(n); });
      }
      // Away while it has to act: the grace starts; its opponent learns when it may claim.
      if (connections_[i] == 0) tell_presence(s, out);
    }
    told_to_act_[i] = must;
  }
}

void MatchHost::tick() {
  Deliveries out;
  {
    std::lock_guard lock(mu_);
    const std::int64_t now = clock_.now_ms();
    const std::int64_t elapsed = now - last_tick_ms_;
    last_tick_ms_ = now;
    if (closed_ || match_->outcome() || in_flight_) {
      // Nothing runs out while a command is being committed; the next tick looks again.
    } else {
      const rules::Acting act = match_->acting();
      for (Side s : {Side::kA, Side::kB}) {
        const int i = rules::index(s);
        if (connections_[i] == 0 && act.must_act(s)) absent_acting_ms_[i] += elapsed;
      }
      for (Side s : {Side::kA, Side::kB}) {
        const auto& deadline = s == Side::kA ? row_.deadline_a_ms : row_.deadline_b_ms;
        if (deadline && now >= *deadline && act.must_act(s)) {
          spdlog::info("event=deadline_missed match={} side={}", id_, rules::side_letter(s));
          end_now(
              match::EndReason::kForfeit, s,
              rules::Outcome::win(rules::other(s), side_name(s) + " missed its deadline"),
              [](std::optional<rules::RuleError>) {}, out);
          break;
        }
      }
    }
  }
  for (auto& f : out)
    f();
}

void MatchHost::subscribe(Viewer viewer, std::optional<std::uint64_t> seen_events,
                          std::shared_ptr<Observer> observer) {
  act([this, viewer, seen_events, observer](Deliveries& out) {
    Subscriber s;
    s.viewer = viewer;
    s.observer = observer;
    const std::uint64_t visible = visible_events(s);
    if (seen_events && *seen_events <= visible) {
      s.next_event = *seen_events;  // it has everything before: send only what it missed
      s.needs_snapshot = false;
    }
    subscribers_.push_back(std::move(s));
    collect_updates(&out);
    // The newcomer learns who is here (after its first update, which names the match).
    if (row_.player_a && row_.player_b && !closed_ && !match_->outcome()) {
      tell_presence(Side::kA, &out, observer.get());
      tell_presence(Side::kB, &out, observer.get());
    }
  });
}

void MatchHost::unsubscribe(const Observer* observer) {
  Deliveries out;
  {
    std::lock_guard lock(mu_);
    const auto before = subscribers_.size();
    bool spectator = false;
    std::erase_if(subscribers_, [&](const Subscriber& s) {
      auto o = s.observer.lock();
      const bool gone = !o || o.get() == observer;
      spectator = spectator || (gone && s.viewer == Viewer::kSpectator);
      return gone;
    });
    // The others see the spectator count go down (a player's leaving is a presence change).
    if (spectator && subscribers_.size() < before && !in_flight_) collect_updates(&out);
  }
  for (auto& f : out)
    f();
}

std::uint64_t MatchHost::visible_events(const Subscriber& s) const {
  const std::uint32_t delay = settings_.spectator_delay_turns();
  if (s.viewer != Viewer::kSpectator || delay == 0 || match_->outcome()) return committed_events_;
  const int frontier = match_->acting().turn - static_cast<int>(delay);
  std::uint64_t events = 0;
  for (std::uint32_t i = 0; i < committed_entries_ && i < turn_after_entry_.size(); ++i) {
    if (turn_after_entry_[i] > frontier) break;
    events = events_after_entry_[i];
  }
  return events;
}

bool MatchHost::may_leave_memory() const {
  std::lock_guard lock(mu_);
  const bool ended = closed_ || match_->outcome().has_value();
  const bool watched = std::any_of(subscribers_.begin(), subscribers_.end(),
                                   [](const Subscriber& s) { return !s.observer.expired(); });
  return ended && !watched && !in_flight_ && queue_.empty() &&
         clock_.now_ms() - last_used_ms_ >= options_.keep_ended_ms;
}

rules::Checked<v1::Snapshot> MatchHost::snapshot_at(Viewer viewer, std::uint32_t entries) const {
  std::lock_guard lock(mu_);
  last_used_ms_ = clock_.now_ms();
  if (entries > committed_entries_) {
    return rules::refuse("match.entry", "the match has " + std::to_string(committed_entries_) +
                                            " log entries, not " + std::to_string(entries));
  }
  auto past = rebuild(entries);
  if (!past) return rules::refuse("server.replay", "the match could not be rebuilt");
  return past->snapshot(viewer);
}

std::unique_ptr<wire::AnyMatch> MatchHost::rebuild(std::uint32_t entries) const {
  auto fresh = wire::make_match(
      {id_, match_->scenario(), match_->rules_version(), match_->secrets().server_seed});
  if (!fresh) return nullptr;
  auto& m = **fresh;
  if (entries > 0 && match_->log_entry(0).kind() == v1::ENTRY_START) {
    m.seat(Side::kA, match_->secrets().entropy_a);
    m.seat(Side::kB, match_->secrets().entropy_b);
  }
  for (std::uint32_t i = 0; i < entries; ++i) {
    if (auto err = m.replay(match_->log_entry(i), match_->salts(i))) return nullptr;
  }
  return std::move(*fresh);
}

v1::MatchUpdate MatchHost::status_update(Viewer viewer) const {
  v1::MatchUpdate u;
  u.set_match_id(id_);
  v1::Snapshot status = match_->snapshot(viewer);
  status.clear_state();
  *u.mutable_status() = std::move(status);
  u.set_deadline_a_ms(row_.deadline_a_ms.value_or(0));
  u.set_deadline_b_ms(row_.deadline_b_ms.value_or(0));
  std::uint32_t spectators = 0;
  for (const auto& s : subscribers_)
    spectators += s.viewer == Viewer::kSpectator;
  u.set_spectators(spectators);
  if (draw_offer_) {
    u.set_draw_offered(true);
    u.set_draw_offered_by(wire::side_to_proto(*draw_offer_));
  }
  u.set_spectator_delay_turns(settings_.spectator_delay_turns());
  return u;
}

void MatchHost::collect_updates(Deliveries* out) {
  const bool over = match_->outcome().has_value();
  std::erase_if(subscribers_, [](const Subscriber& s) { return s.observer.expired(); });
  for (auto& s : subscribers_) {
    auto observer = s.observer.lock();
    const std::uint64_t visible = visible_events(s);
    v1::MatchUpdate u = status_update(s.viewer);
    const bool delayed = visible < committed_events_;
    if (s.needs_snapshot) {
      if (delayed) {
        std::uint32_t entries = 0;
        while (entries < events_after_entry_.size() && events_after_entry_[entries] <= visible &&
               entries < committed_entries_) {
          ++entries;
        }
        auto past = rebuild(entries);
        if (past) *u.mutable_snapshot() = past->snapshot(Viewer::kSpectator);
        u.clear_status();
      } else {
        *u.mutable_snapshot() = match_->snapshot(s.viewer);
      }
      s.needs_snapshot = false;
    } else if (visible > s.next_event) {
      for (auto& e : match_->events_for(s.viewer, s.next_event)) {
        if (e.number() >= visible) break;
        *u.add_events() = std::move(e);
      }
    }
    if (delayed) u.clear_status();
    s.next_event = visible;
    if (is_player(s.viewer) && !over) {
      const Side side = side_of(s.viewer);
      if (match_->acting().must_act(side)) {
        *u.mutable_legal() = match_->legal(side);
        u.set_your_move(true);
      }
    }
    if (over && !s.sent_record) {
      if (auto r = match_->record()) *u.mutable_record() = std::move(*r);
      s.sent_record = true;
    }
    out->push_back([observer, u = std::move(u)] { observer->on_update(u); });
  }
  collect_notices(out);
}

std::optional<std::string> MatchHost::restore(const store::Secrets& secrets,
                                              const std::vector<store::LogRow>& log,
                                              const std::optional<store::Snapshot>& snapshot) {
  std::lock_guard lock(mu_);
  // Seating re-makes the opening entry, which the loop below then checks in place.
  if (secrets.entropy_a) match_->seat(Side::kA, *secrets.entropy_a);
  if (secrets.entropy_b) match_->seat(Side::kB, *secrets.entropy_b);
  for (const auto& row : log) {
    v1::LogEntry entry;
    if (!entry.ParseFromString(row.entry)) {
      closed_ = true;
      return "entry " + std::to_string(row.entry_index) + " is not a log entry";
    }
    std::vector<wire::SealSalt> salts;
    for (const auto& s : row.salts) {
      wire::SealSalt salt;
      salt.event_index = s.event_index;
      if (s.salt.size() == salt.salt.size()) {
        std::copy(s.salt.begin(), s.salt.end(), salt.salt.begin());
      }
      salts.push_back(salt);
    }
    if (auto err = match_->replay(entry, salts)) {
      closed_ = true;
      return *err;
    }
    turn_after_entry_.push_back(match_->acting().turn);
    events_after_entry_.push_back(match_->event_count());
    if (snapshot && snapshot->entry_count == match_->entry_count() &&
        snapshot->state_hash != std::string(match::as_view(match_->full_state_hash()))) {
      closed_ = true;
      return "the state after entry " + std::to_string(row.entry_index) +
             " does not hash to its stored snapshot";
    }
  }
  committed_entries_ = static_cast<std::uint32_t>(match_->entry_count());
  committed_events_ = match_->event_count();
  return std::nullopt;
}

}  // namespace castra::runtime
