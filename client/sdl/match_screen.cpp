#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

#include "client/sdl/command_overlay.hpp"
#include "client/sdl/computer_mark.hpp"
#include "client/sdl/control_row.hpp"
#include "client/sdl/event_cells.hpp"
#include "client/sdl/forecast_panel.hpp"
#include "client/sdl/labels.hpp"
#include "client/sdl/optio_board.hpp"
#include "client/sdl/screens.hpp"
#include "client/sdl/stand_board.hpp"
#include "client/sdl/theme.hpp"
#include "client/sdl/watch_link.hpp"

namespace castra::client {

namespace {

constexpr int kControlsHeight = 50;
constexpr int kReplayNoteHeight = 44;  // the replay's step and keys, under the board
constexpr int kActionSubmit = 0;
constexpr int kActionResign = 1;
constexpr int kActionOrders = 2;
constexpr int kActionDraw = 3;
constexpr int kActionWithdraw = 4;
constexpr int kActionClaim = 5;
constexpr int kChatLines = 3;

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int wrap_text(Painter& p, const std::string& text, int x, int y, int width, SDL_Color c,
              int size = 14, Weight w = Weight::kRegular) {
  for (const auto& line : p.wrap(text, size, width, w)) {
    p.text(line, x, y, size, c, Align::kLeft, w);
    y += p.line_height(size, w);
  }
  return y;
}

std::string turns_text(std::uint32_t n) {
  return std::to_string(n) + (n == 1 ? " turn" : " turns");
}

std::string phase_text(const v1::Snapshot& s) {
  if (s.state().has_optio()) return optio_phase_name(s.state().optio().phase());
  if (s.state().has_stand()) return stand_phase_name(s.state().stand().phase());
  return s.phase();
}

int turn_limit(const v1::Snapshot& s) {
  if (s.state().has_optio()) return s.state().optio().turn_limit();
  if (s.state().has_stand()) return s.state().stand().turn_limit();
  return 0;
}

int turn_of(const v1::Snapshot& s) {
  if (s.turn() > 0) return s.turn();
  if (s.state().has_optio()) return s.state().optio().turn();
  if (s.state().has_stand()) return s.state().stand().game_turn();
  return 0;
}

// The game turn of a phase an event starts (Optio's PhaseStarted, STAND!'s PhaseBegan), read
// from the event's own field; 0 before the battle.
int phase_turn(const v1::ViewEvent& e) {
  if (!e.has_event()) return 0;
  if (e.event().has_optio() && e.event().optio().has_phase_started())
    return e.event().optio().phase_started().turn();
  if (e.event().has_stand() && e.event().stand().has_phase_began())
    return e.event().stand().phase_began().game_turn();
  return 0;
}

// A game turn begins with the first event that starts a phase of it: the first moment the
// match's Snapshot.turn reads that turn. (turn, events shown through that event) per turn.
std::vector<std::pair<int, std::size_t>> find_turn_starts(const std::vector<v1::ViewEvent>& log) {
  std::vector<std::pair<int, std::size_t>> out;
  for (std::size_t i = 0; i < log.size(); ++i) {
    const int t = phase_turn(log[i]);
    if (t > (out.empty() ? 0 : out.back().first)) out.push_back({t, i + 1});
  }
  return out;
}

std::string event_line(const v1::ViewEvent& e) {
  if (!e.text().empty()) return e.text();
  if (!e.has_event()) {
    std::string s = "(hidden: " + side_name(e.owner()) + "'s ";
    s += e.visibility() == v1::VISIBILITY_SEALED ? "sealed event" : "private event";
    if (!e.commitment().empty()) s += ", commitment " + e.commitment().substr(0, 12) + "...";
    return s + ")";
  }
  return "(event " + std::to_string(e.number()) + ")";
}

}  // namespace

bool MatchScreen::take_chime() {
  const bool c = chime_;
  chime_ = false;
  return c;
}

std::optional<PointF> MatchScreen::cell_centre(const Cell& c) const {
  if (squares_) return squares_->centre(c.col, c.row);
  if (hexes_) return hexes_->centre(c.col, c.row);
  return std::nullopt;
}

std::string MatchScreen::geometry_json() const {
  if (!squares_ && !hexes_) return "";
  std::ostringstream out;
  out << "{\"kind\":\"" << (squares_ ? "square" : "hex")
      << "\",\"size\":" << (squares_ ? squares_->cell() : hexes_->size()) << ",\"cells\":[";
  bool first = true;
  const int c0 = squares_ ? 1 : 0;
  for (int row = c0; row < board_rows_ + c0; ++row) {
    for (int col = c0; col < board_cols_ + c0; ++col) {
      const PointF m = *cell_centre({col, row});
      out << (first ? "" : ",") << "{\"col\":" << col << ",\"row\":" << row
          << ",\"x\":" << std::lround(m.x) << ",\"y\":" << std::lround(m.y) << "}";
      first = false;
    }
  }
  out << "]}";
  return out.str();
}

const v1::Snapshot* MatchScreen::shown(const MatchData& m) const {
  if (replay_ && replay_board_) return &*replay_board_;
  return m.snapshot ? &*m.snapshot : nullptr;
}

void MatchScreen::ask(const std::string& question, const std::string& yes,
                      std::optional<v1::GameCommand> cmd, int action) {
  confirm_question_ = question;
  confirm_yes_ = yes;
  confirm_command_ = std::move(cmd);
  confirm_action_ = action;
  confirm_fresh_ = true;
}

void MatchScreen::draw(Ui& ui, Client& client) {
  auto& m = client.match();
  if (m.id != match_id_) {
    // Another match: start clean.
    match_id_ = m.id;
    camera_.reset();
    optio_.forget();
    stand_.forget();
    end_open_ = false;
    end_dismissed_ = false;
    replay_ = false;
    replay_pos_ = 0;
    replay_board_.reset();
    replay_turn_.clear();
    autoplay_ = false;
    step_shown_.reset();
    located_event_.reset();
    saved_record_.clear();
    confirm_question_.clear();
    seen_your_move_ = m.your_move_count;
    log_scroll_ = 0;
  }
  if (m.replay_on_open) {
    m.replay_on_open = false;
    start_replay();
  }
  turn_starts_ = find_turn_starts(m.log);
  if (replay_) {
    replay_fetch(client);
    replay_autoplay(m);
  }
  if (m.your_move_count != seen_your_move_) {
    seen_your_move_ = m.your_move_count;
    flash_until_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(1600);
    chime_ = true;
  }
  const bool ended = (m.snapshot && m.snapshot->ended()) || m.ended.has_value();
  if (ended && !end_dismissed_) end_open_ = true;
  const bool modal = end_open_ || !confirm_question_.empty();

  Painter& p = ui.painter();
  p.clear(theme::kBackground);
  const int W = ui.width();
  const int H = ui.height() - theme::kStatusBar;
  const int panel_w = std::min(theme::kPanelWidth, std::max(260, W / 3));
  const SDL_Rect top{0, 0, W, theme::kTopBar};
  const SDL_Rect panel{W - panel_w, theme::kTopBar, panel_w, H - theme::kTopBar};
  const SDL_Rect controls{0, H - kControlsHeight, W - panel_w, kControlsHeight};
  const int note_h = replay_ ? kReplayNoteHeight : 0;
  const SDL_Rect board{0, theme::kTopBar, W - panel_w,
                       H - theme::kTopBar - kControlsHeight - note_h};
  const SDL_Rect note{0, board.y + board.h, board.w, note_h};
  board_area_ = board;

  ui.note_region("top-bar", top);
  ui.note_region("board", board);
  ui.note_region("panel", panel);
  ui.set_blocked(modal);
  draw_board(ui, client, board);
  draw_top_bar(ui, client, top);
  draw_panel(ui, client, panel);
  draw_controls(ui, client, controls);
  if (note_h > 0) draw_replay_note(ui, client, note);
  if (replay_) replay_keys(ui, client);
  // The "your move" flash: a pulsing gold frame round the board.
  const auto now = std::chrono::steady_clock::now();
  if (now < flash_until_) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(flash_until_ - now).count();
    const auto alpha = static_cast<std::uint8_t>(120 + 120 * std::abs(std::sin(left / 180.0)));
    p.stroke_rect(board,
                  SDL_Color{theme::kYourMove.r, theme::kYourMove.g, theme::kYourMove.b, alpha}, 8);
  }
  ui.set_blocked(false);
  if (end_open_) {
    draw_end(ui, client);
  } else if (!confirm_question_.empty()) {
    draw_confirm(ui, client);
  }
}

