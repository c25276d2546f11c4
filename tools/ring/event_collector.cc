#include "tools/ring/event_collector.h"

#include "core/ring/dump_format.h"

namespace mpo::tools {

using Kind = DecodedEvent::Kind;

DecodedEvent& EventCollector::Add(Kind k, std::uint32_t ring, std::uint64_t ts, unsigned id) {
  DecodedEvent& e = events_.emplace_back();
  e.kind = k;
  e.ring = ring;
  e.ts = ts;
  e.id = id;
  return e;
}

bool EventCollector::RuntimeBegin(std::uint32_t ring, std::uint64_t ts, unsigned phase) {
  Add(Kind::kBegin, ring, ts, phase).name = ring::PhaseName(version_, phase).value_or("unknown");
  return Deliver();
}

bool EventCollector::RuntimeEnd(std::uint32_t ring, std::uint64_t ts, unsigned phase) {
  Add(Kind::kEnd, ring, ts, phase).name = ring::PhaseName(version_, phase).value_or("unknown");
  return Deliver();
}

bool EventCollector::RuntimeCounter(std::uint32_t ring, std::uint64_t ts, unsigned counter,
                                    std::uint64_t value) {
  DecodedEvent& e = Add(Kind::kCounter, ring, ts, counter);
  e.name = ring::CounterName(version_, counter).value_or("unknown");
  e.value = ring::OcamlIntOfPayload(value);
  return Deliver();
}

bool EventCollector::Alloc(std::uint32_t ring, std::uint64_t ts, std::span<const std::uint64_t> b) {
  DecodedEvent& e = Add(Kind::kAlloc, ring, ts, 0);
  e.name = "alloc";
  for (std::uint64_t w : b) e.buckets.push_back(ring::OcamlIntOfPayload(w));
  return Deliver();
}

bool EventCollector::LifecycleEvent(std::uint32_t ring, std::uint64_t ts, unsigned kind,
                                    std::int64_t data) {
  DecodedEvent& e = Add(Kind::kLifecycle, ring, ts, kind);
  e.name = ring::LifecycleName(kind).value_or("unknown");
  e.value = data;
  return Deliver();
}

bool EventCollector::LostEvents(std::uint32_t ring, std::uint64_t words) {
  DecodedEvent& e = Add(Kind::kLostEvents, ring, 0, 0);
  e.name = "lost_events";
  e.value = static_cast<std::int64_t>(words);
  return Deliver();
}

bool EventCollector::UserUnit(std::uint32_t ring, std::uint64_t ts, unsigned id,
                              std::string_view name) {
  Add(Kind::kUserUnit, ring, ts, id).name = name;
  return Deliver();
}

bool EventCollector::UserInt(std::uint32_t ring, std::uint64_t ts, unsigned id,
                             std::string_view name, std::uint64_t value) {
  DecodedEvent& e = Add(Kind::kUserInt, ring, ts, id);
  e.name = name;
  e.value = ring::OcamlIntOfPayload(value);
  return Deliver();
}

bool EventCollector::UserSpan(std::uint32_t ring, std::uint64_t ts, unsigned id,
                              std::string_view name, bool begin) {
  Add(begin ? Kind::kUserSpanBegin : Kind::kUserSpanEnd, ring, ts, id).name = name;
  return Deliver();
}

bool EventCollector::UserCustom(std::uint32_t ring, std::uint64_t ts, unsigned id,
                                std::string_view name, std::span<const std::uint64_t> payload) {
  auto bytes = ring::DecodeCustomPayload(payload);
  if (!bytes.ok()) {
    if (error_.ok()) error_ = bytes.status();
    return true;
  }
  DecodedEvent& e = Add(Kind::kUserCustom, ring, ts, id);
  e.name = name;
  e.payload = *bytes;
  return Deliver();
}

bool EventCollector::Deliver() {
  if (!on_event_) return true;
  for (const DecodedEvent& e : events_) on_event_(e);
  events_.clear();
  return true;
}

const char* KindName(Kind k) {
  switch (k) {
    case Kind::kBegin: return "begin";
    case Kind::kEnd: return "end";
    case Kind::kCounter: return "counter";
    case Kind::kAlloc: return "alloc";
    case Kind::kLifecycle: return "lifecycle";
    case Kind::kLostEvents: return "lost_events";
    case Kind::kUserUnit: return "user_unit";
    case Kind::kUserInt: return "user_int";
    case Kind::kUserSpanBegin: return "user_span_begin";
    case Kind::kUserSpanEnd: return "user_span_end";
    case Kind::kUserCustom: return "user_custom";
  }
  return "unknown";
}

nlohmann::json ToJson(const DecodedEvent& e) {
  nlohmann::json j;
  j["ring"] = e.ring;
  j["kind"] = KindName(e.kind);
  if (e.kind == Kind::kLostEvents) {
    j["words"] = e.value;
    return j;
  }
  j["ts"] = e.ts;
  j["name"] = e.name;
  j["id"] = e.id;
  switch (e.kind) {
    case Kind::kCounter:
    case Kind::kUserInt: j["value"] = e.value; break;
    case Kind::kLifecycle:
      if (e.value != 0) {
        j["data"] = e.value;
      } else {
        j["data"] = nullptr;
      }
      break;
    case Kind::kAlloc: j["buckets"] = e.buckets; break;
    case Kind::kUserCustom: {
      // Bytes, not text: OCaml's escaping (%S without the quotes) keeps them ASCII.
      const std::string quoted = mpo::OcamlQuoted(e.payload);
      j["payload"] = quoted.substr(1, quoted.size() - 2);
      break;
    }
    default: break;
  }
  return j;
}

std::string DumpJson(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace mpo::tools
