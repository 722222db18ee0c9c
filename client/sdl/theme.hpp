// Theme: every colour and size castra-client draws with, in one place, so the look can change
// without hunting through the screens; tests read the highlight colours from here too.
// Constants only; any thread.
#pragma once

#include <SDL.h>

#include <cstdint>

namespace castra::client::theme {

constexpr SDL_Color rgb(std::uint32_t hex, std::uint8_t a = 255) {
  return SDL_Color{static_cast<std::uint8_t>(hex >> 16), static_cast<std::uint8_t>(hex >> 8),
                   static_cast<std::uint8_t>(hex), a};
}

// Chrome.
constexpr SDL_Color kBackground = rgb(0x262A30);
constexpr SDL_Color kPanel = rgb(0x30353D);
constexpr SDL_Color kPanelDark = rgb(0x22262B);
constexpr SDL_Color kPanelLine = rgb(0x4A515C);
constexpr SDL_Color kText = rgb(0xECE4CE);
constexpr SDL_Color kTextDim = rgb(0xA9A391);
constexpr SDL_Color kTextDark = rgb(0x1E1E1E);
constexpr SDL_Color kGold = rgb(0xE3B341);
constexpr SDL_Color kButton = rgb(0x4B5563);
constexpr SDL_Color kButtonHot = rgb(0x5E6B7D);
constexpr SDL_Color kButtonPrimary = rgb(0x9C6B1E);
constexpr SDL_Color kButtonPrimaryHot = rgb(0xB98027);
constexpr SDL_Color kButtonDanger = rgb(0x8E2F2F);
constexpr SDL_Color kButtonDisabled = rgb(0x3A3F47);
constexpr SDL_Color kField = rgb(0x1B1E22);
constexpr SDL_Color kFieldFocus = rgb(0xE3B341);
constexpr SDL_Color kError = rgb(0xC0392B);
constexpr SDL_Color kOk = rgb(0x2E8B57);
constexpr SDL_Color kInfo = rgb(0x2D5F8A);
constexpr SDL_Color kYourMove = rgb(0xE3B341);
constexpr SDL_Color kSpectator = rgb(0x6A4C93);
// The badge beside the name of a side the server's computer plays (tests look for it).
constexpr SDL_Color kComputer = rgb(0x4FD1C5);

// Sides: A holds the top edge, B the bottom. A is blue, B red (the STAND! training armies are
// named so); blue against red holds for every common colour blindness (docs/client.md,
// Palette.* checks it).
constexpr SDL_Color kSideA = rgb(0x2B5FB3);
constexpr SDL_Color kSideADark = rgb(0x142E57);
constexpr SDL_Color kSideALight = rgb(0xD3E2F7);
constexpr SDL_Color kSideB = rgb(0xC0392B);
constexpr SDL_Color kSideBDark = rgb(0x6E1917);
constexpr SDL_Color kSideBLight = rgb(0xF7D6D0);
constexpr SDL_Color kCounterText = rgb(0xFFFFFF);

// Board overlays. kHighlight marks a square or hex the selected unit may move to (a solid dot
// at its centre in exactly this colour: the tests look for it); kChargeHighlight one where the
// move is a charge (a diamond, not a dot); kTarget an enemy the selection may shoot at or
// attack (a ring with ticks); kSelection the selected unit (an outline). The four stay apart
// for protanopes, deuteranopes and tritanopes as well (Palette.*), and their shapes differ too.
constexpr SDL_Color kHighlight = rgb(0xFFE14D);
constexpr SDL_Color kChargeHighlight = rgb(0xC2410C);
constexpr SDL_Color kTarget = rgb(0x7C3AED);
constexpr SDL_Color kSelection = rgb(0x22D3EE);
// Where the log line clicked last happened: a double ring (shape, not colour alone).
constexpr SDL_Color kLocate = rgb(0xC77DFF);
constexpr SDL_Color kLastMove = rgb(0xFFFFFF, 150);
constexpr SDL_Color kGridLine = rgb(0x2B2B22, 110);
constexpr SDL_Color kCoordText = rgb(0xC9C2AA);

// Campaign graph: the edges the campaign took (exactly this colour: the tests look for it), the
// ring round the battle selected for or fought now, a drawn battle's result, the edges not
// (yet) taken, and a node's box.
constexpr SDL_Color kCampaignPath = rgb(0xF5C542);
constexpr SDL_Color kCurrentNode = rgb(0x4FE08A);
constexpr SDL_Color kDrawResult = rgb(0x7D8590);
constexpr SDL_Color kEdge = rgb(0x59616D);
constexpr SDL_Color kNode = rgb(0x3A414B);
constexpr SDL_Color kNodeFuture = rgb(0x2A2F36);

// Orders paths, one colour and one dash pattern per subcommander (cycled): Okabe and Ito's
// orange, sky blue and blue, white and near black, which stay apart under the three colour
// blindnesses; the dashes (solid, long, short, dash-dot, dotted: on and off lengths in path
// widths, 0 solid) tell them apart without colour at all.
constexpr SDL_Color kPathColors[] = {rgb(0xE69F00), rgb(0x56B4E9), rgb(0x0072B2), rgb(0xFFFFFF),
                                     rgb(0x1A1A1A)};
struct Dash {
  float on = 0;
  float off = 0;
};
constexpr Dash kPathDashes[] = {{0, 0}, {4, 2}, {1.5f, 1.5f}, {4, 1.5f}, {0.6f, 1.2f}};

// An Optio unit's morale badge: firm, then shaken (blue against amber, not green against
// amber, which red-green colour blindness merges).
constexpr SDL_Color kMoraleFirm = rgb(0x1F78B4);
constexpr SDL_Color kMoraleShaken = rgb(0xE08A1E);

// Optio terrain.
constexpr SDL_Color kOptioOpen = rgb(0xB5C27F);
constexpr SDL_Color kOptioHill = rgb(0xCFAE6E);
constexpr SDL_Color kOptioWoods = rgb(0x4C7A3A);
constexpr SDL_Color kOptioMarsh = rgb(0x7E9C7B);
constexpr SDL_Color kOptioRiver = rgb(0x3F7FBF);
constexpr SDL_Color kOptioFord = rgb(0x7FB3D9);
constexpr SDL_Color kOptioCamp = rgb(0xD9C8A0);

// STAND! terrain.
constexpr SDL_Color kStandOpen = rgb(0xB9C482);
constexpr SDL_Color kStandWoods = rgb(0x4C7A3A);
constexpr SDL_Color kStandSwamp = rgb(0x7E9C7B);
constexpr SDL_Color kStandTown = rgb(0xB7A58A);
constexpr SDL_Color kStandHill = rgb(0xCFAE6E);
constexpr SDL_Color kStandSteep = rgb(0x9A7448);
constexpr SDL_Color kStandWater = rgb(0x3F7FBF);

// Sizes.
constexpr int kPanelWidth = 360;
constexpr int kTopBar = 44;
constexpr int kStatusBar = 30;
constexpr int kBoardMargin = 28;  // room for the coordinates round the board

}  // namespace castra::client::theme