void MatchScreen::draw_top_bar(Ui& ui, Client& client, const SDL_Rect& r) {
  Painter& p = ui.painter();
  const auto& m = client.match();
  const bool mine = client.my_move();
  p.fill_rect(r, mine ? theme::kYourMove : theme::kPanelDark);
  const SDL_Color ink = mine ? theme::kTextDark : theme::kText;
  p.text("CASTRA", 14, 9, 20, mine ? theme::kTextDark : theme::kGold, Align::kLeft, Weight::kBold);
  std::string title = m.summary.scenario().empty() ? "match " + m.id : m.summary.scenario();
  p.text(title, 120, 13, 15, ink);
  std::string centre;
  if (replay_) {
    centre = "REPLAY";
  } else if (m.snapshot && m.snapshot->ended()) {
    centre = "MATCH OVER";
  } else if (m.summary.status() == v1::MATCH_OPEN && !m.offline) {
    // Before anyone joins, the board the server sends has nobody to act yet.
    centre = "Waiting for an opponent";
  } else if (mine) {
    centre = "YOUR MOVE";
  } else if (m.role == v1::ROLE_SPECTATOR && m.subscribed) {
    centre = m.spectator_delay_turns > 0
                 ? "SPECTATING  (" + turns_text(m.spectator_delay_turns) + " behind)"
                 : "SPECTATING";
  } else if (m.snapshot) {
    const bool a = m.snapshot->a_to_act();
    const bool b = m.snapshot->b_to_act();
    if (a && b)
      centre = "Both sides to act";
    else if (a || b)
      centre = computer_side(m.summary) == (a ? v1::SIDE_A : v1::SIDE_B)
                   ? "The computer is thinking"
                   : "Waiting for " + side_name(a ? v1::SIDE_A : v1::SIDE_B);
  }
  p.text_centered(centre, r.w / 2.0f - 60, r.h / 2.0f, 19, mine ? theme::kTextDark : theme::kGold,
                  Weight::kBold);
  // Clocks.
  const std::int64_t now = unix_ms();
  int x = r.w - 12;
  for (v1::Side side : {v1::SIDE_B, v1::SIDE_A}) {
    const std::int64_t dl = side == v1::SIDE_A ? m.deadline_a_ms : m.deadline_b_ms;
    const bool acting =
        m.snapshot && (side == v1::SIDE_A ? m.snapshot->a_to_act() : m.snapshot->b_to_act());
    const std::string t =
        side_letter(side) + "  " + (dl > 0 ? format_remaining(dl - now) : "--:--");
    const int tw = p.text_width(t, 17, Weight::kMono) + 16;
    const SDL_Rect box{x - tw, 7, tw, 30};
    ui.note_region("clock-" + side_letter(side), box);
    const SDL_Color side_color = side == v1::SIDE_A ? theme::kSideA : theme::kSideB;
    p.fill_round_rect(box, 5, acting ? side_color : theme::rgb(0x3A3F47));
    if (acting && dl > 0 && dl - now < 60000) p.stroke_rect(box, theme::kError, 2);
    p.text_centered(t, box.x + box.w / 2.0f, box.y + box.h / 2.0f, 17, theme::kText, Weight::kMono);
    x -= tw + 8;
  }
}

