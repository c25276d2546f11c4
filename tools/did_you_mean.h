// "unknown subcommand 'stat'; did you mean 'stats'?": a misspelt subcommand, at any level
// of the command table, is named with its nearest neighbour instead of CLI11's "A
// subcommand is required".
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mpo::tools {

// Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`.
std::size_t EditDistance(std::string_view a, std::string_view b);

// The candidate nearest to `word` if it is near enough to be what was meant: at most one
// edit for a word of up to 4 characters, two for a longer one, or `word` is a prefix of
// it alone (3 characters or more). Ties go to the earlier candidate.
std::optional<std::string> NearestName(std::string_view word,
                                       std::span<const std::string> candidates);

// Follows `args` (after the program's name) down `app`'s subcommands. Where a group that
// takes no positional argument meets a word that names none of its subcommands, returns
// the message for it, which names the group as `program` and its subcommands; nullopt
// when every word is a subcommand, or an option (left to CLI11) comes first.
std::optional<std::string> UnknownSubcommandMessage(const CLI::App& app, std::string_view program,
                                                    std::span<char* const> args);

}  // namespace mpo::tools
