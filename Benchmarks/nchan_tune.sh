#!/usr/bin/env bash
# nginx + nchan at its best on this machine: the fan-out measurement (lib.sh
# fanout_measure) for each tuning in turn, interleaved over ROUNDS (3) rounds, at N
# (10000) clients × RATE (10) messages/s; prints each measurement and the medians, so the
# fastest configuration can be made start_nchan's default (and said in BENCHMARKS.md).
#
#   Benchmarks/nchan_tune.sh [N]
set -uo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/lib.sh
bench_tools || exit 2
raise_nofile
n=${1:-10000}
rounds=${ROUNDS:-3}
out=${OUT:-$(mktemp -d /tmp/feedweb-nchantune.XXXXXX)}
mkdir -p "$out"
trap stop_all EXIT
# name | workers | http | listen | subscriber location
configs=(
  "default|2|||"
  "sendfile+nopush|2|sendfile on; tcp_nopush on;||"
  "reuseport|2||reuseport|"
  "first-newest|2|||nchan_subscriber_first_message newest;"
  "all|2|sendfile on; tcp_nopush on;|reuseport|nchan_subscriber_first_message newest;"
  "1-worker|1|||"
)
for round in $(seq 1 "$rounds"); do
  for config in "${configs[@]}"; do
    IFS='|' read -r name workers http listen sub <<<"$config"
    echo "== round $round: $name $(wait_quiet)"
    NCHAN_WORKERS=$workers NCHAN_HTTP=$http NCHAN_LISTEN=$listen NCHAN_SUB=$sub \
      fanout_measure nchan "$n" "$out/$name-r$round" >/dev/null 2>&1
    stop_all >/dev/null 2>&1
    sleep 1
  done
done
python3 - "$out" "$rounds" "${configs[@]}" <<'PY'
import json, os, statistics, sys
out, rounds, configs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
print("| nchan tuning | rounds kept up | p50 ms | p99 ms | max ms | µs per event | other load (cores) |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for config in configs:
    name = config.split("|")[0]
    rs = []
    for r in range(1, rounds + 1):
        try:
            rs.append(json.load(open(os.path.join(out, "%s-r%d.json" % (name, r)))))
        except Exception:
            pass
    if not rs:
        print("| %s | (no result) |" % name); continue
    med = lambda f: statistics.median(f(x) for x in rs)
    kept = sum(1 for x in rs if x["complete_clients"] == x["connected"])
    print("| %s | %d/%d | %.1f | %.1f | %.1f | %.2f | %.2f |" % (name, kept, len(rs),
        med(lambda x: x["latency_ms"]["p50"]), med(lambda x: x["latency_ms"]["p99"]),
        med(lambda x: x["latency_ms"]["max"]), med(lambda x: x["server_us_per_event"]), med(lambda x: x.get("other_cores", -1))))
print("results in", out)
PY
