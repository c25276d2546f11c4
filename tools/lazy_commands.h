// Subcommands built only when the command line can reach them. Building every
// subcommand's options (CLI11 allocates per option and per help string) was most of a
// short command's start-up, so a group builds just the subcommand its first argument
// names. Parse, help and errors are unchanged, since no subcommand looks at another;
// when the first argument names none (top-level help, a misspelling) all are built, so
// CLI11's messages still list every one.
#pragma once

#include <CLI/CLI.hpp>
#include <span>
#include <string_view>

namespace mpo::tools {

struct LazyCommand {
  std::string_view name;
  // Adds the subcommand `name` to `parent`.
  void (*add)(CLI::App& parent);
  // Instead of `add`, for a group that is lazy in turn: `rest` holds the arguments after
  // its name (empty when every command is being built).
  void (*add_lazy)(CLI::App& parent, std::span<char* const> rest) = nullptr;
};

// Adds to `parent` the commands that `args` (the arguments after the parent's own name)
// can reach, in the order of `commands`.
void AddReachable(CLI::App& parent, std::span<const LazyCommand> commands,
                  std::span<char* const> args);

}  // namespace mpo::tools
