#!/bin/bash
# The real program against hostile corpora and hostile implementations: typed errors
# with exit code 1 (bad input) or 2 (usage, I/O), never a crash, hang, leaked process
# or unbounded memory. Every command runs under `timeout` so a hang is a failure.
set -o pipefail
source tools/cli_test_lib.sh
BIN="$(abs_path "$1")"
T="$tmp"
run() { timeout 120 "$BIN" "$@"; }

# A one-case corpus: a sampler request and its reference decode.
make_corpus() {
  local d="$1"
  mkdir -p "$d/sampler"
  echo '{"seed":1,"lambda":0.5,"mode":"geometric","count":3}' > "$d/sampler/a.sampler.json"
  "$BIN" corpus decode "$d/sampler/a.sampler.json" > "$d/sampler/a.sampler.json.expected.jsonl"
  cat > "$d/MANIFEST.json" <<'M'
{"schema":2,"cases":[{"name":"sampler/a","file":"sampler/a.sampler.json",
 "expected_jsonl":"sampler/a.sampler.json.expected.jsonl"}]}
M
}
no_crash() {  # no abort, signal or sanitizer report in the last command's stderr
  if grep -qE "terminate called|Sanitizer|Segmentation|Aborted|core dumped" "$err"; then
    fail "$1: crashed: $(head -3 "$err")"
  fi
}

C="$T/c"
make_corpus "$C"
check "a sane impl passes" 0 run corpus check "$C" --impl "cat {file}.expected.jsonl"

# --- The manifest: typed errors naming the member. ---
for m in '{"schema":"2","cases":[]}' '{"schema":null,"cases":[]}' '{"schema":2,"cases":{}}' \
         '{"schema":2,"cases":[{"name":1,"file":"a","expected_jsonl":"b"}]}' '[' ; do
  cp "$C/MANIFEST.json" "$T/good_manifest"
  printf '%s' "$m" > "$C/MANIFEST.json"
  check "manifest $m" 1 run corpus check "$C" --impl "cat {file}.expected.jsonl"
  no_crash "manifest $m"
  grep -q "MANIFEST.json" "$err" || fail "manifest $m: error does not name MANIFEST.json: $(cat "$err")"
  cp "$T/good_manifest" "$C/MANIFEST.json"
done
# Another schema: the wrong corpus for this program (exit 2); schema 1 is told to regenerate.
mkdir -p "$T/v3" && printf '%s' '{"schema":3,"cases":[]}' > "$T/v3/MANIFEST.json"
check "manifest schema 3" 2 run corpus check "$T/v3" --impl "cat {file}"
grep -q "unsupported version: MANIFEST.json: schema: schema 3 is not 2" "$err" || fail "schema 3: $(cat "$err")"
mkdir -p "$T/v1" && printf '%s' '{"schema":1,"cases":[]}' > "$T/v1/MANIFEST.json"
check "manifest schema 1" 2 run corpus check "$T/v1" --impl "cat {file}"
grep -qF 'corpus schema 1: regenerate it with `memprof-oracle corpus gen DIR`' "$err" \
  || fail "schema 1: $(cat "$err")"
mkdir -p "$T/dirmanifest/MANIFEST.json"
check "MANIFEST.json is a directory" 2 run corpus check "$T/dirmanifest" --impl "cat {file}"
no_crash "MANIFEST.json is a directory"
check "no corpus here" 2 run corpus check "$T/nothing" --impl "cat {file}"

