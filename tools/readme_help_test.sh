#!/usr/bin/env bash
# README.md documents every command and every option the program's --help lists: each
# command path (`memtrace leaks`, `events record`, ...) appears in README.md, and each of
# its long options appears on a README line that names the command. The lists come from
# --help itself, so a new option without a README entry fails here.
source "$(dirname "$0")/cli_test_lib.sh"
bin="$(abs_path "$1")"
readme="$(abs_path "$2")"

# The subcommands a --help text lists (CLI11: a "Subcommands:" block, two-space indent).
subcommands() {
  awk '/^Subcommands:/ {f = 1; next} f && /^  [a-z]/ {print $1} f && /^$/ {f = 0}'
}
# Long options, without the ones every command has.
long_options() {
  grep -oE -- '(^|[ ,])--[a-z][a-z0-9-]*' | sed 's/^[ ,]*//' | sort -u | grep -vxE -- '--help'
}

checked=0
walk() {
  local path="$1" help sub opt
  # shellcheck disable=SC2086  # the path is words
  help=$("$bin" $path --help) || { fail "memprof-oracle $path --help failed"; return; }
  if [ -n "$path" ]; then
    grep -qF -- "$path" "$readme" || fail "README.md does not name the command '$path'"
    while read -r opt; do
      [ -n "$opt" ] || continue
      checked=$((checked + 1))
      grep -F -- "$path" "$readme" | grep -qF -- "$opt" ||
        fail "README.md has no line naming '$path' and its option $opt"
    done < <(printf '%s\n' "$help" | sed '/^Subcommands:/,$d' | long_options)
  fi
  while read -r sub; do
    [ -n "$sub" ] && walk "${path:+$path }$sub"
  done < <(printf '%s\n' "$help" | subcommands)
}
walk ""
grep -qF -- "--version" "$readme" || fail "README.md does not document --version"
[ "$checked" -gt 50 ] || fail "only $checked options found in --help: the parser is broken"
echo "checked $checked options"
cli_done
