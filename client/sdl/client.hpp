// Client: what castra-client knows (the account, the lobby, the open match and the open
// campaign as the server last described them) and the verbs the screens call. Its picture of a
// match comes only from the server: every MatchUpdate after a move carries the viewer's board,
// so it subscribes once on opening a match (and again after a reconnect) and never to stay
// current; a campaign likewise (SubscribeCampaign, then CampaignUpdated pushes). Offline
// (--snapshot, --campaign) it shows saved JSON and writes would-be commands to a file. The
// campaign verbs are in client_campaign.cpp. Render thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "client/sdl/session.hpp"
#include "proto/castra/v1/campaign.pb.h"
#include "proto/castra/v1/match.pb.h"
#include "proto/castra/v1/protocol.pb.h"
#include "proto/castra/v1/reasons.pb.h"

namespace castra::client {

enum class Screen { kLogin, kLobby, kMatch, kCampaign, kPlayer };
enum class MessageKind { kInfo, kOk, kError };

// What a message is about: once that is over the status bar stops saying it (a draw offer
// when answered or at the end of the match, an absence when the side is back or at the end).
enum class MessageAbout { kNothing, kDrawOffer, kPresence };

struct Message {
  std::string text;
  MessageKind kind = MessageKind::kInfo;
  std::chrono::steady_clock::time_point at{};
  MessageAbout about = MessageAbout::kNothing;
  // A deadline counted down live after the text ("... claim the win in 0:42"), then the rest.
  std::int64_t countdown_to_ms = 0;
  std::string after_countdown;
  // The text as the status bar shows it at `now_ms` (Unix milliseconds).
  std::string shown(std::int64_t now_ms) const;
};

struct Account {
  bool signed_in = false;
  bool guest = false;
  std::string name;
  std::string token;
};

struct LobbyData {
  std::vector<v1::ScenarioInfo> scenarios;
  std::vector<v1::MatchSummary> open;
  std::vector<v1::MatchSummary> live;
  std::vector<v1::MatchSummary> finished;
  std::vector<v1::MatchSummary> mine;
  // Campaigns: asked for only while the lobby shows them (campaigns_shown).
  bool campaigns_shown = false;
  std::vector<v1::CampaignDefinition> definitions;
  std::vector<v1::CampaignSummary> campaigns_mine;  // an action due first
  std::vector<v1::CampaignSummary> campaigns_open;
  std::vector<v1::CampaignSummary> campaigns_live;
  std::vector<v1::CampaignSummary> campaigns_finished;
  std::string campaigns_error;  // the last refusal of a campaign list, said once
  std::chrono::steady_clock::time_point refreshed{};
  int in_flight = 0;
};

// The campaign on screen, as the server described it.
struct CampaignData {
  std::string id;
  bool offline = false;
  bool subscribed = false;
  std::string invitation_code;
  std::optional<v1::CampaignView> view;
  std::uint64_t views_received = 0;
  // The exported record of a finished campaign (ExportCampaign), for its verification.
  std::optional<v1::CampaignRecord> record;
  bool record_requested = false;
  bool selection_in_flight = false;
  // Offline: the selection written to the commands file (the picker is done).
  bool selection_written = false;
  std::string refusal;  // the last refused selection, in words with its rule
  // The battle opened from this campaign: leaving its match screen comes back here.
  std::string battle_opened;
  // The dice commitment of each battle (by its number in the campaign, from 0) as this client
  // was shown it while the selections were made, before it gave its entropy: the battle's end
  // screen and the campaign's verification check the revealed seeds against these.
  std::map<int, std::string> dice_commitments;
};

// Players (client_players.cpp): the page on screen, who is online, and rematches.
struct PlayersData {
  std::string page_name;               // the player whose page is shown or asked for
  std::optional<v1::PlayerPage> page;  // its answer, once here
  std::string page_error;              // the refusal, said on the page
  std::optional<v1::OnlinePlayers> online;
  Screen page_from = Screen::kLobby;  // where the page's Back goes
  // A rematch the opponent offered, by the finished match's id.
  std::map<std::string, v1::RematchOffered> offered_to_me;
  // The rematch this player offered, by the finished match's id: the new match as created.
  std::map<std::string, v1::MatchSummary> offered_by_me;
};

// Settings of the "new campaign" form.
struct NewCampaign {
  std::string definition;
  v1::Side side = v1::SIDE_A;
  bool side_random = false;
  bool is_private = false;
  int selection_days = 3;
  int time_control = 2;  // index into kTimeControls: correspondence by default
  bool battle_spectators = true;
  int delay_turns = 0;
  bool campaign_spectators = true;  // the campaign's own page
};

// The match on screen, as the server described it.
struct MatchData {
  std::string id;
  bool offline = false;
  bool subscribed = false;
  v1::MatchSummary summary;
  v1::Role role = v1::ROLE_SPECTATOR;
  v1::Side side = v1::SIDE_A;
  std::uint32_t spectator_delay_turns = 0;
  std::optional<v1::Snapshot> snapshot;
  std::optional<v1::GameLegal> legal;     // sent only to the side that must act
  std::vector<v1::ViewEvent> log;         // every event seen, in order
  std::vector<v1::ViewEvent> last_batch;  // the latest MatchEvents, for the board's markers
  std::vector<v1::ChatLine> chat;
  std::int64_t deadline_a_ms = 0;
  std::int64_t deadline_b_ms = 0;
  bool draw_offered = false;
  v1::Side draw_offered_by = v1::SIDE_A;
  std::optional<v1::MatchEnded> ended;
  std::optional<v1::MatchRecord> record;
  bool record_requested = false;
  std::string commitment_at_start;  // the dice commitment shown when the match was opened
  std::uint32_t spectators = 0;
  bool your_move = false;             // the last MatchUpdate said so
  std::uint64_t your_move_count = 0;  // counts turns becoming ours, for the flash and chime
  std::uint64_t snapshots_received = 0;
  std::uint64_t last_client_seq = 0;
  bool catching_up = false;  // subscribed, and the board it brings has not come yet
  bool command_in_flight = false;
  // A command sent when the connection broke, before its answer came: sent again with the
  // same client_seq on reconnecting (the server answers a repeat with the first result).
  std::optional<v1::SubmitCommand> unanswered;
  std::string refusal;  // the last refusal of a command, in words
  // The opponent's connection, from PresenceChanged: away, and when the win may be claimed.
  bool opponent_away = false;
  // What the room was last told of each side's presence (A, B); nothing before the first.
  std::optional<bool> present[2];
  bool ever_present[2] = {false, false};  // a side seen connected: its return is news
  std::int64_t claim_from_ms = 0;
  // Replay: the server's pictures of the match after N events (GetSnapshot), by N.
  std::map<std::uint64_t, v1::Snapshot> past;
  std::optional<std::uint64_t> past_asked;  // the one request in flight
  std::chrono::steady_clock::time_point past_sent{};
  std::set<std::uint64_t> past_refused;  // answered with an error: not asked again
  bool replay_on_open = false;           // opened from the lobby's Replay
  // GetReasons answers for the board shown, by the piece asked about (its bytes; "" for the
  // command view alone), and the pieces asked about whose answer has not come yet.
  std::map<std::string, v1::PieceReasons> reasons;
  std::uint64_t reasons_for_events = 0;
  std::set<std::string> reasons_asked;
  // Once the match is over everything may be seen: the log is asked for once more, whole,
  // so that the events hidden while it was played are read (the replay's log hides nothing).
  bool reread_asked = false;
};

// Settings of the "new match" form.
struct NewMatch {
  std::string scenario;
  v1::Side side = v1::SIDE_A;
  bool side_random = false;
  int time_control = 0;  // index into kTimeControls
  bool spectators = true;
  int delay_turns = 0;
  bool is_private = false;
  // Against the server's computer (COMPUTER_NONE: against a person who joins).
  v1::ComputerStrength computer = v1::COMPUTER_NONE;
};

struct TimeControlChoice {
  const char* label;
  v1::TimeControl::Kind kind;
  std::uint32_t seconds_per_move;
  std::uint32_t grace_seconds;
};
inline constexpr TimeControlChoice kTimeControls[] = {
    {"Live: 10 min a move", v1::TimeControl::LIVE, 600, 120},
    {"Live: 3 min a move", v1::TimeControl::LIVE, 180, 60},
    {"Correspondence: 3 days", v1::TimeControl::CORRESPONDENCE, 3 * 86400, 0},
};

class Client {
 public:
  struct Options {
    std::string server;
    std::string ca_file;
    bool insecure = false;
    std::string commands_out;  // offline: where submitted commands are written
  };
  explicit Client(Options options);

