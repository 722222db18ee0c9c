#include "client/sdl/forecast_panel.hpp"

#include <string>

#include "client/sdl/labels.hpp"
#include "client/sdl/optio_board.hpp"
#include "client/sdl/theme.hpp"

namespace castra::client {
namespace {

namespace o = v1::optio;
namespace st = v1::stand;

constexpr SDL_Color kForecastBack = theme::rgb(0x23272E);

int line(Painter& p, const std::string& text, int x, int y, int w, SDL_Color c, int size = 13,
         Weight weight = Weight::kRegular) {
  for (const auto& l : p.wrap(text, size, w, weight)) {
    p.text(l, x, y, size, c, Align::kLeft, weight);
    y += p.line_height(size, weight);
  }
  return y;
}

std::string signed_text(int n) {
  return (n > 0 ? "+" : "") + std::to_string(n);
}

std::string plural(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "Side A cavalry #16", as the board's counters number units.
std::string unit_words(const o::State& s, int id) {
  if (const o::Unit* u = optio_unit(s, id)) {
    return side_name(u->side()) + " " + optio_type_name(u->type()) + " #" + std::to_string(id);
  }
  return "unit #" + std::to_string(id);
}

// One score: its base value, each named modifier, the sum, the clamp, the hits.
int score(Painter& p, const o::State& s, const char* value, const o::Score& sc, int x, int y,
          int w) {
  y = line(p, unit_words(s, sc.unit()), x, y, w, theme::kText, 13, Weight::kBold);
  y = line(p, std::string(value) + " " + std::to_string(sc.base()), x + 10, y, w - 10,
           theme::kText);
  for (const auto& t : sc.terms())
    y = line(p, t.name() + " " + signed_text(t.shift()), x + 10, y, w - 10, theme::kTextDim);
  std::string sum = "shift " + signed_text(sc.raw_shift());
  if (sc.raw_shift() != sc.shift()) sum += " (clamped to " + signed_text(sc.shift()) + ")";
  return line(p, sum + ": " + plural(sc.hits(), "hit", "hits"), x + 10, y, w - 10, theme::kGold);
}

int morale(Painter& p, const o::State& s, const o::MoraleForecast& m, int x, int y, int w) {
  std::string t = unit_words(s, m.unit()) + ": morale " + std::to_string(m.before());
  t += m.routs() ? ", routs" : " to " + std::to_string(m.after());
  return line(p, t, x, y, w, m.routs() ? theme::rgb(0xF0A040) : theme::kText);
}

}  // namespace

int draw_forecast(Ui& ui, const o::Forecast& f, const o::State& s, int x, int y, int w) {
  Painter& p = ui.painter();
  const int top = y;
  // The text is laid out once to measure the box behind it, then drawn over it.
  const auto body = [&](int yy) {
    yy = line(p, f.charge() ? "Charge forecast" : "Shot forecast", x + 6, yy, w - 12, theme::kGold,
              15, Weight::kBold);
    if (f.has_fire()) {
      const auto& fire = f.fire();
      if (f.charge()) {
        yy = line(p, "Defensive fire first:", x + 6, yy, w - 12, theme::kTextDim);
      }
      yy = score(p, s, "shoot", fire.shooter(), x + 6, yy, w - 12);
      std::string hits = "missile hits " + std::to_string(fire.missile_before()) + " to " +
                         std::to_string(fire.missile_after());
      if (fire.intervals() > 0) {
        hits += ", " + plural(fire.intervals(), "morale interval", "morale intervals") + " lost";
      }
      yy = line(p, hits, x + 16, yy, w - 22, theme::kText);
    }
    if (f.has_fight()) {
      const auto& fight = f.fight();
      yy = score(p, s, "charge", fight.a(), x + 6, yy, w - 12);
      yy = score(p, s, "charge", fight.b(), x + 6, yy, w - 12);
      std::string result = "equal scores: nobody loses";
      if (fight.loss_a() > 0) {
        result = unit_words(s, fight.a().unit()) + " loses " +
                 plural(fight.loss_a(), "interval", "intervals");
      } else if (fight.loss_b() > 0) {
        result = unit_words(s, fight.b().unit()) + " loses " +
                 plural(fight.loss_b(), "interval", "intervals");
      }
      yy = line(p, result, x + 6, yy, w - 12, theme::kGold, 13, Weight::kBold);
    } else if (f.charge()) {
      yy =
          line(p, "The fire routs the charger: no charge combat.", x + 6, yy, w - 12, theme::kGold);
    }
    yy = morale(p, s, f.unit_morale(), x + 6, yy, w - 12);
    yy = morale(p, s, f.target_morale(), x + 6, yy, w - 12);
    for (const auto& l : f.leaders()) {
      std::string t = "Leader " + std::to_string(l.leader()) + " rolls a d6: ";
      t += l.wounded() ? std::to_string(l.wound_from()) + "+ kills him (wounded already)"
                       : std::to_string(l.wound_from()) + "+ wounds, then " +
                             std::to_string(l.kill_from()) + "+ on a second die kills";
      if (l.leaves()) t += "; then he leaves the game";
      yy = line(p, t, x + 6, yy, w - 12, theme::kTextDim);
    }
    return yy;
  };
  const int bottom = body(top + 4) + 4;
  p.fill_rect(SDL_Rect{x, top, w, bottom - top}, kForecastBack);
  p.fill_rect(SDL_Rect{x, top, 3, bottom - top}, theme::kGold);
  body(top + 4);
  ui.note_region("forecast", SDL_Rect{x, top, w, bottom - top});
  return bottom + 6;
}

int draw_forecast(Ui& ui, const st::AttackForecast& f, int x, int y, int w) {
  Painter& p = ui.painter();
  const int top = y;
  const auto tenths = [](int t) { return std::to_string(t / 10) + "." + std::to_string(t % 10); };
  const auto body = [&](int yy) {
    yy = line(p, "Attack forecast", x + 6, yy, w - 12, theme::kGold, 15, Weight::kBold);
    std::string against = "against " + stand_posture_name(f.posture());
    if (f.cover()) against += " in cover";
    if (f.rear()) against += ", from the rear";
    yy = line(p, against, x + 6, yy, w - 12, theme::kTextDim);
    for (const auto& t : f.terms()) {
      std::string row =
          stand_troop_name(t.troop(), t.figures()) + " x " + tenths(t.chance_tenths());
      if (t.rear_bonus_tenths() != 0) row += " (+" + tenths(t.rear_bonus_tenths()) + " rear)";
      yy = line(p, row + " = " + tenths(t.total_tenths()), x + 16, yy, w - 22, theme::kText);
    }
    yy = line(p,
              "T = " + tenths(f.total_tenths()) + ": " +
                  plural(f.sure(), "sure casualty", "sure casualties"),
              x + 6, yy, w - 12, theme::kGold, 13, Weight::kBold);
    if (f.roll()) {
      yy = line(p,
                "d10 for the fraction " + tenths(f.fraction_tenths()) + ": " +
                    std::to_string(f.extra_faces()) + " in " + std::to_string(f.die_faces()) +
                    " for one more",
                x + 6, yy, w - 12, theme::kText);
    }
    std::string lost = "loses " + stand_figures_text(f.lost()) + " (strength lost " +
                       std::to_string(f.strength()) + ")";
    if (stand_figure_total(f.lost()) == 0) lost = "loses nothing for sure";
    yy = line(p, lost, x + 6, yy, w - 12, theme::kText);
    if (f.roll()) {
      yy = line(p,
                "with the extra one: " + stand_figures_text(f.lost_extra()) + " (strength lost " +
                    std::to_string(f.strength_extra()) + ")",
                x + 6, yy, w - 12, theme::kText);
    }
    return yy;
  };
  const int bottom = body(top + 4) + 4;
  p.fill_rect(SDL_Rect{x, top, w, bottom - top}, kForecastBack);
  p.fill_rect(SDL_Rect{x, top, 3, bottom - top}, theme::kGold);
  body(top + 4);
  ui.note_region("forecast", SDL_Rect{x, top, w, bottom - top});
  return bottom + 6;
}

int draw_last_fight(Ui& ui, const std::vector<v1::ViewEvent>& log, int x, int y, int w) {
  // The fight's own line, then the lines that tell its result (the d10, the casualties).
  std::size_t first = log.size();
  for (std::size_t i = log.size(); i-- > 0;) {
    const auto& e = log[i].event();
    if ((e.has_optio() && (e.optio().has_fight() || e.optio().has_shot())) ||
        (e.has_stand() && e.stand().has_attacked())) {
      first = i;
      break;
    }
  }
  if (first == log.size()) return y;
  std::vector<std::string> lines{log[first].text()};
  for (std::size_t i = first + 1; i < log.size() && lines.size() < 3; ++i) {
    const auto& e = log[i].event();
    if (e.has_stand() && (e.stand().has_fraction_rolled() || e.stand().has_casualties())) {
      lines.push_back(log[i].text());
    }
  }
  Painter& p = ui.painter();
  const auto body = [&](int yy) {
    yy = line(p, "Last fight", x + 6, yy, w - 12, theme::kGold, 13, Weight::kBold);
    for (const auto& l : lines)
      yy = line(p, l, x + 6, yy, w - 12, theme::kText, 12);
    return yy;
  };
  const int bottom = body(y + 4) + 4;
  p.fill_rect(SDL_Rect{x, y, w, bottom - y}, kForecastBack);
  body(y + 4);
  ui.note_region("last-fight", SDL_Rect{x, y, w, bottom - y});
  return bottom + 6;
}

}  // namespace castra::client
