#include "common/campaign/commitment.hpp"

#include "common/campaign/selection.hpp"
#include "common/rules/canonical.hpp"

namespace castra::campaign {

std::string selection_bytes(const Selection& s) {
  const Selection n = normalized(s);
  rules::ByteWriter w;
  w.u32(static_cast<std::uint32_t>(n.units.size()));
  for (int id : n.units)
    w.i32(id);
  w.u32(static_cast<std::uint32_t>(n.leaders.size()));
  for (int id : n.leaders)
    w.i32(id);
  for (stand::Troop t : stand::kAllTroops)
    w.i32(n.figures[t]);
  return w.take();
}

match::Bytes32 selection_commitment(std::string_view campaign_id, std::string_view node,
                                    rules::Side side, const Selection& s,
                                    const match::Bytes32& salt) {
  rules::ByteWriter w;
  for (char c : std::string_view("castra/selection/v1"))
    w.tag(c);
  w.str(campaign_id);
  w.str(node);
  w.u8(static_cast<std::uint8_t>(rules::index(side)));
  std::string bytes = w.take();
  bytes += selection_bytes(s);
  bytes += match::as_view(salt);
  return match::sha256(bytes);
}

}  // namespace castra::campaign
