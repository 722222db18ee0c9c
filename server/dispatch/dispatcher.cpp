#include "server/dispatch/dispatcher.hpp"

#include <cstdint>

#include <spdlog/spdlog.h>

#include "server/accounts/passwords.hpp"
#include "server/dispatch/handlers.hpp"
#include "server/lobby/lobby.hpp"
#include "server/notify/targets.hpp"

namespace castra::dispatch {

namespace v1 = castra::v1;
using server::ErrorCode;
using server::fail;
using server::Failure;
using Env = v1::ClientEnvelope;
using Form = std::optional<Failure>;

namespace {

constexpr std::size_t kMaxChatBytes = 500;
constexpr std::size_t kMinEntropy = 16;
constexpr std::size_t kMaxEntropy = 64;
constexpr std::uint32_t kMaxListLimit = 100;

Form invalid(std::string message) {
  return fail(v1::ERROR_INVALID_REQUEST, std::move(message));
}

Form entropy_form(const std::string& entropy) {
  if (entropy.size() < kMinEntropy || entropy.size() > kMaxEntropy) {
    return invalid("entropy is 16 to 64 bytes from the client's own random source");
  }
  return std::nullopt;
}

Form limit_form(std::uint32_t limit) {
  if (limit > kMaxListLimit) return invalid("limit is at most 100");
  return std::nullopt;
}

Form match_id_form(const std::string& id) {
  if (!lobby::well_formed_match_id(id)) return invalid("a match id is 32 lower-case hex digits");
  return std::nullopt;
}

Form register_form(const Env& e) {
  const auto& r = e.register_account();
  if (!accounts::valid_account_name(r.name())) {
    return fail(v1::ERROR_NAME_INVALID,
                "a name is 3-24 letters, digits, '_' or '-', and not guest-...");
  }
  if (!accounts::valid_password(r.password())) {
    return fail(v1::ERROR_PASSWORD_INVALID, "a password is 8 to 256 bytes");
  }
  return std::nullopt;
}

Form login_form(const Env& e) {
  const auto& r = e.login();
  if (r.name().empty() || r.name().size() > 64 || r.password().empty() ||
      r.password().size() > 256) {
    return invalid("a login needs a name and a password");
  }
  return std::nullopt;
}

Form resume_form(const Env& e) {
  if (e.resume_session().token().empty() || e.resume_session().token().size() > 64) {
    return invalid("a session token is 43 characters");
  }
  return std::nullopt;
}

Form change_password_form(const Env& e) {
  const auto& r = e.change_password();
  if (r.old_password().empty() || r.old_password().size() > 256) {
    return invalid("the old password is needed");
  }
  if (!accounts::valid_password(r.new_password())) {
    return fail(v1::ERROR_PASSWORD_INVALID, "a password is 8 to 256 bytes");
  }
  return std::nullopt;
}

Form list_scenarios_form(const Env& e) {
  const auto& r = e.list_scenarios().ruleset();
  if (!r.empty() && !lobby::current_rules_version(r)) return invalid("unknown rule set " + r);
  return std::nullopt;
}

Form create_match_form(const Env& e) {
  const auto& r = e.create_match();
  if (r.scenario().empty() || r.scenario().size() > 128) return invalid("name a scenario");
  auto settings = lobby::normalized_settings(r.settings());
  if (!settings) return settings.failure();
  return std::nullopt;
}

Form list_matches_form(const Env& e) {
  const auto& r = e.list_matches();
  if (r.status() != v1::MATCH_OPEN && r.status() != v1::MATCH_LIVE &&
      r.status() != v1::MATCH_FINISHED) {
    return invalid("list MATCH_OPEN, MATCH_LIVE or MATCH_FINISHED matches");
  }
  if (!r.ruleset().empty() && !lobby::current_rules_version(r.ruleset())) {
    return invalid("unknown rule set " + r.ruleset());
  }
  return limit_form(r.limit());
}

Form my_matches_form(const Env& e) {
  return limit_form(e.my_matches().limit());
}

Form join_form(const Env& e) {
  if (auto f = match_id_form(e.join_match().match_id())) return f;
  return entropy_form(e.join_match().entropy());
}

Form entropy_request_form(const Env& e) {
  if (auto f = match_id_form(e.provide_entropy().match_id())) return f;
  return entropy_form(e.provide_entropy().entropy());
}

Form send_chat_form(const Env& e) {
  const auto& r = e.send_chat();
  if (auto f = match_id_form(r.match_id())) return f;
  if (!v1::ChatChannel_IsValid(r.channel())) return invalid("unknown chat channel");
  if (r.text().empty() || r.text().size() > kMaxChatBytes) {
    return invalid("a chat line is 1 to 500 bytes");
  }
  return std::nullopt;
}

Form chat_history_form(const Env& e) {
  const auto& r = e.chat_history();
  if (auto f = match_id_form(r.match_id())) return f;
  if (!v1::ChatChannel_IsValid(r.channel())) return invalid("unknown chat channel");
  return limit_form(r.limit());
}

Form mute_form(const Env& e) {
  const std::string& name =
      e.has_mute_spectator() ? e.mute_spectator().name() : e.unmute_spectator().name();
  if (name.empty() || name.size() > 64) return invalid("name the spectator");
  return std::nullopt;
}

Form submit_form(const Env& e) {
  if (auto bad = match_id_form(e.submit_command().match_id())) return bad;
  if (e.submit_command().client_seq() == 0) return invalid("client_seq starts at 1");
  // Stored as SQLite's signed 64 bits: a larger one would wrap to a negative number.
  if (e.submit_command().client_seq() > static_cast<std::uint64_t>(INT64_MAX)) {
    return invalid("client_seq is at most 2^63-1");
  }
  if (e.submit_command().command().game_case() == v1::GameCommand::GAME_NOT_SET) {
    return invalid("the command is empty");
  }
  return std::nullopt;
}

Form campaign_id_form(const std::string& id) {
  if (!lobby::well_formed_match_id(id)) return invalid("a campaign id is 32 lower-case hex digits");
  return std::nullopt;
}

Form create_campaign_form(const Env& e) {
  const auto& r = e.create_campaign();
  if (r.definition().empty() || r.definition().size() > 128) return invalid("name a campaign");
  return std::nullopt;
}

Form list_campaigns_form(const Env& e) {
  const auto& r = e.list_campaigns();
  if (r.status() != v1::CAMPAIGN_OPEN && r.status() != v1::CAMPAIGN_LIVE &&
      r.status() != v1::CAMPAIGN_FINISHED) {
    return invalid("list CAMPAIGN_OPEN, CAMPAIGN_LIVE or CAMPAIGN_FINISHED campaigns");
  }
  return limit_form(r.limit());
}

Form submit_selection_form(const Env& e) {
  const auto& r = e.submit_selection();
  if (auto f = campaign_id_form(r.campaign_id())) return f;
  if (r.node().empty() || r.node().size() > 64) return invalid("name the battle");
  if (r.selection().units_size() > 255 || r.selection().leaders_size() > 255) {
    return invalid("a selection names at most 255 units and 255 leaders");
  }
  return entropy_form(r.entropy());
}

#define CASTRA_CAMPAIGN_FORM(field) \
  [](const Env& e) -> Form { return campaign_id_form(e.field().campaign_id()); }

Form set_notifications_form(const Env& e) {
  const auto& r = e.set_notifications();
  return notify::check_targets(notify::Targets{r.webhook_url(), r.email()});
}

Form get_player_form(const Env& e) {
  const auto& r = e.get_player();
  if (r.name().empty() || r.name().size() > 64) return invalid("name the player");
  if (r.recent_limit() > 50) return invalid("recent_limit is at most 50");
  return std::nullopt;
}

// Each kind's match id, for the match checks.
#define CASTRA_MATCH_ID(field) \
  [](const Env& e) -> const std::string& { return e.field().match_id(); }

#define CASTRA_ID_FORM(field) \
  [](const Env& e) -> Form { return match_id_form(e.field().match_id()); }

}  // namespace

const std::vector<Route>& routes() {
  using A = Access;
  using M = MatchCheck;
  using H = Handlers;
  static const std::vector<Route> kRoutes = {
      {Env::kHello, "hello", A::kAnyone, M::kNone, nullptr, nullptr, &H::hello},
      {Env::kRegisterAccount, "register", A::kSigningIn, M::kNone, nullptr, register_form,
       &H::register_account},
      {Env::kLogin, "login", A::kSigningIn, M::kNone, nullptr, login_form, &H::login},
      {Env::kResumeSession, "resume_session", A::kSigningIn, M::kNone, nullptr, resume_form,
       &H::resume_session},
      {Env::kGuestLogin, "guest_login", A::kSigningIn, M::kNone, nullptr, nullptr, &H::guest_login},
      {Env::kLogout, "logout", A::kIdentified, M::kNone, nullptr, nullptr, &H::logout},
      {Env::kChangePassword, "change_password", A::kAccount, M::kNone, nullptr,
       change_password_form, &H::change_password},
      {Env::kPing, "ping", A::kGreeted, M::kNone, nullptr, nullptr, &H::ping},

      {Env::kListScenarios, "list_scenarios", A::kIdentified, M::kNone, nullptr,
       list_scenarios_form, &H::list_scenarios},
      {Env::kCreateMatch, "create_match", A::kAccount, M::kNone, nullptr, create_match_form,
       &H::create_match},
      {Env::kListMatches, "list_matches", A::kIdentified, M::kNone, nullptr, list_matches_form,
       &H::list_matches},
      {Env::kMyMatches, "my_matches", A::kAccount, M::kNone, nullptr, my_matches_form,
       &H::my_matches},
      {Env::kJoinMatch, "join_match", A::kAccount, M::kExists, CASTRA_MATCH_ID(join_match),
       join_form, &H::join_match},
      {Env::kLeaveMatch, "leave_match", A::kAccount, M::kExists, CASTRA_MATCH_ID(leave_match),
       CASTRA_ID_FORM(leave_match), &H::leave_match},
      {Env::kProvideEntropy, "provide_entropy", A::kAccount, M::kExists,
       CASTRA_MATCH_ID(provide_entropy), entropy_request_form, &H::provide_entropy},
      {Env::kSubscribeMatch, "subscribe_match", A::kIdentified, M::kExists,
       CASTRA_MATCH_ID(subscribe_match), CASTRA_ID_FORM(subscribe_match), &H::subscribe_match},
      {Env::kUnsubscribeMatch, "unsubscribe_match", A::kIdentified, M::kNone, nullptr,
       CASTRA_ID_FORM(unsubscribe_match), &H::unsubscribe_match},
      {Env::kSendChat, "send_chat", A::kAccount, M::kExists, CASTRA_MATCH_ID(send_chat),
       send_chat_form, &H::send_chat},
      {Env::kChatHistory, "chat_history", A::kIdentified, M::kExists, CASTRA_MATCH_ID(chat_history),
       chat_history_form, &H::chat_history},
      {Env::kMuteSpectator, "mute_spectator", A::kAccount, M::kSeated,
       CASTRA_MATCH_ID(mute_spectator), mute_form, &H::mute_spectator},
      {Env::kUnmuteSpectator, "unmute_spectator", A::kAccount, M::kSeated,
       CASTRA_MATCH_ID(unmute_spectator), mute_form, &H::mute_spectator},

      // Only the seat: a repeated command must get its first answer even after the turn has
      // passed; the runtime checks the turn (rule "match.turn") after that.
      {Env::kSubmitCommand, "submit_command", A::kAccount, M::kSeated,
       CASTRA_MATCH_ID(submit_command), submit_form, &H::submit_command},
      {Env::kGetLegal, "get_legal", A::kAccount, M::kSeated, CASTRA_MATCH_ID(get_legal),
       CASTRA_ID_FORM(get_legal), &H::get_legal},
      {Env::kGetReasons, "get_reasons", A::kAccount, M::kSeated, CASTRA_MATCH_ID(get_reasons),
       CASTRA_ID_FORM(get_reasons), &H::get_reasons},
      {Env::kResign, "resign", A::kAccount, M::kSeated, CASTRA_MATCH_ID(resign),
       CASTRA_ID_FORM(resign), &H::resign},
      {Env::kOfferDraw, "offer_draw", A::kAccount, M::kSeated, CASTRA_MATCH_ID(offer_draw),
       CASTRA_ID_FORM(offer_draw), &H::offer_draw},
      {Env::kAnswerDraw, "answer_draw", A::kAccount, M::kSeated, CASTRA_MATCH_ID(answer_draw),
       CASTRA_ID_FORM(answer_draw), &H::answer_draw},
      {Env::kClaimWin, "claim_win", A::kAccount, M::kSeated, CASTRA_MATCH_ID(claim_win),
       CASTRA_ID_FORM(claim_win), &H::claim_win},
      {Env::kExportRecord, "export_record", A::kIdentified, M::kExists,
       CASTRA_MATCH_ID(export_record), CASTRA_ID_FORM(export_record), &H::export_record},
      {Env::kGetSnapshot, "get_snapshot", A::kIdentified, M::kExists, CASTRA_MATCH_ID(get_snapshot),
       CASTRA_ID_FORM(get_snapshot), &H::get_snapshot},

      {Env::kListCampaignDefinitions, "list_campaign_definitions", A::kIdentified, M::kNone,
       nullptr, nullptr, &H::list_campaign_definitions},
      {Env::kCreateCampaign, "create_campaign", A::kAccount, M::kNone, nullptr,
       create_campaign_form, &H::create_campaign},
      {Env::kJoinCampaign, "join_campaign", A::kAccount, M::kNone, nullptr,
       CASTRA_CAMPAIGN_FORM(join_campaign), &H::join_campaign},
      {Env::kLeaveCampaign, "leave_campaign", A::kAccount, M::kNone, nullptr,
       CASTRA_CAMPAIGN_FORM(leave_campaign), &H::leave_campaign},
      {Env::kMyCampaigns, "my_campaigns", A::kAccount, M::kNone, nullptr,
       [](const Env& e) -> Form { return limit_form(e.my_campaigns().limit()); }, &H::my_campaigns},
      {Env::kListCampaigns, "list_campaigns", A::kIdentified, M::kNone, nullptr,
       list_campaigns_form, &H::list_campaigns},
      {Env::kGetCampaign, "get_campaign", A::kIdentified, M::kNone, nullptr,
       CASTRA_CAMPAIGN_FORM(get_campaign), &H::get_campaign},
      {Env::kSubmitSelection, "submit_selection", A::kAccount, M::kNone, nullptr,
       submit_selection_form, &H::submit_selection},
      {Env::kPauseCampaign, "pause_campaign", A::kAccount, M::kNone, nullptr,
       CASTRA_CAMPAIGN_FORM(pause_campaign), &H::pause_campaign},
      {Env::kResignCampaign, "resign_campaign", A::kAccount, M::kNone, nullptr,
       CASTRA_CAMPAIGN_FORM(resign_campaign), &H::resign_campaign},
      {Env::kSubscribeCampaign, "subscribe_campaign", A::kIdentified, M::kNone, nullptr,
       CASTRA_CAMPAIGN_FORM(subscribe_campaign), &H::subscribe_campaign},
      {Env::kUnsubscribeCampaign, "unsubscribe_campaign", A::kIdentified, M::kNone, nullptr,
       CASTRA_CAMPAIGN_FORM(unsubscribe_campaign), &H::unsubscribe_campaign},
      {Env::kExportCampaign, "export_campaign", A::kIdentified, M::kNone, nullptr,
       CASTRA_CAMPAIGN_FORM(export_campaign), &H::export_campaign},

      {Env::kSetNotifications, "set_notifications", A::kAccount, M::kNone, nullptr,
       set_notifications_form, &H::set_notifications},

      {Env::kGetPlayer, "get_player", A::kIdentified, M::kNone, nullptr, get_player_form,
       &H::get_player},
      {Env::kListOnline, "list_online", A::kIdentified, M::kNone, nullptr, nullptr,
       &H::list_online},
      {Env::kOfferRematch, "offer_rematch", A::kAccount, M::kSeated, CASTRA_MATCH_ID(offer_rematch),
       CASTRA_ID_FORM(offer_rematch), &H::offer_rematch},
  };
  return kRoutes;
}

std::vector<std::string> metric_kinds() {
  std::vector<std::string> out;
  for (const auto& r : routes())
    out.emplace_back(r.name);
  out.emplace_back("unknown");
  return out;
}

Dispatcher::Dispatcher(Clients& clients, MatchLookup& matches, Handlers& handlers,
                       server::Metrics* metrics)
    : clients_(clients), matches_(matches), handlers_(handlers), metrics_(metrics) {
  const auto& table = routes();
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto kind = static_cast<std::size_t>(table[i].kind);
    if (index_.size() <= kind) index_.resize(kind + 1, -1);
    index_[kind] = static_cast<int>(i);
  }
}

