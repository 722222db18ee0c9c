#include "client/sdl/script.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "client/sdl/labels.hpp"
#include "client/sdl/optio_board.hpp"
#include "client/sdl/stand_board.hpp"

namespace castra::client {

namespace {

constexpr auto kDefaultTimeout = std::chrono::milliseconds(20000);

std::vector<std::string> split(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  std::string w;
  while (in >> w)
    out.push_back(w);
  return out;
}

// The text after the first `n` words of `line`.
std::string rest(const std::string& line, int n) {
  std::size_t i = 0;
  for (int k = 0; k < n; ++k) {
    i = line.find_first_not_of(" \t", i);
    if (i == std::string::npos) return "";
    i = line.find_first_of(" \t", i);
    if (i == std::string::npos) return "";
  }
  i = line.find_first_not_of(" \t", i);
  return i == std::string::npos ? "" : line.substr(i);
}

bool to_int(const std::string& s, int* out) {
  try {
    std::size_t used = 0;
    *out = std::stoi(s, &used);
    return used == s.size();
  } catch (...) {
    return false;
  }
}

// The widget drawn with this id in the frame just drawn (the one the next input lands on), or
// the first whose id starts with it.
const SDL_Rect* find_widget(const Ui& ui, const std::string& label) {
  const auto& w = ui.frame_widgets();
  if (auto it = w.find(label); it != w.end()) return &it->second;
  for (const auto& [id, rect] : w)
    if (id.rfind(label, 0) == 0) return &rect;
  return nullptr;
}

std::string phase_of(const v1::Snapshot& s) {
  if (s.state().has_optio()) {
    switch (s.state().optio().phase()) {
      case v1::optio::PHASE_DEPLOYMENT:
        return "deployment";
      case v1::optio::PHASE_ORDERS:
        return "orders";
      case v1::optio::PHASE_MOVE:
        return "move";
      case v1::optio::PHASE_MELEE:
        return "melee";
      default:
        return "over";
    }
  }
  if (s.state().has_stand()) {
    switch (s.state().stand().phase()) {
      case v1::stand::PHASE_ROLL_OFF:
        return "roll-off";
      case v1::stand::PHASE_DEPLOY:
        return "deploy";
      case v1::stand::PHASE_MOVE:
        return "move";
      case v1::stand::PHASE_FIGHT:
        return "fight";
      default:
        return "over";
    }
  }
  return s.phase();
}

}  // namespace

bool ScriptRunner::load(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read the script " + path;
    return false;
  }
  path_ = path;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines_.push_back(line);
  }
  return true;
}

