#include "tests/client/client_support.hpp"

#include <SDL_image.h>
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "common/match/crypto.hpp"
#include "tests/support/server_process.hpp"

namespace castra::testing {

namespace pbu = google::protobuf::util;

namespace {

pid_t spawn_shell(const std::string& command) {
  const pid_t pid = fork();
  if (pid == 0) {
    // Its own process group, so that a kill reaches xvfb-run, Xvfb and the client together.
    setpgid(0, 0);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

std::optional<int> reap(pid_t pid, bool block) {
  int status = 0;
  if (waitpid(pid, &status, block ? 0 : WNOHANG) != pid) return std::nullopt;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out.push_back(c);
  }
  return out + "'";
}

v1::ScriptLine parse_script_line(const std::string& line, const std::string& ruleset) {
  v1::ScriptLine out;
  if (pbu::JsonStringToMessage(line, &out).ok()) return out;
  // A bare command of the rule set ({"side": ..., "command": {"deploy": ...}}): wrap it.
  google::protobuf::Struct bare;
  EXPECT_TRUE(pbu::JsonStringToMessage(line, &bare).ok()) << line;
  auto* fields = bare.mutable_fields();
  google::protobuf::Value wrapped;
  (*wrapped.mutable_struct_value()->mutable_fields())[ruleset] = (*fields)["command"];
  (*fields)["command"] = wrapped;
  std::string json;
  (void)pbu::MessageToJsonString(bare, &json);
  EXPECT_TRUE(pbu::JsonStringToMessage(json, &out).ok()) << line;
  return out;
}

std::unique_ptr<wire::AnyMatch> make(const std::string& scenario_path, const std::string& id) {
  v1::ScenarioFile scenario;
  EXPECT_TRUE(pbu::JsonStringToMessage(read_file(scenario_path), &scenario).ok()) << scenario_path;
  match::Bytes32 seed{};
  seed.fill(0x2A);
  auto made = wire::make_match({id, scenario, "", seed});
  EXPECT_TRUE(made.ok());
  return made.ok() ? std::move(*made) : nullptr;
}

std::vector<std::string> lines_of(const std::string& path, int n) {
  std::istringstream in(read_file(path));
  std::vector<std::string> out;
  std::string line;
  while (static_cast<int>(out.size()) < n && std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) out.push_back(line);
  }
  return out;
}

}  // namespace

std::uint32_t rgb(SDL_Color c) {
  return (std::uint32_t{c.r} << 16) | (std::uint32_t{c.g} << 8) | c.b;
}

std::string client_binary() {
  // CASTRA_CLIENT runs the tests against another build of the client (a sanitized one).
  if (const char* other = std::getenv("CASTRA_CLIENT"); other != nullptr && *other != '\0')
    return other;
  return binary_dir() + "/client/sdl/castra-client";
}

std::string client_command(const std::string& dir, const std::vector<std::string>& args) {
  // A display number of our own to start from: parallel tests must not race for one.
  const int display = 200 + static_cast<int>(getpid() % 3000);
  std::string cmd = "cd " + quote(dir) +
                    " && SDL_AUDIODRIVER=dummy SDL_RENDER_DRIVER=software xvfb-run -a -n " +
                    std::to_string(display) + " -s '-screen 0 1700x1100x24' " +
                    quote(client_binary()) + " --mute";
  if (std::find(args.begin(), args.end(), "--width") == args.end())
    cmd += " --width 1280 --height 800";
  for (const auto& a : args)
    cmd += " " + quote(a);
  return cmd + " >> " + quote(dir + "/client.log") + " 2>&1";
}

int run_client(const std::string& dir, const std::vector<std::string>& args,
               std::chrono::seconds timeout) {
  ClientProcess p(dir, args);
  return p.wait(timeout);
}

ClientProcess::ClientProcess(const std::string& dir, const std::vector<std::string>& args)
    : pid_(spawn_shell(client_command(dir, args))) {}

ClientProcess::~ClientProcess() {
  if (pid_ > 0 && !status_) {
    kill(-pid_, SIGKILL);
    reap(pid_, true);
  }
}

std::optional<int> ClientProcess::poll() {
  if (!status_ && pid_ > 0) status_ = reap(pid_, false);
  return status_;
}

int ClientProcess::wait(std::chrono::seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto s = poll()) return *s;
    std::this_thread::sleep_for(50ms);
  }
  kill(-pid_, SIGKILL);
  reap(pid_, true);
  status_ = -1;
  return -1;
}

