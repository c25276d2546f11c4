// One corpus case written to disk: its file, the oracle's expected streams (strict JSON
// Lines and text, and each reference mode's stream where it differs) and its
// MANIFEST.json entry. `corpus gen` writes every generated case through it and
// `corpus add` an implementer's own file, so both get the same expectations and tags.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/corpus/cases.h"

namespace mpo::corpus {

struct CaseToWrite {
  std::string_view kind;       // "memtrace", "ring" or "sampler": the folder
  std::string_view name;       // without the kind, e.g. "v3_multidomain"
  std::string_view file_name;  // in the kind's folder; its suffix names the kind
  std::string_view note;
  std::string_view bytes;
  std::span<const DeclaredDifference> declared;
  // An implementer's own file (corpus add): its tags are derived from its name without
  // the "user_" prefix, its trace version from the decoded header, plus the tag "user".
  bool user = false;
};

// Writes the case under `root` (whose kind folder exists) and returns its manifest
// entry; adds the bytes written to `written`. kInternal if the reference decode is not a
// complete stream (a bug of the oracle, not of the case); I/O errors name the file.
// May throw nlohmann::json's exceptions and std::bad_alloc: callers guard.
Result<nlohmann::json> WriteCase(const std::filesystem::path& root, const CaseToWrite& c,
                                 std::uint64_t& written);

// A directory of the corpus, created if needed; a symlink planted in its place is
// refused (kIo naming it), so no file is written outside the corpus.
Status MakeCorpusDirectory(const std::filesystem::path& dir);

// Writes `bytes` to `path` atomically (core/io/output_file.h).
Status WriteFileAtomically(const std::filesystem::path& path, std::string_view bytes);

}  // namespace mpo::corpus