bool ScriptRunner::holds(const std::string& condition, Context& ctx, std::string* error) {
  const auto w = split(condition);
  if (w.empty()) return true;
  const std::string& what = w[0];
  const auto& m = ctx.client.match();
  // What the board shows: in replay, the picture of the step shown.
  const v1::Snapshot* shown = ctx.match.shown(m);
  auto needs = [&](std::size_t n) {
    if (w.size() >= n) return true;
    *error = "condition '" + condition + "' needs more words";
    return false;
  };
  if (what == "screen") {
    if (!needs(2)) return false;
    const Screen s = ctx.client.screen();
    return (w[1] == "login" && s == Screen::kLogin) || (w[1] == "lobby" && s == Screen::kLobby) ||
           (w[1] == "match" && s == Screen::kMatch) ||
           (w[1] == "campaign" && s == Screen::kCampaign) ||
           (w[1] == "player" && s == Screen::kPlayer);
  }
  if (what == "connected") return ctx.client.online();
  if (what == "signed-in") return ctx.client.account().signed_in;
  if (what == "snapshot") return m.snapshot.has_value();
  if (what == "snapshots") {
    int n = 0;
    if (!needs(2) || !to_int(w[1], &n)) return false;
    return m.snapshots_received >= static_cast<std::uint64_t>(n);
  }
  if (what == "my-move") return ctx.client.my_move();
  if (what == "not-my-move") return !ctx.client.my_move();
  if (what == "legal") return m.legal.has_value();
  if (what == "idle")
    return ctx.client.session().pending() == 0 && !m.command_in_flight && !m.catching_up;
  if (what == "sent") {
    // sent KIND N: exactly N requests of that kind (a ClientEnvelope field: subscribe_match).
    int n = 0;
    if (!needs(3) || !to_int(w[2], &n)) return false;
    const auto kind = Session::kind_named(w[1]);
    if (!kind) {
      *error = "no request kind '" + w[1] + "'";
      return false;
    }
    return ctx.client.session().sent(*kind) == static_cast<std::uint64_t>(n);
  }
  if (what == "phase") return needs(2) && shown && phase_of(*shown) == w[1];
  if (what == "turn") {
    int n = 0;
    if (!needs(2) || !to_int(w[1], &n) || !shown) return false;
    const int turn = shown->turn() > 0            ? shown->turn()
                     : shown->state().has_optio() ? shown->state().optio().turn()
                                                  : shown->state().stand().game_turn();
    return turn >= n;
  }
  if (what == "events") {
    int n = 0;
    if (!needs(2) || !to_int(w[1], &n)) return false;
    return m.log.size() >= static_cast<std::size_t>(n);
  }
  if (what == "board-events") {
    // The picture the board shows reflects at least N of the match's events (its snapshot's
    // event_count): what a viewer saw, whichever of them its log was sent.
    int n = 0;
    if (!needs(2) || !to_int(w[1], &n)) return false;
    return shown != nullptr && shown->event_count() >= static_cast<std::uint64_t>(n);
  }
  if (what == "replay-step") {
    // replay-step N: the replay shows step N (0 the start, then one per event, then the
    // end), its picture on the board; replay-step end: the end step.
    const auto step = ctx.match.replay_shown_step(m);
    if (!needs(2) || !step) return false;
    if (w[1] == "end") return *step == ctx.match.replay_steps(m) && *step > m.log.size();
    int n = 0;
    return to_int(w[1], &n) && *step == static_cast<std::size_t>(n);
  }
  if (what == "figures") {
    // figures C R N: the STAND! hex the board shows holds N figures (0: none).
    int c = 0, r = 0, n = 0;
    if (!needs(4) || !to_int(w[1], &c) || !to_int(w[2], &r) || !to_int(w[3], &n)) return false;
    if (!shown || !shown->state().has_stand()) return false;
    const auto* t = stand_tile(shown->state().stand(), c, r);
    const int held =
        t != nullptr && t->has_troops() ? stand_figure_total(t->troops().figures()) : 0;
    return held == n;
  }
  if (what == "clock") {
    // clock A|B none: no deadline is shown for that side; clock A|B running: one is.
    if (!needs(3)) return false;
    const std::int64_t dl = w[1] == "B" ? m.deadline_b_ms : m.deadline_a_ms;
    return w[2] == "none" ? dl == 0 : dl > 0;
  }
  if (what == "log-hides-nothing") {
    return std::none_of(m.log.begin(), m.log.end(),
                        [](const v1::ViewEvent& e) { return !e.has_event(); });
  }
  if (what == "reasons") {
    // reasons RULE: the server's answer for a piece on the board shown names RULE; reasons
    // view: its command view is here.
    if (!needs(2)) return false;
    for (const auto& [piece, r] : m.reasons) {
      if (w[1] == "view" && r.commands_size() > 0) return true;
      for (const auto& x : r.refusals())
        if (x.why().rule() == w[1]) return true;
    }
    return false;
  }
  if (what == "ended") return (m.snapshot && m.snapshot->ended()) || m.ended.has_value();
  if (what == "record") return m.record.has_value();
  if (what == "seed-ok") return ctx.client.seed_matches().value_or(false);
  if (what == "end-screen") return ctx.match.end_shown();
  if (what == "log") {
    const std::string text = rest(condition, 1);
    for (const auto& e : m.log)
      if (e.text().find(text) != std::string::npos) return true;
    return false;
  }
  if (what == "message") {
    const std::string text = rest(condition, 1);
    for (const auto& msg : ctx.client.messages())
      if (msg.text.find(text) != std::string::npos) return true;
    return false;
  }
  if (what == "campaign") {
    // campaign: a view is shown; campaign views N: at least N views received.
    const auto& c = ctx.client.campaign();
    if (w.size() >= 3 && w[1] == "views") {
      int n = 0;
      if (!to_int(w[2], &n)) return false;
      return c.views_received >= static_cast<std::uint64_t>(n);
    }
    return c.view.has_value();
  }
  if (what == "campaign-stage") {
    // campaign-stage selecting|fighting|over
    if (!needs(2)) return false;
    const auto& c = ctx.client.campaign();
    if (!c.view) return false;
    const auto stage = c.view->summary().stage();
    return (w[1] == "selecting" && stage == v1::STAGE_SELECTING) ||
           (w[1] == "fighting" && stage == v1::STAGE_FIGHTING) ||
           (w[1] == "over" && c.view->summary().status() == v1::CAMPAIGN_FINISHED);
  }
  if (what == "campaign-record") return ctx.client.campaign().record.has_value();
  if (what == "selection-sealed") {
    const auto& c = ctx.client.campaign();
    return c.selection_written || (c.view && c.view->has_my_selection());
  }
  if (what == "disabled") {
    // disabled LABEL: the widget was drawn in the frame just drawn, and not enabled.
    const std::string label = rest(condition, 1);
    return ctx.ui.frame_widgets().count(label) != 0 && !ctx.ui.frame_enabled(label);
  }
  if (what == "region") return ctx.ui.frame_regions().count(rest(condition, 1)) != 0;
  if (what == "button") {
    const std::string label = rest(condition, 1);
    const auto& widgets = ctx.ui.frame_widgets();
    if (widgets.count(label) != 0) return ctx.ui.frame_enabled(label);
    for (const auto& [id, rect] : widgets)
      if (id.rfind(label, 0) == 0 && ctx.ui.frame_enabled(id)) return true;
    return false;
  }
  if (what == "unit") {
    // unit ID at C R
    int id = 0, c = 0, r = 0;
    if (!needs(5) || !to_int(w[1], &id) || !to_int(w[3], &c) || !to_int(w[4], &r)) return false;
    if (!shown || !shown->state().has_optio()) return false;
    const auto* u = optio_unit(shown->state().optio(), id);
    return u != nullptr && u->placed() && !u->routed() && u->at().col() == c && u->at().row() == r;
  }
  if (what == "hex") {
    // hex C R side A|B   or   hex C R empty
    int c = 0, r = 0;
    if (!needs(4) || !to_int(w[1], &c) || !to_int(w[2], &r)) return false;
    if (!shown || !shown->state().has_stand()) return false;
    const auto* t = stand_tile(shown->state().stand(), c, r);
    if (t == nullptr) return false;
    const bool occupied =
        t->has_troops() && (t->troops().figures().infantry() + t->troops().figures().archers() +
                            t->troops().figures().cavalry() + t->troops().figures().chariots()) > 0;
    if (w[3] == "empty") return !occupied;
    if (w[3] == "side" && w.size() >= 5)
      return occupied && (t->troops().side() == v1::SIDE_B) == (w[4] == "B");
    return occupied;
  }
  if (what == "selected") {
    if (!m.snapshot) return false;
    return m.snapshot->state().has_optio() ? ctx.match.optio().selected().has_value()
                                           : ctx.match.stand().selected().has_value();
  }
  *error = "unknown condition '" + condition + "'";
  return false;
}

