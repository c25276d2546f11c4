#include "core/ring/dump_format.h"

#include "core/base/ocaml_quoted.h"

namespace mpo::ring {

using view::EventKind;
using view::RingEvent;

void GoldenLineWriter::Prefix(const RingEvent& e, std::string_view kind) {
  text_ += std::to_string(e.ring);
  text_ += ' ';
  // OCaml prints Timestamp.to_int64 with %Ld.
  text_ += std::to_string(static_cast<std::int64_t>(e.ts));
  text_ += ' ';
  text_ += kind;
  text_ += ' ';
}

void GoldenLineWriter::NameAndTag(std::string_view name) {
  text_ += name;
  text_ += ' ';
  auto it = tags_.find(std::string(name));
  text_ += it == tags_.end() ? std::string_view("UNK") : std::string_view(it->second);
}

bool GoldenLineWriter::OnEvent(const RingEvent& e) {
  switch (e.kind) {
    case EventKind::kBegin:
    case EventKind::kEnd:
      Prefix(e, view::KindName(e.kind));
      text_ += e.name;
      text_ += " #" + std::to_string(e.id);
      break;
    case EventKind::kCounter:
      Prefix(e, "counter");
      text_ += e.name;
      text_ += " #" + std::to_string(e.id) + " " + std::to_string(OcamlIntOfPayload(e.value));
      break;
    case EventKind::kAlloc:
      Prefix(e, "alloc");
      text_ += '[';
      for (std::size_t i = 0; i < e.buckets.size(); ++i) {
        if (i) text_ += ';';
        text_ += std::to_string(OcamlIntOfPayload(e.buckets[i]));
      }
      text_ += ']';
      break;
    case EventKind::kLifecycle:
      Prefix(e, "lifecycle");
      text_ += e.name;
      text_ += " #" + std::to_string(e.id) + " ";
      // OCaml's binding turns a payload of 0 into None.
      text_ += e.data == 0 ? std::string("none")
                           : std::to_string(OcamlIntOfPayload(static_cast<std::uint64_t>(e.data)));
      break;
    case EventKind::kLostEvents:
      // Lost events carry no timestamp: no ts column.
      text_ += std::to_string(e.ring) + " lost_events " + std::to_string(e.value);
      break;
    case EventKind::kUserUnit:
      Prefix(e, "user_unit");
      NameAndTag(e.name);
      break;
    case EventKind::kUserInt:
      Prefix(e, "user_int");
      NameAndTag(e.name);
      text_ += ' ' + std::to_string(e.OcamlInt());
      break;
    case EventKind::kUserSpanBegin:
    case EventKind::kUserSpanEnd:
      // One OCaml callback for both ends of a span, with the end as its last column.
      Prefix(e, "user_span");
      NameAndTag(e.name);
      text_ += e.kind == EventKind::kUserSpanBegin ? " begin" : " end";
      break;
    case EventKind::kUserCustom:
      Prefix(e, "user_custom");
      NameAndTag(e.name);
      text_ += ' ' + OcamlQuoted(e.payload);
      break;
  }
  text_ += '\n';
  return true;
}

}  // namespace mpo::ring
