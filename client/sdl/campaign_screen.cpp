#include <algorithm>
#include <chrono>

#include "client/sdl/campaign_graph.hpp"
#include "client/sdl/labels.hpp"
#include "client/sdl/screens.hpp"
#include "client/sdl/theme.hpp"

namespace castra::client {

namespace {

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int wrap_text(Painter& p, const std::string& text, int x, int y, int width, SDL_Color c,
              int size = 13, Weight w = Weight::kRegular, int max_lines = 0) {
  int n = 0;
  for (const auto& line : p.wrap(text, size, width, w)) {
    if (max_lines > 0 && n++ == max_lines) break;
    p.text(line, x, y, size, c, Align::kLeft, w);
    y += p.line_height(size, w);
  }
  return y;
}

const v1::BattleNode* battle(const v1::CampaignView& v, const std::string& id) {
  for (const auto& b : v.definition().battles())
    if (b.id() == id) return &b;
  return nullptr;
}

std::string battle_name(const v1::CampaignView& v, const std::string& id) {
  const auto* b = battle(v, id);
  return b != nullptr && !b->name().empty() ? b->name() : id;
}

bool optio(const v1::CampaignView& v) {
  return v.definition().ruleset() != "stand";
}

std::string army_of(const v1::CampaignView& v, v1::Side side) {
  const auto& r = side == v1::SIDE_A ? v.roster_a() : v.roster_b();
  if (!r.army().empty()) return r.army();
  const auto& d = side == v1::SIDE_A ? v.definition().side_a() : v.definition().side_b();
  return d.army().empty() ? side_name(side) : d.army();
}

std::string units_text(int n, bool optio_units) {
  if (optio_units) return std::to_string(n) + (n == 1 ? " unit" : " units");
  return std::to_string(n) + (n == 1 ? " figure" : " figures");
}

// What a side lost in a battle, from its roster before and after (as far as the asker may see).
int lost(const v1::Roster& before, const v1::Roster& after) {
  if (before.has_stand())
    return std::max(0, stand_figure_total(before.stand().figures()) -
                           stand_figure_total(after.stand().figures()));
  int n = 0;
  for (const auto& u : before.optio().units()) {
    const auto& kept = after.optio().units();
    n += std::none_of(kept.begin(), kept.end(),
                      [&](const v1::RosterUnit& k) { return k.id() == u.id(); });
  }
  return n;
}

std::string selection_text(const v1::Selection& s, bool optio_units) {
  if (!optio_units) return stand_figures_text(s.figures());
  return units_text(s.units_size(), true) + ", " + std::to_string(s.leaders_size()) +
         (s.leaders_size() == 1 ? " leader" : " leaders");
}

}  // namespace

void CampaignScreen::draw(Ui& ui, Client& client) {
  const auto& c = client.campaign();
  if (c.id != campaign_id_) {
    campaign_id_ = c.id;
    scroll_a_ = scroll_b_ = 0;
    confirm_resign_ = false;
    saved_record_.clear();
  }
  Painter& p = ui.painter();
  p.clear(theme::kBackground);
  const int W = ui.width();
  const int H = ui.height() - theme::kStatusBar;
  const SDL_Rect top{0, 0, W, theme::kTopBar};
  ui.note_region("top-bar", top);
  if (!c.view) {
    if (draw_top_bar(ui, client, top)) client.leave_campaign_screen();
    p.text_centered("Opening the campaign...", W / 2.0f, H / 2.0f, 22, theme::kText, Weight::kBold);
    return;
  }
  const auto& v = *c.view;
  picker_.reset_for(c.id + "/" + v.summary().node());
  const int panel_w = std::clamp(W * 3 / 10, 330, 430);
  const SDL_Rect panel{W - panel_w, theme::kTopBar, panel_w, H - theme::kTopBar};
  const int left_w = W - panel_w;
  const int graph_h = std::clamp((H - theme::kTopBar) * 45 / 100, 220, 400);
  const SDL_Rect graph{12, theme::kTopBar + 10, left_w - 24, graph_h};
  const int ry = graph.y + graph.h + 10;
  const int rw = (left_w - 36) / 2;
  const SDL_Rect roster_a{12, ry, rw, H - ry - 10};
  const SDL_Rect roster_b{24 + rw, ry, rw, H - ry - 10};
  ui.note_region("panel", panel);
  ui.set_blocked(confirm_resign_);

  p.fill_round_rect(graph, 10, theme::kPanelDark);
  p.text("Battles", graph.x + 12, graph.y + 8, 13, theme::kTextDim, Align::kLeft, Weight::kBold);
  draw_campaign_graph(ui, v, SDL_Rect{graph.x, graph.y + 16, graph.w, graph.h - 16});

  // The rosters: the player's own whole (the picker on it when a selection is due), the
  // opponent's as far as it has been seen.
  const auto& s = v.summary();
  const bool picking = selection_due(client);
  for (const v1::Side side : {v1::SIDE_A, v1::SIDE_B}) {
    RosterColumn col;
    col.side = side;
    col.player = side == v1::SIDE_A ? s.player_a() : s.player_b();
    col.roster = side == v1::SIDE_A ? &v.roster_a() : &v.roster_b();
    col.hidden_units = side == v1::SIDE_A ? v.hidden_units_a() : v.hidden_units_b();
    col.hidden_figures = side == v1::SIDE_A ? v.hidden_figures_a() : v.hidden_figures_b();
    col.optio = optio(v);
    col.mine = s.seated() && s.my_side() == side;
    if (col.mine && picking) col.picker = &picker_;
    if (col.mine && !picking && v.has_my_selection()) col.sealed = &v.my_selection();
    if (col.mine && !picking && c.selection_written) col.sealed = &written_;
    draw_roster(ui, col, side == v1::SIDE_A ? roster_a : roster_b,
                side == v1::SIDE_A ? &scroll_a_ : &scroll_b_);
  }
  draw_panel(ui, client, panel);
  // Leaving drops the view everything above drew from: only once the frame is drawn.
  const bool leave = draw_top_bar(ui, client, top);
  ui.set_blocked(false);
  if (confirm_resign_) draw_confirm(ui, client);
  if (leave) client.leave_campaign_screen();
}

bool CampaignScreen::selection_due(const Client& client) const {
  const auto& c = client.campaign();
  if (!c.view || c.selection_written) return false;
  const auto& s = c.view->summary();
  const bool in = s.my_side() == v1::SIDE_A ? s.selection_in_a() : s.selection_in_b();
  return s.seated() && s.status() == v1::CAMPAIGN_LIVE && s.stage() == v1::STAGE_SELECTING && !in &&
         !c.view->has_my_selection();
}

bool CampaignScreen::draw_top_bar(Ui& ui, Client& client, const SDL_Rect& r) {
  Painter& p = ui.painter();
  const auto& c = client.campaign();
  const bool mine = c.view && c.view->summary().my_action();
  p.fill_rect(r, mine ? theme::kYourMove : theme::kPanelDark);
  const SDL_Color ink = mine ? theme::kTextDark : theme::kText;
  p.text("CASTRA", 14, 9, 20, mine ? theme::kTextDark : theme::kGold, Align::kLeft, Weight::kBold);
  std::string title = "campaign " + c.id;
  std::string centre;
  if (c.view) {
    const auto& v = *c.view;
    const auto& s = v.summary();
    title = !v.definition().title().empty() ? v.definition().title() : s.title();
    const std::string next = battle_name(v, s.node());
    if (s.status() == v1::CAMPAIGN_OPEN)
      centre = "Waiting for an opponent";
    else if (s.status() == v1::CAMPAIGN_FINISHED)
      centre = "CAMPAIGN OVER";
    else if (s.status() == v1::CAMPAIGN_CLOSED)
      centre = "Closed";
    else if (s.paused())
      centre = "PAUSED";
    else if (s.stage() == v1::STAGE_SELECTING)
      centre = mine ? "YOUR SELECTION: " + next : "Choosing armies: " + next;
    else if (s.stage() == v1::STAGE_FIGHTING)
      centre = mine ? "YOUR MOVE: " + next : next + " is being fought";
  }
  const SDL_Rect t = p.text(title, 120, 13, 15, ink, Align::kLeft, Weight::kBold);
  const int right = r.w - 140;
  const float cx =
      std::max(t.x + t.w + 20 + p.text_width(centre, 18, Weight::kBold) / 2.0f, r.w / 2.0f);
  if (cx + p.text_width(centre, 18, Weight::kBold) / 2.0f < right)
    p.text_centered(centre, cx, r.h / 2.0f, 18, mine ? theme::kTextDark : theme::kGold,
                    Weight::kBold);
  return ui.button(SDL_Rect{r.w - 120, 7, 108, 30}, "Lobby", ButtonStyle::kNormal, true,
                   SDLK_UNKNOWN, 15, "Back to lobby");
}

void CampaignScreen::draw_panel(Ui& ui, Client& client, const SDL_Rect& r) {
  Painter& p = ui.painter();
  const auto& v = *client.campaign().view;
  const auto& s = v.summary();
  p.fill_rect(r, theme::kPanel);
  p.fill_rect(SDL_Rect{r.x, r.y, 1, r.h}, theme::kPanelLine);
  const int x = r.x + 16;
  const int w = r.w - 32;
  int y = r.y + 12;

  // Standings.
  const SDL_Rect standings{x, y, w, 74};
  ui.note_region("standings", standings);
  p.fill_round_rect(standings, 8, theme::kPanelDark);
  for (const v1::Side side : {v1::SIDE_A, v1::SIDE_B}) {
    const int sy = y + 8 + (side == v1::SIDE_A ? 0 : 30);
    p.fill_round_rect(SDL_Rect{x + 10, sy + 3, 16, 16}, 4,
                      side == v1::SIDE_A ? theme::kSideA : theme::kSideB);
    std::string who = side == v1::SIDE_A ? s.player_a() : s.player_b();
    if (who.empty()) who = s.vacancy() && s.vacant_side() == side ? "(vacant)" : "(free)";
    if (s.seated() && s.my_side() == side) who += ", you";
    const SDL_Rect name =
        p.text(army_of(v, side), x + 34, sy + 1, 15, theme::kText, Align::kLeft, Weight::kBold);
    p.text(who, name.x + name.w + 8, sy + 3, 12, theme::kTextDim);
    const int wins = static_cast<int>(side == v1::SIDE_A ? s.wins_a() : s.wins_b());
    p.text(std::to_string(wins), x + w - 14, sy - 2, 22, theme::kGold, Align::kRight,
           Weight::kBold);
  }
  y += standings.h + 4;
  std::string under = std::to_string(v.history_size()) +
                      (v.history_size() == 1 ? " battle fought, " : " battles fought, ") +
                      std::to_string(s.draws()) + (s.draws() == 1 ? " draw" : " draws");
  under += v.definition().decided_by() == v1::DECIDED_BY_LAST_BATTLE ? "; the last battle decides"
                                                                     : "; most battles won decides";
  p.text(under, x, y, 12, theme::kTextDim);
  y += 22;

  if (!s.seated()) {
    const SDL_Rect banner{x, y, w, 26};
    ui.note_region("spectator-banner", banner);
    p.fill_round_rect(banner, 5, theme::kSpectator);
    p.text_centered(client.campaign().offline ? "Offline view of the campaign"
                                              : "Spectator: following the campaign",
                    banner.x + banner.w / 2.0f, banner.y + 13.0f, 13, theme::kText, Weight::kBold);
    y += 34;
  }

  if (s.status() == v1::CAMPAIGN_FINISHED) {
    y = draw_verification(ui, client, x, y, w);
  } else {
    y = draw_next_battle(ui, client, x, y, w);
    y = draw_action(ui, client, x, y, w);
  }
  y = draw_history(ui, client, x, y + 6, w, r.y + r.h - 8);
}

int CampaignScreen::draw_next_battle(Ui& ui, Client& client, int x, int y, int w) {
  Painter& p = ui.painter();
  const auto& v = *client.campaign().view;
  const auto& s = v.summary();
  const v1::BattleNode* b = battle(v, s.node());
  if (s.status() == v1::CAMPAIGN_OPEN) {
    y = wrap_text(p, "The campaign starts when a second player takes the free side.", x, y, w,
                  theme::kText, 14);
    return y + 8;
  }
  if (b == nullptr) return y;
  p.fill_rect(SDL_Rect{x, y, w, 1}, theme::kPanelLine);
  y += 8;
  p.text(s.stage() == v1::STAGE_FIGHTING ? "Being fought" : "Next battle", x, y, 12,
         theme::kTextDim);
  y += 16;
  y = wrap_text(p, b->name().empty() ? b->id() : b->name(), x, y, w, theme::kGold, 16,
                Weight::kBold);
  if (!b->description().empty())
    y = wrap_text(p, b->description(), x, y + 2, w, theme::kTextDim, 12, Weight::kRegular, 3);
  y += 4;
  const bool units = optio(v);
  const std::string limit =
      b->selection_limit() == 0
          ? "Each side fields its whole army."
          : "Each side chooses up to " + units_text(b->selection_limit(), units) + " in secret.";
  p.text(limit, x, y, 13, theme::kText);
  y += 20;
  if (s.stage() == v1::STAGE_SELECTING) {
    std::string deadline;
    SDL_Color dc = theme::kText;
    if (s.paused()) {
      deadline = "Paused: no deadline runs out.";
      dc = theme::kTextDim;
    } else if (s.deadline_ms() > 0) {
      const std::int64_t left = s.deadline_ms() - unix_ms();
      deadline = "Selection deadline in " + format_remaining(left);
      if (left < 6 * 3600 * 1000LL) dc = theme::rgb(0xFF7B6B);
    }
    if (!deadline.empty()) {
      const SDL_Rect d = p.text(deadline, x, y, 13, dc, Align::kLeft, Weight::kBold);
      ui.note_region("deadline", d);
      y += 20;
    }
    // The battle's dice, committed to before anyone gives his entropy with his selection.
    if (!s.battle_dice_commitment().empty()) {
      p.text("Its dice commitment " + s.battle_dice_commitment().substr(0, 24) + "...", x, y, 11,
             theme::kTextDim, Align::kLeft, Weight::kMono);
      y += 17;
    }
    // Whose selection is in: never what it is.
    for (const v1::Side side : {v1::SIDE_A, v1::SIDE_B}) {
      const bool in = side == v1::SIDE_A ? s.selection_in_a() : s.selection_in_b();
      const std::string& commitment =
          side == v1::SIDE_A ? v.selection_commitment_a() : v.selection_commitment_b();
      std::string line = army_of(v, side) + ": " + (in ? "sealed" : "not yet chosen");
      if (in && !commitment.empty()) line += " (" + commitment.substr(0, 12) + "...)";
      if (in)
        p.fill_circle({x + 5.0f, y + 8.0f}, 5, theme::kOk);
      else
        p.ring({x + 5.0f, y + 8.0f}, 4, 1.5f, theme::kTextDim);
      p.text(line, x + 14, y, 12, in ? theme::kText : theme::kTextDim);
      y += 17;
    }
  }
  return y + 6;
}

int CampaignScreen::draw_action(Ui& ui, Client& client, int x, int y, int w) {
  Painter& p = ui.painter();
  auto& c = client.campaign();
  const auto& v = *c.view;
  const auto& s = v.summary();
  const bool units = optio(v);
  const v1::BattleNode* b = battle(v, s.node());
  if (selection_due(client) && b != nullptr) {
    const int limit = b->selection_limit();
    const SDL_Rect box{x, y, w, limit > 0 ? 112 : 84};
    ui.note_region("picker", box);
    p.fill_round_rect(box, 8, theme::kPanelDark);
    int by = y + 10;
    if (limit > 0) {
      const int n = picker_.counted(units);
      const bool over = n > limit;
      std::string count = std::to_string(n) + " of " + units_text(limit, units) + " chosen";
      if (units) {
        const int leaders = picker_.selection(true).leaders_size();
        count += ", " + std::to_string(leaders) + (leaders == 1 ? " leader" : " leaders");
      }
      if (over) count += ": " + std::to_string(n - limit) + " too many";
      const int cw = p.text_width(count, 14, Weight::kBold) + 20;
      const SDL_Rect pill{x + 10, by, std::min(cw, w - 20), 24};
      ui.note_region("picker-count", pill);
      p.fill_round_rect(pill, 6, over ? theme::kError : n > 0 ? theme::kOk : theme::kButton);
      p.text(count, pill.x + 10, pill.y + 3, 14, theme::kText, Align::kLeft, Weight::kBold);
      by += 30;
      by = wrap_text(p,
                     units ? "Tick who fights in your roster; leaders go with units of their "
                             "commands."
                           : "Choose the figures of each type with - and + in your roster.",
                     x + 10, by, w - 20, theme::kTextDim, 12);
      const bool can = n > 0 && !over && !c.selection_in_flight;
      if (ui.button(SDL_Rect{x + 10, box.y + box.h - 40, 190, 30}, "Submit selection",
                    ButtonStyle::kPrimary, can)) {
        written_ = picker_.selection(units);
        client.submit_selection(written_);
      }
      if (ui.button(SDL_Rect{x + 208, box.y + box.h - 40, 80, 30}, "Clear", ButtonStyle::kNormal,
                    n > 0 || picker_.selection(units).leaders_size() > 0))
        picker_.clear();
    } else {
      by = wrap_text(p,
                     "The whole army fights this battle. Seal it to give your entropy to the "
                     "battle's dice.",
                     x + 10, by, w - 20, theme::kText, 13);
      if (ui.button(SDL_Rect{x + 10, box.y + box.h - 40, 190, 30}, "Seal the whole army",
                    ButtonStyle::kPrimary, !c.selection_in_flight)) {
        // Sent empty: the server fields the whole roster, and only the entropy counts.
        written_ = v1::Selection{};
        client.submit_selection(written_);
      }
    }
    y += box.h + 8;
  } else if (s.status() == v1::CAMPAIGN_LIVE && s.stage() == v1::STAGE_SELECTING && s.seated()) {
    const v1::Selection* mine = v.has_my_selection()  ? &v.my_selection()
                                : c.selection_written ? &written_
                                                      : nullptr;
    std::string text = "Your selection is sealed";
    if (b != nullptr && b->selection_limit() == 0)
      text += ": the whole army";
    else if (mine != nullptr)
      text += ": " + selection_text(*mine, units);
    text += ". It is revealed when the battle starts.";
    y = wrap_text(p, text, x, y, w, theme::kText, 13) + 4;
  } else if (s.status() == v1::CAMPAIGN_LIVE && s.stage() == v1::STAGE_FIGHTING &&
             !s.battle_match_id().empty()) {
    const bool watch = !s.seated();
    if (!watch || s.settings().battle().spectators_allowed()) {
      if (ui.button(SDL_Rect{x, y, 220, 34}, watch ? "Watch the battle" : "Go to the battle",
                    ButtonStyle::kPrimary, true, SDLK_RETURN))
        client.open_battle(s.battle_match_id(), false);
      y += 42;
    }
  }
  if (!c.refusal.empty())
    y = wrap_text(p, c.refusal, x, y, w, theme::rgb(0xFF7B6B), 13, Weight::kBold) + 6;

  // Pause, resign, withdraw, take over.
  const bool guest = client.account().guest;
  if (s.seated() && s.status() == v1::CAMPAIGN_LIVE) {
    const bool a = s.my_side() == v1::SIDE_A;
    const bool mine_asked = a ? s.pause_asked_a() : s.pause_asked_b();
    const bool they_asked = a ? s.pause_asked_b() : s.pause_asked_a();
    std::string state;
    std::string label;
    if (!s.paused()) {
      state = mine_asked   ? "You asked to pause; waiting for your opponent."
              : they_asked ? "Your opponent asks to pause."
                           : "";
      label = they_asked ? "Agree to pause" : "Ask to pause";
    } else {
      state = mine_asked   ? "Paused. You asked to resume; waiting for your opponent."
              : they_asked ? "Paused. Your opponent asks to resume."
                           : "Paused by both sides.";
      label = they_asked ? "Agree to resume" : "Ask to resume";
    }
    if (!state.empty()) {
      y = wrap_text(p, state, x, y, w, theme::kGold, 13);
      y += 4;
    }
    if (ui.button(SDL_Rect{x, y, 150, 30}, label, ButtonStyle::kNormal, !mine_asked, SDLK_UNKNOWN,
                  13, "Pause campaign"))
      client.pause_campaign(!s.paused());
    if (ui.button(SDL_Rect{x + w - 150, y, 150, 30}, "Resign campaign", ButtonStyle::kDanger, true,
                  SDLK_UNKNOWN, 13)) {
      confirm_resign_ = true;
      confirm_fresh_ = true;
    }
    y += 40;
  } else if (s.seated() && s.status() == v1::CAMPAIGN_OPEN) {
    if (ui.button(SDL_Rect{x, y, 180, 30}, "Withdraw campaign", ButtonStyle::kDanger, true,
                  SDLK_UNKNOWN, 13))
      client.withdraw_campaign();
    y += 40;
  } else if (!s.seated() && !guest && s.vacancy() && !c.offline) {
    if (ui.button(SDL_Rect{x, y, 220, 30}, "Take over " + side_name(s.vacant_side()),
                  ButtonStyle::kPrimary, true, SDLK_UNKNOWN, 13, "Take over"))
      client.join_campaign(c.id, c.invitation_code);
    y += 40;
  }
  return y;
}

int CampaignScreen::draw_history(Ui& ui, Client& client, int x, int y, int w, int bottom) {
  Painter& p = ui.painter();
  const auto& v = *client.campaign().view;
  if (v.history_size() == 0 || y + 60 > bottom) return y;
  p.fill_rect(SDL_Rect{x, y, w, 1}, theme::kPanelLine);
  y += 8;
  p.text("Battles fought", x, y, 14, theme::kGold, Align::kLeft, Weight::kBold);
  y += 22;
  const bool units = optio(v);
  for (int i = 0; i < v.history_size() && y + 40 <= bottom; ++i) {
    const auto& f = v.history(i);
    const auto k = f.outcome().kind();
    const SDL_Rect chip{x, y + 2, 52, 18};
    ui.note_region("history " + std::to_string(i + 1), chip);
    p.fill_round_rect(chip, 4,
                      k == v1::Outcome::WIN_A   ? theme::kSideA
                      : k == v1::Outcome::WIN_B ? theme::kSideB
                                                : theme::kDrawResult);
    std::string word = campaign_result_word(k);
    p.text_centered(word, chip.x + chip.w / 2.0f, chip.y + 9.0f, 11, theme::kCounterText,
                    Weight::kBold);
    const SDL_Rect clip{x + 60, y, w - 60 - 84, 40};
    p.set_clip(&clip);
    p.text(std::to_string(i + 1) + ". " + battle_name(v, f.node()), x + 60, y + 2, 14, theme::kText,
           Align::kLeft, Weight::kBold);
    const std::string losses = army_of(v, v1::SIDE_A) + " lost " +
                               units_text(lost(f.roster_a_before(), f.roster_a_after()), units) +
                               ", " + army_of(v, v1::SIDE_B) + " " +
                               std::to_string(lost(f.roster_b_before(), f.roster_b_after()));
    p.text(losses, x + 60, y + 20, 12, theme::kTextDim);
    p.set_clip(nullptr);
    if (!f.match_id().empty() &&
        ui.button(SDL_Rect{x + w - 76, y + 4, 76, 26}, "Replay", ButtonStyle::kNormal,
                  !client.campaign().offline, SDLK_UNKNOWN, 13, "Replay " + f.match_id()))
      client.open_battle(f.match_id(), true);
    y += 42;
  }
  return y;
}

int CampaignScreen::draw_verification(Ui& ui, Client& client, int x, int y, int w) {
  Painter& p = ui.painter();
  auto& c = client.campaign();
  const auto& v = *c.view;
  const auto& s = v.summary();
  std::string headline = outcome_text(s.outcome());
  if (s.seated() && s.outcome().kind() != v1::Outcome::DRAW)
    headline = (s.outcome().kind() == v1::Outcome::WIN_A) == (s.my_side() == v1::SIDE_A)
                   ? "Victory in the campaign"
                   : "Defeat in the campaign";
  p.fill_rect(SDL_Rect{x, y, w, 1}, theme::kPanelLine);
  y += 8;
  y = wrap_text(p, headline, x, y, w, theme::kGold, 20, Weight::kBold);
  if (!s.outcome().reason().empty())
    y = wrap_text(p, s.outcome().reason(), x, y, w, theme::kText, 13);
  y += 8;
  p.text("Verify the campaign", x, y, 15, theme::kGold, Align::kLeft, Weight::kBold);
  y += 22;
  if (!c.record) {
    p.text(c.record_requested ? "Fetching the campaign's record..."
                              : "The campaign's record is not here yet.",
           x, y, 13, theme::kTextDim);
    y += 20;
  } else {
    // Each battle's dice, checked here as a match's end screen checks them.
    for (int i = 0; i < c.record->battles_size(); ++i) {
      const auto& b = c.record->battles(i);
      const auto ok = client.battle_seed_matches(i);
      const SDL_Rect badge{x, y, w, 24};
      ui.note_region("battle-seed " + std::to_string(i + 1), badge);
      p.fill_round_rect(badge, 5, !ok ? theme::kButtonDisabled : *ok ? theme::kOk : theme::kError);
      const auto shown = c.dice_commitments.find(i);
      const bool other =
          shown != c.dice_commitments.end() && shown->second != b.match().dice_commitment();
      const std::string text = std::to_string(i + 1) + ". " + battle_name(v, b.node()) +
                               (!ok     ? ": no seed revealed"
                                : *ok   ? ": the seed matches its commitment"
                                : other ? ": NOT the dice commitment shown before selecting"
                                        : ": the seed does NOT match its commitment");
      const SDL_Rect clip{badge.x + 8, badge.y, badge.w - 16, badge.h};
      p.set_clip(&clip);
      p.text(text, badge.x + 10, badge.y + 4, 12, theme::kText, Align::kLeft, Weight::kBold);
      p.set_clip(nullptr);
      y += 28;
    }
    y += 2;
  }
  const std::string file =
      saved_record_.empty() ? "castra-campaign-" + c.id + ".json" : saved_record_;
  y = wrap_text(p,
                "Save the record, then run  castra-sim verify " + file +
                    "  : it re-checks every battle's record, that each battle's armies are the "
                    "carried-over rosters and the revealed selections, each carry-over, and the "
                    "path through the graph.",
                x, y, w, theme::kText, 12) +
      6;
  if (ui.button(SDL_Rect{x, y, 150, 30}, "Save record", ButtonStyle::kPrimary, c.record.has_value(),
                SDLK_UNKNOWN, 13, "Save campaign record")) {
    const std::string path = client.save_campaign_record(".");
    if (!path.empty()) {
      saved_record_ = path;
      client.say("Campaign record saved to " + path + ". Verify it with: castra-sim verify " + path,
                 MessageKind::kOk);
    }
  }
  if (!c.record && !c.offline &&
      ui.button(SDL_Rect{x + 158, y, 150, 30}, "Fetch record", ButtonStyle::kNormal, true,
                SDLK_UNKNOWN, 13, "Fetch campaign record"))
    client.request_campaign_record();
  return y + 40;
}

void CampaignScreen::draw_confirm(Ui& ui, Client& client) {
  Painter& p = ui.painter();
  p.fill_rect(SDL_Rect{0, 0, ui.width(), ui.height()}, SDL_Color{0, 0, 0, 120});
  const int w = 520;
  const int h = 170;
  const SDL_Rect box{(ui.width() - w) / 2, (ui.height() - h) / 2, w, h};
  ui.note_region("confirm", box);
  p.fill_round_rect(box, 10, theme::kPanel);
  p.stroke_rect(box, theme::kGold, 1);
  wrap_text(p,
            "Resign the campaign? You leave it for good; your side is offered to a "
            "replacement player, who plays on with its roster.",
            box.x + 24, box.y + 22, w - 48, theme::kText, 15);
  const int by = box.y + h - 54;
  ui.set_blocked(confirm_fresh_);
  confirm_fresh_ = false;
  const bool yes = ui.button(SDL_Rect{box.x + 24, by, 200, 36}, "Resign", ButtonStyle::kDanger,
                             true, SDLK_RETURN, 15, "Confirm");
  const bool no = ui.button(SDL_Rect{box.x + w - 164, by, 140, 36}, "Cancel", ButtonStyle::kNormal,
                            true, SDLK_ESCAPE);
  ui.set_blocked(false);
  if (yes) client.resign_campaign();
  if (yes || no) confirm_resign_ = false;
}

}  // namespace castra::client
