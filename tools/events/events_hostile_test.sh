#!/usr/bin/env bash
# `memprof-oracle events` against hostile input and careless use: every case
# ends with the documented exit code (0 ok, 1 bad input, 2 usage or I/O), quickly, and
# never loses a file. Each case failed (hang, crash, clobbered file, wrong exit) before
# the ring hardening.
source tools/cli_test_lib.sh
bin="$1"
maker="$2"
to() { timeout 20 "$@"; }  # a hang is a failure (exit 124), not a stuck test

gzip -dc testdata/ring/single/3995.events.gz > "$tmp/r.events"
cp "$tmp/r.events" "$tmp/r.orig"
same_ring() {  # and restore it, so that later cases stay independent
  cmp -s "$tmp/r.events" "$tmp/r.orig" || { fail "$1: the input ring was modified"; cp "$tmp/r.orig" "$tmp/r.events"; }
}

# Inputs that are not regular files: refused at once, never a blocking open().
mkfifo "$tmp/fifo.events"
for sub in dump stats; do
  check "$sub FIFO" 2 to "$bin" events "$sub" "$tmp/fifo.events"
  grep -q FIFO "$err" || fail "$sub FIFO message"
done
check "chrome FIFO" 2 to "$bin" events chrome "$tmp/fifo.events" "$tmp/f.json"
check "dump directory" 2 to "$bin" events dump "$tmp"
grep -q directory "$err" || fail "directory message"
mkdir -p "$tmp/fd"; mkfifo "$tmp/fd/123.events"
check "dump DIR PID naming a FIFO" 2 to "$bin" events dump "$tmp/fd" 123

# Outputs: never the input, through any name; a failure leaves the old OUT as it was.
check "chrome R R" 2 to "$bin" events chrome "$tmp/r.events" "$tmp/r.events"
same_ring "chrome R R"
ln -s r.events "$tmp/sym.json"
check "chrome OUT symlink to R" 2 to "$bin" events chrome "$tmp/r.events" "$tmp/sym.json"
same_ring "symlink"
ln "$tmp/r.events" "$tmp/hard.json"
check "chrome OUT hard link to R" 2 to "$bin" events chrome "$tmp/r.events" "$tmp/hard.json"
same_ring "hard link"
grep -q 'same file' "$err" || fail "same-file message"
# A ring that is corrupt after its header: chrome fails after OUT was started.
cp "$tmp/r.events" "$tmp/bad.events"
# Zero the header word of ring 0's first event (at head): a length-0 message.
python3 - "$tmp/bad.events" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
n, headers, data = struct.unpack_from("<Q", b, 32)[0], struct.unpack_from("<Q", b, 40)[0], struct.unpack_from("<Q", b, 48)[0]
head = struct.unpack_from("<Q", b, headers)[0]
struct.pack_into("<Q", b, data + 8 * (head % n), 0)
open(sys.argv[1], "wb").write(b)
PY
echo old > "$tmp/old.json"
check "chrome of a corrupt ring" 1 to "$bin" events chrome "$tmp/bad.events" "$tmp/old.json"
[ "$(cat "$tmp/old.json")" = old ] || fail "a failed chrome replaced the old OUT"
[ -z "$(ls -A "$tmp" | grep -v -e '^r\.' -e '^bad\.' -e '^old\.' -e '^fifo\.' -e '^fd$' -e '^sym\.' -e '^hard\.' -e '^out$' -e '^err$')" ] ||
  fail "temporary files left: $(ls -A "$tmp")"
check "chrome writes OUT" 0 to "$bin" events chrome "$tmp/r.events" "$tmp/old.json"
head -c 40 "$tmp/old.json" | grep -q '^{"traceEvents":\[' || fail "chrome OUT"

# Process ids: > 0 and within pid_t, never truncated; tail always ends.
mkdir -p "$tmp/d"; cp "$tmp/r.events" "$tmp/d/0.events"; cp "$tmp/r.events" "$tmp/d/1.events"
check "tail DIR 0" 2 to "$bin" events tail "$tmp/d" 0
check "tail DIR 2^32+1 (would truncate to 1)" 2 to "$bin" events tail "$tmp/d" 4294967297
check "dump DIR 2^31" 2 to "$bin" events dump "$tmp/d" 2147483648
check "dump DIR 00" 2 to "$bin" events dump "$tmp/d" 00
check "dump DIR +1" 2 to "$bin" events dump "$tmp/d" +1
check "dump DIR ''" 2 to "$bin" events dump "$tmp/d" ""
check "dump DIR 1" 0 to "$bin" events dump "$tmp/d" 1
check "tail of a live process stops at --max-seconds" 0 to "$bin" events tail "$tmp/d" 1 --max-seconds 0.3 --interval-ms 50
grep -q 'max-seconds' "$err" || fail "tail does not say why it stopped"

# Numeric options: NaN, negative, huge, empty and trailing text are usage errors.
for opt in "--interval-ms nan" "--interval-ms -1" "--interval-ms 1e300" "--interval-ms inf" \
           "--interval-ms 10x" "--max-seconds nan" "--max-seconds -5" "--batch 0" "--batch -1" \
           "--batch 65" "--batch 18446744073709551617" "--ocaml-version 9.9"; do
  # shellcheck disable=SC2086
  check "tail $opt" 2 to "$bin" events tail "$tmp/d" 1 --max-seconds 1 $opt
done
check "tail --interval-ms ''" 2 to "$bin" events tail "$tmp/d" 1 --interval-ms ""
check "dump --batch ''" 2 to "$bin" events dump "$tmp/r.events" --batch ""

# Failed writes to stdout are I/O errors, not success.
for sub in dump stats; do
  check "$sub > /dev/full" 2 to sh -c '"$0" events "$1" "$2" > /dev/full' "$bin" "$sub" "$tmp/r.events"
  grep -q stdout "$err" || fail "$sub /dev/full message"
done
check "dump --json > /dev/full" 2 to sh -c '"$0" events dump --json "$1" > /dev/full' "$bin" "$tmp/r.events"
sleep 30 & sleeper=$!
cp "$tmp/r.events" "$tmp/d/$sleeper.events"
check "tail > /dev/full" 2 to sh -c '"$0" events tail "$1" "$2" --interval-ms 10 > /dev/full' "$bin" "$tmp/d" "$sleeper"

# The ring shrinks while tail maps it: a typed error (exit 1), not SIGBUS (135).
"$maker" "$tmp/d" "$sleeper" 2 12 > /dev/null
( sleep 0.5; truncate -s 0 "$tmp/d/$sleeper.events" ) &
check "tail of a ring truncated while mapped" 1 to "$bin" events tail "$tmp/d" "$sleeper" --interval-ms 20
# A start slower than the truncation (a sanitized binary on a busy machine) finds the file
# already empty: the same exit code, with truncated's own message.
grep -qE 'shrank|empty file' "$err" || fail "shrunk ring message: $(head -c 300 "$err")"
"$maker" "$tmp/d" "$sleeper" 2 12 > /dev/null
truncate -s 4096 "$tmp/d/$sleeper.events"
check "dump of a truncated ring" 1 to "$bin" events dump "$tmp/d" "$sleeper"
kill "$sleeper" 2>/dev/null
cli_done