  // ---- connection and account
  void connect(const std::string& url);
  Session& session() { return session_; }
  // The invitation code the match on screen was opened with (its watch link carries it).
  const std::string& invitation_code() const { return pending_invitation_; }
  bool online() const { return session_.status() == Session::Status::kReady; }
  void register_account(const std::string& name, const std::string& password);
  void login(const std::string& name, const std::string& password);
  void guest();
  void logout();

  // ---- lobby
  void refresh_lobby();
  void create_match(const NewMatch& settings);
  void join(const v1::MatchSummary& m, const std::string& invitation_code = "");
  // Shows the match and enters its room (SubscribeMatch), unless `enter` is false: the
  // caller subscribes once its seat is taken.
  void open_match(const std::string& match_id, const std::string& invitation_code = "",
                  bool enter = true);
  // Opens a finished match straight into its replay.
  void open_replay(const std::string& match_id);
  void leave_match_screen();
  // The creator withdraws a match nobody has joined (LeaveMatch).
  void withdraw();

  // ---- the match
  void submit(const v1::GameCommand& command);
  void resign();
  void offer_draw();
  void answer_draw(bool accept);
  void claim_win();
  void request_record();
  // Replay: the picture after the match's first `events` events (inside a command's entry
  // too: each event's own effect), or nullptr until the server has sent it. Asks for it
  // (GetSnapshot by event count) when it is neither cached nor refused: one request at a time
  // and a few a second, within the server's message rate, so stepping fast skips the pictures
  // in between. Cached by event count for the match on screen.
  const v1::Snapshot* past_snapshot(std::uint64_t events);
  void send_chat(const std::string& text);
  // Why one of the player's own pieces cannot act, and Optio's command view (GetReasons; no
  // piece: the command view alone), as the server says for the board shown: nullptr until
  // the answer is here. Asks once per piece and board (client_reasons.cpp).
  const v1::PieceReasons* reasons(const v1::Piece& piece);
  // Writes the exported record as JSON (protobuf's JSON mapping); the path, or "" and an error
  // message.
  std::string save_record(const std::string& dir);

