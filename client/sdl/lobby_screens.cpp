#include <algorithm>

#include "client/sdl/computer_mark.hpp"
#include "client/sdl/labels.hpp"
#include "client/sdl/screens.hpp"
#include "client/sdl/theme.hpp"

namespace castra::client {

namespace {

void draw_backdrop(Painter& p, int w, int h) {
  p.clear(theme::kBackground);
  // A faint grid of squares and a band of hexes: the two boards the client plays on.
  for (int x = 0; x < w; x += 48)
    p.fill_rect(SDL_Rect{x, 0, 1, h}, theme::rgb(0x2C3037));
  for (int y = 0; y < h; y += 48)
    p.fill_rect(SDL_Rect{0, y, w, 1}, theme::rgb(0x2C3037));
}

}  // namespace

// ---- Log-in -------------------------------------------------------------------------------

void LoginScreen::draw(Ui& ui, Client& client) {
  Painter& p = ui.painter();
  draw_backdrop(p, ui.width(), ui.height());
  if (!connected_once_) {
    connected_once_ = true;
    // Connect at once, unless --name/--guest already did (a second connect would drop the
    // log-in under way).
    if (client.session().status() == Session::Status::kOffline ||
        client.session().url() != server_) {
      client.connect(server_);
    }
  }
  const int w = 480;
  const int h = 470;
  const SDL_Rect card{(ui.width() - w) / 2, std::max(20, (ui.height() - h) / 2 - 20), w, h};
  p.fill_round_rect(SDL_Rect{card.x + 4, card.y + 6, card.w, card.h}, 12, SDL_Color{0, 0, 0, 80});
  p.fill_round_rect(card, 12, theme::kPanel);
  p.text_centered("CASTRA", card.x + w / 2.0f, card.y + 44.0f, 40, theme::kGold, Weight::kBold);
  p.text_centered("Optio  and  Ancient STAND!  online", card.x + w / 2.0f, card.y + 84.0f, 15,
                  theme::kTextDim);
  int y = card.y + 112;
  const int fx = card.x + 40;
  const int fw = w - 80;
  p.text("Server", fx, y, 13, theme::kTextDim);
  y += 18;
  const bool server_enter =
      ui.text_field(SDL_Rect{fx, y, fw, 34}, "server", &server_, "ws://HOST:PORT/ws");
  y += 44;
  p.text("Name", fx, y, 13, theme::kTextDim);
  y += 18;
  bool go = ui.text_field(SDL_Rect{fx, y, fw, 34}, "name", &name_, "your name");
  y += 44;
  p.text("Password", fx, y, 13, theme::kTextDim);
  y += 18;
  go |=
      ui.text_field(SDL_Rect{fx, y, fw, 34}, "password", &password_, "at least 8 characters", true);
  y += 50;
  // Reconnect when the address changed or the last attempt failed.
  auto ensure_connected = [&]() {
    const auto st = client.session().status();
    if (client.session().url() != server_ || st == Session::Status::kFailed ||
        st == Session::Status::kOffline) {
      client.connect(server_);
    }
  };
  if (server_enter) ensure_connected();
  const int bw = (fw - 20) / 3;
  if (ui.button(SDL_Rect{fx, y, bw, 38}, "Log in", ButtonStyle::kPrimary) || go) {
    ensure_connected();
    client.login(name_, password_);
  }
  if (ui.button(SDL_Rect{fx + bw + 10, y, bw, 38}, "Register")) {
    ensure_connected();
    client.register_account(name_, password_);
  }
  if (ui.button(SDL_Rect{fx + 2 * (bw + 10), y, bw, 38}, "Watch as guest")) {
    ensure_connected();
    client.guest();
  }
  y += 54;
  std::string status;
  SDL_Color color = theme::kTextDim;
  switch (client.session().status()) {
    case Session::Status::kConnecting:
      status = "Connecting to " + client.session().url() + " ...";
      break;
    case Session::Status::kReady:
      status = "Connected to " + client.session().hello().server();
      color = theme::kOk;
      break;
    case Session::Status::kFailed:
      status = "Cannot reach the server: " + client.session().failure();
      color = theme::kError;
      break;
    default:
      status = "Not connected";
  }
  for (const auto& line : p.wrap(status, 13, fw)) {
    p.text(line, fx, y, 13, color);
    y += 17;
  }
  // The last refusal, in the card where the player looks.
  const auto& msgs = client.messages();
  if (!msgs.empty() && msgs.back().kind == MessageKind::kError &&
      std::chrono::steady_clock::now() - msgs.back().at < std::chrono::seconds(30)) {
    y += 6;
    for (const auto& line : p.wrap(msgs.back().text, 14, fw, Weight::kBold)) {
      p.text(line, fx, y, 14, theme::rgb(0xFF7B6B), Align::kLeft, Weight::kBold);
      y += 18;
    }
  }
  if (!ui.typing() && name_.empty() && !ui.blocked()) ui.focus("name");
}

// ---- Lobby ----------------------------------------------------------------------------------

void LobbyScreen::draw(Ui& ui, Client& client) {
  Painter& p = ui.painter();
  draw_backdrop(p, ui.width(), ui.height());
  const int W = ui.width();
  const int H = ui.height() - theme::kStatusBar;
  p.fill_rect(SDL_Rect{0, 0, W, theme::kTopBar}, theme::kPanelDark);
  p.text("CASTRA", 16, 8, 22, theme::kGold, Align::kLeft, Weight::kBold);
  p.text("Lobby", 130, 13, 16, theme::kText);
  // Matches or campaigns: the lobby lists and creates one kind at a time.
  for (const bool campaigns : {false, true}) {
    if (ui.button(SDL_Rect{campaigns ? 310 : 200, 7, 104, 30}, campaigns ? "Campaigns" : "Matches",
                  campaigns_ == campaigns ? ButtonStyle::kToggleOn : ButtonStyle::kNormal)) {
      if (campaigns_ != campaigns) scroll_ = 0;
      campaigns_ = campaigns;
      client.lobby().campaigns_shown = campaigns;
      if (campaigns) client.refresh_campaigns();
    }
  }
  const auto& acct = client.account();
  // Only where it clears the Matches and Campaigns buttons (the status bar says it too).
  const std::string signed_in = "Signed in as " + acct.name + (acct.guest ? " (guest)" : "");
  if (W - 330 - p.text_width(signed_in, 14) > 424)
    p.text(signed_in, W - 330, 14, 14, theme::kTextDim, Align::kRight);
  if (ui.button(SDL_Rect{W - 310, 7, 100, 30}, "Refresh", ButtonStyle::kNormal, true, SDLK_F5))
    client.refresh_lobby();
  if (ui.button(SDL_Rect{W - 200, 7, 100, 30}, "Log out")) client.logout();
  const int right_w = std::min(400, W / 3);
  const SDL_Rect list{16, theme::kTopBar + 12, W - right_w - 44, H - theme::kTopBar - 24};
  const SDL_Rect form{W - right_w - 16, theme::kTopBar + 12, right_w, H - theme::kTopBar - 24};
  if (campaigns_) {
    draw_campaign_list(ui, client, list);
    draw_new_campaign(ui, client, form);
  } else if (acct.guest) {
    draw_list(ui, client, list);
    draw_new_match(ui, client, form);
  } else {
    // Players choose a battle above the matches' list.
    const int picker_h = std::min(540, list.h * 2 / 3);
    draw_picker(ui, client, SDL_Rect{list.x, list.y, list.w, picker_h});
    draw_list(ui, client, SDL_Rect{list.x, list.y + picker_h + 12, list.w, list.h - picker_h - 12});
    draw_new_match(ui, client, form);
  }
}

void LobbyScreen::draw_list(Ui& ui, Client& client, const SDL_Rect& r) {
  Painter& p = ui.painter();
  p.fill_round_rect(r, 10, theme::kPanel);
  const char* tabs[] = {"Open", "Live", "Finished", "My matches"};
  const bool guest = client.account().guest;
  int tx = r.x + 14;
  for (int i = 0; i < 4; ++i) {
    if (i == 3 && guest) break;
    if (ui.button(SDL_Rect{tx, r.y + 12, 130, 32}, tabs[i],
                  tab_ == i ? ButtonStyle::kToggleOn : ButtonStyle::kNormal)) {
      tab_ = i;
      scroll_ = 0;
    }
    tx += 138;
  }
  auto& lobby = client.lobby();
  const std::vector<v1::MatchSummary>* rows[] = {&lobby.open, &lobby.live, &lobby.finished,
                                                 &lobby.mine};
  const auto& list = *rows[std::clamp(tab_, 0, 3)];
  // Who is online, then the list's header.
  int y = draw_online(ui, client, r.x + 16, r.y + 54, r.w - 32);
  const RowColumns cols = row_columns(r);
  p.text("Battle", cols.title_x, y, 13, theme::kTextDim);
  p.text("Players", cols.players_x, y, 13, theme::kTextDim);
  p.text("State", cols.state_x, y, 13, theme::kTextDim);
  y += 22;
  p.fill_rect(SDL_Rect{r.x + 12, y - 4, r.w - 24, 1}, theme::kPanelLine);
  if (list.empty()) {
    p.text(lobby.in_flight > 0 ? "Loading..." : "No matches here yet.", r.x + 16, y + 10, 15,
           theme::kTextDim);
  }
  // The wheel scrolls a list longer than the panel.
  const int visible_rows = std::max(1, (r.y + r.h - y) / kRowStep);
  if (ui.hovered(r) && ui.input().wheel != 0) scroll_ -= static_cast<int>(ui.input().wheel);
  scroll_ = std::clamp(scroll_, 0, std::max(0, static_cast<int>(list.size()) - visible_rows));
  int skipped = 0;
  for (const auto& m : list) {
    if (skipped++ < scroll_) continue;
    if (y + kRowHeight > r.y + r.h) break;
    draw_row(ui, client, m, cols, y);
    y += kRowStep;
  }
}

int LobbyScreen::draw_opponent(Ui& ui, int x, int bx, int y, int w) {
  Painter& p = ui.painter();
  const bool computer = form_.computer != v1::COMPUTER_NONE;
  p.text("Opponent", x, y + 6, 13, theme::kText);
  const int half = (w - 110 - 6) / 2;
  if (ui.button(SDL_Rect{bx, y, half, 28}, "A person",
                computer ? ButtonStyle::kNormal : ButtonStyle::kToggleOn, true, SDLK_UNKNOWN, 13,
                "Against a person")) {
    form_.computer = v1::COMPUTER_NONE;
  }
  if (ui.button(SDL_Rect{bx + half + 6, y, half, 28}, "The computer",
                computer ? ButtonStyle::kToggleOn : ButtonStyle::kNormal, true, SDLK_UNKNOWN, 13,
                "Against the computer")) {
    if (!computer) form_.computer = v1::COMPUTER_GREEDY;
  }
  y += 36;
  if (!computer) return y;
  // The computer plays the side left free, seated at once: the match starts when created.
  p.text("Strength", x, y + 6, 13, theme::kText);
  for (const auto s : {v1::COMPUTER_RANDOM, v1::COMPUTER_GREEDY}) {
    const std::string name = computer_strength_name(s);
    const std::string label = s == v1::COMPUTER_RANDOM ? "Random" : "Greedy";
    const int bxs = s == v1::COMPUTER_RANDOM ? bx : bx + half + 6;
    if (ui.button(SDL_Rect{bxs, y, half, 28}, label,
                  form_.computer == s ? ButtonStyle::kToggleOn : ButtonStyle::kNormal, true,
                  SDLK_UNKNOWN, 13, "Computer " + name)) {
      form_.computer = s;
    }
  }
  return y + 36;
}

void LobbyScreen::draw_new_match(Ui& ui, Client& client, const SDL_Rect& r) {
  Painter& p = ui.painter();
  p.fill_round_rect(r, 10, theme::kPanel);
  int y = r.y + 14;
  const int x = r.x + 16;
  const int w = r.w - 32;
  p.text("New match", x, y, 18, theme::kGold, Align::kLeft, Weight::kBold);
  y += 32;
  if (client.account().guest) {
    p.text("Guests may watch; register to play.", x, y, 14, theme::kTextDim);
    return;
  }
  // The battle is chosen in the picker beside the list.
  const auto& scenarios = client.lobby().scenarios;
  std::string battle = scenarios.empty() ? "Loading scenarios..." : form_.scenario;
  for (const auto& s : scenarios)
    if (s.name() == form_.scenario && !s.title().empty()) battle = s.title();
  p.text("Battle", x, y + 6, 13, theme::kText);
  p.text(battle, x + 110, y + 6, 13, theme::kGold, Align::kLeft, Weight::kBold);
  y += 30;
  y += 6;
  p.text("Your side", x, y + 6, 13, theme::kText);
  const int bx = x + 110;
  if (ui.button(SDL_Rect{bx, y, 60, 28}, "A",
                !form_.side_random && form_.side == v1::SIDE_A ? ButtonStyle::kToggleOn
                                                               : ButtonStyle::kNormal,
                true, SDLK_UNKNOWN, 14, "Side A")) {
    form_.side = v1::SIDE_A;
    form_.side_random = false;
  }
  if (ui.button(SDL_Rect{bx + 66, y, 60, 28}, "B",
                !form_.side_random && form_.side == v1::SIDE_B ? ButtonStyle::kToggleOn
                                                               : ButtonStyle::kNormal,
                true, SDLK_UNKNOWN, 14, "Side B")) {
    form_.side = v1::SIDE_B;
    form_.side_random = false;
  }
  if (ui.button(SDL_Rect{bx + 132, y, 90, 28}, "Random",
                form_.side_random ? ButtonStyle::kToggleOn : ButtonStyle::kNormal)) {
    form_.side_random = true;
  }
  y += 36;
  y = draw_opponent(ui, x, bx, y, w);
  p.text("Clock", x, y + 6, 13, theme::kText);
  if (ui.button(SDL_Rect{bx, y, w - 110, 28}, kTimeControls[form_.time_control].label,
                ButtonStyle::kNormal, true, SDLK_UNKNOWN, 13, "Clock")) {
    form_.time_control = (form_.time_control + 1) % 3;
  }
  y += 36;
  p.text("Spectators", x, y + 6, 13, theme::kText);
  if (ui.button(SDL_Rect{bx, y, 80, 28}, form_.spectators ? "Allowed" : "No",
                form_.spectators ? ButtonStyle::kToggleOn : ButtonStyle::kNormal, true,
                SDLK_UNKNOWN, 13, "Spectators")) {
    form_.spectators = !form_.spectators;
  }
  p.text("delay " + std::to_string(form_.delay_turns) + " turns", bx + 90, y + 6, 13, theme::kText);
  if (ui.button(SDL_Rect{x + w - 64, y, 30, 28}, "-", ButtonStyle::kNormal, form_.delay_turns > 0,
                SDLK_UNKNOWN, 16, "Delay -")) {
    --form_.delay_turns;
  }
  if (ui.button(SDL_Rect{x + w - 30, y, 30, 28}, "+", ButtonStyle::kNormal, form_.delay_turns < 12,
                SDLK_UNKNOWN, 16, "Delay +")) {
    ++form_.delay_turns;
  }
  y += 36;
  p.text("Private", x, y + 6, 13, theme::kText);
  if (ui.button(SDL_Rect{bx, y, 80, 28}, form_.is_private ? "Yes" : "No",
                form_.is_private ? ButtonStyle::kToggleOn : ButtonStyle::kNormal, true,
                SDLK_UNKNOWN, 13, "Private")) {
    form_.is_private = !form_.is_private;
  }
  y += 42;
  if (ui.button(SDL_Rect{x, y, w, 38}, "Create match", ButtonStyle::kPrimary,
                !form_.scenario.empty()))
    client.create_match(form_);
  y += 56;
  p.fill_rect(SDL_Rect{x, y, w, 1}, theme::kPanelLine);
  y += 12;
  p.text("Join a private match", x, y, 15, theme::kGold, Align::kLeft, Weight::kBold);
  y += 26;
  ui.text_field(SDL_Rect{x, y, w, 32}, "private-id", &private_id_, "match id");
  y += 38;
  ui.text_field(SDL_Rect{x, y, w - 100, 32}, "private-code", &private_code_, "invitation code");
  if (ui.button(SDL_Rect{x + w - 92, y, 92, 32}, "Join code", ButtonStyle::kNormal,
                !private_id_.empty() && !private_code_.empty())) {
    v1::MatchSummary m;
    m.set_match_id(private_id_);
    client.join(m, private_code_);
  }
}

}  // namespace castra::client
