// Computers: the server's computer opponents. A match whose settings name a computer
// (MatchSettings.computer) gets one ComputerPlayer on the side its creator leaves free, seated
// at once with its own dice entropy and no account; after a restart it plays on in every
// unfinished match that names one. They think on a small pool of threads with a bounded queue
// (a pick the full queue refuses is offered again by tick()). Thread-safe.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "server/base/task_queue.hpp"
#include "server/computer/computer_player.hpp"
#include "server/runtime/runtime.hpp"

namespace castra::computer {

struct ComputerOptions {
  int threads = 1;           // the pool's threads
  std::size_t queue = 1024;  // picks waiting for a thread
  RandomBytes random;        // dice entropy, brain seeds, command salts; empty: the OS CSPRNG
  Tap tap;                   // sees every input a computer is given; empty: none
};

class Computers {
 public:
  explicit Computers(ComputerOptions options = {});
  ~Computers();  // stop()
  Computers(const Computers&) = delete;
  Computers& operator=(const Computers&) = delete;

  // If `host`'s settings name a computer: seats it on the side the creator leaves free (unless
  // it sat there before a restart) and starts it playing. Nothing for other matches.
  void play(const std::shared_ptr<runtime::MatchHost>& host);
  // After Runtime::recover: plays on in every unfinished match that names a computer. Returns
  // how many.
  std::size_t resume(runtime::Runtime& runtime);
  // Offers the pool the picks its full queue refused, and forgets ended matches. The server
  // calls it with the runtime's tick.
  void tick();
  // Matches a computer plays now.
  std::size_t playing() const;
  // Every computer leaves its match, and the pool finishes what it was doing.
  void stop();

 private:
  ComputerOptions options_;
  server::TaskQueue pool_;
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<ComputerPlayer>> players_;
  bool stopped_ = false;
};

}  // namespace castra::computer
