// The lobby's match rows and its "online now" line. A row has three lines in fixed columns:
// the battle's title and game | side A's and side B's player with his army | the state and the
// actions, then one line below the first two columns: spectators and the battle in a sentence.
// Every text is cut to its column, so nothing runs into its neighbour (issue 20, defect 7);
// each is noted as a region so tests can check that.
#include <algorithm>
#include <chrono>

#include "client/sdl/computer_mark.hpp"
#include "client/sdl/labels.hpp"
#include "client/sdl/screens.hpp"
#include "client/sdl/theme.hpp"

namespace castra::client {

namespace {

const char* status_word(v1::MatchStatus s) {
  switch (s) {
    case v1::MATCH_OPEN:
      return "open";
    case v1::MATCH_LIVE:
      return "live";
    case v1::MATCH_FINISHED:
      return "finished";
    case v1::MATCH_CLOSED:
      return "closed";
    default:
      return "";
  }
}

// `s` cut to `width` pixels with an ellipsis, never inside a UTF-8 character.
std::string fit(Painter& p, const std::string& s, int size, int width,
                Weight weight = Weight::kRegular) {
  if (p.text_width(s, size, weight) <= width) return s;
  std::string cut = s;
  while (!cut.empty() && p.text_width(cut + "...", size, weight) > width) {
    cut.pop_back();
    while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80)
      cut.pop_back();
  }
  return cut + "...";
}

// The description's first sentence: what a row has room for.
std::string first_sentence(const std::string& text) {
  const auto end = text.find(". ");
  return end == std::string::npos ? text : text.substr(0, end + 1);
}

std::string spectators_text(const v1::MatchSettings& s) {
  if (!s.spectators_allowed()) return "No spectators.";
  const std::uint32_t n = s.spectator_delay_turns();
  if (n == 0) return "Spectators welcome.";
  return "Spectators " + std::to_string(n) + (n == 1 ? " turn" : " turns") + " behind.";
}

const v1::ScenarioInfo* scenario_of(Client& client, const std::string& name) {
  for (const auto& s : client.lobby().scenarios)
    if (s.name() == name) return &s;
  return nullptr;
}

}  // namespace

LobbyScreen::RowColumns LobbyScreen::row_columns(const SDL_Rect& list) {
  RowColumns c{};
  c.row_x = list.x + 8;
  c.row_w = list.w - 16;
  c.actions_right = list.x + list.w - 12;
  c.title_x = list.x + 16;
  // The state and the row's one button (Join, Watch, Open or Replay) on the right; what is
  // left is shared by title and players.
  c.state_w = std::clamp(list.w / 6, 90, 140);
  c.state_x = c.actions_right - 96 - c.state_w;
  const int shared = c.state_x - 12 - c.title_x;
  c.title_w = std::max(120, shared * 9 / 20);
  c.players_x = c.title_x + c.title_w + 12;
  c.players_w = c.state_x - 12 - c.players_x;
  c.about_w = c.state_x - 12 - c.title_x;
  return c;
}

