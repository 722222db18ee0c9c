// The match runtime's requests and pushes: commands, legal lists, resignations, draws,
// claims, records, and the MatchUpdate stream of every subscribed connection. Service
// thread; the runtime's answers and updates arrive on the match's strand and only send frames.
#include <sodium.h>
#include <spdlog/spdlog.h>

#include "server/dispatch/handlers.hpp"
#include "server/lobby/shared.hpp"

namespace castra::dispatch {

namespace v1 = castra::v1;
using server::fail;

namespace {

// Sends each update's shared frame to one connection as a push. On the match's strand;
// Connection::send only queues.
class ConnectionObserver final : public runtime::Observer {
 public:
  ConnectionObserver(std::weak_ptr<net::Connection> connection, std::string match_id)
      : connection_(std::move(connection)), match_id_(std::move(match_id)) {}
  void on_update(const runtime::Update& update) override {
    if (auto c = connection_.lock()) c->send(update.frames->in(c->encoding()));
  }
  void on_moved() override {
    auto c = connection_.lock();
    if (!c) return;
    v1::ServerEnvelope e;
    e.mutable_notice()->set_code(v1::ERROR_MATCH_ELSEWHERE);
    e.mutable_notice()->set_match_id(match_id_);
    e.mutable_notice()->set_text(
        "this node no longer hosts the match; subscribe again to be told where it is");
    c->send(frame_of(e, c->encoding()));
  }
  void on_presence(const runtime::Presence& p) override {
    auto c = connection_.lock();
    if (!c) return;
    v1::ServerEnvelope e;
    auto* out = e.mutable_presence();
    out->set_match_id(match_id_);
    out->set_side(p.side == rules::Side::kA ? v1::SIDE_A : v1::SIDE_B);
    out->set_connected(p.connected);
    out->set_grace_ends_ms(p.grace_ends_ms);
    c->send(frame_of(e, c->encoding()));
  }