# --- Case files that are not regular files. ---
mkdir -p "$T/x.ctf"
check "decode a directory" 2 run corpus decode "$T/x.ctf"
no_crash "decode a directory"
grep -q "is a directory" "$err" || fail "decode a directory: $(cat "$err")"
mkfifo "$T/y.ocaml-5.1.events"
check "decode a FIFO" 2 run corpus decode "$T/y.ocaml-5.1.events"
grep -q "FIFO" "$err" || fail "decode a FIFO: $(cat "$err")"
check "decode a missing file" 2 run corpus decode "$T/missing.sampler.json"
# A regular file whose read fails with EIO (/proc/self/mem at offset 0).
ln -s /proc/self/mem "$T/eio.ocaml-5.3.events"
check "decode a file whose read fails (EIO)" 2 run corpus decode "$T/eio.ocaml-5.3.events"
no_crash "decode EIO"
grep -q "Input/output error" "$err" || fail "decode EIO: $(cat "$err")"
F="$T/f"
make_corpus "$F"
ln -sf /proc/self/mem "$F/sampler/a.sampler.json.expected.jsonl"
check "check with an unreadable (EIO) expected file" 2 run corpus check "$F" --impl "cat {file}"
no_crash "check EIO"
D="$T/d"
make_corpus "$D"
rm "$D/sampler/a.sampler.json" && mkdir "$D/sampler/a.sampler.json"
check "check with a directory as case file" 2 run corpus check "$D" --impl "cat {file}.expected.jsonl"
no_crash "check with a directory as case file"

# --- Deep JSON: a FAIL with a reason, not a stack overflow. ---
python3 -c "print('[' * 100000 + ']' * 100000)" > "$T/deep.json"
check "impl prints 100000 nested [" 1 run corpus check "$C" --impl "cat $T/deep.json # {file}"
no_crash "deep output"
grep -q "^FAIL sampler/a: output line 1 is not JSON: nested deeper than 512 levels$" \
  "$out" || fail "deep output: $(cat "$out")"
E="$T/e"
make_corpus "$E"
cp "$T/deep.json" "$E/sampler/a.sampler.json.expected.jsonl"
check "expected file nested 100000 deep" 1 run corpus check "$E" --impl "cat {file}.expected.jsonl"
no_crash "deep expected"
grep -q "^FAIL sampler/a: expected file .*nested deeper than 512 levels" "$out" \
  || fail "deep expected: $(cat "$out")"

# --- Too much output: capped, reported unparsed, memory bounded. ---
check "output past --max-output-mib" 1 run corpus check "$C" --max-output-mib 1 \
  --impl "head -c 5000000 /dev/zero # {file}"
grep -q "^FAIL sampler/a: output exceeds the 1 MiB limit (--max-output-mib raises it); not parsed$" \
  "$out" || fail "capped output: $(cat "$out")"
# Peak RSS of `corpus check` with IMPL, in KiB. ASan's quarantine of freed memory
# (256 MiB by default) would hold on to what the checker frees; it is kept small here so
# that the figure is the checker's own in a sanitized build too.
peak_rss() {
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16" \
    /usr/bin/time -f "%M %e" -o "$T/rss" timeout 120 "$BIN" corpus check "$C" --impl "$1" \
    > "$out" 2> "$err"
  read -r rss_kb secs < <(tail -1 "$T/rss")
}
# The bombs are judged by growth over the same check of a one-line output, so a
# sanitized build's larger base (about 250 MiB under ASan -O0) does not count.
peak_rss "printf '[0]' # {file}"
base_kb=$rss_kb
echo "baseline: peak RSS $((base_kb / 1024)) MiB"
# The 256 MiB bomb at the default 64 MiB cap: growth well under the bomb's size.
peak_rss "{ printf '['; yes '0,' | head -c 268435455; printf '0]'; } # {file}"
grep -q "output exceeds the 64 MiB limit" "$out" || fail "256 MiB bomb: $(cat "$out" "$err")"
echo "256 MiB output bomb: peak RSS $((rss_kb / 1024)) MiB, $secs s"
[ $((rss_kb - base_kb)) -lt $((192 * 1024)) ] \
  || fail "256 MiB bomb: peak RSS grew by $(((rss_kb - base_kb) / 1024)) MiB"
