// corpus gen: every case file beside its expected JSON Lines stream and text form, then
// MANIFEST.json.
#include <stdlib.h>

#include <filesystem>
#include <new>
#include <nlohmann/json.hpp>

#include "core/base/version.h"
#include "core/corpus/cases.h"
#include "core/corpus/corpus.h"
#include "core/corpus/kit_guard.h"
#include "core/corpus/manifest.h"
#include "core/corpus/write_case.h"
#include "core/io/cleanup_registry.h"

namespace mpo::corpus {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

Result<GenerateSummary> GenerateUnguarded(const std::string& dir,
                                          const std::function<void(std::size_t)>& on_case) {
  const fs::path root(dir);
  for (const char* sub : {"", "memtrace", "ring", "sampler"})
    MPO_RETURN_IF_ERROR(MakeCorpusDirectory(root / sub));
  auto memtrace = MemtraceCases();
  if (!memtrace.ok()) return memtrace.status();
  // The ring producer writes real files: give it a fresh directory (mkdtemp cannot be
  // redirected by a planted name) and remove it afterwards.
  std::string scratch = (root / ".scratch-XXXXXX").string();
  io::ScopedCleanup scratch_cleanup;  // a signal that ends the run removes it too
  {
    io::TerminationSignalsBlocked blocked;
    if (::mkdtemp(scratch.data()) == nullptr)
      return Status(ErrorCode::kIo, "cannot create a scratch directory").WithField(dir);
    scratch_cleanup = io::ScopedCleanup(scratch, io::CleanupKind::kTree);
  }
  auto ring = RingCases(scratch);
  std::error_code ec;
  fs::remove_all(scratch, ec);
  if (!ring.ok()) return ring.status();
  const auto sampler = SamplerCases();

  GenerateSummary summary;
  json manifest{{"schema", kManifestSchema},
                {"generator", "memprof-oracle corpus gen"},
                {"oracle_version", VersionLine()},
                {"cases", json::array()}};
  auto emit = [&](const char* kind, const std::vector<CaseInput>& cases) -> Status {
    for (const CaseInput& c : cases) {
      auto entry = WriteCase(
          root,
          {kind, c.name, c.file_name, c.note,
           std::string_view(reinterpret_cast<const char*>(c.bytes.data()), c.bytes.size()),
           c.declared},
          summary.bytes);
      if (!entry.ok()) return entry.status();
      manifest["cases"].push_back(std::move(*entry));
      if (on_case) on_case(manifest["cases"].size());
    }
    return Status::Ok();
  };
  MPO_RETURN_IF_ERROR(emit("memtrace", *memtrace));
  MPO_RETURN_IF_ERROR(emit("ring", *ring));
  MPO_RETURN_IF_ERROR(emit("sampler", sampler));
  summary.memtrace = memtrace->size();
  summary.ring = ring->size();
  summary.sampler = sampler.size();
  // Last: a corpus with a manifest is complete.
  const std::string text = manifest.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
  MPO_RETURN_IF_ERROR(WriteFileAtomically(root / "MANIFEST.json", text));
  return summary;
}

}  // namespace

Result<GenerateSummary> Generate(const std::string& dir,
                                 const std::function<void(std::size_t)>& on_case) {
  return GuardKit("corpus gen", [&] { return GenerateUnguarded(dir, on_case); });
}

}  // namespace mpo::corpus