 private:
  std::weak_ptr<net::Connection> connection_;
  std::string match_id_;
};

v1::ServerEnvelope done() {
  v1::ServerEnvelope e;
  e.mutable_done();
  return e;
}

// A match-level refusal as the protocol's error: still the player's (or the match's) matter,
// never an internal one.
server::Failure failure_of(const rules::RuleError& e) {
  if (e.rule == "match.draw") return fail(v1::ERROR_NO_DRAW_OFFER, e.message);
  if (e.rule == "match.claim") return fail(v1::ERROR_CLAIM_TOO_EARLY, e.message);
  if (e.rule == "match.moved") {
    return fail(v1::ERROR_MATCH_ELSEWHERE, e.message + "; ask again", 500);
  }
  if (e.rule == "match.over" || e.rule == "match.closed" || e.rule == "match.not_started") {
    return fail(v1::ERROR_MATCH_NOT_LIVE, e.message);
  }
  return fail(v1::ERROR_INVALID_REQUEST, e.message + " (" + e.rule + ")");
}

// The store could not make the request durable: the server's failure, logged, and said so.
server::Failure storage_failure(const store::Status& st, const char* what) {
  if (store::is_fenced(st)) return lobby::moved_failure(st);
  spdlog::error("event=storage_failed request={} error=\"{}\"", what, st.message);
  return fail(v1::ERROR_INTERNAL, "the server could not store this; the match is closed");
}

// Replies to an answer that is not a value; false (nothing sent) when it is one.
template <class T>
bool failed(const Reply& reply, const runtime::Answer<T>& a, const char* what) {
  if (a.ok()) return false;
  if (const auto* r = a.refusal()) {
    reply.fail(failure_of(*r));
  } else {
    reply.fail(storage_failure(*a.storage_failure(), what));
  }
  return true;
}

runtime::MatchHost::Reply<runtime::Done> answer(const Reply& reply, const char* what) {
  return [reply, what](runtime::Answer<runtime::Done> a) {
    if (!failed(reply, a, what)) reply.ok(done());
  };
}

rules::Side side_of(int seat) {
  return seat == 1 ? rules::Side::kB : rules::Side::kA;
}

}  // namespace

std::shared_ptr<runtime::MatchHost> Handlers::host_of(const Call& call) {
  if (s_.play == nullptr || !call.match) return nullptr;
  return s_.play->find(call.match->id);
}

std::shared_ptr<runtime::MatchHost> Handlers::loaded_host_of(const Call& call) {
  auto host = host_of(call);
  if (!host && s_.play != nullptr && call.match) host = s_.play->load(call.match->id);
  return host;
}

void Handlers::watch(Client& client, const store::MatchRow& row, std::optional<int> seat,
                     std::optional<std::uint64_t> seen_events) {
  if (s_.play == nullptr) return;
  auto host = s_.play->find(row.id);
  // An ended match out of memory comes back for its room: its last picture and its record.
  if (!host && row.status == store::MatchStatus::kFinished) host = s_.play->load(row.id);
  if (!host) return;
  // Counted in before the connection's previous watch is counted out: re-subscribing is not
  // leaving, and the room hears nothing of it.
  if (seat) host->set_connected(side_of(*seat), true);
  unwatch(client.id, row.id);
  auto observer = std::make_shared<ConnectionObserver>(client.connection, row.id);
  const rules::Viewer viewer = seat ? rules::viewer_of(side_of(*seat)) : rules::Viewer::kSpectator;
  watches_[{client.id, row.id}] = Watch{observer, host, seat};
  host->subscribe(viewer, seen_events, observer);
}

void Handlers::seated(std::int64_t account, const store::MatchRow& row) {
  const auto seat = lobby::seat_of(row, account);
  if (!seat) return;
  for (Client* c : s_.clients.of_account(account)) {
    auto it = watches_.find({c->id, row.id});
    if (it == watches_.end() || it->second.seat) continue;
    RoomMember member;
    member.role = v1::ROLE_PLAYER;
    member.side = *seat;
    s_.clients.enter(*c, row.id, member);
    // A new watch as the player: its first update brings the side's board and legal list.
    watch(*c, row, seat, std::nullopt);
  }
}

void Handlers::unwatch(std::uint64_t client_id, const std::string& match_id) {
  auto it = watches_.find({client_id, match_id});
  if (it == watches_.end()) return;
  it->second.host->unsubscribe(it->second.observer);
  if (it->second.seat) it->second.host->set_connected(side_of(*it->second.seat), false);
  watches_.erase(it);
}

void Handlers::client_gone(std::uint64_t client_id) {
  for (auto it = watches_.lower_bound({client_id, std::string()});
       it != watches_.end() && it->first.first == client_id;) {
    const std::string match_id = (it++)->first.second;
    unwatch(client_id, match_id);
  }
  campaign_client_gone(client_id);
}

void Handlers::on_notice(const runtime::HostNotice& n) {
  if (n.kind == runtime::HostNotice::Kind::kEnded) {
    announce_ended(n.match_id);
    if (s_.campaigns != nullptr) s_.campaigns->battle_ended(n.match_id);
    return;
  }
  if (!n.account) return;
  if (s_.campaigns != nullptr && s_.clients.of_account(*n.account).empty()) {
    s_.campaigns->battle_move_due(n.match_id, *n.account, n.deadline_ms);
  }
  v1::ServerEnvelope e;
  e.mutable_your_move()->set_match_id(n.match_id);
  e.mutable_your_move()->set_deadline_ms(n.deadline_ms);
  const auto frames = frames_of(std::move(e));
  for (Client* c : s_.clients.of_account(*n.account)) {
    if (watches_.count({c->id, n.match_id}) > 0) continue;  // it has MatchUpdate.your_move
    if (auto conn = c->connection.lock()) conn->send(frames->in(conn->encoding()));
  }
}

void Handlers::remote_match_changed(const std::string& match_id) {
  if (auto row = s_.lobby.find(match_id)) push_match_updated(*row, 0);
}

void Handlers::remote_your_move(const std::string& match_id, std::int64_t account,
                                std::int64_t deadline_ms) {
  v1::ServerEnvelope e;
  e.mutable_your_move()->set_match_id(match_id);
  e.mutable_your_move()->set_deadline_ms(deadline_ms);
  const auto frames = frames_of(std::move(e));
  for (Client* c : s_.clients.of_account(account)) {
    if (auto conn = c->connection.lock()) conn->send(frames->in(conn->encoding()));
  }
}

void Handlers::announce_ended(const std::string& match_id) {
  auto host = s_.play != nullptr ? s_.play->find(match_id) : nullptr;
  const auto record = host ? host->seen()->record : nullptr;
  if (!record || record->entries_size() == 0) return;
  const v1::LogEntry& last = record->entries(record->entries_size() - 1);
  // An operator's end is announced by the admin command, with the operator's reason.
  if (last.end_reason() == v1::END_ABORTED) return;
  v1::ServerEnvelope e;
  auto* ended = e.mutable_match_ended();
  ended->set_match_id(match_id);
  ended->set_status(v1::MATCH_FINISHED);
  *ended->mutable_outcome() = record->outcome();
  // EndReason names only the acts that end a match; an end by the rules (its last entry a
  // command) leaves it at its default, and the outcome's reason says why.
  if (last.kind() == v1::ENTRY_END) ended->set_reason(last.end_reason());
  ended->set_server_seed(record->server_seed());
  ended->set_message(record->outcome().reason());
  const auto frames = frames_of(std::move(e));
  for (const auto& [client_id, member] : s_.clients.room(match_id)) {
    if (Client* c = s_.clients.find(client_id)) {
      if (auto conn = c->connection.lock()) conn->send(frames->in(conn->encoding()));
    }
  }
}

void Handlers::submit_command(Call& call) {
  const auto& r = call.request.submit_command();
  auto host = host_of(call);
  if (!host && s_.play != nullptr && call.match) {
    // A match that ended and is no longer in memory still answers a repeated command with
    // its first answer: the client may have lost that answer in a disconnect or a restart.
    auto first = s_.play->first_answer(call.match->id, side_of(call.side),
                                       static_cast<std::int64_t>(r.client_seq()));
    if (failed(call.reply, first, "first_answer")) return;
    if (first.value()) {
      v1::ServerEnvelope e;
      *e.mutable_command_result() = std::move(*first.value());
      return call.reply.ok(std::move(e));
    }
  }
  if (!host)
    return call.reply.fail(fail(v1::ERROR_MATCH_NOT_LIVE, "this match is not being played"));
  match::Bytes32 salt{};
  randombytes_buf(salt.data(), salt.size());  // used only if the command seals something
  // The sender's own connection gets the room's update in the frame of its answer.
  auto w = watches_.find({call.client.id, call.match->id});
  std::shared_ptr<const runtime::Observer> mover;
  if (w != watches_.end()) mover = w->second.observer;
  host->submit(side_of(call.side), static_cast<std::int64_t>(r.client_seq()), r.command(), salt,
               mover, [reply = call.reply](runtime::Answer<runtime::Submitted> a) {
                 v1::ServerEnvelope e;
                 if (const auto* refusal = a.refusal();
                     refusal && refusal->rule == "match.sequence") {
                   // The client's numbering, not the game: an error of the request.
                   return reply.fail(fail(v1::ERROR_SEQUENCE_GAP, refusal->message));
                 }
                 if (const auto* refusal = a.refusal(); refusal && refusal->rule == "match.moved") {
                   // Not the game's answer: another node decides this command.
                   return reply.fail(failure_of(*refusal));
                 }
                 if (const auto* refusal = a.refusal()) {
                   // A rule's refusal is the command's answer, not an error of the request.
                   auto* result = e.mutable_command_result();
                   result->set_accepted(false);
                   result->mutable_error()->set_rule(refusal->rule);
                   result->mutable_error()->set_message(refusal->message);
                   return reply.ok(std::move(e));
                 }
                 if (failed(reply, a, "submit_command")) return;
                 *e.mutable_command_result() = a->result;
                 if (a->mover_update) *e.mutable_match_update_first() = *a->mover_update->message;
                 reply.ok(std::move(e));
               });
}

void Handlers::get_legal(Call& call) {
  auto host = host_of(call);
  if (!host)
    return call.reply.fail(fail(v1::ERROR_MATCH_NOT_LIVE, "this match is not being played"));
  host->legal(side_of(call.side),
              [reply = call.reply, host, id = call.match->id](runtime::Answer<v1::GameLegal> a) {
                if (failed(reply, a, "get_legal")) return;
                const auto seen = host->seen();
                v1::ServerEnvelope e;
                auto* legal = e.mutable_legal();
                legal->set_match_id(id);
                *legal->mutable_legal() = a.value();
                legal->set_phase(seen->acting.phase);
                legal->set_event_count(seen->events);
                reply.ok(std::move(e));
              });
}

void Handlers::get_reasons(Call& call) {
  auto host = host_of(call);
  if (!host)
    return call.reply.fail(fail(v1::ERROR_MATCH_NOT_LIVE, "this match is not being played"));
  host->reasons(side_of(call.side), call.request.get_reasons().piece(),
                [reply = call.reply, id = call.match->id](runtime::Answer<v1::PieceReasons> a) {
                  if (failed(reply, a, "get_reasons")) return;
                  v1::ServerEnvelope e;
                  *e.mutable_reasons() = a.value();
                  e.mutable_reasons()->set_match_id(id);
                  reply.ok(std::move(e));
                });
}

void Handlers::resign(Call& call) {
  auto host = host_of(call);
  if (!host)
    return call.reply.fail(fail(v1::ERROR_MATCH_NOT_LIVE, "this match is not being played"));
  host->resign(side_of(call.side), answer(call.reply, "resign"));
}

void Handlers::offer_draw(Call& call) {
  auto host = host_of(call);
  if (!host)
    return call.reply.fail(fail(v1::ERROR_MATCH_NOT_LIVE, "this match is not being played"));
  host->offer_draw(side_of(call.side), answer(call.reply, "offer_draw"));
}

void Handlers::answer_draw(Call& call) {
  auto host = host_of(call);
  if (!host)
    return call.reply.fail(fail(v1::ERROR_MATCH_NOT_LIVE, "this match is not being played"));
  if (call.request.answer_draw().accept()) {
    host->accept_draw(side_of(call.side), answer(call.reply, "accept_draw"));
  } else {
    host->decline_draw(side_of(call.side), answer(call.reply, "decline_draw"));
  }
}

void Handlers::claim_win(Call& call) {
  auto host = host_of(call);
  if (!host)
    return call.reply.fail(fail(v1::ERROR_MATCH_NOT_LIVE, "this match is not being played"));
  host->claim_win(side_of(call.side), answer(call.reply, "claim_win"));
}

std::optional<server::Failure> Handlers::past_refused(const Call& call) {
  const store::MatchRow& row = *call.match;
  const std::int64_t me = call.client.account_id;
  if (me != 0 && (row.player_a == me || row.player_b == me)) return std::nullopt;
  // The rule of SubscribeMatch, whose room is sent the record at the end: a match's past is
  // its players' and its spectators'. These requests carry no invitation code, so a private
  // match's spectators read it through the room.
  if (!s_.lobby.settings_of(row).spectators_allowed()) {
    return fail(v1::ERROR_SPECTATORS_NOT_ALLOWED, "this match does not allow spectators");
  }
  if (!s_.lobby.invitation_ok(row, "")) {
    return fail(v1::ERROR_BAD_INVITATION,
                "a private match's past is read by its players, or in its room with its code");
  }
  return std::nullopt;
}

void Handlers::export_record(Call& call) {
  if (auto refused = past_refused(call)) return call.reply.fail(*refused);
  auto host = loaded_host_of(call);
  if (!host) return call.reply.fail(fail(v1::ERROR_MATCH_NOT_FOUND, "no record of that match"));
  const auto record = host->seen()->record;
  if (!record) {
    return call.reply.fail(
        fail(v1::ERROR_MATCH_NOT_LIVE, "the record is published when the match has ended"));
  }
  v1::ServerEnvelope e;
  *e.mutable_record() = *record;
  call.reply.ok(std::move(e));
}

void Handlers::get_snapshot(Call& call) {
  auto host = loaded_host_of(call);
  if (!host) return call.reply.fail(fail(v1::ERROR_MATCH_NOT_FOUND, "no record of that match"));
  rules::Viewer viewer = rules::Viewer::kEveryone;  // an ended match: its record is public
  const auto seen = host->seen();
  if (seen->ended) {
    if (auto refused = past_refused(call)) return call.reply.fail(*refused);
  } else {
    const std::int64_t me = call.client.account_id;
    if (me != 0 && seen->row.player_a == me) {
      viewer = rules::Viewer::kSideA;
    } else if (me != 0 && seen->row.player_b == me) {
      viewer = rules::Viewer::kSideB;
    } else {
      return call.reply.fail(
          fail(v1::ERROR_NOT_SEATED,
               "the past of a match that has not ended is shown to its players only"));
    }
  }
  auto answer = [reply = call.reply](runtime::Answer<v1::Snapshot> a) {
    if (failed(reply, a, "get_snapshot")) return;
    v1::ServerEnvelope e;
    *e.mutable_snapshot() = std::move(a.value());
    reply.ok(std::move(e));
  };
  const auto& asked = call.request.get_snapshot();
  if (asked.has_event_count()) {
    host->snapshot_at_event(viewer, asked.event_count(), std::move(answer));
  } else {
    host->snapshot_at(viewer, asked.entry_count(), std::move(answer));
  }
}

}  // namespace castra::dispatch