# Just under the cap: 33 million values on one line are counted, not built (built, they
# would take over 500 MiB).
peak_rss "{ printf '['; yes '0,' | tr -d '\\n' | head -c 66060285; printf '0]'; } # {file}"
grep -q "output holds more than 1048576 JSON values" "$out" || fail "63 MiB bomb: $(cat "$out" "$err")"
echo "63 MiB output of 33M values on one line: peak RSS $((rss_kb / 1024)) MiB, $secs s"
[ $((rss_kb - base_kb)) -lt $((256 * 1024)) ] \
  || fail "63 MiB bomb: peak RSS grew by $(((rss_kb - base_kb) / 1024)) MiB"

# --- Processes the impl leaves behind. ---
alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null && ! grep -q '^[^)]*) Z' "/proc/$1/stat" 2>/dev/null; }
check "background child" 0 run corpus check "$C" \
  --impl "sleep 300 </dev/null >/dev/null 2>&1 & echo \$! > $T/bg.pid; cat {file}.expected.jsonl"
pid=$(cat "$T/bg.pid")
if alive "$pid"; then fail "background child $pid outlived the check"; kill -9 "$pid"; fi
check "setsid grandchild" 0 run corpus check "$C" \
  --impl "setsid sh -c 'echo \$\$ > $T/ss.pid; exec sleep 300' </dev/null >/dev/null 2>&1 & cat {file}.expected.jsonl"
sleep 0.2
pid=$(cat "$T/ss.pid" 2>/dev/null)
if alive "$pid"; then fail "setsid grandchild $pid outlived the check"; kill -9 "$pid"; fi
check "setsid grandchild on time-out" 1 run corpus check "$C" --timeout 0.5 \
  --impl "setsid sh -c 'echo \$\$ > $T/st.pid; exec sleep 300' </dev/null >/dev/null 2>&1 & sleep 300 # {file}"
grep -q "^FAIL sampler/a: timed out" "$out" || fail "time-out: $(cat "$out")"
sleep 0.2
pid=$(cat "$T/st.pid" 2>/dev/null)
if alive "$pid"; then fail "setsid grandchild $pid survived the time-out"; kill -9 "$pid"; fi
# An impl that kills its parent ($PPID), or the supervisor above it: a failed case, the
# run goes on to its summary (exit 1, not 2), and nothing the impl started survives.
check "impl kills its parent" 1 run corpus check "$C" \
  --impl "sleep 300 </dev/null >/dev/null 2>&1 & echo \$! > $T/kp.pid; kill -9 \$PPID; sleep 1; cat {file}.expected.jsonl"
grep -q "^FAIL sampler/a: killed by signal 9" "$out" || fail "kill \$PPID: $(cat "$out" "$err")"
sleep 0.2
pid=$(cat "$T/kp.pid" 2>/dev/null)
if alive "$pid"; then fail "a child of an impl that killed its parent survived"; kill -9 "$pid"; fi
check "impl kills the supervisor" 1 run corpus check "$C" \
  --impl "sleep 300 </dev/null >/dev/null 2>&1 & echo \$! > $T/ks.pid; kill -9 \$(awk '{print \$4}' /proc/\$PPID/stat); sleep 1; cat {file}.expected.jsonl"
grep -q "^FAIL sampler/a: the command killed the kit's supervisor process" "$out" ||
  fail "kill the supervisor: $(cat "$out" "$err")"
sleep 0.2
pid=$(cat "$T/ks.pid" 2>/dev/null)
if alive "$pid"; then fail "a child of an impl that killed the supervisor survived"; kill -9 "$pid"; fi
# The supervisor's entry point, started by hand: a usage error, nothing run.
check "supervisor started by hand" 2 bash -c \
  'exec -a memprof-oracle-supervisor "$0" --internal-supervisor-of-the-conformance-kit stdin-null "touch $1"' \
  "$BIN" "$T/ran"
