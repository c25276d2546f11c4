#include "tools/verdicts_option.h"

#include <string>

namespace mpo::tools {

CLI::Option* AddVerdictsOption(CLI::App* app, Verdicts* out, std::optional<VerdictFormat> format) {
  std::string accepted;
  for (Verdicts v : AllVerdicts()) {
    if (format && !VerdictsJudge(v, *format)) continue;
    if (!accepted.empty()) accepted += ", ";
    accepted += VerdictsName(v);
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
          "whose verdict malformed input gets: " + accepted +
              " (default strict; conformance/VERDICTS.md)")
      ->check(known);
}

}  // namespace mpo::tools
