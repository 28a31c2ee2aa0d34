#!/usr/bin/env python3
"""The table of `make bench`: medians of the interleaved runs and feedweb's ratios.

    python3 Benchmarks/bench_report.py OUT_DIR

Reads OUT_DIR/machine.txt, OUT_DIR/{feedweb,nchan}-N-rR.json (sseload --json) and
OUT_DIR/pages.tsv (pages.sh); prints Markdown.
"""
import glob
import json
import os
import re
import statistics
import sys

out = sys.argv[1]


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(x, digits=1):
    if x is None:
        return "–"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def ratio(a, b):
    return None if a is None or not b else a / b


if os.path.exists(os.path.join(out, "machine.txt")):
    for line in open(os.path.join(out, "machine.txt")):
        print("    " + line.rstrip())
    print()

runs = {}
for path in glob.glob(os.path.join(out, "*-r*.json")):
    m = re.match(r"(feedweb|nchan)-(\d+)-r(\d+)\.json$", os.path.basename(path))
    if not m:
        continue
    try:
        r = json.load(open(path))
    except Exception:
        r = None
    runs.setdefault((int(m.group(2)), m.group(1)), []).append(r)

if runs:
    rate = float(os.environ.get("RATE", "10"))
    print("Fan-out: the same messages and the same sseload clients for both; medians of the runs that kept up")
    print(f"(delivered ≥ 97 % of N × {rate:g} events/s in the window); a run that fell behind is counted in `kept up`")
    print("with the rate it delivered, and left out of the medians (all runs' medians when none kept up, in italics).")
    print("Latency = arrival at the client − `sent_ns` stamped by timed_upstream just before it wrote the message.")
    print("Lower is better in every column but `complete` and `kept up`.")
    print()
    print("| N | server | complete runs | kept up (delivered/s of the others) | p50 ms | p90 ms | p99 ms (runs' range) | max ms | server CPU % of a core "
          "| µs server CPU per delivered event | RSS KiB per idle client | other load (cores) |")
    print("|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in sorted({k[0] for k in runs}):
        row = {}
        for server in ("feedweb", "nchan"):
            rs = runs.get((n, server), [])
            loaded = [r for r in rs if r]
            kept = [r for r in loaded if r.get("events_per_s", 0) >= 0.97 * rate * r.get("connected", 0)]
            behind = [r for r in loaded if r not in kept]
            good = kept or loaded
            lat = lambda k: [r["latency_ms"][k] if r["latency_ms"]["n"] else None for r in good]  # noqa: E731
            s = {
                "ok": sum(1 for r in good if r.get("ok")),
                "n": len(rs),
                "p50": med(lat("p50")),
                "p90": med(lat("p90")),
                "p99": med(lat("p99")),
                "p99s": [x for x in lat("p99") if x is not None],
                "max": med(lat("max")),
                "cpu": med([100 * r["server_cpu_s"]["window"] / r["window_s"] if r["window_s"] else None for r in good]),
                "us": med([r["server_us_per_event"] for r in good]),
                "rss": med([r["rss_kib_per_client"]["idle"] for r in good]),
                "other": med([r.get("other_cores") for r in good]),
            }
            row[server] = s
            rng = f" ({fmt(min(s['p99s']))}–{fmt(max(s['p99s']))})" if len(s["p99s"]) > 1 else ""
            kept_text = f"{len(kept)}/{len(rs)}" + (
                " (" + ", ".join(f"{r['events_per_s']:,.0f}" for r in behind) + ")" if behind else "")
            em = "" if kept else "_"
            print(f"| {n:,} | {server} | {s['ok']}/{s['n']} | {kept_text} | {em}{fmt(s['p50'])}{em} | {em}{fmt(s['p90'])}{em} "
                  f"| {em}{fmt(s['p99'])}{rng}{em} "
                  f"| {em}{fmt(s['max'])}{em} | {fmt(s['cpu'], 0)} | {fmt(s['us'])} | {fmt(s['rss'], 2)} | {fmt(s['other'], 2)} |")
        f, c = row["feedweb"], row["nchan"]
        print(f"| {n:,} | **feedweb / nchan** | | | **{fmt(ratio(f['p50'], c['p50']), 2)}** | {fmt(ratio(f['p90'], c['p90']), 2)} "
              f"| **{fmt(ratio(f['p99'], c['p99']), 2)}** | {fmt(ratio(f['max'], c['max']), 2)} | {fmt(ratio(f['cpu'], c['cpu']), 2)} "
              f"| **{fmt(ratio(f['us'], c['us']), 2)}** | {fmt(ratio(f['rss'], c['rss']), 2)} | |")
    print()

tsv = os.path.join(out, "pages.tsv")
if os.path.exists(tsv):
    # page -> connections -> server -> [req/s]; a line of 6 fields is from before the
    # crowd sizes (64 connections, no error count).
    pages = {}
    sizes_of = {}
    busy = {}
    errors = {}
    for line in open(tsv):
        parts = line.rstrip("\n").split("\t")
        if len(parts) < 6:
            continue
        page, server, _round, rps, size, busy_pct = parts[:6]
        conns = int(parts[6]) if len(parts) > 6 else 64
        try:
            pages.setdefault(page, {}).setdefault(conns, {}).setdefault(server, []).append(float(rps))
            sizes_of[page] = int(size)
            busy.setdefault(page, []).append(float(busy_pct) if busy_pct else None)
            if len(parts) > 7 and parts[7]:
                errors[(page, server)] = errors.get((page, server), 0) + int(parts[7])
        except ValueError:
            pass
    labels = {"list": "`/`", "item": "`/items/{key}`", "state": "`/api/state`", "static": "`/static/app.js`",
              "kiosk": "`/kiosk`", "stats": "`/stats`"}
    print("Pages: wrk with N keep-alive connections on feedweb and on nginx serving the same bytes from files "
          "(sendfile, tcp_nopush, open_file_cache), with one worker and with two; feedweb against the faster "
          "nginx per page and size, and against its own best at 64-128 connections (a crowd must be served at "
          "the machine's pace); medians of the rounds. Higher is better.")
    print()
    print("| page | bytes | connections | feedweb req/s | nginx, 1 worker | nginx, 2 workers "
          "| **feedweb / best nginx** | **feedweb / its best ≤ 128** |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for page in [p for p in labels if p in pages]:
        by_size = pages[page]
        small = [med(by_size[c].get("feedweb", [])) for c in by_size if c <= 128]
        best_small = max((x for x in small if x is not None), default=None)
        for conns in sorted(by_size):
            servers = by_size[conns]
            f = med(servers.get("feedweb", []))
            # "nginx" alone: a run before nginx was measured at both worker counts.
            one, two = med(servers.get("nginx-1w", [])), med(servers.get("nginx-2w", servers.get("nginx", [])))
            best = max((x for x in (one, two) if x is not None), default=None)
            print(f"| {labels[page]} | {sizes_of[page]:,} | {conns:,} | {fmt(f, 0)} | {fmt(one, 0)} | {fmt(two, 0)} "
                  f"| **{fmt(ratio(f, best), 2)}** | **{fmt(ratio(f, best_small), 2)}** |")
    failed = {k: v for k, v in errors.items() if v}
    if failed:
        print()
        print("wrk errors (socket errors and non-2xx answers, all rounds): "
              + ", ".join(f"{page} on {server}: {n}" for (page, server), n in sorted(failed.items())))
    print()
