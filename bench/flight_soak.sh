#!/usr/bin/env bash
# The Flight soak of issue 33: `alkaid serve` under many concurrent `alkaid
# put` / `alkaid get` clients, one of them killed (SIGKILL) every second.
# Afterwards: the server still answers and stops cleanly (under ASan: with no
# leak or error report), every DoPut the server logged as OK is a whole IPC
# file equal to what was sent, every other upload left nothing, and no
# temporary file remains.
#
#   bench/flight_soak.sh [ALKAID_EXECUTABLE]    (default build/release/tools/alkaid)
#   ALKAID_SOAK_SECONDS=60 ALKAID_SOAK_CLIENTS=64   (the defaults)
#   ALKAID_SOAK_SERVER=PATH: another alkaid for the server only (e.g. the asan build, or a
#   script running valgrind on the release one: a non-zero exit of the server fails the soak)
# Exit status 0 when every check passed.
set -u
ALKAID=$(realpath "${1:-build/release/tools/alkaid}")
SERVER_EXE=$(realpath "${ALKAID_SOAK_SERVER:-$ALKAID}")
DURATION=${ALKAID_SOAK_SECONDS:-60}
CLIENTS=${ALKAID_SOAK_CLIENTS:-64}
work=$(mktemp -d "${TMPDIR:-/tmp}/alkaid_soak.XXXXXX")
server_pid=
cleanup() {
  touch "$work/stop"
  [ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null
  wait 2>/dev/null
  [ -z "${ALKAID_SOAK_KEEP:-}" ] && rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "flight_soak: FAIL: $*" >&2; exit 1; }
mkdir -p "$work/served" "$work/in" "$work/out"

# Inputs: four IPC files of 20k..80k rows in batches of 4,000 rows, so that
# uploads and downloads are several messages long.
for k in 0 1 2 3; do
  rows=$(( (k + 1) * 20000 ))
  awk -v n="$rows" -v k="$k" 'BEGIN { print "id,name,score"; for (i = 0; i < n; i++)
    printf "%d,client-%d-row-%d,%.3f\n", i, k, i, i / 7 }' > "$work/in/$k.csv"
  "$ALKAID" convert "$work/in/$k.csv" "$work/in/$k.parquet" --format parquet \
    --row-group-size 4000 || fail "making input $k"
  "$ALKAID" convert "$work/in/$k.parquet" "$work/in/$k.arrow" || fail "making input $k"
done
cp "$work/in/3.arrow" "$work/served/base.arrow"

# The server (LeakSanitizer reports at exit when it is an ASan build).
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
  "$SERVER_EXE" serve "$work/served" --port 0 > "$work/serve.out" 2> "$work/serve.err" &
server_pid=$!
for _ in $(seq 600); do grep -q ' on ' "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
url=$(sed -n 's/.* on //p' "$work/serve.out")
[ -n "$url" ] || fail "the server printed no URL: $(cat "$work/serve.err")"

# References: each input uploaded once, alone; later uploads must equal these bytes.
for k in 0 1 2 3; do
  "$ALKAID" put "$work/in/$k.arrow" "$url/ref$k.arrow" > /dev/null || fail "reference upload $k"
  [ "$("$ALKAID" to-json "$work/served/ref$k.arrow")" = "$("$ALKAID" to-json "$work/in/$k.arrow")" ] ||
    fail "reference upload $k differs from its input"
done
base_rows=$("$ALKAID" count "$work/in/3.arrow")

client() {  # $1: client number; even clients upload, odd ones download
  local i=$1 n=0 rc
  while [ ! -e "$work/stop" ]; do
    n=$((n + 1))
    if [ $((i % 2)) -eq 0 ]; then
      local k=$(( (i + n) % 4 ))
      "$ALKAID" put "$work/in/$k.arrow" "$url/c${i}_$n.arrow" > /dev/null 2>> "$work/client$i.err"
      echo "c${i}_$n.arrow $k $?" >> "$work/puts"
    else
      rm -f "$work/out/g$i.arrow"
      "$ALKAID" get "$url/base.arrow" "$work/out/g$i.arrow" 2>> "$work/client$i.err"
      rc=$?
      # The check's own `count` may be the process killed: judge only when it ran.
      if [ $rc -eq 0 ] && got=$("$ALKAID" count "$work/out/g$i.arrow" 2> /dev/null); then
        [ "$got" = "$base_rows" ] || rc=99
      fi
      echo "g$i $rc" >> "$work/gets"
    fi
  done
}
pids=()
for i in $(seq 0 $((CLIENTS - 1))); do client "$i" 2>> "$work/loops.err" & pids+=($!); done

