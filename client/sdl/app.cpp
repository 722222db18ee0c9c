#include "client/sdl/app.hpp"

#include <SDL_image.h>
#include <SDL_ttf.h>
#include <sodium.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "client/sdl/theme.hpp"

namespace castra::client {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitSetup = 1;
constexpr int kExitScriptFailed = 2;
constexpr int kExitTimedOut = 3;

// The texts of a frame as a JSON list of {"text", "rect"}: what tests read the screen's words
// from.
std::string texts_json(const std::vector<std::pair<std::string, SDL_Rect>>& texts) {
  std::string out = "[";
  for (const auto& [text, r] : texts) {
    std::string quoted = "\"";
    for (unsigned char ch : text) {
      if (ch == '"' || ch == '\\') {
        quoted += '\\';
        quoted += static_cast<char>(ch);
      } else if (ch < 0x20) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\u%04x", ch);
        quoted += hex;
      } else {
        quoted += static_cast<char>(ch);
      }
    }
    quoted += "\"";
    out += (out.size() > 1 ? "," : "") + std::string("{\"text\":") + quoted + ",\"rect\":[" +
           std::to_string(r.x) + "," + std::to_string(r.y) + "," + std::to_string(r.w) + "," +
           std::to_string(r.h) + "]}";
  }
  return out + "]";
}

}  // namespace

App::App(AppOptions options) : options_(std::move(options)) {}

App::~App() {
  context_.reset();
  match_ = MatchScreen{};
  client_.reset();
  ui_.reset();
  painter_.reset();
  if (renderer_ != nullptr) SDL_DestroyRenderer(renderer_);
  if (window_ != nullptr) SDL_DestroyWindow(window_);
  TTF_Quit();
  IMG_Quit();
  SDL_Quit();
}

bool App::init(std::string* error) {
  if (sodium_init() < 0) {
    *error = "libsodium failed to start";
    return false;
  }
  if (SDL_Init(SDL_INIT_VIDEO) != 0 || TTF_Init() != 0) {
    *error = std::string("SDL: ") + SDL_GetError();
    return false;
  }
  IMG_Init(IMG_INIT_PNG);
  SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "1");
  window_ =
      SDL_CreateWindow("Castra", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, options_.width,
                       options_.height, SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  if (window_ == nullptr) {
    *error = std::string("window: ") + SDL_GetError();
    return false;
  }
  // The screens need 640 x 400 UI units.
  SDL_SetWindowMinimumSize(window_, static_cast<int>(640 * options_.ui_scale),
                           static_cast<int>(400 * options_.ui_scale));
  renderer_ = SDL_CreateRenderer(window_, -1, SDL_RENDERER_PRESENTVSYNC);
  if (renderer_ == nullptr) renderer_ = SDL_CreateRenderer(window_, -1, SDL_RENDERER_SOFTWARE);
  if (renderer_ == nullptr) {
    *error = std::string("renderer: ") + SDL_GetError();
    return false;
  }
  painter_ = std::make_unique<Painter>();
  if (!painter_->open(renderer_, options_.font_dir, error)) return false;
  ui_ = std::make_unique<Ui>(*painter_);
  Client::Options co;
  co.server = options_.server;
  co.ca_file = options_.ca_file;
  co.insecure = options_.insecure;
  co.commands_out = options_.commands_out;
  client_ = std::make_unique<Client>(co);
  login_ = std::make_unique<LoginScreen>(options_.server);
  if (options_.sound) chime_.open();
  SDL_StartTextInput();
  if (!options_.snapshot.empty()) {
    if (!client_->load_offline(options_.snapshot, error)) return false;
  } else if (!options_.campaign.empty()) {
    if (!client_->load_offline_campaign(options_.campaign, error)) return false;
  } else if (!options_.name.empty() || options_.guest) {
    client_->connect(options_.server);
  }
  if (!options_.script.empty()) {
    if (!script_.load(options_.script, error)) return false;
    has_script_ = true;
  }
  context_.reset(
      new ScriptRunner::Context{*client_, *ui_, match_, campaign_, SDL_GetWindowID(window_),
                                [this](const std::string& path) { return write_png(path); }});
  apply_scale();
  return true;
}

