#!/usr/bin/env bash
# The ingest benchmark (first part): what one change costs feedweb and how much of the
# upstream it takes, append mode, Wikimedia-shaped ~1.2 KB items
# (ingest/append_upstream.py), 5 clients each on /events, /events/items and the list page
# stream (curl, reading and discarding).
#
#   Benchmarks/ingest.sh FEEDWEB [PEER_FEEDWEB]
#
# For each --keep in KEEPS and rate in RATES: ROUNDS rounds, feedweb and the peer build
# (another feedweb binary, e.g. main's) interleaved; each prints the changes/s taken (and
# the share of what upstream sent), feedweb's CPU in cores and CPU ms per change, over a
# WINDOW-second window after a 3 s warm-up. Not measured yet: latency per stream.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
trap stop_all EXIT
KEEPS=${KEEPS:-"20 1000"} RATES=${RATES:-"100 400"} ROUNDS=${ROUNDS:-3} WINDOW=${WINDOW:-8}
binaries=("$1")
[[ $# -ge 2 ]] && binaries+=("$2")
work=$(mktemp -d)

received() {
  curl -s "http://127.0.0.1:$1/readyz" | python3 -c 'import sys,json;print(json.load(sys.stdin)["upstream"]["events_received"])'
}
cpu_ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }

one() {  # BINARY KEEP RATE
  local up_port t0 t1 s0 s1 path
  up_port=$(free_port)
  python3 "$BENCH_LIB_DIR/ingest/append_upstream.py" "$up_port" "$3" $((WINDOW + 8)) &
  track $!
  sleep 0.5
  start_feedweb "$1" "$work/feedweb" "http://127.0.0.1:$up_port/rc" --mode append \
    --profile wikimedia-recentchange --keep "$2" --log-level error
  for path in /events /events/items "/events/page?view=list"; do
    for _ in 1 2 3 4 5; do
      curl -sN "http://127.0.0.1:$FW_PORT$path" >/dev/null 2>&1 &
      track $!
    done
  done
  sleep 3
  t0=$(cpu_ticks "$FW_PID") s0=$(received "$FW_PORT")
  sleep "$WINDOW"
  t1=$(cpu_ticks "$FW_PID") s1=$(received "$FW_PORT")
  stop_all || true
  python3 -c "
d=$s1-$s0; cpu=($t1-$t0)/$(getconf CLK_TCK)
print(f'$(basename "$1") keep=$2 rate=$3: {d/$WINDOW:.0f} changes/s ({100*d/($3*$WINDOW):.0f} %), {cpu/$WINDOW:.2f} cores, {1000*cpu/max(d,1):.2f} ms/change')"
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
