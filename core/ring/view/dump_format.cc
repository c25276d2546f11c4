#include "core/ring/view/dump_format.h"

#include "core/base/ocaml_quoted.h"

namespace mpo::ring {

using view::EventKind;
using view::RingEvent;

namespace {

// The kind column: the view's kind name, except that OCaml's callback for both ends of a
// user span is one, `user_span`, with the end in the last column.
std::string_view KindColumn(EventKind kind) {
  if (kind == EventKind::kUserSpanBegin || kind == EventKind::kUserSpanEnd) return "user_span";
  return view::KindName(kind);
}

}  // namespace

void GoldenLineWriter::Prefix(const RingEvent& e) {
  text_ += std::to_string(e.ring);
  text_ += ' ';
  // Lost events carry no timestamp: no ts column.
  if (e.kind != EventKind::kLostEvents) {
    // OCaml prints Timestamp.to_int64 with %Ld.
    text_ += std::to_string(static_cast<std::int64_t>(e.ts));
    text_ += ' ';
  }
  text_ += KindColumn(e.kind);
  text_ += ' ';
}

void GoldenLineWriter::NameAndTag(std::string_view name) {
  text_ += name;
  text_ += ' ';
  auto it = tags_.find(std::string(name));
  text_ += it == tags_.end() ? std::string_view("UNK") : std::string_view(it->second);
}

bool GoldenLineWriter::OnEvent(const RingEvent& e) {
  Prefix(e);
  switch (e.kind) {
    case EventKind::kBegin:
    case EventKind::kEnd:
      text_ += e.name;
      text_ += " #" + std::to_string(e.id);
      break;
    case EventKind::kCounter:
      text_ += e.name;
      text_ += " #" + std::to_string(e.id) + " " + std::to_string(OcamlIntOfPayload(e.value));
      break;
    case EventKind::kAlloc:
      text_ += '[';
      for (std::size_t i = 0; i < e.buckets.size(); ++i) {
        if (i) text_ += ';';
        text_ += std::to_string(OcamlIntOfPayload(e.buckets[i]));
      }
      text_ += ']';
      break;
    case EventKind::kLifecycle:
      text_ += e.name;
      text_ += " #" + std::to_string(e.id) + " ";
      // OCaml's binding turns a payload of 0 into None.
      text_ += e.data == 0 ? std::string("none")
                           : std::to_string(OcamlIntOfPayload(static_cast<std::uint64_t>(e.data)));
      break;
    case EventKind::kLostEvents:  // a C int in OCaml 5.3: may be negative
      text_ += std::to_string(static_cast<std::int64_t>(e.value));
      break;
    case EventKind::kUserUnit: NameAndTag(e.name); break;
    case EventKind::kUserInt:
      NameAndTag(e.name);
      text_ += ' ' + std::to_string(e.OcamlInt());
      break;
    case EventKind::kUserSpanBegin:
    case EventKind::kUserSpanEnd:
      NameAndTag(e.name);
      text_ += e.kind == EventKind::kUserSpanBegin ? " begin" : " end";
      break;
    case EventKind::kUserCustom:
      NameAndTag(e.name);
      text_ += ' ' + OcamlQuoted(e.payload);
      break;
  }
  text_ += '\n';
  return true;
}

}  // namespace mpo::ring
