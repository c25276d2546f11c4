// The golden text format of OCaml's Runtime_events consumer output, one line per
// callback (see golden-format-tools/re_dump.ml in the shared testdata):
//   <ring> <ts> begin <phase> #<id>          <ring> <ts> end <phase> #<id>
//   <ring> <ts> counter <name> #<id> <value> <ring> <ts> alloc [<b0>;...;<b19>]
//   <ring> <ts> lifecycle <name> #<id> <data|none>
//   <ring> lost_events <words>
//   <ring> <ts> user_unit <name> <tag>       <ring> <ts> user_int <name> <tag> <value>
//   <ring> <ts> user_span <name> <tag> begin|end
//   <ring> <ts> user_custom <name> <tag> <payload as OCaml's %S>
// Ids a release does not name print as "unknown". A user event's tag is an OCaml value
// the file does not hold: the caller supplies name -> tag, else "UNK" (as re_dump).
// Numbers are what OCaml's binding gives: counters, buckets and lifecycle data as OCaml
// ints (63 bits), a lifecycle payload of 0 as `none`.
//
// Rendered from the decoded events of core/ring/view (the same RingEvent values as the
// JSON view); a malformed custom payload is left out and kept in error().
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "core/ring/event_names.h"
#include "core/ring/view/event_decoder.h"
#include "core/ring/view/ring_event.h"

namespace mpo::ring {

class GoldenLineWriter final : public view::EventDecoder {
 public:
  explicit GoldenLineWriter(OcamlVersion version, std::map<std::string, std::string> tags = {})
      : EventDecoder(version, view::OnMalformedPayload::kSkip), tags_(std::move(tags)) {}

  // Lines so far, each ending in '\n'. TakeText() empties the buffer.
  std::string TakeText() { return std::exchange(text_, {}); }
  // error() (EventDecoder): the first malformed custom payload met (OCaml would read out
  // of bounds), if any.

 private:
  bool OnEvent(const view::RingEvent& e) override;
  // "<ring> <ts> <kind> " (lost events: "<ring> lost_events ").
  void Prefix(const view::RingEvent& e);
  void NameAndTag(std::string_view name);

  std::map<std::string, std::string> tags_;
  std::string text_;
};

}  // namespace mpo::ring