void MatchScreen::draw_panel(Ui& ui, Client& client, const SDL_Rect& r) {
  Painter& p = ui.painter();
  auto& m = client.match();
  p.fill_rect(r, theme::kPanel);
  p.fill_rect(SDL_Rect{r.x, r.y, 1, r.h}, theme::kPanelLine);
  const int x = r.x + 14;
  const int w = r.w - 28;
  int y = r.y + 10;
  const v1::Snapshot* snap = shown(m);
  const auto computer = computer_side(m.summary);
  // Players.
  for (v1::Side side : {v1::SIDE_A, v1::SIDE_B}) {
    const SDL_Color c = side == v1::SIDE_A ? theme::kSideA : theme::kSideB;
    p.fill_round_rect(SDL_Rect{x, y + 2, 18, 18}, 4, c);
    const std::string& player = side == v1::SIDE_A ? m.summary.player_a() : m.summary.player_b();
    // Who sits there ("alice", "(free seat)"), in brackets after a STAND! army's name ("Blue
    // (alice)", "Blue (free seat)").
    const std::string seat = player.empty() ? (m.offline ? "" : "free seat") : player;
    std::string name = player.empty() && !seat.empty() ? "(" + seat + ")" : seat;
    if (snap && snap->state().has_stand()) {
      const auto& st = snap->state().stand();
      const auto& tally = side == v1::SIDE_A ? st.side_a() : st.side_b();
      if (!tally.army().empty()) name = tally.army() + (seat.empty() ? "" : " (" + seat + ")");
    }
    std::string line = side_name(side) + "  " + name;
    if (m.role == v1::ROLE_PLAYER && m.side == side) line += "  - you";
    const SDL_Rect drawn =
        p.text(line, x + 26, y + 1, 15, theme::kText, Align::kLeft, Weight::kBold);
    // The computer's mark beside its name, or on a line of its own when the name is long.
    int mark_line = 0;
    if (computer == side) {
      const auto strength = m.summary.settings().computer();
      const bool beside =
          drawn.x + drawn.w + 8 + computer_mark_width(p, strength, 11) <= r.x + r.w - 8;
      if (!beside) mark_line = 18;
      draw_computer_mark(ui, strength, beside ? drawn.x + drawn.w + 8 : x + 26,
                         beside ? drawn.y + drawn.h / 2.0f : y + 28.0f, 11, "computer-mark");
    }
    // Losses so far, from the state's own tallies.
    std::string tally_text;
    if (snap && snap->state().has_stand()) {
      const auto& st = snap->state().stand();
      const auto& tally = side == v1::SIDE_A ? st.side_a() : st.side_b();
      tally_text = tally.start_strength() == 0
                       ? "to deploy: " + stand_figures_text(tally.to_deploy())
                       : "lost " + std::to_string(tally.lost_strength()) + " of " +
                             std::to_string(tally.start_strength()) + " strength";
    } else if (snap && snap->state().has_optio()) {
      const auto& st = snap->state().optio();
      const int i = side == v1::SIDE_A ? 0 : 1;
      if (st.routed_size() > i && st.start_units_size() > i)
        tally_text = std::to_string(st.routed(i)) + " of " + std::to_string(st.start_units(i)) +
                     " units routed";
    }
    if (!tally_text.empty()) p.text(tally_text, x + 26, y + 21 + mark_line, 12, theme::kTextDim);
    y += 42 + mark_line;
  }
  // Turn and phase.
  if (snap) {
    std::string t = "Turn " + std::to_string(turn_of(*snap));
    if (turn_limit(*snap) > 0) t += " of " + std::to_string(turn_limit(*snap));
    t += "  -  " + phase_text(*snap) + " phase";
    p.text(t, x, y, 15, theme::kGold, Align::kLeft, Weight::kBold);
    y += 24;
  }
  // Role.
  if (m.role == v1::ROLE_SPECTATOR && m.subscribed) {
    const SDL_Rect banner{x, y, w, 28};
    ui.note_region("spectator-banner", banner);
    p.fill_round_rect(banner, 5, theme::kSpectator);
    const std::string text =
        (m.snapshot && m.snapshot->ended()) || m.ended ? "Spectator: the match is over"
        : m.spectator_delay_turns > 0
            ? "Spectator: " + turns_text(m.spectator_delay_turns) + " behind the play"
            : "Spectator: watching live";
    p.text_centered(text, banner.x + banner.w / 2.0f, banner.y + 14.0f, 14, theme::kText,
                    Weight::kBold);
    y += 36;
  }
  if (!m.commitment_at_start.empty()) {
    // As much of the commitment as the panel's width takes (the end screen shows it whole).
    const auto line = [&](std::size_t n) {
      return "Dice commitment " + m.commitment_at_start.substr(0, n) + "...";
    };
    std::size_t n = 24;
    while (n > 8 && p.text_width(line(n), 11, Weight::kMono) > w)
      --n;
    ui.note_region("dice-commitment",
                   p.text(line(n), x, y, 11, theme::kTextDim, Align::kLeft, Weight::kMono));
    y += 18;
  }
  // Share: the page anyone may open in a browser to watch (a private match's with its code).
  if (!m.offline) {
    const std::string code = client.invitation_code().empty()
                                 ? m.summary.settings().invitation_code()
                                 : client.invitation_code();
    const std::string link = watch_link(client.session().url(), m.id, code);
    if (!link.empty()) {
      p.text("Watch in a browser:", x, y, 11, theme::kTextDim);
      y += 15;
      // Whole, on as many lines as the panel's width needs: a link cut short is no link.
      SDL_Rect drawn{x, y, 0, 0};
      for (std::size_t from = 0; from < link.size();) {
        std::size_t n = link.size() - from;
        while (n > 1 && p.text_width(link.substr(from, n), 11, Weight::kMono) > w)
          --n;
        const SDL_Rect line =
            p.text(link.substr(from, n), x, y, 11, theme::kText, Align::kLeft, Weight::kMono);
        drawn.w = std::max(drawn.w, line.w);
        drawn.h = line.y + line.h - drawn.y;
        y += 15;
        from += n;
      }
      ui.note_region("watch-link " + link, drawn);
      y += 4;
    }
  }
  // An offer ends with the match: nothing is left to accept.
  const bool over = (m.snapshot && m.snapshot->ended()) || m.ended.has_value();
  if (m.draw_offered && !over && m.role == v1::ROLE_PLAYER && m.draw_offered_by != m.side) {
    p.fill_round_rect(SDL_Rect{x, y, w, 62}, 6, theme::kInfo);
    p.text(side_name(m.draw_offered_by) + " offers a draw.", x + 10, y + 6, 14, theme::kText);
    if (ui.button(SDL_Rect{x + 10, y + 28, 100, 26}, "Accept draw", ButtonStyle::kPrimary))
      client.answer_draw(true);
    if (ui.button(SDL_Rect{x + 118, y + 28, 100, 26}, "Decline draw")) client.answer_draw(false);
    y += 70;
  }
  p.fill_rect(SDL_Rect{x, y, w, 1}, theme::kPanelLine);
  y += 10;
  // The selection and its actions.
  if (!replay_ && m.snapshot && m.snapshot->state().has_optio() && m.role == v1::ROLE_PLAYER &&
      !m.offline) {
    if (ui.button(SDL_Rect{x, y, 170, 26}, "Command chains (C)",
                  show_chains_ ? ButtonStyle::kToggleOn : ButtonStyle::kNormal, true, SDLK_c, 13,
                  "Command chains")) {
      show_chains_ = !show_chains_;
    }
    y += 32;
  }
  if (!replay_ && m.snapshot) {
    const SDL_Rect area{x, y, w, r.h / 2};
    int used = 0;
    if (m.snapshot->state().has_optio()) used = optio_.panel(ui, client, area);
    if (m.snapshot->state().has_stand()) used = stand_.panel(ui, client, area);
    y += used + 6;
  }
  if (!m.refusal.empty() && !replay_) {
    y = wrap_text(p, m.refusal, x, y, w, theme::rgb(0xFF7B6B), 13, Weight::kBold) + 6;
  }
  if (!replay_) y = draw_last_fight(ui, m.log, x, y, w);
  // Chat: the latest lines of the room, and a line to write (accounts only).
  if (!m.offline && m.subscribed) {
    const int lh = p.line_height(13);
    const SDL_Rect chat{r.x + 8, r.y + r.h - 8 - (kChatLines * lh + 48), r.w - 16,
                        kChatLines * lh + 48};
    if (chat.y - y > 120) {
      ui.note_region("chat", chat);
      p.fill_round_rect(chat, 6, theme::kPanelDark);
      int cy = chat.y + 6;
      const std::size_t n = m.chat.size();
      for (std::size_t i = n > kChatLines ? n - kChatLines : 0; i < n; ++i) {
        const auto& line = m.chat[i];
        const SDL_Rect clip{chat.x + 8, cy, chat.w - 16, lh};
        p.set_clip(&clip);
        const SDL_Rect who = p.text(line.author() + ":", chat.x + 8, cy, 13, theme::kGold,
                                    Align::kLeft, Weight::kBold);
        p.text(line.text(), who.x + who.w + 6, cy, 13, theme::kText);
        p.set_clip(nullptr);
        cy += lh;
      }
      if (n == 0) p.text("No chat yet.", chat.x + 8, cy, 13, theme::kTextDim);
      if (!client.account().guest) {
        const SDL_Rect field{chat.x + 6, chat.y + chat.h - 36, chat.w - 12, 30};
        if (ui.text_field(field, "chat", &chat_,
                          m.role == v1::ROLE_PLAYER ? "Say something to your opponent"
                                                    : "Say something to the spectators") &&
            !chat_.empty()) {
          client.send_chat(chat_);
          chat_.clear();
        }
      }
      const SDL_Rect log{r.x + 8, y, r.w - 16, chat.y - y - 6};
      if (log.h > 60) draw_log(ui, client, log);
      return;
    }
  }
  // The event log fills the rest.
  const SDL_Rect log{r.x + 8, y, r.w - 16, r.y + r.h - y - 8};
  if (log.h > 60) draw_log(ui, client, log);
}