void ScriptRunner::push_motion(Context& ctx, int x, int y, Uint32 state) {
  SDL_Event e{};
  e.type = SDL_MOUSEMOTION;
  e.motion.windowID = ctx.window_id;
  e.motion.x = static_cast<int>(std::lround(static_cast<float>(x) * ctx.window_per_unit));
  e.motion.y = static_cast<int>(std::lround(static_cast<float>(y) * ctx.window_per_unit));
  e.motion.state = state;
  SDL_PushEvent(&e);
}

void ScriptRunner::push_button(Context& ctx, int x, int y, Uint8 button, bool down) {
  SDL_Event e{};
  e.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
  e.button.windowID = ctx.window_id;
  e.button.button = button;
  e.button.state = down ? SDL_PRESSED : SDL_RELEASED;
  e.button.clicks = 1;
  e.button.x = static_cast<int>(std::lround(static_cast<float>(x) * ctx.window_per_unit));
  e.button.y = static_cast<int>(std::lround(static_cast<float>(y) * ctx.window_per_unit));
  SDL_PushEvent(&e);
}

void ScriptRunner::push_click(Context& ctx, int x, int y, Uint8 button) {
  push_motion(ctx, x, y, 0);
  push_button(ctx, x, y, button, true);
  push_button(ctx, x, y, button, false);
}

