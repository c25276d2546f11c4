// Trace events and trace info (mirrors memtrace's Trace.Event and Trace.Info).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "core/memtrace/ocaml_int.h"

namespace mpo::memtrace {

enum class AllocationSource : std::uint8_t { kMinor = 0, kMajor = 1, kExternal = 2 };
enum class EventKind : std::uint8_t { kAlloc, kPromote, kCollect };

const char* AllocationSourceName(AllocationSource s);  // "minor", "major", "external"

struct Event {
  EventKind kind = EventKind::kAlloc;
  std::int64_t time = 0;  // us since the epoch
  OcamlInt obj_id = 0;
  std::uint16_t domain = 0;
  // Alloc only.
  OcamlInt length = 0;  // words, header excluded
  OcamlInt nsamples = 0;
  AllocationSource source = AllocationSource::kMinor;
  OcamlInt common_prefix = 0;  // entries shared with the previous alloc of this domain
  // Caller first, allocation site last. Owned by the reader (or the caller, for
  // writers); valid until the next event is read.
  std::span<const OcamlInt> backtrace;
};

struct Info {
  double sample_rate = 0;
  std::uint8_t word_size = 64;
  std::string executable_name;
  std::string host_name;
  std::string ocaml_runtime_params;
  std::int64_t pid = 0;
  std::uint16_t initial_domain = 0;
  std::int64_t start_time = 0;         // us since the epoch
  std::optional<std::string> context;  // written from v2; "" reads back as none

  friend bool operator==(const Info&, const Info&) = default;
};

}  // namespace mpo::memtrace
