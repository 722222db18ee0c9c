#include "client/sdl/ui.hpp"

#include <algorithm>

#include "client/sdl/theme.hpp"

namespace castra::client {

bool inside(const SDL_Rect& r, int x, int y) {
  return x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h;
}

void Ui::begin_frame(const Input& input, int width, int height) {
  input_ = input;
  width_ = width;
  height_ = height;
  blocked_ = false;
  click_taken_ = false;
  last_widgets_ = std::move(widgets_);
  widgets_.clear();
  regions_.clear();
  enabled_.clear();
  last_field_order_ = std::move(field_order_);
  field_order_.clear();
  // Tab moves the keyboard to the next field drawn last frame.
  for (const auto& k : input_.keys) {
    if (k.sym == SDLK_TAB && !focus_.empty() && !last_field_order_.empty()) {
      auto it = std::find(last_field_order_.begin(), last_field_order_.end(), focus_);
      const bool back = (k.mod & KMOD_SHIFT) != 0;
      std::size_t i = it == last_field_order_.end()
                          ? 0
                          : static_cast<std::size_t>(it - last_field_order_.begin());
      i = back ? (i + last_field_order_.size() - 1) % last_field_order_.size()
               : (i + 1) % last_field_order_.size();
      focus_ = last_field_order_[i];
    }
  }
  if (input_.left_pressed && !focus_.empty()) {
    // A click outside the focused field takes the keyboard away; a click in a field gives it.
    auto it = last_widgets_.find(focus_);
    if (it == last_widgets_.end() || !inside(it->second, input_.press_x, input_.press_y))
      focus_.clear();
  }
}

void Ui::note(const std::string& label, const SDL_Rect& r, bool enabled) {
  widgets_.emplace(label, r);
  enabled_.emplace(label, enabled);
}

bool Ui::frame_enabled(const std::string& label) const {
  auto it = enabled_.find(label);
  return it != enabled_.end() && it->second;
}

bool Ui::hovered(const SDL_Rect& r) const {
  return !blocked_ && inside(r, input_.mouse_x, input_.mouse_y);
}

bool Ui::clicked(const SDL_Rect& r) {
  if (!click_available() || !inside(r, input_.press_x, input_.press_y)) return false;
  click_taken_ = true;
  return true;
}

bool Ui::key(SDL_Keycode k, Uint16 mod_mask) {
  if (blocked_ || !focus_.empty()) return false;
  for (const auto& ks : input_.keys) {
    if (ks.sym != k) continue;
    if (mod_mask == 0 && (ks.mod & (KMOD_CTRL | KMOD_ALT)) != 0) continue;
    if (mod_mask != 0 && (ks.mod & mod_mask) == 0) continue;
    return true;
  }
  return false;
}

bool Ui::button(const SDL_Rect& r, const std::string& label, ButtonStyle style, bool enabled,
                SDL_Keycode hotkey, int font_size, const std::string& id) {
  note(id.empty() ? label : id, r, enabled);
  const bool hot = enabled && hovered(r);
  SDL_Color fill = theme::kButton;
  if (style == ButtonStyle::kPrimary)
    fill = hot ? theme::kButtonPrimaryHot : theme::kButtonPrimary;
  else if (style == ButtonStyle::kDanger)
    fill = hot ? theme::rgb(0xA83A3A) : theme::kButtonDanger;
  else if (style == ButtonStyle::kToggleOn)
    fill = hot ? theme::rgb(0x3C8A5C) : theme::kOk;
  else if (hot)
    fill = theme::kButtonHot;
  if (!enabled) fill = theme::kButtonDisabled;
  p_.fill_round_rect(r, 6, fill);
  // A label too long for its button is set smaller rather than spilling out.
  while (font_size > 9 && p_.text_width(label, font_size, Weight::kBold) > r.w - 18)
    --font_size;
  p_.text_centered(label, static_cast<float>(r.x) + r.w / 2.0f,
                   static_cast<float>(r.y) + r.h / 2.0f, font_size,
                   enabled ? theme::kText : theme::kTextDim, Weight::kBold);
  if (!enabled) return false;
  if (clicked(r)) return true;
  return hotkey != SDLK_UNKNOWN && key(hotkey);
}

bool Ui::text_field(const SDL_Rect& r, const std::string& id, std::string* value,
                    const std::string& placeholder, bool secret) {
  note(id, r, true);
  field_order_.push_back(id);
  if (clicked(r)) focus_ = id;
  const bool focused = focus_ == id;
  bool entered = false;
  if (focused && !blocked_) {
    if (!input_.text.empty()) *value += input_.text;
    for (const auto& k : input_.keys) {
      if (k.sym == SDLK_BACKSPACE && !value->empty()) {
        // Remove one UTF-8 character.
        std::size_t n = value->size() - 1;
        while (n > 0 && (static_cast<unsigned char>((*value)[n]) & 0xC0) == 0x80)
          --n;
        value->erase(n);
      }
      if (k.sym == SDLK_RETURN || k.sym == SDLK_KP_ENTER) entered = true;
      if ((k.mod & KMOD_CTRL) != 0 && k.sym == SDLK_u) value->clear();
    }
  }
  p_.fill_round_rect(r, 5, focused ? theme::kFieldFocus : theme::kPanelLine);
  p_.fill_round_rect(SDL_Rect{r.x + 2, r.y + 2, r.w - 4, r.h - 4}, 4, theme::kField);
  const int size = 16;
  const int ty = r.y + (r.h - p_.line_height(size)) / 2;
  p_.set_clip(&r);
  if (value->empty() && !focused) {
    p_.text(placeholder, r.x + 10, ty, size, theme::kTextDim);
  } else {
    const std::string shown = secret ? std::string(value->size(), '*') : *value;
    SDL_Rect box = p_.text(shown, r.x + 10, ty, size, theme::kText);
    if (focused) {
      const int cx = r.x + 10 + box.w + 1;
      p_.fill_rect(SDL_Rect{cx, r.y + 7, 2, r.h - 14}, theme::kGold);
    }
  }
  p_.set_clip(nullptr);
  return entered;
}

}  // namespace castra::client
