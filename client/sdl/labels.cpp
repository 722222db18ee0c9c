#include "client/sdl/labels.hpp"

#include <cstdio>

namespace castra::client {

namespace o = v1::optio;
namespace s = v1::stand;

std::string side_name(v1::Side side) {
  return side == v1::SIDE_B ? "side B" : "side A";
}
std::string side_letter(v1::Side side) {
  return side == v1::SIDE_B ? "B" : "A";
}
v1::Side other_side(v1::Side side) {
  return side == v1::SIDE_B ? v1::SIDE_A : v1::SIDE_B;
}

std::string optio_type_name(o::UnitType t) {
  switch (t) {
    case o::UNIT_TYPE_HEAVY_INFANTRY:
      return "heavy infantry";
    case o::UNIT_TYPE_PIKES:
      return "pikes";
    case o::UNIT_TYPE_WARBAND:
      return "warband";
    case o::UNIT_TYPE_LIGHT_INFANTRY:
      return "light infantry";
    case o::UNIT_TYPE_SKIRMISHERS:
      return "skirmishers";
    case o::UNIT_TYPE_ARCHERS:
      return "archers";
    case o::UNIT_TYPE_ELEPHANTS:
      return "elephants";
    case o::UNIT_TYPE_LIGHT_CAVALRY:
      return "light cavalry";
    case o::UNIT_TYPE_CAVALRY:
      return "cavalry";
    case o::UNIT_TYPE_HEAVY_CAVALRY:
      return "heavy cavalry";
    case o::UNIT_TYPE_CHARIOTS:
      return "chariots";
    default:
      return "unit";
  }
}

std::string optio_type_abbrev(o::UnitType t) {
  switch (t) {
    case o::UNIT_TYPE_HEAVY_INFANTRY:
      return "HI";
    case o::UNIT_TYPE_PIKES:
      return "Pk";
    case o::UNIT_TYPE_WARBAND:
      return "Wb";
    case o::UNIT_TYPE_LIGHT_INFANTRY:
      return "LI";
    case o::UNIT_TYPE_SKIRMISHERS:
      return "Sk";
    case o::UNIT_TYPE_ARCHERS:
      return "Ar";
    case o::UNIT_TYPE_ELEPHANTS:
      return "El";
    case o::UNIT_TYPE_LIGHT_CAVALRY:
      return "LC";
    case o::UNIT_TYPE_CAVALRY:
      return "Cv";
    case o::UNIT_TYPE_HEAVY_CAVALRY:
      return "HC";
    case o::UNIT_TYPE_CHARIOTS:
      return "Ch";
    default:
      return "?";
  }
}

std::string optio_terrain_name(o::Terrain t) {
  switch (t) {
    case o::TERRAIN_HILL:
      return "hill";
    case o::TERRAIN_WOODS:
      return "woods";
    case o::TERRAIN_MARSH:
      return "marsh";
    case o::TERRAIN_RIVER:
      return "river";
    case o::TERRAIN_FORD:
      return "ford";
    case o::TERRAIN_CAMP:
      return "camp";
    default:
      return "open";
  }
}

std::string optio_facing_name(int facing) {
  static const char* kNames[] = {"north", "east", "south", "west"};
  return facing >= 0 && facing < 4 ? kNames[facing] : "?";
}

std::string optio_phase_name(o::Phase p) {
  switch (p) {
    case o::PHASE_DEPLOYMENT:
      return "deployment";
    case o::PHASE_ORDERS:
      return "orders";
    case o::PHASE_MOVE:
      return "move";
    case o::PHASE_MELEE:
      return "melee";
    case o::PHASE_OVER:
      return "over";
    default:
      return "?";
  }
}

int optio_shaken_at(o::UnitType t) {
  switch (t) {
    case o::UNIT_TYPE_HEAVY_INFANTRY:
    case o::UNIT_TYPE_PIKES:
    case o::UNIT_TYPE_ARCHERS:
    case o::UNIT_TYPE_HEAVY_CAVALRY:
      return 2;
    default:
      return 1;
  }
}

bool optio_is_shaken(const o::Unit& u) {
  return u.morale() <= optio_shaken_at(u.type());
}

std::string stand_troop_name(s::Troop t, int count) {
  switch (t) {
    case s::TROOP_INFANTRY:
      return std::to_string(count) + " infantry";
    case s::TROOP_ARCHERS:
      return std::to_string(count) + (count == 1 ? " archer" : " archers");
    case s::TROOP_CAVALRY:
      return std::to_string(count) + " cavalry";
    case s::TROOP_CHARIOTS:
      return std::to_string(count) + (count == 1 ? " chariot" : " chariots");
    default:
      return std::to_string(count);
  }
}

std::string stand_terrain_name(s::Terrain t, s::Crossing c) {
  std::string base;
  switch (t) {
    case s::TERRAIN_WOODS:
      base = "woods";
      break;
    case s::TERRAIN_SWAMP:
      base = "swamp";
      break;
    case s::TERRAIN_TOWN:
      base = "town";
      break;
    case s::TERRAIN_HILL:
      base = "hill";
      break;
    case s::TERRAIN_STEEP:
      base = "steep";
      break;
    case s::TERRAIN_WATER:
      base = "water";
      break;
    default:
      base = "open";
      break;
  }
  if (c == s::CROSSING_FORD) base += " (ford)";
  if (c == s::CROSSING_BRIDGE) base += " (bridge)";
  return base;
}

std::string stand_facing_name(int facing) {
  static const char* kNames[] = {"east", "north-east", "north-west",
                                 "west", "south-west", "south-east"};
  return facing >= 0 && facing < 6 ? kNames[facing] : "?";
}

std::string stand_phase_name(s::Phase p) {
  switch (p) {
    case s::PHASE_ROLL_OFF:
      return "roll-off";
    case s::PHASE_DEPLOY:
      return "deployment";
    case s::PHASE_MOVE:
      return "move";
    case s::PHASE_FIGHT:
      return "fight";
    case s::PHASE_OVER:
      return "over";
    default:
      return "?";
  }
}

std::string stand_posture_name(s::Posture p) {
  return p == s::POSTURE_STANDING ? "Standing" : "Falling back";
}

std::string stand_figures_text(const s::Figures& f) {
  std::string out;
  auto add = [&](s::Troop t, int n) {
    if (n <= 0) return;
    if (!out.empty()) out += ", ";
    out += stand_troop_name(t, n);
  };
  add(s::TROOP_INFANTRY, f.infantry());
  add(s::TROOP_ARCHERS, f.archers());
  add(s::TROOP_CAVALRY, f.cavalry());
  add(s::TROOP_CHARIOTS, f.chariots());
  return out.empty() ? "no figures" : out;
}

int stand_figure_total(const s::Figures& f) {
  return f.infantry() + f.archers() + f.cavalry() + f.chariots();
}

std::string describe_error(const v1::Error& e) {
  std::string what;
  switch (e.code()) {
    case v1::ERROR_MALFORMED:
      what = "The server could not read a message from this client.";
      break;
    case v1::ERROR_UNKNOWN_MESSAGE:
      what = "The server does not know that request.";
      break;
    case v1::ERROR_VERSION_UNSUPPORTED:
      what = "This client's protocol version is not supported by the server; update the client.";
      break;
    case v1::ERROR_HANDSHAKE_REQUIRED:
      what = "The connection was not greeted in time.";
      break;
    case v1::ERROR_INVALID_REQUEST:
      what = "The request was incomplete or out of range.";
      break;
    case v1::ERROR_FRAME_TOO_LARGE:
      what = "A message was too large for the server.";
      break;
    case v1::ERROR_RATE_LIMITED:
      what = "Too many messages too fast; the server slowed this connection down.";
      break;
    case v1::ERROR_TOO_MANY_CONNECTIONS:
      what = "Too many connections from this address.";
      break;
    case v1::ERROR_SERVER_BUSY:
      what = "The server is busy; try again in a moment.";
      break;
    case v1::ERROR_NOT_IMPLEMENTED:
      what = "This server does not offer that yet.";
      break;
    case v1::ERROR_INTERNAL:
      what = "The server failed to do that (an internal error).";
      break;
    case v1::ERROR_SHUTTING_DOWN:
      what = "The server is shutting down.";
      break;
    case v1::ERROR_ALREADY_GREETED:
      what = "The connection was greeted twice.";
      break;
    case v1::ERROR_NOT_AUTHENTICATED:
      what = "Log in first (or play as a guest to watch).";
      break;
    case v1::ERROR_ALREADY_AUTHENTICATED:
      what = "You are already logged in.";
      break;
    case v1::ERROR_GUEST_NOT_ALLOWED:
      what = "Guests cannot do that; register an account.";
      break;
    case v1::ERROR_BAD_CREDENTIALS:
      what = "Wrong name or password.";
      break;
    case v1::ERROR_ACCOUNT_LOCKED:
      what = "Too many failed log-ins: this account is locked for a while.";
      break;
    case v1::ERROR_ACCOUNT_BANNED:
      what = "This account is banned.";
      break;
    case v1::ERROR_NAME_TAKEN:
      what = "That name is taken.";
      break;
    case v1::ERROR_NAME_INVALID:
      what = "Names are 3 to 24 letters, digits, '_' or '-'.";
      break;
    case v1::ERROR_PASSWORD_INVALID:
      what = "Passwords are 8 to 256 characters.";
      break;
    case v1::ERROR_SESSION_INVALID:
      what = "Your session has ended; log in again.";
      break;
    case v1::ERROR_MATCH_NOT_FOUND:
      what = "No such match (a private match needs its code).";
      break;
    case v1::ERROR_SCENARIO_NOT_FOUND:
      what = "No such scenario.";
      break;
    case v1::ERROR_MATCH_FULL:
      what = "That match is full.";
      break;
    case v1::ERROR_MATCH_NOT_OPEN:
      what = "That match is no longer open.";
      break;
    case v1::ERROR_ALREADY_SEATED:
      what = "You already have a seat in that match.";
      break;
    case v1::ERROR_NOT_SEATED:
      what = "Only the match's players may do that.";
      break;
    case v1::ERROR_BAD_INVITATION:
      what = "Wrong invitation code.";
      break;
    case v1::ERROR_SPECTATORS_NOT_ALLOWED:
      what = "This match does not allow spectators.";
      break;
    case v1::ERROR_NOT_SUBSCRIBED:
      what = "Open the match first.";
      break;
    case v1::ERROR_TOO_MANY_MATCHES:
      what = "You have too many open matches.";
      break;
    case v1::ERROR_ENTROPY_ALREADY_GIVEN:
      what = "Your dice entropy was already given.";
      break;
    case v1::ERROR_NOT_YOUR_TURN:
      what = "It is not your turn.";
      break;
    case v1::ERROR_MATCH_NOT_LIVE:
      what = "The match is not being played.";
      break;
    case v1::ERROR_NO_DRAW_OFFER:
      what = "There is no draw offer to answer.";
      break;
    case v1::ERROR_CLAIM_TOO_EARLY:
      what = "Your opponent's grace period is still running.";
      break;
    case v1::ERROR_SEQUENCE_GAP:
      what = "The server lost track of this client's commands; reopen the match.";
      break;
    case v1::ERROR_CAMPAIGN_NOT_FOUND:
      what = "No such campaign (a private campaign needs its code).";
      break;
    case v1::ERROR_DEFINITION_NOT_FOUND:
      what = "No such campaign definition.";
      break;
    case v1::ERROR_CAMPAIGN_NOT_OPEN:
      what = "That campaign has no free or vacant side to take.";
      break;
    case v1::ERROR_NOT_IN_CAMPAIGN:
      what = "Only the campaign's players may do that.";
      break;
    case v1::ERROR_NO_SELECTION_DUE:
      what = "No selection is due from you for that battle.";
      break;
    case v1::ERROR_CAMPAIGN_NOT_FINISHED:
      what = "The campaign's record is exported once it is finished.";
      break;
    case v1::ERROR_BAD_NOTIFICATION_TARGET:
      what = "Reminders go to an http(s) URL or an e-mail address.";
      break;
    default:
      what = "The server refused the request.";
      break;
  }
  const std::string& detail = e.message();
  // The client's own errors (no connection) carry no code: their message says it all.
  if (e.code() == v1::ERROR_UNSPECIFIED && !detail.empty()) return detail + ".";
  // The server's own words add the particulars (which field, how long); they follow ours,
  // unless ours already say all there is (its "a password is 8 to 256 bytes" only repeats it).
  const bool complete = e.code() == v1::ERROR_PASSWORD_INVALID ||
                        e.code() == v1::ERROR_BAD_CREDENTIALS || e.code() == v1::ERROR_NAME_TAKEN;
  if (!detail.empty() && detail != what && !complete) {
    if (!what.empty() && what.back() == '.') what.pop_back();
    what += ": " + detail;
  }
  if (e.retry_after_ms() > 0) {
    what += " Try again in " + std::to_string((e.retry_after_ms() + 999) / 1000) + " s.";
  }
  if (!what.empty() && what.back() != '.' && what.back() != ')') what += ".";
  return what;
}

std::string describe_refusal(const v1::RuleError& e) {
  std::string out = "Refused: " + (e.message().empty() ? std::string("the rules do not allow that")
                                                       : e.message());
  if (!e.rule().empty()) out += " (rule " + e.rule() + ")";
  return out;
}

std::string outcome_text(const v1::Outcome& o) {
  std::string s;
  switch (o.kind()) {
    case v1::Outcome::WIN_A:
      s = "Side A wins";
      break;
    case v1::Outcome::WIN_B:
      s = "Side B wins";
      break;
    default:
      s = "A draw";
      break;
  }
  if (!o.reason().empty()) s += ": " + o.reason();
  return s;
}

std::string end_reason_text(v1::EndReason r) {
  switch (r) {
    case v1::END_RESIGNED:
      return "resignation";
    case v1::END_DRAW_AGREED:
      return "a draw agreed";
    case v1::END_FORFEIT:
      return "a missed deadline";
    case v1::END_ABORTED:
      return "the match was ended by an operator";
    default:
      return "";
  }
}

std::string campaign_status_word(v1::CampaignStatus s) {
  switch (s) {
    case v1::CAMPAIGN_OPEN:
      return "open";
    case v1::CAMPAIGN_LIVE:
      return "live";
    case v1::CAMPAIGN_FINISHED:
      return "finished";
    case v1::CAMPAIGN_CLOSED:
      return "closed";
    default:
      return "";
  }
}

std::string campaign_result_word(v1::Outcome::Kind k) {
  switch (k) {
    case v1::Outcome::WIN_A:
      return "A won";
    case v1::Outcome::WIN_B:
      return "B won";
    default:
      return "draw";
  }
}

std::string format_remaining(std::int64_t ms) {
  if (ms <= 0) return "0:00";
  const std::int64_t s = ms / 1000;
  char buf[32];
  if (s >= 86400) {
    std::snprintf(buf, sizeof buf, "%lldd %lldh", static_cast<long long>(s / 86400),
                  static_cast<long long>((s % 86400) / 3600));
  } else if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", static_cast<long long>(s / 3600),
                  static_cast<long long>((s % 3600) / 60), static_cast<long long>(s % 60));
  } else {
    std::snprintf(buf, sizeof buf, "%lld:%02lld", static_cast<long long>(s / 60),
                  static_cast<long long>(s % 60));
  }
  return buf;
}

std::string count_text(int n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace castra::client
