#include "tools/load/idle_load.hpp"

#include "tools/load/report.hpp"

namespace castra::load {

IdleLoad::IdleLoad(Net& net, IdleOptions options, pid_t server_pid)
    : net_(net),
      options_(std::move(options)),
      server_pid_(server_pid),
      register_gate_(options_.register_concurrency),
      gate_(options_.concurrency) {}

void IdleLoad::failed(const std::string& error) {
  ++result_.errors;
  if (result_.first_error.empty()) result_.first_error = error;
}

void IdleLoad::run(std::function<void(const IdleResult&)> done) {
  done_ = std::move(done);
  result_.rss_before_kib = rss_kib(server_pid_);
  open_all();
}

void IdleLoad::open_all() {
  const auto n = static_cast<std::size_t>(options_.connections);
  tokens_.assign(n, "");
  remaining_ = n;
  phase_start_ = Clock::now();
  for (std::size_t i = 0; i < n; ++i) {
    peers_.push_back(std::make_unique<Peer>(net_.ioc));
    Peer& p = *peers_.back();
    register_gate_.run([this, &p, i](std::function<void()> done) {
      open_registered(net_, p, options_.prefix + "i" + std::to_string(i),
                      [this, i, done](const std::string& error, const std::string& token) {
                        done();
                        if (!error.empty()) failed(error);
                        tokens_[i] = token;
                        if (--remaining_ > 0) return;
                        result_.register_seconds =
                            std::chrono::duration<double>(Clock::now() - phase_start_).count();
                        // Let the server settle (its queues drained) before reading its memory.
                        after(net_.ioc, std::chrono::seconds(1), [this] {
                          result_.rss_idle_kib = rss_kib(server_pid_);
                          resume_all();
                        });
                      });
    });
  }
}

void IdleLoad::resume_all() {
  for (auto& p : peers_)
    p->close();
  peers_.clear();
  remaining_ = tokens_.size();
  phase_start_ = Clock::now();
  for (const auto& token : tokens_) {
    peers_.push_back(std::make_unique<Peer>(net_.ioc));
    Peer& p = *peers_.back();
    gate_.run([this, &p, token](std::function<void()> done) {
      const auto began = Clock::now();
      open_resumed(net_, p, token, [this, began, done](const std::string& error) {
        done();
        if (!error.empty()) failed(error);
        result_.resume.record(
            std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - began).count());
        if (--remaining_ > 0) return;
        result_.resume_seconds = std::chrono::duration<double>(Clock::now() - phase_start_).count();
        std::exchange(done_, nullptr)(result_);
      });
    });
  }
}

}  // namespace castra::load