void MatchScreen::draw_log(Ui& ui, Client& client, const SDL_Rect& r) {
  Painter& p = ui.painter();
  const auto& m = client.match();
  p.fill_round_rect(r, 6, theme::kPanelDark);
  p.text(replay_ ? "Events (replay)" : "Events", r.x + 10, r.y + 6, 13, theme::kTextDim,
         Align::kLeft, Weight::kBold);
  if (ui.hovered(r) && ui.input().wheel != 0) {
    log_scroll_ = std::max(0, log_scroll_ + static_cast<int>(ui.input().wheel * 3));
  }
  const SDL_Rect body{r.x + 8, r.y + 26, r.w - 16, r.h - 32};
  ui.note_region("log", r);
  const int size = 13;
  const int lh = p.line_height(size);
  // Lay out from the newest event upward; in replay the newest is the current step.
  const std::size_t end = replay_ ? std::min(replay_pos_, m.log.size()) : m.log.size();
  struct Row {
    std::string text;
    SDL_Color color;
    std::optional<std::uint64_t> event;  // the event the line tells, for a click
  };
  std::vector<Row> rows;
  // The replay's end step: its line is the newest.
  if (replay_ && replay_at_end(m)) {
    const auto lines = p.wrap(replay_end_text(m), size, body.w - 8, Weight::kBold);
    for (auto it = lines.rbegin(); it != lines.rend(); ++it)
      rows.push_back(
          {(it + 1 == lines.rend() ? "" : "   ") + *it, theme::kHighlight, std::nullopt});
  }
  const int max_rows = body.h / lh + log_scroll_ + 1;
  for (std::size_t i = end; i-- > 0 && static_cast<int>(rows.size()) < max_rows + 4;) {
    const auto& e = m.log[i];
    SDL_Color c = e.has_event() ? theme::kText : theme::kTextDim;
    if (replay_ && i + 1 == end && !replay_at_end(m))
      c = theme::kHighlight;
    else if (!replay_ &&
             std::any_of(m.last_batch.begin(), m.last_batch.end(),
                         [&](const v1::ViewEvent& b) { return b.number() == e.number(); }))
      c = theme::rgb(0xFFFFFF);
    auto lines = p.wrap(event_line(e), size, body.w - 8);
    for (auto it = lines.rbegin(); it != lines.rend(); ++it)
      rows.push_back({(it + 1 == lines.rend() ? "" : "   ") + *it, c, e.number()});
    for (const auto& [t, pos] : turn_starts_)
      if (pos == i + 1)
        rows.push_back({"-- turn " + std::to_string(t) + " --", theme::kGold, std::nullopt});
  }
  if (m.log.empty()) {
    p.text(m.snapshot ? "No events yet." : "Waiting for the match...", body.x, body.y, size,
           theme::kTextDim);
    return;
  }
  log_scroll_ = std::min(log_scroll_, std::max(0, static_cast<int>(rows.size()) - body.h / lh));
  p.set_clip(&body);
  int y = body.y + body.h - lh;
  for (std::size_t i = static_cast<std::size_t>(log_scroll_); i < rows.size() && y > body.y - lh;
       ++i) {
    const SDL_Rect line{body.x - 4, y, body.w + 4, lh};
    if (const auto ev = rows[i].event) {
      // A click on a line rings on the board where its event happened; again, and it is gone.
      if (y >= body.y) ui.note_region("log-event-" + std::to_string(*ev), line);
      if (*ev == located_event_) p.fill_rect(line, theme::kPanelLine);
      if (y >= body.y && ui.clicked(line))
        located_event_ = located_event_ == *ev ? std::nullopt : std::optional(*ev);
    }
    p.text(rows[i].text, body.x, y, size, rows[i].color);
    y -= lh;
  }
  p.set_clip(nullptr);
}