void ScriptRunner::push_key(const std::string& spec) {
  // "ctrl+u", "shift+Tab", "Return".
  Uint16 mod = KMOD_NONE;
  std::string name = spec;
  for (std::size_t plus; (plus = name.find('+')) != std::string::npos && plus + 1 < name.size();) {
    const std::string m = name.substr(0, plus);
    if (m == "ctrl") mod |= KMOD_LCTRL;
    if (m == "shift") mod |= KMOD_LSHIFT;
    if (m == "alt") mod |= KMOD_LALT;
    name = name.substr(plus + 1);
  }
  SDL_Keycode key = SDL_GetKeyFromName(name.c_str());
  if (key == SDLK_UNKNOWN && name.size() == 1) key = static_cast<SDL_Keycode>(name[0]);
  for (bool down : {true, false}) {
    SDL_Event e{};
    e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
    e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.sym = key;
    e.key.keysym.scancode = SDL_GetScancodeFromKey(key);
    e.key.keysym.mod = mod;
    SDL_PushEvent(&e);
  }
}

void ScriptRunner::push_text(const std::string& text) {
  // SDL_TEXTINPUT carries at most 31 bytes; longer text goes in pieces.
  for (std::size_t i = 0; i < text.size(); i += 30) {
    SDL_Event e{};
    e.type = SDL_TEXTINPUT;
    const std::string piece = text.substr(i, 30);
    std::snprintf(e.text.text, sizeof e.text.text, "%s", piece.c_str());
    SDL_PushEvent(&e);
  }
}

