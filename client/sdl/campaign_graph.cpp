#include "client/sdl/campaign_graph.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <set>

#include "client/sdl/labels.hpp"
#include "client/sdl/theme.hpp"

namespace castra::client {

namespace {

constexpr int kLegendHeight = 20;
constexpr int kStripHeight = 18;
constexpr int kCurves = 24;  // segments of each arrow's curve

// The next battle after each result, A's first and B's last so that A's branches lie above.
std::vector<std::pair<v1::Outcome::Kind, std::string>> next_battles(const v1::BattleNode& b) {
  std::vector<std::pair<v1::Outcome::Kind, std::string>> out;
  if (!b.on_a_wins().empty()) out.push_back({v1::Outcome::WIN_A, b.on_a_wins()});
  if (!b.on_draw().empty()) out.push_back({v1::Outcome::DRAW, b.on_draw()});
  if (!b.on_b_wins().empty()) out.push_back({v1::Outcome::WIN_B, b.on_b_wins()});
  return out;
}

PointF bezier(PointF a, PointF c1, PointF c2, PointF b, float t) {
  const float u = 1 - t;
  const float w0 = u * u * u;
  const float w1 = 3 * u * u * t;
  const float w2 = 3 * u * t * t;
  const float w3 = t * t * t;
  return {w0 * a.x + w1 * c1.x + w2 * c2.x + w3 * b.x, w0 * a.y + w1 * c1.y + w2 * c2.y + w3 * b.y};
}

// The arrow's curve from one box to the other: forward between columns, straight down or up
// within one, and below both boxes back to an earlier column.
std::vector<PointF> edge_curve(const GraphLayout& g, const GraphLayout::Edge& e) {
  const SDL_Rect& f = g.nodes[e.from].box;
  const SDL_Rect& t = g.nodes[e.to].box;
  const int from_col = g.nodes[e.from].column;
  const int to_col = g.nodes[e.to].column;
  auto mid_y = [](const SDL_Rect& r) { return r.y + r.h / 2.0f; };
  PointF a, c1, c2, b;
  if (to_col > from_col) {
    a = {static_cast<float>(f.x + f.w), mid_y(f) + e.start_shift};
    b = {static_cast<float>(t.x), mid_y(t) + e.end_shift};
    const float dx = (b.x - a.x) * 0.5f;
    c1 = {a.x + dx, a.y};
    c2 = {b.x - dx, b.y};
  } else if (to_col == from_col) {
    const bool down = t.y > f.y;
    a = {f.x + f.w / 2.0f, static_cast<float>(down ? f.y + f.h : f.y)};
    b = {t.x + t.w / 2.0f, static_cast<float>(down ? t.y : t.y + t.h)};
    c1 = {a.x, (a.y * 2 + b.y) / 3};
    c2 = {b.x, (a.y + b.y * 2) / 3};
  } else {
    a = {f.x + f.w / 2.0f, static_cast<float>(f.y + f.h)};
    b = {t.x + t.w / 2.0f, static_cast<float>(t.y + t.h)};
    const float low = std::max(a.y, b.y) + 46;
    c1 = {a.x, low};
    c2 = {b.x, low};
  }
  std::vector<PointF> pts;
  for (int i = 0; i <= kCurves; ++i)
    pts.push_back(bezier(a, c1, c2, b, static_cast<float>(i) / kCurves));
  return pts;
}

// The arrow's body. A straight piece is filled as a rectangle: the rasteriser can leave gaps
// along the diagonal of a thin quad that stands straight up or lies flat.
void stroke_curve(Painter& p, const std::vector<PointF>& pts, float width, SDL_Color c) {
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
    const PointF a = pts[i];
    const PointF b = pts[i + 1];
    if (std::abs(a.x - b.x) < 0.01f || std::abs(a.y - b.y) < 0.01f) {
      const bool upright = std::abs(a.x - b.x) < 0.01f;
      const float x0 = std::min(a.x, b.x) - (upright ? width / 2 : 0);
      const float y0 = std::min(a.y, b.y) - (upright ? 0 : width / 2);
      const float w = upright ? width : std::abs(a.x - b.x) + 1;
      const float h = upright ? std::abs(a.y - b.y) + 1 : width;
      p.fill_rect(SDL_Rect{static_cast<int>(std::lround(x0)), static_cast<int>(std::lround(y0)),
                           static_cast<int>(std::lround(w)), static_cast<int>(std::lround(h))},
                  c);
    } else {
      p.line(a, b, width, c);
      if (width > 2.5f && i > 0) p.fill_circle(a, width / 2, c);
    }
  }
}

std::string result_label(v1::Outcome::Kind k) {
  return k == v1::Outcome::WIN_A ? "A wins" : k == v1::Outcome::WIN_B ? "B wins" : "draw";
}

SDL_Color label_fill(v1::Outcome::Kind k) {
  return k == v1::Outcome::WIN_A   ? theme::kSideADark
         : k == v1::Outcome::WIN_B ? theme::kSideBDark
                                   : theme::rgb(0x454B54);
}

SDL_Color result_color(v1::Outcome::Kind k) {
  return k == v1::Outcome::WIN_A   ? theme::kSideA
         : k == v1::Outcome::WIN_B ? theme::kSideB
                                   : theme::kDrawResult;
}

// The battle selected for or fought now, if any.
std::string current_node(const v1::CampaignSummary& s) {
  const bool now = s.stage() == v1::STAGE_SELECTING || s.stage() == v1::STAGE_FIGHTING;
  return now && s.status() == v1::CAMPAIGN_LIVE ? s.node() : "";
}

}  // namespace