SDL_Point App::apply_scale() {
  int pw = 0;
  int ph = 0;
  SDL_GetRendererOutputSize(renderer_, &pw, &ph);
  int ww = 0;
  int wh = 0;
  SDL_GetWindowSize(window_, &ww, &wh);
  // The renderer draws in pixels; the window (and the mouse) speaks in points, fewer of them on
  // a HiDPI screen.
  const float density = ww > 0 ? static_cast<float>(pw) / static_cast<float>(ww) : 1.0f;
  const float pixels_per_unit = std::max(0.25f, density * options_.ui_scale);
  painter_->set_scale(pixels_per_unit);
  window_per_unit_ = pixels_per_unit / density;
  context_->window_per_unit = window_per_unit_;
  return SDL_Point{static_cast<int>(static_cast<float>(pw) / pixels_per_unit),
                   static_cast<int>(static_cast<float>(ph) / pixels_per_unit)};
}

Input App::collect_input(bool* quit) {
  Input in;
  SDL_Event e;
  // Mouse events carry window coordinates; the UI is laid out in units.
  const auto unit = [this](Sint32 v) {
    return static_cast<int>(std::lround(static_cast<float>(v) / window_per_unit_));
  };
  while (SDL_PollEvent(&e) != 0) {
    const SDL_Event raw = e;
    if (e.type == SDL_MOUSEMOTION) {
      e.motion.x = unit(e.motion.x);
      e.motion.y = unit(e.motion.y);
    } else if (e.type == SDL_MOUSEBUTTONDOWN || e.type == SDL_MOUSEBUTTONUP) {
      e.button.x = unit(e.button.x);
      e.button.y = unit(e.button.y);
    }
    switch (e.type) {
      case SDL_QUIT:
        *quit = true;
        break;
      case SDL_MOUSEMOTION:
        if (right_held_ || middle_held_) {
          in.drag_dx += e.motion.x - mouse_x_;
          in.drag_dy += e.motion.y - mouse_y_;
        }
        mouse_x_ = e.motion.x;
        mouse_y_ = e.motion.y;
        break;
      case SDL_MOUSEBUTTONDOWN:
        mouse_x_ = e.button.x;
        mouse_y_ = e.button.y;
        if (e.button.button == SDL_BUTTON_LEFT) {
          // One click per frame: a second one in the same frame waits for the next.
          if (in.left_pressed) {
            SDL_Event again = raw;
            SDL_PushEvent(&again);
            goto done;
          }
          in.left_pressed = true;
          in.press_x = e.button.x;
          in.press_y = e.button.y;
          left_held_ = true;
        } else if (e.button.button == SDL_BUTTON_RIGHT) {
          in.right_pressed = true;
          right_held_ = true;
        } else if (e.button.button == SDL_BUTTON_MIDDLE) {
          middle_held_ = true;
        }
        break;
      case SDL_MOUSEBUTTONUP:
        if (e.button.button == SDL_BUTTON_LEFT) left_held_ = false;
        if (e.button.button == SDL_BUTTON_RIGHT) right_held_ = false;
        if (e.button.button == SDL_BUTTON_MIDDLE) middle_held_ = false;
        break;
      case SDL_MOUSEWHEEL:
        in.wheel += e.wheel.preciseY != 0 ? e.wheel.preciseY : static_cast<float>(e.wheel.y);
        break;
      case SDL_KEYDOWN:
        in.keys.push_back(e.key.keysym);
        break;
      case SDL_TEXTINPUT:
        in.text += e.text.text;
        break;
      default:
        break;
    }
  }
done:
  in.mouse_x = mouse_x_;
  in.mouse_y = mouse_y_;
  in.left_held = left_held_;
  in.right_held = right_held_;
  in.middle_held = middle_held_;
  return in;
}

