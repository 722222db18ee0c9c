// MatchScreen's replay: its steps (the start, one per event of the log, and the end once the
// match is over), the server's picture for each (GetSnapshot by event count, so that a step
// shows its own event's effect and not its whole command's), autoplay at a chosen speed, and
// the controls and note under the board. Render thread only.
#include <algorithm>
#include <cstdlib>

#include "client/sdl/labels.hpp"
#include "client/sdl/screens.hpp"
#include "client/sdl/theme.hpp"

namespace castra::client {

namespace {

// The end step's key in place of an event count: its picture is the final one.
constexpr std::uint64_t kEndKey = ~std::uint64_t{0};

struct Speed {
  const char* label;
  int ms;  // between steps
};
constexpr Speed kSpeeds[] = {{"0.5x", 2000}, {"1x", 1000}, {"2x", 500}, {"4x", 250}};
constexpr int kSpeedCount = static_cast<int>(std::size(kSpeeds));

bool match_over(const MatchData& m) {
  return (m.snapshot && m.snapshot->ended()) || m.ended.has_value();
}

}  // namespace

void MatchScreen::start_replay() {
  replay_ = true;
  replay_pos_ = 0;
  autoplay_ = false;
  end_open_ = false;
  end_dismissed_ = true;
}

std::size_t MatchScreen::replay_steps(const MatchData& m) const {
  // The end is a step of its own once the match is over and its final picture is here: a
  // resignation or an agreed end has no events, and an end by the rules deserves its line.
  return m.log.size() + (match_over(m) && m.snapshot ? 1 : 0);
}

bool MatchScreen::replay_at_end(const MatchData& m) const {
  return replay_pos_ > m.log.size() && replay_steps(m) > m.log.size();
}

std::string MatchScreen::replay_end_text(const MatchData& m) const {
  v1::Outcome outcome;
  if (m.snapshot && m.snapshot->ended()) {
    outcome = m.snapshot->outcome();
  } else if (m.ended) {
    outcome = m.ended->outcome();
  }
  std::string text = "The end: " + outcome_text(outcome);
  // The act that ended it, when the record says and the outcome does not.
  if (m.record && m.record->entries_size() > 0) {
    const auto& last = m.record->entries(m.record->entries_size() - 1);
    if (last.kind() == v1::ENTRY_END && outcome.reason().empty())
      text += " (" + end_reason_text(last.end_reason()) + ")";
  }
  return text;
}

std::uint64_t MatchScreen::replay_key(const MatchData& m) const {
  if (replay_at_end(m)) return kEndKey;
  if (replay_pos_ == 0 || m.log.empty()) return 0;
  return m.log[std::min(replay_pos_, m.log.size()) - 1].number() + 1;
}

bool MatchScreen::replay_loading(const MatchData& m) const {
  return replay_ && !m.offline && (!replay_board_ || replay_board_key_ != replay_key(m));
}

std::optional<std::size_t> MatchScreen::replay_shown_step(const MatchData& m) const {
  if (!replay_ || (!m.offline && (!replay_board_ || replay_loading(m)))) return std::nullopt;
  return replay_pos_;
}

void MatchScreen::replay_fetch(Client& client) {
  const auto& m = client.match();
  replay_pos_ = std::min(replay_pos_, replay_steps(m));
  // Offline there is no server to ask: the board stays the final position.
  if (m.offline) return;
  const std::uint64_t want = replay_key(m);
  if (replay_board_ && replay_board_key_ == want) return;
  const v1::Snapshot* picture = want == kEndKey ? &*m.snapshot : client.past_snapshot(want);
  if (picture == nullptr) return;
  replay_board_ = *picture;
  replay_board_key_ = want;
}

void MatchScreen::replay_autoplay(const MatchData& m) {
  const auto now = std::chrono::steady_clock::now();
  // A step counts as shown from the frame its picture is on the board.
  const std::optional<std::size_t> shown = replay_shown_step(m);
  if (shown != step_shown_) {
    step_shown_ = shown;
    step_shown_at_ = now;
  }
  if (!autoplay_ || !shown) return;
  if (replay_pos_ >= replay_steps(m)) {
    autoplay_ = false;
    return;
  }
  if (now - step_shown_at_ >= std::chrono::milliseconds(kSpeeds[autoplay_speed_].ms)) ++replay_pos_;
}

void MatchScreen::toggle_autoplay(const MatchData& m) {
  autoplay_ = !autoplay_;
  // Play at the end starts again from the beginning.
  if (autoplay_ && replay_pos_ >= replay_steps(m)) replay_pos_ = 0;
}

void MatchScreen::go_to_turn(Client& client) {
  const int turn = std::atoi(replay_turn_.c_str());
  for (const auto& [t, pos] : turn_starts_) {
    if (t != turn) continue;
    replay_pos_ = pos;
    return;
  }
  client.say(turn_starts_.empty()
                 ? "No turn began in this match."
                 : "This match has turns 1 to " + std::to_string(turn_starts_.back().first) + ".",
             MessageKind::kError);
}

void MatchScreen::draw_replay_controls(Ui& ui, Client& client, const SDL_Rect& r) {
  const auto& m = client.match();
  const std::size_t n = replay_steps(m);
  int x = r.x + 12;
  const int y = r.y + 9;
  const int h = 32;
  auto button = [&](int w, const std::string& label, bool enabled, SDL_Keycode key = SDLK_UNKNOWN,
                    const std::string& id = "") {
    const bool hit =
        ui.button(SDL_Rect{x, y, w, h}, label, ButtonStyle::kNormal, enabled, key, 15, id);
    x += w + 6;
    return hit;
  };
  if (button(44, "|<", replay_pos_ > 0, SDLK_HOME)) replay_pos_ = 0;
  if (button(44, "<", replay_pos_ > 0)) --replay_pos_;
  if (button(44, ">", replay_pos_ < n)) ++replay_pos_;
  if (button(44, ">|", replay_pos_ < n, SDLK_END)) replay_pos_ = n;
  // Autoplay and its speed (each click one faster, round to the slowest).
  if (ui.button(SDL_Rect{x, y, 64, h}, autoplay_ ? "Pause" : "Play",
                autoplay_ ? ButtonStyle::kToggleOn : ButtonStyle::kNormal, n > 0, SDLK_SPACE, 15,
                "Autoplay")) {
    toggle_autoplay(m);
  }
  x += 70;
  if (button(44, kSpeeds[autoplay_speed_].label, true, SDLK_UNKNOWN, "Speed"))
    autoplay_speed_ = (autoplay_speed_ + 1) % kSpeedCount;
  x += 6;
  // A turn back: the start of the turn shown, or of the one before when already there.
  if (button(72, "Turn -", replay_pos_ > 0, SDLK_PAGEUP)) {
    std::size_t to = 0;
    for (const auto& [t, pos] : turn_starts_)
      if (pos < replay_pos_) to = pos;
    replay_pos_ = to;
  }
  if (button(72, "Turn +", replay_pos_ < n, SDLK_PAGEDOWN)) {
    std::size_t to = n;
    for (auto it = turn_starts_.rbegin(); it != turn_starts_.rend(); ++it)
      if (it->second > replay_pos_) to = it->second;
    replay_pos_ = to;
  }
  x += 6;
  const bool entered = ui.text_field(SDL_Rect{x, y, 50, h}, "turn", &replay_turn_, "turn");
  std::erase_if(replay_turn_, [](char c) { return c < '0' || c > '9'; });
  x += 56;
  if ((button(96, "Go to turn", !replay_turn_.empty()) || entered) && !replay_turn_.empty()) {
    go_to_turn(client);
    ui.unfocus();
  }
  if (ui.button(SDL_Rect{r.x + r.w - 230, y, 110, h}, "Leave replay")) {
    replay_ = false;
    autoplay_ = false;
  }
}

void MatchScreen::draw_replay_note(Ui& ui, const Client& client, const SDL_Rect& r) {
  Painter& p = ui.painter();
  const auto& m = client.match();
  int turn = 0;
  for (const auto& [t, pos] : turn_starts_)
    if (pos <= replay_pos_) turn = t;
  std::string where =
      "Replay: step " + std::to_string(replay_pos_) + " of " + std::to_string(replay_steps(m));
  if (replay_at_end(m)) {
    where += " (the end)";
  } else if (replay_pos_ > 0) {
    where += " (event " + std::to_string(m.log[replay_pos_ - 1].number()) + ")";
  }
  if (turn > 0) where += ", turn " + std::to_string(turn);
  if (autoplay_) where += std::string(", playing at ") + kSpeeds[autoplay_speed_].label;
  const std::string board_says = m.offline           ? "Offline: the board is the final position."
                                 : replay_loading(m) ? "Loading the board..."
                                                     : "";
  const std::string help =
      "Left/Right: step   Home/End: start, end   Space: play/pause   PageUp/PageDown: turn"
      "   T, a number, Return: that turn";
  const int lh = p.line_height(12);
  ui.note_region("replay-note", r);
  p.fill_rect(r, theme::kPanelDark);
  p.fill_rect(SDL_Rect{r.x, r.y, r.w, 1}, theme::kPanelLine);
  const SDL_Rect note{r.x + 12, r.y + (r.h - 2 * lh) / 2, r.w - 24, 2 * lh};
  p.set_clip(&r);
  const SDL_Rect where_box =
      p.text(where, note.x, note.y, 12, theme::kText, Align::kLeft, Weight::kBold);
  if (!board_says.empty())
    p.text(board_says, where_box.x + where_box.w + 14, note.y, 12, theme::kGold, Align::kLeft,
           Weight::kBold);
  p.text(help, note.x, note.y + lh, 12, theme::kTextDim);
  p.set_clip(nullptr);
}

void MatchScreen::replay_keys(Ui& ui, const Client& client) {
  const std::size_t n = replay_steps(client.match());
  if (ui.key(SDLK_RIGHT) && replay_pos_ < n) ++replay_pos_;
  if (ui.key(SDLK_LEFT) && replay_pos_ > 0) --replay_pos_;
  if (ui.key(SDLK_t)) ui.focus("turn");
  if (ui.key(SDLK_RIGHTBRACKET)) autoplay_speed_ = std::min(autoplay_speed_ + 1, kSpeedCount - 1);
  if (ui.key(SDLK_LEFTBRACKET)) autoplay_speed_ = std::max(autoplay_speed_ - 1, 0);
}

}  // namespace castra::client
