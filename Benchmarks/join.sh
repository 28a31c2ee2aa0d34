#!/usr/bin/env bash
# What new subscribers cost on /events/items: CLIENTS clients (1,000) open /events/items at
# the same moment (Benchmarks/sseload/burst.c) on a feedweb serving a table feed of ROWS
# rows (1,000; Benchmarks/table_upstream.py, frozen: its first change comes after an hour),
# so each new client's first event is the whole section's `snapshot`. Measured per run: the
# CPU time feedweb spent (all its threads, /proc/PID/stat, 10 ms ticks) from just before
# the first connect to the last client's snapshot, and the clients' times to their
# snapshot (p50, p99, max), and their median time to the first byte of the answer. A
# fresh feedweb per run; the binaries interleaved, ROUNDS rounds; the table is the median
# of the rounds.
#
#   Benchmarks/join.sh BINARY [BINARY ...]
#
# Environment: CLIENTS (1000), ROWS (1000), ROUNDS (3), OUT (a directory for the logs and
# results.txt, burst's JSON in burst.jsonl; default a temporary one).
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: Benchmarks/join.sh BINARY [BINARY ...]" >&2; exit 2; }
binaries=("$@")
clients=${CLIENTS:-1000} rows=${ROWS:-1000} rounds=${ROUNDS:-3}
. Benchmarks/lib.sh
raise_nofile
bench_tools || exit 2
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
trap stop_all EXIT
ticks=$(getconf CLK_TCK)
cpu_ms() { # cpu_ms PID: user + system time of the process, all threads, in ms
  awk -v t="$ticks" '{ print ($14 + $15) * 1000 / t }' "/proc/$1/stat"
}
echo "machine: $(nproc) cores; $clients clients on /events/items, $rows rows, $rounds rounds"
for round in $(seq 1 "$rounds"); do
  for index in "${!binaries[@]}"; do
    bin=${binaries[$index]}
    log=$out/run-$round-$index
    python3 Benchmarks/table_upstream.py "$rows" 0.0003 >"$log-up.out" 2>"$log-up.err" &
    UP_PID=$!; track "$UP_PID"
    UP_PORT=$(port_of "$log-up.out" "table_upstream listening") || { echo "table_upstream did not start" >&2; exit 1; }
    start_feedweb "$bin" "$log-fw" "http://127.0.0.1:$UP_PORT/stream" --log-level error --max-clients 20000 || exit 1
    sleep 2
    before=$(cpu_ms "$FW_PID")
    result=$("$TOOLS/burst" --port "$FW_PORT" --path /events/items --clients "$clients" --within 60 --json)
    after=$(cpu_ms "$FW_PID")
    echo "$result" >>"$out/burst.jsonl"
    echo "$result" | python3 -c '
import json, sys
r = json.load(sys.stdin)
e = r["first_event_ms"]
b = r["first_byte_ms"]
print("round %s, %s: first byte p50 %.1f ms, cpu %.0f ms, snapshot p50 %.1f p99 %.1f max %.1f ms, missing %d" % (
    sys.argv[1], sys.argv[2], b["p50"], float(sys.argv[4]) - float(sys.argv[3]), e["p50"], e["p99"], e["max"],
    r["missing"]))
' "$round" "$bin" "$before" "$after" | tee -a "$out/results.txt"
    stop_all >/dev/null 2>&1
    BENCH_PIDS=()
    sleep 1
  done
done
python3 - "$out/results.txt" "${binaries[@]}" <<'PY'
import re, statistics, sys
lines = open(sys.argv[1]).read().splitlines()
print("\n| binary | rounds | feedweb CPU (ms) | first byte p50 (ms) | snapshot p50 (ms) | p99 (ms) | max (ms) |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
pattern = (r"first byte p50 ([\d.]+) ms, cpu ([\d.]+) ms, snapshot p50 ([\d.]+) p99 ([\d.]+) max ([\d.]+) ms, "
           r"missing 0$")
for binary in sys.argv[2:]:
    got = [re.search(pattern, l) for l in lines if (", %s: " % binary) in l]
    got = [m for m in got if m]
    if got:
        byte, cpu, p50, p99, top = [statistics.median(float(m.group(i)) for m in got) for i in range(1, 6)]
        print("| %s | %d | %.0f | %.1f | %.1f | %.1f | %.1f |" % (binary, len(got), cpu, byte, p50, p99, top))
PY
