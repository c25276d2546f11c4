#include "core/corpus/corpus.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <new>
#include <nlohmann/json.hpp>

#include "core/corpus/cases.h"
#include "core/corpus/decode.h"
#include "core/corpus/json_diff.h"
#include "core/corpus/json_limits.h"
#include "core/corpus/manifest.h"
#include "core/corpus/read_file.h"
#include "core/corpus/run_command.h"
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

std::string Substitute(const std::string& tmpl, const std::string& file) {
  std::string out;
  const std::string key = "{file}";
  std::size_t pos = 0;
  while (true) {
    const std::size_t at = tmpl.find(key, pos);
    if (at == std::string::npos) break;
    out += tmpl.substr(pos, at - pos) + ShellQuote(file);
    pos = at + key.size();
  }
  return out + tmpl.substr(pos);
}

std::string MiB(std::size_t bytes) {
  return bytes % (1 << 20) == 0 ? std::to_string(bytes >> 20) + " MiB"
                                : std::to_string(bytes) + " bytes";
}

Result<GenerateSummary> GenerateUnguarded(const std::string& dir) {
  const fs::path root(dir);
  for (const char* sub : {"", "memtrace", "ring", "sampler"})
    MPO_RETURN_IF_ERROR(MakeSubdirectory(root / sub));
  auto memtrace = MemtraceCases();
  if (!memtrace.ok()) return memtrace.status();
  // The ring producer writes real files: give it a fresh directory (mkdtemp cannot be
  // redirected by a planted name) and remove it afterwards.
  std::string scratch = (root / ".scratch-XXXXXX").string();
  if (::mkdtemp(scratch.data()) == nullptr)
    return Status(ErrorCode::kIo, "cannot create a scratch directory").WithField(dir);
  auto ring = RingCases(scratch);
  std::error_code ec;
  fs::remove_all(scratch, ec);
  if (!ring.ok()) return ring.status();
  const auto sampler = SamplerCases();

  GenerateSummary summary;
  json manifest{{"schema", kManifestSchema},
                {"generator", "memprof-oracle corpus gen"},
                {"cases", json::array()}};
  auto emit = [&](const char* kind, const std::vector<CaseInput>& cases) -> Status {
    for (const CaseInput& c : cases) {
      const fs::path file = root / kind / c.file_name;
      MPO_RETURN_IF_ERROR(WriteFile(
          file, std::string_view(reinterpret_cast<const char*>(c.bytes.data()), c.bytes.size())));
      auto decoded = DecodeFile(file.string());
      if (!decoded.ok()) return Status(decoded.status()).WithField("case " + c.name);
      const std::string j = DumpJson(decoded->json, 1) + "\n";
      MPO_RETURN_IF_ERROR(WriteFile(file.string() + ".expected.json", j));
      MPO_RETURN_IF_ERROR(WriteFile(file.string() + ".expected.txt", decoded->text));
      summary.bytes += c.bytes.size() + j.size() + decoded->text.size();
      const std::string rel = std::string(kind) + "/" + c.file_name;
      manifest["cases"].push_back(json{
          {"name", std::string(kind) + "/" + c.name},
          {"kind", kind},
          {"file", rel},
          {"expected_json", rel + ".expected.json"},
          {"expected_text", rel + ".expected.txt"},
          {"expects_error", decoded->json.contains("error") && !decoded->json["error"].is_null()},
          {"note", c.note}});
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
  MPO_RETURN_IF_ERROR(WriteFile(root / "MANIFEST.json", DumpJson(manifest, 1) + "\n"));
  return summary;
}

// The verdict on one case; `reason` empty means it passed.
Result<std::string> RunCase(const fs::path& root, const ManifestCase& c,
                            const CheckOptions& options) {
  const std::string file = (root / c.file).string();
  // The case file itself: the implementation must get a regular file.
  auto in = io::OpenInput(file);
  if (!in.ok()) return in.status();
  auto expected_text = ReadWholeFile((root / c.expected_json).string());
  if (!expected_text.ok()) return expected_text.status();
  auto expected = ParseJsonBounded(*expected_text);
  if (!expected.ok())
    return "expected file " + c.expected_json + " is not usable: " + expected.status().ToString();
  auto run =
      RunCommand(Substitute(options.impl, file), options.timeout_seconds, options.max_output_bytes);
  if (!run.ok()) return run.status();
  if (run->out_truncated)
    return "output exceeds the " + MiB(options.max_output_bytes) +
           " limit (--max-output-mib raises it); not parsed";
  if (run->timed_out) return "timed out after " + std::to_string(options.timeout_seconds) + " s";
  if (run->signal != 0) return "killed by signal " + std::to_string(run->signal);
  if (run->exit_code != 0) return "exit code " + std::to_string(run->exit_code);
  // An output with many more values than the expected document cannot equal it; refusing
  // it before building it keeps memory near the output's size, not 15 times that.
  const std::size_t max_values = std::max<std::size_t>(4 * CountValues(*expected), 1 << 20);
  auto got = ParseJsonBounded(run->out, kMaxJsonDepth, max_values);
  if (!got.ok() && got.status().code() == ErrorCode::kResourceExhausted)
    return "output holds more than " + std::to_string(max_values) +
           " JSON values (4 times the expected document's, at least 2^20); not compared";
  if (!got.ok())
    return "output is not one JSON document (" + std::to_string(run->out.size()) +
           " bytes): " + got.status().message();
  if (auto d = FirstDifference(*expected, *got))
    return "at " + (d->path.empty() ? std::string("(root)") : d->path) + ": expected " +
           d->expected + ", got " + d->got;
  return std::string();
}

Result<CheckSummary> CheckUnguarded(const std::string& dir, const CheckOptions& options,
                                    const std::function<void(const CaseResult&)>& on_case) {
  if (options.impl.find("{file}") == std::string::npos)
    return Status(ErrorCode::kInvalidArgument, "the command has no {file} placeholder")
        .WithField("--impl");
  if (options.max_output_bytes == 0)
    return Status(ErrorCode::kInvalidArgument, "the output limit must be positive")
        .WithField("--max-output-mib");
  const fs::path root(dir);
  auto manifest_text = ReadWholeFile((root / "MANIFEST.json").string());
  if (!manifest_text.ok()) return manifest_text.status();
  auto manifest = ParseManifest(*manifest_text);
  if (!manifest.ok()) return manifest.status();
  CheckSummary summary;
  for (const ManifestCase& c : *manifest) {
    if (!options.only.empty() && c.name.find(options.only) == std::string::npos) continue;
    auto reason = RunCase(root, c, options);
    if (!reason.ok()) return reason.status();
    CaseResult r{c.name, reason->empty(), std::move(*reason)};
    (r.passed ? summary.passed : summary.failed)++;
    if (on_case) on_case(r);
    summary.cases.push_back(std::move(r));
  }
  return summary;
}

}  // namespace

// nlohmann::json throws on misuse and on memory exhaustion; neither may leave the kit.
Result<GenerateSummary> Generate(const std::string& dir) {
  try {
    return GenerateUnguarded(dir);
  } catch (const std::bad_alloc&) {
    return Status(ErrorCode::kResourceExhausted, "out of memory").WithField("corpus gen");
  } catch (const nlohmann::json::exception& e) {
    return Status(ErrorCode::kInternal, std::string("JSON: ") + e.what()).WithField("corpus gen");
  }
}

Result<CheckSummary> Check(const std::string& dir, const CheckOptions& options,
                           const std::function<void(const CaseResult&)>& on_case) {
  try {
    return CheckUnguarded(dir, options, on_case);
  } catch (const std::bad_alloc&) {
    return Status(ErrorCode::kResourceExhausted, "out of memory").WithField("corpus check");
  } catch (const nlohmann::json::exception& e) {
    return Status(ErrorCode::kInternal, std::string("JSON: ") + e.what()).WithField("corpus check");
  }
}

}  // namespace mpo::corpus
