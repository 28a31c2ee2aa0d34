#!/usr/bin/env bash
# What one changed row of a table costs the page stream, by the table's size: feedweb (no
# profile: it finds the rows) on Benchmarks/table_upstream.py with ROWS rows, RATE (4) rows
# changed a second, one page stream on the table view; after WINDOW (20) s, /metrics says
# how many fragments the page stream rendered per change (a row and a badge, whatever the
# size) and how long a frame took (feedweb_fanout_seconds{stream="page"}: the table's rows
# sorted and compared, the changed row rendered and queued), as the mean of the frames.
# VIEW (table) is the view the page stream follows (VIEW=kiosk: the kiosk's tiles, chosen
# among the rows; with STATES=up every row is calm, so the choice looks through them all).
#
#   Benchmarks/table_frame.sh FEEDWEB [ROWS ...]        (default ROWS: 100 1000 10000)
#
# ROUNDS (3) rounds, interleaved; prints each round and the medians per size.
set -uo pipefail
bin=${1:?usage: Benchmarks/table_frame.sh FEEDWEB [ROWS ...]}
shift
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100 1000 10000)
cd "$(dirname "$0")/.."
. Benchmarks/lib.sh
out=${OUT:-$(mktemp -d /tmp/feedweb-tableframe.XXXXXX)}
mkdir -p "$out"
trap stop_all EXIT
rate=${RATE:-4} window=${WINDOW:-20} rounds=${ROUNDS:-3} view=${VIEW:-table}
metric() { # metric PORT NAME FILTER: the value of the first sample of NAME matching FILTER
  curl -s "http://127.0.0.1:$1/metrics" | grep "^$2" | grep -- "$3" | head -1 | awk '{ print $NF }'
}
for round in $(seq 1 "$rounds"); do
  for rows in "${sizes[@]}"; do
    python3 Benchmarks/table_upstream.py "$rows" "$rate" >"$out/up-$rows-$round.out" 2>"$out/up-$rows-$round.err" &
    UP_PID=$!; track "$UP_PID"
    UP_PORT=$(port_of "$out/up-$rows-$round.out" "table_upstream listening") || { echo "table_upstream did not start" >&2; exit 1; }
    start_feedweb "$bin" "$out/fw-$rows-$round" "http://127.0.0.1:$UP_PORT/stream" --log-level error || exit 1
    curl -s -N "http://127.0.0.1:$FW_PORT/events/page?v=$view" >"$out/page-$rows-$round.sse" &
    track $!
    sleep 2
    f0=$(metric "$FW_PORT" feedweb_page_fragments_rendered_total "")
    c0=$(metric "$FW_PORT" 'feedweb_fanout_seconds_count' 'stream="page"')
    s0=$(metric "$FW_PORT" 'feedweb_fanout_seconds_sum' 'stream="page"')
    sleep "$window"
    f1=$(metric "$FW_PORT" feedweb_page_fragments_rendered_total "")
    c1=$(metric "$FW_PORT" 'feedweb_fanout_seconds_count' 'stream="page"')
    s1=$(metric "$FW_PORT" 'feedweb_fanout_seconds_sum' 'stream="page"')
    bytes=$(wc -c <"$out/page-$rows-$round.sse")
    awk -v r="$rows" -v round="$round" -v f0="$f0" -v f1="$f1" -v c0="$c0" -v c1="$c1" -v s0="$s0" -v s1="$s1" \
      -v b="$bytes" 'BEGIN { frames = c1 - c0; if (frames < 1) frames = 1;
        printf "round %d, %d rows: %d frames, %.2f fragments/frame, %.3f ms/frame, page stream %d B\n",
          round, r, c1 - c0, (f1 - f0) / frames, (s1 - s0) * 1000 / frames, b }' | tee -a "$out/results.txt"
    stop_all >/dev/null 2>&1
    sleep 1
  done
done
python3 - "$out/results.txt" "${sizes[@]}" <<'PY'
import re, statistics, sys
lines = open(sys.argv[1]).read().splitlines()
print("\n| rows | rounds | fragments per frame | ms per frame (median of rounds) |")
print("| ---: | ---: | ---: | ---: |")
for rows in sys.argv[2:]:
    got = [re.search(r"([\d.]+) fragments/frame, ([\d.]+) ms/frame", l) for l in lines if ", %s rows:" % rows in l]
    got = [m for m in got if m]
    if got:
        print("| %s | %d | %.2f | %.3f |" % (rows, len(got), statistics.median(float(m.group(1)) for m in got),
                                           statistics.median(float(m.group(2)) for m in got)))
print("results in", sys.argv[1])
PY
