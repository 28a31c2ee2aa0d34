#!/usr/bin/env bash
# Fan-out measurement: feedweb's /events at N concurrent clients, fed by timed_upstream.
#
#   Benchmarks/fanout.sh path/to/feedweb [N ...]        (default N: 1000 5000 10000)
#
# Per N, a fresh feedweb and a fresh timed_upstream: the upstream stays quiet (no
# patches) until every client has connected and the idle RSS has been read, then sends
# RATE patches/s; sseload measures for DURATION s. Environment: RATE (10), DURATION (25),
# CONNECT_RATE (1000 connects/s), THREADS (sseload threads, 1), OUT (directory for the
# JSON results, default a temp dir), FEEDWEB_ARGS (extra feedweb options), QUIET_PCT and
# QUIET_WAIT (before each N, wait up to QUIET_WAIT s for the machine to be under QUIET_PCT %
# busy; the table's last column says how many cores everything but feedweb and sseload used
# during the window: a figure taken while other work ran is not a figure of feedweb).
# Prints sseload's summary per N and a table at the end. Loopback only; bounded in time.
set -uo pipefail

bin=${1:?usage: Benchmarks/fanout.sh path/to/feedweb [N ...]}
shift
[ -x "$bin" ] || { echo "fanout: $bin is not an executable" >&2; exit 2; }
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 5000 10000)
. "$(dirname "$0")/lib.sh"
bench_tools || exit 2
raise_nofile
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
trap stop_all EXIT

for n in "${sizes[@]}"; do
  echo "== N=$n: waiting for a quiet machine $(wait_quiet)"
  fanout_measure feedweb "$n" "$out/feedweb-$n" "$bin"
  echo "sseload exit $?"
  cat "$out/feedweb-$n.txt"
  cat "$out/feedweb-$n-up.err"
  sleep 2
done

if command -v python3 >/dev/null; then
  python3 - "$out" "${sizes[@]}" <<'EOF'
import json, sys, os
out, sizes = sys.argv[1], sys.argv[2:]
print("\n| N | connected | dropped | complete | p50 ms | p90 ms | p99 ms | max ms | RSS idle KiB/client | RSS during KiB/client | feedweb CPU % | sseload CPU % | feedweb µs/event | softirq (cores) | other load (cores) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for n in sizes:
    p = os.path.join(out, "feedweb-%s.json" % n)
    try:
        r = json.load(open(p))
    except Exception:
        print("| %s | (no result) |" % n); continue
    w = r["window_s"] or 1
    L = r["latency_ms"]
    print("| %s | %d | %d | %d | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.0f | %.0f | %.1f | %.2f | %.2f |" % (
        n, r["connected"], r["dropped"], r["complete_clients"], L["p50"], L["p90"], L["p99"], L["max"],
        r["rss_kib_per_client"]["idle"], r["rss_kib_per_client"]["during"], 100 * r["server_cpu_s"]["window"] / w,
        100 * r["self_cpu_s"]["window"] / w, r["server_us_per_event"], r.get("softirq_cores", -1), r.get("other_cores", -1)))
print("results in", out)
EOF
fi