void App::draw_status_bar() {
  Painter& p = *painter_;
  const int w = ui_->width();
  const int h = ui_->height();
  const SDL_Rect bar{0, h - theme::kStatusBar, w, theme::kStatusBar};
  p.fill_rect(bar, theme::kPanelDark);
  p.fill_rect(SDL_Rect{0, bar.y, w, 1}, theme::kPanelLine);
  const auto& msgs = client_->messages();
  if (!msgs.empty()) {
    const Message& m = msgs.back();
    const auto age = std::chrono::steady_clock::now() - m.at;
    SDL_Color c = theme::kText;
    if (m.kind == MessageKind::kError) c = theme::rgb(0xFF7B6B);
    if (m.kind == MessageKind::kOk) c = theme::rgb(0x8FD19E);
    if (age > std::chrono::seconds(20)) c = theme::kTextDim;
    if (m.kind == MessageKind::kError && age < std::chrono::seconds(4))
      p.fill_rect(SDL_Rect{0, bar.y + 1, 6, bar.h - 1}, theme::kError);
    p.set_clip(&bar);
    const std::int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count();
    ui_->note_region("status-message", bar);
    p.text(m.shown(now_ms), 14, bar.y + 7, 14, c);
    p.set_clip(nullptr);
  }
  const auto status = client_->session().status();
  std::string net;
  SDL_Color nc = theme::kTextDim;
  if (client_->match().offline || client_->campaign().offline) {
    net = "offline view";
  } else if (status == Session::Status::kReady) {
    net = "online";
    nc = theme::kOk;
  } else if (status == Session::Status::kConnecting) {
    net = "connecting...";
  } else if (status == Session::Status::kFailed) {
    net = "disconnected";
    nc = theme::kError;
  }
  if (!net.empty()) {
    const int tw = p.text_width(net, 13);
    p.fill_circle({static_cast<float>(w - tw - 26), static_cast<float>(bar.y + 15)}, 5, nc);
    p.text(net, w - 14, bar.y + 7, 13, theme::kTextDim, Align::kRight);
  }
}

void App::draw_frame() {
  switch (client_->screen()) {
    case Screen::kLogin:
      login_->draw(*ui_, *client_);
      break;
    case Screen::kLobby:
      lobby_.draw(*ui_, *client_);
      break;
    case Screen::kMatch:
      match_.draw(*ui_, *client_);
      break;
    case Screen::kCampaign:
      campaign_.draw(*ui_, *client_);
      break;
    case Screen::kPlayer:
      player_.draw(*ui_, *client_);
      break;
  }
  draw_status_bar();
}

bool App::write_png(const std::string& path) {
  int w = 0;
  int h = 0;
  SDL_GetRendererOutputSize(renderer_, &w, &h);
  SDL_Surface* surface = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGBA32);
  if (surface == nullptr) return false;
  const bool ok = SDL_RenderReadPixels(renderer_, nullptr, SDL_PIXELFORMAT_RGBA32, surface->pixels,
                                       surface->pitch) == 0 &&
                  IMG_SavePNG(surface, path.c_str()) == 0;
  SDL_FreeSurface(surface);
  // Beside the picture: where the board's cells, the buttons and the named areas were drawn,
  // for tests that read pixels.
  if (ok) {
    auto rects = [](const std::map<std::string, SDL_Rect>& m) {
      std::string out = "{";
      for (const auto& [name, r] : m) {
        std::string key;
        for (char c : name)
          if (c != '"' && c != '\\') key.push_back(c);
        out += (out.size() > 1 ? "," : "") + std::string("\"") + key + "\":[" +
               std::to_string(r.x) + "," + std::to_string(r.y) + "," + std::to_string(r.w) + "," +
               std::to_string(r.h) + "]";
      }
      return out + "}";
    };
    const std::string board = client_->screen() == Screen::kMatch ? match_.geometry_json() : "";
    std::ofstream(path + ".json") << "{\"board\":" << (board.empty() ? "null" : board)
                                  << ",\"regions\":" << rects(ui_->frame_regions())
                                  << ",\"widgets\":" << rects(ui_->frame_widgets())
                                  << ",\"texts\":" << texts_json(painter_->frame_texts()) << "}\n";
  }
  return ok;
}

