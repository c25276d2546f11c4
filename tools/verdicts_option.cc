#include "tools/verdicts_option.h"

#include <string>

namespace mpo::tools {

CLI::Option* AddVerdictsOption(CLI::App* app, Verdicts* out, std::optional<VerdictFormat> format) {
  // The names and their references, from the table (core/base/verdicts.h).
  std::string accepted;
  std::string described;
  for (const VerdictMode& m : VerdictModes()) {
    if (format && !VerdictsJudge(m.id, *format)) continue;
    if (!accepted.empty()) accepted += ", ";
    if (!described.empty()) described += ", ";
    accepted += m.name;
    described += std::string(m.name) + " (" +
                 std::string(m.reference.empty() ? std::string_view("the default") : m.reference) +
                 ")";
  }
  CLI::Validator known(
      [format, accepted](std::string& value) -> std::string {
        auto v = ParseVerdicts(value);
        if (!v || (format && !VerdictsJudge(*v, *format)))
          return "unknown verdict mode '" + value + "' (one of: " + accepted + ")";
        return {};
      },
      "MODE");
  return app
      ->add_option_function<std::string>(
          "--as", [out](const std::string& value) { *out = *ParseVerdicts(value); },
          "whose verdict malformed input gets: " + described + "; conformance/VERDICTS.md")
      ->check(known);
}

}  // namespace mpo::tools