# Once a second, SIGKILL the alkaid process of a random client that has one
# running (a few tries: a loop may be between two runs). Builtins only (read,
# kill), so a loaded machine does not slow the schedule; a late round catches up.
kills=0; rounds=0
start=$SECONDS
while [ $((SECONDS - start)) -lt "$DURATION" ]; do
  if [ $rounds -ge $((SECONDS - start)) ]; then sleep 0.2; continue; fi
  rounds=$((rounds + 1))
  for _ in 1 2 3 4 5 6 7 8; do
    victim=${pids[$((RANDOM % CLIENTS))]}
    child=
    read -r child _ < "/proc/$victim/task/$victim/children" 2>/dev/null
    [ -n "$child" ] || continue
    comm=
    read -r comm < "/proc/$child/comm" 2>/dev/null
    if [ "$comm" = alkaid ] && kill -9 "$child" 2>/dev/null; then kills=$((kills + 1)); break; fi
  done
  kill -0 "$server_pid" 2>/dev/null || fail "the server died: $(tail -5 "$work/serve.err")"
done
touch "$work/stop"
wait "${pids[@]}" 2>/dev/null

# The server still answers.
"$ALKAID" flights "$url" > "$work/flights" || fail "the server stopped answering"

# Every DoPut the server logged as OK is whole and equal to its reference;
# every other upload left nothing.
puts_ok=0; puts_failed=0; committed_but_client_died=0
while read -r name k rc; do
  if grep -q "DoPut [^ ]* $name rows=[0-9]* bytes=[0-9]* OK" "$work/serve.err"; then
    [ -f "$work/served/$name" ] || fail "$name: DoPut OK in the log but no file"
    cmp -s "$work/served/$name" "$work/served/ref$k.arrow" || fail "$name: not equal to what was sent"
    if [ "$rc" -eq 0 ]; then puts_ok=$((puts_ok + 1)); else
      committed_but_client_died=$((committed_but_client_died + 1)); fi
  else
    [ "$rc" -ne 0 ] || fail "$name: the client succeeded but the server logged no OK DoPut"
    [ ! -e "$work/served/$name" ] || fail "$name: a failed upload left a file"
    puts_failed=$((puts_failed + 1))
  fi
done < "$work/puts"
expected=$(( $(wc -l < "$work/puts") + 5 ))  # uploads, the 4 references, base.arrow
actual=$(find "$work/served" -type f | wc -l)
temps=$(find "$work/served" -name '*.alkaid-tmp-*' | wc -l)
[ "$temps" -eq 0 ] || fail "$temps temporary files remain"
[ "$actual" -le "$expected" ] || fail "the served directory holds files nobody uploaded"
gets_ok=$(awk '$2 == 0' "$work/gets" | wc -l)
gets_failed=$(awk '$2 != 0' "$work/gets" | wc -l)
[ "$(awk '$2 == 99' "$work/gets" | wc -l)" -eq 0 ] || fail "a download completed with the wrong rows"

# A clean stop; under ASan no report.
kill -TERM "$server_pid"
wait "$server_pid"
server_rc=$?
server_pid=
grep -q -E 'AddressSanitizer|LeakSanitizer|runtime error' "$work/serve.err" &&
  fail "sanitizer report: $(grep -m5 -E 'Sanitizer|runtime error' "$work/serve.err")"
[ "$server_rc" -eq 0 ] || fail "the server exited with $server_rc: $(tail -5 "$work/serve.err")"
calls=$(grep -c '^alkaid serve: Do' "$work/serve.err")
echo "flight_soak: OK: ${DURATION}s, $CLIENTS clients, $kills clients killed in $rounds seconds; uploads: $puts_ok OK," \
  "$committed_but_client_died stored before their client was killed, $puts_failed failed and" \
  "left nothing; downloads: $gets_ok OK, $gets_failed failed; $calls data calls logged;" \
  "server exit 0, no temporary files"