int App::run() {
  std::string error;
  if (!init(&error)) {
    std::fprintf(stderr, "castra-client: %s\n", error.c_str());
    return kExitSetup;
  }
  const auto started = std::chrono::steady_clock::now();
  // A screenshot waits for a match state when one is coming: offline, or a match to open; or
  // for a campaign's view.
  const bool wants_match = !options_.snapshot.empty() || !options_.open_match.empty();
  const bool wants_campaign = !options_.campaign.empty() || !options_.open_campaign.empty();
  bool running = true;
  int exit_code = kExitOk;
  while (running) {
    bool quit = false;
    const Input in = collect_input(&quit);
    if (quit) break;
    client_->update();
    // --name/--guest and --open: sign in and open the match without clicking.
    if (!auto_signed_in_ && client_->online() && (!options_.name.empty() || options_.guest)) {
      auto_signed_in_ = true;
      if (options_.guest)
        client_->guest();
      else if (options_.register_account)
        client_->register_account(options_.name, options_.password);
      else
        client_->login(options_.name, options_.password);
    }
    if (!auto_opened_ && !options_.open_match.empty() && client_->account().signed_in) {
      auto_opened_ = true;
      client_->open_match(options_.open_match);
    }
    if (!auto_opened_ && !options_.open_campaign.empty() && client_->account().signed_in) {
      auto_opened_ = true;
      client_->open_campaign(options_.open_campaign);
    }
    const SDL_Point size = apply_scale();
    ui_->begin_frame(in, size.x, size.y);
    draw_frame();
    if (match_.take_chime()) chime_.play();

    if (!options_.screenshot.empty()) {
      bool now = false;
      if (!options_.screenshot_when.empty()) {
        std::string err;
        now = ScriptRunner::holds(options_.screenshot_when, *context_, &err);
        if (!err.empty()) {
          std::fprintf(stderr, "castra-client: --screenshot-when: %s\n", err.c_str());
          return kExitSetup;
        }
      } else {
        if (wants_campaign)
          now = client_->screen() == Screen::kCampaign && client_->campaign().view;
        else
          now = !wants_match || (client_->screen() == Screen::kMatch && client_->match().snapshot);
      }
      if (now) {
        if (!write_png(options_.screenshot)) {
          std::fprintf(stderr, "castra-client: screenshot: %s\n", SDL_GetError());
          exit_code = kExitSetup;
        }
        options_.screenshot.clear();
        if (!has_script_) running = false;
      }
    }
    if (has_script_) {
      const auto st = script_.step(*context_);
      if (st == ScriptRunner::Status::kFailed) {
        std::fprintf(stderr, "castra-client: script: %s\n", script_.error().c_str());
        write_png(options_.script + ".failed.png");
        exit_code = kExitScriptFailed;
        running = false;
      } else if (st == ScriptRunner::Status::kDone) {
        running = false;
      }
    }
    SDL_RenderPresent(renderer_);
    painter_->end_frame();
    if (options_.exit_after_seconds > 0 &&
        std::chrono::steady_clock::now() - started >
            std::chrono::duration<double>(options_.exit_after_seconds)) {
      std::fprintf(stderr, "castra-client: gave up after %.0f s\n", options_.exit_after_seconds);
      write_png("castra-client-timeout.png");
      exit_code = kExitTimedOut;
      running = false;
    }
    SDL_Delay(12);
  }
  return exit_code;
}

}  // namespace castra::client
