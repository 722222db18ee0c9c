#include "server/computer/computer_player.hpp"

#include <spdlog/spdlog.h>

#include <utility>

#include "common/wire/any_match.hpp"

namespace castra::computer {

namespace {

// A pick the match refuses is tried again this often in a row (a random brain may pick
// better next time), then the computer waits for the next update.
constexpr int kMaxRefusals = 5;

bool ended(const v1::MatchUpdate& u) {
  return u.has_record() || (u.has_status() && u.status().ended()) ||
         (u.has_snapshot() && u.snapshot().ended());
}

}  // namespace

ComputerPlayer::ComputerPlayer(std::shared_ptr<runtime::MatchHost> host, rules::Side side,
                               bot::Brain brain, Context context)
    : host_(std::move(host)), side_(side), brain_(std::move(brain)), context_(std::move(context)) {}

void ComputerPlayer::start() {
  // Above every sequence number used before a restart: each accepted command added an entry.
  next_seq_ = std::int64_t{host_->snapshot(rules::viewer_of(side_)).entry_count()} + 1;
  host_->set_connected(side_, true);
  host_->subscribe(rules::viewer_of(side_), std::nullopt, shared_from_this());
}

void ComputerPlayer::stop() {
  {
    std::lock_guard lock(mu_);
    if (stopped_) return;
    stopped_ = true;
  }
  host_->unsubscribe(this);
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

void ComputerPlayer::on_update(const v1::MatchUpdate& update) {
  if (ended(update)) return leave();
  std::lock_guard lock(mu_);
  if (update.your_move()) move_owed_ = true;
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
  {
    std::lock_guard lock(mu_);
    if (stopped_) {
      busy_ = false;
      return;
    }
    move = std::exchange(move_owed_, false);
    decline = std::exchange(decline_owed_, false);
  }
  // An offer withdrawn meanwhile leaves nothing to decline: the refusal is of no interest.
  if (decline) host_->decline_draw(side_, [](std::optional<rules::RuleError>) {});
  if (!move || host_->ended() || !host_->acting().must_act(side_)) return idle();

  // Exactly what this side's player is sent, and nothing more.
  const v1::Snapshot view = host_->snapshot(rules::viewer_of(side_));
  const v1::GameLegal legal = host_->legal(side_);
  if (context_.tap) context_.tap(host_->id(), side_, view, legal);
  const auto command = brain_.pick(view, legal, side_);
  if (!command) {
    spdlog::warn("event=computer_has_no_move match={} side={} phase={}", host_->id(),
                 rules::side_letter(side_), view.phase());
    return idle();
  }
  match::Bytes32 salt{};
  context_.random(salt);  // used only if the command seals something, as for any player
  host_->submit(side_, next_seq_++, *command, salt,
                [self = shared_from_this()](v1::CommandResult r) { self->submitted(r); });
}

void ComputerPlayer::submitted(const v1::CommandResult& result) {
  std::lock_guard lock(mu_);
  busy_ = false;
  if (result.accepted()) {
    refusals_ = 0;
  } else {
    spdlog::warn("event=computer_command_refused match={} side={} rule={} error=\"{}\"",
                 host_->id(), rules::side_letter(side_), result.error().rule(),
                 result.error().message());
    if (++refusals_ < kMaxRefusals) move_owed_ = true;
  }
  wake();
}

}  // namespace castra::computer
