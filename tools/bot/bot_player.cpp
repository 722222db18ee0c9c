#include "tools/bot/bot_player.hpp"

#include <algorithm>
#include <random>
#include <thread>

#include "common/wire/any_match.hpp"

namespace castra::bot {

namespace req = client::requests;
using std::chrono::milliseconds;

namespace {

// Refusals in a row before the bot stops: a command from the legal list is never refused
// unless the bot misread the match, and reading it again did not help.
constexpr int kMaxRefusalsInARow = 5;
constexpr int kMaxBusyRetries = 50;

// 32 bytes of this machine's randomness: the bot's share of the match's dice.
std::string fresh_entropy() {
  std::random_device device;
  std::string e(32, '\0');
  for (auto& c : e)
    c = static_cast<char>(device() & 0xff);
  return e;
}

std::string text_of(const v1::ServerEnvelope& e) {
  return e.has_error() ? e.error().message() : e.ShortDebugString();
}

v1::ClientEnvelope provide_entropy(const std::string& id) {
  v1::ClientEnvelope e;
  e.mutable_provide_entropy()->set_match_id(id);
  e.mutable_provide_entropy()->set_entropy(fresh_entropy());
  return e;
}

v1::ClientEnvelope submit(const std::string& id, std::uint64_t seq, const v1::GameCommand& c) {
  v1::ClientEnvelope e;
  auto* s = e.mutable_submit_command();
  s->set_match_id(id);
  s->set_client_seq(seq);
  *s->mutable_command() = c;
  return e;
}

v1::ClientEnvelope decline(const std::string& id) {
  v1::ClientEnvelope e;
  e.mutable_answer_draw()->set_match_id(id);
  e.mutable_answer_draw()->set_accept(false);
  return e;
}

v1::ClientEnvelope export_record(const std::string& id) {
  v1::ClientEnvelope e;
  e.mutable_export_record()->set_match_id(id);
  return e;
}

}  // namespace

// What the bot knows of the match it plays.
struct BotPlayer::Game {
  GameResult result;
  std::uint64_t seq = 0;
  // Log entries known to be committed: an update about fewer is older than an answer the
  // bot already has, and its legal list is stale.
  std::uint32_t entries = 0;
  std::optional<v1::GameLegal> legal;  // the newest update's, while the bot must act
  std::optional<v1::Snapshot> board;   // when that update carried the board itself
  bool draw_pending = false;
  bool ended = false;
  std::optional<v1::ClientEnvelope> unanswered;  // a command sent without a CommandResult
  int refused_in_a_row = 0;