std::optional<Failure> Dispatcher::check_access(const Route& route, const Client& client) const {
  if (route.access == Access::kAnyone) return std::nullopt;
  if (!client.greeted) {
    return fail(v1::ERROR_HANDSHAKE_REQUIRED, "say Hello with your protocol version first");
  }
  switch (route.access) {
    case Access::kAnyone:
    case Access::kGreeted:
      return std::nullopt;
    case Access::kSigningIn:
      if (client.identity == Identity::kAccount) {
        return fail(v1::ERROR_ALREADY_AUTHENTICATED, "already signed in; log out first");
      }
      if (client.auth_pending) {
        return fail(v1::ERROR_SERVER_BUSY, "a sign-in is already running on this connection", 500);
      }
      return std::nullopt;
    case Access::kIdentified:
      if (client.identity == Identity::kNone) {
        return fail(v1::ERROR_NOT_AUTHENTICATED, "log in (or as a guest) first");
      }
      return std::nullopt;
    case Access::kAccount:
      if (client.identity == Identity::kNone) {
        return fail(v1::ERROR_NOT_AUTHENTICATED, "log in first");
      }
      if (client.identity == Identity::kGuest) {
        return fail(v1::ERROR_GUEST_NOT_ALLOWED, "guests may watch; this needs an account");
      }
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Failure> Dispatcher::check_match(const Route& route, Call& call) {
  if (route.match == MatchCheck::kNone) return std::nullopt;
  const std::string& id = route.match_id(call.request);
  call.match = matches_.find(id);
  if (!call.match) return fail(v1::ERROR_MATCH_NOT_FOUND, "no match " + id);
  // An unfinished match is served by the one node that hosts it; an ended one by any node.
  const bool unfinished = call.match->status == store::MatchStatus::kOpen ||
                          call.match->status == store::MatchStatus::kLive;
  if (unfinished) {
    if (auto f = matches_.elsewhere(*call.match)) return f;
  }
  if (route.match == MatchCheck::kExists) return std::nullopt;
  const auto side = lobby::seat_of(*call.match, call.client.account_id);
  if (!side) return fail(v1::ERROR_NOT_SEATED, "you have no seat in this match");
  call.side = *side;
  return std::nullopt;
}

void Dispatcher::dispatch(std::uint64_t client_id, const v1::ClientEnvelope& request,
                          Clock::time_point received) {
  Client* client = clients_.find(client_id);
  if (client == nullptr) return;  // it closed while the request waited
  const auto kind = static_cast<std::size_t>(request.body_case());
  const int index = kind < index_.size() ? index_[kind] : -1;
  const std::size_t metric =
      index >= 0 ? static_cast<std::size_t>(index) : routes().size() + kUnknownKind;
  Reply reply(client->connection, request.request_id(), metric, received, metrics_);

  // Unattributable before unknown: an empty frame is answered as a ping without request_id.
  if (request.request_id() == 0) {
    return reply.fail(fail(v1::ERROR_INVALID_REQUEST, "every request needs a request_id"));
  }
  if (index < 0) {
    return reply.fail(
        fail(v1::ERROR_UNKNOWN_MESSAGE, "this server does not know that request (protocol " +
                                            std::to_string(v1::PROTOCOL_MAJOR) + "." +
                                            std::to_string(v1::PROTOCOL_MINOR) + ")"));
  }
  const Route& route = routes()[static_cast<std::size_t>(index)];
  Call call{*client, request, reply, std::nullopt, -1};
  if (auto f = check_access(route, *client)) return reply.fail(*f);
  if (route.form != nullptr) {
    if (auto f = route.form(request)) return reply.fail(*f);
  }
  if (auto f = check_match(route, call)) return reply.fail(*f);
  spdlog::debug("event=request kind={} connection={} request={}", route.name, client_id,
                request.request_id());
  (handlers_.*route.handle)(call);
}

}  // namespace castra::dispatch