  // ---- campaigns (client_campaign.cpp)
  void refresh_campaigns();
  void create_campaign(const NewCampaign& settings);
  void join_campaign(const std::string& campaign_id, const std::string& invitation_code = "");
  // Shows the campaign and follows it (SubscribeCampaign: the view, then CampaignUpdated).
  void open_campaign(const std::string& campaign_id, const std::string& invitation_code = "");
  void leave_campaign_screen();
  // The creator withdraws a campaign nobody has joined (LeaveCampaign).
  void withdraw_campaign();
  // Seals who fights the next battle, with 32 bytes of entropy for its dice.
  void submit_selection(const v1::Selection& selection);
  void pause_campaign(bool pause);
  void resign_campaign();
  // Opens the battle being fought (or a fought one's replay); its Lobby button comes back.
  void open_battle(const std::string& match_id, bool replay);
  void request_campaign_record();
  // Writes the exported CampaignRecord as JSON; the path, or "".
  std::string save_campaign_record(const std::string& dir);
  CampaignData& campaign() { return campaign_; }
  const CampaignData& campaign() const { return campaign_; }
  // Whether battle i of the campaign record's revealed seed hashes to its dice commitment,
  // which is the one shown before its selections when this client saw it: nullopt until the
  // record is here.
  std::optional<bool> battle_seed_matches(int i) const;

  // ---- players (client_players.cpp)
  // Shows a player's page (GetPlayer); Back returns to the screen it was opened from.
  void open_player(const std::string& name);
  void close_player();
  // Who is online (ListOnline), asked with the lobby's lists.
  void refresh_online();
  // Offers a rematch of the finished match on screen (OfferRematch, then its ProvideEntropy);
  // both players are moved to it when it starts.
  void offer_rematch();
  // Accepts the opponent's offered rematch of the match on screen: joins it.
  void accept_rematch();
  PlayersData& players() { return players_; }
  const PlayersData& players() const { return players_; }

  // ---- offline: a saved Snapshot (or Subscribed, or castra-sim's {"state": ...}) as JSON
  bool load_offline(const std::string& path, std::string* error);
  // A saved CampaignView (or JSON lines: CampaignView, then a CampaignRecord).
  bool load_offline_campaign(const std::string& path, std::string* error);

