// Prints the name of every mutant (mutants.h), one per line, for scripts that run a
// test binary against each (expect_mutants_caught.sh).
#include <iostream>

#include "core/base/faults.h"
#include "core/memprof/mutants.h"

int main() {
  mpo::faults::ForEachFault<mpo::memprof::Mutants>(
      []<class Faults>() { std::cout << Faults::kName << "\n"; });
  return 0;
}
