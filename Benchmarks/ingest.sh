#!/usr/bin/env bash
# The ingest benchmark (first part): what one change costs feedweb and how much of the
# upstream it takes, append mode, Wikimedia-shaped ~1.2 KB items
# (ingest/append_upstream.py), 5 clients each on /events (sseload, which also measures
# upstream → client latency from the `sent_ns` stamp in each item), /events/items and the
# list page stream (curl, reading and discarding).
#
#   Benchmarks/ingest.sh FEEDWEB [PEER_FEEDWEB]
#
# For each --keep in KEEPS and rate in RATES: ROUNDS rounds, feedweb and the peer build
# (another feedweb binary, e.g. main's) interleaved; each prints the changes/s taken (and
# the share of what upstream sent), feedweb's CPU in cores and CPU ms per change, over a
# WINDOW-second window after a 3 s warm-up, and the /events latency p50 / p99 over the same
# window. Not measured yet: latency on /events/items and the page stream.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
trap stop_all EXIT
bench_tools
KEEPS=${KEEPS:-"20 1000"} RATES=${RATES:-"100 400"} ROUNDS=${ROUNDS:-3} WINDOW=${WINDOW:-8}
binaries=("$1")
[[ $# -ge 2 ]] && binaries+=("$2")
work=$(mktemp -d)

received() {
  curl -s "http://127.0.0.1:$1/readyz" | python3 -c 'import sys,json;print(json.load(sys.stdin)["upstream"]["events_received"])'
}
cpu_ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }

one() {  # BINARY KEEP RATE
  local up_port t0 t1 s0 s1 path loader
  up_port=$(free_port)
  python3 "$BENCH_LIB_DIR/ingest/append_upstream.py" "$up_port" "$3" $((WINDOW + 8)) &
  track $!
  sleep 0.5
  start_feedweb "$1" "$work/feedweb" "http://127.0.0.1:$up_port/rc" --mode append \
    --profile wikimedia-recentchange --keep "$2" --log-level error
  "$TOOLS/sseload" --url "http://127.0.0.1:$FW_PORT/events" --clients 5 --ramp 0.2 --settle 2.8 \
    --duration "$WINDOW" --grace 1 --json --quiet >"$work/sseload.json" 2>/dev/null &
  loader=$!
  for path in /events/items "/events/page?view=list"; do
    for _ in 1 2 3 4 5; do
      curl -sN "http://127.0.0.1:$FW_PORT$path" >/dev/null 2>&1 &
      track $!
    done
  done
  sleep 3
  t0=$(cpu_ticks "$FW_PID") s0=$(received "$FW_PORT")
  sleep "$WINDOW"
  t1=$(cpu_ticks "$FW_PID") s1=$(received "$FW_PORT")
  wait "$loader" || true
  stop_all || true
  python3 -c "
import json
d=$s1-$s0; cpu=($t1-$t0)/$(getconf CLK_TCK)
try:
    lat=json.load(open('$work/sseload.json'))['latency_ms']; latency=f\", /events p50 {lat['p50']:.1f} p99 {lat['p99']:.1f} ms\"
except Exception:
    latency=', /events latency: none measured'
print(f'$(basename "$1") keep=$2 rate=$3: {d/$WINDOW:.0f} changes/s ({100*d/($3*$WINDOW):.0f} %), {cpu/$WINDOW:.2f} cores, {1000*cpu/max(d,1):.2f} ms/change' + latency)"
}

for keep in $KEEPS; do
  for rate in $RATES; do
    for round in $(seq "$ROUNDS"); do
      for binary in "${binaries[@]}"; do
        echo -n "round $round: "
        one "$binary" "$keep" "$rate"
      done
    done
  done
done
rm -rf "$work"