grep -q "internal supervisor" "$err" || fail "supervisor by hand: $(cat "$err")"
[ ! -e "$T/ran" ] || fail "a supervisor started by hand ran its command"
# The same with two cases at once, and a descendant that left the group with setsid: the
# kit kills every orphan but the other case's supervisor, whose case is still judged.
P="$T/pair"
make_corpus "$P"
cp "$P/sampler/a.sampler.json" "$P/sampler/b.sampler.json"
cp "$P/sampler/a.sampler.json.expected.jsonl" "$P/sampler/b.sampler.json.expected.jsonl"
cat >"$P/MANIFEST.json" <<'M'
{"schema":2,"cases":[{"name":"sampler/a","file":"sampler/a.sampler.json",
 "expected_jsonl":"sampler/a.sampler.json.expected.jsonl"},
 {"name":"sampler/b","file":"sampler/b.sampler.json",
 "expected_jsonl":"sampler/b.sampler.json.expected.jsonl"}]}
M
check "impl kills the supervisor, -j 2, setsid escapee" 1 run corpus check "$P" -j 2 --impl \
  "f={file}; case \$f in */a.*) setsid sh -c 'echo \$\$ > $T/esc.pid; exec sleep 300' </dev/null >/dev/null 2>&1 & sleep 0.3; kill -9 \$(awk '{print \$4}' /proc/\$PPID/stat); sleep 1;; *) sleep 1;; esac; cat \$f.expected.jsonl"
grep -q "^FAIL sampler/a: the command killed the kit's supervisor process" "$out" ||
  fail "-j 2 kill the supervisor: $(cat "$out" "$err")"
grep -q "^PASS sampler/b" "$out" || grep -q "^1 passed, 1 failed" "$out" ||
  fail "-j 2: the other case was not judged: $(cat "$out")"
sleep 0.2
pid=$(cat "$T/esc.pid" 2>/dev/null)
[ -n "$pid" ] || fail "-j 2: the escapee never started"
if alive "$pid"; then fail "-j 2: a setsid escapee of an impl that killed its supervisor survived"; kill -9 "$pid"; fi
# With two cases at once, each impl holds stdin, stdout and stderr and no other
# descriptor of the kit's or the supervisors', and its parent is a supervisor's child.
# Looked at from outside, once the shell has exec'd sleep: a shell holds descriptors of
# its own.
timeout 60 "$BIN" corpus check "$P" -j 2 \
  --impl "f={file}; echo \$\$ > $T/held.\${f##*/}; exec sleep 1" >"$out" 2>"$err" &
kit=$!
for f in a b; do
  pid=
  for _ in $(seq 200); do
    pid=$(cat "$T/held.$f.sampler.json" 2>/dev/null)
    [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = sleep ] && break
    sleep 0.01
  done
  fds=$(ls "/proc/$pid/fd" 2>/dev/null | sort -n | tr '\n' ' ')
  [ "$fds" = "0 1 2 " ] || fail "-j 2: impl $f holds descriptors '$fds'"
  parent=$(cut -d' ' -f4 "/proc/$pid/stat" 2>/dev/null)
  [ "$(cat "/proc/$parent/comm" 2>/dev/null)" = mpo-supervisor ] ||
    fail "-j 2: impl $f's parent is not a supervisor's child"
done
rc=0
wait "$kit" || rc=$?
[ "$rc" = 1 ] || fail "-j 2 descriptors: the check (no output: failed cases) ended $rc: $(cat "$err")"
# An impl that rewrites the corpus: a decoder that always prints case a's stream, and
# copies it over case b's expected file, must not pass b; the run says the corpus changed.
W="$T/written"
make_corpus "$W"
echo '{"seed":2,"lambda":0.5,"mode":"geometric","count":3}' >"$W/sampler/b.sampler.json"
"$BIN" corpus decode "$W/sampler/b.sampler.json" >"$W/sampler/b.sampler.json.expected.jsonl"
cat >"$W/MANIFEST.json" <<'M'
{"schema":2,"cases":[{"name":"sampler/a","file":"sampler/a.sampler.json",
 "expected_jsonl":"sampler/a.sampler.json.expected.jsonl"},
 {"name":"sampler/b","file":"sampler/b.sampler.json",
 "expected_jsonl":"sampler/b.sampler.json.expected.jsonl"}]}
