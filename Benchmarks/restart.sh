#!/usr/bin/env bash
# A restart of feedweb under a crowd of EventSource-like clients (issue 31): N clients on
# /events (sseload --reconnect: after the stream ends they wait the `retry:` feedweb sent,
# 2 s, and reconnect with Last-Event-ID, again and again while refused). feedweb is stopped
# and started again on the same port with the same --state-file, once cleanly (SIGTERM) and
# once by a crash (SIGKILL). After a clean restart every client should be back within
# retry + 3 s and resume with the next id (no fresh `data`); after a crash every client gets
# a fresh `data` (a new epoch).
#
#   Benchmarks/restart.sh [FEEDWEB_BINARY] [N ...]       (default .build/release/feedweb; 1000 5000)
#
# Environment: RATE (upstream patches/s, 2), DOWN (seconds between the exit and the new
# start, 0), OUT (a directory: sseload's JSON per run as OUT/restart-N-KIND.json). Prints
# sseload's reconnect summary per run and a table.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/feedweb}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 5000)
rate=${RATE:-2}
down=${DOWN:-0}
. Benchmarks/lib.sh
raise_nofile
bench_tools || exit 2
work=$(mktemp -d)
trap 'stop_all; rm -rf "$work"' EXIT
out=${OUT:-$work}
mkdir -p "$out"
echo "machine: $(nproc) cores; feedweb $bin; upstream $rate patches/s; restart after ${down} s down"

rows=()
for n in "${sizes[@]}"; do
  for kind in clean crash; do
    signal=TERM; [ $kind = crash ] && signal=KILL
    start_upstream "$work/up" --rate "$rate" --duration 600 || exit 1
    port=$(free_port)
    rm -f "$work/state.json"
    args=(--listen "127.0.0.1:$port" --upstream "http://127.0.0.1:$UP_PORT/stream" --state-file "$work/state.json"
      --max-clients 20000 --log-level notice)
    "$bin" "${args[@]}" >"$work/fw1.out" 2>"$work/fw1.err" &
    pid=$!; track $pid
    wait_http "$port" /readyz 200 100 || { echo "restart: feedweb never became ready" >&2; exit 1; }
    ramp=$(awk -v n="$n" 'BEGIN { x = n / 1000; if (x < 1) x = 1; print x }')
    # Connected after the ramp and a 1 s settle; the restart comes 3 s into the window; the
    # window lasts 15 s more, so two retries past the restart fit with time to spare.
    "$TOOLS/sseload" --url "http://127.0.0.1:$port/events" --clients "$n" --ramp "$ramp" --settle 1 \
      --duration 18 --grace 1 --reconnect --threads 2 --json --quiet >"$out/restart-$n-$kind.json" 2>"$work/sseload.err" &
    load=$!
    sleep "$(awk -v r="$ramp" 'BEGIN { print r + 1 + 3 }')"
    before=$(sed -n 's/.*"epoch":"\([a-z0-9]*\)".*/\1/p' "$work/state.json" 2>/dev/null)
    t0=$(date +%s.%N)
    kill -"$signal" $pid; wait $pid 2>/dev/null
    t1=$(date +%s.%N)
    sleep "$down"
    "$bin" "${args[@]}" >"$work/fw2.out" 2>"$work/fw2.err" &
    pid=$!; track $pid
    port_of "$work/fw2.out" "feedweb listening" >/dev/null || { echo "restart: feedweb did not start again" >&2; tail "$work/fw2.err" >&2; exit 1; }
    t2=$(date +%s.%N)
    wait $load
    echo "N=$n $kind (SIG$signal→exit $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s, listening again after $(awk -v a="$t0" -v b="$t2" 'BEGIN { printf "%.2f", b - a }') s): $(grep -o '"reconnect":{[^}]*}[^}]*}[^}]*}' "$out/restart-$n-$kind.json" | head -c 600)"
    grep -h "ids go on\|restored change" "$work/fw2.err" | sed 's/^/    /'
    rows+=("$(python3 - "$out/restart-$n-$kind.json" "$n" "$kind" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["reconnect"]
back = r.get("back_ms", {})
print(f'| {int(sys.argv[2]):,} | {sys.argv[3]} | {r["lost"]:,} | {r["reconnected"]:,} | {r["resumed"]:,} | {r["fresh"]:,} | {r["other"]:,} | {back.get("p50", 0):,.0f} | {back.get("p99", 0):,.0f} | {back.get("max", 0):,.0f} | {r["never_back"]:,} |')
PY
)")
    stop_all
  done
done
echo
echo "| clients | restart | lost | back | resumed | fresh data | other | back p50 ms | p99 ms | max ms | never back |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
