// The lobby's battle picker: every scenario the server offers, by game, with its measured
// balance, and the chosen one's preview, armies, size, turn limit and history. Everything
// shown comes in ScenarioInfo: the client has no rules engine to read a scenario with.
#include <cstdio>
#include <vector>

#include "client/sdl/scenario_preview.hpp"
#include "client/sdl/screens.hpp"
#include "client/sdl/theme.hpp"

namespace castra::client {

namespace {

std::string percent(double rate) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", rate * 100.0);
  return buf;
}

// Side A's and B's win rates, "53.6% / 40.8%", or that the scenario was not measured.
std::string balance_line(const v1::ScenarioInfo& s) {
  if (s.balance().games() == 0) return "not measured";
  return percent(s.balance().a_wins()) + " / " + percent(s.balance().b_wins());
}

bool is_lesson(const v1::ScenarioInfo& s) {
  return s.name().find("/lessons/") != std::string::npos;
}

// `s` cut to `width` pixels with an ellipsis.
std::string fit(Painter& p, const std::string& s, int size, int width) {
  if (p.text_width(s, size) <= width) return s;
  std::string cut = s;
  while (!cut.empty() && p.text_width(cut + "...", size) > width)
    cut.pop_back();
  return cut + "...";
}

}  // namespace

void LobbyScreen::draw_picker(Ui& ui, Client& client, const SDL_Rect& r) {
  Painter& p = ui.painter();
  p.fill_round_rect(r, 10, theme::kPanel);
  ui.note_region("scenario-picker", r);
  const auto& scenarios = client.lobby().scenarios;
  if (scenarios.empty()) {
    p.text("Loading scenarios...", r.x + 16, r.y + 14, 14, theme::kTextDim);
    return;
  }
  if (form_.scenario.empty()) form_.scenario = scenarios.front().name();
  // Two lists, one a game, on the left; the chosen battle on the right.
  const int list_w = (r.w - 48) * 3 / 10;
  const int row_h = 26;
  const v1::ScenarioInfo* chosen = nullptr;
  for (int column = 0; column < 2; ++column) {
    const std::string ruleset = column == 0 ? "optio" : "stand";
    const int x = r.x + 16 + column * (list_w + 8);
    int y = r.y + 12;
    p.text(column == 0 ? "Optio battles" : "STAND! battles", x, y, 15, theme::kGold, Align::kLeft,
           Weight::kBold);
    p.text("A / B wins", x + list_w, y + 2, 12, theme::kTextDim, Align::kRight);
    y += 26;
    // The battles, then the lessons.
    std::vector<const v1::ScenarioInfo*> rows;
    for (const bool lessons : {false, true})
      for (const auto& s : scenarios)
        if (s.ruleset() == ruleset && is_lesson(s) == lessons) rows.push_back(&s);
    for (const v1::ScenarioInfo* row : rows) {
      const v1::ScenarioInfo& s = *row;
      if (s.name() == form_.scenario) chosen = &s;
      // Narrow windows get smaller type, so that titles still read.
      const int size = list_w < 270 ? 12 : 13;
      const int balance_w = list_w < 270 ? 84 : 94;
      const std::string title = s.title().empty() ? s.name() : s.title();
      const SDL_Rect button{x, y, list_w - balance_w - 4, row_h - 3};
      if (ui.button(button, fit(p, title, size, button.w - 12),
                    form_.scenario == s.name() ? ButtonStyle::kToggleOn : ButtonStyle::kNormal,
                    true, SDLK_UNKNOWN, size, s.name())) {
        form_.scenario = s.name();
      }
      ui.note_region("picker-title " + title, button);
      const std::string balance = balance_line(s);
      const SDL_Rect box =
          p.text(balance, x + list_w, y + 4, size - 1, theme::kText, Align::kRight);
      ui.note_region("picker-balance " + s.name() + ": " + balance, box);
      y += row_h;
    }
  }
  if (chosen == nullptr) return;
  // The chosen battle.
  const int dx = r.x + 16 + 2 * (list_w + 8) + 8;
  const int dw = r.x + r.w - 16 - dx;
  int y = r.y + 12;
  const SDL_Rect preview{dx, y, dw, std::min(dw * 9 / 16, r.h / 2)};
  p.fill_rect(preview, theme::kPanelDark);
  draw_scenario_preview(p, preview, chosen->scenario());
  p.set_clip(nullptr);
  ui.note_region("scenario-preview", preview);
  y += preview.h + 10;
  p.text(fit(p, chosen->title(), 16, dw), dx, y, 16, theme::kGold, Align::kLeft, Weight::kBold);
  y += 24;
  p.text(fit(p, "A: " + chosen->side_a(), 13, dw), dx, y, 13, theme::kSideALight);
  y += 18;
  p.text(fit(p, "B: " + chosen->side_b(), 13, dw), dx, y, 13, theme::kSideBLight);
  y += 20;
  p.text(std::to_string(chosen->cols()) + " x " + std::to_string(chosen->rows()) + ", " +
             std::to_string(chosen->turn_limit()) + " turns",
         dx, y, 13, theme::kText);
  y += 18;
  const auto& b = chosen->balance();
  if (b.games() == 0) {
    p.text("Balance not measured", dx, y, 13, theme::kText);
  } else {
    p.text(fit(p, "Balance, greedy bot against greedy bot, N = " + std::to_string(b.games()) + ":",
               13, dw),
           dx, y, 13, theme::kText);
    y += 18;
    p.text("A wins " + percent(b.a_wins()) + ", draws " + percent(b.draws()) + ", B wins " +
               percent(b.b_wins()),
           dx, y, 13, theme::kText, Align::kLeft, Weight::kBold);
  }
  y += 24;
  const int line = p.line_height(13);
  for (const auto& l : p.wrap(chosen->description(), 13, dw)) {
    if (y + line > r.y + r.h - 8) break;
    p.text(l, dx, y, 13, theme::kTextDim);
    y += line;
  }
}

}  // namespace castra::client
