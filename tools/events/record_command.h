// `memprof-oracle events record [--out DIR] [--max-seconds S] [--format chrome|fuchsia]
// [--ring-size N] -- PROG ARGS...`: runs an OCaml 5 program with its runtime events on
// (OCAML_RUNTIME_EVENTS_START=1, _DIR=DIR, _PRESERVE=1; with --ring-size, `e=N` appended
// to its OCAMLRUNPARAM), follows its ring DIR/<pid>.events while it runs (counting lost
// events), and when it exits leaves beside the ring a Perfetto export (<pid>.chrome.json
// or <pid>.fxt) and a stats summary (<pid>.stats.txt), prints what it wrote and
// how the program ended, and exits with the program's status (128 + N for signal N).
// Its own failures (no ring appeared, a corrupt ring, an export that failed) exit 1 or 2
// as every command does.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "core/base/status.h"

namespace mpo::tools {

// The `events chrome`, `events fuchsia` and `events stats` code paths, lent by
// events_command.cc.
struct RecordExports {
  std::function<Status(const std::string& ring, const std::string& out_json)> chrome;
  std::function<Status(const std::string& ring, const std::string& out_fxt)> fuchsia;
  std::function<Result<std::string>(const std::string& ring)> stats_text;
};

void AddRecordCommand(CLI::App& events, const RecordExports& exports);

}  // namespace mpo::tools
