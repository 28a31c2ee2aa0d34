"""Medians of Benchmarks/anchor.sh's measurements (results.jsonl), per N and server.

    python3 Benchmarks/anchor_report.py OUT/results.jsonl
"""

import json
import statistics
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
print("| N | server | rounds | delivered/s (median) | p50 ms | p99 ms | max ms | µs CPU per delivery |")
print("|---:|---|---:|---:|---:|---:|---:|---:|")
for n in sorted({r["n"] for r in rows}):
    for server in sorted({r["server"] for r in rows}):
        rs = [r for r in rows if r["n"] == n and r["server"] == server and "p50" in r]
        if not rs:
            continue

        def med(key):
            return statistics.median(r[key] for r in rs)

        print(
            "| %d | %s | %d | %d | %.1f (%s) | %.1f (%s) | %.1f | %.2f |"
            % (n, server, len(rs), med("delivered_per_s"), med("p50"),
               "–".join("%.1f" % v for v in (min(r["p50"] for r in rs), max(r["p50"] for r in rs))),
               med("p99"),
               "–".join("%.1f" % v for v in (min(r["p99"] for r in rs), max(r["p99"] for r in rs))),
               med("max"), med("us_cpu_per_delivery"))
        )