std::optional<Picture> Picture::load(const std::string& path) {
  SDL_Surface* loaded = IMG_Load(path.c_str());
  if (loaded == nullptr) return std::nullopt;
  SDL_Surface* rgba = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_RGBA32, 0);
  SDL_FreeSurface(loaded);
  if (rgba == nullptr) return std::nullopt;
  Picture p;
  p.w_ = rgba->w;
  p.h_ = rgba->h;
  p.pixels_.resize(static_cast<std::size_t>(p.w_) * p.h_);
  for (int y = 0; y < p.h_; ++y) {
    const auto* row = static_cast<const std::uint8_t*>(rgba->pixels) + y * rgba->pitch;
    for (int x = 0; x < p.w_; ++x) {
      const auto* px = row + x * 4;
      p.pixels_[static_cast<std::size_t>(y) * p.w_ + x] =
          (std::uint32_t{px[0]} << 16) | (std::uint32_t{px[1]} << 8) | px[2];
    }
  }
  SDL_FreeSurface(rgba);
  google::protobuf::Struct layout;
  if (pbu::JsonStringToMessage(read_file(path + ".json"), &layout).ok()) {
    const auto& f = layout.fields();
    auto rects = [](const google::protobuf::Value& v,
                    std::vector<std::pair<std::string, SDL_Rect>>* out) {
      for (const auto& [name, r] : v.struct_value().fields()) {
        const auto& l = r.list_value().values();
        if (l.size() != 4) continue;
        out->push_back({name, SDL_Rect{static_cast<int>(l[0].number_value()),
                                       static_cast<int>(l[1].number_value()),
                                       static_cast<int>(l[2].number_value()),
                                       static_cast<int>(l[3].number_value())}});
      }
    };
    if (auto it = f.find("regions"); it != f.end()) rects(it->second, &p.regions_);
    if (auto it = f.find("texts"); it != f.end()) {
      for (const auto& t : it->second.list_value().values()) {
        const auto& tf = t.struct_value().fields();
        const auto& l = tf.at("rect").list_value().values();
        if (l.size() != 4) continue;
        p.texts_.push_back(
            {tf.at("text").string_value(),
             SDL_Rect{static_cast<int>(l[0].number_value()), static_cast<int>(l[1].number_value()),
                      static_cast<int>(l[2].number_value()),
                      static_cast<int>(l[3].number_value())}});
      }
    }
    if (auto it = f.find("widgets"); it != f.end()) rects(it->second, &p.widgets_);
    if (auto it = f.find("board"); it != f.end() && it->second.has_struct_value()) {
      const auto& b = it->second.struct_value().fields();
      p.cell_size_ = b.at("size").number_value();
      for (const auto& c : b.at("cells").list_value().values()) {
        const auto& cf = c.struct_value().fields();
        p.cells_.push_back({{static_cast<int>(cf.at("col").number_value()),
                             static_cast<int>(cf.at("row").number_value())},
                            SDL_Point{static_cast<int>(cf.at("x").number_value()),
                                      static_cast<int>(cf.at("y").number_value())}});
      }
    }
  }
  return p;
}

std::uint32_t Picture::at(int x, int y) const {
  if (x < 0 || y < 0 || x >= w_ || y >= h_) return 0xFFFFFFFF;
  return pixels_[static_cast<std::size_t>(y) * w_ + x];
}

std::optional<SDL_Rect> Picture::text(const std::string& part) const {
  for (const auto& [t, r] : texts_)
    if (t.find(part) != std::string::npos) return r;
  return std::nullopt;
}

std::optional<SDL_Point> Picture::cell(int col, int row) const {
  for (const auto& [cr, pt] : cells_)
    if (cr.first == col && cr.second == row) return pt;
  return std::nullopt;
}

std::optional<SDL_Rect> Picture::region(const std::string& name) const {
  for (const auto& [n, r] : regions_)
    if (n == name) return r;
  return std::nullopt;
}

