// The corpus cases, built in memory, deterministically (no clock, no pid, no randomness
// other than fixed-seed generators): the same call gives the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/verdicts.h"

namespace mpo::corpus {

// A case on which a real implementation's verdict is deliberately not reproduced
// (conformance/VERDICTS.md): `corpus check --as MODE` reports it as declared instead of
// running the implementation on it.
struct DeclaredDifference {
  Verdicts mode;          // the reference (never kStrict)
  std::string reference;  // what the reference does, e.g. "loops forever"
  std::string why;        // why the oracle does not do the same
};

struct CaseInput {
  std::string name;       // unique, [a-z0-9_.-]
  std::string file_name;  // relative to the kind's folder; its suffix names the kind
  std::string note;       // what corner of the format the case exercises
  std::vector<std::uint8_t> bytes;
  std::vector<DeclaredDifference> declared;
};

Result<std::vector<CaseInput>> MemtraceCases();
// Ring files are written through the producer into `scratch_dir` (created by the caller,
// left empty).
Result<std::vector<CaseInput>> RingCases(const std::string& scratch_dir);
std::vector<CaseInput> SamplerCases();

}  // namespace mpo::corpus