  const std::string& id() const { return result.match_id; }
  bool stopped() const { return !result.error.empty(); }
};

BotPlayer::BotPlayer(BotLink& link, PlayerOptions options)
    : link_(link), options_(std::move(options)), brain_(options_.strength, options_.seed) {}

GameResult BotPlayer::play_one() {
  Game g;
  if (seat(g) && subscribe(g)) play(g);
  if (g.ended && !g.result.finished && !g.stopped()) fetch_record(g);
  return std::move(g.result);
}

bool BotPlayer::seat(Game& g) {
  bool ok = false;
  switch (options_.seating) {
    case Seating::kCreate:
      ok = create(g);
      break;
    case Seating::kJoin:
      ok = join(g, options_.match_id);
      break;
    case Seating::kJoinOpen:
      ok = join_open(g);
      break;
  }
  if (!ok && g.result.error.empty()) g.result.error = link_.error();
  return ok;
}

bool BotPlayer::create(Game& g) {
  auto created = link_.call(req::create_match(options_.scenario, /*spectators=*/true));
  if (!created) return false;
  if (!created->has_match_created()) {
    g.result.error = "create " + options_.scenario + ": " + text_of(*created);
    return false;
  }
  g.result.match_id = created->match_created().match().match_id();
  auto sat = link_.call(provide_entropy(g.id()));
  if (!sat) return false;
  if (sat->has_error()) {
    g.result.error = "take a side: " + text_of(*sat);
    return false;
  }
  link_.note("created match " + g.id() + " of " + options_.scenario + "; waiting for an opponent");
  return true;
}

bool BotPlayer::join(Game& g, const std::string& id) {
  auto joined = link_.call(req::join_match(id, fresh_entropy()));
  if (!joined) return false;
  // Already seated: a restarted bot plays on in its match.
  if (joined->has_match_joined() ||
      (joined->has_error() && joined->error().code() == v1::ERROR_ALREADY_SEATED)) {
    g.result.match_id = id;
    link_.note("joined match " + id);
    return true;
  }
  g.result.error = "join " + id + ": " + text_of(*joined);
  return false;
}

bool BotPlayer::join_open(Game& g) {
  const auto give_up = std::chrono::steady_clock::now() + options_.find_timeout;
  while (std::chrono::steady_clock::now() < give_up) {
    auto list = link_.call(req::list_matches(v1::MATCH_OPEN, 100));
    if (!list) return false;
    for (const auto& m : list->matches().matches()) {
      if (!options_.scenario.empty() && m.scenario() != options_.scenario) continue;
      if (m.creator() == link_.name()) continue;
      auto joined = link_.call(req::join_match(m.match_id(), fresh_entropy()));
      if (!joined) return false;
      // Another player may have taken it first; then the next one.
      if (joined->has_match_joined()) {
        g.result.match_id = m.match_id();
        link_.note("joined open match " + m.match_id() + " of " + m.scenario());
        return true;
      }
    }
    std::this_thread::sleep_for(milliseconds(100));
  }
  g.result.error =
      "no open match" + (options_.scenario.empty() ? std::string() : " of " + options_.scenario);
  return false;
}

bool BotPlayer::subscribe(Game& g) {
  // Without last_seen_event: the first update brings the whole board, which is all the brain
  // needs.
  auto reply = link_.call(req::subscribe(g.id()));
  if (!reply) return false;
  if (!reply->has_subscribed() || reply->subscribed().role() != v1::ROLE_PLAYER) {
    g.result.error = "subscribe " + g.id() + ": " + text_of(*reply);
    return false;
  }
  g.result.side = wire::side_from_proto(reply->subscribed().side());
  link_.take_moved();  // subscribed where the link is now
  g.legal.reset();
  g.board.reset();
  g.draw_pending = false;
  return true;
}

void BotPlayer::play(Game& g) {
  auto heard = std::chrono::steady_clock::now();
  while (!g.ended && !g.stopped()) {
    if (link_.lost()) {
      if (!come_back(g)) return;
      continue;
    }
    // Everything already received is read before acting, so the bot acts on the newest.
    const bool busy = g.legal || g.draw_pending;
    if (auto push = link_.next_push(milliseconds(busy ? 1 : 250))) {
      apply(g, *push);
      heard = std::chrono::steady_clock::now();
      continue;
    }
    if (link_.lost()) continue;
    // A request was redirected to the match's owner: the subscription stayed behind.
    if (link_.take_moved()) {
      subscribe(g);
      continue;
    }
    if (g.draw_pending) decline_draw(g);
    if (g.legal) {
      move(g);
    } else if (std::chrono::steady_clock::now() - heard > options_.quiet_resync) {
      subscribe(g);
      heard = std::chrono::steady_clock::now();
    }
  }
}

void BotPlayer::apply(Game& g, const v1::ServerEnvelope& push) {
  if (push.has_match_update()) {
    apply_update(g, push.match_update());
  } else if (push.has_match_ended() && push.match_ended().match_id() == g.id()) {
    g.ended = true;
  } else if (push.has_notice() && push.notice().code() == v1::ERROR_SESSION_INVALID) {
    g.result.error = "the session was ended: " + push.notice().text();
  }
}

void BotPlayer::apply_update(Game& g, const v1::MatchUpdate& u) {
  if (u.match_id() != g.id()) return;
  if (u.has_record()) {
    g.result.record = u.record();
    g.result.finished = true;
    g.ended = true;
  }
  // The board (protocol 1.1), or a 1.0 server's status without it. An update with neither
  // (the spectator count, a draw offer) leaves the position, and the legal list, as they were.
  const v1::Snapshot* now = u.has_snapshot() ? &u.snapshot()
                            : u.has_status() ? &u.status()
                                             : nullptr;
  if (now != nullptr) {
    if (now->entry_count() < g.entries) return;
    g.entries = now->entry_count();
    g.ended = g.ended || now->ended();
    g.legal.reset();
    g.board.reset();
    if (u.your_move() && u.has_legal()) {
      g.legal = u.legal();
      if (u.has_snapshot()) g.board = u.snapshot();
    }
  }
  // A count of the room (no board, legal list, clocks or offer) says nothing of the offer.
  const bool count_only = now == nullptr && !u.has_legal() && !u.draw_offered() &&
                          u.deadline_a_ms() == 0 && u.deadline_b_ms() == 0;
  if (count_only) return;
  g.draw_pending = u.draw_offered() && u.draw_offered_by() != wire::side_to_proto(g.result.side);
}

void BotPlayer::move(Game& g) {
  if (!g.board) {
    // An update without the board (a protocol 1.0 server's): the bot's own view of the
    // position, fresh.
    auto reply = link_.call(req::get_snapshot(g.id(), g.entries));
    if (!reply) return;
    if (!reply->has_snapshot()) {
      g.result.error = "get the board: " + text_of(*reply);
      return;
    }
    g.board = reply->snapshot();
  }
  auto command = brain_.pick(*g.board, *g.legal, g.result.side);
  g.legal.reset();
  g.board.reset();
  if (!command) return;
  g.unanswered = submit(g.id(), ++g.seq, *command);
  send_command(g);
}

void BotPlayer::send_command(Game& g) {
  for (int attempt = 0; attempt < kMaxBusyRetries; ++attempt) {
    auto reply = link_.call(*g.unanswered);
    if (!reply) return;  // lost: come_back() sends it again, with the same client_seq
    if (reply->has_command_result()) {
      g.unanswered.reset();
      const auto& r = reply->command_result();
      if (r.accepted()) {
        ++g.result.commands;
        g.refused_in_a_row = 0;
        g.entries = std::max(g.entries, r.entry() + 1);
        return;
      }
      ++g.result.refused;
      if (++g.refused_in_a_row > kMaxRefusalsInARow) {
        g.result.error = "commands refused again and again: " + r.error().message();
      } else {
        subscribe(g);  // read the match afresh
      }
      return;
    }
    if (reply->has_error() && reply->error().code() == v1::ERROR_SERVER_BUSY) {
      std::this_thread::sleep_for(milliseconds(std::max<int>(10, reply->error().retry_after_ms())));
      continue;
    }
    g.unanswered.reset();
    if (reply->has_error() && reply->error().code() == v1::ERROR_MATCH_NOT_LIVE) {
      g.ended = true;
    } else {
      g.result.error = "submit: " + text_of(*reply);
    }
    return;
  }
  g.result.error = "the server stayed busy";
}

void BotPlayer::decline_draw(Game& g) {
  g.draw_pending = false;
  auto reply = link_.call(decline(g.id()));
  // The offer may be gone already (a command withdraws it): nothing to answer then.
  if (reply && !reply->has_error()) ++g.result.draws_declined;
}

void BotPlayer::fetch_record(Game& g) {
  for (int attempt = 0; attempt < 3 && !g.result.finished; ++attempt) {
    if (link_.lost() && !link_.reconnect()) break;
    auto reply = link_.call(export_record(g.id()));
    if (reply && reply->has_record()) {
      g.result.record = reply->record();
      g.result.finished = true;
    } else if (reply) {
      g.result.error = "export the record: " + text_of(*reply);
      return;
    }
  }
  if (!g.result.finished && g.result.error.empty()) g.result.error = link_.error();
}

bool BotPlayer::come_back(Game& g) {
  if (!link_.reconnect()) {
    g.result.error = link_.error();
    return false;
  }
  // Lost again on the way: the loop reconnects once more.
  if (!subscribe(g)) return !g.stopped();
  if (g.unanswered) {
    ++g.result.resent;
    send_command(g);
  }
  return !g.stopped();
}

}  // namespace castra::bot