std::vector<std::pair<std::string, SDL_Rect>> Picture::regions_starting(
    const std::string& prefix) const {
  std::vector<std::pair<std::string, SDL_Rect>> out;
  for (const auto& [n, r] : regions_)
    if (n.rfind(prefix, 0) == 0) out.emplace_back(n, r);
  return out;
}

std::optional<SDL_Rect> Picture::widget(const std::string& name) const {
  for (const auto& [n, r] : widgets_)
    if (n == name) return r;
  return std::nullopt;
}

int Picture::count(std::uint32_t color, const SDL_Rect& area) const {
  int n = 0;
  for (int y = area.y; y < area.y + area.h; ++y)
    for (int x = area.x; x < area.x + area.w; ++x)
      n += at(x, y) == color;
  return n;
}

std::string play_line(wire::AnyMatch& m, const std::string& line) {
  const v1::ScriptLine step = parse_script_line(line, m.ruleset());
  const auto side = wire::side_from_proto(step.side());
  match::Bytes32 salt{};
  salt[0] = static_cast<std::uint8_t>(m.entry_count());
  auto done = m.submit(side, step.command(), salt);
  return done.ok() ? "" : done.error().message;
}

std::unique_ptr<wire::AnyMatch> optio_training(int lines, bool fair_dice) {
  auto m =
      make(source_dir() + "/tests/rules/optio/data/training_scenario.json", "client-test-optio");
  if (!m) return nullptr;
  std::vector<int> dice;
  std::istringstream in(read_file(source_dir() + "/tests/rules/optio/data/training_game.dice"));
  for (int d; in >> d;)
    dice.push_back(d);
  if (!fair_dice) m->force_rolls(dice);
  m->seat(rules::Side::kA, "entropy of A");
  m->seat(rules::Side::kB, "entropy of B");
  for (const auto& line :
       lines_of(source_dir() + "/tests/rules/optio/data/training_game.jsonl", lines)) {
    const std::string refused = play_line(*m, line);
    EXPECT_EQ(refused, "") << line;
  }
  return m;
}

std::unique_ptr<wire::AnyMatch> stand_training(int lines) {
  auto m = make(source_dir() + "/scenarios/stand/training.json", "client-test-stand");
  if (!m) return nullptr;
  // The roll-off: A rolls 6, B 1; B deploys first, A moves first. Then fractions roll 3s.
  m->force_rolls({6, 1, 3, 3, 3, 3, 3, 3});
  m->seat(rules::Side::kA, "entropy of A");
  m->seat(rules::Side::kB, "entropy of B");
  for (const auto& line :
       lines_of(source_dir() + "/tests/client/data/stand_training.jsonl", lines)) {
    const std::string refused = play_line(*m, line);
    EXPECT_EQ(refused, "") << line;
  }
  return m;
}

std::string offline_view(const wire::AnyMatch& m, std::optional<rules::Side> player,
                         std::uint32_t spectator_delay_turns, const std::string& scenario) {
  pbu::JsonPrintOptions o;
  o.preserve_proto_field_names = true;
  const rules::Viewer viewer = player ? rules::viewer_of(*player) : rules::Viewer::kSpectator;
  std::string out;
  std::string json;

  v1::Subscribed sub;
  auto* s = sub.mutable_match();
  s->set_match_id(m.id());
  s->set_ruleset(m.ruleset());
  s->set_scenario(scenario.empty() ? m.ruleset() + "/training" : scenario);
  s->set_status(v1::MATCH_LIVE);
  s->set_player_a("alice");
  s->set_player_b("bob");
  s->set_dice_commitment(match::to_hex(m.dice_commitment()));
  sub.set_role(player ? v1::ROLE_PLAYER : v1::ROLE_SPECTATOR);
  if (player) sub.set_side(wire::side_to_proto(*player));
  sub.set_spectator_delay_turns(spectator_delay_turns);
  (void)pbu::MessageToJsonString(sub, &json, o);
  out += json + "\n";

  // The history, then the snapshot with the last command's events (the board marks those).
  const auto events = m.events_for(viewer, 0);
  const std::uint64_t last_first =
      m.entry_count() > 0 ? m.log_entry(m.entry_count() - 1).first_event() : 0;
  v1::MatchUpdate history;
  history.set_match_id(m.id());
  v1::MatchUpdate now;
  now.set_match_id(m.id());
  for (const auto& e : events)
    *(e.number() < last_first ? history.add_events() : now.add_events()) = e;
  json.clear();
  (void)pbu::MessageToJsonString(history, &json, o);
  out += json + "\n";
  *now.mutable_snapshot() = m.snapshot(viewer);
  if (player && m.acting().must_act(*player)) {
    *now.mutable_legal() = m.legal(*player);
    now.set_your_move(true);
  }
  now.set_spectator_delay_turns(spectator_delay_turns);
  if (m.outcome()) {
    if (auto record = m.record()) *now.mutable_record() = *record;
  }
  json.clear();
  (void)pbu::MessageToJsonString(now, &json, o);
  return out + json + "\n";
}