void MatchScreen::draw_board(Ui& ui, Client& client, const SDL_Rect& r) {
  Painter& p = ui.painter();
  auto& m = client.match();
  p.fill_rect(r, theme::kBackground);
  squares_.reset();
  hexes_.reset();
  const v1::Snapshot* snap = shown(m);
  if (!snap || (!snap->state().has_optio() && !snap->state().has_stand())) {
    std::string msg;
    std::string sub;
    if (m.summary.status() == v1::MATCH_OPEN) {
      msg = "Waiting for an opponent to join";
      sub = "The dice commitment is published: " + m.commitment_at_start;
    } else if (m.subscribed) {
      msg = "Waiting for the server's picture of the battle";
      sub = "(this server does not send match snapshots yet)";
    } else {
      msg = "Opening the match...";
    }
    p.text_centered(msg, r.x + r.w / 2.0f, r.y + r.h / 2.0f - 16, 22, theme::kText, Weight::kBold);
    if (!sub.empty())
      p.text_centered(sub, r.x + r.w / 2.0f, r.y + r.h / 2.0f + 18, 13, theme::kTextDim,
                      Weight::kMono);
    return;
  }
  // Zoom with the wheel at the cursor, pan by dragging with the right or middle button or
  // with the arrow keys; 0 fits the board again.
  const Input& in = ui.input();
  if (!ui.blocked() && inside(r, in.mouse_x, in.mouse_y) && in.wheel != 0) {
    SquareGeometry::zoom_at(&camera_, r, std::pow(1.15f, in.wheel), in.mouse_x, in.mouse_y);
  }
  if (!ui.blocked() && (in.right_held || in.middle_held)) {
    camera_.pan_x += static_cast<float>(in.drag_dx);
    camera_.pan_y += static_cast<float>(in.drag_dy);
  }
  const float pan_step = 40;
  if (ui.key(SDLK_LEFT) && !replay_) camera_.pan_x += pan_step;
  if (ui.key(SDLK_RIGHT) && !replay_) camera_.pan_x -= pan_step;
  if (ui.key(SDLK_UP)) camera_.pan_y += pan_step;
  if (ui.key(SDLK_DOWN)) camera_.pan_y -= pan_step;
  if (ui.key(SDLK_EQUALS) || ui.key(SDLK_PLUS) || ui.key(SDLK_KP_PLUS))
    SquareGeometry::zoom_at(&camera_, r, 1.2f, r.x + r.w / 2, r.y + r.h / 2);
  if (ui.key(SDLK_MINUS) || ui.key(SDLK_KP_MINUS))
    SquareGeometry::zoom_at(&camera_, r, 1 / 1.2f, r.x + r.w / 2, r.y + r.h / 2);
  if (ui.key(SDLK_0)) camera_.reset();

  // The replayed event's marks.
  auto replay_marks = [&](std::vector<Cell>* trail, std::vector<Cell>* flashes) {
    if (!replay_ || replay_pos_ == 0 || replay_pos_ > m.log.size()) return;
    const auto& e = m.log[replay_pos_ - 1];
    if (!e.has_event()) return;
    trail->clear();
    if (e.event().has_optio()) {
      const auto& ev = e.event().optio();
      if (ev.has_advanced()) {
        trail->push_back({ev.advanced().from().col(), ev.advanced().from().row()});
        for (const auto& s : ev.advanced().steps())
          trail->push_back({s.col(), s.row()});
      }
      if (ev.has_routed()) flashes->push_back({ev.routed().at().col(), ev.routed().at().row()});
      if (ev.has_unit_deployed())
        flashes->push_back({ev.unit_deployed().at().col(), ev.unit_deployed().at().row()});
    } else if (e.event().has_stand()) {
      const auto& ev = e.event().stand();
      if (ev.has_moved()) {
        trail->push_back({ev.moved().from().col(), ev.moved().from().row()});
        for (const auto& h : ev.moved().path())
          trail->push_back({h.col(), h.row()});
      }
      if (ev.has_attacked())
        *trail = {{ev.attacked().from().col(), ev.attacked().from().row()},
                  {ev.attacked().target().col(), ev.attacked().target().row()}};
      if (ev.has_casualties())
        flashes->push_back({ev.casualties().hex().col(), ev.casualties().hex().row()});
      if (ev.has_deployed())
        flashes->push_back({ev.deployed().hex().col(), ev.deployed().hex().row()});
    }
  };

  if (snap->state().has_optio()) {
    const auto& st = snap->state().optio();
    board_cols_ = st.cols();
    board_rows_ = st.rows();
    squares_.emplace(r, st.cols(), st.rows(), camera_, theme::kBoardMargin);
    OptioOverlay ov = replay_ ? OptioOverlay{} : optio_.board(ui, client, r, *squares_);
    if (replay_) replay_marks(&ov.trail, &ov.flashes);
    // The revealed orders cards, drawn when the end screen asks for them: all of them; in
    // replay each side's latest card up to the step shown.
    if (m.record && show_cards_ && (end_open_ || replay_)) {
      std::vector<const v1::optio::OrdersCard*> cards;
      // The events the board's picture reflects (a step may stop inside an entry).
      const std::uint64_t upto =
          replay_ && replay_board_ ? replay_board_->event_count() : ~std::uint64_t{0};
      for (const auto& entry : m.record->entries()) {
        for (int k = 0; k < entry.events_size(); ++k) {
          const auto& ev = entry.events(k);
          if (entry.first_event() + k >= upto) break;
          if (!ev.has_optio() || !ev.optio().has_orders_card()) continue;
          const auto& card = ev.optio().orders_card();
          if (replay_) {
            std::erase_if(cards, [&](const auto* c) { return c->side() == card.side(); });
          }
          cards.push_back(&card);
        }
      }
      int k = 0;
      for (const auto* card : cards) {
        for (const auto& path : card->paths()) {
          OptioOverlay::Path drawn;
          for (const auto& sq : path.squares())
            drawn.squares.push_back({sq.col(), sq.row()});
          drawn.style = k;
          drawn.color = theme::kPathColors[k++ % std::size(theme::kPathColors)];
          drawn.label = side_letter(card->side()) + " sub " + std::to_string(path.leader());
          ov.paths.push_back(drawn);
        }
      }
    }
    draw_optio_board(p, r, *squares_, st, ov);
    if (!replay_ && show_chains_) {
      if (const v1::PieceReasons* view = client.reasons(v1::Piece()))
        draw_command_chains(p, *squares_, st, *view);
    }
    draw_located(p, m);
  } else {
    const auto& st = snap->state().stand();
    board_cols_ = st.width();
    board_rows_ = st.height();
    hexes_.emplace(r, st.width(), st.height(), camera_, theme::kBoardMargin);
    StandOverlay ov = replay_ ? StandOverlay{} : stand_.board(ui, client, r, *hexes_);
    if (replay_) replay_marks(&ov.trail, &ov.flashes);
    draw_stand_board(p, r, *hexes_, st, ov);
    draw_located(p, m);
  }
}

