// A player's page (PlayerScreen) and the rematch row of a finished match's end screen: what
// the server said of a player (record, ratings, recent matches) and the offer to play again.
#include <cmath>
#include <ctime>

#include "client/sdl/labels.hpp"
#include "client/sdl/screens.hpp"
#include "client/sdl/theme.hpp"

namespace castra::client {

namespace {

std::string game_name(const std::string& ruleset) {
  return ruleset == "stand" ? "Ancient STAND!" : "Optio";
}

// "1742" or "1742?" while provisional, and "RD 397".
std::string rating_text(const v1::PlayerRating& r) {
  return std::to_string(static_cast<int>(std::lround(r.rating()))) + (r.provisional() ? "?" : "");
}

std::string date_text(std::int64_t ms) {
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

std::string result_word(v1::MatchResult r) {
  switch (r) {
    case v1::RESULT_WIN:
      return "won";
    case v1::RESULT_LOSS:
      return "lost";
    case v1::RESULT_DRAW:
      return "drew";
    default:
      return "";
  }
}

SDL_Color result_color(v1::MatchResult r) {
  return r == v1::RESULT_WIN ? theme::kOk : r == v1::RESULT_LOSS ? theme::kError : theme::kTextDim;
}

std::string signed_change(double change) {
  const long n = std::lround(change);
  return n > 0 ? "+" + std::to_string(n) : std::to_string(n);
}

}  // namespace

void PlayerScreen::draw(Ui& ui, Client& client) {
  Painter& p = ui.painter();
  p.clear(theme::kBackground);
  const int W = ui.width();
  const int H = ui.height() - theme::kStatusBar;
  p.fill_rect(SDL_Rect{0, 0, W, theme::kTopBar}, theme::kPanelDark);
  p.text("CASTRA", 16, 8, 22, theme::kGold, Align::kLeft, Weight::kBold);
  const auto& players = client.players();
  p.text("Player " + players.page_name, 130, 13, 16, theme::kText);
  if (ui.button(SDL_Rect{W - 130, 7, 114, 30}, "Back", ButtonStyle::kNormal, true, SDLK_ESCAPE))
    client.close_player();
  const SDL_Rect card{16, theme::kTopBar + 12, W - 32, H - theme::kTopBar - 24};
  p.fill_round_rect(card, 10, theme::kPanel);
  ui.note_region("player-page", card);
  const int x = card.x + 20;
  int y = card.y + 16;
  if (!players.page) {
    p.text(players.page_error.empty() ? "Loading..." : players.page_error, x, y, 15,
           players.page_error.empty() ? theme::kTextDim : theme::kError);
    return;
  }
  const v1::PlayerPage& page = *players.page;
  const SDL_Rect name = p.text(page.name(), x, y, 26, theme::kGold, Align::kLeft, Weight::kBold);
  p.text(
      std::string(page.online() ? "online" : "offline") + ", joined " + date_text(page.joined_ms()),
      name.x + name.w + 14, y + 9, 14, page.online() ? theme::kOk : theme::kTextDim);
  y += 48;

  // One column per game: its rating, then its record.
  const int col_w = std::min(360, (card.w - 40) / 2);
  int col = 0;
  int below = y;
  for (const std::string ruleset : {"optio", "stand"}) {
    const int cx = x + col++ * (col_w + 20);
    int cy = y;
    p.text(game_name(ruleset), cx, cy, 17, theme::kGold, Align::kLeft, Weight::kBold);
    cy += 26;
    const v1::PlayerRating* rating = nullptr;
    for (const auto& r : page.ratings())
      if (r.ruleset() == ruleset) rating = &r;
    if (rating == nullptr) {
      p.text("Not rated yet", cx, cy, 15, theme::kTextDim);
      cy += 22;
    } else {
      const SDL_Rect box =
          p.text(rating_text(*rating), cx, cy, 24, theme::kText, Align::kLeft, Weight::kBold);
      ui.note_region("rating " + ruleset + " " + rating_text(*rating), box);
      p.text("RD " + std::to_string(static_cast<int>(std::lround(rating->deviation()))) + ", " +
                 std::to_string(rating->games()) + " rated " +
                 (rating->games() == 1 ? "game" : "games") +
                 (rating->provisional() ? ", provisional" : ""),
             box.x + box.w + 12, cy + 8, 13, theme::kTextDim);
      cy += 34;
    }
    v1::GameRecord record;
    for (const auto& r : page.records())
      if (r.ruleset() == ruleset) record = r;
    const std::string line = std::to_string(record.wins()) + " won, " +
                             std::to_string(record.losses()) + " lost, " +
                             std::to_string(record.draws()) + " drawn";
    const SDL_Rect box = p.text(line, cx, cy, 14, theme::kText);
    ui.note_region("record " + ruleset + " " + line, box);
    cy += 22;
    below = std::max(below, cy);
  }
  y = below + 14;
  p.fill_rect(SDL_Rect{x, y, card.w - 40, 1}, theme::kPanelLine);
  y += 12;
  p.text("Recent matches", x, y, 17, theme::kGold, Align::kLeft, Weight::kBold);
  y += 28;
  if (page.recent().empty()) p.text("No finished matches yet.", x, y, 14, theme::kTextDim);
  // Columns: date, game and battle, side and opponent, result, rating change, replay.
  for (const auto& m : page.recent()) {
    if (y + 30 > card.y + card.h) break;
    const SDL_Rect row{x - 6, y - 4, card.w - 28, 30};
    if (ui.hovered(row)) p.fill_round_rect(row, 5, theme::rgb(0x394049));
    p.text(date_text(m.ended_ms()), x, y + 2, 13, theme::kTextDim);
    const std::string battle = m.scenario_title().empty() ? m.scenario() : m.scenario_title();
    p.text(game_name(m.ruleset()) + ": " + battle, x + 100, y + 2, 13, theme::kText);
    const int ox = x + 100 + std::max(260, (card.w - 40) * 2 / 5);
    p.text(side_letter(m.side()) + " against " + m.opponent(), ox, y + 2, 13, theme::kText);
    const int rx = card.x + card.w - 330;
    const SDL_Rect res = p.text(result_word(m.result()), rx, y + 2, 13, result_color(m.result()),
                                Align::kLeft, Weight::kBold);
    ui.note_region("recent " + m.match_id() + " " + result_word(m.result()), res);
    p.text(m.rated() ? signed_change(m.rating_change()) : "unrated", rx + 60, y + 2, 13,
           theme::kTextDim);
    if (ui.button(SDL_Rect{card.x + card.w - 110, y - 2, 90, 26}, "Replay", ButtonStyle::kNormal,
                  true, SDLK_UNKNOWN, 13, "Replay " + m.match_id())) {
      client.open_replay(m.match_id());
    }
    y += 34;
  }
}

void draw_rematch(Ui& ui, Client& client, const SDL_Rect& r) {
  const MatchData& m = client.match();
  const bool two_people = m.summary.settings().computer() == v1::COMPUTER_NONE;
  const bool finished = m.ended && m.ended->status() == v1::MATCH_FINISHED;
  if (m.offline || m.role != v1::ROLE_PLAYER || !two_people || !finished) return;
  Painter& p = ui.painter();
  ui.note_region("rematch", r);
  const auto& players = client.players();
  const auto to_me = players.offered_to_me.find(m.id);
  if (to_me != players.offered_to_me.end()) {
    p.text(to_me->second.from() + " offers a rematch, sides swapped.", r.x, r.y + 9, 14,
           theme::kText, Align::kLeft, Weight::kBold);
    if (ui.button(SDL_Rect{r.x + r.w - 170, r.y, 170, r.h}, "Accept rematch",
                  ButtonStyle::kPrimary)) {
      client.accept_rematch();
    }
    return;
  }
  if (players.offered_by_me.count(m.id) > 0) {
    p.text("Rematch offered: waiting for your opponent to accept.", r.x, r.y + 9, 14,
           theme::kTextDim);
    return;
  }
  if (ui.button(SDL_Rect{r.x, r.y, 170, r.h}, "Offer rematch")) client.offer_rematch();
  p.text("The same battle, sides swapped.", r.x + 182, r.y + 9, 13, theme::kTextDim);
}

}  // namespace castra::client