M
cmp -s "$W/sampler/a.sampler.json.expected.jsonl" "$W/sampler/b.sampler.json.expected.jsonl" &&
  fail "the two cases have the same expected stream"
# One case at a time, so that b's expected file is read after a's run rewrote it.
check "impl rewriting expected files" 1 run corpus check "$W" -j 1 --impl \
  "cat $W/sampler/a.sampler.json.expected.jsonl >$W/sampler/b.sampler.json.expected.jsonl; cat $W/sampler/a.sampler.json.expected.jsonl # {file}"
grep -q "^FAIL sampler/b: expected file sampler/b.sampler.json.expected.jsonl changed during the run" "$out" ||
  fail "a rewritten expected file was trusted: $(cat "$out")"
grep -q "b.sampler.json.expected.jsonl changed during the run" "$err" ||
  fail "the changed corpus is not reported: $(cat "$err")"
# At once, b may be judged by the file as it was: b fails either way, and the run says so.
"$BIN" corpus decode "$W/sampler/b.sampler.json" >"$W/sampler/b.sampler.json.expected.jsonl"
check "impl rewriting expected files, -j 2" 1 run corpus check "$W" -j 2 --impl \
  "cat $W/sampler/a.sampler.json.expected.jsonl >$W/sampler/b.sampler.json.expected.jsonl; cat $W/sampler/a.sampler.json.expected.jsonl # {file}"
grep -q "^FAIL sampler/b: " "$out" || fail "-j 2: a rewritten expected file was trusted: $(cat "$out")"
grep -q "b.sampler.json.expected.jsonl changed during the run" "$err" ||
  fail "-j 2: the changed corpus is not reported: $(cat "$err")"
start=$(date +%s)
check "a child holding stdout" 0 run corpus check "$C" --timeout 10 \
  --impl "sleep 300 & cat {file}.expected.jsonl"
[ $(($(date +%s) - start)) -lt 6 ] || fail "a child holding stdout delayed the verdict"
check "right output, exit 3" 1 run corpus check "$C" --impl "cat {file}.expected.jsonl; exit 3"
grep -q "^FAIL sampler/a: exit code 3 where the input is accepted; the stream printed matches$" "$out" || fail "exit 3: $(cat "$out")"

# --- Numeric options: usage errors. ---
for v in nan -1 "" inf 0 1e9; do
  check "--timeout '$v'" 2 run corpus check "$C" --timeout "$v" --impl "cat {file}"
done
for v in 0 -1 "" 1.5 65537 18446744073709551616; do
  check "--max-output-mib '$v'" 2 run corpus check "$C" --max-output-mib "$v" --impl "cat {file}"
done

# --- gen replaces planted symlinks instead of writing through them. ---
G="$T/g"
mkdir -p "$G/sampler"
echo precious > "$T/victim"
ln -s "$T/victim" "$G/MANIFEST.json"
ln -s "$T/victim" "$G/sampler/geometric_seed0_lambda1e-6.sampler.json"
check "gen over planted symlinks" 0 run corpus gen "$G"
[ "$(cat "$T/victim")" = precious ] || fail "gen wrote through a planted symlink"
[ -L "$G/MANIFEST.json" ] && fail "MANIFEST.json is still a symlink"
mkdir -p "$T/h" "$T/elsewhere" && ln -s "$T/elsewhere" "$T/h/ring"
check "gen with a symlinked subdirectory" 2 run corpus gen "$T/h"
[ -z "$(ls -A "$T/elsewhere")" ] || fail "gen wrote into a symlinked subdirectory"
cli_done
