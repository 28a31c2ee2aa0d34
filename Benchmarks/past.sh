#!/usr/bin/env bash
# The past benchmark (issue 34): how fast feedweb answers `/api/state?at=ID` for an id
# BACK changes ago (1,000 by default), against `/api/state` (now) in the same run.
#
#   Benchmarks/past.sh FEEDWEB
#
# Upstream: timed_upstream --append at RATE (50) items/s, Wikimedia-shaped (~1.2 KB each);
# feedweb runs `--mode append --profile wikimedia-recentchange --keep KEEP (1000) --history
# HISTORY (2000)`, so every state of the past is a document of KEEP items, and changes keep
# coming while it is asked. Once more than BACK + KEEP changes are kept (every state asked for
# holds KEEP items): ROUNDS (3) rounds, each
# the past then now (interleaved), of REQUESTS (2000) requests from CONCURRENCY (8)
# keep-alive clients (past_client.py); each past request asks for a random id between BACK
# and BACK+100 changes ago. Latency per request (send → whole body read), p50/p99/max per
# round and the medians, as a Markdown table. Raw results in OUT (a temp dir). PROFILE=SECONDS
# records feedweb with `perf` in the first round of each.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
trap stop_all EXIT
bench_tools
RATE=${RATE:-50} KEEP=${KEEP:-1000} HISTORY=${HISTORY:-2000} BACK=${BACK:-1000} ROUNDS=${ROUNDS:-3}
REQUESTS=${REQUESTS:-2000} CONCURRENCY=${CONCURRENCY:-8}
binary=$1
out=${OUT:-$(mktemp -d /tmp/feedweb-past.XXXXXX)}
mkdir -p "$out"
# Long enough that the states asked for already hold KEEP items (after BACK + KEEP changes):
# with only BACK, the first round asked for documents of ~400 items and looked twice as fast.
fill=$(( (BACK + KEEP + 150) / RATE + 5 ))
start_upstream "$out/upstream.log" --append --rate "$RATE" --duration $((fill + ROUNDS * 120)) --heartbeat 0
start_feedweb "$binary" "$out/feedweb.log" "http://127.0.0.1:$UP_PORT/stream" --mode append \
  --profile wikimedia-recentchange --keep "$KEEP" --history "$HISTORY" --log-level error
echo "filling the past: ${fill} s at ${RATE} changes/s"
sleep "$fill"
wait_quiet || true
: >"$out/past.jsonl"
perfs=()
for round in $(seq 1 "$ROUNDS"); do
  for what in past now; do
    # PROFILE=SECONDS: `perf record -g` of feedweb for that long in round 1 of each (the
    # functions taking most of its time printed at the end).
    if [ -n "${PROFILE:-}" ] && [ "$round" = 1 ]; then
      perf record -g -o "$out/perf-$what.data" -p "$FW_PID" -- sleep "$PROFILE" >/dev/null 2>&1 &
      perfs+=("$!")
    fi
    python3 "$(dirname "$0")/past_client.py" --port "$FW_PORT" --what "$what" --back "$BACK" \
      --requests "$REQUESTS" --concurrency "$CONCURRENCY" --round "$round" | tee -a "$out/past.jsonl"
  done
done
python3 - "$out/past.jsonl" "$KEEP" "$BACK" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
print()
print(f"| asked | --keep | rounds | p50 ms | p99 ms | max ms | errors |")
print("|---|---:|---:|---:|---:|---:|---:|")
for what in ("past", "now"):
    mine = [r for r in rows if r["what"] == what]
    label = f"`?at=` {sys.argv[3]} back" if what == "past" else "`/api/state` (now)"
    med = lambda key: statistics.median(r[key] for r in mine)
    print(f"| {label} | {sys.argv[2]} | {len(mine)} | {med('p50'):.2f} | {med('p99'):.2f} | {med('max'):.2f} | "
          f"{sum(r['errors'] for r in mine)} |")
PY
if [ -n "${PROFILE:-}" ]; then
  wait "${perfs[@]}"
  for what in past now; do
    echo
    echo "feedweb's time while asked for $what (perf report --no-children, top 12):"
    perf report -i "$out/perf-$what.data" --no-children --sort symbol --stdio 2>/dev/null \
      | grep -E '^ +[0-9.]+%' | head -12
  done
fi
echo "raw results in $out"
