// Decoded runtime events collected from a cursor, in delivery order: the common input
// of `events dump --json`, `events chrome` and `events stats`.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/ring/cursor.h"
#include "core/ring/event_names.h"

namespace mpo::tools {

struct DecodedEvent {
  enum class Kind : std::uint8_t {
    kBegin,
    kEnd,
    kCounter,
    kAlloc,
    kLifecycle,
    kLostEvents,
    kUserUnit,
    kUserInt,
    kUserSpanBegin,
    kUserSpanEnd,
    kUserCustom,
  };
  Kind kind;
  std::uint32_t ring = 0;
  std::uint64_t ts = 0;               // 0 for lost events (they carry no timestamp)
  unsigned id = 0;                    // phase, counter, lifecycle or user event id
  std::string name;                   // the release's name, the user event's name, "unknown"
  std::int64_t value = 0;             // counter, int, lifecycle data, lost words
  std::vector<std::int64_t> buckets;  // alloc
  std::string payload;                // custom bytes
};

class EventCollector : public ring::EventCallbacks {
 public:
  explicit EventCollector(ring::OcamlVersion version) : version_(version) {}
  // Streaming: each event goes to `on_event` as soon as it is decoded instead of being
  // kept, so memory does not grow with the number of events.
  EventCollector(ring::OcamlVersion version, std::function<void(const DecodedEvent&)> on_event)
      : version_(version), on_event_(std::move(on_event)) {}
  std::vector<DecodedEvent>& events() { return events_; }
  // The first malformed custom payload, if any (the event is then skipped).
  const Status& error() const { return error_; }

  bool RuntimeBegin(std::uint32_t ring, std::uint64_t ts, unsigned phase) override;
  bool RuntimeEnd(std::uint32_t ring, std::uint64_t ts, unsigned phase) override;
  bool RuntimeCounter(std::uint32_t ring, std::uint64_t ts, unsigned counter,
                      std::uint64_t value) override;
  bool Alloc(std::uint32_t ring, std::uint64_t ts, std::span<const std::uint64_t> b) override;
  bool LifecycleEvent(std::uint32_t ring, std::uint64_t ts, unsigned kind,
                      std::int64_t data) override;
  bool LostEvents(std::uint32_t ring, std::uint64_t words) override;
  bool UserUnit(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name) override;
  bool UserInt(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name,
               std::uint64_t value) override;
  bool UserSpan(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name,
                bool begin) override;
  bool UserCustom(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name,
                  std::span<const std::uint64_t> payload) override;

 private:
  DecodedEvent& Add(DecodedEvent::Kind k, std::uint32_t ring, std::uint64_t ts, unsigned id);
  bool Deliver();
  ring::OcamlVersion version_;
  std::function<void(const DecodedEvent&)> on_event_;
  std::vector<DecodedEvent> events_;
  Status error_;
};

// "begin", "end", "counter", ... as in the golden text format.
const char* KindName(DecodedEvent::Kind k);

// One JSON object: {"ring","ts","kind","name","id", and "value"/"data"/"buckets"/
// "payload" (custom bytes with OCaml's escaping)}; lost events: {"ring","kind","words"}.
// Serialise with DumpJson: names from a hostile file need not be UTF-8.
nlohmann::json ToJson(const DecodedEvent& e);
std::string DumpJson(const nlohmann::json& j, int indent = -1);

}  // namespace mpo::tools
