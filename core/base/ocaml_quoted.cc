#include "core/base/ocaml_quoted.h"

#include <cstdio>

namespace mpo {

std::string OcamlQuoted(std::string_view bytes) {
  std::string out = "\"";
  for (unsigned char c : bytes) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '\b': out += "\\b"; break;
      default:
        if (c >= ' ' && c <= '~') {
          out += static_cast<char>(c);
        } else {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03u", c);
          out += buf;
        }
    }
  }
  out += '"';
  return out;
}

}  // namespace mpo
