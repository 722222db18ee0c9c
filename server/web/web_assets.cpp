#include "server/web/web_assets.hpp"

#include <algorithm>

namespace castra::web {

namespace {

// What the browser is told to cache: every answer may be kept but must be revalidated (the
// asset names carry no version, so a long max-age would show an old page after an upgrade);
// the revalidation is a 304 of a few bytes thanks to the strong ETag.
constexpr const char* kCacheControl = "public, no-cache";
// The pages load only their own scripts and styles and talk only to this server.
constexpr const char* kContentSecurity =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; base-uri 'none'; frame-ancestors 'none'";

std::string_view content_type_of(std::string_view name) {
  if (name.ends_with(".html")) return "text/html; charset=utf-8";
  if (name.ends_with(".css")) return "text/css; charset=utf-8";
  if (name.ends_with(".js")) return "text/javascript; charset=utf-8";
  return "application/octet-stream";
}

const Asset* find_asset(std::string_view name) {
  for (const Asset& a : embedded_assets())
    if (a.name == name) return &a;
  return nullptr;
}

// Match and campaign ids are short tokens; anything else in the path is not a page.
bool is_id(std::string_view s) {
  return !s.empty() && s.size() <= 64 && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
  });
}

// The asset file a path names, or empty.
std::string_view asset_name_of(std::string_view path) {
  if (path == "/") return "index.html";
  if (path.starts_with("/watch/") && is_id(path.substr(7))) return "watch.html";
  if (path.starts_with("/campaign/") && is_id(path.substr(10))) return "campaign.html";
  if (path.starts_with("/assets/")) {
    const std::string_view name = path.substr(8);
    if (!name.ends_with(".html") && name.find('/') == std::string_view::npos) return name;
  }
  return {};
}

// RFC 9110 13.1.2: a list of entity tags, or "*".
bool matches(std::string_view if_none_match, std::string_view etag) {
  if (if_none_match == "*") return true;
  std::size_t at = 0;
  while ((at = if_none_match.find(etag, at)) != std::string_view::npos) {
    const bool weak = at >= 2 && if_none_match.substr(at - 2, 2) == "W/";
    if (!weak) return true;
    at += etag.size();
  }
  return false;
}

}  // namespace

std::optional<net::HttpAnswer> answer(const net::HttpRequest& request) {
  const std::string_view target = request.target;
  const std::string_view path = target.substr(0, target.find('?'));
  const std::string_view name = asset_name_of(path);
  if (name.empty()) return std::nullopt;
  const Asset* asset = find_asset(name);
  if (asset == nullptr) return std::nullopt;
  net::HttpAnswer out;
  out.headers = {{"ETag", std::string(asset->etag)},
                 {"Cache-Control", kCacheControl},
                 {"X-Content-Type-Options", "nosniff"}};
  if (name.ends_with(".html")) {
    out.headers.emplace_back("Content-Security-Policy", kContentSecurity);
    out.headers.emplace_back("Referrer-Policy", "no-referrer");  // the link may hold a code
  }
  out.content_type = std::string(content_type_of(name));
  if (matches(request.if_none_match, asset->etag)) {
    out.status = 304;
    out.body.clear();
    return out;
  }
  out.status = 200;
  out.body = std::string(asset->body);
  return out;
}

}  // namespace castra::web
