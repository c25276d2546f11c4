// Source locations for the simulated runtime's callstack frames.
//
// A sim frame is a 64-bit "return address"; the tracer uses it as the memtrace location
// code. Frames a workload names (Define) get the locations it gives; any other frame
// gets synthetic but realistic ones derived from its value alone: a file under src/, a
// line, a column range and a "Module.function" defname, with one frame in five carrying
// an inlined callee (two locations), as OCaml's debug info does.
//
// Lookup returns pointers that stay valid for the object's lifetime (memtrace's writer
// keeps them until its next flush). Threading: one thread at a time.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/memtrace/location.h"
#include "core/memtrace/ocaml_int.h"

namespace mpo::tracer {

class FrameLocations {
 public:
  // Names `frame` (replacing any earlier definition only if not yet looked up).
  void Define(std::uint64_t frame, std::vector<memtrace::Location> locations);
  // The locations of a code; synthesised on first use for undefined frames.
  const std::vector<memtrace::Location>* Lookup(memtrace::OcamlInt code);
  // The synthetic locations of a frame (deterministic in the frame's value).
  static std::vector<memtrace::Location> Synthesize(std::uint64_t frame);

 private:
  std::unordered_map<memtrace::OcamlInt, std::vector<memtrace::Location>> table_;
};

}  // namespace mpo::tracer
