// corpus gen: every case file beside its expected JSON Lines stream and text form, then
// MANIFEST.json.
#include <stdlib.h>

#include <filesystem>
#include <new>
#include <nlohmann/json.hpp>

#include "core/base/version.h"
#include "core/corpus/cases.h"
#include "core/corpus/corpus.h"
#include "core/corpus/decode.h"
#include "core/corpus/jsonl_diff.h"
#include "core/corpus/manifest.h"
#include "core/corpus/tags.h"
#include "core/io/cleanup_registry.h"
#include "core/io/output_file.h"

namespace mpo::corpus {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

Status WriteFile(const fs::path& path, std::string_view bytes) {
  auto out = io::AtomicOutput::Create(path.string());
  if (!out.ok()) return out.status();
  MPO_RETURN_IF_ERROR(out->Write(bytes));
  return out->Commit();
}

// A directory of the corpus, created if needed; a symlink planted in its place is
// refused, so no file is written outside the corpus.
Status MakeSubdirectory(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  const auto st = fs::symlink_status(dir, ec);
  if (ec || st.type() != fs::file_type::directory)
    return Status(ErrorCode::kIo, ec ? "cannot create: " + ec.message()
                                     : "is not a directory (a symlink is refused)")
        .WithField(dir.string());
  return Status::Ok();
}

// The reference decode of a case file in `form`, with `verdicts`' verdict.
Result<std::string> Decode(const fs::path& file, DecodeForm form,
                           Verdicts verdicts = Verdicts::kStrict) {
  StringTextSink out;
  auto decoded = DecodeFile(file.string(), form, out, verdicts);
  if (!decoded.ok()) return decoded.status();
  return std::move(out.text);
}

Result<GenerateSummary> GenerateUnguarded(const std::string& dir,
                                          const std::function<void(std::size_t)>& on_case) {
  const fs::path root(dir);
  for (const char* sub : {"", "memtrace", "ring", "sampler"})
    MPO_RETURN_IF_ERROR(MakeSubdirectory(root / sub));
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
      const fs::path file = root / kind / c.file_name;
      MPO_RETURN_IF_ERROR(WriteFile(
          file, std::string_view(reinterpret_cast<const char*>(c.bytes.data()), c.bytes.size())));
      auto jsonl = Decode(file, DecodeForm::kJsonLines);
      if (!jsonl.ok()) return Status(jsonl.status()).WithField("case " + c.name);
      // The corpus is only as good as its expectations: a reference stream that another
      // decoder could not be held against is a bug here, not a case.
      auto stream = ParseExpectedStream(*jsonl);
      if (!stream.ok())
        return Status(ErrorCode::kInternal,
                      "the reference decode is not a complete stream: " + stream.status().message())
            .WithField("case " + c.name);
      auto text = Decode(file, DecodeForm::kText);
      if (!text.ok()) return Status(text.status()).WithField("case " + c.name);
      MPO_RETURN_IF_ERROR(WriteFile(file.string() + ".expected.jsonl", *jsonl));
      MPO_RETURN_IF_ERROR(WriteFile(file.string() + ".expected.txt", *text));
      summary.bytes += c.bytes.size() + jsonl->size() + text->size();
      const std::string rel = std::string(kind) + "/" + c.file_name;
      json entry{{"name", std::string(kind) + "/" + c.name},
                 {"kind", kind},
                 {"file", rel},
                 {"expected_jsonl", rel + ".expected.jsonl"},
                 {"expected_text", rel + ".expected.txt"},
                 {"expects_error", stream->expects_error},
                 {"note", c.note},
                 {"tags", DeriveTags(std::string(kind) + "/" + c.name, rel, stream->expects_error,
                                     !c.declared.empty())}};
      // Each reference mode's verdict, where it differs from the strict one.
      auto case_kind = KindOfPath(file.string());
      if (!case_kind.ok()) return Status(case_kind.status()).WithField("case " + c.name);
      json expected_as = json::object();
      for (Verdicts mode : AllVerdicts()) {
        if (mode == Verdicts::kStrict || !VerdictsJudge(mode, FormatOfKind(*case_kind))) continue;
        auto as = Decode(file, DecodeForm::kJsonLines, mode);
        if (!as.ok()) return Status(as.status()).WithField("case " + c.name);
        if (*as == *jsonl) continue;
        if (auto parsed = ParseExpectedStream(*as); !parsed.ok())
          return Status(ErrorCode::kInternal,
                        "the " + std::string(VerdictsName(mode)) +
                            " decode is not a complete stream: " + parsed.status().message())
              .WithField("case " + c.name);
        const std::string suffix = ".expected." + std::string(VerdictsName(mode)) + ".jsonl";
        MPO_RETURN_IF_ERROR(WriteFile(file.string() + suffix, *as));
        summary.bytes += as->size();
        expected_as[std::string(VerdictsName(mode))] = rel + suffix;
      }
      if (!expected_as.empty()) entry["expected_as"] = std::move(expected_as);
      if (!c.declared.empty()) {
        json declared = json::object();
        for (const DeclaredDifference& d : c.declared)
          declared[std::string(VerdictsName(d.mode))] = {{"reference", d.reference},
                                                         {"why", d.why}};
        entry["declared"] = std::move(declared);
      }
      manifest["cases"].push_back(std::move(entry));
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
  MPO_RETURN_IF_ERROR(WriteFile(root / "MANIFEST.json", text));
  return summary;
}

}  // namespace

// nlohmann::json throws on misuse and on memory exhaustion; neither may leave the kit.
Result<GenerateSummary> Generate(const std::string& dir,
                                 const std::function<void(std::size_t)>& on_case) {
  try {
    return GenerateUnguarded(dir, on_case);
  } catch (const std::bad_alloc&) {
    return Status(ErrorCode::kResourceExhausted, "out of memory").WithField("corpus gen");
  } catch (const nlohmann::json::exception& e) {
    return Status(ErrorCode::kInternal, std::string("JSON: ") + e.what()).WithField("corpus gen");
  }
}

}  // namespace mpo::corpus
