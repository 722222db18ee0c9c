#include "server/computer/computer_player.hpp"

#include <spdlog/spdlog.h>

#include <utility>

#include "common/wire/any_match.hpp"

namespace castra::computer {

namespace {

// A pick the match refuses is tried again this often in a row (a random brain may pick
// better next time, and a race with the other side's command passes), then the computer waits
// for the next update. A closed match or a failed store is not tried again.
constexpr int kMaxRefusals = 5;

bool ended(const v1::MatchUpdate& u) {
  return u.has_record() || (u.has_snapshot() && u.snapshot().ended());
}

}  // namespace

ComputerPlayer::ComputerPlayer(std::shared_ptr<runtime::MatchHost> host, rules::Side side,
                               bot::Brain brain, Context context)
    : host_(std::move(host)), side_(side), brain_(std::move(brain)), context_(std::move(context)) {}

void ComputerPlayer::start() {
  // Above every sequence number used before a restart: each accepted command added an entry.
  next_seq_ = std::int64_t{host_->seen()->entries} + 1;
  host_->set_connected(side_, true);
  host_->subscribe(rules::viewer_of(side_), std::nullopt, shared_from_this());
}

void ComputerPlayer::stop() {
  {
    std::lock_guard lock(mu_);
    if (stopped_) return;
    stopped_ = true;
  }
  host_->unsubscribe(shared_from_this());
  host_->set_connected(side_, false);
}

void ComputerPlayer::leave() {
  {
    std::lock_guard lock(mu_);
    finished_ = true;
  }
  stop();
}

bool ComputerPlayer::finished() const {
  std::lock_guard lock(mu_);
  return finished_;
}

void ComputerPlayer::retry() {
  std::lock_guard lock(mu_);
  if (!std::exchange(deferred_, false)) return;
  wake();
}

void ComputerPlayer::on_update(const runtime::Update& u) {
  const v1::MatchUpdate& update = *u.message;
  if (ended(update)) return leave();
  std::lock_guard lock(mu_);
  // The inputs are what the side is sent: the board of its latest update, and its legal list.
  if (update.has_snapshot()) view_ = update.snapshot();
  if (update.your_move()) {
    legal_ = update.legal();
    move_owed_ = true;
  }
  if (update.draw_offered() && update.draw_offered_by() != wire::side_to_proto(side_)) {
    decline_owed_ = true;
  }
  wake();
}

void ComputerPlayer::wake() {
  if (busy_ || stopped_ || (!move_owed_ && !decline_owed_)) return;
  busy_ = true;
  if (!context_.schedule([self = shared_from_this()] { self->work(); })) {
    busy_ = false;
    deferred_ = true;
    spdlog::warn("event=computer_queue_full match={}", host_->id());
  }
}

void ComputerPlayer::idle() {
  std::lock_guard lock(mu_);
  busy_ = false;
  wake();
}

void ComputerPlayer::work() {
  bool move = false;
  bool decline = false;
  v1::Snapshot view;
  v1::GameLegal legal;
  {
    std::lock_guard lock(mu_);
    if (stopped_) {
      busy_ = false;
      return;
    }
    move = std::exchange(move_owed_, false);
    decline = std::exchange(decline_owed_, false);
    view = view_;
    legal = legal_;
  }
  // An offer withdrawn meanwhile leaves nothing to decline: the refusal is of no interest.
  if (decline) host_->decline_draw(side_, [](runtime::Answer<runtime::Done>) {});
  if (!move || host_->seen()->ended) return idle();

  // Exactly what this side's player is sent, and nothing more.
  if (context_.tap) context_.tap(host_->id(), side_, view, legal);
  const auto command = brain_.pick(view, legal, side_);
  if (!command) {
    spdlog::warn("event=computer_has_no_move match={} side={} phase={}", host_->id(),
                 rules::side_letter(side_), view.phase());
    return idle();
  }
  match::Bytes32 salt{};
  context_.random(salt);  // used only if the command seals something, as for any player
  host_->submit(
      side_, next_seq_++, *command, salt, nullptr,
      [self = shared_from_this()](runtime::Answer<runtime::Submitted> a) { self->submitted(a); });
}

void ComputerPlayer::submitted(const runtime::Answer<runtime::Submitted>& answer) {
  std::lock_guard lock(mu_);
  busy_ = false;
  if (answer.ok()) {
    refusals_ = 0;
  } else if (const auto* refusal = answer.refusal()) {
    spdlog::warn("event=computer_command_refused match={} side={} rule={} error=\"{}\"",
                 host_->id(), rules::side_letter(side_), refusal->rule, refusal->message);
    // A closed match takes no more commands; another refusal may pass with another pick.
    if (++refusals_ < kMaxRefusals && refusal->rule != "match.closed") move_owed_ = true;
  }
  // A store that failed closed the match: nothing to try again.
  wake();
}

}  // namespace castra::computer
