// Handlers: the domain work of each request kind, after the Dispatcher's checks, and the
// pushes that follow (chat, lobby updates). Protobuf stops here: handlers turn requests into
// calls on Accounts and Lobby and their results into replies. Service thread only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "server/accounts/accounts.hpp"
#include "server/campaign/campaigns.hpp"
#include "server/dispatch/clients.hpp"
#include "server/dispatch/dispatcher.hpp"
#include "server/lobby/lobby.hpp"
#include "server/net/network.hpp"
#include "server/notify/target_store.hpp"
#include "server/ratings/player_record.hpp"
#include "server/runtime/runtime.hpp"

namespace castra::dispatch {

struct Services {
  Clients& clients;
  accounts::Accounts& accounts;
  lobby::Lobby& lobby;
  const lobby::Scenarios& scenarios;
  server::Metrics& metrics;
  const net::NetOptions& net;
  const server::Clock& clock;
  std::string server_name;           // "castra-server/0.1.0"
  runtime::Runtime* play = nullptr;  // the match runtime; null in the lobby-only mode
  campaign_server::Campaigns* campaigns = nullptr;
  notify::TargetStore* notification_targets = nullptr;  // SetNotifications' store
  ratings::PlayerRecords* players = nullptr;  // GetPlayer's reads (ratings, finished matches)
};

class Handlers {
 public:
  explicit Handlers(Services services) : s_(std::move(services)) {}

  void hello(Call& call);
  void register_account(Call& call);
  void login(Call& call);
  void resume_session(Call& call);
  void guest_login(Call& call);
  void logout(Call& call);
  void change_password(Call& call);
  void ping(Call& call);

  void list_scenarios(Call& call);
  void create_match(Call& call);
  void list_matches(Call& call);
  void my_matches(Call& call);
  void join_match(Call& call);
  void leave_match(Call& call);
  void provide_entropy(Call& call);
  void subscribe_match(Call& call);
  void unsubscribe_match(Call& call);
  void send_chat(Call& call);
  void chat_history(Call& call);
  void mute_spectator(Call& call);

  // The match runtime's requests (server/dispatch/match_handlers.cpp).
  void submit_command(Call& call);
  void get_legal(Call& call);
  void get_reasons(Call& call);
  void resign(Call& call);
  void offer_draw(Call& call);
  void answer_draw(Call& call);
  void claim_win(Call& call);
  void export_record(Call& call);
  void get_snapshot(Call& call);
  // Campaigns (server/dispatch/campaign_handlers.cpp).
  void list_campaign_definitions(Call& call);
  void create_campaign(Call& call);
  void join_campaign(Call& call);
  void leave_campaign(Call& call);
  void my_campaigns(Call& call);
  void list_campaigns(Call& call);
  void get_campaign(Call& call);
  void submit_selection(Call& call);
  void pause_campaign(Call& call);
  void resign_campaign(Call& call);
  void subscribe_campaign(Call& call);
  void unsubscribe_campaign(Call& call);
  void export_campaign(Call& call);
  // A campaign changed (after its commit): its followers and its players' connections get
  // CampaignUpdated, each with his own view.
  void on_campaign_changed(const castra::v1::StoredCampaign& campaign);
  // A campaign's battle has begun: MatchUpdated to its players' connections.
  void on_battle_started(const store::MatchRow& row) { push_match_updated(row, 0); }

  // Players and rematches (server/dispatch/player_handlers.cpp).
  void get_player(Call& call);
  void list_online(Call& call);
  void offer_rematch(Call& call);

  // The account's reminder targets (server/dispatch/notify_handlers.cpp).
  void set_notifications(Call& call);
  // A connection has gone: its match observers stop, its seats count as away; it follows no
  // campaign any more.
  void client_gone(std::uint64_t client_id);
  // Requests this build does not serve (the lobby-only mode): ERROR_NOT_IMPLEMENTED.

