#!/usr/bin/env bash
# What a table page costs to render after each change, by the table's size: feedweb (no
# profile: it finds the rows) on Benchmarks/table_upstream.py with ROWS rows, RATE (4) rows
# changed a second; a client asks for `/` (the table's first page, up to 1,000 rows) every
# 0.25 s for WINDOW (15) s, so nearly every request comes after a change and renders the
# page. Reports feedweb_page_render_seconds' mean (the render alone) and the clients' median
# time to the first byte.
#
#   Benchmarks/table_page.sh FEEDWEB [FEEDWEB2 ...]      (SIZES: "100 1000 10000")
#
# ROUNDS (3) rounds, the binaries and sizes interleaved in each; prints each measurement
# and the medians per binary and size.
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: Benchmarks/table_page.sh FEEDWEB [FEEDWEB2 ...]" >&2; exit 2; }
bins=("$@")
cd "$(dirname "$0")/.."
. Benchmarks/lib.sh
out=${OUT:-$(mktemp -d /tmp/feedweb-tablepage.XXXXXX)}
mkdir -p "$out"
trap stop_all EXIT
read -r -a sizes <<<"${SIZES:-100 1000 10000}"
rate=${RATE:-4} window=${WINDOW:-15} rounds=${ROUNDS:-3}
metric() { # metric PORT NAME: the value of the sample NAME
  curl -s "http://127.0.0.1:$1/metrics" | grep "^$2 " | awk '{ print $NF }'
}
for round in $(seq 1 "$rounds"); do
  for rows in "${sizes[@]}"; do
    for b in "${!bins[@]}"; do
      bin=${bins[$b]} tag="$b-$rows-$round"
      python3 Benchmarks/table_upstream.py "$rows" "$rate" >"$out/up-$tag.out" 2>"$out/up-$tag.err" &
      UP_PID=$!; track "$UP_PID"
      UP_PORT=$(port_of "$out/up-$tag.out" "table_upstream listening") || { echo "table_upstream did not start" >&2; exit 1; }
      start_feedweb "$bin" "$out/fw-$tag" "http://127.0.0.1:$UP_PORT/stream" --log-level error || exit 1
      sleep 2
      curl -s -o /dev/null "http://127.0.0.1:$FW_PORT/" # the first render, of a cold process
      c0=$(metric "$FW_PORT" feedweb_page_render_seconds_count)
      s0=$(metric "$FW_PORT" feedweb_page_render_seconds_sum)
      end=$((SECONDS + window))
      : >"$out/ttfb-$tag.txt"
      while [ $SECONDS -lt $end ]; do
        curl -s -o /dev/null -w '%{time_starttransfer}\n' "http://127.0.0.1:$FW_PORT/" >>"$out/ttfb-$tag.txt"
        sleep 0.25
      done
      c1=$(metric "$FW_PORT" feedweb_page_render_seconds_count)
      s1=$(metric "$FW_PORT" feedweb_page_render_seconds_sum)
      ttfb=$(sort -n "$out/ttfb-$tag.txt" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] * 1000 }')
      awk -v bin="$b" -v r="$rows" -v round="$round" -v c0="$c0" -v c1="$c1" -v s0="$s0" -v s1="$s1" -v t="$ttfb" \
        'BEGIN { n = c1 - c0; if (n < 1) n = 1;
          printf "round %d, binary %d, %d rows: %d renders, %.2f ms per render, first byte median %.2f ms\n",
            round, bin, r, c1 - c0, (s1 - s0) * 1000 / n, t }' | tee -a "$out/results.txt"
      stop_all >/dev/null 2>&1
      sleep 1
    done
  done
done
python3 - "$out/results.txt" "${#bins[@]}" "${sizes[@]}" <<'PY'
import re, statistics, sys
lines = open(sys.argv[1]).read().splitlines()
print("\n| binary | rows | rounds | ms per render (median) | first byte, ms (median) |")
print("| ---: | ---: | ---: | ---: | ---: |")
for rows in sys.argv[3:]:
    for b in range(int(sys.argv[2])):
        got = [re.search(r"([\d.]+) ms per render, first byte median ([\d.]+) ms", l) for l in lines
               if ", binary %d, %s rows:" % (b, rows) in l]
        got = [m for m in got if m]
        if got:
            print("| %d | %s | %d | %.2f | %.2f |" % (b, rows, len(got), statistics.median(float(m.group(1)) for m in got),
                                                     statistics.median(float(m.group(2)) for m in got)))
PY