  // Handles the network; call once a frame.
  void update();

  Screen screen() const { return screen_; }
  void set_screen(Screen s) { screen_ = s; }
  const Account& account() const { return account_; }
  LobbyData& lobby() { return lobby_; }
  MatchData& match() { return match_; }
  const MatchData& match() const { return match_; }
  const std::vector<Message>& messages() const { return messages_; }
  void say(const std::string& text, MessageKind kind = MessageKind::kInfo);
  void say(Message m);
  // Drops the messages about what is over.
  void retire(MessageAbout about);
  bool my_move() const;
  // A spectator kept turns behind a match not over: shown the past, never the present's clocks.
  bool delayed_spectator() const;
  // Whether the seed revealed at the end hashes to the commitment shown at the start:
  // nullopt until both are known.
  std::optional<bool> seed_matches() const;

 private:
  void on_push(const v1::ServerEnvelope& e);
  void on_subscribed(const v1::Subscribed& s);
  void apply_update(const v1::MatchUpdate& u);
  // The board of an update that carries one, with who acts, the legal list and the clocks.
  void apply_board(const v1::MatchUpdate& u);
  // Enters the match's room from the events held (SubscribeMatch): the missed events come
  // with the board. `from_start`: from the first event, to read the whole log again.
  void subscribe(bool from_start = false);
  // An ended match whose log still holds events hidden while it was played: read it again
  // (they are revealed now), once.
  void reread_revealed_log();
  void signed_in(const v1::SessionResult& r);
  void append_events(const google::protobuf::RepeatedPtrField<v1::ViewEvent>& events,
                     bool as_batch);
  void report(const v1::ServerEnvelope& e, const std::string& doing);
  // Reconnects after a lost connection: the session token signs in again, the open match is
  // subscribed from its last event, and an unanswered command goes again. `why` is shown.
  void reconnect(const std::string& why = "The connection to the server was lost; reconnecting...");
  // A cluster's answer ERROR_MATCH_ELSEWHERE (docs/protocol.md): the one connection moves to
  // the owner's URL through reconnect() (lobby and accounts are served by every node), or, while
  // the match (or the campaigns) move, it is asked for again here after retry_after_ms. `again`
  // repeats a request reconnect() does not (a join from the lobby, a campaign's change);
  // empty: the open match is subscribed again and its unanswered command resent, as after any
  // reconnect. `what` names what moved in the status line. False for any other answer.
  bool follow_elsewhere(const v1::ServerEnvelope& r, std::function<void()> again = {},
                        const std::string& what = "Match");
  void send_command(const v1::SubmitCommand& command);
  std::string random_entropy() const;
  // A campaign view received (a reply or a CampaignUpdated push) for the one on screen.
  void apply_campaign(const v1::CampaignView& view);
  // Follows the campaign on screen (SubscribeCampaign): its view comes with the reply.
  void follow_campaign();
  void report_campaigns(const v1::ServerEnvelope& r);
  // A rematch pushed or started (client_players.cpp): offers are kept for the end screen, and
  // the player who offered is moved to the new match when it begins.
  void on_rematch_offered(const v1::RematchOffered& offer);
  void follow_rematch(const v1::MatchSummary& m);
  // Appends one JSON line to --commands-out (offline submissions).
  void write_offline(const google::protobuf::Message& m);

  Options options_;
  Session session_;
  Screen screen_ = Screen::kLogin;
  Account account_;
  LobbyData lobby_;
  MatchData match_;
  CampaignData campaign_;
  PlayersData players_;
  std::vector<Message> messages_;
  std::string pending_invitation_;
  std::chrono::steady_clock::time_point reconnect_at_{};
  std::chrono::seconds reconnect_delay_{1};
  bool reconnecting_ = false;
  // The address the player gave (a cluster's load balancer), kept while a redirect has the
  // connection on a match's owner: a lost owner is looked for through it again.
  std::string home_server_;
  // When to ask again for a match that is moving between a cluster's nodes; unset: never.
  std::chrono::steady_clock::time_point elsewhere_retry_at_{};
  // The request a redirect repeats once it has reconnected (or asks again), if any.
  std::function<void()> elsewhere_again_;
};

}  // namespace castra::client
