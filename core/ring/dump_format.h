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
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "core/base/ocaml_quoted.h"
#include "core/base/status.h"
#include "core/ring/cursor.h"
#include "core/ring/event_names.h"

namespace mpo::ring {

class GoldenLineWriter : public EventCallbacks {
 public:
  explicit GoldenLineWriter(OcamlVersion version, std::map<std::string, std::string> tags = {})
      : version_(version), tags_(std::move(tags)) {}

  // Lines so far, each ending in '\n'. TakeText() empties the buffer.
  std::string TakeText() { return std::exchange(text_, {}); }
  // The first malformed custom payload met (OCaml would read out of bounds), if any.
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
  void Prefix(std::uint32_t ring, std::uint64_t ts, std::string_view kind);
  std::string_view Tag(std::string_view name) const;

  OcamlVersion version_;
  std::map<std::string, std::string> tags_;
  std::string text_;
  Status error_;
};

}  // namespace mpo::ring