void MatchScreen::draw_located(Painter& p, const MatchData& m) {
  if (!located_event_) return;
  const auto it = std::find_if(m.log.begin(), m.log.end(), [&](const v1::ViewEvent& e) {
    return e.number() == *located_event_;
  });
  if (it == m.log.end()) return;
  // Two rings, not a colour alone, so that the mark reads without telling colours apart.
  const float radius = squares_ ? squares_->cell() * 0.5f : hexes_->size() * 0.92f;
  for (const Cell& c : event_cells(*it, shown(m))) {
    const auto centre = cell_centre(c);
    if (!centre) continue;
    p.ring(*centre, radius, 4, theme::kLocate);
    p.ring(*centre, radius * 0.72f, 2, theme::kLocate);
  }
}

void MatchScreen::draw_controls(Ui& ui, Client& client, const SDL_Rect& r) {
  Painter& p = ui.painter();
  auto& m = client.match();
  p.fill_rect(r, theme::kPanelDark);
  const int y = r.y + 9;
  const int h = 32;
  const bool player = m.role == v1::ROLE_PLAYER && !m.offline;
  // A draw or a resignation needs an opponent: an open match has none yet.
  const bool live =
      m.snapshot && !m.snapshot->ended() && !m.ended && m.summary.status() != v1::MATCH_OPEN;
  const auto zoom = [&](float by) {
    SquareGeometry::zoom_at(&camera_, board_area_, by, board_area_.x + board_area_.w / 2,
                            board_area_.y + board_area_.h / 2);
  };
  if (replay_) {
    draw_replay_controls(ui, client, r);
    const int zx = r.x + r.w - 112;
    if (ui.button(SDL_Rect{zx, y, 32, h}, "-", ButtonStyle::kNormal, true, SDLK_UNKNOWN, 18,
                  "Zoom out"))
      zoom(1 / 1.25f);
    if (ui.button(SDL_Rect{zx + 36, y, 36, h}, "Fit", ButtonStyle::kNormal, true, SDLK_UNKNOWN, 13))
      camera_.reset();
    if (ui.button(SDL_Rect{zx + 76, y, 32, h}, "+", ButtonStyle::kNormal, true, SDLK_UNKNOWN, 18,
                  "Zoom in"))
      zoom(1.25f);
    return;
  }
  // The actions this player has now, left to right; each button's id stays its long label
  // (what --script clicks) whichever label it shows.
  struct Action {
    RowButton button;
    ButtonStyle style = ButtonStyle::kNormal;
    bool enabled = true;
    SDL_Keycode hotkey = SDLK_UNKNOWN;
    std::string id;
    std::function<void()> on_click;
  };
  std::vector<Action> actions;
  std::string label;
  std::string question;
  std::optional<v1::GameCommand> end;
  if (m.snapshot && (player || m.offline)) {
    end = m.snapshot->state().has_optio() ? optio_.end_command(client, &label, &question)
                                          : stand_.end_command(client, &label, &question);
  }
  if (m.snapshot && m.snapshot->state().has_optio() && optio_.editing_orders(client)) {
    actions.push_back({{"Submit sealed orders", "Submit orders", 220},
                       ButtonStyle::kPrimary,
                       true,
                       SDLK_UNKNOWN,
                       "",
                       [this] {
                         ask("Seal and submit your orders card? It cannot be changed, and your "
                             "opponent sees it only when the game ends.",
                             "Seal and submit", std::nullopt, kActionOrders);
                       }});
  } else if (end) {
    actions.push_back({{label + "...", "End phase...", 190},
                       ButtonStyle::kPrimary,
                       true,
                       SDLK_RETURN,
                       "End phase",
                       [this, question, label, end] { ask(question, label, end, kActionSubmit); }});
  }
  if (player && live) {
    actions.push_back(
        {{"Offer draw", "Draw?", 110},
         ButtonStyle::kNormal,
         true,
         SDLK_UNKNOWN,
         "Offer draw",
         [this] { ask("Offer your opponent a draw?", "Offer draw", std::nullopt, kActionDraw); }});
    actions.push_back({{"Resign", "", 90}, ButtonStyle::kDanger, true, SDLK_UNKNOWN, "", [this] {
                         ask("Resign this match? Your opponent wins at once.", "Resign",
                             std::nullopt, kActionResign);
                       }});
    // The opponent has been away past the grace period while it had to act.
    if (m.opponent_away && m.claim_from_ms > 0 && unix_ms() >= m.claim_from_ms) {
      actions.push_back({{"Claim win", "Claim", 110},
                         ButtonStyle::kPrimary,
                         true,
                         SDLK_UNKNOWN,
                         "Claim win",
                         [this] {
                           ask("Your opponent has been away past the grace period. Claim the "
                               "win?",
                               "Claim win", std::nullopt, kActionClaim);
                         }});
    }
  }
  if (m.summary.status() == v1::MATCH_OPEN && !m.offline &&
      m.summary.creator() == client.account().name) {
    actions.push_back({{"Withdraw match", "Withdraw", 160},
                       ButtonStyle::kDanger,
                       true,
                       SDLK_UNKNOWN,
                       "Withdraw match",
                       [this] {
                         ask("Withdraw this match? Nobody has joined it yet; it will be closed.",
                             "Withdraw", std::nullopt, kActionWithdraw);
                       }});
  }
  if ((m.snapshot && m.snapshot->ended()) || m.ended) {
    actions.push_back({{"Result", "", 120}, ButtonStyle::kNormal, true, SDLK_UNKNOWN, "", [this] {
                         end_open_ = true;
                         end_dismissed_ = false;
                       }});
    actions.push_back(
        {{"Replay", "", 100}, ButtonStyle::kNormal, !m.log.empty(), SDLK_UNKNOWN, "", [this] {
           start_replay();
         }});
  }
  // Pinned right to left: zoom in, fit, zoom out, then the way back.
  const bool battle = !m.id.empty() && client.campaign().battle_opened == m.id;
  const std::vector<RowButton> pinned = {{"+", "", 32, true},
                                         {"Fit", "", 36, true},
                                         {"-", "", 32, true},
                                         {battle ? "Campaign" : "Lobby", "", 110, false}};
  std::vector<RowButton> left;
  for (const auto& a : actions)
    left.push_back(a.button);
  const RowLayout row = lay_out_row(p, r, y, h, left, pinned);
  const int font = row.compact ? 13 : 15;
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const Action& a = actions[i];
    if (row.left[i].w == 0) continue;
    const std::string& shown =
        row.compact && !a.button.short_label.empty() ? a.button.short_label : a.button.label;
    if (ui.button(row.left[i], shown, a.style, a.enabled, a.hotkey, font,
                  a.id.empty() && shown != a.button.label ? a.button.label : a.id))
      a.on_click();
  }
  // The hint for the player, between the buttons.
  if (client.my_move() && m.snapshot) {
    const std::string hint =
        m.snapshot->state().has_optio() ? optio_.hint(client) : stand_.hint(client);
    const int hint_left = row.left_end;
    const int hint_right = row.pinned_start - 10;
    if (!hint.empty() && hint_right - hint_left > 120) {
      p.set_clip(&r);
      const auto lines = p.wrap(hint, 13, hint_right - hint_left);
      int ty = r.y + (r.h - static_cast<int>(lines.size()) * p.line_height(13)) / 2;
      for (const auto& line : lines) {
        p.text(line, hint_left, ty, 13, theme::kTextDim);
        ty += p.line_height(13);
      }
      p.set_clip(nullptr);
    }
  }
  if (row.pinned[0].w > 0 &&
      ui.button(row.pinned[0], "+", ButtonStyle::kNormal, true, SDLK_UNKNOWN, 18, "Zoom in"))
    zoom(1.25f);
  if (row.pinned[1].w > 0 &&
      ui.button(row.pinned[1], "Fit", ButtonStyle::kNormal, true, SDLK_UNKNOWN, 13))
    camera_.reset();
  if (row.pinned[2].w > 0 &&
      ui.button(row.pinned[2], "-", ButtonStyle::kNormal, true, SDLK_UNKNOWN, 18, "Zoom out"))
    zoom(1 / 1.25f);
  // A battle opened from its campaign goes back there.
  if (ui.button(row.pinned[3], pinned[3].label, ButtonStyle::kNormal, true, SDLK_UNKNOWN, font,
                "Back to lobby")) {
    client.leave_match_screen();
  }
}

