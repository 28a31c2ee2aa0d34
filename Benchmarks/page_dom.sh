#!/usr/bin/env bash
# A person's page under load: how late a new item reaches the DOM of `/` in headless
# Chromium while N clients are on `/events` (Benchmarks/page_dom.py measures it), in two tabs
# that share one page stream: the leader, which holds it, and a follower, which gets each
# frame from the leader.
#
#   Benchmarks/page_dom.sh FEEDWEB [N ...]          (default N: 0 10000)
#
# Upstream: timed_upstream --append at RATE (4) items/s, each stamped with its send time;
# feedweb --mode append --profile wikimedia-recentchange. Per N: a fresh feedweb and
# upstream, N sseload clients on /events (ramped at 1,000/s, then 2 s to settle), then the
# page is opened and observed for WINDOW (30) s. ROUNDS (3) rounds per N, interleaved.
# Prints each round and the medians of p50/p90/max per N, and for the follower beside the
# leader: the gap between their p50s per round, and the lag (per item both pages showed, the
# follower's latency minus the leader's; its p50 is the hop itself, without the spread between
# items that each page's p50 carries). FEEDWEB_ARGS: more feedweb options
# (e.g. `--public-dir DIR`, to compare page scripts). BROWSER: chromium (default) or firefox.
# TABLE=ROWS: a table feed instead (Benchmarks/table_upstream.py: ROWS rows, RATE of them
# changed each second, each stamped), read by feedweb with no profile (it finds the rows):
# the latency is that of the changed row swapped into the page's table.
set -uo pipefail
bin=${1:?usage: Benchmarks/page_dom.sh FEEDWEB [N ...]}
shift
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(0 10000)
cd "$(dirname "$0")/.."
. Benchmarks/lib.sh
bench_tools || exit 2
raise_nofile
out=${OUT:-$(mktemp -d /tmp/feedweb-pagedom.XXXXXX)}
mkdir -p "$out"
trap stop_all EXIT
rate=${RATE:-4} window=${WINDOW:-30} rounds=${ROUNDS:-3}
for round in $(seq 1 "$rounds"); do
  for n in "${sizes[@]}"; do
    ramp=$(awk -v n="$n" 'BEGIN { x = n / 1000; if (x < 1) x = 1; printf "%.1f", x }')
    life=$(awk -v r="$ramp" -v w="$window" 'BEGIN { printf "%.0f", r + w + 30 }')
    if [ -n "${TABLE:-}" ]; then
      python3 Benchmarks/table_upstream.py "$TABLE" "$rate" >"$out/up-$n-$round.out" 2>"$out/up-$n-$round.err" &
      UP_PID=$!; track "$UP_PID"
      UP_PORT=$(port_of "$out/up-$n-$round.out" "table_upstream listening") || { echo "table_upstream did not start" >&2; exit 1; }
      start_feedweb "$bin" "$out/fw-$n-$round" "http://127.0.0.1:$UP_PORT/stream" \
        --max-clients 20000 --log-level error ${FEEDWEB_ARGS:-} || exit 1
    else
      start_upstream "$out/up-$n-$round" --append --rate "$rate" --duration "$life" --heartbeat 0 || exit 1
      start_feedweb "$bin" "$out/fw-$n-$round" "http://127.0.0.1:$UP_PORT/stream" --mode append \
        --profile wikimedia-recentchange --max-clients 20000 --log-level error ${FEEDWEB_ARGS:-} || exit 1
    fi
    if [ "$n" -gt 0 ]; then
      "$TOOLS/sseload" --url "http://127.0.0.1:$FW_PORT/events" --clients "$n" --ramp "$ramp" --settle 2 \
        --duration "$(awk -v w="$window" 'BEGIN { print w + 15 }')" --grace 1 --quiet >"$out/sseload-$n-$round.txt" 2>&1 &
      track $!
      sleep "$(awk -v r="$ramp" 'BEGIN { print r + 2 }')"
    fi
    echo -n "round $round, N=$n: "
    python3 Benchmarks/page_dom.py "http://127.0.0.1:$FW_PORT" "$window" "$out/dom-$n-$round.json"
    stop_all >/dev/null 2>&1
    sleep 1
  done
done
python3 - "$out" "$rate" "${sizes[@]}" <<'PY'
import json, os, statistics, sys
out, rate, sizes = sys.argv[1], sys.argv[2], sys.argv[3:]
print("\n| /events clients | items/s | rounds | page | page DOM latency p50 ms | p90 ms | max ms | samples per round |")
print("| ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
for n in sizes:
    rs = []
    for name in sorted(os.listdir(out)):
        if name.startswith("dom-%s-" % n) and name.endswith(".json"):
            rs.append(json.load(open(os.path.join(out, name))))
    if not rs:
        print("| %s | %s | 0 | – | – | – | – | – |" % (n, rate)); continue
    # The leader holds the page stream; the follower, a second tab, gets each frame from it.
    for role, pick in (("leader", lambda r: r), ("follower", lambda r: r.get("follower"))):
        figures = [pick(r) for r in rs if pick(r)]
        if not figures:
            continue
        med = lambda k: statistics.median(f[k] for f in figures)
        print("| %s | %s | %d | %s | %.1f | %.1f | %.1f | %d |" % (
            n, rate, len(figures), role, med("p50"), med("p90"), med("max"), min(f["n"] for f in figures)))
    # The follower beside the leader: the gap between their p50s in each round, and the lag
    # (per item both showed, the follower's latency minus the leader's: the hop itself).
    pairs = [r for r in rs if r.get("follower")]
    if pairs:
        gaps = [r["follower"]["p50"] - r["p50"] for r in pairs]
        lags = [r["lag"]["p50"] for r in pairs if r.get("lag", {}).get("n")]
        print("| %s | %s | %d | follower − leader p50 | %+.1f (rounds %s) | lag p50 %s | | |" % (
            n, rate, len(pairs), statistics.median(gaps), ", ".join("%+.1f" % g for g in gaps),
            "%+.1f" % statistics.median(lags) if lags else "–"))
print("results in", out)
PY
