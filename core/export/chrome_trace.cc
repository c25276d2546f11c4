#include "core/export/chrome_trace.h"

#include "core/base/ocaml_quoted.h"

namespace mpo::exporter {

using Kind = ring::view::EventKind;
using ring::view::KindName;

namespace {

std::string DomainName(std::uint32_t ring) { return "domain " + std::to_string(ring); }

// The args of an instant: the event as `events dump --json` printed it before schema 2,
// without ring and ts (the instant has them).
nlohmann::json InstantArgs(const RingEvent& e) {
  nlohmann::json j;
  j["kind"] = KindName(e.kind);
  if (e.kind == Kind::kLostEvents) {
    j["words"] = e.value;
    return j;
  }
  j["name"] = std::string(e.name);
  j["id"] = e.id;
  switch (e.kind) {
    case Kind::kLifecycle:
      if (e.data != 0) {
        j["data"] = e.data;
      } else {
        j["data"] = nullptr;
      }
      break;
    case Kind::kAlloc: {
      std::vector<std::int64_t> buckets;
      buckets.reserve(e.buckets.size());
      for (const std::uint64_t b : e.buckets) buckets.push_back(ring::OcamlIntOfPayload(b));
      j["buckets"] = buckets;
      break;
    }
    case Kind::kUserCustom: {
      // Bytes, not text: OCaml's escaping (%S without the quotes) keeps them ASCII.
      const std::string quoted = OcamlQuoted(e.payload);
      j["payload"] = quoted.substr(1, quoted.size() - 2);
      break;
    }
    default: break;
  }
  return j;
}

std::string_view SpanCategory(Kind k) {
  return k == Kind::kUserSpanBegin || k == Kind::kUserSpanEnd ? "user" : "runtime";
}

// The trace event of one timeline item (not kThread).
nlohmann::json ChromeEvent(const TimelineItem& item, std::uint64_t origin, std::int64_t pid) {
  const RingEvent& e = item.event;
  const double us = static_cast<double>(item.ts >= origin ? item.ts - origin : 0) / 1000.0;
  nlohmann::json j = {{"pid", pid}, {"tid", e.ring}, {"ts", us}, {"name", std::string(e.name)}};
  switch (item.kind) {
    case TimelineKind::kBegin:
      j["ph"] = "B";
      j["cat"] = SpanCategory(e.kind);
      break;
    case TimelineKind::kEnd:
      j["ph"] = "E";
      j["cat"] = SpanCategory(e.kind);
      break;
    case TimelineKind::kCounter:
      j["ph"] = "C";
      if (e.kind == Kind::kUserInt) j["cat"] = "user";
      j["name"] = std::string(e.name) + " (" + DomainName(e.ring) + ")";
      j["args"] = {{"value", ring::OcamlIntOfPayload(e.value)}};
      break;
    default:
      j["ph"] = "i";
      j["s"] = "t";
      j["cat"] = KindName(e.kind);
      j["args"] = InstantArgs(e);
      break;
  }
  if (item.note != TimelineNote::kNone) {
    j["args"]["note"] = TimelineNoteText(item.note);
  }
  return j;
}

nlohmann::json Metadata(std::string_view name, std::int64_t pid, nlohmann::json args) {
  return {{"ph", "M"}, {"name", name}, {"pid", pid}, {"args", std::move(args)}};
}

// The document's one key, around the event array.
constexpr std::string_view kDocumentOpen = R"({"traceEvents":[)";
constexpr std::string_view kDocumentClose = "]}";

}  // namespace

nlohmann::json ChromeTrace(const std::vector<RingEvent>& events, std::int64_t pid) {
  ChromeTraceScan scan;
  for (const RingEvent& e : events) scan.Add(e);
  std::string text;
  ChromeTraceWriter writer(scan.origin(), scan.pid(pid), [&](std::string_view t) { text += t; });
  for (const RingEvent& e : events) writer.Add(e);
  writer.Finish();
  // The writer already replaced bytes that are not UTF-8.
  return nlohmann::json::parse(text);
}

void ChromeTraceScan::Add(const RingEvent& e) {
  if (e.kind != Kind::kLostEvents && (!has_origin_ || e.ts < origin_)) {
    origin_ = e.ts;
    has_origin_ = true;
  }
  if (pid_ <= 0 && e.kind == Kind::kLifecycle && e.id == 0 && e.data > 0) pid_ = e.data;
}

ChromeTraceWriter::ChromeTraceWriter(std::uint64_t origin, std::int64_t pid,
                                     std::function<void(std::string_view)> write)
    : origin_(origin),
      pid_(pid),
      write_(std::move(write)),
      timeline_([this](const TimelineItem& item) { EmitItem(item); }) {
  write_(kDocumentOpen);
  Emit(Metadata("process_name", pid_, {{"name", "OCaml process " + std::to_string(pid_)}}));
}

void ChromeTraceWriter::Emit(const nlohmann::json& j) {
  text_.clear();
  if (!first_) text_ += ',';
  first_ = false;
  text_ += DumpJson(j);
  write_(text_);
}

void ChromeTraceWriter::EmitItem(const TimelineItem& item) {
  if (item.kind != TimelineKind::kThread) return Emit(ChromeEvent(item, origin_, pid_));
  const std::uint32_t ring = item.event.ring;
  nlohmann::json name = Metadata("thread_name", pid_, {{"name", DomainName(ring)}});
  name["tid"] = ring;
  Emit(name);
  nlohmann::json order = Metadata("thread_sort_index", pid_, {{"sort_index", ring}});
  order["tid"] = ring;
  Emit(order);
}

void ChromeTraceWriter::Finish() {
  timeline_.Finish();
  write_(kDocumentClose);
}

std::string DumpJson(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace mpo::exporter