void MatchScreen::draw_confirm(Ui& ui, Client& client) {
  Painter& p = ui.painter();
  p.fill_rect(SDL_Rect{0, 0, ui.width(), ui.height()}, SDL_Color{0, 0, 0, 140});
  const int w = 480;
  const auto lines = p.wrap(confirm_question_, 16, w - 48);
  const int h = 110 + static_cast<int>(lines.size()) * p.line_height(16);
  const SDL_Rect box{(ui.width() - w) / 2, (ui.height() - h) / 2, w, h};
  ui.note_region("confirm", box);
  p.fill_round_rect(box, 10, theme::kPanel);
  p.stroke_rect(box, theme::kGold, 1);
  int y = box.y + 24;
  for (const auto& line : lines) {
    p.text(line, box.x + 24, y, 16, theme::kText);
    y += p.line_height(16);
  }
  const int by = box.y + box.h - 56;
  ui.set_blocked(confirm_fresh_);
  confirm_fresh_ = false;
  // What cannot be undone takes a click: Return, which also ends phases, never resigns.
  const bool undoable = confirm_action_ != kActionResign && confirm_action_ != kActionWithdraw;
  bool yes = ui.button(SDL_Rect{box.x + 24, by, 200, 36}, confirm_yes_,
                       undoable ? ButtonStyle::kPrimary : ButtonStyle::kDanger, true,
                       undoable ? SDLK_RETURN : SDLK_UNKNOWN, 15, "Confirm");
  const bool no = ui.button(SDL_Rect{box.x + w - 164, by, 140, 36}, "Cancel", ButtonStyle::kNormal,
                            true, SDLK_ESCAPE);
  if (yes) {
    switch (confirm_action_) {
      case kActionSubmit:
        if (confirm_command_) client.submit(*confirm_command_);
        break;
      case kActionResign:
        client.resign();
        break;
      case kActionOrders:
        optio_.submit_orders(client);
        break;
      case kActionDraw:
        client.offer_draw();
        break;
      case kActionWithdraw:
        client.withdraw();
        break;
      case kActionClaim:
        client.claim_win();
        break;
      default:
        break;
    }
  }
  ui.set_blocked(false);
  if (yes || no) confirm_question_.clear();
}

