// Turns a cursor's typed callbacks into RingEvent values: the one place where ids get
// their release's names and custom payloads lose their padding. Every view of a ring
// (golden text, schema 2 JSON, Chrome trace, statistics) reads events through it.
//
// Names: PhaseName / CounterName of the release given at construction, LifecycleName,
// "unknown" for an id the release does not name (never an error); user events keep the
// name registered in the file.
//
// A custom event whose pad-count byte exceeds its payload (OCaml's consumer would read
// out of bounds) is malformed; the decoder keeps the first such error and, by the
// policy chosen at construction, either stops or skips the event.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "core/base/status.h"
#include "core/ring/cursor.h"
#include "core/ring/event_names.h"
#include "core/ring/view/ring_event.h"

namespace mpo::ring::view {

enum class OnMalformedPayload : std::uint8_t {
  // The poll stops at the bad event and every later callback is refused: for views whose
  // stream ends with the error (schema 2 JSON, Chrome, statistics).
  kStop,
  // The event is left out and the poll goes on: the golden text prints what OCaml would
  // around it and reports the error after the last line.
  kSkip,
};

class EventDecoder : public EventCallbacks {
 public:
  EventDecoder(OcamlVersion version, OnMalformedPayload on_malformed)
      : version_(version), on_malformed_(on_malformed) {}

  OcamlVersion version() const { return version_; }
  // The first malformed custom payload met, OK if none.
  const Status& error() const { return error_; }
  // Events OnEvent accepted so far.
  std::uint64_t delivered() const { return delivered_; }

  bool RuntimeBegin(std::uint32_t ring, std::uint64_t ts, unsigned phase) final;
  bool RuntimeEnd(std::uint32_t ring, std::uint64_t ts, unsigned phase) final;
  bool RuntimeCounter(std::uint32_t ring, std::uint64_t ts, unsigned counter,
                      std::uint64_t value) final;
  bool Alloc(std::uint32_t ring, std::uint64_t ts, std::span<const std::uint64_t> b) final;
  bool LifecycleEvent(std::uint32_t ring, std::uint64_t ts, unsigned kind, std::int64_t data) final;
  bool LostEvents(std::uint32_t ring, std::uint64_t words) final;
  bool UserUnit(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name) final;
  bool UserInt(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name,
               std::uint64_t value) final;
  bool UserSpan(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name,
                bool begin) final;
  bool UserCustom(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name,
                  std::span<const std::uint64_t> payload) final;

 protected:
  // Receives each event in delivery order. Returning false stops the poll without
  // consuming the event: the cursor delivers it again on the next poll.
  virtual bool OnEvent(const RingEvent& e) = 0;

 private:
  bool Deliver(const RingEvent& e);
  OcamlVersion version_;
  OnMalformedPayload on_malformed_;
  Status error_;
  std::uint64_t delivered_ = 0;
};

// An EventDecoder that hands each event to a function: for tools that fold a stream
// (statistics, Chrome) without keeping it. Stops at a malformed payload.
class EventCollector final : public EventDecoder {
 public:
  EventCollector(OcamlVersion version, std::function<void(const RingEvent&)> on_event)
      : EventDecoder(version, OnMalformedPayload::kStop), on_event_(std::move(on_event)) {}

 private:
  bool OnEvent(const RingEvent& e) override {
    on_event_(e);
    return true;
  }
  std::function<void(const RingEvent&)> on_event_;
};

}  // namespace mpo::ring::view
