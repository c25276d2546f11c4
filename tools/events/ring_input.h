// What every `events` subcommand that reads a ring shares: the DIR PID or FILE argument,
// --ocaml-version and --batch, --tag, opening the ring and draining it.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/base/status.h"
#include "core/base/verdicts.h"
#include "core/ring/cursor.h"
#include "core/ring/event_names.h"

namespace mpo::tools {

struct RingSource {
  std::string path;
  std::int64_t pid = -1;  // -1 when given a file
};

// FILE, or DIR PID (DIR/PID.events); kInvalidArgument otherwise.
Result<RingSource> ParseRingSource(const std::vector<std::string>& args);

// --ocaml-version and --batch.
struct RingReadOptions {
  std::optional<std::string> version;  // none: from the file name, else 5.3
  std::size_t batch = 16;
};
void AddRingReadOptions(CLI::App* cmd, RingReadOptions& o);

// --ocaml-version if given; else the release a `NAME.ocaml-5.N.events` file name
// states (the corpus's cases); else 5.3.
Result<ring::OcamlVersion> ParseVersion(const std::optional<std::string>& v,
                                        const std::string& path);

// --tag NAME=TAG values.
Result<std::map<std::string, std::string>> ParseTags(const std::vector<std::string>& tags);

// A ring file input: a missing file is a usage/I/O error (exit 2) like every other
// missing input, whatever code the cursor mirrors from OCaml (E_OPEN_FAILURE).
Result<ring::Cursor> OpenRing(const std::string& path, std::size_t batch,
                              Verdicts verdicts = Verdicts::kStrict);

// Polls until a poll delivers nothing (a file no process writes any more); calls
// `after_poll` after each. The number of polls and of events.
Result<std::pair<std::uint64_t, std::uint64_t>> Drain(ring::Cursor& c, ring::EventCallbacks& cb,
                                                      const std::function<void()>& after_poll);

}  // namespace mpo::tools
