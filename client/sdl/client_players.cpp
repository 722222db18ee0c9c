// The Client's players verbs: a player's page, who is online, rematches (docs/protocol.md,
// "Players and rematches").
#include "client/sdl/client.hpp"

namespace castra::client {

void Client::open_player(const std::string& name) {
  if (screen_ != Screen::kPlayer) players_.page_from = screen_;
  players_.page_name = name;
  players_.page.reset();
  players_.page_error.clear();
  screen_ = Screen::kPlayer;
  v1::ClientEnvelope e;
  e.mutable_get_player()->set_name(name);
  session_.request(std::move(e), [this, name](const v1::ServerEnvelope& r) {
    if (players_.page_name != name) return;  // another page was asked for since
    if (!r.has_player()) {
      players_.page_error = r.has_error() ? r.error().message() : "no answer";
      return report(r, "Player");
    }
    players_.page = r.player();
  });
}

void Client::close_player() {
  screen_ = players_.page_from == Screen::kMatch && !match_.id.empty() ? Screen::kMatch
            : account_.signed_in                                       ? Screen::kLobby
                                                                       : Screen::kLogin;
}

void Client::refresh_online() {
  if (!online()) return;
  v1::ClientEnvelope e;
  e.mutable_list_online();
  session_.request(std::move(e), [this](const v1::ServerEnvelope& r) {
    if (r.has_online()) players_.online = r.online();
  });
}

void Client::offer_rematch() {
  const std::string finished = match_.id;
  const std::string opponent =
      match_.side == v1::SIDE_A ? match_.summary.player_b() : match_.summary.player_a();
  v1::ClientEnvelope e;
  e.mutable_offer_rematch()->set_match_id(finished);
  session_.request(std::move(e), [this, finished, opponent](const v1::ServerEnvelope& r) {
    if (!r.has_match_created()) return report(r, "Rematch");
    const v1::MatchSummary& rematch = r.match_created().match();
    players_.offered_by_me[finished] = rematch;
    say("Rematch offered: you play " + std::string(rematch.my_side() == v1::SIDE_A ? "A" : "B") +
            " this time; waiting for " + opponent + " to accept. Its dice commitment is " +
            rematch.dice_commitment().substr(0, 16) + "...",
        MessageKind::kOk);
    if (rematch.seated()) return;  // offered before: the seat is taken
    // The entropy goes in after the commitment was shown, as for a match created in the lobby.
    v1::ClientEnvelope p;
    p.mutable_provide_entropy()->set_match_id(rematch.match_id());
    p.mutable_provide_entropy()->set_entropy(random_entropy());
    session_.request(std::move(p), [this](const v1::ServerEnvelope& pr) { report(pr, "Rematch"); });
  });
}

void Client::accept_rematch() {
  const auto it = players_.offered_to_me.find(match_.id);
  if (it == players_.offered_to_me.end()) return;
  const v1::RematchOffered offer = it->second;
  join(offer.rematch(), offer.invitation_code());
}

void Client::on_rematch_offered(const v1::RematchOffered& offer) {
  players_.offered_to_me[offer.match_id()] = offer;
  say(offer.from() + " offers a rematch, sides swapped: accept it on the end screen.",
      MessageKind::kOk);
}

void Client::follow_rematch(const v1::MatchSummary& m) {
  if (m.status() != v1::MATCH_LIVE) return;
  for (const auto& [finished, rematch] : players_.offered_by_me) {
    if (rematch.match_id() != m.match_id()) continue;
    // Moved only from the finished match's screen: a player gone elsewhere is not pulled away.
    if (screen_ == Screen::kMatch && match_.id == finished) {
      const std::string commitment = rematch.dice_commitment();
      open_match(m.match_id());
      match_.summary = m;
      match_.commitment_at_start = commitment;
      say("The rematch begins.", MessageKind::kOk);
    }
    return;
  }
}

}  // namespace castra::client
