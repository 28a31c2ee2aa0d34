#!/usr/bin/env bash
# Bursts of streams on a freshly started feedweb (issue 31): N clients open /events at the
# same moment (Benchmarks/sseload/burst.c), STARTS fresh starts per N; a start "stalls" when
# any client waits 5 s or more for its first event (before the fix: the head timeout, 10 s).
#
#   Benchmarks/burst.sh [FEEDWEB_BINARY] [N ...]        (default .build/release/feedweb; 256 1000 5000)
#
# Environment: STARTS (20), OUT (a directory: one JSON line per start in OUT/burst.jsonl as
# `{"binary":..,"clients":N,"start":K, ...burst's JSON}`). feedweb runs on the demo feed,
# frozen (--demo-interval 3600), so every start serves the same document. Prints one line
# per start and a table: per N, stalled starts, and the medians and worst of the starts'
# slowest first event.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/feedweb}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(256 1000 5000)
starts=${STARTS:-20}
. Benchmarks/lib.sh
raise_nofile
bench_tools || exit 2
work=$(mktemp -d)
trap 'stop_all; rm -rf "$work"' EXIT
jsonl=${OUT:+$OUT/burst.jsonl}
[ -n "${OUT:-}" ] && mkdir -p "$OUT"
echo "machine: $(nproc) cores; feedweb $bin; $starts fresh starts per size"
declare -A worst stalls maxes
for n in "${sizes[@]}"; do
  for start in $(seq "$starts"); do
    "$bin" --listen 127.0.0.1:0 --demo-interval 3600 --max-clients 20000 --log-level warning \
      >"$work/fw.out" 2>"$work/fw.err" &
    FW_PID=$!; track "$FW_PID"
    port=$(port_of "$work/fw.out" "feedweb listening") || { echo "burst: feedweb did not start" >&2; exit 1; }
    wait_http "$port" /readyz 200 100 || { echo "burst: feedweb never became ready" >&2; exit 1; }
    result=$("$TOOLS/burst" --port "$port" --clients "$n" --within 15 --json)
    kill -TERM "$FW_PID"; wait "$FW_PID" 2>/dev/null
    slowest=$(echo "$result" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["first_event_ms"]["max"] if r["missing"] == 0 else 99999)')
    echo "  N=$n start $start: $result"
    maxes[$n]+="$slowest "
    if awk -v s="$slowest" 'BEGIN { exit !(s >= 5000) }'; then stalls[$n]=$(( ${stalls[$n]:-0} + 1 )); fi
    [ -n "$jsonl" ] && echo "$result" | python3 -c "import json,sys; r=json.load(sys.stdin); r.update(binary='$bin', clients=$n, start=$start); print(json.dumps(r))" >>"$jsonl"
  done
done
echo
printf '%-7s %7s %8s %22s %16s\n' clients starts stalled "median slowest (ms)" "worst (ms)"
for n in "${sizes[@]}"; do
  read -r median top < <(echo "${maxes[$n]}" | tr ' ' '\n' | grep -v '^$' | sort -n |
    awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2), a[NR]}')
  printf '%-7s %7s %8s %22s %16s\n' "$n" "$starts" "${stalls[$n]:-0}" "$median" "$top"
done
