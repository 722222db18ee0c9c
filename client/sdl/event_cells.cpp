#include "client/sdl/event_cells.hpp"

#include <algorithm>
#include <string>

#include "client/sdl/optio_board.hpp"

namespace castra::client {

namespace {

namespace pb = google::protobuf;

// Optio's events name units and leaders by number; these fields do.
bool names_unit(const std::string& field) {
  return field == "unit" || field == "shooter" || field == "target" || field == "a" ||
         field == "b" || field == "to_unit" || field == "from_unit";
}

struct Finder {
  const v1::optio::State* optio = nullptr;
  std::vector<Cell> cells;

  void add(int col, int row) {
    const Cell c{col, row};
    if (std::find(cells.begin(), cells.end(), c) == cells.end()) cells.push_back(c);
  }
  void add_unit(int id) {
    if (optio == nullptr || id <= 0) return;
    const auto* u = optio_unit(*optio, id);
    if (u != nullptr && u->placed()) add(u->at().col(), u->at().row());
  }
  void add_leader(int id) {
    if (optio == nullptr) return;
    for (const auto& l : optio->leaders())
      if (l.id() == id) add_unit(l.unit());
  }

  // Every Coord in the message, however deep, in field order; Optio's numbered pieces too.
  // Reflection, so that an event kind added to the protos is located without a change here.
  void walk(const pb::Message& m) {
    if (const auto* c = dynamic_cast<const v1::Coord*>(&m)) return add(c->col(), c->row());
    const auto* d = m.GetDescriptor();
    const auto* r = m.GetReflection();
    for (int i = 0; i < d->field_count(); ++i) {
      const auto* f = d->field(i);
      if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
        if (f->is_repeated()) {
          for (int k = 0; k < r->FieldSize(m, f); ++k)
            walk(r->GetRepeatedMessage(m, f, k));
        } else if (r->HasField(m, f)) {
          walk(r->GetMessage(m, f));
        }
      } else if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_INT32 && !f->is_repeated()) {
        if (names_unit(f->name())) add_unit(r->GetInt32(m, f));
        if (f->name() == "leader") add_leader(r->GetInt32(m, f));
      }
    }
  }
};

}  // namespace

std::vector<Cell> event_cells(const v1::ViewEvent& e, const v1::Snapshot* shown) {
  if (!e.has_event()) return {};
  Finder f;
  if (e.event().has_optio() && shown != nullptr && shown->state().has_optio())
    f.optio = &shown->state().optio();
  f.walk(e.event());
  return f.cells;
}

}  // namespace castra::client