void MatchScreen::draw_end(Ui& ui, Client& client) {
  Painter& p = ui.painter();
  auto& m = client.match();
  const int w = std::min(640, ui.width() - 40);
  const int h = std::min(560, ui.height() - 60);
  const SDL_Rect box{(ui.width() - w) / 2 - theme::kPanelWidth / 3, (ui.height() - h) / 2, w, h};
  p.fill_round_rect(SDL_Rect{box.x + 5, box.y + 7, w, h}, 12, SDL_Color{0, 0, 0, 110});
  ui.note_region("end-screen", box);
  p.fill_round_rect(box, 12, SDL_Color{theme::kPanel.r, theme::kPanel.g, theme::kPanel.b, 245});
  const int x = box.x + 26;
  const int tw = w - 52;
  int y = box.y + 20;
  v1::Outcome outcome;
  if (m.ended)
    outcome = m.ended->outcome();
  else if (m.snapshot)
    outcome = m.snapshot->outcome();
  std::string headline = outcome.kind() == v1::Outcome::DRAW    ? "A draw"
                         : outcome.kind() == v1::Outcome::WIN_A ? "Side A wins"
                                                                : "Side B wins";
  if (m.role == v1::ROLE_PLAYER && m.subscribed && outcome.kind() != v1::Outcome::DRAW) {
    const bool won = (outcome.kind() == v1::Outcome::WIN_A) == (m.side == v1::SIDE_A);
    headline = won ? "Victory" : "Defeat";
  }
  p.text(headline, x, y, 30, theme::kGold, Align::kLeft, Weight::kBold);
  y += 44;
  std::string reason = outcome_text(outcome);
  if (m.ended && !end_reason_text(m.ended->reason()).empty() && outcome.reason().empty())
    reason += " (" + end_reason_text(m.ended->reason()) + ")";
  y = wrap_text(p, reason, x, y, tw, theme::kText, 15) + 10;

  // The dice: the revealed seed, checked here against the commitment shown at the start.
  p.text("Fair dice", x, y, 16, theme::kGold, Align::kLeft, Weight::kBold);
  y += 24;
  std::string seed = m.ended ? m.ended->server_seed() : "";
  if (seed.empty() && m.record) seed = m.record->server_seed();
  p.text("Commitment shown at the start:", x, y, 12, theme::kTextDim);
  y += 16;
  p.text(m.commitment_at_start.empty() ? "(none)" : m.commitment_at_start, x, y, 11, theme::kText,
         Align::kLeft, Weight::kMono);
  y += 18;
  p.text("Seed revealed by the server:", x, y, 12, theme::kTextDim);
  y += 16;
  p.text(seed.empty() ? "(not yet received)" : seed, x, y, 11, theme::kText, Align::kLeft,
         Weight::kMono);
  y += 22;
  const auto check = client.seed_matches();
  if (check) {
    const SDL_Rect badge{x, y, tw, 28};
    ui.note_region("seed-check", badge);
    p.fill_round_rect(badge, 5, *check ? theme::kOk : theme::kError);
    p.text(*check ? "Checked by this client: the seed matches the commitment shown at the start"
                  : "WARNING: the revealed seed does NOT match the commitment",
           x + 10, y + 6, 13, theme::kText, Align::kLeft, Weight::kBold);
    y += 36;
  } else {
    p.text("The seed is checked as soon as it arrives.", x, y, 13, theme::kTextDim);
    y += 22;
  }

  // The orders cards, revealed.
  if (m.record) {
    bool any = false;
    for (const auto& entry : m.record->entries()) {
      for (const auto& ev : entry.events()) {
        if (!ev.has_optio() || !ev.optio().has_orders_card()) continue;
        if (!any) {
          p.text("Orders cards, revealed (drawn on the board)", x, y, 16, theme::kGold,
                 Align::kLeft, Weight::kBold);
          y += 24;
          any = true;
        }
        for (const auto& path : ev.optio().orders_card().paths()) {
          std::string line = side_name(ev.optio().orders_card().side()) + ", subcommander " +
                             std::to_string(path.leader()) + ":";
          for (const auto& sq : path.squares())
            line += " (" + std::to_string(sq.col()) + "," + std::to_string(sq.row()) + ")";
          y = wrap_text(p, line, x, y, tw, theme::kText, 12);
        }
      }
    }
    if (any) y += 8;
  }

  // How to verify everything.
  p.text("Verify the whole match yourself", x, y, 16, theme::kGold, Align::kLeft, Weight::kBold);
  y += 24;
  const std::string file = saved_record_.empty() ? "castra-match-" + m.id + ".json" : saved_record_;
  y = wrap_text(p,
                "Save the record, then run  castra-sim verify " + file +
                    "  : it re-checks every roll against the seed, every sealed card and every "
                    "event, and the final state hash.",
                x, y, tw, theme::kText, 13) +
      8;
  const int by = box.y + h - 52;
  draw_rematch(ui, client, SDL_Rect{x, by - 44, tw, 34});
  if (ui.button(SDL_Rect{x, by, 150, 36}, "Save record", ButtonStyle::kPrimary,
                m.record.has_value())) {
    const std::string path = client.save_record(".");
    if (!path.empty()) {
      saved_record_ = path;
      client.say("Record saved to " + path + ". Verify it with: castra-sim verify " + path,
                 MessageKind::kOk);
    }
  }
  if (!m.record && !m.offline) {
    if (ui.button(SDL_Rect{x + 158, by, 150, 36}, "Fetch record", ButtonStyle::kNormal, true))
      client.request_record();
  }
  if (ui.button(SDL_Rect{box.x + w - 260, by, 110, 36}, "Replay", ButtonStyle::kNormal,
                !m.log.empty(), SDLK_UNKNOWN, 15, "Replay from the result")) {
    start_replay();
  }
  if (ui.button(SDL_Rect{box.x + w - 140, by, 114, 36}, "Close", ButtonStyle::kNormal, true,
                SDLK_ESCAPE)) {
    end_open_ = false;
    end_dismissed_ = true;
  }
}

}  // namespace castra::client