  // Operators' actions (server/admin), also service thread.
  // Closes every connection of the account with a Notice; returns how many.
  int disconnect_account(std::int64_t account_id, server::ErrorCode code, const std::string& text);
  // Tells both players and the room that `row` ended without an outcome.
  void announce_closed(const store::MatchRow& row, const std::string& text);
  // A match's notice (server/runtime/match_host.hpp): YourMove to every connection of the
  // player who has to act that is not in the match's room.
  void on_notice(const runtime::HostNotice& notice);
  // Cluster mode, told by another node (LISTEN/NOTIFY): `match_id`'s row changed there
  // (MatchUpdated to this node's connections of its players), or `account` has to act in it
  // (YourMove to this node's connections of his).
  void remote_match_changed(const std::string& match_id);
  void remote_your_move(const std::string& match_id, std::int64_t account,
                        std::int64_t deadline_ms);
  // Cluster mode: the node hosting the campaigns changed `campaign_id`; this node's
  // followers and players hear of it (CampaignUpdated) as the host's do.
  void remote_campaign_changed(const std::string& campaign_id);
  // Every room member of a match that has just ended hears MatchEnded, seed revealed.
  void announce_ended(const std::string& match_id);

  castra::v1::MatchSummary summary(const store::MatchRow& row, std::int64_t viewer);

 private:
  void sign_in_reply(std::uint64_t client_id, const Reply& reply,
                     const server::Result<accounts::SignedIn>& result, bool show_token);
  // MatchUpdated to every connection of both players, except `except` (the requester).
  void push_match_updated(const store::MatchRow& row, std::uint64_t except);
  void push_chat(const store::MatchRow& row, const lobby::ChatLine& line);

  // `account` has taken its seat in `row`: its connections that watch the match as
  // spectators (they came before the seat was theirs) watch it as its player from now on.
  void seated(std::int64_t account, const store::MatchRow& row);
  // Starts MatchUpdate pushes of `row` to `client` (after its Subscribed reply).
  void watch(Client& client, const store::MatchRow& row, std::optional<int> seat,
             std::optional<std::uint64_t> seen_events);
  void unwatch(std::uint64_t client_id, const std::string& match_id);
  std::shared_ptr<runtime::MatchHost> host_of(const Call& call);
  // The same, loading an ended match back from the store when it has left memory.
  std::shared_ptr<runtime::MatchHost> loaded_host_of(const Call& call);
  // Why the caller may not read this match's past (record, snapshots): the rule of watching.
  std::optional<server::Failure> past_refused(const Call& call);

  castra::v1::CampaignView campaign_view(const castra::v1::StoredCampaign& c, std::int64_t viewer);
  castra::v1::CampaignSummary campaign_summary(const castra::v1::StoredCampaign& c,
                                               std::int64_t viewer);
  // Players and the creator always; others when it allows spectators (and with its code when
  // it is private).
  std::optional<server::Failure> may_follow(const Client& client,
                                            const castra::v1::StoredCampaign& c,
                                            const std::string& code);
  void campaign_client_gone(std::uint64_t client_id);
  // RematchOffered to the opponent when `row` is an offered rematch whose offerer is seated.
  void tell_rematch(const store::MatchRow& row);
  // The rematch `match_id` has started or been withdrawn: its offer is over.
  void forget_rematch(const std::string& match_id);

  Services s_;
  std::map<std::string, std::set<std::uint64_t>> campaign_followers_;  // by campaign id
  struct Watch {
    std::shared_ptr<runtime::Observer> observer;
    std::shared_ptr<runtime::MatchHost> host;
    std::optional<int> seat;
  };
  std::map<std::pair<std::uint64_t, std::string>, Watch> watches_;  // service thread only
  // Rematches offered and not yet started or withdrawn, by the finished match's id; in memory:
  // an offer lapses with a restart. Each is an open match of its offerer, so the open-match
  // limit per account bounds them.
  struct Rematch {
    std::string match_id;  // the new match
    std::int64_t from = 0;
    std::int64_t to = 0;
    std::string code;  // its invitation code
  };
  std::map<std::string, Rematch> rematches_;
};

}  // namespace castra::dispatch
