// MatchHost's room: who watches the match, as what, and what each is sent. Every update after
// a move carries the viewer's board; viewers who see the same thing (all undelayed spectators,
// all connections of one side, all spectators at the same delay) share one update and one
// frame per encoding (binary, JSON), so a command costs one picture per kind of viewer, one
// encoding per kind of viewer and encoding in use, and one socket write per viewer. Joining and
// leaving tell the rest of the room only the spectator count, at most once a tick. All on the
// match's strand.
#include <map>
#include <tuple>

#include "proto/castra/v1/protocol.pb.h"
#include "server/runtime/match_host.hpp"

namespace castra::runtime {

namespace {

bool is_player(Viewer v) {
  return v == Viewer::kSideA || v == Viewer::kSideB;
}
Side side_of(Viewer v) {
  return v == Viewer::kSideB ? Side::kB : Side::kA;
}

// The update and the push that carries it, built together: the message lives inside the
// envelope it is sent in, encoded once per encoding.
struct Draft {
  std::shared_ptr<v1::ServerEnvelope> envelope = std::make_shared<v1::ServerEnvelope>();
  v1::MatchUpdate* message = envelope->mutable_match_update();
  Update done() const {
    return Update{std::shared_ptr<const v1::MatchUpdate>(envelope, message),
                  std::make_shared<const server::Frames>(envelope)};
  }
};

}  // namespace

void MatchHost::subscribe(Viewer viewer, std::optional<std::uint64_t> seen_events,
                          std::shared_ptr<Observer> observer) {
  act([this, viewer, seen_events, observer = std::move(observer)] {
    Member m;
    m.viewer = viewer;
    m.observer = observer;
    const std::uint64_t visible = visible_events(m);
    // Its board comes with its first update; the events it missed, for its log, if it says
    // what it has.
    m.next_event = seen_events && *seen_events <= visible ? *seen_events : visible;
    if (viewer == Viewer::kSpectator) count_due_ = true;
    // Only the newcomer is owed anything now, so it alone is sent: a pass over the room per
    // subscriber made a room's set-up quadratic in its spectators.
    room_.push_back(std::move(m));
    Member& newcomer = room_.back();
    const bool record = record_ != nullptr;
    const Update welcome = make_update(newcomer, visible, /*board=*/true, record);
    newcomer.next_event = visible;
    newcomer.sent_record = record;
    observer->on_update(welcome);
    // The newcomer learns who is here (after its first update, which names the match).
    if (match_->seated(Side::kA) && match_->seated(Side::kB) && !closed_ && !match_->outcome()) {
      observer->on_presence(presence(Side::kA));
      observer->on_presence(presence(Side::kB));
    }
    publish();
  });
}

void MatchHost::unsubscribe(std::shared_ptr<const Observer> observer) {
  act([this, observer = std::move(observer)] {
    std::erase_if(room_, [&](const Member& m) {
      auto o = m.observer.lock();
      const bool gone = !o || o == observer;
      count_due_ = count_due_ || (gone && m.viewer == Viewer::kSpectator);
      return gone;
    });
    publish();
  });
}

void MatchHost::set_connected(Side side, bool connected) {
  act([this, side, connected] {
    const int i = rules::index(side);
    const bool was = connections_[i] > 0;
    connections_[i] = connected ? connections_[i] + 1 : std::max(0, connections_[i] - 1);
    if (connected) absent_acting_ms_[i] = 0;
    if (was != (connections_[i] > 0) && !closed_ && !match_->outcome()) tell_presence(side);
  });
}

std::uint64_t MatchHost::visible_events(const Member& m) const {
  const std::uint32_t delay = settings_.spectator_delay_turns();
  if (m.viewer != Viewer::kSpectator || delay == 0 || match_->outcome()) return committed_events_;
  const int frontier = match_->acting().turn - static_cast<int>(delay);
  std::uint64_t events = 0;
  for (std::uint32_t i = 0; i < committed_entries_ && i < turn_after_entry_.size(); ++i) {
    if (turn_after_entry_[i] > frontier) break;
    events = events_after_entry_[i];
  }
  return events;
}

std::uint32_t MatchHost::spectator_count() const {
  std::uint32_t n = 0;
  for (const Member& m : room_)
    n += m.viewer == Viewer::kSpectator && !m.observer.expired();
  return n;
}

v1::Snapshot MatchHost::picture(Viewer viewer, std::uint64_t visible) const {
  if (visible >= committed_events_) return match_->snapshot(viewer);
  // A delayed spectator: the board after the last entry it may see.
  std::uint32_t entries = 0;
  while (entries < committed_entries_ && events_after_entry_[entries] <= visible)
    ++entries;
  auto past = match_->snapshot_after(entries, Viewer::kSpectator);
  return past ? std::move(*past) : v1::Snapshot();
}

Update MatchHost::make_update(const Member& m, std::uint64_t visible, bool board, bool record) {
  Draft d;
  v1::MatchUpdate& u = *d.message;
  u.set_match_id(id_);
  const bool delayed = visible < committed_events_;
  if (board) *u.mutable_snapshot() = picture(m.viewer, visible);
  if (visible > m.next_event) {
    for (auto& e : match_->events_for(m.viewer, m.next_event)) {
      if (e.number() >= visible) break;
      *u.add_events() = std::move(e);
    }
  }
  u.set_spectators(spectator_count());
  u.set_spectator_delay_turns(settings_.spectator_delay_turns());
  if (!delayed) {
    // A delayed spectator sees neither the clocks nor the offers of the present.
    u.set_deadline_a_ms(row_.deadline_a_ms.value_or(0));
    u.set_deadline_b_ms(row_.deadline_b_ms.value_or(0));
    if (draw_offer_) {
      u.set_draw_offered(true);
      u.set_draw_offered_by(wire::side_to_proto(*draw_offer_));
    }
  }
  const bool over = closed_ || match_->outcome().has_value();
  if (is_player(m.viewer) && !over && match_->acting().must_act(side_of(m.viewer))) {
    *u.mutable_legal() = legal_now(side_of(m.viewer));
    u.set_your_move(true);
  }
  if (record && record_) *u.mutable_record() = *record_;
  return d.done();
}

std::optional<Update> MatchHost::fan_out(Change change, const Observer* mover) {
  std::erase_if(room_, [](const Member& m) { return m.observer.expired(); });
  // Members who would be sent the same update share it: same viewer, same events owed, same
  // board, same record owed.
  using Key = std::tuple<Viewer, std::uint64_t, std::uint64_t, bool, bool>;
  std::map<Key, Update> made;
  std::optional<Update> mover_update;
  for (Member& m : room_) {
    auto observer = m.observer.lock();
    const std::uint64_t visible = visible_events(m);
    const bool delayed = visible < committed_events_;
    const bool advanced = visible > m.next_event;
    const bool record = record_ && !m.sent_record;
    bool board = false;
    switch (change) {
      case Change::kMove:
        board = !delayed || advanced;
        if (!board && !record) continue;
        break;
      case Change::kState:
        if (delayed) continue;
        break;
    }
    const Key key{m.viewer, m.next_event, visible, board, record};
    auto it = made.find(key);
    if (it == made.end()) it = made.emplace(key, make_update(m, visible, board, record)).first;
    m.next_event = visible;
    m.sent_record = m.sent_record || record;
    if (mover != nullptr && observer.get() == mover) {
      mover_update = it->second;
    } else {
      observer->on_update(it->second);
    }
  }
  return mover_update;
}

void MatchHost::send_count() {
  count_due_ = false;
  Draft d;
  d.message->set_match_id(id_);
  d.message->set_spectators(spectator_count());
  const Update u = d.done();
  for (const Member& m : room_) {
    if (auto o = m.observer.lock()) o->on_update(u);
  }
  publish();
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

void MatchHost::tell_presence(Side side) {
  const Presence p = presence(side);
  for (const Member& m : room_) {
    if (auto observer = m.observer.lock()) observer->on_presence(p);
  }
}

void MatchHost::collect_notices() {
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
        options_.notify(n);
      }
      // Away while it has to act: the grace starts; its opponent learns when it may claim.
      if (connections_[i] == 0) tell_presence(s);
    }
    told_to_act_[i] = must;
  }
}

}  // namespace castra::runtime