int GraphLayout::index_of(const std::string& id) const {
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].id == id) return static_cast<int>(i);
  return -1;
}

GraphLayout layout_campaign_graph(const v1::CampaignDefinition& d, const SDL_Rect& area) {
  GraphLayout g;
  if (d.battles_size() == 0) return g;
  std::map<std::string, const v1::BattleNode*> by_id;
  for (const auto& b : d.battles())
    by_id[b.id()] = &b;
  // Columns by distance from the first battle, in the order a breadth-first walk meets them.
  const std::string first = by_id.count(d.first_battle()) ? d.first_battle() : d.battles(0).id();
  std::map<std::string, int> column;
  std::vector<std::string> order;
  std::deque<std::string> todo{first};
  column[first] = 0;
  while (!todo.empty()) {
    const std::string id = todo.front();
    todo.pop_front();
    order.push_back(id);
    for (const auto& [result, next] : next_battles(*by_id[id])) {
      if (by_id.count(next) == 0 || column.count(next) != 0) continue;
      column[next] = column[id] + 1;
      todo.push_back(next);
    }
  }
  int last = 0;
  for (const auto& [id, c] : column)
    last = std::max(last, c);
  // Battles no result leads to stand in a column after the rest.
  for (const auto& b : d.battles()) {
    if (column.count(b.id()) != 0) continue;
    column[b.id()] = last + 1;
    order.push_back(b.id());
  }
  for (const auto& [id, c] : column)
    g.columns = std::max(g.columns, c + 1);
  std::vector<int> in_column(g.columns, 0);
  for (const auto& id : order)
    ++in_column[column[id]];
  const int col_w = area.w / std::max(1, g.columns);
  const int box_w = std::clamp(col_w - 56, 90, 210);
  std::vector<int> placed(g.columns, 0);
  for (const auto& id : order) {
    const int c = column[id];
    const int row_h = area.h / std::max(1, in_column[c]);
    const int box_h = std::clamp(row_h - 30, 40, 66);
    const int i = placed[c]++;
    GraphLayout::Node n;
    n.id = id;
    n.column = c;
    n.box = SDL_Rect{area.x + c * col_w + (col_w - box_w) / 2,
                     area.y + i * row_h + (row_h - box_h) / 2, box_w, box_h};
    g.nodes.push_back(n);
  }
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    std::map<int, std::vector<v1::Outcome::Kind>> to;
    for (const auto& [result, next] : next_battles(*by_id[g.nodes[i].id])) {
      const int j = g.index_of(next);
      if (j >= 0) to[j].push_back(result);
    }
    for (const auto& [j, results] : to)
      g.edges.push_back({static_cast<int>(i), j, results});
  }
  // Side by side where several arrows leave or enter one side of a box, ordered by where the
  // other end lies so that they do not cross.
  constexpr float kSpacing = 12;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    std::vector<GraphLayout::Edge*> out;
    std::vector<GraphLayout::Edge*> in;
    for (auto& e : g.edges) {
      if (g.nodes[e.to].column <= g.nodes[e.from].column) continue;
      if (e.from == static_cast<int>(i)) out.push_back(&e);
      if (e.to == static_cast<int>(i)) in.push_back(&e);
    }
    std::sort(out.begin(), out.end(),
              [&](auto* a, auto* b) { return g.nodes[a->to].box.y < g.nodes[b->to].box.y; });
    std::sort(in.begin(), in.end(),
              [&](auto* a, auto* b) { return g.nodes[a->from].box.y < g.nodes[b->from].box.y; });
    for (std::size_t k = 0; k < out.size(); ++k)
      out[k]->start_shift = (static_cast<float>(k) - (out.size() - 1) / 2.0f) * kSpacing;
    for (std::size_t k = 0; k < in.size(); ++k)
      in[k]->end_shift = (static_cast<float>(k) - (in.size() - 1) / 2.0f) * kSpacing;
  }
  return g;
}

