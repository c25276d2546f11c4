// The corpus cases, built in memory, deterministically (no clock, no pid, no randomness
// other than fixed-seed generators): the same call gives the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/status.h"

namespace mpo::corpus {

struct CaseInput {
  std::string name;       // unique, [a-z0-9_.-]
  std::string file_name;  // relative to the kind's folder; its suffix names the kind
  std::string note;       // what corner of the format the case exercises
  std::vector<std::uint8_t> bytes;
};

Result<std::vector<CaseInput>> MemtraceCases();
// Ring files are written through the producer into `scratch_dir` (created by the caller,
// left empty).
Result<std::vector<CaseInput>> RingCases(const std::string& scratch_dir);
std::vector<CaseInput> SamplerCases();

}  // namespace mpo::corpus
