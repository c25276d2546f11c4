// The --max-* options that set memtrace::Limits (core/memtrace/limits.h) on a command.
#pragma once

#include <CLI/CLI.hpp>

#include "core/memtrace/limits.h"

namespace mpo::tools {

// Adds --max-frames, --max-held-frames, --max-location-bytes and --max-output-bytes,
// stored into *limits (which must outlive the command).
void AddLimitOptions(CLI::App* command, memtrace::Limits* limits);

}  // namespace mpo::tools