bool ScriptWriter::run(const std::string& steps, std::chrono::seconds timeout,
                       const std::string& dir) {
  const std::string ack = "ack " + std::to_string(++acks_);
  append(steps + "print " + ack + "\n");
  return wait_for_line(dir, ack, timeout);
}

void ScriptWriter::append(const std::string& steps) {
  std::ofstream out(path_, std::ios::app);
  out << steps;
}

bool ScriptWriter::wait_for_line(const std::string& dir, const std::string& line,
                                 std::chrono::seconds timeout) {
  // The client prints to a file: there is nothing to wait on but the file itself.
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    if (read_file(dir + "/client.log").find(line + "\n") != std::string::npos) return true;
    std::this_thread::sleep_for(50ms);
  }
  return false;
}

const v1::Snapshot* view_of(const v1::MatchUpdate& u) {
  if (u.has_snapshot()) return &u.snapshot();
  if (u.has_status()) return &u.status();
  return nullptr;
}

std::string cell(const v1::Coord& c) {
  return std::to_string(c.col()) + " " + std::to_string(c.row());
}

const char* troop_label(int troop_type) {
  switch (troop_type) {
    case v1::stand::TROOP_INFANTRY:
      return "Infantry";
    case v1::stand::TROOP_ARCHERS:
      return "Archers";
    case v1::stand::TROOP_CAVALRY:
      return "Cavalry";
    default:
      return "Chariots";
  }
}

v1::CampaignView campaign_fixture(std::chrono::seconds deadline_in) {
  v1::CampaignView view;
  const std::string path = source_dir() + "/tests/client/data/campaign_optio_selecting.json";
  EXPECT_TRUE(pbu::JsonStringToMessage(read_file(path), &view).ok()) << path;
  const auto deadline = std::chrono::system_clock::now() + deadline_in;
  view.mutable_summary()->set_deadline_ms(
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline.time_since_epoch()).count());
  return view;
}

std::string json_line(const google::protobuf::Message& m) {
  pbu::JsonPrintOptions o;
  o.preserve_proto_field_names = true;
  std::string json;
  EXPECT_TRUE(pbu::MessageToJsonString(m, &json, o).ok());
  return json + "\n";
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<v1::SubmitCommand> read_commands(const std::string& path) {
  std::vector<v1::SubmitCommand> out;
  std::istringstream in(read_file(path));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    v1::SubmitCommand c;
    EXPECT_TRUE(pbu::JsonStringToMessage(line, &c).ok()) << line;
    out.push_back(c);
  }
  return out;
}

OfflineRun run_offline(const std::string& name, const std::string& view, const std::string& script,
                       const std::vector<std::string>& extra) {
  OfflineRun r;
  r.dir = make_temp_dir("castra-client-" + name);
  write_file(r.dir + "/view.jsonl", view);
  write_file(r.dir + "/script.txt", script);
  std::vector<std::string> args = {
      "--snapshot", r.dir + "/view.jsonl", "--commands-out", r.dir + "/commands.jsonl",
      "--script",   r.dir + "/script.txt", "--exit-after",   "100"};
  args.insert(args.end(), extra.begin(), extra.end());
  r.exit_code = run_client(r.dir, args);
  return r;
}

}  // namespace castra::testing
