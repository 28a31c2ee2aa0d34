#!/usr/bin/env python3
"""Summarises Benchmarks/ingest.sh's results (ingest.jsonl): per binary, --keep and rate,
the medians over the rounds, as one Markdown table, and the CPU-per-change ratio of each
--keep to the smallest at the lowest rate. A round in which feedweb took less than 98 % of
what upstream sent is counted as "behind" (with its delivered rate in the raw results),
not hidden in the median.

    ingest_report.py ingest.jsonl
"""
import json
import statistics
import sys
from collections import defaultdict


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(value, digits=1):
    return "–" if value is None else f"{value:.{digits}f}"


def main(path):
    rows = [json.loads(line) for line in open(path) if line.strip()]
    groups = defaultdict(list)
    # Rounds in which /readyz did not answer within 5 s: counted, not measured.
    unanswered = defaultdict(int)
    for row in rows:
        if row.get("unanswered"):
            unanswered[(row["path"], row["keep"], row["rate"])] += 1
            groups.setdefault((row["path"], row["keep"], row["rate"]), [])
        else:
            groups[(row["path"], row["keep"], row["rate"])].append(row)
    names = {"events": "/events", "eventsitems": "/events/items", "eventspageviewlist": "page"}
    print("| binary | --keep | offered /s | taken /s (%) | behind | cores | ms CPU/change | RSS end (peak) MB | "
          + " | ".join(f"{n} p50 / p99 ms" for n in names.values()) + " | dropped | catch-ups |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | " + " | ".join("---:" for _ in names)
          + " | ---: | ---: |")
    for (binary, keep, rate), group in sorted(groups.items(), key=lambda g: (g[0][0], g[0][1], g[0][2])):
        silent = unanswered[(binary, keep, rate)]
        if not group:
            print(f"| {binary} | {keep} | {rate} | /readyz did not answer in all {silent} rounds | "
                  + " | ".join("–" for _ in range(6 + len(names))) + " |")
            continue
        behind = sum(1 for r in group if r["taken_pct"] < 98)
        cells = [
            binary, str(keep), str(rate),
            f"{fmt(med(r['taken_per_s'] for r in group), 0)} ({fmt(med(r['taken_pct'] for r in group), 0)} %)",
            f"{behind} of {len(group)}" + (f"; {silent} unanswered" if silent else ""),
            fmt(med(r["cores"] for r in group), 2),
            fmt(med(r["ms_per_change"] for r in group), 3),
            f"{fmt(med(r['rss_mb'][1] for r in group), 0)} ({fmt(max(r['rss_mb'][2] for r in group), 0)})",
        ]
        for name in names:
            p50 = med(r["streams"][name].get("p50") for r in group)
            p99 = med(r["streams"][name].get("p99") for r in group)
            cells.append(f"{fmt(p50)} / {fmt(p99)}")
        cells.append(str(sum(sum(s.get("dropped", 0) for s in r["streams"].values()) for r in group)))
        cells.append(fmt(med(r["catchups"] for r in group), 0))
        print("| " + " | ".join(cells) + " |")
    # CPU per change at the lowest rate: each --keep against the smallest.
    lowest = min(rate for (_, _, rate) in groups)
    for binary in sorted({b for (b, _, _) in groups}):
        keeps = sorted(k for (b, k, r), group in groups.items() if b == binary and r == lowest and group)
        if len(keeps) < 2:
            continue
        base = med(r["ms_per_change"] for r in groups[(binary, keeps[0], lowest)])
        ratios = ", ".join(
            f"--keep {k}: {fmt(med(r['ms_per_change'] for r in groups[(binary, k, lowest)]) / base, 2)}x"
            for k in keeps[1:])
        print(f"\nCPU per change at {lowest} changes/s, {binary}, against --keep {keeps[0]}: {ratios}")


if __name__ == "__main__":
    main(sys.argv[1])
