#include "common/rules/stand/hex.hpp"

namespace castra::rules::stand {

std::string to_string(Hex h) {
  return "(" + std::to_string(h.col) + "," + std::to_string(h.row) + ")";
}

}  // namespace castra::rules::stand
