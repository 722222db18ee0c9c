#include "client/sdl/computer_mark.hpp"

#include "client/sdl/labels.hpp"
#include "client/sdl/theme.hpp"

namespace castra::client {

std::string computer_strength_name(v1::ComputerStrength s) {
  switch (s) {
    case v1::COMPUTER_RANDOM:
      return "random";
    case v1::COMPUTER_GREEDY:
      return "greedy";
    default:
      return "";
  }
}

std::optional<v1::Side> computer_side(const v1::MatchSummary& m) {
  if (m.settings().computer() == v1::COMPUTER_NONE) return std::nullopt;
  // The computer holds the seat that is not its creator's; its name there says so.
  const std::string& creator = m.creator();
  if (!m.player_a().empty() && m.player_a() != creator) return v1::SIDE_A;
  if (!m.player_b().empty() && m.player_b() != creator) return v1::SIDE_B;
  if (!m.settings().creator_side_random()) return other_side(m.settings().creator_side());
  return std::nullopt;
}

namespace {

constexpr const char* kWord = "COMPUTER";

}  // namespace

int computer_mark_width(Painter& p, v1::ComputerStrength s, int size) {
  const std::string strength = computer_strength_name(s);
  return p.text_width(kWord, size, Weight::kBold) +
         (strength.empty() ? 0 : p.text_width(strength, size) + 6) + 14;
}

int draw_computer_mark(Ui& ui, v1::ComputerStrength s, int x, float cy, int size,
                       const std::string& region) {
  Painter& p = ui.painter();
  const std::string word = kWord;
  const std::string strength = computer_strength_name(s);
  const int word_w = p.text_width(word, size, Weight::kBold);
  const int h = p.line_height(size) + 2;
  const SDL_Rect badge{x, static_cast<int>(cy) - h / 2, computer_mark_width(p, s, size), h};
  p.fill_round_rect(badge, 4, theme::kComputer);
  p.text(word, x + 6, badge.y + 1, size, theme::kTextDark, Align::kLeft, Weight::kBold);
  if (!strength.empty()) p.text(strength, x + 6 + word_w + 6, badge.y + 1, size, theme::kTextDark);
  ui.note_region(region, badge);
  return badge.w;
}

}  // namespace castra::client
