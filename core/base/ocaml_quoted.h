// OCaml's "%S" string syntax, which the golden text formats of both memtrace's dumps and
// OCaml's runtime_events consumer print: quotes, backslash escapes for " \ \n \t \r \b,
// printable ASCII as is, every other byte as a three-digit decimal escape.
#pragma once

#include <string>
#include <string_view>

namespace mpo {

std::string OcamlQuoted(std::string_view bytes);

}  // namespace mpo
