// Ui: castra-client's immediate-mode widgets. Each frame the screens draw their buttons and
// fields and learn in the same call whether they were clicked; the input of the frame comes
// from SDL events (real or pushed by --script, which reads back where each button was drawn).
// Render thread only.
#pragma once

#include <SDL.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "client/sdl/painter.hpp"

namespace castra::client {

// What the user did during one frame.
struct Input {
  int mouse_x = 0;
  int mouse_y = 0;
  bool left_pressed = false;  // went down this frame, at (press_x, press_y)
  int press_x = 0;
  int press_y = 0;
  bool left_held = false;
  bool right_pressed = false;
  bool right_held = false;
  bool middle_held = false;
  int drag_dx = 0;  // mouse movement this frame while the right or middle button is held
  int drag_dy = 0;
  float wheel = 0;
  std::vector<SDL_Keysym> keys;  // pressed this frame
  std::string text;              // typed this frame (UTF-8)
};

enum class ButtonStyle { kNormal, kPrimary, kDanger, kToggleOn };

class Ui {
 public:
  explicit Ui(Painter& painter) : p_(painter) {}

  // Starts a frame: takes this frame's input and forgets last frame's widgets.
  void begin_frame(const Input& input, int width, int height);
  const Input& input() const { return input_; }
  Painter& painter() { return p_; }
  int width() const { return width_; }
  int height() const { return height_; }

  // While blocked (a modal dialog is open above), widgets draw but take no input.
  void set_blocked(bool blocked) { blocked_ = blocked; }
  bool blocked() const { return blocked_; }

  // A button; true when clicked this frame (or its `hotkey` pressed). `id` names it for
  // --script when its label alone is not unique ("+" beside each troop type).
  bool button(const SDL_Rect& r, const std::string& label, ButtonStyle style = ButtonStyle::kNormal,
              bool enabled = true, SDL_Keycode hotkey = SDLK_UNKNOWN, int font_size = 15,
              const std::string& id = "");
  // A one-line text field; true when Enter was pressed in it.
  bool text_field(const SDL_Rect& r, const std::string& id, std::string* value,
                  const std::string& placeholder, bool secret = false);
  // A clickable area without drawing (list rows, board cells); true when clicked.
  bool clicked(const SDL_Rect& r);
  bool hovered(const SDL_Rect& r) const;
  // A key pressed this frame, unless a text field has the keyboard.
  bool key(SDL_Keycode k, Uint16 mod_mask = 0);
  bool typing() const { return !focus_.empty(); }
  void focus(const std::string& id) { focus_ = id; }
  void unfocus() { focus_.clear(); }
  // Marks the left click of this frame as handled, so nothing drawn later takes it too.
  void consume_click() { click_taken_ = true; }
  bool click_available() const { return input_.left_pressed && !click_taken_ && !blocked_; }

  // Where each button and field was drawn in this frame so far, by label or id (a label drawn
  // twice keeps its first place), and the named areas the screens noted (the spectator
  // banner, the end screen...): --script reads them once the frame is drawn, and they are
  // written beside screenshots so tests know where to look.
  const std::map<std::string, SDL_Rect>& frame_widgets() const { return widgets_; }
  void note_region(const std::string& name, const SDL_Rect& r) { regions_[name] = r; }
  const std::map<std::string, SDL_Rect>& frame_regions() const { return regions_; }
  // Whether the widget was enabled when drawn in this frame.
  bool frame_enabled(const std::string& label) const;

 private:
  void note(const std::string& label, const SDL_Rect& r, bool enabled);

  Painter& p_;
  Input input_;
  int width_ = 0;
  int height_ = 0;
  bool blocked_ = false;
  bool click_taken_ = false;
  std::string focus_;
  std::vector<std::string> field_order_;
  std::vector<std::string> last_field_order_;
  bool tab_pending_ = false;
  std::map<std::string, SDL_Rect> widgets_;
  std::map<std::string, SDL_Rect> last_widgets_;
  std::map<std::string, bool> enabled_;
  std::map<std::string, SDL_Rect> regions_;
};

bool inside(const SDL_Rect& r, int x, int y);

}  // namespace castra::client
