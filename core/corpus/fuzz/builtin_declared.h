// The real references' known bugs, built into the program: known_peer_bugs.txt, turned
// into a string at build time (the file stays the one source), each rule tagged with the
// verdict modes where it was seen (declared.h's `as=`). `corpus fuzz --as MODE` applies
// BuiltinDeclared(MODE) unless told not to.
#pragma once

#include <string_view>
#include <vector>

#include "core/corpus/fuzz/declared.h"

namespace mpo::corpus::fuzz {

// known_peer_bugs.txt as it was when the program was built.
std::string_view KnownPeerBugsText();

// Its rules that apply under `mode` (VerdictsName); none under "strict".
std::vector<DeclaredRule> BuiltinDeclared(std::string_view mode);

}  // namespace mpo::corpus::fuzz