void draw_campaign_graph(Ui& ui, const v1::CampaignView& view, const SDL_Rect& area) {
  Painter& p = ui.painter();
  ui.note_region("graph", area);
  const v1::CampaignDefinition& d = view.definition();
  const SDL_Rect inner{area.x + 8, area.y + 12, area.w - 16, area.h - 16 - kLegendHeight};
  const GraphLayout g = layout_campaign_graph(d, inner);
  if (g.nodes.empty()) {
    p.text_centered("This campaign's definition has no battles.", area.x + area.w / 2.0f,
                    area.y + area.h / 2.0f, 14, theme::kTextDim);
    return;
  }
  // What happened: the results of the battles fought, the path through them, where it is now.
  std::map<std::string, v1::Outcome::Kind> result;
  // Each edge taken, with the result that took it.
  std::map<std::pair<std::string, std::string>, v1::Outcome::Kind> taken;
  const std::string now = current_node(view.summary());
  std::vector<std::string> path;
  for (const auto& f : view.history()) {
    path.push_back(f.node());
    result[f.node()] = f.outcome().kind();
  }
  if (!now.empty()) path.push_back(now);
  for (std::size_t i = 0; i + 1 < path.size(); ++i)
    taken[{path[i], path[i + 1]}] = view.history(static_cast<int>(i)).outcome().kind();
  // Battles still possible from here; those neither fought nor possible are dimmed.
  std::set<int> reachable;
  if (!now.empty()) {
    std::deque<int> todo{g.index_of(now)};
    while (!todo.empty()) {
      const int i = todo.front();
      todo.pop_front();
      if (i < 0 || !reachable.insert(i).second) continue;
      for (const auto& e : g.edges)
        if (e.from == i) todo.push_back(e.to);
    }
  }
  auto dim = [&](int i) {
    return !reachable.empty() && reachable.count(i) == 0 && result.count(g.nodes[i].id) == 0;
  };

  // Arrows under the boxes: the untaken first, the path over them; their labels over the boxes.
  struct Label {
    PointF at;
    const GraphLayout::Edge* edge;
    bool live;
    std::optional<v1::Outcome::Kind> taken;
  };
  std::vector<Label> labels;
  for (const bool on_path : {false, true}) {
    for (const auto& e : g.edges) {
      const auto& f = g.nodes[e.from];
      const auto& t = g.nodes[e.to];
      const auto took = taken.find({f.id, t.id});
      const bool is_taken = took != taken.end();
      if (is_taken != on_path) continue;
      const auto pts = edge_curve(g, e);
      const bool live = !dim(e.from) && !dim(e.to);
      const SDL_Color c = is_taken ? theme::kCampaignPath
                          : live   ? theme::kEdge
                                   : theme::rgb(0x3C424B);
      const float width = is_taken ? 4.0f : 2.0f;
      std::vector<PointF> body(pts.begin(), pts.end() - 2);
      stroke_curve(p, body, width, c);
      p.arrow(pts[pts.size() - 3], pts.back(), width, is_taken ? 12 : 9, c);
      // Near its start, where no label lies.
      const PointF mark = pts[2];
      ui.note_region("edge " + f.id + ">" + t.id,
                     SDL_Rect{static_cast<int>(mark.x) - 3, static_cast<int>(mark.y) - 3, 7, 7});
      labels.push_back(
          {pts[pts.size() / 2], &e, live, is_taken ? std::optional(took->second) : std::nullopt});
    }
  }

  // The boxes.
  const bool optio = d.ruleset() == "optio";
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const auto& n = g.nodes[i];
    const v1::BattleNode* b = nullptr;
    for (const auto& x : d.battles())
      if (x.id() == n.id) b = &x;
    const bool fought = result.count(n.id) != 0;
    const bool current = n.id == now;
    const SDL_Rect& box = n.box;
    ui.note_region("node " + n.id, box);
    p.fill_round_rect(SDL_Rect{box.x + 3, box.y + 4, box.w, box.h}, 8, SDL_Color{0, 0, 0, 70});
    if (current) {
      ui.note_region("current-node", box);
      p.fill_round_rect(SDL_Rect{box.x - 4, box.y - 4, box.w + 8, box.h + 8}, 11,
                        theme::kCurrentNode);
    } else if (fought) {
      p.fill_round_rect(SDL_Rect{box.x - 2, box.y - 2, box.w + 4, box.h + 4}, 9,
                        theme::kCampaignPath);
    } else {
      p.fill_round_rect(SDL_Rect{box.x - 1, box.y - 1, box.w + 2, box.h + 2}, 9, theme::kPanelLine);
    }
    p.fill_round_rect(box, 8, fought || current ? theme::kNode : theme::kNodeFuture);
    const int text_h = box.h - (fought ? kStripHeight : 0);
    const SDL_Rect clip{box.x + 6, box.y + 2, box.w - 12, text_h - 2};
    p.set_clip(&clip);
    const std::string name = b != nullptr && !b->name().empty() ? b->name() : n.id;
    const SDL_Color ink = dim(static_cast<int>(i)) ? theme::kTextDim : theme::kText;
    const auto lines = p.wrap(name, 13, box.w - 14, Weight::kBold);
    int ty = box.y + 5;
    for (std::size_t k = 0; k < lines.size() && k < 2; ++k) {
      p.text_centered(lines[k], box.x + box.w / 2.0f, ty + 8.0f, 13, ink, Weight::kBold);
      ty += 16;
    }
    if (b != nullptr && ty + 14 <= box.y + text_h) {
      std::string sub =
          b->selection_limit() == 0
              ? "whole army"
              : "up to " + std::to_string(b->selection_limit()) + (optio ? " units" : " figures");
      if (next_battles(*b).empty()) sub += ", last battle";
      p.text_centered(sub, box.x + box.w / 2.0f, ty + 7.0f, 11, theme::kTextDim);
    }
    p.set_clip(nullptr);
    if (fought) {
      // The result strip along the bottom, in the winner's colour.
      const auto k = result[n.id];
      const SDL_Rect strip{box.x, box.y + box.h - kStripHeight, box.w, kStripHeight};
      ui.note_region("result " + n.id, strip);
      p.fill_round_rect(strip, 7, result_color(k));
      p.fill_rect(SDL_Rect{strip.x, strip.y, strip.w, 7}, result_color(k));
      std::string word = campaign_result_word(k);
      for (auto& c : word)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      p.text_centered(word, strip.x + strip.w / 2.0f, strip.y + strip.h / 2.0f, 11,
                      theme::kCounterText, Weight::kBold);
    }
    if (current) {
      const std::string tag = view.summary().stage() == v1::STAGE_FIGHTING ? "NOW: being fought"
                                                                           : "NOW: choosing armies";
      const int tw = p.text_width(tag, 10, Weight::kBold) + 14;
      const SDL_Rect pill{box.x + (box.w - tw) / 2, box.y - 16, tw, 16};
      p.fill_round_rect(pill, 7, theme::kCurrentNode);
      p.text_centered(tag, pill.x + pill.w / 2.0f, pill.y + 8.0f, 10, theme::kTextDark,
                      Weight::kBold);
    }
  }

  // The labels: a pill per result that leads along the arrow (one when every result does),
  // the one taken ringed in gold.
  for (const auto& l : labels) {
    const bool any = l.edge->results.size() == 3;
    const int n = any ? 1 : static_cast<int>(l.edge->results.size());
    int ly = static_cast<int>(l.at.y) - (n * 18 - 2) / 2;
    for (const auto k : l.edge->results) {
      if (any && k != l.edge->results.front()) break;
      const std::string text = any ? "any result" : result_label(k);
      const int lw = p.text_width(text, 11, Weight::kBold) + 12;
      const SDL_Rect pill{static_cast<int>(l.at.x) - lw / 2, ly, lw, 16};
      if (l.taken && (any || l.taken == k))
        p.fill_round_rect(SDL_Rect{pill.x - 2, pill.y - 2, pill.w + 4, pill.h + 4}, 9,
                          theme::kCampaignPath);
      const SDL_Color fill = any ? theme::rgb(0x454B54) : label_fill(k);
      p.fill_round_rect(pill, 7, l.live || l.taken ? fill : theme::kNodeFuture);
      p.text_centered(text, pill.x + pill.w / 2.0f, pill.y + 8.0f, 11,
                      l.live || l.taken ? theme::kText : theme::kTextDim, Weight::kBold);
      ly += 18;
    }
  }

  // The legend.
  const int ly = area.y + area.h - kLegendHeight + 2;
  int lx = area.x + 12;
  p.line({static_cast<float>(lx), ly + 8.0f}, {lx + 26.0f, ly + 8.0f}, 4, theme::kCampaignPath);
  lx += 32;
  lx += p.text("the path taken", lx, ly, 12, theme::kTextDim).w + 18;
  p.fill_round_rect(SDL_Rect{lx, ly + 2, 22, 12}, 4, theme::kCurrentNode);
  lx += 28;
  lx += p.text("the battle now", lx, ly, 12, theme::kTextDim).w + 18;
  for (const auto k : {v1::Outcome::WIN_A, v1::Outcome::WIN_B, v1::Outcome::DRAW}) {
    p.fill_round_rect(SDL_Rect{lx, ly + 2, 22, 12}, 3, result_color(k));
    lx += 28;
    lx += p.text(campaign_result_word(k), lx, ly, 12, theme::kTextDim).w + 14;
  }
}

}  // namespace castra::client
