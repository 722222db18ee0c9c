#include "client/sdl/stand_play.hpp"

#include "client/sdl/forecast_panel.hpp"

#include <algorithm>

#include "client/sdl/labels.hpp"
#include "client/sdl/reason_panel.hpp"
#include "client/sdl/theme.hpp"

namespace castra::client {

namespace s = v1::stand;
using Group = s::Legal::Group;
using Destination = s::Legal::Destination;

namespace {

const s::State* state_of(const Client& client) {
  const auto& m = client.match();
  if (!m.snapshot || !m.snapshot->state().has_stand()) return nullptr;
  return &m.snapshot->state().stand();
}

bool same(const v1::Coord& a, const Cell& b) {
  return a.col() == b.col && a.row() == b.row;
}

int get(const s::Figures& f, int t) {
  switch (t) {
    case s::TROOP_INFANTRY:
      return f.infantry();
    case s::TROOP_ARCHERS:
      return f.archers();
    case s::TROOP_CAVALRY:
      return f.cavalry();
    default:
      return f.chariots();
  }
}

void set(s::Figures* f, int t, int n) {
  switch (t) {
    case s::TROOP_INFANTRY:
      f->set_infantry(n);
      break;
    case s::TROOP_ARCHERS:
      f->set_archers(n);
      break;
    case s::TROOP_CAVALRY:
      f->set_cavalry(n);
      break;
    default:
      f->set_chariots(n);
      break;
  }
}

const char* troop_word(int t) {
  switch (t) {
    case s::TROOP_INFANTRY:
      return "Infantry";
    case s::TROOP_ARCHERS:
      return "Archers";
    case s::TROOP_CAVALRY:
      return "Cavalry";
    default:
      return "Chariots";
  }
}

std::string group_label(const Group& g) {
  std::string out;
  for (int t : g.types()) {
    if (!out.empty()) out += " + ";
    out += troop_word(t);
  }
  return out.empty() ? "Figures" : out;
}

int mask_of(const Group& g) {
  int m = 0;
  for (int t : g.types())
    m |= 1 << t;
  return m;
}

std::string mask_label(int mask) {
  std::string out;
  for (int t = s::TROOP_INFANTRY; t <= s::TROOP_CHARIOTS; ++t) {
    if ((mask & (1 << t)) == 0) continue;
    if (!out.empty()) out += " + ";
    out += troop_word(t);
  }
  return out;
}

int natural_facing(v1::Side side) {
  return side == v1::SIDE_A ? s::FACING_SE : s::FACING_NW;
}

int say_line(Painter& p, const std::string& text, int x, int y, int width, SDL_Color c,
             int size = 14, Weight w = Weight::kRegular) {
  for (const auto& line : p.wrap(text, size, width, w)) {
    p.text(line, x, y, size, c, Align::kLeft, w);
    y += p.line_height(size, w);
  }
  return y;
}

std::string coord_text(int col, int row) {
  return "(" + std::to_string(col) + "," + std::to_string(row) + ")";
}

}  // namespace

void StandPlay::forget() {
  selected_.reset();
  group_index_ = 0;
  deploy_types_ = -1;
  deploy_slots_.clear();
  wanted_ = {99, 99, 99, 99};
  deploy_facing_ = -1;
}

const s::Legal* StandPlay::legal(const Client& client) const {
  const auto& m = client.match();
  if (m.role != v1::ROLE_PLAYER && !m.offline) return nullptr;
  if (!m.legal || !m.legal->has_stand()) return nullptr;
  return &m.legal->stand();
}

const Group* StandPlay::group(const Client& client) const {
  const s::Legal* l = legal(client);
  if (l == nullptr) return nullptr;
  std::vector<const Group*> groups;
  if (l->deploy_size() > 0) {
    // The chosen types while any are left to place; none once they have run out, so a click
    // never places another type than the one chosen.
    for (const auto& g : l->deploy())
      if (deploy_types_ < 0 || mask_of(g) == deploy_types_) return &g;
    return nullptr;
  } else if (selected_) {
    for (const auto& g : l->moves())
      if (same(g.from(), *selected_)) groups.push_back(&g);
  }
  if (groups.empty()) return nullptr;
  return groups[static_cast<std::size_t>(
      std::clamp(group_index_, 0, static_cast<int>(groups.size()) - 1))];
}

s::Figures StandPlay::figures_for(const Client& client, const Group& g,
                                  const Destination& d) const {
  const s::Legal* l = legal(client);
  s::Figures f;
  for (int t : g.types())
    set(&f, t,
        std::clamp(std::min(wanted_[static_cast<std::size_t>(t)], get(d.most(), t)), 0,
                   get(g.available(), t)));
  // Only what fits goes: drop figures, the last type first, until the group fits the room.
  if (l != nullptr && d.room() > 0) {
    auto space = [&]() {
      int total = 0;
      for (int t : g.types())
        total += get(f, t) * std::max(1, get(l->space(), t));
      return total;
    };
    for (auto it = g.types().rbegin(); it != g.types().rend() && space() > d.room(); ++it) {
      while (get(f, *it) > 1 && space() > d.room())
        set(&f, *it, get(f, *it) - 1);
    }
  }
  return f;
}

void StandPlay::click_cell(Client& client, const Cell& c) {
  const s::State* st = state_of(client);
  const s::Legal* l = legal(client);
  if (st == nullptr) return;
  if (l != nullptr) {
    // Deploy or move the chosen group to a highlighted hex.
    if (const Group* g = group(client)) {
      for (const auto& d : g->destinations()) {
        if (!same(d.hex(), c)) continue;
        v1::GameCommand cmd;
        if (l->deploy_size() > 0) {
          auto* dep = cmd.mutable_stand()->mutable_deploy();
          *dep->mutable_hex() = d.hex();
          *dep->mutable_figures() = figures_for(client, *g, d);
          dep->set_facing(static_cast<s::Facing>(
              deploy_facing_ >= 0 ? deploy_facing_ : natural_facing(client.match().side)));
        } else {
          auto* mv = cmd.mutable_stand()->mutable_move();
          *mv->mutable_from() = g->from();
          *mv->mutable_path() = d.path();
          *mv->mutable_figures() = figures_for(client, *g, d);
        }
        client.submit(cmd);
        return;
      }
    }
    // Attack a ringed enemy hex.
    if (selected_) {
      for (const auto& a : l->attacks()) {
        if (!same(a.from(), *selected_)) continue;
        for (const auto& t : a.targets()) {
          if (!same(t, c)) continue;
          v1::GameCommand cmd;
          *cmd.mutable_stand()->mutable_attack()->mutable_from() = a.from();
          *cmd.mutable_stand()->mutable_attack()->mutable_target() = t;
          client.submit(cmd);
          return;
        }
      }
    }
  }
  const s::Tile* t = stand_tile(*st, c.col, c.row);
  if (t != nullptr && t->has_troops() && stand_figure_total(t->troops().figures()) > 0) {
    if (!selected_ || !(*selected_ == c)) {
      group_index_ = 0;
      wanted_ = {99, 99, 99, 99};
    }
    selected_ = c;
  } else if (l == nullptr || l->deploy_size() == 0) {
    selected_.reset();
  }
}

StandOverlay StandPlay::board(Ui& ui, Client& client, const SDL_Rect& area, const HexGeometry& g) {
  StandOverlay ov;
  const s::State* st = state_of(client);
  if (st == nullptr) return ov;
  // A selection is of troops: once they have all left (or fallen) the hex is not selected.
  if (selected_) {
    const s::Tile* t = stand_tile(*st, selected_->col, selected_->row);
    if (t == nullptr || !t->has_troops() || stand_figure_total(t->troops().figures()) == 0)
      selected_.reset();
  }
  const Input& in = ui.input();
  hover_.reset();
  if (!ui.blocked() && inside(area, in.mouse_x, in.mouse_y))
    hover_ = g.pick(in.mouse_x, in.mouse_y);
  if (ui.click_available() && inside(area, in.press_x, in.press_y)) {
    if (auto c = g.pick(in.press_x, in.press_y)) {
      ui.consume_click();
      click_cell(client, *c);
    }
  }
  if ((in.right_pressed && !ui.blocked() && inside(area, in.mouse_x, in.mouse_y)) ||
      ui.key(SDLK_ESCAPE)) {
    selected_.reset();
  }
  ov.selected = selected_;
  ov.hover = hover_;
  const s::Legal* l = legal(client);
  if (l != nullptr && l->phase() == s::PHASE_DEPLOY) {
    ov.show_zone = true;
    ov.zone_side = l->side();
  }
  if (l != nullptr && l->phase() == s::PHASE_MOVE) {
    ov.dim_moved = true;
    ov.dim_side = l->side();
  }
  if (const Group* gr = group(client)) {
    for (const auto& d : gr->destinations()) {
      ov.destinations.push_back({d.hex().col(), d.hex().row()});
      if (hover_ && same(d.hex(), *hover_) && d.path_size() > 0) {
        if (gr->has_from()) ov.path.push_back({gr->from().col(), gr->from().row()});
        for (const auto& h : d.path())
          ov.path.push_back({h.col(), h.row()});
      }
    }
  }
  hover_forecast_.reset();
  if (l != nullptr && selected_) {
    for (const auto& a : l->attacks()) {
      if (!same(a.from(), *selected_)) continue;
      for (const auto& t : a.targets())
        ov.targets.push_back({t.col(), t.row()});
      // The attack target under the cursor: the server's forecast of that attack.
      for (const auto& f : a.forecasts()) {
        if (hover_ && same(f.target(), *hover_)) hover_forecast_ = f;
      }
    }
  }
  for (const auto& e : client.match().last_batch) {
    if (!e.has_event() || !e.event().has_stand()) continue;
    const auto& ev = e.event().stand();
    if (ev.has_moved()) {
      ov.trail.clear();
      ov.trail.push_back({ev.moved().from().col(), ev.moved().from().row()});
      for (const auto& h : ev.moved().path())
        ov.trail.push_back({h.col(), h.row()});
    } else if (ev.has_attacked()) {
      ov.trail = {{ev.attacked().from().col(), ev.attacked().from().row()},
                  {ev.attacked().target().col(), ev.attacked().target().row()}};
    } else if (ev.has_casualties()) {
      ov.flashes.push_back({ev.casualties().hex().col(), ev.casualties().hex().row()});
    }
  }
  return ov;
}

int StandPlay::panel(Ui& ui, Client& client, const SDL_Rect& r) {
  Painter& p = ui.painter();
  const s::State* st = state_of(client);
  if (st == nullptr) return 0;
  const s::Legal* l = legal(client);
  const int x = r.x;
  const int w = r.w;
  int y = r.y;

  // Deployment: the groups still to place.
  if (l != nullptr && l->deploy_size() > 0) {
    y = say_line(p, "Deployment", x, y, w, theme::kGold, 17, Weight::kBold);
    y = say_line(p,
                 "Choose what to place, how many, and the facing; then click a highlighted hex "
                 "of your rows.",
                 x, y + 2, w, theme::kTextDim, 13);
    y += 6;
    // A slot per single type, then one per mixed group as it is first offered; a slot whose
    // figures have all been placed stays, disabled.
    if (deploy_slots_.empty()) {
      for (int t = s::TROOP_INFANTRY; t <= s::TROOP_CHARIOTS; ++t)
        deploy_slots_.push_back(1 << t);
    }
    for (const auto& g : l->deploy()) {
      if (std::find(deploy_slots_.begin(), deploy_slots_.end(), mask_of(g)) == deploy_slots_.end())
        deploy_slots_.push_back(mask_of(g));
    }
    const Group* chosen = group(client);
    int k = 0;
    for (int slot : deploy_slots_) {
      const bool offered = std::any_of(l->deploy().begin(), l->deploy().end(),
                                       [&](const Group& g) { return mask_of(g) == slot; });
      const std::string label = mask_label(slot);
      if (ui.button(SDL_Rect{x + (k % 2) * 174, y, 168, 26}, offered ? label : label + ": none",
                    chosen != nullptr && mask_of(*chosen) == slot ? ButtonStyle::kToggleOn
                                                                  : ButtonStyle::kNormal,
                    offered, SDLK_UNKNOWN, 13, label)) {
        deploy_types_ = slot;
        wanted_ = {99, 99, 99, 99};
      }
      if (k % 2 == 1) y += 32;
      ++k;
    }
    if (k % 2 == 1) y += 32;
    static const char* kDir[] = {"E", "NE", "NW", "W", "SW", "SE"};
    p.text("Facing:", x, y + 5, 13, theme::kText);
    const int facing = deploy_facing_ >= 0 ? deploy_facing_ : natural_facing(client.match().side);
    for (int f = 0; f < 6; ++f) {
      if (ui.button(SDL_Rect{x + 60 + f * 46, y, 42, 26}, kDir[f],
                    f == facing ? ButtonStyle::kToggleOn : ButtonStyle::kNormal, true, SDLK_UNKNOWN,
                    12, std::string("Deploy facing ") + kDir[f])) {
        deploy_facing_ = f;
      }
    }
    y += 34;
  }

  // The group that would move and how many of each type.
  if (const Group* g = group(client)) {
    if (l->deploy_size() == 0) {
      std::vector<const Group*> here;
      for (const auto& x2 : l->moves())
        if (selected_ && same(x2.from(), *selected_)) here.push_back(&x2);
      y = say_line(p,
                   "Move from " + coord_text(g->from().col(), g->from().row()) + " (reach " +
                       std::to_string(g->reach()) + ")",
                   x, y, w, theme::kGold, 15, Weight::kBold);
      if (here.size() > 1) {
        for (std::size_t i = 0; i < here.size(); ++i) {
          if (ui.button(SDL_Rect{x + static_cast<int>(i % 2) * 174, y, 168, 26},
                        "Move " + group_label(*here[i]),
                        static_cast<int>(i) == group_index_ ? ButtonStyle::kToggleOn
                                                            : ButtonStyle::kNormal,
                        true, SDLK_UNKNOWN, 12)) {
            group_index_ = static_cast<int>(i);
          }
          if (i % 2 == 1 || i + 1 == here.size()) y += 32;
        }
      }
    }
    for (int t : g->types()) {
      const int available = get(g->available(), t);
      int& want = wanted_[static_cast<std::size_t>(t)];
      want = std::clamp(want, 1, available);
      p.text(std::string(troop_word(t)) + ": " + std::to_string(want) + " of " +
                 std::to_string(available),
             x, y + 5, 14, theme::kText);
      if (ui.button(SDL_Rect{x + 200, y, 40, 26}, "-", ButtonStyle::kNormal, want > 1, SDLK_UNKNOWN,
                    18, std::string("- ") + troop_word(t))) {
        --want;
      }
      if (ui.button(SDL_Rect{x + 248, y, 40, 26}, "+", ButtonStyle::kNormal, want < available,
                    SDLK_UNKNOWN, 18, std::string("+ ") + troop_word(t))) {
        ++want;
      }
      y += 32;
    }
    if (hover_) {
      for (const auto& d : g->destinations()) {
        if (!same(d.hex(), *hover_)) continue;
        y = say_line(p,
                     "To " + coord_text(d.hex().col(), d.hex().row()) + ": " +
                         stand_figures_text(figures_for(client, *g, d)),
                     x, y, w, theme::kHighlight, 13);
      }
    }
    y = say_line(p, "Click a yellow hex to go there.", x, y, w, theme::kTextDim, 13);
    y += 4;
  }

  // The selected hex: what is there, and its facing and posture.
  if (!selected_) {
    if (l != nullptr && l->phase() == s::PHASE_MOVE)
      y = say_line(p,
                   "Click one of your hexes to move its troops, turn them, or set their posture.",
                   x, y, w, theme::kTextDim, 14);
    if (l != nullptr && l->phase() == s::PHASE_FIGHT)
      y = say_line(p, "Click one of your hexes next to the enemy to see what it may attack.", x, y,
                   w, theme::kTextDim, 14);
    return y - r.y;
  }
  const s::Tile* t = stand_tile(*st, selected_->col, selected_->row);
  if (t == nullptr) return y - r.y;
  p.fill_rect(SDL_Rect{x, y, w, 1}, theme::kPanelLine);
  y += 8;
  y = say_line(p,
               "Hex " + coord_text(t->hex().col(), t->hex().row()) + ": " +
                   stand_terrain_name(t->terrain(), t->crossing()) + ", room " +
                   std::to_string(t->capacity()),
               x, y, w, theme::kText, 14, Weight::kBold);
  if (t->has_troops()) {
    const auto& tr = t->troops();
    const SDL_Color side_color = tr.side() == v1::SIDE_A ? theme::kSideALight : theme::kSideBLight;
    y = say_line(p, side_name(tr.side()) + ": " + stand_figures_text(tr.figures()), x, y, w,
                 side_color, 14, Weight::kBold);
    y = say_line(p, stand_posture_name(tr.posture()) + ", facing " + stand_facing_name(tr.facing()),
                 x, y, w, tr.posture() == s::POSTURE_STANDING ? theme::kGold : theme::kText, 13);
    if (st->phase() == s::PHASE_MOVE && tr.side() == client.match().side)
      y = say_line(p, "Not yet moved: " + stand_figures_text(tr.unmoved()), x, y, w,
                   theme::kTextDim, 13);
    if (tr.attacked()) y = say_line(p, "Has attacked this phase.", x, y, w, theme::kTextDim, 13);
    if (tr.side() == client.match().side) {
      y = draw_reasons(ui, client.reasons(hex_piece(selected_->col, selected_->row)), x, y, w);
    }
  }
  if (l == nullptr) return y - r.y;
  y += 4;
  if (hover_forecast_) y = draw_forecast(ui, *hover_forecast_, x, y, w);
  for (const auto& fc : l->facings()) {
    if (!same(fc.hex(), *selected_)) continue;
    p.text("Face:", x, y + 6, 13, theme::kText);
    static const char* kDir[] = {"E", "NE", "NW", "W", "SW", "SE"};
    for (int f = 0; f < 6; ++f) {
      // Q turns one hexside left (counter-clockwise), E one right.
      SDL_Keycode hot = SDLK_UNKNOWN;
      if (f == (fc.facing() + 1) % 6) hot = SDLK_q;
      if (f == (fc.facing() + 5) % 6) hot = SDLK_e;
      if (ui.button(SDL_Rect{x + 46 + f * 48, y, 44, 28}, kDir[f],
                    f == fc.facing() ? ButtonStyle::kToggleOn : ButtonStyle::kNormal,
                    f != fc.facing(), hot, 12, std::string("Face ") + kDir[f])) {
        v1::GameCommand cmd;
        *cmd.mutable_stand()->mutable_face()->mutable_hex() = fc.hex();
        cmd.mutable_stand()->mutable_face()->set_facing(static_cast<s::Facing>(f));
        client.submit(cmd);
      }
    }
    y += 36;
  }
  for (const auto& pc : l->postures()) {
    if (!same(pc.hex(), *selected_)) continue;
    const bool standing = pc.posture() == s::POSTURE_STANDING;
    if (ui.button(SDL_Rect{x, y, 200, 28}, standing ? "Fall back (S)" : "Stand (S)",
                  standing ? ButtonStyle::kNormal : ButtonStyle::kPrimary, true, SDLK_s)) {
      v1::GameCommand cmd;
      *cmd.mutable_stand()->mutable_set_posture()->mutable_hex() = pc.hex();
      cmd.mutable_stand()->mutable_set_posture()->set_posture(standing ? s::POSTURE_FALLING_BACK
                                                                       : s::POSTURE_STANDING);
      client.submit(cmd);
    }
    y += 34;
  }
  for (const auto& a : l->attacks()) {
    if (!same(a.from(), *selected_)) continue;
    y = say_line(p, "Click an enemy hex ringed in violet to attack it with every figure here.", x,
                 y, w, theme::kTextDim, 13);
  }
  return y - r.y;
}

std::optional<v1::GameCommand> StandPlay::end_command(const Client& client, std::string* label,
                                                      std::string* question) const {
  const s::Legal* l = legal(client);
  if (l == nullptr || !l->end_phase()) return std::nullopt;
  v1::GameCommand cmd;
  cmd.mutable_stand()->mutable_end_phase();
  switch (l->phase()) {
    case s::PHASE_DEPLOY:
      *label = "End deployment";
      *question = "End your deployment? Figures not placed take no part in the battle.";
      break;
    case s::PHASE_FIGHT:
      *label = "End fight phase";
      *question = "End your fight phase? Hexes that have not attacked lose their chance this turn.";
      break;
    default:
      *label = "End move phase";
      *question = "End your move phase? The fight phase follows.";
      break;
  }
  return cmd;
}

std::string StandPlay::hint(const Client& client) const {
  const s::Legal* l = legal(client);
  if (l == nullptr) return "";
  switch (l->phase()) {
    case s::PHASE_DEPLOY:
      return "Deploy your army in your rows.";
    case s::PHASE_MOVE:
      return "Move, turn and set postures; then end your move phase.";
    case s::PHASE_FIGHT:
      return "Attack from hexes next to the enemy; then end your fight phase.";
    default:
      return "";
  }
}

}  // namespace castra::client
