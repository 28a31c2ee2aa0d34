#!/usr/bin/env bash
# The ingest benchmark (first part): what one change costs feedweb and how much of the
# upstream it takes, append mode, Wikimedia-shaped ~1.2 KB items, 5 clients each on
# /events, /events/items and the list page stream (curl, reading and discarding).
#
#   Benchmarks/ingest.sh FEEDWEB [PEER_FEEDWEB]
#
# For each --keep in KEEPS and rate in RATES: ROUNDS rounds, feedweb and the peer build
# (another feedweb binary, e.g. main) interleaved; each prints changes/s taken (share of
# what upstream sent), feedweb's CPU in cores and CPU ms per change, over a WINDOW-second
# window after a 3 s warm-up. Latency per stream is not measured yet (issue 14).
set -euo pipefail
cd "$(dirname "$0")"
KEEPS=${KEEPS:-"20 1000"} RATES=${RATES:-"100 400"} ROUNDS=${ROUNDS:-3} WINDOW=${WINDOW:-8}
binaries=("$1")
[[ $# -ge 2 ]] && binaries+=("$2")

free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
received() { curl -s "http://127.0.0.1:$1/readyz" | python3 -c 'import sys,json;print(json.load(sys.stdin)["upstream"]["events_received"])'; }
cpu_ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }

one() {  # BINARY KEEP RATE
  local up_port fw_port up fw t0 t1 s0 s1 clients=()
  up_port=$(free_port) fw_port=$(free_port)
  python3 ingest/append_upstream.py "$up_port" "$3" $((WINDOW + 6)) & up=$!
  sleep 0.5
  "$1" --listen "127.0.0.1:$fw_port" --upstream "http://127.0.0.1:$up_port/rc" --mode append \
    --profile wikimedia-recentchange --keep "$2" --log-level error >/dev/null & fw=$!
  sleep 1
  for path in /events /events/items "/events/page?view=list"; do
    for _ in 1 2 3 4 5; do curl -sN "http://127.0.0.1:$fw_port$path" >/dev/null 2>&1 & clients+=($!); done
  done
  sleep 3
  t0=$(cpu_ticks "$fw") s0=$(received "$fw_port")
  sleep "$WINDOW"
  t1=$(cpu_ticks "$fw") s1=$(received "$fw_port")
  kill "${clients[@]}" "$fw" "$up" 2>/dev/null || true
  wait "${clients[@]}" "$fw" "$up" 2>/dev/null || true
  python3 -c "
d=$s1-$s0; cpu=($t1-$t0)/$(getconf CLK_TCK)
print(f'$(basename "$1") keep=$2 rate=$3: {d/$WINDOW:.0f} changes/s ({100*d/($3*$WINDOW):.0f} %), {cpu/$WINDOW:.2f} cores, {1000*cpu/max(d,1):.2f} ms/change')"
}

for keep in $KEEPS; do
  for rate in $RATES; do
    for round in $(seq "$ROUNDS"); do
      for binary in "${binaries[@]}"; do echo -n "round $round: "; one "$binary" "$keep" "$rate"; done
    done
  done
done
