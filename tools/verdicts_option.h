// The `--as MODE` option every decoding command takes (core/base/verdicts.h): whose verdict
// malformed input gets. An unknown mode, or one that does not judge the command's format,
// is a usage error (exit 2) naming the modes that do.
#pragma once

#include <CLI/CLI.hpp>

#include "core/base/verdicts.h"

namespace mpo::tools {

// Adds `--as` to `app`, storing into `*out` (left at its value, kStrict by default, when
// the option is absent). `format` limits the accepted modes to those that judge it;
// nullopt accepts every mode (a command whose format is known only from its input).
CLI::Option* AddVerdictsOption(CLI::App* app, Verdicts* out,
                               std::optional<VerdictFormat> format = std::nullopt);

}  // namespace mpo::tools
