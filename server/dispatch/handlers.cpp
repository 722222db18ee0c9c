#include "server/dispatch/handlers.hpp"

#include <sodium.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/match/crypto.hpp"

namespace castra::dispatch {

namespace v1 = castra::v1;
using server::ErrorCode;
using server::fail;
using server::Result;

namespace {

constexpr int kDefaultListLimit = 50;
constexpr int kChatOnSubscribe = 50;

int limit_or_default(std::uint32_t limit) {
  return limit == 0 ? kDefaultListLimit : static_cast<int>(limit);
}

v1::MatchStatus status_of(store::MatchStatus status) {
  switch (status) {
    case store::MatchStatus::kOpen:
      return v1::MATCH_OPEN;
    case store::MatchStatus::kLive:
      return v1::MATCH_LIVE;
    case store::MatchStatus::kFinished:
      return v1::MATCH_FINISHED;
    case store::MatchStatus::kClosed:
      return v1::MATCH_CLOSED;
  }
  return v1::MATCH_STATUS_UNSPECIFIED;
}

store::MatchStatus status_from(v1::MatchStatus status) {
  switch (status) {
    case v1::MATCH_OPEN:
      return store::MatchStatus::kOpen;
    case v1::MATCH_LIVE:
      return store::MatchStatus::kLive;
    case v1::MATCH_FINISHED:
      return store::MatchStatus::kFinished;
    default:
      return store::MatchStatus::kClosed;
  }
}

v1::ChatLine to_wire(const lobby::ChatLine& line) {
  v1::ChatLine out;
  out.set_id(line.id);
  out.set_match_id(line.match_id);
  out.set_channel(static_cast<v1::ChatChannel>(line.channel));
  out.set_author(line.author);
  out.set_text(line.text);
  out.set_sent_ms(line.sent_ms);
  return out;
}

v1::ServerEnvelope done_envelope() {
  v1::ServerEnvelope e;
  e.mutable_done();
  return e;
}

// What a client says about itself, made safe for logs and the admin's list: printable ASCII,
// no quotes, at most 64 characters.
std::string printable(const std::string& text) {
  std::string out;
  for (char c : text.substr(0, 64))
    out += (c >= 0x20 && c < 0x7f && c != '"') ? c : '?';
  return out;
}

std::string guest_name() {
  unsigned char raw[4];
  randombytes_buf(raw, sizeof raw);
  return "guest-" + match::to_hex(std::string_view(reinterpret_cast<char*>(raw), sizeof raw));
}

}  // namespace

v1::MatchSummary Handlers::summary(const store::MatchRow& row, std::int64_t viewer) {
  v1::MatchSummary out;
  out.set_match_id(row.id);
  out.set_ruleset(row.ruleset);
  out.set_rules_version(row.rules_version);
  out.set_scenario(row.scenario_name);
  out.set_status(status_of(row.status));
  v1::MatchSettings settings = s_.lobby.settings_of(row);
  out.set_is_private(!settings.invitation_code().empty());
  const bool creator = row.creator && *row.creator == viewer && viewer != 0;
  if (!creator) settings.clear_invitation_code();
  *out.mutable_settings() = settings;
  if (row.creator) out.set_creator(s_.accounts.name_of(*row.creator));
  if (row.player_a) out.set_player_a(s_.accounts.name_of(*row.player_a));
  if (row.player_b) out.set_player_b(s_.accounts.name_of(*row.player_b));
  // The computer's seat has no account: it is named, and settings.computer says what it is.
  if (settings.computer() != v1::COMPUTER_NONE) {
    const std::string name = lobby::computer_name(settings.computer());
    lobby::computer_side(settings) == 0 ? out.set_player_a(name) : out.set_player_b(name);
  }
  out.set_a_to_act(lobby::to_act(row, 0));
  out.set_b_to_act(lobby::to_act(row, 1));
  out.set_deadline_a_ms(row.deadline_a_ms.value_or(0));
  out.set_deadline_b_ms(row.deadline_b_ms.value_or(0));
  out.set_dice_commitment(match::to_hex(std::string_view(row.dice_commitment)));
  if (row.outcome) out.mutable_outcome()->ParseFromString(*row.outcome);
  out.set_created_ms(row.created_ms);
  out.set_updated_ms(row.updated_ms);
  if (viewer != 0) {
    if (const auto side = lobby::seat_of(row, viewer)) {
      out.set_seated(true);
      out.set_my_side(*side == 0 ? v1::SIDE_A : v1::SIDE_B);
      out.set_my_move(row.status == store::MatchStatus::kLive && lobby::to_act(row, *side));
    } else if (creator) {
      out.set_my_side(lobby::creator_side(settings) == 0 ? v1::SIDE_A : v1::SIDE_B);
    }
  }
  return out;
}

// ---- Session ------------------------------------------------------------------------------

void Handlers::hello(Call& call) {
  const auto& hello = call.request.hello();
  if (call.client.greeted) {
    return call.reply.fail(fail(v1::ERROR_ALREADY_GREETED, "Hello comes once per connection"));
  }
  if (hello.major() != static_cast<std::uint32_t>(v1::PROTOCOL_MAJOR)) {
    spdlog::info("event=version_refused connection={} client_major={} client=\"{}\"",
                 call.client.id, hello.major(), printable(hello.client()));
    return call.reply.fail_and_close(
        fail(v1::ERROR_VERSION_UNSUPPORTED,
             "this server speaks protocol " + std::to_string(v1::PROTOCOL_MAJOR) + ".x; you sent " +
                 std::to_string(hello.major()) + "." + std::to_string(hello.minor())),
        net::CloseCode::kProtocolError);
  }
  call.client.greeted = true;
  call.client.client_name = printable(hello.client());
  if (auto c = call.client.connection.lock()) c->greeted();
  v1::ServerEnvelope e;
  auto* r = e.mutable_hello();
  r->set_major(v1::PROTOCOL_MAJOR);
  r->set_minor(v1::PROTOCOL_MINOR);
  r->set_server(s_.server_name);
  r->set_max_frame_bytes(static_cast<std::uint32_t>(s_.net.max_frame_bytes));
  r->set_messages_per_second(static_cast<std::uint32_t>(s_.net.messages_per_second));
  r->set_message_burst(static_cast<std::uint32_t>(s_.net.message_burst));
  r->set_idle_timeout_seconds(static_cast<std::uint32_t>(s_.net.idle_timeout_seconds));
  call.reply.ok(std::move(e));
}

void Handlers::sign_in_reply(std::uint64_t client_id, const Reply& reply,
                             const Result<accounts::SignedIn>& result, bool show_token) {
  Client* client = s_.clients.find(client_id);
  if (client != nullptr) client->auth_pending = false;
  if (!result) return reply.fail(result.failure());
  const auto& in = result.value();
  if (client == nullptr) {
    // The connection left while its password was hashed: the new session is of no use.
    if (show_token) s_.accounts.logout(in.token_hash);
    return reply.fail(fail(v1::ERROR_INTERNAL, "the connection closed"));
  }
  s_.clients.sign_in(*client, Identity::kAccount, in.account_id, in.name, in.token_hash);
  spdlog::info("event=signed_in connection={} account={} name={}", client_id, in.account_id,
               in.name);
  v1::ServerEnvelope e;
  auto* r = e.mutable_session();
  r->set_account_id(in.account_id);
  r->set_name(in.name);
  if (show_token) r->set_token(in.token);
  r->set_token_expires_ms(in.expires_ms);
  reply.ok(std::move(e));
}

void Handlers::register_account(Call& call) {
  call.client.auth_pending = true;
  const auto& r = call.request.register_account();
  s_.accounts.register_account(
      r.name(), r.password(),
      [this, id = call.client.id, reply = call.reply](Result<accounts::SignedIn> result) {
        sign_in_reply(id, reply, result, true);
      });
}

void Handlers::login(Call& call) {
  call.client.auth_pending = true;
  const auto& r = call.request.login();
  s_.accounts.login(
      r.name(), r.password(),
      [this, id = call.client.id, reply = call.reply](Result<accounts::SignedIn> result) {
        sign_in_reply(id, reply, result, true);
      });
}

void Handlers::resume_session(Call& call) {
  sign_in_reply(call.client.id, call.reply,
                s_.accounts.resume(call.request.resume_session().token()), false);
}

void Handlers::guest_login(Call& call) {
  const std::string name = guest_name();
  s_.clients.sign_in(call.client, Identity::kGuest, 0, name, "");
  v1::ServerEnvelope e;
  auto* r = e.mutable_session();
  r->set_name(name);
  r->set_guest(true);
  call.reply.ok(std::move(e));
}

void Handlers::logout(Call& call) {
  const std::string token_hash =
      call.client.identity == Identity::kAccount ? call.client.token_hash : std::string();
  spdlog::info("event=signed_out connection={} account={}", call.client.id, call.client.account_id);
  s_.clients.sign_out(call.client);
  // Done once the session's end is committed.
  s_.accounts.logout(token_hash, [reply = call.reply](Result<server::Ok> result) {
    if (!result) return reply.fail(result.failure());
    reply.ok(done_envelope());
  });
}

void Handlers::change_password(Call& call) {
  const auto& r = call.request.change_password();
  call.client.auth_pending = true;
  const std::int64_t account = call.client.account_id;
  const std::string keep = call.client.token_hash;
  s_.accounts.change_password(
      account, r.old_password(), r.new_password(), keep,
      [this, id = call.client.id, account, keep, reply = call.reply](Result<server::Ok> result) {
        if (Client* c = s_.clients.find(id)) c->auth_pending = false;
        if (!result) return reply.fail(result.failure());
        // Every other session of the account has ended: tell its connections.
        v1::ServerEnvelope notice;
        notice.mutable_notice()->set_text("the password was changed; log in again");
        notice.mutable_notice()->set_code(v1::ERROR_SESSION_INVALID);
        for (Client* other : s_.clients.of_account(account)) {
          if (other->token_hash == keep) continue;
          s_.clients.push(*other, notice);
          s_.clients.sign_out(*other);
        }
        reply.ok(done_envelope());
      });
}

void Handlers::ping(Call& call) {
  v1::ServerEnvelope e;
  e.mutable_pong()->set_nonce(call.request.ping().nonce());
  e.mutable_pong()->set_server_time_ms(s_.clock.now_ms());
  call.reply.ok(std::move(e));
}

// ---- Lobby --------------------------------------------------------------------------------

void Handlers::list_scenarios(Call& call) {
  v1::ServerEnvelope e;
  auto* list = e.mutable_scenarios();
  for (const auto* entry : s_.scenarios.list(call.request.list_scenarios().ruleset())) {
    *list->add_scenarios() = entry->info;
  }
  call.reply.ok(std::move(e));
}

void Handlers::create_match(Call& call) {
  const auto& r = call.request.create_match();
  s_.lobby.create(
      call.client.account_id, r.scenario(), r.settings(), r.is_private(),
      [this, account = call.client.account_id, reply = call.reply](Result<lobby::Created> created) {
        if (!created) return reply.fail(created.failure());
        v1::ServerEnvelope e;
        auto* m = e.mutable_match_created();
        *m->mutable_match() = summary(created->row, account);
        m->set_invitation_code(created->invitation_code);
        reply.ok(std::move(e));
      });
}

void Handlers::list_matches(Call& call) {
  const auto& r = call.request.list_matches();
  const auto rows =
      s_.lobby.list(status_from(r.status()), r.ruleset(), limit_or_default(r.limit()));
  v1::ServerEnvelope e;
  auto* list = e.mutable_matches();
  for (const auto& row : rows)
    *list->add_matches() = summary(row, call.client.account_id);
  call.reply.ok(std::move(e));
}

void Handlers::my_matches(Call& call) {
  const auto rows =
      s_.lobby.mine(call.client.account_id, limit_or_default(call.request.my_matches().limit()));
  v1::ServerEnvelope e;
  auto* list = e.mutable_matches();
  for (const auto& row : rows)
    *list->add_matches() = summary(row, call.client.account_id);
  call.reply.ok(std::move(e));
}

void Handlers::join_match(Call& call) {
  const auto& r = call.request.join_match();
  const std::int64_t account = call.client.account_id;
  s_.lobby.join(
      account, r.match_id(), r.invitation_code(), r.entropy(),
      [this, account, id = call.client.id, reply = call.reply](Result<store::MatchRow> row) {
        if (!row) return reply.fail(row.failure());
        v1::ServerEnvelope e;
        *e.mutable_match_joined()->mutable_match() = summary(*row, account);
        reply.ok(std::move(e));
        push_match_updated(*row, id);
        seated(account, *row);
        forget_rematch(row->id);
      });
}

void Handlers::leave_match(Call& call) {
  s_.lobby.leave(call.client.account_id, call.match->id,
                 [this, id = call.client.id, reply = call.reply](Result<store::MatchRow> row) {
                   if (!row) return reply.fail(row.failure());
                   reply.ok(done_envelope());
                   push_match_updated(*row, id);
                   announce_closed(*row, "the creator withdrew the match");
                   forget_rematch(row->id);
                 });
}

void Handlers::provide_entropy(Call& call) {
  s_.lobby.provide_entropy(call.client.account_id, call.match->id,
                           call.request.provide_entropy().entropy(),
                           [this, account = call.client.account_id, id = call.client.id,
                            reply = call.reply](Result<store::MatchRow> row) {
                             if (!row) return reply.fail(row.failure());
                             reply.ok(done_envelope());
                             push_match_updated(*row, id);
                             seated(account, *row);
                             tell_rematch(*row);
                           });
}

void Handlers::subscribe_match(Call& call) {
  const auto& r = call.request.subscribe_match();
  const store::MatchRow& row = *call.match;
  RoomMember member;
  std::optional<int> seat;
  if (call.client.identity == Identity::kAccount)
    seat = lobby::seat_of(row, call.client.account_id);
  const bool player = seat.has_value();
  const v1::MatchSettings settings = s_.lobby.settings_of(row);
  if (player) {
    member.role = v1::ROLE_PLAYER;
    member.side = seat.value_or(0);
  } else {
    if (!settings.spectators_allowed()) {
      return call.reply.fail(
          fail(v1::ERROR_SPECTATORS_NOT_ALLOWED, "this match does not allow spectators"));
    }
    if (!s_.lobby.invitation_ok(row, r.invitation_code())) {
      return call.reply.fail(
          fail(v1::ERROR_BAD_INVITATION, "this match needs its invitation code"));
    }
  }
  if (!call.client.rooms.count(row.id) && call.client.rooms.size() >= Clients::kMaxRoomsPerClient) {
    return call.reply.fail(fail(v1::ERROR_INVALID_REQUEST, "at most 32 matches at once"));
  }
  s_.clients.enter(call.client, row.id, member);

  v1::ServerEnvelope e;
  auto* sub = e.mutable_subscribed();
  *sub->mutable_match() = summary(row, call.client.account_id);
  sub->set_role(member.role);
  if (player) sub->set_side(member.side == 0 ? v1::SIDE_A : v1::SIDE_B);
  sub->set_spectator_delay_turns(settings.spectator_delay_turns());
  std::vector<lobby::ChatLine> lines;
  const std::vector<lobby::Channel> channels =
      player ? std::vector<lobby::Channel>{lobby::Channel::kPlayers, lobby::Channel::kSpectators}
             : std::vector<lobby::Channel>{lobby::Channel::kSpectators};
  for (const auto channel : channels) {
    auto h = s_.lobby.chat_history(row.id, channel, 0, kChatOnSubscribe);
    if (!h) return call.reply.fail(h.failure());
    for (auto& line : *h) {
      if (player && channel == lobby::Channel::kSpectators &&
          s_.lobby.muted(row.id, call.client.account_id, line.author)) {
        continue;
      }
      lines.push_back(std::move(line));
    }
  }
  std::sort(lines.begin(), lines.end(), [](const auto& x, const auto& y) { return x.id < y.id; });
  for (const auto& line : lines)
    *sub->add_chat() = to_wire(line);
  call.reply.ok(std::move(e));
  watch(call.client, row, seat,
        r.has_last_seen_event() ? std::optional<std::uint64_t>(r.last_seen_event()) : std::nullopt);
}

void Handlers::unsubscribe_match(Call& call) {
  unwatch(call.client.id, call.request.unsubscribe_match().match_id());
  if (!s_.clients.leave(call.client, call.request.unsubscribe_match().match_id())) {
    return call.reply.fail(fail(v1::ERROR_NOT_SUBSCRIBED, "not subscribed to that match"));
  }
  call.reply.ok(done_envelope());
}

void Handlers::send_chat(Call& call) {
  const auto& r = call.request.send_chat();
  const auto member = s_.clients.member(call.client, r.match_id());
  if (!member) {
    return call.reply.fail(fail(v1::ERROR_NOT_SUBSCRIBED, "subscribe to the match first"));
  }
  const bool player = member->role == v1::ROLE_PLAYER;
  if (r.channel() == v1::CHAT_PLAYERS && !player) {
    return call.reply.fail(fail(v1::ERROR_NOT_SEATED, "only the players write there"));
  }
  if (r.channel() == v1::CHAT_SPECTATORS && player) {
    return call.reply.fail(
        fail(v1::ERROR_INVALID_REQUEST, "players write in the players' channel"));
  }
  s_.lobby.post_chat(*call.match, static_cast<lobby::Channel>(r.channel()), call.client.account_id,
                     call.client.name, r.text(),
                     [this, row = *call.match, reply = call.reply](Result<lobby::ChatLine> line) {
                       if (!line) return reply.fail(line.failure());
                       reply.ok(done_envelope());
                       push_chat(row, *line);
                     });
}

void Handlers::push_chat(const store::MatchRow& row, const lobby::ChatLine& line) {
  v1::ServerEnvelope e;
  *e.mutable_chat()->mutable_line() = to_wire(line);
  const auto frames = frames_of(std::move(e));
  for (const auto& [client_id, member] : s_.clients.room(row.id)) {
    Client* c = s_.clients.find(client_id);
    if (c == nullptr) continue;
    const bool player = member.role == v1::ROLE_PLAYER;
    if (line.channel == lobby::Channel::kPlayers && !player) continue;
    if (line.channel == lobby::Channel::kSpectators && player &&
        s_.lobby.muted(row.id, c->account_id, line.author)) {
      continue;
    }
    if (auto conn = c->connection.lock()) conn->send(frames->in(conn->encoding()));
  }
}

void Handlers::chat_history(Call& call) {
  const auto& r = call.request.chat_history();
  const auto member = s_.clients.member(call.client, r.match_id());
  if (!member) {
    return call.reply.fail(fail(v1::ERROR_NOT_SUBSCRIBED, "subscribe to the match first"));
  }
  if (r.channel() == v1::CHAT_PLAYERS && member->role != v1::ROLE_PLAYER) {
    return call.reply.fail(fail(v1::ERROR_NOT_SEATED, "only the players read that channel"));
  }
  auto lines = s_.lobby.chat_history(r.match_id(), static_cast<lobby::Channel>(r.channel()),
                                     r.before_id(), limit_or_default(r.limit()));
  if (!lines) return call.reply.fail(lines.failure());
  v1::ServerEnvelope e;
  auto* out = e.mutable_chat_lines();
  for (const auto& line : *lines) {
    if (member->role == v1::ROLE_PLAYER && line.channel == lobby::Channel::kSpectators &&
        s_.lobby.muted(r.match_id(), call.client.account_id, line.author)) {
      continue;
    }
    *out->add_lines() = to_wire(line);
  }
  call.reply.ok(std::move(e));
}

void Handlers::mute_spectator(Call& call) {
  const bool mute = call.request.has_mute_spectator();
  const std::string& name =
      mute ? call.request.mute_spectator().name() : call.request.unmute_spectator().name();
  s_.lobby.mute(call.match->id, call.client.account_id, name, mute,
                [reply = call.reply](Result<server::Ok> result) {
                  if (!result) return reply.fail(result.failure());
                  reply.ok(done_envelope());
                });
}

// ---- Pushes and operators -------------------------------------------------------------------

void Handlers::push_match_updated(const store::MatchRow& row, std::uint64_t except) {
  std::set<std::int64_t> accounts;
  for (const auto& who : {row.creator, row.player_a, row.player_b}) {
    if (who) accounts.insert(*who);
  }
  for (const std::int64_t account : accounts) {
    v1::ServerEnvelope e;
    *e.mutable_match_updated()->mutable_match() = summary(row, account);
    const auto frames = frames_of(std::move(e));
    for (Client* c : s_.clients.of_account(account)) {
      if (c->id == except) continue;
      if (auto conn = c->connection.lock()) conn->send(frames->in(conn->encoding()));
    }
  }
}

void Handlers::announce_closed(const store::MatchRow& row, const std::string& text) {
  v1::ServerEnvelope e;
  auto* ended = e.mutable_match_ended();
  ended->set_match_id(row.id);
  ended->set_status(status_of(row.status));
  ended->set_reason(v1::END_ABORTED);
  ended->set_message(text);
  const auto frames = frames_of(std::move(e));
  for (const auto& [client_id, member] : s_.clients.room(row.id)) {
    if (Client* c = s_.clients.find(client_id)) {
      if (auto conn = c->connection.lock()) conn->send(frames->in(conn->encoding()));
    }
  }
}

int Handlers::disconnect_account(std::int64_t account_id, ErrorCode code, const std::string& text) {
  v1::ServerEnvelope e;
  e.mutable_notice()->set_text(text);
  e.mutable_notice()->set_code(code);
  const auto frames = frames_of(std::move(e));
  int n = 0;
  for (Client* c : s_.clients.of_account(account_id)) {
    if (auto conn = c->connection.lock()) {
      conn->close(net::CloseCode::kPolicy, text, frames->in(conn->encoding()));
      ++n;
    }
    s_.clients.sign_out(*c);
  }
  return n;
}

}  // namespace castra::dispatch
