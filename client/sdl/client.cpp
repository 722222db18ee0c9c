#include "client/sdl/client.hpp"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <sodium.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>

#include "client/net/elsewhere.hpp"
#include "client/net/protocol_client.hpp"
#include "client/sdl/dice_check.hpp"
#include "client/sdl/labels.hpp"

namespace castra::client {

namespace pbu = google::protobuf::util;

namespace {

constexpr std::size_t kMaxMessages = 6;
constexpr std::size_t kMaxChat = 200;
constexpr int kEntropyBytes = 32;
// Replay pictures: at most this many kept, and a request at most this often (the server
// allows 20 messages a second).
constexpr std::size_t kMaxPast = 256;
constexpr auto kPastInterval = std::chrono::milliseconds(120);

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// An update that says only how many watch: no board, events, legal list, clocks, offer or
// record.
bool count_only(const v1::MatchUpdate& u) {
  return !u.has_snapshot() && u.events_size() == 0 && !u.has_legal() && !u.your_move() &&
         !u.has_record() && u.deadline_a_ms() == 0 && u.deadline_b_ms() == 0 && !u.draw_offered() &&
         u.spectator_delay_turns() == 0;
}

}  // namespace

Client::Client(Options options) : options_(std::move(options)) {}

std::string Message::shown(std::int64_t now_ms) const {
  if (countdown_to_ms == 0) return text;
  return text + format_remaining(std::max<std::int64_t>(0, countdown_to_ms - now_ms)) +
         after_countdown;
}

void Client::say(const std::string& text, MessageKind kind) {
  Message m;
  m.text = text;
  m.kind = kind;
  say(std::move(m));
}

void Client::say(Message m) {
  m.at = std::chrono::steady_clock::now();
  messages_.push_back(std::move(m));
  if (messages_.size() > kMaxMessages) messages_.erase(messages_.begin());
}

void Client::retire(MessageAbout about) {
  std::erase_if(messages_, [&](const Message& m) { return m.about == about; });
}

void Client::report(const v1::ServerEnvelope& e, const std::string& doing) {
  if (!e.has_error()) return;
  say(doing.empty() ? describe_error(e.error()) : doing + ": " + describe_error(e.error()),
      MessageKind::kError);
}

void Client::write_offline(const google::protobuf::Message& m) {
  if (options_.commands_out.empty()) return;
  pbu::JsonPrintOptions o;
  o.preserve_proto_field_names = true;
  std::string json;
  (void)pbu::MessageToJsonString(m, &json, o);
  std::ofstream(options_.commands_out, std::ios::app) << json << "\n";
}

std::string Client::random_entropy() const {
  std::string out(kEntropyBytes, '\0');
  randombytes_buf(out.data(), out.size());
  return out;
}

// ---- connection and account ---------------------------------------------------------------

void Client::connect(const std::string& url) {
  ClientOptions o;
  o.ca_file = options_.ca_file;
  o.verify_peer = !options_.insecure;
  options_.server = url;
  session_.connect(url, o);
}

void Client::signed_in(const v1::SessionResult& r) {
  account_.signed_in = true;
  account_.guest = r.guest();
  account_.name = r.name();
  if (!r.token().empty()) account_.token = r.token();
  say("Signed in as " + r.name() + (r.guest() ? " (guest: you may watch)" : "") + ".",
      MessageKind::kOk);
  screen_ = Screen::kLobby;
  refresh_lobby();
}

void Client::register_account(const std::string& name, const std::string& password) {
  v1::ClientEnvelope e;
  e.mutable_register_account()->set_name(name);
  e.mutable_register_account()->set_password(password);
  session_.request(std::move(e), [this](const v1::ServerEnvelope& r) {
    if (r.has_session()) return signed_in(r.session());
    report(r, "Register");
  });
}

void Client::login(const std::string& name, const std::string& password) {
  v1::ClientEnvelope e;
  e.mutable_login()->set_name(name);
  e.mutable_login()->set_password(password);
  session_.request(std::move(e), [this](const v1::ServerEnvelope& r) {
    if (r.has_session()) return signed_in(r.session());
    report(r, "Log in");
  });
}

void Client::guest() {
  v1::ClientEnvelope e;
  e.mutable_guest_login();
  session_.request(std::move(e), [this](const v1::ServerEnvelope& r) {
    if (r.has_session()) return signed_in(r.session());
    report(r, "Guest");
  });
}

void Client::logout() {
  v1::ClientEnvelope e;
  e.mutable_logout();
  session_.request(std::move(e), nullptr);
  account_ = Account{};
  match_ = MatchData{};
  campaign_ = CampaignData{};
  screen_ = Screen::kLogin;
}

// ---- lobby --------------------------------------------------------------------------------

void Client::refresh_lobby() {
  lobby_.refreshed = std::chrono::steady_clock::now();
  if (lobby_.scenarios.empty()) {
    v1::ClientEnvelope e;
    e.mutable_list_scenarios();
    ++lobby_.in_flight;
    session_.request(std::move(e), [this](const v1::ServerEnvelope& r) {
      --lobby_.in_flight;
      if (!r.has_scenarios()) return report(r, "Scenarios");
      lobby_.scenarios.assign(r.scenarios().scenarios().begin(), r.scenarios().scenarios().end());
    });
  }
  auto list = [this](v1::MatchStatus status, std::vector<v1::MatchSummary>* into) {
    v1::ClientEnvelope e;
    e.mutable_list_matches()->set_status(status);
    e.mutable_list_matches()->set_limit(50);
    ++lobby_.in_flight;
    session_.request(std::move(e), [this, into](const v1::ServerEnvelope& r) {
      --lobby_.in_flight;
      if (!r.has_matches()) return report(r, "Lobby");
      into->assign(r.matches().matches().begin(), r.matches().matches().end());
    });
  };
  list(v1::MATCH_OPEN, &lobby_.open);
  list(v1::MATCH_LIVE, &lobby_.live);
  list(v1::MATCH_FINISHED, &lobby_.finished);
  if (account_.signed_in && !account_.guest) {
    v1::ClientEnvelope e;
    e.mutable_my_matches()->set_limit(50);
    ++lobby_.in_flight;
    session_.request(std::move(e), [this](const v1::ServerEnvelope& r) {
      --lobby_.in_flight;
      if (!r.has_matches()) return report(r, "My matches");
      lobby_.mine.assign(r.matches().matches().begin(), r.matches().matches().end());
    });
  }
  if (lobby_.campaigns_shown) refresh_campaigns();
  refresh_online();
}

void Client::create_match(const NewMatch& n) {
  v1::ClientEnvelope e;
  auto* c = e.mutable_create_match();
  c->set_scenario(n.scenario);
  c->set_is_private(n.is_private);
  auto* s = c->mutable_settings();
  const auto& tc = kTimeControls[std::clamp(n.time_control, 0, 2)];
  s->mutable_time_control()->set_kind(tc.kind);
  s->mutable_time_control()->set_seconds_per_move(tc.seconds_per_move);
  s->mutable_time_control()->set_disconnect_grace_seconds(tc.grace_seconds);
  s->set_spectators_allowed(n.spectators);
  s->set_spectator_delay_turns(static_cast<std::uint32_t>(std::max(0, n.delay_turns)));
  s->set_creator_side(n.side);
  s->set_creator_side_random(n.side_random);
  s->set_computer(n.computer);
  session_.request(std::move(e), [this](const v1::ServerEnvelope& r) {
    if (!r.has_match_created()) return report(r, "Create match");
    const auto& created = r.match_created();
    const std::string id = created.match().match_id();
    std::string text = "Match created; its dice commitment is " +
                       created.match().dice_commitment().substr(0, 16) + "...";
    if (!created.invitation_code().empty())
      text += " Invitation code: " + created.invitation_code();
    say(text, MessageKind::kOk);
    pending_invitation_ = created.invitation_code();
    // Our entropy goes in only now, after the commitment was shown to us. The room is
    // entered once the seat is taken, so that it is entered as the player.
    v1::ClientEnvelope p;
    p.mutable_provide_entropy()->set_match_id(id);
    p.mutable_provide_entropy()->set_entropy(random_entropy());
    session_.request(std::move(p), [this, id](const v1::ServerEnvelope& pr) {
      report(pr, "Dice entropy");
      if (match_.id == id) subscribe();
    });
    open_match(id, "", /*enter=*/false);
    match_.summary = created.match();
    match_.commitment_at_start = created.match().dice_commitment();
  });
}

void Client::join(const v1::MatchSummary& m, const std::string& invitation_code) {
  v1::ClientEnvelope e;
  e.mutable_join_match()->set_match_id(m.match_id());
  e.mutable_join_match()->set_invitation_code(invitation_code);
  e.mutable_join_match()->set_entropy(random_entropy());
  const std::string commitment = m.dice_commitment();
  session_.request(
      std::move(e), [this, m, commitment, invitation_code](const v1::ServerEnvelope& r) {
        if (follow_elsewhere(r, [this, m, invitation_code] { join(m, invitation_code); })) return;
        if (!r.has_match_joined()) return report(r, "Join");
        say("Joined; the dice commitment you saw is " + commitment.substr(0, 16) + "...",
            MessageKind::kOk);
        open_match(r.match_joined().match().match_id(), invitation_code);
        match_.summary = r.match_joined().match();
        match_.commitment_at_start = commitment;
      });
}

void Client::open_match(const std::string& match_id, const std::string& invitation_code,
                        bool enter) {
  match_ = MatchData{};
  match_.id = match_id;
  pending_invitation_ = invitation_code;
  screen_ = Screen::kMatch;
  if (enter) subscribe();
}

void Client::open_replay(const std::string& match_id) {
  open_match(match_id);
  match_.replay_on_open = true;
}

void Client::subscribe(bool from_start) {
  if (match_.offline || match_.id.empty()) return;
  // From the events we hold (none on opening: the whole log for the event log); the first
  // update brings them with the viewer's board, and every later one its board after it.
  v1::ClientEnvelope e;
  auto* s = e.mutable_subscribe_match();
  s->set_match_id(match_.id);
  s->set_has_last_seen_event(true);
  s->set_last_seen_event(match_.log.empty() || from_start ? 0 : match_.log.back().number() + 1);
  s->set_invitation_code(pending_invitation_);
  match_.catching_up = true;
  const std::string id = match_.id;
  session_.request(std::move(e), [this, id](const v1::ServerEnvelope& r) {
    if (match_.id != id) return;
    if (r.has_subscribed()) return on_subscribed(r.subscribed());
    if (follow_elsewhere(r)) return;
    match_.catching_up = false;
    report(r, "Open match");
    if (!match_.subscribed && r.has_error()) {
      // Could not enter the room at all: back to the lobby, with the reason shown.
      screen_ = account_.signed_in ? Screen::kLobby : Screen::kLogin;
      match_ = MatchData{};
    }
  });
}

void Client::leave_match_screen() {
  if (!match_.id.empty() && !match_.offline) {
    v1::ClientEnvelope e;
    e.mutable_unsubscribe_match()->set_match_id(match_.id);
    session_.request(std::move(e), nullptr);
  }
  const bool from_campaign = !match_.id.empty() && match_.id == campaign_.battle_opened;
  match_ = MatchData{};
  if (from_campaign && !campaign_.id.empty()) {
    // Back to the campaign it was opened from, which is still followed.
    campaign_.battle_opened.clear();
    screen_ = Screen::kCampaign;
    return;
  }
  screen_ = account_.signed_in ? Screen::kLobby : Screen::kLogin;
  if (account_.signed_in) refresh_lobby();
}

void Client::withdraw() {
  v1::ClientEnvelope e;
  e.mutable_leave_match()->set_match_id(match_.id);
  session_.request(std::move(e), [this](const v1::ServerEnvelope& r) {
    if (r.has_error()) return report(r, "Withdraw");
    say("The match is withdrawn.", MessageKind::kOk);
    leave_match_screen();
  });
}

void Client::on_subscribed(const v1::Subscribed& s) {
  match_.subscribed = true;
  match_.summary = s.match();
  match_.role = s.role();
  match_.side = s.side();
  match_.spectator_delay_turns = s.spectator_delay_turns();
  if (match_.commitment_at_start.empty()) match_.commitment_at_start = s.match().dice_commitment();
  // The summary's clocks are the present's: not for a spectator shown the past.
  if (!delayed_spectator()) {
    if (match_.deadline_a_ms == 0) match_.deadline_a_ms = s.match().deadline_a_ms();
    if (match_.deadline_b_ms == 0) match_.deadline_b_ms = s.match().deadline_b_ms();
  }
  for (const auto& line : s.chat()) {
    const bool seen = std::any_of(match_.chat.begin(), match_.chat.end(),
                                  [&](const v1::ChatLine& l) { return l.id() == line.id(); });
    if (!seen) match_.chat.push_back(line);
  }
  std::sort(match_.chat.begin(), match_.chat.end(),
            [](const auto& a, const auto& b) { return a.id() < b.id(); });
  if (match_.chat.size() > kMaxChat)
    match_.chat.erase(match_.chat.begin(), match_.chat.end() - kMaxChat);
}

void Client::apply_update(const v1::MatchUpdate& u) {
  if (std::getenv("CASTRA_CLIENT_TRACE") != nullptr) {
    std::fprintf(
        stderr, "update: snapshot=%d (events %llu) events=%d first=%lld legal=%d your_move=%d\n",
        u.has_snapshot(), static_cast<unsigned long long>(u.snapshot().event_count()),
        u.events_size(), u.events_size() > 0 ? static_cast<long long>(u.events(0).number()) : -1LL,
        u.has_legal(), u.your_move());
  }
  if (u.events_size() > 0) append_events(u.events(), true);
  // An update without a board (the spectator count, a draw offer) leaves the board, who acts,
  // the legal list and the clocks as they were.
  if (u.has_snapshot()) apply_board(u);
  if (u.has_legal()) match_.legal = u.legal();
  match_.spectators = u.spectators();
  // A count of the room (someone came or went) carries nothing else: the offer stands.
  if (count_only(u)) return;
  if (u.spectator_delay_turns() > 0) match_.spectator_delay_turns = u.spectator_delay_turns();
  if (u.draw_offered() && !match_.draw_offered && match_.role == v1::ROLE_PLAYER &&
      u.draw_offered_by() != match_.side) {
    Message m;
    m.text = side_name(u.draw_offered_by()) + " offers a draw.";
    m.about = MessageAbout::kDrawOffer;
    say(std::move(m));
  }
  const bool over = match_.ended || (match_.snapshot && match_.snapshot->ended());
  if (!u.draw_offered() && match_.draw_offered) {
    retire(MessageAbout::kDrawOffer);
    if (!over) say("The draw offer is off the table.", MessageKind::kInfo);
  }
  // At the end nothing is offered and nobody is waited for.
  if (over) {
    retire(MessageAbout::kDrawOffer);
    retire(MessageAbout::kPresence);
  }
  match_.draw_offered = u.draw_offered();
  match_.draw_offered_by = u.draw_offered_by();
  if (u.has_record()) {
    match_.record = u.record();
    if (match_.commitment_at_start.empty())
      match_.commitment_at_start = u.record().dice_commitment();
  }
  if (match_.snapshot && match_.snapshot->ended() && !match_.record && !match_.record_requested &&
      !match_.offline) {
    request_record();
  }
  if (match_.snapshot && match_.snapshot->ended()) reread_revealed_log();
}

void Client::reread_revealed_log() {
  if (match_.offline || !match_.subscribed || match_.reread_asked) return;
  const bool hidden = std::any_of(match_.log.begin(), match_.log.end(),
                                  [](const v1::ViewEvent& e) { return !e.has_event(); });
  if (!hidden) return;
  // Entering the room again is not leaving it (the server counts the connection in first);
  // its first update brings every event as an ended match shows it: all revealed.
  match_.reread_asked = true;
  subscribe(/*from_start=*/true);
}

void Client::apply_board(const v1::MatchUpdate& u) {
  match_.snapshot = u.snapshot();
  ++match_.snapshots_received;
  match_.catching_up = false;
  if (!u.has_legal()) match_.legal.reset();
  if (u.your_move() && !match_.your_move) ++match_.your_move_count;
  match_.your_move = u.your_move();
  if (!match_.offline) {
    // A delayed spectator's board is the past: its clocks are not known, and the present's
    // are not his to see (the server sends none with a delayed picture; nor are they taken
    // from anywhere else).
    const bool past = delayed_spectator();
    match_.deadline_a_ms = past ? 0 : u.deadline_a_ms();
    match_.deadline_b_ms = past ? 0 : u.deadline_b_ms();
  }
}

bool Client::delayed_spectator() const {
  const bool over = (match_.snapshot && match_.snapshot->ended()) || match_.ended ||
                    match_.summary.status() == v1::MATCH_FINISHED;
  return match_.role == v1::ROLE_SPECTATOR && match_.spectator_delay_turns > 0 && !over;
}

void Client::append_events(const google::protobuf::RepeatedPtrField<v1::ViewEvent>& events,
                           bool as_batch) {
  // The batch is the events new to us: a history read again changes no markers.
  const bool fresh = std::any_of(events.begin(), events.end(), [&](const v1::ViewEvent& e) {
    return match_.log.empty() || e.number() > match_.log.back().number();
  });
  if (as_batch && fresh) match_.last_batch.clear();
  for (const auto& e : events) {
    if (!match_.log.empty() && e.number() <= match_.log.back().number()) {
      // Already seen (a history that overlaps a push): keep the first copy, unless it was
      // hidden and this one is revealed (the log read again after the end).
      auto held = std::find_if(match_.log.begin(), match_.log.end(),
                               [&](const v1::ViewEvent& x) { return x.number() == e.number(); });
      if (held != match_.log.end()) {
        if (!held->has_event() && e.has_event()) *held = e;
        continue;
      }
      if (as_batch) match_.last_batch.push_back(e);
      match_.log.push_back(e);
      std::sort(match_.log.begin(), match_.log.end(),
                [](const auto& a, const auto& b) { return a.number() < b.number(); });
      continue;
    }
    if (as_batch) match_.last_batch.push_back(e);
    match_.log.push_back(e);
  }
}

// ---- the match ----------------------------------------------------------------------------

void Client::submit(const v1::GameCommand& command) {
  v1::SubmitCommand s;
  s.set_match_id(match_.id);
  // Sequence numbers only grow, across restarts of the client too: a fresh start takes the
  // clock's milliseconds, which are past any number an earlier run used.
  match_.last_client_seq =
      std::max<std::uint64_t>(match_.last_client_seq + 1, static_cast<std::uint64_t>(unix_ms()));
  s.set_client_seq(match_.last_client_seq);
  *s.mutable_command() = command;
  if (match_.offline) {
    write_offline(s);
    say("Offline: the command was not sent (written to the commands file).", MessageKind::kInfo);
    match_.legal.reset();
    return;
  }
  send_command(s);
}

void Client::send_command(const v1::SubmitCommand& command) {
  v1::ClientEnvelope e;
  *e.mutable_submit_command() = command;
  match_.command_in_flight = true;
  match_.unanswered = command;
  match_.refusal.clear();
  const std::string id = match_.id;
  session_.request(std::move(e), [this, id](const v1::ServerEnvelope& r) {
    if (match_.id != id) return;
    match_.command_in_flight = false;
    // Sent to the match's node: it goes again from there, same client_seq.
    if (follow_elsewhere(r)) return;
    if (r.has_error() && r.error().code() == v1::ERROR_UNSPECIFIED) {
      // The connection broke first: keep it for the reconnect.
      say("The connection broke before the server answered; the command goes again when it "
          "is back.",
          MessageKind::kError);
      return;
    }
    match_.unanswered.reset();
    if (r.has_error()) {
      if (r.error().code() == v1::ERROR_SEQUENCE_GAP) {
        // Another client of ours went further: jump past it; the player tries again.
        match_.last_client_seq += 1000000;
      }
      match_.refusal = describe_error(r.error());
      say(match_.refusal, MessageKind::kError);
      return;
    }
    if (r.has_command_result() && !r.command_result().accepted()) {
      match_.refusal = describe_refusal(r.command_result().error());
      say(match_.refusal, MessageKind::kError);
    }
    // Accepted: the update it made came in this answer's frame and was applied before it,
    // with the legal list that follows (Session::pump).
  });
}

bool Client::follow_elsewhere(const v1::ServerEnvelope& r, std::function<void()> again,
                              const std::string& what) {
  const auto where = elsewhere(r);
  if (!where) return false;
  if (again) elsewhere_again_ = std::move(again);
  if (reconnecting_) return true;  // already on the way (another reply said the same)
  if (where->owner_url.empty()) {
    say(what + " moving to another server; asking again...", MessageKind::kInfo);
    elsewhere_retry_at_ = std::chrono::steady_clock::now() + where->retry_after;
    return true;
  }
  if (home_server_.empty()) home_server_ = options_.server;
  options_.server = where->owner_url;
  reconnect(what + " moved to " + where->owner_url + ", reconnecting...");
  return true;
}

void Client::reconnect(const std::string& why) {
  reconnecting_ = true;
  say(why, MessageKind::kError);
  connect(options_.server);
  v1::ClientEnvelope e;
  if (account_.guest || account_.token.empty()) {
    e.mutable_guest_login();
  } else {
    e.mutable_resume_session()->set_token(account_.token);
  }
  session_.request(std::move(e), [this](const v1::ServerEnvelope& r) {
    reconnecting_ = false;
    if (!r.has_session()) {
      if (r.has_error() && r.error().code() == v1::ERROR_SESSION_INVALID) {
        account_ = Account{};
        match_ = MatchData{};
        screen_ = Screen::kLogin;
        say("Your session has ended; log in again.", MessageKind::kError);
      }
      return;  // a failed connection tries again later
    }
    reconnect_delay_ = std::chrono::seconds(1);
    account_.name = r.session().name();
    say("Reconnected.", MessageKind::kOk);
    // A join a redirect sent here goes again (the match screen is re-entered below).
    if (auto again = std::exchange(elsewhere_again_, {})) again();
    if (screen_ == Screen::kLobby) refresh_lobby();
    // A followed campaign is followed again; its view comes with the reply.
    follow_campaign();
    if (screen_ != Screen::kMatch || match_.id.empty() || match_.offline) return;
    // The events missed while away (the count we hold), with the board as it is now.
    subscribe();
    if (match_.unanswered) send_command(*match_.unanswered);
  });
}

void Client::resign() {
  v1::ClientEnvelope e;
  e.mutable_resign()->set_match_id(match_.id);
  session_.request(std::move(e), [this](const v1::ServerEnvelope& r) {
    if (r.has_error()) return report(r, "Resign");
    say("You resigned.", MessageKind::kInfo);
  });
}

void Client::offer_draw() {
  v1::ClientEnvelope e;
  e.mutable_offer_draw()->set_match_id(match_.id);
  session_.request(std::move(e), [this](const v1::ServerEnvelope& r) {
    if (r.has_error()) return report(r, "Offer a draw");
    say("Draw offered.", MessageKind::kOk);
  });
}

void Client::answer_draw(bool accept) {
  v1::ClientEnvelope e;
  e.mutable_answer_draw()->set_match_id(match_.id);
  e.mutable_answer_draw()->set_accept(accept);
  match_.draw_offered = false;
  session_.request(std::move(e), [this](const v1::ServerEnvelope& r) { report(r, "Draw"); });
}

void Client::claim_win() {
  v1::ClientEnvelope e;
  e.mutable_claim_win()->set_match_id(match_.id);
  session_.request(std::move(e), [this](const v1::ServerEnvelope& r) { report(r, "Claim"); });
}

void Client::request_record() {
  if (match_.offline || match_.id.empty()) return;
  match_.record_requested = true;
  v1::ClientEnvelope e;
  e.mutable_export_record()->set_match_id(match_.id);
  const std::string id = match_.id;
  session_.request(std::move(e), [this, id](const v1::ServerEnvelope& r) {
    if (match_.id != id) return;
    if (!r.has_record()) return report(r, "Match record");
    match_.record = r.record();
    if (match_.commitment_at_start.empty())
      match_.commitment_at_start = r.record().dice_commitment();
  });
}

const v1::Snapshot* Client::past_snapshot(std::uint64_t events) {
  if (auto it = match_.past.find(events); it != match_.past.end()) return &it->second;
  const auto now = std::chrono::steady_clock::now();
  if (match_.offline || !online() || match_.past_asked || match_.past_refused.count(events) ||
      now - match_.past_sent < kPastInterval) {
    return nullptr;
  }
  match_.past_asked = events;
  match_.past_sent = now;
  if (std::getenv("CASTRA_CLIENT_TRACE") != nullptr)
    std::fprintf(stderr, "get_snapshot: events=%llu\n", static_cast<unsigned long long>(events));
  const std::string id = match_.id;
  session_.request(
      requests::get_snapshot_at_event(id, events), [this, id, events](const v1::ServerEnvelope& r) {
        if (match_.id != id) return;
        match_.past_asked.reset();
        if (r.has_snapshot()) {
          if (match_.past.size() >= kMaxPast) {
            // Drop the picture farthest from the one just shown.
            auto distance = [events](const auto& kv) {
              return kv.first > events ? kv.first - events : events - kv.first;
            };
            match_.past.erase(std::max_element(
                match_.past.begin(), match_.past.end(),
                [&](const auto& a, const auto& b) { return distance(a) < distance(b); }));
          }
          match_.past[events] = r.snapshot();
          return;
        }
        // A broken connection asks again once it is back; a refusal never.
        if (r.has_error() && r.error().code() != v1::ERROR_UNSPECIFIED)
          match_.past_refused.insert(events);
        report(r, "Replay");
      });
  return nullptr;
}

void Client::send_chat(const std::string& text) {
  if (text.empty() || match_.id.empty()) return;
  v1::ClientEnvelope e;
  e.mutable_send_chat()->set_match_id(match_.id);
  e.mutable_send_chat()->set_channel(match_.role == v1::ROLE_PLAYER ? v1::CHAT_PLAYERS
                                                                    : v1::CHAT_SPECTATORS);
  e.mutable_send_chat()->set_text(text);
  session_.request(std::move(e), [this](const v1::ServerEnvelope& r) { report(r, "Chat"); });
}

std::string Client::save_record(const std::string& dir) {
  if (!match_.record) return "";
  pbu::JsonPrintOptions o;
  o.add_whitespace = true;
  o.preserve_proto_field_names = true;
  std::string json;
  if (!pbu::MessageToJsonString(*match_.record, &json, o).ok()) return "";
  const std::string path = (dir.empty() ? std::string(".") : dir) + "/castra-match-" +
                           match_.record->match_id() + ".json";
  std::ofstream out(path);
  out << json;
  if (!out) {
    say("Could not write " + path, MessageKind::kError);
    return "";
  }
  return path;
}

bool Client::my_move() const {
  if (match_.role != v1::ROLE_PLAYER || !match_.snapshot || match_.snapshot->ended()) return false;
  return match_.side == v1::SIDE_A ? match_.snapshot->a_to_act() : match_.snapshot->b_to_act();
}

std::optional<bool> Client::seed_matches() const {
  std::string seed_hex;
  if (match_.ended && !match_.ended->server_seed().empty()) seed_hex = match_.ended->server_seed();
  if (seed_hex.empty() && match_.record) seed_hex = match_.record->server_seed();
  return dice_seed_matches(seed_hex, match_.commitment_at_start);
}

// ---- pushes -------------------------------------------------------------------------------

void Client::on_push(const v1::ServerEnvelope& e) {
  const std::string& id = match_.id;
  switch (e.body_case()) {
    case v1::ServerEnvelope::kChat:
      if (e.chat().line().match_id() == id) match_.chat.push_back(e.chat().line());
      break;
    case v1::ServerEnvelope::kMatchUpdated: {
      const auto& m = e.match_updated().match();
      if (m.match_id() == id) {
        const bool started =
            match_.summary.status() == v1::MATCH_OPEN && m.status() == v1::MATCH_LIVE;
        match_.summary = m;
        if (started) {
          say("Your opponent has joined: the match begins.", MessageKind::kOk);
          // A room entered before the start had no board to send, and the server may have
          // no viewer of it to tell: enter it again, once, for the first board.
          if (!match_.snapshot) subscribe();
        }
      }
      follow_rematch(m);
      if (screen_ == Screen::kLobby) refresh_lobby();
      break;
    }
    case v1::ServerEnvelope::kRematchOffered:
      on_rematch_offered(e.rematch_offered());
      break;
    case v1::ServerEnvelope::kMatchUpdate:
      if (e.match_update().match_id() == id) apply_update(e.match_update());
      break;
    case v1::ServerEnvelope::kYourMove:
      if (e.your_move().match_id() != id) {
        say("It is your move in another match (" + e.your_move().match_id().substr(0, 8) + ").",
            MessageKind::kInfo);
        if (screen_ == Screen::kLobby) refresh_lobby();
      }
      break;
    case v1::ServerEnvelope::kMatchEnded:
      if (e.match_ended().match_id() == id) {
        match_.ended = e.match_ended();
        match_.legal.reset();
        retire(MessageAbout::kDrawOffer);
        retire(MessageAbout::kPresence);
        say("The match has ended. " + outcome_text(e.match_ended().outcome()), MessageKind::kOk);
        if (e.match_ended().status() == v1::MATCH_FINISHED && !match_.record) request_record();
      }
      break;
    case v1::ServerEnvelope::kPresence:
      if (e.presence().match_id() == id) {
        const auto& p = e.presence();
        const bool mine = match_.role == v1::ROLE_PLAYER && p.side() == match_.side;
        const int i = p.side() == v1::SIDE_A ? 0 : 1;
        auto& known = match_.present[i];
        const bool changed = !known || *known != p.connected();
        // A side never seen here before is not "back": it arrives (the join says so).
        const bool returned = p.connected() && match_.ever_present[i];
        known = p.connected();
        if (p.connected()) match_.ever_present[i] = true;
        if (match_.role == v1::ROLE_PLAYER && !mine) {
          match_.opponent_away = !p.connected();
          match_.claim_from_ms = p.connected() ? 0 : p.grace_ends_ms();
        }
        const bool over = match_.ended || (match_.snapshot && match_.snapshot->ended());
        if (!mine && changed) retire(MessageAbout::kPresence);
        // Said when it changes, and on entering only when a side is away; never of oneself,
        // nor of a seat nobody has taken yet, nor after the end.
        const bool seated = match_.summary.status() != v1::MATCH_OPEN;
        if (!mine && seated && !over && (changed || p.grace_ends_ms() > 0) &&
            (!p.connected() || returned)) {
          Message m;
          m.text = side_name(p.side()) + (p.connected() ? " is back." : " is away.");
          m.about = MessageAbout::kPresence;
          if (p.grace_ends_ms() > 0 && !p.connected() && match_.role == v1::ROLE_PLAYER) {
            m.text += " You may claim the win in ";
            m.countdown_to_ms = p.grace_ends_ms();
            m.after_countdown = " if it stays away.";
          }
          say(std::move(m));
        }
      }
      break;
    case v1::ServerEnvelope::kCampaignUpdated: {
      const auto& view = e.campaign_updated().campaign();
      if (view.summary().campaign_id() == campaign_.id) {
        apply_campaign(view);
      } else if (view.summary().my_action()) {
        say("Your action is due in the campaign " + view.summary().title() + ".",
            MessageKind::kInfo);
      }
      if (screen_ == Screen::kLobby && lobby_.campaigns_shown) refresh_campaigns();
      break;
    }
    case v1::ServerEnvelope::kNotice:
      say(e.notice().text(), MessageKind::kError);
      // This node gave our match up: asked for again, the node says where it went.
      if (match_left_this_node(e) && e.notice().match_id() == match_.id) subscribe();
      if (e.notice().code() == v1::ERROR_SESSION_INVALID) {
        account_ = Account{};
        screen_ = Screen::kLogin;
      }
      break;
    default:
      break;
  }
}

void Client::update() {
  session_.pump([this](const v1::ServerEnvelope& e) { on_push(e); });
  // A lost connection comes back by itself once signed in, waiting longer after each failure.
  if (account_.signed_in && !match_.offline && !campaign_.offline && !reconnecting_ &&
      session_.status() == Session::Status::kFailed) {
    const auto now = std::chrono::steady_clock::now();
    if (reconnect_at_ == std::chrono::steady_clock::time_point{}) {
      reconnect_at_ = now + reconnect_delay_;
    } else if (now >= reconnect_at_) {
      reconnect_at_ = {};
      reconnect_delay_ = std::min(reconnect_delay_ * 2, std::chrono::seconds(30));
      // A redirect's owner that went away is looked for through the address given again.
      if (!home_server_.empty()) options_.server = home_server_;
      reconnect();
    }
  }
  if (elsewhere_retry_at_ != std::chrono::steady_clock::time_point{} &&
      std::chrono::steady_clock::now() >= elsewhere_retry_at_ && online()) {
    elsewhere_retry_at_ = {};
    if (auto again = std::exchange(elsewhere_again_, {})) return again();
    subscribe();
    if (match_.unanswered && !match_.command_in_flight) send_command(*match_.unanswered);
  }
  if (screen_ == Screen::kLobby && online() &&
      std::chrono::steady_clock::now() - lobby_.refreshed > std::chrono::seconds(6) &&
      lobby_.in_flight == 0) {
    refresh_lobby();
  }
}

// ---- offline --------------------------------------------------------------------------------

bool Client::load_offline(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  match_ = MatchData{};
  match_.offline = true;
  match_.id = "offline";
  screen_ = Screen::kMatch;
  pbu::JsonParseOptions strict;
  // One whole message: a MatchUpdate (what a subscriber is first sent) or a bare Snapshot.
  v1::MatchUpdate whole;
  if (pbu::JsonStringToMessage(text, &whole, strict).ok() && whole.has_snapshot()) {
    apply_update(whole);
  } else if (v1::Snapshot snap;
             pbu::JsonStringToMessage(text, &snap, strict).ok() && snap.has_state()) {
    match_.snapshot = snap;
  } else {
    // JSON lines: Subscribed (who is looking), MatchUpdate, and castra-sim's output
    // ({"event": ViewEvent} lines, then {"state": Snapshot}).
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      v1::Subscribed sub;
      v1::MatchUpdate update;
      if (pbu::JsonStringToMessage(line, &sub, strict).ok() && sub.has_match()) {
        on_subscribed(sub);
        continue;
      }
      if (pbu::JsonStringToMessage(line, &update, strict).ok()) {
        apply_update(update);
        continue;
      }
      google::protobuf::Struct wrapper;
      if (!pbu::JsonStringToMessage(line, &wrapper, strict).ok()) continue;
      const auto& fields = wrapper.fields();
      std::string inner;
      if (auto it = fields.find("event"); it != fields.end()) {
        (void)pbu::MessageToJsonString(it->second, &inner);
        v1::ViewEvent ev;
        if (pbu::JsonStringToMessage(inner, &ev, strict).ok()) match_.log.push_back(ev);
      } else if (auto st = fields.find("state"); st != fields.end()) {
        (void)pbu::MessageToJsonString(st->second, &inner);
        v1::Snapshot s;
        if (pbu::JsonStringToMessage(inner, &s, strict).ok()) match_.snapshot = s;
      }
    }
  }
  if (!match_.snapshot) {
    *error = path + " holds no MatchUpdate with a snapshot, Snapshot, or castra-sim state";
    return false;
  }
  // Offline, whoever holds the legal list is the player looking; without one, a spectator.
  if (!match_.subscribed && match_.legal) {
    match_.role = v1::ROLE_PLAYER;
    match_.side =
        match_.legal->has_optio() ? match_.legal->optio().side() : match_.legal->stand().side();
  }
  if (!match_.summary.match_id().empty()) match_.id = match_.summary.match_id();
  match_.commitment_at_start = match_.summary.dice_commitment();
  return true;
}

}  // namespace castra::client
