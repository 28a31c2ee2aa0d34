#!/usr/bin/env bash
# A Kubernetes watch's first burst: BIN (or BIN_B too, interleaved) reads N `ADDED` pods from
# Benchmarks/watch_upstream.py with --mode append; each round prints the seconds until
# feedweb_changes_total reaches N (polled every 20 ms on /metrics) and feedweb's CPU seconds
# then (/proc). BENCHMARKS.md, "A Kubernetes watch's first burst".
#
#   Benchmarks/watch_burst.sh BIN [BIN_B]      (env: N 10000, ROUNDS 3)
set -uo pipefail
cd "$(dirname "$0")/.."
n=${N:-10000} rounds=${ROUNDS:-3}
round() {
  local bin=$1 up=18370 fw=18371 start end count=0 ticks
  python3 Benchmarks/watch_upstream.py "$up" "$n" >/dev/null 2>&1 &
  local upstream=$!
  sleep 0.7
  start=$(date +%s.%N)
  "$bin" --listen "127.0.0.1:$fw" --mode append --keep $((n * 2)) \
    --upstream "http://127.0.0.1:$up/api/v1/pods?watch=1" >/dev/null 2>&1 &
  local feedweb=$!
  for _ in $(seq 1 3000); do
    count=$(curl -s "127.0.0.1:$fw/metrics" 2>/dev/null | awk '/^feedweb_changes_total/ { print $2 }')
    [ -n "$count" ] && [ "${count%.*}" -ge "$n" ] && break
    sleep 0.02
  done
  end=$(date +%s.%N)
  ticks=$(awk '{ print $14 + $15 }' "/proc/$feedweb/stat")
  echo "$bin: $(echo "$end - $start" | bc) s, $(echo "scale=2; $ticks / 100" | bc) s CPU, changes ${count:-0}"
  kill "$feedweb" "$upstream"
  wait "$feedweb" "$upstream" 2>/dev/null
}
for _ in $(seq 1 "$rounds"); do
  for bin in "$@"; do round "$bin"; done
done
