#!/usr/bin/env bash
# memprof-oracle --version: one line naming the release number (the constant in
# core/base/version.h, read from the header itself) and the git revision.
source tools/cli_test_lib.sh
bin="$1"
header="$2"
want=$(sed -nE 's/.*kVersion = "([0-9]+\.[0-9]+\.[0-9]+)";.*/\1/p' "$header")
[ -n "$want" ] || fail "no kVersion = \"X.Y.Z\" in $header"

check "--version" 0 "$bin" --version
if [[ "$(cat "$out")" =~ ^memprof-oracle\ ([0-9]+\.[0-9]+\.[0-9]+)\ \(git\ ([0-9a-f]{7,40}|unknown)\)$ ]]; then
  [ "${BASH_REMATCH[1]}" = "$want" ] || fail "--version says ${BASH_REMATCH[1]}, header says $want"
else
  fail "--version line: $(cat "$out")"
fi
[ "$(wc -l <"$out")" = 1 ] || fail "--version printed $(wc -l <"$out") lines"
[ -s "$err" ] && fail "--version wrote to stderr: $(cat "$err")"

# It wins over a missing subcommand and is listed in the help.
check "--help" 0 "$bin" --help
grep -q -- "--version" "$out" || fail "--help does not list --version"
check "--version before a command" 0 "$bin" --version sample --count 1
grep -q "^memprof-oracle $want " "$out" || fail "--version before a command: $(cat "$out")"
check "no command is still a usage error" 2 "$bin"

# Like every command's output, a failed write is exit 2.
got=0
"$bin" --version >/dev/full 2>"$err" || got=$?
[ "$got" = 2 ] || fail "--version > /dev/full: exit $got, want 2"
cli_done