bool ScriptRunner::start(const std::string& line, Context& ctx) {
  const auto w = split(line);
  if (w.empty() || w[0][0] == '#') return true;
  const std::string& cmd = w[0];
  auto fail = [&](const std::string& why) {
    error_ = path_ + ":" + std::to_string(line_number_) + ": " + why + " (" + line + ")";
    return false;
  };
  auto cell_point = [&](int c, int r, PointF* out) {
    auto p = ctx.match.cell_centre({c, r});
    if (!p) return false;
    *out = *p;
    return true;
  };
  if (cmd == "wait" || cmd == "expect") {
    std::string cond = rest(line, 1);
    auto timeout = kDefaultTimeout;
    const auto words = split(cond);
    if (!words.empty() && words.back().rfind("timeout=", 0) == 0) {
      int ms = 0;
      if (!to_int(words.back().substr(8), &ms)) return fail("bad timeout");
      timeout = std::chrono::milliseconds(ms);
      cond = cond.substr(0, cond.rfind("timeout="));
      while (!cond.empty() && cond.back() == ' ')
        cond.pop_back();
    }
    std::string err;
    const bool ok = holds(cond, ctx, &err);
    if (!err.empty()) return fail(err);
    if (ok) return true;
    if (cmd == "expect") return fail("expected " + cond);
    waiting_for_ = cond;
    deadline_ = std::chrono::steady_clock::now() + timeout;
    return true;
  }
  if (cmd == "frames") {
    if (w.size() < 2 || !to_int(w[1], &frames_to_wait_)) return fail("frames N");
    return true;
  }
  if (cmd == "sleep") {
    int ms = 0;
    if (w.size() < 2 || !to_int(w[1], &ms)) return fail("sleep MS");
    sleep_until_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    return true;
  }
  if (cmd == "click" || cmd == "right-click") {
    int x = 0, y = 0;
    if (w.size() < 3 || !to_int(w[1], &x) || !to_int(w[2], &y)) return fail("click X Y");
    push_click(ctx, x, y, cmd == "click" ? SDL_BUTTON_LEFT : SDL_BUTTON_RIGHT);
    frames_to_wait_ = 1;
    return true;
  }
  if (cmd == "click-cell" || cmd == "right-click-cell" || cmd == "hover-cell") {
    int c = 0, r = 0;
    PointF p;
    if (w.size() < 3 || !to_int(w[1], &c) || !to_int(w[2], &r)) return fail(cmd + " C R");
    if (!cell_point(c, r, &p)) return fail("no board is shown");
    const int x = static_cast<int>(p.x);
    const int y = static_cast<int>(p.y);
    if (cmd == "hover-cell")
      push_motion(ctx, x, y, 0);
    else
      push_click(ctx, x, y, cmd == "click-cell" ? SDL_BUTTON_LEFT : SDL_BUTTON_RIGHT);
    frames_to_wait_ = 1;
    return true;
  }
  if (cmd == "drag-cells") {
    if (w.size() < 5 || (w.size() - 1) % 2 != 0) return fail("drag-cells C1 R1 C2 R2 ...");
    std::vector<PointF> points;
    for (std::size_t i = 1; i + 1 < w.size(); i += 2) {
      int c = 0, r = 0;
      PointF p;
      if (!to_int(w[i], &c) || !to_int(w[i + 1], &r)) return fail("bad cell");
      if (!cell_point(c, r, &p)) return fail("no board is shown");
      points.push_back(p);
    }
    // Press on the first cell, move through the rest one frame each, release on the last.
    const auto first = points.front();
    gesture_.push_back([this, &ctx, first] {
      push_motion(ctx, static_cast<int>(first.x), static_cast<int>(first.y), 0);
      push_button(ctx, static_cast<int>(first.x), static_cast<int>(first.y), SDL_BUTTON_LEFT, true);
    });
    for (std::size_t i = 1; i < points.size(); ++i) {
      const auto pt = points[i];
      gesture_.push_back([this, &ctx, pt] {
        push_motion(ctx, static_cast<int>(pt.x), static_cast<int>(pt.y), SDL_BUTTON_LMASK);
      });
    }
    const auto last = points.back();
    gesture_.push_back([this, &ctx, last] {
      push_button(ctx, static_cast<int>(last.x), static_cast<int>(last.y), SDL_BUTTON_LEFT, false);
    });
    return true;
  }
  if (cmd == "click-button" || cmd == "focus") {
    const std::string label = rest(line, 1);
    const SDL_Rect* r = find_widget(ctx.ui, label);
    std::string err;
    if (r == nullptr || !holds("button " + label, ctx, &err)) {
      // Not drawn (or not enabled) yet: wait for it, then run this line again.
      waiting_for_ = "button " + label;
      deadline_ = std::chrono::steady_clock::now() + kDefaultTimeout;
      --next_;
      return true;
    }
    push_click(ctx, r->x + r->w / 2, r->y + r->h / 2, SDL_BUTTON_LEFT);
    frames_to_wait_ = 1;
    return true;
  }
  if (cmd == "click-region") {
    // click-region NAME: the centre of an area the screens noted (a player's name in the
    // lobby), waiting for it to be drawn.
    const std::string name = rest(line, 1);
    const auto& regions = ctx.ui.frame_regions();
    const auto it = regions.find(name);
    if (it == regions.end()) {
      waiting_for_ = "region " + name;
      deadline_ = std::chrono::steady_clock::now() + kDefaultTimeout;
      --next_;
      return true;
    }
    push_click(ctx, it->second.x + it->second.w / 2, it->second.y + it->second.h / 2,
               SDL_BUTTON_LEFT);
    frames_to_wait_ = 1;
    return true;
  }
  if (cmd == "type") {
    push_text(rest(line, 1));
    frames_to_wait_ = 1;
    return true;
  }
  if (cmd == "key") {
    if (w.size() < 2) return fail("key NAME");
    push_key(w[1]);
    frames_to_wait_ = 1;
    return true;
  }
  if (cmd == "wheel") {
    int n = 0;
    if (w.size() < 2 || !to_int(w[1], &n)) return fail("wheel N [X Y]");
    int x = ctx.ui.input().mouse_x, y = ctx.ui.input().mouse_y;
    if (w.size() >= 4 && (!to_int(w[2], &x) || !to_int(w[3], &y))) return fail("wheel N X Y");
    push_motion(ctx, x, y, 0);
    SDL_Event e{};
    e.type = SDL_MOUSEWHEEL;
    e.wheel.windowID = ctx.window_id;
    e.wheel.y = n;
    e.wheel.preciseY = static_cast<float>(n);
    SDL_PushEvent(&e);
    frames_to_wait_ = 1;
    return true;
  }
  if (cmd == "screenshot") {
    if (w.size() < 2) return fail("screenshot FILE");
    if (!ctx.screenshot(w[1])) return fail("could not write " + w[1]);
    return true;
  }
  if (cmd == "print") {
    std::printf("%s\n", rest(line, 1).c_str());
    std::fflush(stdout);
    return true;
  }
  if (cmd == "follow") {
    follow_ = true;
    return true;
  }
  if (cmd == "quit") {
    next_ = lines_.size();
    quit_ = true;
    return true;
  }
  return fail("unknown step '" + cmd + "'");
}

