#include "client/sdl/optio_play.hpp"

#include "client/sdl/forecast_panel.hpp"

#include <algorithm>
#include <cstdlib>

#include "client/sdl/labels.hpp"
#include "client/sdl/reason_panel.hpp"
#include "client/sdl/theme.hpp"
#include "client/sdl/unit_names.hpp"

namespace castra::client {

namespace o = v1::optio;

namespace {

const o::State* state_of(const Client& client) {
  const auto& m = client.match();
  if (!m.snapshot || !m.snapshot->state().has_optio()) return nullptr;
  return &m.snapshot->state().optio();
}

bool same(const v1::Coord& a, const Cell& b) {
  return a.col() == b.col && a.row() == b.row;
}

int natural_facing(v1::Side side) {
  return side == v1::SIDE_A ? 2 : 0;
}

std::string leader_title(const o::Leader& l) {
  return l.general() ? "General" : "Subcommander " + std::to_string(l.id());
}

std::string unit_title(const o::Unit& u) {
  return "#" + std::to_string(u.id()) + " " + optio_type_name(u.type());
}

// One line of the panel, wrapped; returns the y below it.
int say_line(Painter& p, const std::string& text, int x, int y, int width, SDL_Color c,
             int size = 14, Weight w = Weight::kRegular) {
  for (const auto& line : p.wrap(text, size, width, w)) {
    p.text(line, x, y, size, c, Align::kLeft, w);
    y += p.line_height(size, w);
  }
  return y;
}

}  // namespace

void OptioPlay::forget() {
  selected_.reset();
  moving_leader_.reset();
  placing_leader_.reset();
  advance_choice_.clear();
  paths_.clear();
  editor_for_ = ~0ull;
  deploy_facing_ = -1;
}

const o::Legal* OptioPlay::legal(const Client& client) const {
  const auto& m = client.match();
  if (m.role != v1::ROLE_PLAYER && !m.offline) return nullptr;
  if (!m.legal || !m.legal->has_optio()) return nullptr;
  return &m.legal->optio();
}

const o::UnitLegal* OptioPlay::unit_legal(const Client& client, int unit) const {
  const o::Legal* l = legal(client);
  if (l == nullptr) return nullptr;
  for (const auto& u : l->units())
    if (u.unit() == unit) return &u;
  return nullptr;
}

const o::LeaderLegal* OptioPlay::leader_legal(const Client& client, int leader) const {
  const o::Legal* l = legal(client);
  if (l == nullptr) return nullptr;
  for (const auto& x : l->leaders())
    if (x.leader() == leader) return &x;
  return nullptr;
}

bool OptioPlay::editing_orders(const Client& client) const {
  const o::Legal* l = legal(client);
  return l != nullptr && l->orders().submit();
}

void OptioPlay::sync_editor(const Client& client) {
  const o::Legal* l = legal(client);
  if (l == nullptr || !l->orders().submit()) return;
  const std::uint64_t at = client.match().snapshot ? client.match().snapshot->event_count() : 0;
  if (editor_for_ == at && paths_.size() == static_cast<std::size_t>(l->orders().starts_size()))
    return;
  editor_for_ = at;
  paths_.assign(l->orders().starts().begin(), l->orders().starts().end());
  active_path_ = 0;
  // A new card is drawn on a clean board: what was selected before (in the deployment) has
  // nothing to do with it.
  selected_.reset();
  moving_leader_.reset();
  placing_leader_.reset();
}

void OptioPlay::orders_click(const Client& client, const Cell& c, bool dragging) {
  const o::Legal* l = legal(client);
  if (l == nullptr || paths_.empty()) return;
  // Clicking another subcommander's start square makes his path the one being drawn.
  if (!dragging) {
    for (std::size_t i = 0; i < paths_.size(); ++i) {
      if (static_cast<int>(i) != active_path_ && paths_[i].squares_size() > 0 &&
          same(paths_[i].squares(0), c) && paths_[i].squares_size() == 1) {
        active_path_ = static_cast<int>(i);
        return;
      }
    }
  }
  auto& path = paths_[static_cast<std::size_t>(active_path_)];
  const v1::Coord& last = path.squares(path.squares_size() - 1);
  if (same(last, c)) {
    if (!dragging && path.squares_size() > 1) path.mutable_squares()->RemoveLast();
    return;
  }
  // A path is a chain of squares each king-adjacent to the one before (the card's form; the
  // server checks it again).
  const bool adjacent = std::abs(last.col() - c.col) <= 1 && std::abs(last.row() - c.row) <= 1;
  const int cols = l->orders().cols();
  const int rows = l->orders().rows();
  const bool on_board =
      c.col >= 1 && c.row >= 1 && (cols == 0 || c.col <= cols) && (rows == 0 || c.row <= rows);
  const int max = l->orders().max_squares() > 0 ? l->orders().max_squares() : 64;
  if (adjacent && on_board && path.squares_size() < max) {
    auto* sq = path.add_squares();
    sq->set_col(c.col);
    sq->set_row(c.row);
  }
}

void OptioPlay::submit_orders(Client& client) {
  v1::GameCommand cmd;
  auto* submit = cmd.mutable_optio()->mutable_submit_orders();
  for (const auto& p : paths_)
    *submit->add_paths() = p;
  client.submit(cmd);
}

void OptioPlay::choose_advance(Client& client, const o::UnitLegal& ul, const Cell& c) {
  const o::State* s = state_of(client);
  const o::Unit* u = s != nullptr ? optio_unit(*s, ul.unit()) : nullptr;
  std::vector<int> options;
  for (int i = 0; i < ul.advances_size(); ++i) {
    const auto& steps = ul.advances(i).steps();
    if (!steps.empty() && steps.rbegin()->col() == c.col && steps.rbegin()->row() == c.row)
      options.push_back(i);
  }
  if (options.empty()) return;
  int pick = options.front();
  auto chosen = advance_choice_.find({c.col, c.row});
  if (chosen != advance_choice_.end()) {
    pick = options[static_cast<std::size_t>(chosen->second) % options.size()];
  } else {
    // The shortest way there, keeping the unit's facing when there is a choice.
    auto key = [&](int i) {
      const auto& st = ul.advances(i).steps();
      const bool keeps = u != nullptr && st.rbegin()->facing() == u->facing();
      return std::make_pair(st.size(), keeps ? 0 : 1);
    };
    pick = *std::min_element(options.begin(), options.end(),
                             [&](int a, int b) { return key(a) < key(b); });
  }
  v1::GameCommand cmd;
  auto* adv = cmd.mutable_optio()->mutable_advance();
  adv->set_unit(ul.unit());
  *adv->mutable_steps() = ul.advances(pick).steps();
  client.submit(cmd);
  advance_choice_.clear();
}

void OptioPlay::click_cell(Client& client, const Cell& c) {
  const o::State* s = state_of(client);
  if (s == nullptr) return;
  const o::Unit* there = optio_unit_at(*s, c.col, c.row);
  const o::Legal* l = legal(client);
  // A leader choosing his new unit.
  if (moving_leader_ || placing_leader_) {
    const bool placing = placing_leader_.has_value();
    const int leader = placing ? *placing_leader_ : *moving_leader_;
    moving_leader_.reset();
    placing_leader_.reset();
    const o::LeaderLegal* ll = leader_legal(client, leader);
    if (ll != nullptr && there != nullptr) {
      const auto& targets = placing ? ll->place_on() : ll->move_to();
      if (std::find(targets.begin(), targets.end(), there->id()) != targets.end()) {
        v1::GameCommand cmd;
        if (placing) {
          cmd.mutable_optio()->mutable_place_leader()->set_leader(leader);
          cmd.mutable_optio()->mutable_place_leader()->set_unit(there->id());
        } else {
          cmd.mutable_optio()->mutable_move_leader()->set_leader(leader);
          cmd.mutable_optio()->mutable_move_leader()->set_unit(there->id());
        }
        client.submit(cmd);
        return;
      }
    }
  }
  if (selected_ && l != nullptr) {
    if (const o::UnitLegal* ul = unit_legal(client, *selected_)) {
      // Deploy on a highlighted square.
      for (const auto& at : ul->placements()) {
        if (!same(at, c) || (there != nullptr && there->id() != *selected_)) continue;
        v1::GameCommand cmd;
        auto* d = cmd.mutable_optio()->mutable_deploy();
        d->set_unit(*selected_);
        *d->mutable_at() = at;
        int facing = deploy_facing_ >= 0 ? deploy_facing_ : natural_facing(client.match().side);
        if (ul->facings_size() > 0 &&
            std::find(ul->facings().begin(), ul->facings().end(), facing) == ul->facings().end())
          facing = ul->facings(0);
        d->set_facing(facing);
        auto formation = static_cast<o::Formation>(deploy_formation_);
        if (ul->formations_size() > 0 && std::find(ul->formations().begin(), ul->formations().end(),
                                                   formation) == ul->formations().end())
          formation = static_cast<o::Formation>(ul->formations(0));
        d->set_formation(formation);
        client.submit(cmd);
        return;
      }
      // Advance (or charge) to a highlighted square.
      for (const auto& a : ul->advances()) {
        if (a.steps().empty()) continue;
        if (a.steps().rbegin()->col() == c.col && a.steps().rbegin()->row() == c.row) {
          choose_advance(client, *ul, c);
          return;
        }
      }
      // Shoot at a ringed enemy.
      if (there != nullptr) {
        for (int target : ul->shoot_targets()) {
          if (target != there->id()) continue;
          v1::GameCommand cmd;
          cmd.mutable_optio()->mutable_shoot()->set_unit(*selected_);
          cmd.mutable_optio()->mutable_shoot()->set_target(target);
          client.submit(cmd);
          return;
        }
      }
    }
  }
  advance_choice_.clear();
  if (there != nullptr) {
    selected_ = there->id();
  } else {
    selected_.reset();
  }
}

OptioOverlay OptioPlay::board(Ui& ui, Client& client, const SDL_Rect& area,
                              const SquareGeometry& g) {
  OptioOverlay ov;
  const o::State* s = state_of(client);
  if (s == nullptr) return ov;
  sync_editor(client);
  const bool editing = editing_orders(client);
  const Input& in = ui.input();
  hover_.reset();
  if (!ui.blocked() && inside(area, in.mouse_x, in.mouse_y))
    hover_ = g.pick(in.mouse_x, in.mouse_y);
  if (ui.click_available() && inside(area, in.press_x, in.press_y)) {
    if (auto c = g.pick(in.press_x, in.press_y)) {
      ui.consume_click();
      if (editing) {
        orders_click(client, *c, false);
        drag_last_ = *c;
      } else {
        click_cell(client, *c);
      }
    }
  }
  // Drawing a path by dragging across squares.
  if (editing && in.left_held && !ui.blocked() && hover_ && drag_last_ &&
      !(*hover_ == *drag_last_)) {
    orders_click(client, *hover_, true);
    drag_last_ = hover_;
  }
  if (!in.left_held) drag_last_.reset();
  if (in.right_pressed && !ui.blocked() && inside(area, in.mouse_x, in.mouse_y)) {
    // Right click on a destination picks the next way there; elsewhere it clears.
    bool cycled = false;
    if (hover_ && selected_) {
      if (const o::UnitLegal* ul = unit_legal(client, *selected_)) {
        int n = 0;
        for (const auto& a : ul->advances())
          if (!a.steps().empty() && a.steps().rbegin()->col() == hover_->col &&
              a.steps().rbegin()->row() == hover_->row)
            ++n;
        if (n > 1) {
          ++advance_choice_[{hover_->col, hover_->row}];
          cycled = true;
        }
      }
    }
    if (!cycled && editing && !paths_.empty() &&
        paths_[static_cast<std::size_t>(active_path_)].squares_size() > 1) {
      paths_[static_cast<std::size_t>(active_path_)].mutable_squares()->RemoveLast();
    } else if (!cycled) {
      selected_.reset();
      moving_leader_.reset();
      placing_leader_.reset();
    }
  }
  if (ui.key(SDLK_ESCAPE)) {
    selected_.reset();
    moving_leader_.reset();
    placing_leader_.reset();
  }
  if (editing && !paths_.empty()) {
    auto& path = paths_[static_cast<std::size_t>(active_path_)];
    if (ui.key(SDLK_BACKSPACE) && path.squares_size() > 1) path.mutable_squares()->RemoveLast();
    if (ui.key(SDLK_n)) active_path_ = (active_path_ + 1) % static_cast<int>(paths_.size());
  }

  // What to draw.
  hover_forecast_.reset();
  ov.selected_unit = selected_;
  ov.hover = hover_;
  if (hover_) {
    if (const o::Unit* u = optio_unit_at(*s, hover_->col, hover_->row))
      ov.hover_text = optio_unit_hover_text(
          *u, optio_scenario_unit_name(client.lobby().scenarios, client.match().summary.scenario(),
                                       u->id()));
  }
  const o::Legal* l = legal(client);
  if (l != nullptr && s->phase() == o::PHASE_DEPLOYMENT) ov.zone_side = l->side();
  if (selected_ && !editing) {
    if (const o::UnitLegal* ul = unit_legal(client, *selected_)) {
      for (const auto& a : ul->advances()) {
        if (a.steps().empty()) continue;
        const Cell at{a.steps().rbegin()->col(), a.steps().rbegin()->row()};
        auto it = std::find_if(ov.destinations.begin(), ov.destinations.end(),
                               [&](const auto& d) { return d.at == at; });
        if (it == ov.destinations.end()) {
          ov.destinations.push_back({at, a.charge_target() != 0});
        } else if (a.charge_target() != 0) {
          it->charge = true;
        }
      }
      for (const auto& p : ul->placements())
        ov.placements.push_back({p.col(), p.row()});
      ov.shoot_targets.assign(ul->shoot_targets().begin(), ul->shoot_targets().end());
      // The path the click would take, when hovering a destination.
      if (hover_) {
        std::vector<int> options;
        for (int i = 0; i < ul->advances_size(); ++i) {
          const auto& st = ul->advances(i).steps();
          if (!st.empty() && st.rbegin()->col() == hover_->col && st.rbegin()->row() == hover_->row)
            options.push_back(i);
        }
        if (!options.empty()) {
          auto it = advance_choice_.find({hover_->col, hover_->row});
          int pick = options.front();
          if (it != advance_choice_.end())
            pick = options[static_cast<std::size_t>(it->second) % options.size()];
          if (const o::Unit* u = optio_unit(*s, *selected_))
            ov.trail.push_back({u->at().col(), u->at().row()});
          for (const auto& st : ul->advances(pick).steps())
            ov.trail.push_back({st.col(), st.row()});
          if (ul->advances(pick).has_forecast()) hover_forecast_ = ul->advances(pick).forecast();
        }
        // A shoot target under the cursor: the server's forecast of that shot.
        for (const auto& f : ul->shot_forecasts()) {
          const o::Unit* t = optio_unit(*s, f.target());
          if (t != nullptr && t->at().col() == hover_->col && t->at().row() == hover_->row)
            hover_forecast_ = f;
        }
      }
    }
  }
  if (moving_leader_ || placing_leader_) {
    const int leader = moving_leader_ ? *moving_leader_ : *placing_leader_;
    if (const o::LeaderLegal* ll = leader_legal(client, leader)) {
      const auto& t = moving_leader_ ? ll->move_to() : ll->place_on();
      ov.leader_targets.assign(t.begin(), t.end());
    }
  }
  // Orders paths: the editor's, or the paths the viewer may see (his own; everyone's at the end).
  if (editing) {
    for (std::size_t i = 0; i < paths_.size(); ++i) {
      OptioOverlay::Path path;
      for (const auto& sq : paths_[i].squares())
        path.squares.push_back({sq.col(), sq.row()});
      path.color = theme::kPathColors[i % std::size(theme::kPathColors)];
      path.style = static_cast<int>(i);
      path.active = static_cast<int>(i) == active_path_;
      path.label = "Sub " + std::to_string(paths_[i].leader());
      ov.paths.push_back(path);
    }
    if (!paths_.empty()) {
      const auto& path = paths_[static_cast<std::size_t>(active_path_)];
      // Where he may range from his path once play begins: within his range (king's moves)
      // of some square of it. Shown to help plan; the server judges every move.
      int range = 2;
      for (const auto& ld : s->leaders())
        if (ld.id() == path.leader() && ld.range() > 0) range = ld.range();
      for (int row = 1; row <= s->rows(); ++row) {
        for (int col = 1; col <= s->cols(); ++col) {
          for (const auto& sq : path.squares()) {
            if (std::abs(sq.col() - col) <= range && std::abs(sq.row() - row) <= range) {
              ov.corridor.push_back({col, row});
              break;
            }
          }
        }
      }
      const auto& last = path.squares(path.squares_size() - 1);
      for (int dr = -1; dr <= 1; ++dr) {
        for (int dc = -1; dc <= 1; ++dc) {
          const Cell c{last.col() + dc, last.row() + dr};
          if ((dc == 0 && dr == 0) || c.col < 1 || c.row < 1 || c.col > s->cols() ||
              c.row > s->rows())
            continue;
          ov.path_next.push_back(c);
        }
      }
    }
  } else {
    int k = 0;
    for (const auto& leader : s->leaders()) {
      if (leader.path_size() == 0) continue;
      OptioOverlay::Path path;
      for (const auto& sq : leader.path())
        path.squares.push_back({sq.col(), sq.row()});
      path.style = k;
      path.color = theme::kPathColors[k++ % std::size(theme::kPathColors)];
      path.progress = leader.progress();
      path.label = leader.abandoned() ? "" : "Sub " + std::to_string(leader.id());
      if (!leader.abandoned()) ov.paths.push_back(path);
    }
  }
  // The last batch of events: where the last unit went, where fights were.
  if (ov.trail.empty()) {
    for (const auto& e : client.match().last_batch) {
      if (!e.has_event() || !e.event().has_optio()) continue;
      const auto& ev = e.event().optio();
      if (ev.has_advanced()) {
        ov.trail.clear();
        ov.trail.push_back({ev.advanced().from().col(), ev.advanced().from().row()});
        for (const auto& st : ev.advanced().steps())
          ov.trail.push_back({st.col(), st.row()});
      } else if (ev.has_fight()) {
        for (int id : {ev.fight().a(), ev.fight().b()})
          if (const o::Unit* u = optio_unit(*s, id); u != nullptr && u->placed() && !u->routed())
            ov.flashes.push_back({u->at().col(), u->at().row()});
      } else if (ev.has_routed()) {
        ov.flashes.push_back({ev.routed().at().col(), ev.routed().at().row()});
      } else if (ev.has_shot()) {
        if (const o::Unit* u = optio_unit(*s, ev.shot().target()); u != nullptr && u->placed())
          ov.flashes.push_back({u->at().col(), u->at().row()});
      }
    }
  }
  return ov;
}

int OptioPlay::panel(Ui& ui, Client& client, const SDL_Rect& r) {
  Painter& p = ui.painter();
  const o::State* s = state_of(client);
  if (s == nullptr) return 0;
  const o::Legal* l = legal(client);
  const int x = r.x;
  const int w = r.w;
  int y = r.y;
  const v1::Side me = client.match().side;

  // ---- the orders-card editor
  if (editing_orders(client)) {
    y = say_line(p, "Orders card", x, y, w, theme::kGold, 17, Weight::kBold);
    y = say_line(p,
                 "Draw each subcommander's path: click (or drag over) squares next to the last "
                 "one, starting from his square. Click the last square or press Backspace to take "
                 "it back; N or his button picks another subcommander. The card is sealed: your "
                 "opponent sees it only when the game ends.",
                 x, y + 2, w, theme::kTextDim, 13);
    y += 6;
    for (std::size_t i = 0; i < paths_.size(); ++i) {
      const auto& path = paths_[i];
      const SDL_Color color = theme::kPathColors[i % std::size(theme::kPathColors)];
      int range = 2;
      for (const auto& ld : s->leaders())
        if (ld.id() == path.leader() && ld.range() > 0) range = ld.range();
      p.fill_rect(SDL_Rect{x, y + 6, 14, 14}, color);
      const std::string label = "Sub " + std::to_string(path.leader());
      const bool active = static_cast<int>(i) == active_path_;
      if (ui.button(SDL_Rect{x + 22, y, 120, 26}, label,
                    active ? ButtonStyle::kToggleOn : ButtonStyle::kNormal)) {
        active_path_ = static_cast<int>(i);
      }
      // On a narrow panel the range goes (the board's corridor shows it too).
      const std::string squares = count_text(path.squares_size(), "square", "squares");
      const std::string full = squares + ", range " + std::to_string(range);
      p.text(p.text_width(full, 13) <= w - 150 ? full : squares, x + 150, y + 5, 13, theme::kText);
      y += 32;
    }
    if (!paths_.empty()) {
      if (ui.button(SDL_Rect{x, y, 110, 28}, "Undo square", ButtonStyle::kNormal,
                    paths_[static_cast<std::size_t>(active_path_)].squares_size() > 1)) {
        paths_[static_cast<std::size_t>(active_path_)].mutable_squares()->RemoveLast();
      }
      if (ui.button(SDL_Rect{x + 118, y, 110, 28}, "Clear path")) {
        auto& path = paths_[static_cast<std::size_t>(active_path_)];
        while (path.squares_size() > 1)
          path.mutable_squares()->RemoveLast();
      }
      y += 36;
    }
    return y - r.y;
  }

  // ---- deployment
  if (l != nullptr && s->phase() == o::PHASE_DEPLOYMENT) {
    y = say_line(p, "Deployment", x, y, w, theme::kGold, 17, Weight::kBold);
    y = say_line(p,
                 "Pick a unit, then a highlighted square of your zone. Units already placed may be "
                 "moved again until you end your deployment.",
                 x, y + 2, w, theme::kTextDim, 13);
    y += 6;
    int col = 0;
    for (const auto& u : s->units()) {
      if (u.side() != me) continue;
      const o::UnitLegal* ul = unit_legal(client, u.id());
      if (ul == nullptr || ul->placements_size() == 0) continue;
      const std::string label = "#" + std::to_string(u.id()) + " " + optio_type_abbrev(u.type()) +
                                (u.placed() ? "" : " *");
      const bool on = selected_ && *selected_ == u.id();
      if (ui.button(SDL_Rect{x + col * 86, y, 80, 26}, label,
                    on ? ButtonStyle::kToggleOn : ButtonStyle::kNormal, true, SDLK_UNKNOWN, 13)) {
        selected_ = u.id();
      }
      if (++col == 4) {
        col = 0;
        y += 32;
      }
    }
    if (col != 0) y += 32;
    p.text("* not yet on the field", x, y, 12, theme::kTextDim);
    y += 20;
    p.text("Facing when placed:", x, y + 5, 13, theme::kText);
    static const char* kFacing[] = {"N", "E", "S", "W"};
    const int current = deploy_facing_ >= 0 ? deploy_facing_ : natural_facing(me);
    for (int f = 0; f < 4; ++f) {
      if (ui.button(SDL_Rect{x + 140 + f * 44, y, 38, 26}, kFacing[f],
                    f == current ? ButtonStyle::kToggleOn : ButtonStyle::kNormal, true,
                    SDLK_UNKNOWN, 13, std::string("Deploy facing ") + kFacing[f])) {
        deploy_facing_ = f;
      }
    }
    y += 32;
    p.text("Formation:", x, y + 5, 13, theme::kText);
    if (ui.button(SDL_Rect{x + 140, y, 80, 26}, "Line",
                  deploy_formation_ == 0 ? ButtonStyle::kToggleOn : ButtonStyle::kNormal)) {
      deploy_formation_ = 0;
    }
    if (ui.button(SDL_Rect{x + 226, y, 80, 26}, "Column",
                  deploy_formation_ == 1 ? ButtonStyle::kToggleOn : ButtonStyle::kNormal)) {
      deploy_formation_ = 1;
    }
    y += 34;
    for (const auto& ll : l->leaders()) {
      if (ll.place_on_size() == 0) continue;
      const o::Leader* leader = nullptr;
      for (const auto& ld : s->leaders())
        if (ld.id() == ll.leader()) leader = &ld;
      const std::string label =
          "Place " + (leader ? leader_title(*leader) : std::to_string(ll.leader()));
      if (ui.button(SDL_Rect{x, y, w, 28}, label,
                    placing_leader_ && *placing_leader_ == ll.leader() ? ButtonStyle::kToggleOn
                                                                       : ButtonStyle::kNormal)) {
        placing_leader_ = ll.leader();
        moving_leader_.reset();
      }
      y += 34;
    }
    if (placing_leader_)
      y = say_line(p, "Click the unit he starts with.", x, y, w, theme::kHighlight, 13);
  }

  // ---- the selected unit
  if (!selected_) {
    if (l != nullptr && s->phase() == o::PHASE_MOVE) {
      y = say_line(p, "Click one of your units to see where it may go.", x, y, w, theme::kTextDim,
                   14);
    }
    return y - r.y;
  }
  const o::Unit* u = optio_unit(*s, *selected_);
  if (u == nullptr) return y - r.y;
  y += 4;
  p.fill_rect(SDL_Rect{x, y, w, 1}, theme::kPanelLine);
  y += 8;
  const SDL_Color side_color = u->side() == v1::SIDE_A ? theme::kSideALight : theme::kSideBLight;
  y = say_line(p, unit_title(*u) + "  (" + side_name(u->side()) + ")", x, y, w, side_color, 16,
               Weight::kBold);
  const int bases = u->bases() == 0 ? 2 : u->bases();
  std::string line = std::to_string(bases) + (bases == 1 ? " base" : " bases");
  if (bases == 1) line += " (thin line)";
  if (bases == 4 && u->formation() == o::FORMATION_LINE) line += " (deep line)";
  line += u->formation() == o::FORMATION_COLUMN ? ", column" : ", line";
  if (u->placed()) {
    line += ", facing " + optio_facing_name(u->facing()) + ", at (" +
            std::to_string(u->at().col()) + "," + std::to_string(u->at().row()) + ") " +
            optio_terrain_name(optio_terrain_at(*s, u->at().col(), u->at().row()));
  }
  y = say_line(p, line, x, y, w, theme::kText, 13);
  std::string morale = "Morale " + std::to_string(u->morale()) + " of " +
                       std::to_string(u->start_morale()) +
                       (optio_is_shaken(*u) ? ": SHAKEN" : ": firm");
  y = say_line(p, morale, x, y, w, optio_is_shaken(*u) ? theme::rgb(0xF0A040) : theme::kText, 13,
               Weight::kBold);
  if (u->disordered()) {
    // disorder_turns: the ends of turn still to pass before order returns.
    const int left = std::max(1, u->disorder_turns());
    y = say_line(p,
                 left == 1 ? "Disordered: order returns at the end of this turn"
                           : "Disordered: order returns at the end of turn " +
                                 std::to_string(s->turn() + left - 1) + " (" +
                                 count_text(left, "turn end", "turn ends") + " from now)",
                 x, y, w, theme::rgb(0xF2C230), 13);
  }
  if (u->missile_hits() > 0) {
    y = say_line(p,
                 "Missile hits: " + std::to_string(u->missile_hits()) + " (every 4th costs morale)",
                 x, y, w, theme::kText, 13);
  }
  for (const auto& ld : s->leaders()) {
    if (ld.unit() != u->id() || ld.status() != o::Leader::ACTIVE) continue;
    std::string t = leader_title(ld) + " is with this unit";
    if (ld.wounded()) t += " (wounded)";
    if (ld.abandoned()) t += ", orders abandoned";
    y = say_line(p, t, x, y, w, theme::kGold, 13);
  }
  if (u->side() == me) y = draw_reasons(ui, client.reasons(unit_piece(u->id())), x, y, w);
  const o::UnitLegal* ul = unit_legal(client, u->id());
  if (ul == nullptr || s->phase() != o::PHASE_MOVE) return y - r.y;
  y = say_line(p, ul->in_command() ? "In command" : "Out of command: one square at most, no charge",
               x, y, w, ul->in_command() ? theme::kOk : theme::rgb(0xF0A040), 13);
  y += 6;
  if (hover_forecast_) y = draw_forecast(ui, *hover_forecast_, *s, x, y, w);
  if (ul->advances_size() > 0) {
    y = say_line(p,
                 "Click a yellow square to advance there (orange: a charge). Right-click a square "
                 "to try another path to it.",
                 x, y, w, theme::kTextDim, 13);
  }
  if (ul->shoot_targets_size() > 0)
    y = say_line(p, "Click an enemy ringed in violet to shoot at it.", x, y, w, theme::kTextDim,
                 13);
  if (ul->rotations_size() > 0) {
    p.text("Rotate:", x, y + 6, 13, theme::kText);
    static const char* kFacing[] = {"N", "E", "S", "W"};
    int k = 0;
    for (int f = 0; f < 4; ++f) {
      if (std::find(ul->rotations().begin(), ul->rotations().end(), f) == ul->rotations().end())
        continue;
      // Q and E turn a quarter left and right.
      SDL_Keycode hot = SDLK_UNKNOWN;
      if (f == (u->facing() + 3) % 4) hot = SDLK_q;
      if (f == (u->facing() + 1) % 4) hot = SDLK_e;
      if (ui.button(SDL_Rect{x + 64 + k * 70, y, 64, 28}, std::string("Face ") + kFacing[f],
                    ButtonStyle::kNormal, true, hot, 13)) {
        v1::GameCommand cmd;
        cmd.mutable_optio()->mutable_rotate()->set_unit(u->id());
        cmd.mutable_optio()->mutable_rotate()->set_facing(f);
        client.submit(cmd);
      }
      ++k;
    }
    y += 34;
  }
  if (ul->change_formation()) {
    const std::string label =
        u->formation() == o::FORMATION_COLUMN ? "Form line (F)" : "Form column (F)";
    if (ui.button(SDL_Rect{x, y, 160, 28}, label, ButtonStyle::kNormal, true, SDLK_f)) {
      v1::GameCommand cmd;
      cmd.mutable_optio()->mutable_change_formation()->set_unit(u->id());
      client.submit(cmd);
    }
    y += 34;
  }
  for (const auto& ld : s->leaders()) {
    if (ld.unit() != u->id()) continue;
    const o::LeaderLegal* ll = leader_legal(client, ld.id());
    if (ll == nullptr) continue;
    if (ll->move_to_size() > 0) {
      if (ui.button(SDL_Rect{x, y, 240, 28}, "Move " + leader_title(ld) + " (L)",
                    moving_leader_ ? ButtonStyle::kToggleOn : ButtonStyle::kNormal, true, SDLK_l)) {
        moving_leader_ = ld.id();
      }
      y += 34;
    }
    if (ll->abandon()) {
      if (ui.button(SDL_Rect{x, y, 200, 28}, "Abandon orders", ButtonStyle::kDanger)) {
        v1::GameCommand cmd;
        cmd.mutable_optio()->mutable_abandon_orders()->set_leader(ld.id());
        client.submit(cmd);
      }
      y += 34;
    }
  }
  if (moving_leader_)
    y = say_line(p, "Click the unit he rides to (outlined).", x, y, w, theme::kHighlight, 13);
  return y - r.y;
}

std::optional<v1::GameCommand> OptioPlay::end_command(const Client& client, std::string* label,
                                                      std::string* question) const {
  const o::Legal* l = legal(client);
  if (l == nullptr) return std::nullopt;
  v1::GameCommand cmd;
  if (l->end_deployment()) {
    cmd.mutable_optio()->mutable_end_deployment();
    *label = "End deployment";
    *question = "End your deployment? Every unit stays where you placed it.";
    return cmd;
  }
  if (l->end_phase()) {
    cmd.mutable_optio()->mutable_end_phase();
    *label = "End move phase";
    *question = "End your move phase? Units you have not moved stand where they are.";
    return cmd;
  }
  return std::nullopt;
}

std::string OptioPlay::hint(const Client& client) const {
  const o::State* s = state_of(client);
  if (s == nullptr) return "";
  if (editing_orders(client)) return "Draw your orders card, then submit it sealed.";
  if (legal(client) == nullptr) return "";
  switch (s->phase()) {
    case o::PHASE_DEPLOYMENT:
      return "Deploy your units in your zone.";
    case o::PHASE_MOVE:
      return "Move, rotate, shoot; then end your move phase.";
    default:
      return "";
  }
}

}  // namespace castra::client
