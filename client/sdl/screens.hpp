// The screens of castra-client: log-in, the lobby (matches and campaigns), the match (board,
// side panel, event log, clocks, confirmations, the end screen, spectator and replay modes) and
// the campaign (its battle graph, rosters, standings, the selection to make, its verification).
// Each draws itself with the Ui every frame and calls the Client's verbs. Render thread only.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "client/sdl/board_geometry.hpp"
#include "client/sdl/client.hpp"
#include "client/sdl/optio_play.hpp"
#include "client/sdl/roster_view.hpp"
#include "client/sdl/stand_play.hpp"
#include "client/sdl/ui.hpp"

namespace castra::client {

class LoginScreen {
 public:
  explicit LoginScreen(std::string server) : server_(std::move(server)) {}
  void draw(Ui& ui, Client& client);

 private:
  std::string server_;
  std::string name_;
  std::string password_;
  bool connected_once_ = false;
};

class LobbyScreen {
 public:
  void draw(Ui& ui, Client& client);

 private:
  void draw_list(Ui& ui, Client& client, const SDL_Rect& r);
  void draw_new_match(Ui& ui, Client& client, const SDL_Rect& r);
  // The battles to create a match of, above the list (scenario_picker.cpp).
  void draw_picker(Ui& ui, Client& client, const SDL_Rect& r);
  // The "against a person / the computer" rows of the form at y; the y below them.
  int draw_opponent(Ui& ui, int x, int bx, int y, int w);
  // The matches' rows (lobby_rows.cpp): each row's text stays inside its own column.
  static constexpr int kRowHeight = 64;
  static constexpr int kRowStep = 68;
  struct RowColumns {
    int title_x, title_w;      // the battle's title and its game
    int players_x, players_w;  // side A and side B: player and army
    int state_x, state_w;      // open, live, the result or "YOUR MOVE"
    int about_w;               // the third line (spectators, the battle in a sentence)
    int actions_right;         // the buttons end here
    int row_x, row_w;
  };
  static RowColumns row_columns(const SDL_Rect& list);
  void draw_row(Ui& ui, Client& client, const v1::MatchSummary& m, const RowColumns& c, int y);
  // Who is online at (x, y), each name a link to his page; the y below it.
  int draw_online(Ui& ui, Client& client, int x, int y, int w);
  // The campaigns' list and form (campaign_lobby.cpp).
  void draw_campaign_list(Ui& ui, Client& client, const SDL_Rect& r);
  void draw_new_campaign(Ui& ui, Client& client, const SDL_Rect& r);
  int tab_ = 0;     // open, live, finished, mine
  int scroll_ = 0;  // rows of the list scrolled past
  NewMatch form_;
  std::string private_id_;
  std::string private_code_;
  bool campaigns_ = false;  // the lobby shows campaigns, not matches
  int campaign_tab_ = -1;   // mine, open, live, finished; -1 until first shown
  NewCampaign campaign_form_;
  std::string campaign_id_;  // joining a private campaign
  std::string campaign_code_;
};

// A player's page: his rating per game, his record, his recent matches (player_screen.cpp).
class PlayerScreen {
 public:
  void draw(Ui& ui, Client& client);
};

// The end screen's rematch row for a finished match between two people: "Offer rematch", the
// offer sent, or the opponent's offer with "Accept rematch" (player_screen.cpp).
void draw_rematch(Ui& ui, Client& client, const SDL_Rect& r);

class CampaignScreen {
 public:
  void draw(Ui& ui, Client& client);
  RosterPicker& picker() { return picker_; }

 private:
  // True when the player asked to go back to the lobby.
  bool draw_top_bar(Ui& ui, Client& client, const SDL_Rect& r);
  void draw_panel(Ui& ui, Client& client, const SDL_Rect& r);
  // Each draws from y and returns the y below what it drew.
  int draw_next_battle(Ui& ui, Client& client, int x, int y, int w);
  int draw_action(Ui& ui, Client& client, int x, int y, int w);
  int draw_history(Ui& ui, Client& client, int x, int y, int w, int bottom);
  int draw_verification(Ui& ui, Client& client, int x, int y, int w);
  void draw_confirm(Ui& ui, Client& client);
  // The player has a selection to make for the battle named in the summary.
  bool selection_due(const Client& client) const;