ScriptRunner::Status ScriptRunner::step(Context& ctx) {
  if (!error_.empty()) return Status::kFailed;
  if (!gesture_.empty()) {
    auto next = std::move(gesture_.front());
    gesture_.pop_front();
    next();
    return Status::kRunning;
  }
  if (frames_to_wait_ > 0) {
    --frames_to_wait_;
    return Status::kRunning;
  }
  const auto now = std::chrono::steady_clock::now();
  if (now < sleep_until_) return Status::kRunning;
  if (!waiting_for_.empty()) {
    std::string err;
    if (holds(waiting_for_, ctx, &err)) {
      waiting_for_.clear();
    } else if (now > deadline_) {
      error_ = path_ + ":" + std::to_string(line_number_) + ": timed out waiting for '" +
               waiting_for_ + "'";
      return Status::kFailed;
    } else {
      return Status::kRunning;
    }
  }
  if (follow_ && !quit_ && next_ >= lines_.size()) read_appended();
  // Run steps until one needs a frame to take effect.
  while (next_ < lines_.size()) {
    line_number_ = next_ + 1;
    const std::string line = lines_[next_++];
    if (!start(line, ctx)) return Status::kFailed;
    if (!waiting_for_.empty() || frames_to_wait_ > 0 || !gesture_.empty() ||
        std::chrono::steady_clock::now() < sleep_until_)
      return Status::kRunning;
  }
  return follow_ && !quit_ ? Status::kRunning : Status::kDone;
}

void ScriptRunner::read_appended() {
  std::ifstream in(path_, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Only whole lines: the writer may be in the middle of one.
  std::size_t line = 0;
  std::size_t begin = 0;
  for (std::size_t end; (end = text.find('\n', begin)) != std::string::npos; begin = end + 1) {
    if (line++ < lines_.size()) continue;
    std::string l = text.substr(begin, end - begin);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines_.push_back(l);
  }
}

}  // namespace castra::client
