#!/usr/bin/env bash
# A Kubernetes watch that expires while objects are kept, so feedweb lists them before watching
# again: BIN (or BIN_B too, interleaved) reads Benchmarks/watch_list_upstream.py's N pods of
# ~5 KiB with --mode append --keep 200. Each round prints feedweb's peak RSS (VmHWM) once the
# list is put, the objects kept, and whether the three pods the list lacks are gone.
# BENCHMARKS.md, "A Kubernetes list, held a page at a time".
#
#   Benchmarks/watch_list.sh BIN [BIN_B]      (env: N 20000, ROUNDS 3, URL_PATH /api/v1/pods?watch=1)
set -uo pipefail
cd "$(dirname "$0")/.."
n=${N:-20000} rounds=${ROUNDS:-3} path=${URL_PATH:-/api/v1/pods?watch=1}
up=18380 fw=18381
python3 Benchmarks/watch_list_upstream.py "$up" "$n" >/dev/null 2>&1 &
upstream=$!
trap 'kill $upstream 2>/dev/null' EXIT
sleep 2
round() {
  local bin=$1 log hwm kept
  log=$(mktemp)
  "$bin" --listen "127.0.0.1:$fw" --mode append --keep 200 --upstream "http://127.0.0.1:$up$path" >/dev/null 2>"$log" &
  local feedweb=$!
  for _ in $(seq 1 600); do
    grep -q "watch starts there\|watching without it" "$log" && break
    sleep 0.1
  done
  sleep 2
  hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$feedweb/status")
  kept=$(curl -s "127.0.0.1:$fw/api/state" | python3 -c '
import json, sys
items = json.load(sys.stdin).get("items", [])
gone = sum(1 for item in items if item["metadata"]["name"].startswith("gone"))
print(f"{len(items)} kept, {gone} of the 3 deleted pods kept")')
  echo "$bin: peak RSS $((hwm / 1024)) MiB, $kept; $(grep -o 'listed [0-9]* objects' "$log" || echo 'not listed')"
  kill "$feedweb"
  wait "$feedweb" 2>/dev/null
  rm -f "$log"
}
for _ in $(seq 1 "$rounds"); do
  for bin in "$@"; do round "$bin"; done
done
