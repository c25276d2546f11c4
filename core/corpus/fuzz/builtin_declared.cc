#include "core/corpus/fuzz/builtin_declared.h"

namespace mpo::corpus::fuzz {

std::vector<DeclaredRule> BuiltinDeclared(std::string_view mode) {
  return RulesFor(ParseDeclared(KnownPeerBugsText()), mode);
}

}  // namespace mpo::corpus::fuzz
