// The match runtime's requests and pushes: commands, legal lists, resignations, draws,
// claims, records, and the MatchUpdate stream of every subscribed connection. Service
// thread; the runtime's completions arrive on the store's writer thread and only send frames.
#include <sodium.h>

#include "server/dispatch/handlers.hpp"

namespace castra::dispatch {

namespace v1 = castra::v1;
using server::ErrorCode;
using server::fail;

namespace {

// Sends each MatchUpdate to one connection as a push. Any thread (Connection::send is).
class ConnectionObserver final : public runtime::Observer {
 public:
  ConnectionObserver(std::weak_ptr<net::Connection> connection, std::string match_id)
      : connection_(std::move(connection)), match_id_(std::move(match_id)) {}
  void on_update(const v1::MatchUpdate& update) override {
    auto c = connection_.lock();
    if (!c) return;
    v1::ServerEnvelope e;
    *e.mutable_match_update() = update;
    c->send(frame_of(e));
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
    c->send(frame_of(e));
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

// A match-level refusal as the protocol's error.
server::Failure failure_of(const rules::RuleError& e) {
  if (e.rule == "match.draw") return fail(v1::ERROR_NO_DRAW_OFFER, e.message);
  if (e.rule == "match.claim") return fail(v1::ERROR_CLAIM_TOO_EARLY, e.message);
  if (e.rule == "match.over" || e.rule == "match.closed" || e.rule == "match.not_started") {
    return fail(v1::ERROR_MATCH_NOT_LIVE, e.message);
  }
  return fail(v1::ERROR_INTERNAL, e.message);
}

runtime::MatchHost::Done answer(const Reply& reply) {
  return [reply](std::optional<rules::RuleError> err) {
    if (err) return reply.fail(failure_of(*err));
    reply.ok(done());
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

void Handlers::unwatch(std::uint64_t client_id, const std::string& match_id) {
  auto it = watches_.find({client_id, match_id});
  if (it == watches_.end()) return;
  it->second.host->unsubscribe(it->second.observer.get());
  if (it->second.seat) it->second.host->set_connected(side_of(*it->second.seat), false);
  watches_.erase(it);
}

void Handlers::client_gone(std::uint64_t client_id) {
  for (auto it = watches_.lower_bound({client_id, std::string()});
       it != watches_.end() && it->first.first == client_id;) {
    const std::string match_id = (it++)->first.second;
    unwatch(client_id, match_id);
  }
}

void Handlers::on_notice(const runtime::HostNotice& n) {
  if (!n.account) return;
  v1::ServerEnvelope e;
  e.mutable_your_move()->set_match_id(n.match_id);
  e.mutable_your_move()->set_deadline_ms(n.deadline_ms);
  const auto frame = frame_of(e);
  for (Client* c : s_.clients.of_account(*n.account)) {
    if (watches_.count({c->id, n.match_id}) > 0) continue;  // it has MatchUpdate.your_move
    if (auto conn = c->connection.lock()) conn->send(frame);
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
    if (first && *first) {
      v1::ServerEnvelope e;
      *e.mutable_command_result() = std::move(**first);
      return call.reply.ok(std::move(e));
    }
  }
  if (!host)
    return call.reply.fail(fail(v1::ERROR_MATCH_NOT_LIVE, "this match is not being played"));
  match::Bytes32 salt{};
  randombytes_buf(salt.data(), salt.size());  // used only if the command seals something
  host->submit(side_of(call.side), static_cast<std::int64_t>(r.client_seq()), r.command(), salt,
               [reply = call.reply](v1::CommandResult result) {
                 v1::ServerEnvelope e;
                 *e.mutable_command_result() = std::move(result);
                 reply.ok(std::move(e));
               });
}

void Handlers::get_legal(Call& call) {
  auto host = host_of(call);
  if (!host)
    return call.reply.fail(fail(v1::ERROR_MATCH_NOT_LIVE, "this match is not being played"));
  v1::ServerEnvelope e;
  auto* legal = e.mutable_legal();
  legal->set_match_id(call.match->id);
  *legal->mutable_legal() = host->legal(side_of(call.side));
  legal->set_phase(host->acting().phase);
  legal->set_event_count(host->committed_events());
  call.reply.ok(std::move(e));
}

void Handlers::resign(Call& call) {
  auto host = host_of(call);
  if (!host)
    return call.reply.fail(fail(v1::ERROR_MATCH_NOT_LIVE, "this match is not being played"));
  host->resign(side_of(call.side), answer(call.reply));
}

void Handlers::offer_draw(Call& call) {
  auto host = host_of(call);
  if (!host)
    return call.reply.fail(fail(v1::ERROR_MATCH_NOT_LIVE, "this match is not being played"));
  host->offer_draw(side_of(call.side), answer(call.reply));
}

void Handlers::answer_draw(Call& call) {
  auto host = host_of(call);
  if (!host)
    return call.reply.fail(fail(v1::ERROR_MATCH_NOT_LIVE, "this match is not being played"));
  if (call.request.answer_draw().accept()) {
    host->accept_draw(side_of(call.side), answer(call.reply));
  } else {
    host->decline_draw(side_of(call.side), answer(call.reply));
  }
}

void Handlers::claim_win(Call& call) {
  auto host = host_of(call);
  if (!host)
    return call.reply.fail(fail(v1::ERROR_MATCH_NOT_LIVE, "this match is not being played"));
  host->claim_win(side_of(call.side), answer(call.reply));
}

void Handlers::export_record(Call& call) {
  auto host = loaded_host_of(call);
  if (!host) return call.reply.fail(fail(v1::ERROR_MATCH_NOT_FOUND, "no record of that match"));
  auto record = host->record();
  if (!record) {
    return call.reply.fail(
        fail(v1::ERROR_MATCH_NOT_LIVE, "the record is published when the match has ended"));
  }
  v1::ServerEnvelope e;
  *e.mutable_record() = std::move(*record);
  call.reply.ok(std::move(e));
}

void Handlers::get_snapshot(Call& call) {
  auto host = loaded_host_of(call);
  if (!host) return call.reply.fail(fail(v1::ERROR_MATCH_NOT_FOUND, "no record of that match"));
  rules::Viewer viewer = rules::Viewer::kEveryone;  // an ended match: its record is public
  if (!host->ended()) {
    const store::MatchRow row = host->row();
    const std::int64_t me = call.client.account_id;
    if (me != 0 && row.player_a == me) {
      viewer = rules::Viewer::kSideA;
    } else if (me != 0 && row.player_b == me) {
      viewer = rules::Viewer::kSideB;
    } else {
      return call.reply.fail(
          fail(v1::ERROR_NOT_SEATED, "a running match's past is shown to its players only"));
    }
  }
  auto snapshot = host->snapshot_at(viewer, call.request.get_snapshot().entry_count());
  if (!snapshot) {
    return call.reply.fail(fail(v1::ERROR_INVALID_REQUEST, snapshot.error().message));
  }
  v1::ServerEnvelope e;
  *e.mutable_snapshot() = std::move(*snapshot);
  call.reply.ok(std::move(e));
}

}  // namespace castra::dispatch
