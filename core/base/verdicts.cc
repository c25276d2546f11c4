#include "core/base/verdicts.h"

#include <array>

namespace mpo {
namespace {

constexpr std::array<Verdicts, 4> kAll = {Verdicts::kStrict, Verdicts::kMemtrace023,
                                          Verdicts::kMemtraceHead, Verdicts::kOcaml53};

}  // namespace

std::string_view VerdictsName(Verdicts v) {
  switch (v) {
    case Verdicts::kStrict: return "strict";
    case Verdicts::kMemtrace023: return "memtrace-0.2.3";
    case Verdicts::kMemtraceHead: return "memtrace-head";
    case Verdicts::kOcaml53: return "ocaml-5.3";
  }
  return "?";
}

std::optional<Verdicts> ParseVerdicts(std::string_view name) {
  for (Verdicts v : kAll)
    if (VerdictsName(v) == name) return v;
  return std::nullopt;
}

std::span<const Verdicts> AllVerdicts() { return kAll; }

bool VerdictsJudge(Verdicts v, VerdictFormat format) {
  switch (v) {
    case Verdicts::kStrict: return true;
    case Verdicts::kMemtrace023:
    case Verdicts::kMemtraceHead: return format == VerdictFormat::kMemtrace;
    case Verdicts::kOcaml53: return format == VerdictFormat::kRing;
  }
  return false;
}

std::string_view VerdictsNames() { return "strict, memtrace-0.2.3, memtrace-head, ocaml-5.3"; }

}  // namespace mpo
