#!/usr/bin/env bash
# The ingest benchmark: how much of a fast append-mode upstream feedweb takes, at what CPU
# per change, and how late each change reaches clients on all three streams.
#
#   Benchmarks/ingest.sh FEEDWEB [PEER_FEEDWEB]
#
# Upstream: timed_upstream --append (Wikimedia EventStreams `recentchange`-shaped items of
# ~1.2 KB, each stamped with its send time as `sent_ns` and at the end of its title,
# `sent_ns=N`). feedweb runs `--mode append --profile wikimedia-recentchange --keep K`.
# Clients: CLIENTS (5) sseload clients on each of /events, /events/items and the list page
# stream (/events/page?view=list). Latency = arrival − send stamp, for every item on every
# stream (sseload --stamp-marker sent_ns=, each stamp once per client: on the page stream,
# an item is timed when it first shows up in a frame).
#
# For each --keep in KEEPS and rate in RATES: ROUNDS rounds, feedweb and the peer (another
# feedweb binary, e.g. an older build) interleaved, a fresh process each. Each measurement
# is a WINDOW-second window after a 3 s warm-up: changes/s taken (and the share of what
# upstream sends at its rate, over the window's measured length), feedweb's CPU in cores and ms per upstream change, RSS at the start and
# end of the window and its peak (sampled every 0.5 s), latency p50/p99/max per stream,
# clients dropped, catch-ups (a fresh `data`/`snapshot` in place of a backlog). Medians
# per configuration at the end, as a Markdown table; raw results in OUT (a temp dir).
# PERF=1: each window also recorded with `perf record -g` (OUT/perf.BINARY.keepK.rateR.roundN.data);
# the profiler's cost is in that run's figures, so time the builds in a run without it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
trap stop_all EXIT
bench_tools
raise_nofile
KEEPS=${KEEPS:-"20 200 1000"} RATES=${RATES:-"100 2000 10000"} ROUNDS=${ROUNDS:-3} WINDOW=${WINDOW:-8}
CLIENTS=${CLIENTS:-5}
binaries=("$1")
[[ $# -ge 2 ]] && binaries+=("$2")
out=${OUT:-$(mktemp -d /tmp/feedweb-ingest.XXXXXX)}
mkdir -p "$out"
results=$out/ingest.jsonl
: >"$results"

# received PORT: upstream events feedweb took, from /readyz; empty when it did not answer
# within 5 s (the round is then reported as unanswered, not measured).
received() {
  curl -s --max-time 5 "http://127.0.0.1:$1/readyz" |
    python3 -c 'import sys,json;print(json.load(sys.stdin)["upstream"]["events_received"])' 2>/dev/null || true
}
cpu_ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }
rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
catchups() {
  curl -s --max-time 5 "http://127.0.0.1:$1/metrics" |
    awk '/^feedweb_stream_catchups_total/ {s += $2} END {print s + 0}'
}

one() { # BINARY KEEP RATE ROUND
  local binary=$1 keep=$2 rate=$3 round=$4 t0 t1 r0 r1 w0 w1 c0 c1 rss0 rss1 peak=0 path name
  local pids=()
  start_upstream "$out/upstream.log" --append --rate "$rate" --duration $((WINDOW + 12)) --heartbeat 0
  start_feedweb "$binary" "$out/feedweb.log" "http://127.0.0.1:$UP_PORT/stream" --mode append \
    --profile wikimedia-recentchange --keep "$keep" --log-level error
  for path in /events /events/items "/events/page?view=list"; do
    name=$(echo "$path" | tr -dc 'a-z')
    "$TOOLS/sseload" --url "http://127.0.0.1:$FW_PORT$path" --clients "$CLIENTS" --ramp 0.2 --settle 2.8 \
      --duration "$WINDOW" --grace 1 --stamp-marker sent_ns= --json --quiet >"$out/$name.json" 2>/dev/null &
    pids+=($!)
  done
  sleep 3
  c0=$(catchups "$FW_PORT") rss0=$(rss_kb "$FW_PID")
  r0=$(received "$FW_PORT") w0=$(date +%s.%N) t0=$(cpu_ticks "$FW_PID")
  local end=$((SECONDS + WINDOW))
  if [ -n "${PERF:-}" ]; then # a profile of the window, beside the results (its figures are not)
    perf record -q -g -F 499 -p "$FW_PID" -o "$out/perf.$(basename "$binary").keep$keep.rate$rate.round$round.data" \
      -- sleep "$WINDOW" >/dev/null 2>&1 &
  fi
  while [ $SECONDS -lt $end ]; do
    local now
    now=$(rss_kb "$FW_PID")
    [ "$now" -gt "$peak" ] && peak=$now
    sleep 0.5
  done
  t1=$(cpu_ticks "$FW_PID") w1=$(date +%s.%N) r1=$(received "$FW_PORT")
  c1=$(catchups "$FW_PORT") rss1=$(rss_kb "$FW_PID")
  for pid in "${pids[@]}"; do wait "$pid" || true; done
  stop_all || true
  if [ -z "$r0" ] || [ -z "$r1" ]; then
    echo "$(basename "$binary") keep=$keep rate=$rate: /readyz did not answer within 5 s; not measured"
    printf '{"binary": "%s", "path": "%s", "keep": %s, "rate": %s, "round": %s, "unanswered": true}\n' \
      "$(basename "$binary")" "$binary" "$keep" "$rate" "$round" >>"$results"
    return 0
  fi
  python3 - "$out" "$results" <<PY
import json, os, sys
out, results = sys.argv[1], sys.argv[2]
window, ticks = $w1 - $w0, os.sysconf("SC_CLK_TCK")
taken = $r1 - $r0
cpu = ($t1 - $t0) / ticks
row = {"binary": os.path.basename("$binary"), "path": "$binary", "keep": $keep, "rate": $rate, "round": $round,
       "taken_per_s": taken / window, "taken_pct": 100 * taken / ($rate * window), "cores": cpu / window,
       "ms_per_change": 1000 * cpu / max(taken, 1), "rss_mb": [$rss0 / 1024, $rss1 / 1024, $peak / 1024],
       "catchups": $c1 - $c0, "streams": {}}
for name in ("events", "eventsitems", "eventspageviewlist"):
    try:
        d = json.load(open(f"{out}/{name}.json"))
        lat = d["latency_ms"]
        row["streams"][name] = {"p50": lat["p50"], "p99": lat["p99"], "max": lat["max"], "n": lat["n"],
                                "dropped": d["dropped"], "connected": d["connected"]}
    except Exception as error:
        row["streams"][name] = {"error": str(error)}
open(results, "a").write(json.dumps(row) + "\n")
s = row["streams"]
def lat(name):
    x = s[name]
    return f"{x['p50']:.1f}/{x['p99']:.1f} ms" if "p50" in x else "none"
print(f"{row['binary']} keep={$keep} rate={$rate}: {row['taken_per_s']:.0f}/s ({row['taken_pct']:.0f} %), "
      f"{row['cores']:.2f} cores, {row['ms_per_change']:.3f} ms/change, RSS {row['rss_mb'][0]:.0f}->{row['rss_mb'][1]:.0f} "
      f"(peak {row['rss_mb'][2]:.0f}) MB; p50/p99 events {lat('events')}, items {lat('eventsitems')}, "
      f"page {lat('eventspageviewlist')}; dropped {sum(x.get('dropped', 0) for x in s.values())}, catch-ups {row['catchups']}")
PY
}

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(nproc) cores; binaries: ${binaries[*]}"
  echo "keeps: $KEEPS; rates: $RATES changes/s; $ROUNDS interleaved rounds; $WINDOW s windows; $CLIENTS clients per stream"
} | tee "$out/ingest-machine.txt"
for keep in $KEEPS; do
  for rate in $RATES; do
    for round in $(seq "$ROUNDS"); do
      order=("${binaries[@]}")
      if [ $((round % 2)) = 0 ] && [ ${#binaries[@]} = 2 ]; then order=("${binaries[1]}" "${binaries[0]}"); fi
      for binary in "${order[@]}"; do
        echo -n "round $round: "
        one "$binary" "$keep" "$rate" "$round"
      done
    done
  done
done
python3 "$BENCH_LIB_DIR/ingest_report.py" "$results" | tee "$out/ingest.md"
echo "ingest: results in $out"
