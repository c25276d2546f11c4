#include "core/corpus/decode.h"

#include "core/corpus/read_file.h"

namespace mpo::corpus {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

Result<CaseKind> KindOfPath(std::string_view path) {
  if (EndsWith(path, ".ctf")) return CaseKind::kMemtrace;
  if (EndsWith(path, ".sampler.json")) return CaseKind::kSampler;
  if (!ring::OcamlReleaseOfFileName(path).empty()) return CaseKind::kRing;
  return Status(ErrorCode::kInvalidArgument,
                "unknown case kind (expected *.ctf, *.ocaml-5.N.events or *.sampler.json): " +
                    std::string(path))
      .WithField("file name");
}

const char* KindName(CaseKind k) {
  switch (k) {
    case CaseKind::kMemtrace: return "memtrace";
    case CaseKind::kRing: return "ring";
    case CaseKind::kSampler: return "sampler";
  }
  return "?";
}

VerdictFormat FormatOfKind(CaseKind k) {
  switch (k) {
    case CaseKind::kMemtrace: return VerdictFormat::kMemtrace;
    case CaseKind::kRing: return VerdictFormat::kRing;
    case CaseKind::kSampler: return VerdictFormat::kSampler;
  }
  return VerdictFormat::kSampler;
}

Result<DecodeOutcome> DecodeFile(const std::string& path, DecodeForm form, TextSink& out,
                                 Verdicts verdicts, const memtrace::Limits& limits) {
  auto kind = KindOfPath(path);
  if (!kind.ok()) return kind.status();
  if (!VerdictsJudge(verdicts, FormatOfKind(*kind)))
    return Status(ErrorCode::kInvalidArgument, std::string(VerdictsName(verdicts)) +
                                                   " has no verdict on " + KindName(*kind) +
                                                   " inputs (strict judges every kind)")
        .WithField("--as");
  if (*kind == CaseKind::kMemtrace) {
    // Streamed from the file, as `memtrace dump --json` reads it: a trace of any size
    // decodes in bounded memory.
    auto source = memtrace::OpenFileSource(path);
    if (!source.ok()) return source.status();
    return DecodeOutcome{DecodeMemtrace(**source, form, out, verdicts, limits)};
  }
  std::optional<ring::OcamlVersion> version;
  if (*kind == CaseKind::kRing) {
    const std::string_view name = ring::OcamlReleaseOfFileName(path);
    version = ring::ParseOcamlVersion(name);
    if (!version)
      return Status(ErrorCode::kInvalidArgument, "unknown OCaml release " + std::string(name))
          .WithField("file name");
  }
  auto bytes = ReadWholeFile(path, version ? kRingCaseFile : kSamplerCaseFile);
  if (!bytes.ok()) return bytes.status();
  if (version) {
    const auto* data = reinterpret_cast<const std::uint8_t*>(bytes->data());
    return DecodeOutcome{DecodeRing({data, bytes->size()}, *version, form, out, verdicts)};
  }
  return DecodeOutcome{DecodeSampler(*bytes, form, out)};
}

}  // namespace mpo::corpus
