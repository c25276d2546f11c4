#include "core/ring/view/event_decoder.h"

namespace mpo::ring::view {
namespace {

constexpr std::string_view kUnknown = "unknown";

RingEvent Make(EventKind kind, std::uint32_t ring, std::uint64_t ts, unsigned id,
               std::string_view name) {
  RingEvent e;
  e.kind = kind;
  e.ring = ring;
  e.ts = ts;
  e.id = id;
  e.name = name;
  return e;
}

}  // namespace

bool EventDecoder::Deliver(const RingEvent& e) {
  // After a stop, nothing more: the stream ends at the error even if the caller polls on.
  if (!error_.ok() && on_malformed_ == OnMalformedPayload::kStop) return false;
  if (!OnEvent(e)) return false;
  ++delivered_;
  return true;
}

bool EventDecoder::RuntimeBegin(std::uint32_t ring, std::uint64_t ts, unsigned phase) {
  return Deliver(
      Make(EventKind::kBegin, ring, ts, phase, PhaseName(version_, phase).value_or(kUnknown)));
}

bool EventDecoder::RuntimeEnd(std::uint32_t ring, std::uint64_t ts, unsigned phase) {
  return Deliver(
      Make(EventKind::kEnd, ring, ts, phase, PhaseName(version_, phase).value_or(kUnknown)));
}

bool EventDecoder::RuntimeCounter(std::uint32_t ring, std::uint64_t ts, unsigned counter,
                                  std::uint64_t value) {
  RingEvent e = Make(EventKind::kCounter, ring, ts, counter,
                     CounterName(version_, counter).value_or(kUnknown));
  e.value = value;
  return Deliver(e);
}

bool EventDecoder::Alloc(std::uint32_t ring, std::uint64_t ts, std::span<const std::uint64_t> b) {
  RingEvent e = Make(EventKind::kAlloc, ring, ts, 0, KindName(EventKind::kAlloc));
  e.buckets = b;
  return Deliver(e);
}

bool EventDecoder::LifecycleEvent(std::uint32_t ring, std::uint64_t ts, unsigned kind,
                                  std::int64_t data) {
  RingEvent e = Make(EventKind::kLifecycle, ring, ts, kind, LifecycleName(kind).value_or(kUnknown));
  e.data = data;
  return Deliver(e);
}

bool EventDecoder::LostEvents(std::uint32_t ring, std::uint64_t words) {
  RingEvent e = Make(EventKind::kLostEvents, ring, 0, 0, KindName(EventKind::kLostEvents));
  e.value = words;
  return Deliver(e);
}

bool EventDecoder::UserUnit(std::uint32_t ring, std::uint64_t ts, unsigned id,
                            std::string_view name) {
  return Deliver(Make(EventKind::kUserUnit, ring, ts, id, name));
}

bool EventDecoder::UserInt(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name,
                           std::uint64_t value) {
  RingEvent e = Make(EventKind::kUserInt, ring, ts, id, name);
  e.value = value;
  return Deliver(e);
}

bool EventDecoder::UserSpan(std::uint32_t ring, std::uint64_t ts, unsigned id,
                            std::string_view name, bool begin) {
  return Deliver(
      Make(begin ? EventKind::kUserSpanBegin : EventKind::kUserSpanEnd, ring, ts, id, name));
}

bool EventDecoder::UserCustom(std::uint32_t ring, std::uint64_t ts, unsigned id,
                              std::string_view name, std::span<const std::uint64_t> payload) {
  auto bytes = DecodeCustomPayload(payload);
  if (!bytes.ok()) {
    if (error_.ok()) error_ = bytes.status();
    return on_malformed_ == OnMalformedPayload::kSkip;
  }
  RingEvent e = Make(EventKind::kUserCustom, ring, ts, id, name);
  e.payload = *bytes;
  return Deliver(e);
}

}  // namespace mpo::ring::view
