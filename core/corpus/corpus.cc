#include "core/corpus/corpus.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "core/corpus/cases.h"
#include "core/corpus/decode.h"
#include "core/corpus/json_diff.h"
#include "core/corpus/run_command.h"

namespace mpo::corpus {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kSchemaVersion = 1;

Status WriteFile(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return Status(ErrorCode::kIo, "cannot write " + path.string()).WithField("corpus");
  return Status::Ok();
}

Result<std::string> ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(ErrorCode::kIo, "cannot open " + path.string()).WithField("corpus");
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return s;
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

}  // namespace

Result<GenerateSummary> Generate(const std::string& dir) {
  std::error_code ec;
  const fs::path root(dir);
  for (const char* sub : {"memtrace", "ring", "sampler", ".scratch"}) {
    fs::create_directories(root / sub, ec);
    if (ec) return Status(ErrorCode::kIo, "cannot create " + (root / sub).string());
  }
  auto memtrace = MemtraceCases();
  if (!memtrace.ok()) return memtrace.status();
  auto ring = RingCases((root / ".scratch").string());
  fs::remove_all(root / ".scratch", ec);
  if (!ring.ok()) return ring.status();
  const auto sampler = SamplerCases();

  GenerateSummary summary;
  json manifest{{"schema", kSchemaVersion},
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
  MPO_RETURN_IF_ERROR(WriteFile(root / "MANIFEST.json", DumpJson(manifest, 1) + "\n"));
  return summary;
}

Result<CheckSummary> Check(const std::string& dir, const CheckOptions& options,
                           const std::function<void(const CaseResult&)>& on_case) {
  const fs::path root(dir);
  auto manifest_text = ReadFile(root / "MANIFEST.json");
  if (!manifest_text.ok()) return manifest_text.status();
  const json manifest = json::parse(*manifest_text, nullptr, false);
  if (!manifest.is_object() || !manifest.contains("cases") || !manifest["cases"].is_array())
    return Status(ErrorCode::kCorrupt, "MANIFEST.json is not a corpus manifest")
        .WithField("MANIFEST.json");
  if (manifest.value("schema", 0) != kSchemaVersion)
    return Status(ErrorCode::kUnsupportedVersion, "manifest schema is not 1")
        .WithField("MANIFEST.json: schema");
  if (options.impl.find("{file}") == std::string::npos)
    return Status(ErrorCode::kInvalidArgument, "the command has no {file} placeholder")
        .WithField("--impl");
  CheckSummary summary;
  for (const json& c : manifest["cases"]) {
    if (!c.is_object() || !c.contains("name") || !c["name"].is_string() || !c.contains("file") ||
        !c["file"].is_string() || !c.contains("expected_json") || !c["expected_json"].is_string())
      return Status(ErrorCode::kCorrupt, "a case lacks name, file or expected_json")
          .WithField("MANIFEST.json: cases");
    CaseResult r;
    r.name = c["name"].get<std::string>();
    if (!options.only.empty() && r.name.find(options.only) == std::string::npos) continue;
    auto expected_text = ReadFile(root / c["expected_json"].get<std::string>());
    if (!expected_text.ok()) return expected_text.status();
    const json expected = json::parse(*expected_text, nullptr, false);
    if (expected.is_discarded())
      return Status(ErrorCode::kCorrupt, "expected JSON does not parse")
          .WithField(c["expected_json"].get<std::string>());
    const std::string file = (root / c["file"].get<std::string>()).string();
    auto run = RunCommand(Substitute(options.impl, file), options.timeout_seconds);
    if (!run.ok()) return run.status();
    if (run->timed_out) {
      r.reason = "timed out after " + std::to_string(options.timeout_seconds) + " s";
    } else if (run->signal != 0) {
      r.reason = "killed by signal " + std::to_string(run->signal);
    } else if (run->exit_code != 0) {
      r.reason = "exit code " + std::to_string(run->exit_code);
    } else {
      const json got = json::parse(run->out, nullptr, false);
      if (got.is_discarded()) {
        r.reason =
            "output is not one JSON document (" + std::to_string(run->out.size()) + " bytes)";
      } else if (auto d = FirstDifference(expected, got)) {
        r.reason = "at " + (d->path.empty() ? std::string("(root)") : d->path) + ": expected " +
                   d->expected + ", got " + d->got;
      } else {
        r.passed = true;
      }
    }
    (r.passed ? summary.passed : summary.failed)++;
    if (on_case) on_case(r);
    summary.cases.push_back(std::move(r));
  }
  return summary;
}

}  // namespace mpo::corpus