void LobbyScreen::draw_row(Ui& ui, Client& client, const v1::MatchSummary& m, const RowColumns& c,
                           int y) {
  Painter& p = ui.painter();
  const bool guest = client.account().guest;
  const SDL_Rect row{c.row_x, y, c.row_w, kRowHeight};
  ui.note_region("lobby-row " + m.match_id(), row);
  if (m.my_move())
    p.fill_round_rect(row, 6, theme::rgb(0x5A4A1E));
  else if (ui.hovered(row))
    p.fill_round_rect(row, 6, theme::rgb(0x394049));
  const v1::ScenarioInfo* info = scenario_of(client, m.scenario());
  const std::string title =
      info != nullptr && !info->title().empty() ? info->title() : m.scenario();
  const SDL_Rect title_box = p.text(fit(p, title, 15, c.title_w, Weight::kBold), c.title_x, y + 4,
                                    15, theme::kText, Align::kLeft, Weight::kBold);
  ui.note_region("lobby-title " + m.match_id(), title_box);
  std::string game = m.ruleset() == "stand" ? "Ancient STAND!" : "Optio";
  if (m.is_private()) game += ", private";
  const SDL_Rect game_box =
      p.text(fit(p, game, 12, c.title_w), c.title_x, y + 25, 12, theme::kTextDim);
  ui.note_region("lobby-game " + m.match_id(), game_box);

  // One line a side: the player (a link to his page) and the army he leads.
  const auto computer = computer_side(m);
  for (const v1::Side side : {v1::SIDE_A, v1::SIDE_B}) {
    const std::string& name = side == v1::SIDE_A ? m.player_a() : m.player_b();
    const int ly = y + (side == v1::SIDE_A ? 4 : 24);
    const SDL_Rect letter = p.text(side_letter(side), c.players_x, ly, 13,
                                   side == v1::SIDE_A ? theme::kSideALight : theme::kSideBLight,
                                   Align::kLeft, Weight::kBold);
    int x = letter.x + letter.w + 8;
    const int right = c.players_x + c.players_w;
    const bool person = !name.empty() && (!computer || side != *computer);
    const SDL_Rect who = p.text(fit(p, name.empty() ? "free seat" : name, 13, right - x), x, ly, 13,
                                person ? theme::kGold : theme::kTextDim);
    ui.note_region("lobby-player " + m.match_id() + " " + side_letter(side), who);
    if (person && ui.hovered(who))
      p.fill_rect(SDL_Rect{who.x, who.y + who.h, who.w, 1}, theme::kGold);
    if (person && ui.click_available() && inside(who, ui.input().press_x, ui.input().press_y)) {
      ui.consume_click();
      client.open_player(name);
    }
    x = who.x + who.w + 6;
    if (computer && side == *computer) {
      draw_computer_mark(ui, m.settings().computer(), x + 6, ly + who.h / 2.0f, 10,
                         "computer " + m.match_id());
      x += 20;
    }
    const std::string army =
        info != nullptr ? (side == v1::SIDE_A ? info->side_a() : info->side_b()) : std::string();
    if (!army.empty() && right - x > 30) {
      const SDL_Rect box = p.text(fit(p, army, 12, right - x), x, ly + 1, 12, theme::kTextDim);
      ui.note_region("lobby-army " + m.match_id() + " " + side_letter(side), box);
    }
  }

  // The third line: spectators first (it decides whether one may watch), then the battle.
  std::string about = spectators_text(m.settings());
  if (info != nullptr && !info->description().empty())
    about += "  " + first_sentence(info->description());
  const std::string shown = fit(p, about, 12, c.about_w);
  const SDL_Rect about_box = p.text(shown, c.title_x, y + 44, 12, theme::kTextDim);
  ui.note_region("lobby-about " + m.match_id() + " " + shown, about_box);

  std::string state = status_word(m.status());
  if (m.status() == v1::MATCH_FINISHED && m.has_outcome()) state = outcome_text(m.outcome());
  if (m.my_move()) {
    state = "YOUR MOVE";
    const std::int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count();
    const std::int64_t dl = m.my_side() == v1::SIDE_A ? m.deadline_a_ms() : m.deadline_b_ms();
    if (dl > 0) state += " (" + format_remaining(dl - now_ms) + ")";
  }
  const auto state_lines = p.wrap(state, 13, c.state_w);
  int sy = y + (state_lines.size() > 1 ? 8 : 16);
  for (std::size_t i = 0; i < state_lines.size() && i < 3; ++i) {
    const SDL_Rect box = p.text(fit(p, state_lines[i], 13, c.state_w), c.state_x, sy, 13,
                                m.my_move() ? theme::kGold : theme::kTextDim);
    ui.note_region("lobby-state " + m.match_id() + " " + std::to_string(i), box);
    sy += 16;
  }

  // Actions: unique ids carry the match id; the label is what the player reads.
  int bx = c.actions_right - 88;
  auto action = [&](const std::string& label, ButtonStyle style) {
    const bool hit = ui.button(SDL_Rect{bx, y + 18, 88, 28}, label, style, true, SDLK_UNKNOWN, 13,
                               label + " " + m.match_id());
    bx -= 96;
    return hit;
  };
  if (m.status() == v1::MATCH_FINISHED) {
    if (action("Replay", ButtonStyle::kPrimary)) client.open_replay(m.match_id());
  } else if (m.seated()) {
    if (action("Open", ButtonStyle::kPrimary)) client.open_match(m.match_id());
  } else {
    if (m.status() == v1::MATCH_OPEN && !guest) {
      if (action("Join", ButtonStyle::kPrimary)) client.join(m);
    }
    if (m.settings().spectators_allowed() && m.status() == v1::MATCH_LIVE) {
      if (action("Watch", ButtonStyle::kNormal)) client.open_match(m.match_id());
    }
  }
}

int LobbyScreen::draw_online(Ui& ui, Client& client, int x, int y, int w) {
  Painter& p = ui.painter();
  const auto& online = client.players().online;
  if (!online) return y + 6;
  const std::uint32_t n = online->count();
  const SDL_Rect label =
      p.text(std::to_string(n) + (n == 1 ? " player" : " players") + " online:", x, y, 13,
             theme::kTextDim);
  ui.note_region("online-count " + std::to_string(n), label);
  int nx = label.x + label.w + 8;
  const int right = x + w;
  for (const std::string& name : online->names()) {
    const int nw = p.text_width(name, 13);
    if (nx + nw + 60 > right) {
      p.text("...", nx, y, 13, theme::kTextDim);
      break;
    }
    const SDL_Rect box = p.text(name, nx, y, 13, theme::kGold);
    ui.note_region("online " + name, box);
    if (ui.hovered(box)) p.fill_rect(SDL_Rect{box.x, box.y + box.h, box.w, 1}, theme::kGold);
    if (ui.click_available() && inside(box, ui.input().press_x, ui.input().press_y)) {
      ui.consume_click();
      client.open_player(name);
    }
    nx += nw + 12;
  }
  if (online->guests() > 0) {
    p.text(
        "and " + std::to_string(online->guests()) + (online->guests() == 1 ? " guest" : " guests"),
        nx, y, 13, theme::kTextDim);
  }
  return y + 26;
}

}  // namespace castra::client