  std::string campaign_id_;
  RosterPicker picker_;
  v1::Selection written_;  // offline: the selection written to the commands file
  int scroll_a_ = 0;
  int scroll_b_ = 0;
  bool confirm_resign_ = false;
  bool confirm_fresh_ = false;  // the dialog takes no input in the frame that opened it
  std::string saved_record_;
};

class MatchScreen {
 public:
  void draw(Ui& ui, Client& client);
  // The centre of board cell (col, row) as last drawn, for --script.
  std::optional<PointF> cell_centre(const Cell& c) const;
  // The last board's layout as JSON (for tests reading screenshots); "" before any board.
  std::string geometry_json() const;
  // True once after each "your move": the app plays its chime.
  bool take_chime();
  bool replaying() const { return replay_; }
  // The picture the board shows: in replay the server's picture for the current step (the
  // previous step's while it is fetched), else the latest.
  const v1::Snapshot* shown(const MatchData& m) const;
  // In replay, the step the board shows, once its picture is the current step's.
  std::optional<std::size_t> replay_shown_step(const MatchData& m) const;
  // Steps: the start (0), one per event of the log, then the end once the match is over.
  std::size_t replay_steps(const MatchData& m) const;
  bool end_shown() const { return end_open_; }
  bool confirming() const { return !confirm_question_.empty(); }
  OptioPlay& optio() { return optio_; }
  StandPlay& stand() { return stand_; }

 private:
  void draw_top_bar(Ui& ui, Client& client, const SDL_Rect& r);
  void draw_panel(Ui& ui, Client& client, const SDL_Rect& r);
  void draw_log(Ui& ui, Client& client, const SDL_Rect& r);
  void draw_board(Ui& ui, Client& client, const SDL_Rect& r);
  void draw_controls(Ui& ui, Client& client, const SDL_Rect& r);
  void draw_confirm(Ui& ui, Client& client);
  void draw_end(Ui& ui, Client& client);
  void draw_replay_controls(Ui& ui, Client& client, const SDL_Rect& r);
  void draw_replay_note(Ui& ui, const Client& client, const SDL_Rect& r);
  void replay_keys(Ui& ui, const Client& client);
  void start_replay();
  // The current step is the end (after the last event: the resignation, the result).
  bool replay_at_end(const MatchData& m) const;
  // The end step's line: the outcome and, when its reason does not say, the act that ended it.
  std::string replay_end_text(const MatchData& m) const;
  // The current step's picture: the events it reflects, or the end's key.
  std::uint64_t replay_key(const MatchData& m) const;
  // The current step's picture is on its way (the board shows the previous one).
  bool replay_loading(const MatchData& m) const;
  void replay_fetch(Client& client);
  // Autoplay: one step on once the step shown has been on the board for the speed's time.
  void replay_autoplay(const MatchData& m);
  void toggle_autoplay(const MatchData& m);
  // The log's line clicked last: its event's cells are ringed on the board (event_cells).
  void draw_located(Painter& p, const MatchData& m);
  void go_to_turn(Client& client);
  void ask(const std::string& question, const std::string& yes, std::optional<v1::GameCommand> cmd,
           int action);

  Camera camera_;
  OptioPlay optio_;
  StandPlay stand_;
  std::string match_id_;
  std::optional<SquareGeometry> squares_;
  std::optional<HexGeometry> hexes_;
  SDL_Rect board_area_{};
  int board_cols_ = 0;
  int board_rows_ = 0;
  // Confirmation dialog.
  std::string confirm_question_;
  std::string confirm_yes_;
  std::optional<v1::GameCommand> confirm_command_;
  int confirm_action_ = 0;  // 0: submit the command; 1: resign; 2: submit orders; 3: offer draw
  // The dialog takes no input in the frame that opened it, so the key that opened it (Return
  // on "End phase") does not also answer it.
  bool confirm_fresh_ = false;
  // "Your move": a gold flash for a moment and a chime.
  std::uint64_t seen_your_move_ = 0;
  std::chrono::steady_clock::time_point flash_until_{};
  bool chime_ = false;
  // End screen and replay.
  bool end_open_ = false;
  bool end_dismissed_ = false;
  bool show_cards_ = true;
  bool show_chains_ = false;  // Optio: the command overlay (C)
  std::string saved_record_;
  bool replay_ = false;
  std::size_t replay_pos_ = 0;  // the step: events shown log[0, replay_pos_); past them, the end
  // Where each game turn begins: (turn, the replay_pos_ that shows its first event).
  std::vector<std::pair<int, std::size_t>> turn_starts_;
  std::optional<v1::Snapshot> replay_board_;  // the server's picture the board shows
  std::uint64_t replay_board_key_ = 0;        // ... of this step (replay_key)
  std::string replay_turn_;                   // the "go to turn" field
  bool autoplay_ = false;
  int autoplay_speed_ = 1;                 // index into match_replay.cpp's speeds: 1x
  std::optional<std::size_t> step_shown_;  // the step on the board, since step_shown_at_
  std::chrono::steady_clock::time_point step_shown_at_{};
  // The event of the log line clicked last, whose place the board rings.
  std::optional<std::uint64_t> located_event_;
  // Event log scroll: lines from the bottom.
  int log_scroll_ = 0;
  std::string chat_;
};

}  // namespace castra::client
