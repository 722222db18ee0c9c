// The lobby's campaigns: the lists (mine with an action due first, open ones to join, live
// ones to watch, finished ones to look at and verify) and the "new campaign" form.
#include <algorithm>
#include <chrono>

#include "client/sdl/labels.hpp"
#include "client/sdl/screens.hpp"
#include "client/sdl/theme.hpp"

namespace castra::client {

namespace {

constexpr int kRowHeight = 48;

std::string ruleset_name(const std::string& r) {
  return r == "stand" ? "Ancient STAND!" : "Optio";
}

std::string army(const v1::Roster& r, v1::Side side) {
  return r.army().empty() ? side_name(side) : r.army();
}

// What a row says of where a campaign stands, for the asker.
std::string campaign_state(const v1::CampaignSummary& c, std::int64_t now_ms) {
  if (c.my_action()) {
    std::string s = c.stage() == v1::STAGE_SELECTING ? "YOUR SELECTION" : "YOUR MOVE";
    if (c.stage() == v1::STAGE_SELECTING && c.deadline_ms() > 0)
      s += " (" + format_remaining(c.deadline_ms() - now_ms) + ")";
    return s;
  }
  if (c.status() == v1::CAMPAIGN_FINISHED && c.has_outcome()) return outcome_text(c.outcome());
  std::string s = campaign_status_word(c.status());
  if (c.status() == v1::CAMPAIGN_LIVE) {
    s = c.paused() ? "paused" : c.stage() == v1::STAGE_FIGHTING ? "fighting" : "selecting";
    s += ", won " + std::to_string(c.wins_a()) + "-" + std::to_string(c.wins_b());
  }
  if (c.vacancy()) s += ", " + side_name(c.vacant_side()) + " vacant";
  return s;
}

}  // namespace

void LobbyScreen::draw_campaign_list(Ui& ui, Client& client, const SDL_Rect& r) {
  Painter& p = ui.painter();
  p.fill_round_rect(r, 10, theme::kPanel);
  const bool guest = client.account().guest;
  if (campaign_tab_ < 0 || (guest && campaign_tab_ == 0)) campaign_tab_ = guest ? 1 : 0;
  const char* tabs[] = {"My campaigns", "Open", "Live", "Finished"};
  int tx = r.x + 14;
  for (int i = 0; i < 4; ++i) {
    if (i == 0 && guest) continue;
    if (ui.button(SDL_Rect{tx, r.y + 12, 130, 32}, tabs[i],
                  campaign_tab_ == i ? ButtonStyle::kToggleOn : ButtonStyle::kNormal)) {
      campaign_tab_ = i;
      scroll_ = 0;
    }
    tx += 138;
  }
  auto& lobby = client.lobby();
  const std::vector<v1::CampaignSummary>* rows[] = {&lobby.campaigns_mine, &lobby.campaigns_open,
                                                    &lobby.campaigns_live,
                                                    &lobby.campaigns_finished};
  const auto& list = *rows[std::clamp(campaign_tab_, 0, 3)];
  int y = r.y + 58;
  p.text("Campaign", r.x + 16, y, 13, theme::kTextDim);
  p.text("Players", r.x + 250, y, 13, theme::kTextDim);
  p.text("State", r.x + r.w - 340, y, 13, theme::kTextDim);
  y += 22;
  p.fill_rect(SDL_Rect{r.x + 12, y - 4, r.w - 24, 1}, theme::kPanelLine);
  if (list.empty()) {
    const std::string empty = lobby.in_flight > 0              ? "Loading..."
                              : !lobby.campaigns_error.empty() ? lobby.campaigns_error
                                                               : "No campaigns here yet.";
    p.text(empty, r.x + 16, y + 10, 15, theme::kTextDim);
  }
  const std::int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count();
  const int visible_rows = std::max(1, (r.y + r.h - y) / kRowHeight);
  if (ui.hovered(r) && ui.input().wheel != 0) scroll_ -= static_cast<int>(ui.input().wheel);
  scroll_ = std::clamp(scroll_, 0, std::max(0, static_cast<int>(list.size()) - visible_rows));
  int skipped = 0;
  for (const auto& c : list) {
    if (skipped++ < scroll_) continue;
    if (y + 44 > r.y + r.h) break;
    const SDL_Rect row{r.x + 8, y, r.w - 16, 44};
    if (c.my_action())
      p.fill_round_rect(row, 6, theme::rgb(0x5A4A1E));
    else if (ui.hovered(row))
      p.fill_round_rect(row, 6, theme::rgb(0x394049));
    const SDL_Rect title_clip{r.x + 16, y, 226, 44};
    p.set_clip(&title_clip);
    p.text(c.title().empty() ? c.definition() : c.title(), r.x + 16, y + 5, 15, theme::kText,
           Align::kLeft, Weight::kBold);
    std::string sub = ruleset_name(c.ruleset());
    if (c.is_private()) sub += ", private";
    if (c.paused()) sub += ", paused";
    p.text(sub, r.x + 16, y + 25, 12, theme::kTextDim);
    p.set_clip(nullptr);
    const std::string a = c.player_a().empty() ? "(free)" : c.player_a();
    const std::string b = c.player_b().empty() ? "(free)" : c.player_b();
    p.text("A " + a + "  vs  B " + b, r.x + 250, y + 13, 14, theme::kText);
    p.set_clip(&row);
    p.text(campaign_state(c, now_ms), r.x + r.w - 340, y + 13, 13,
           c.my_action() ? theme::kGold : theme::kTextDim);
    p.set_clip(nullptr);
    int bx = r.x + r.w - 100;
    auto action = [&](const std::string& label, ButtonStyle style) {
      const bool hit = ui.button(SDL_Rect{bx, y + 8, 88, 28}, label, style, true, SDLK_UNKNOWN, 13,
                                 label + " " + c.campaign_id());
      bx -= 96;
      return hit;
    };
    if (c.seated()) {
      if (action("Open", ButtonStyle::kPrimary)) client.open_campaign(c.campaign_id());
    } else if (c.status() == v1::CAMPAIGN_FINISHED) {
      if (action("View", ButtonStyle::kPrimary)) client.open_campaign(c.campaign_id());
    } else {
      const bool free_side = c.status() == v1::CAMPAIGN_OPEN || c.vacancy();
      if (free_side && !guest) {
        if (action(c.vacancy() ? "Take over" : "Join", ButtonStyle::kPrimary))
          client.join_campaign(c.campaign_id());
      }
      if (c.settings().spectators_allowed() && c.status() == v1::CAMPAIGN_LIVE) {
        if (action("Watch", ButtonStyle::kNormal)) client.open_campaign(c.campaign_id());
      }
    }
    y += kRowHeight;
  }
}

void LobbyScreen::draw_new_campaign(Ui& ui, Client& client, const SDL_Rect& r) {
  Painter& p = ui.painter();
  p.fill_round_rect(r, 10, theme::kPanel);
  int y = r.y + 14;
  const int x = r.x + 16;
  const int w = r.w - 32;
  p.text("New campaign", x, y, 18, theme::kGold, Align::kLeft, Weight::kBold);
  y += 32;
  if (client.account().guest) {
    p.text("Guests may watch; register to play.", x, y, 14, theme::kTextDim);
    return;
  }
  auto& f = campaign_form_;
  const auto& defs = client.lobby().definitions;
  if (f.definition.empty() && !defs.empty()) f.definition = defs.front().name();
  const v1::CampaignDefinition* chosen = nullptr;
  for (const auto& d : defs) {
    if (d.name() == f.definition) chosen = &d;
    const std::string label = d.title().empty() ? d.name() : d.title();
    if (ui.button(SDL_Rect{x, y, w, 28}, label,
                  f.definition == d.name() ? ButtonStyle::kToggleOn : ButtonStyle::kNormal, true,
                  SDLK_UNKNOWN, 13, "Definition " + d.name())) {
      f.definition = d.name();
    }
    y += 32;
  }
  if (defs.empty()) {
    p.text("Loading campaign definitions...", x, y, 13, theme::kTextDim);
    y += 24;
  }
  if (chosen != nullptr) {
    const std::string about = ruleset_name(chosen->ruleset()) + ", " +
                              std::to_string(chosen->battles_size()) +
                              " battles: " + army(chosen->side_a(), v1::SIDE_A) + " against " +
                              army(chosen->side_b(), v1::SIDE_B);
    for (const auto& line : p.wrap(about, 12, w)) {
      p.text(line, x, y, 12, theme::kTextDim);
      y += 16;
    }
  }
  y += 6;
  const int bx = x + 120;
  const int bw = w - 120;
  // Side: named by the armies of the chosen definition.
  p.text("Your side", x, y + 6, 13, theme::kText);
  const int sw = (bw - 12) / 3;
  for (const v1::Side side : {v1::SIDE_A, v1::SIDE_B}) {
    std::string label = side_letter(side);
    if (chosen != nullptr)
      label += ": " + army(side == v1::SIDE_A ? chosen->side_a() : chosen->side_b(), side);
    if (ui.button(SDL_Rect{side == v1::SIDE_A ? bx : bx + sw + 6, y, sw, 28}, label,
                  !f.side_random && f.side == side ? ButtonStyle::kToggleOn : ButtonStyle::kNormal,
                  true, SDLK_UNKNOWN, 13, "Campaign side " + side_letter(side))) {
      f.side = side;
      f.side_random = false;
    }
  }
  if (ui.button(SDL_Rect{bx + 2 * (sw + 6), y, sw, 28}, "Random",
                f.side_random ? ButtonStyle::kToggleOn : ButtonStyle::kNormal, true, SDLK_UNKNOWN,
                13, "Campaign side random")) {
    f.side_random = true;
  }
  y += 36;
  auto stepper = [&](const std::string& label, const std::string& value, int* v, int lo, int hi,
                     const std::string& id) {
    p.text(label, x, y + 6, 13, theme::kText);
    p.text(value, bx, y + 6, 13, theme::kText);
    if (ui.button(SDL_Rect{x + w - 64, y, 30, 28}, "-", ButtonStyle::kNormal, *v > lo, SDLK_UNKNOWN,
                  16, id + " -"))
      --*v;
    if (ui.button(SDL_Rect{x + w - 30, y, 30, 28}, "+", ButtonStyle::kNormal, *v < hi, SDLK_UNKNOWN,
                  16, id + " +"))
      ++*v;
    y += 36;
  };
  stepper("Selections",
          std::to_string(f.selection_days) + (f.selection_days == 1 ? " day" : " days") +
              " after a battle",
          &f.selection_days, 1, 14, "Selection days");
  p.text("Battle clock", x, y + 6, 13, theme::kText);
  if (ui.button(SDL_Rect{bx, y, bw, 28}, kTimeControls[f.time_control].label, ButtonStyle::kNormal,
                true, SDLK_UNKNOWN, 13, "Battle clock")) {
    f.time_control = (f.time_control + 1) % 3;
  }
  y += 36;
  p.text("Battle watchers", x, y + 6, 13, theme::kText);
  if (ui.button(SDL_Rect{bx, y, 80, 28}, f.battle_spectators ? "Allowed" : "No",
                f.battle_spectators ? ButtonStyle::kToggleOn : ButtonStyle::kNormal, true,
                SDLK_UNKNOWN, 13, "Battle spectators")) {
    f.battle_spectators = !f.battle_spectators;
  }
  y += 36;
  stepper("Their delay", std::to_string(f.delay_turns) + (f.delay_turns == 1 ? " turn" : " turns"),
          &f.delay_turns, 0, 12, "Battle delay");
  p.text("Campaign page", x, y + 6, 13, theme::kText);
  if (ui.button(SDL_Rect{bx, y, 80, 28}, f.campaign_spectators ? "Public" : "Players",
                f.campaign_spectators ? ButtonStyle::kToggleOn : ButtonStyle::kNormal, true,
                SDLK_UNKNOWN, 13, "Campaign spectators")) {
    f.campaign_spectators = !f.campaign_spectators;
  }
  y += 36;
  p.text("Private", x, y + 6, 13, theme::kText);
  if (ui.button(SDL_Rect{bx, y, 80, 28}, f.is_private ? "Yes" : "No",
                f.is_private ? ButtonStyle::kToggleOn : ButtonStyle::kNormal, true, SDLK_UNKNOWN,
                13, "Campaign private")) {
    f.is_private = !f.is_private;
  }
  y += 42;
  if (ui.button(SDL_Rect{x, y, w, 38}, "Create campaign", ButtonStyle::kPrimary,
                !f.definition.empty()))
    client.create_campaign(f);
  y += 52;
  if (y + 110 > r.y + r.h) return;
  p.fill_rect(SDL_Rect{x, y, w, 1}, theme::kPanelLine);
  y += 12;
  p.text("Join a private campaign", x, y, 15, theme::kGold, Align::kLeft, Weight::kBold);
  y += 26;
  ui.text_field(SDL_Rect{x, y, w, 32}, "campaign-id", &campaign_id_, "campaign id");
  y += 38;
  ui.text_field(SDL_Rect{x, y, w - 100, 32}, "campaign-code", &campaign_code_, "invitation code");
  if (ui.button(SDL_Rect{x + w - 92, y, 92, 32}, "Join", ButtonStyle::kNormal,
                !campaign_id_.empty() && !campaign_code_.empty(), SDLK_UNKNOWN, 15,
                "Join campaign code")) {
    client.join_campaign(campaign_id_, campaign_code_);
  }
}

}  // namespace castra::client
