#include "client/sdl/roster_view.hpp"

#include <algorithm>
#include <vector>

#include "client/sdl/labels.hpp"
#include "client/sdl/theme.hpp"

namespace castra::client {

namespace {

constexpr int kRow = 24;
constexpr int kHeader = 46;
constexpr const char* kTroopNames[] = {"infantry", "archers", "cavalry", "chariots"};
constexpr const char* kTroopLabels[] = {"Infantry", "Archers", "Cavalry", "Chariots"};

int figures_of(const v1::stand::Figures& f, int troop) {
  switch (troop) {
    case 0:
      return f.infantry();
    case 1:
      return f.archers();
    case 2:
      return f.cavalry();
    default:
      return f.chariots();
  }
}

void set_figures(v1::stand::Figures* f, int troop, int n) {
  switch (troop) {
    case 0:
      return f->set_infantry(n);
    case 1:
      return f->set_archers(n);
    case 2:
      return f->set_cavalry(n);
    default:
      return f->set_chariots(n);
  }
}

// The commands in the order a player reads his army: the general's, then each leader's, then
// any without a leader.
std::vector<int> commands_of(const v1::OptioRoster& r) {
  std::vector<int> out;
  auto add = [&](int c) {
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  };
  for (const auto& l : r.leaders())
    if (l.general()) add(l.command());
  for (const auto& l : r.leaders())
    add(l.command());
  for (const auto& u : r.units())
    add(u.command());
  return out;
}

// A toggle of the picker (a tick when on), or the sealed choice's mark; x advances past it.
bool toggle(Ui& ui, int* x, int y, bool on, bool interactive, bool sealed, const std::string& id) {
  Painter& p = ui.painter();
  const SDL_Rect box{*x, y + 3, 18, 18};
  *x += 26;
  if (interactive)
    return ui.button(box, on ? "\u2713" : "", on ? ButtonStyle::kToggleOn : ButtonStyle::kNormal,
                     true, SDLK_UNKNOWN, 13, id);
  if (sealed) {
    p.fill_round_rect(box, 4, on ? theme::kOk : theme::kButtonDisabled);
    if (on) p.text_centered("\u2713", box.x + 9.0f, box.y + 9.0f, 13, theme::kText, Weight::kBold);
  } else {
    *x -= 26;
  }
  return false;
}

}  // namespace

void RosterPicker::reset_for(const std::string& key) {
  if (key == key_) return;
  key_ = key;
  clear();
}

void RosterPicker::toggle_unit(int id) {
  if (!units_.erase(id)) units_.insert(id);
}

void RosterPicker::toggle_leader(int id) {
  if (!leaders_.erase(id)) leaders_.insert(id);
}

void RosterPicker::add_figures(int troop, int delta, int have) {
  set_figures(&figures_, troop, std::clamp(figures_of(figures_, troop) + delta, 0, have));
}

void RosterPicker::clear() {
  units_.clear();
  leaders_.clear();
  figures_ = v1::stand::Figures{};
}

int RosterPicker::counted(bool optio) const {
  return optio ? static_cast<int>(units_.size()) : stand_figure_total(figures_);
}

v1::Selection RosterPicker::selection(bool optio) const {
  v1::Selection s;
  if (optio) {
    for (int id : units_)
      s.add_units(id);
    for (int id : leaders_)
      s.add_leaders(id);
  } else {
    *s.mutable_figures() = figures_;
  }
  return s;
}

void draw_roster(Ui& ui, const RosterColumn& c, const SDL_Rect& r, int* scroll) {
  Painter& p = ui.painter();
  const bool a = c.side == v1::SIDE_A;
  const SDL_Color side_color = a ? theme::kSideA : theme::kSideB;
  ui.note_region(a ? "roster-a" : "roster-b", r);
  p.fill_round_rect(r, 8, theme::kPanel);
  p.fill_round_rect(SDL_Rect{r.x, r.y, r.w, 6}, 3, side_color);
  // Header: the army, its player, what it holds.
  const int x0 = r.x + 12;
  const std::string army =
      c.roster != nullptr && !c.roster->army().empty() ? c.roster->army() : side_name(c.side);
  const SDL_Rect name = p.text(army, x0, r.y + 12, 16, theme::kText, Align::kLeft, Weight::kBold);
  std::string who = side_name(c.side);
  if (!c.player.empty()) who += ", " + c.player;
  if (c.mine) who += " (you)";
  p.text(who, name.x + name.w + 10, r.y + 15, 12, theme::kTextDim);
  // What it holds, and what the opponent has kept out of sight (said here, always in view).
  std::string counts;
  std::string hidden;
  if (c.roster != nullptr && c.roster->has_optio()) {
    const auto& o = c.roster->optio();
    counts = std::to_string(o.units_size()) + (o.units_size() == 1 ? " unit, " : " units, ") +
             std::to_string(o.leaders_size()) + (o.leaders_size() == 1 ? " leader" : " leaders");
    if (c.hidden_units > 0) {
      counts += " seen";
      hidden =
          "+ " + std::to_string(c.hidden_units) +
          (c.hidden_units == 1 ? " unit not yet seen in battle" : " units not yet seen in battle");
    }
  } else if (c.roster != nullptr && c.roster->has_stand()) {
    counts = std::to_string(stand_figure_total(c.roster->stand().figures())) + " figures";
    if (c.hidden_figures > 0) {
      counts += " seen";
      hidden = "+ " + std::to_string(c.hidden_figures) + " figures not yet seen in battle";
    }
  }
  const SDL_Rect shown = p.text(counts, x0, r.y + 31, 12, theme::kTextDim);
  if (!hidden.empty()) {
    const int hw = p.text_width(hidden, 12, Weight::kBold) + 14;
    const SDL_Rect pill{shown.x + shown.w + 10, r.y + 29, hw, 18};
    ui.note_region(a ? "hidden-a" : "hidden-b", pill);
    p.fill_round_rect(pill, 5, theme::kPanelDark);
    p.text(hidden, pill.x + 7, pill.y + 1, 12, theme::kGold, Align::kLeft, Weight::kBold);
  }
  if (c.roster == nullptr) return;

  const SDL_Rect body{r.x + 4, r.y + kHeader + 4, r.w - 8, r.h - kHeader - 10};
  p.fill_rect(SDL_Rect{r.x + 10, body.y - 4, r.w - 20, 1}, theme::kPanelLine);
  if (ui.hovered(body) && ui.input().wheel != 0)
    *scroll -= static_cast<int>(ui.input().wheel * kRow * 2);
  const bool interactive = c.picker != nullptr;
  int y = body.y - *scroll;
  p.set_clip(&body);
  auto row_visible = [&](int ry) { return ry + kRow > body.y && ry < body.y + body.h; };

  if (c.roster->has_optio()) {
    const auto& o = c.roster->optio();
    for (const int command : commands_of(o)) {
      for (const auto& l : o.leaders()) {
        if (l.command() != command) continue;
        if (row_visible(y)) {
          int x = body.x + 6;
          const bool chosen =
              c.picker != nullptr ? c.picker->leader_chosen(l.id())
              : c.sealed != nullptr
                  ? std::count(c.sealed->leaders().begin(), c.sealed->leaders().end(), l.id()) > 0
                  : false;
          if (toggle(ui, &x, y, chosen, interactive, c.sealed != nullptr,
                     "Pick leader " + std::to_string(l.id())))
            c.picker->toggle_leader(l.id());
          const PointF centre{x + 9.0f, y + 12.0f};
          ui.note_region("leader " + std::to_string(l.id()), SDL_Rect{x, y + 3, 18, 18});
          if (l.general()) {
            p.fill_circle(centre, 9, theme::kGold);
            p.text_centered("\u2605", centre.x, centre.y, 12, theme::kTextDark, Weight::kBold);
          } else {
            p.fill_circle(centre, 9, theme::rgb(0xD9C48A));
            p.text_centered(std::to_string(l.command()), centre.x, centre.y, 10, theme::kTextDark,
                            Weight::kBold);
          }
          x += 26;
          const std::string leader =
              l.name().empty() ? "leader " + std::to_string(l.id()) : l.name();
          const SDL_Rect t =
              p.text(leader, x, y + 4, 14, theme::kGold, Align::kLeft, Weight::kBold);
          p.text((l.general() ? "general, command " : "command ") + std::to_string(command),
                 t.x + t.w + 8, y + 6, 12, theme::kTextDim);
        }
        y += kRow;
      }
      for (const auto& u : o.units()) {
        if (u.command() != command) continue;
        if (row_visible(y)) {
          int x = body.x + 6;
          const bool chosen =
              c.picker != nullptr ? c.picker->unit_chosen(u.id())
              : c.sealed != nullptr
                  ? std::count(c.sealed->units().begin(), c.sealed->units().end(), u.id()) > 0
                  : false;
          if (toggle(ui, &x, y, chosen, interactive, c.sealed != nullptr,
                     "Pick unit " + std::to_string(u.id())))
            c.picker->toggle_unit(u.id());
          x += 12;  // units sit under their leader
          const SDL_Rect badge{x, y + 4, 32, 17};
          ui.note_region("unit " + std::to_string(u.id()), badge);
          p.fill_round_rect(badge, 4, side_color);
          p.text_centered(optio_type_abbrev(u.type()), badge.x + 16.0f, badge.y + 8.5f, 11,
                          theme::kCounterText, Weight::kBold);
          x += 40;
          const std::string unit_name = u.name().empty() ? optio_type_name(u.type()) : u.name();
          const SDL_Rect t = p.text(unit_name, x, y + 4, 14, theme::kText);
          std::string detail = optio_type_name(u.type());
          if (u.bases() > 0) detail += ", " + std::to_string(u.bases()) + " bases";
          if (u.morale() > 0)
            detail += ", morale " + std::to_string(u.morale());
          else if (c.mine)
            detail += ", full morale";
          p.text(detail, t.x + t.w + 8, y + 6, 12, theme::kTextDim);
        }
        y += kRow;
      }
    }
  } else if (c.roster->has_stand()) {
    const auto& have = c.roster->stand().figures();
    for (int t = 0; t < 4; ++t) {
      const int n = figures_of(have, t);
      if (n == 0 && c.picker == nullptr) continue;
      if (row_visible(y)) {
        int x = body.x + 10;
        const SDL_Rect badge{x, y + 4, 32, 17};
        ui.note_region(std::string("troop ") + kTroopNames[t] + (a ? " a" : " b"), badge);
        p.fill_round_rect(badge, 4, side_color);
        p.text_centered(std::to_string(n), badge.x + 16.0f, badge.y + 8.5f, 11, theme::kCounterText,
                        Weight::kBold);
        x += 42;
        p.text(kTroopLabels[t], x, y + 4, 14, theme::kText);
        if (c.picker != nullptr) {
          const int chosen = figures_of(c.picker->figures(), t);
          const int bx = body.x + body.w - 150;
          if (ui.button(SDL_Rect{bx, y + 2, 28, 20}, "-", ButtonStyle::kNormal, chosen > 0,
                        SDLK_UNKNOWN, 15, std::string("Fewer ") + kTroopNames[t]))
            c.picker->add_figures(t, -1, n);
          p.text_centered(std::to_string(chosen), bx + 52.0f, y + 12.0f, 15, theme::kGold,
                          Weight::kBold);
          if (ui.button(SDL_Rect{bx + 76, y + 2, 28, 20}, "+", ButtonStyle::kNormal, chosen < n,
                        SDLK_UNKNOWN, 15, std::string("More ") + kTroopNames[t]))
            c.picker->add_figures(t, 1, n);
          p.text("of " + std::to_string(n), bx + 110, y + 4, 12, theme::kTextDim);
        } else if (c.sealed != nullptr) {
          p.text(std::to_string(figures_of(c.sealed->figures(), t)) + " chosen",
                 body.x + body.w - 110, y + 4, 13, theme::kGold);
        }
      }
      y += kRow + 4;
    }
  }
  p.set_clip(nullptr);
  // Keep the scroll within the content.
  const int content = y + *scroll - body.y;
  *scroll = std::clamp(*scroll, 0, std::max(0, content - body.h));
}

}  // namespace castra::client
