#include "server/admin/admin_commands.hpp"

#include <spdlog/spdlog.h>

#include <sstream>
#include <vector>

namespace castra::admin {

namespace {

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;)
    words.push_back(w);
  return words;
}

std::string rest_of(const std::vector<std::string>& words, std::size_t from) {
  std::string out;
  for (std::size_t i = from; i < words.size(); ++i)
    out += (out.empty() ? "" : " ") + words[i];
  return out;
}

constexpr const char* kHelp =
    "ok commands\n"
    "connections                 list open WebSocket connections\n"
    "ban NAME [REASON...]        ban an account and disconnect it\n"
    "unban NAME                  lift a ban\n"
    "end-match ID [REASON...]    end a match without an outcome\n"
    "test-reminder NAME          send the account a test reminder (its webhook, its e-mail)\n"
    "help                        this list\n";

const char* identity_text(dispatch::Identity identity) {
  switch (identity) {
    case dispatch::Identity::kNone:
      return "none";
    case dispatch::Identity::kGuest:
      return "guest";
    case dispatch::Identity::kAccount:
      return "account";
  }
  return "none";
}

}  // namespace

void AdminCommands::run(const std::string& line, std::function<void(std::string)> reply) {
  const auto words = words_of(line);
  if (words.empty() || words[0] == "help") return reply(kHelp);
  const std::string& command = words[0];
  spdlog::info("event=admin_command command=\"{}\"", line.substr(0, 200));

  if (command == "connections") {
    std::ostringstream out;
    out << "ok connections=" << clients_.size() << "\n";
    for (const auto& [id, c] : clients_.all()) {
      out << "id=" << id << " address=" << c.address << " tls=" << (c.secure ? "on" : "off")
          << " identity=" << identity_text(c.identity)
          << " name=" << (c.name.empty() ? "-" : c.name) << " account=" << c.account_id
          << " since_ms=" << c.connected_ms << " rooms=" << c.rooms.size() << " client=\""
          << c.client_name << "\"\n";
    }
    return reply(out.str());
  }
  if ((command == "ban" || command == "unban") && words.size() >= 2) {
    const bool ban = command == "ban";
    const std::string reason = ban ? rest_of(words, 2) : "";
    return accounts_.set_banned(
        words[1], ban, reason.empty() && ban ? "banned" : reason,
        [this, ban, command, reply](server::Result<accounts::Account> account) {
          if (!account) return reply("error " + account.failure().message + "\n");
          int closed = 0;
          if (ban) {
            closed = handlers_.disconnect_account(account->id, v1::ERROR_ACCOUNT_BANNED,
                                                  "this account is banned: " + account->ban_reason);
          }
          spdlog::warn("event=account_{} account={} name={} connections_closed={}", command,
                       account->id, account->name, closed);
          reply("ok " + command + " name=" + account->name +
                " account=" + std::to_string(account->id) +
                " connections_closed=" + std::to_string(closed) + "\n");
        });
  }
  if (command == "end-match" && words.size() >= 2) {
    std::string reason = rest_of(words, 2);
    if (reason.empty()) reason = "ended by an operator";
    return lobby_.end_by_operator(
        words[1], reason, [this, reason, reply](server::Result<store::MatchRow> row) {
          if (!row) return reply("error " + row.failure().message + "\n");
          handlers_.announce_closed(*row, reason);
          reply("ok end-match match=" + row->id +
                " status=" + std::string(store::status_name(row->status)) + "\n");
        });
  }
  if (command == "test-reminder" && words.size() >= 2) {
    const auto account = accounts_.find(words[1]);
    if (!account) return reply("error no account " + words[1] + "\n");
    // A deadline of now: each test is a reminder of its own, never a duplicate.
    notify::Reminder reminder{account->id,
                              "test",
                              "Castra: a test reminder",
                              "This is a test of your Castra reminders, sent by the server's "
                              "operator. Deadline reminders will come here.",
                              "",
                              clock_.now_ms()};
    const auto admission = notifier_.remind(std::move(reminder));
    if (admission == notify::Notifier::Admission::kDropped) {
      return reply("error the reminder queue is full; try again\n");
    }
    return reply("ok test-reminder name=" + account->name +
                 " account=" + std::to_string(account->id) +
                 " email=" + (notifier_.mail_enabled() ? "on" : "off") + "\n");
  }
  reply("error unknown command or missing argument; try help\n");
}

}  // namespace castra::admin
