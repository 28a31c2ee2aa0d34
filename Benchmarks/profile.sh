#!/usr/bin/env bash
# Where the server's CPU goes per delivered event: perf (sampling, call graphs) and
# strace -c (syscalls) on feedweb or nginx-nchan while N sseload clients take RATE patches/s.
#
#   Benchmarks/profile.sh feedweb|nchan N [FEEDWEB_BINARY]      (N default 10000)
#
# Timeline: ramp, settle, then PERF_SECONDS (10) of `perf record -g` on the server, then
# STRACE_SECONDS (5) of `strace -c -f` on it (strace slows the server down: its counts are
# per event, its times are not to be trusted). Prints the top of `perf report` (by DSO, then
# by symbol, self time) and the syscall table with counts per delivered event. Needs perf
# (linux-perf) and strace. Output and raw data in OUT (default a temp dir).
set -uo pipefail
server=${1:?usage: Benchmarks/profile.sh feedweb|nchan N [FEEDWEB_BINARY]}
n=${2:-10000}
cd "$(dirname "$0")/.."
bin=${3:-.build/release/feedweb}
rate=${RATE:-10}
perf_s=${PERF_SECONDS:-10}
strace_s=${STRACE_SECONDS:-5}
. Benchmarks/lib.sh
bench_tools || exit 2
raise_nofile
out=${OUT:-$(mktemp -d /tmp/feedweb-profile.XXXXXX)}
mkdir -p "$out"
trap stop_all EXIT

ramp=$(awk -v n="$n" 'BEGIN { x = n / 1000; if (x < 1) x = 1; printf "%.1f", x }')
quiet=$(awk -v r="$ramp" 'BEGIN { printf "%.1f", r + 4.5 }')
window=$(( perf_s + strace_s + 6 ))
life=$(awk -v q="$quiet" -v w="$window" 'BEGIN { printf "%.0f", q + w + 20 }')
case $server in
  feedweb)
    start_upstream "$out/up" --rate "$rate" --quiet-start "$quiet" --duration "$life" || exit 1
    start_feedweb "$bin" "$out/fw" "http://127.0.0.1:$UP_PORT/stream" --max-clients 20000 || exit 1
    url="http://127.0.0.1:$FW_PORT/events"; target=$FW_PID
    ;;
  nchan)
    start_nchan "$out/nginx" || exit 1
    start_upstream "$out/up" --rate "$rate" --quiet-start "$quiet" --duration "$life" \
      --publish-to "http://127.0.0.1:$NG_PORT/pub?id=bench" || exit 1
    sleep 0.5
    url="http://127.0.0.1:$NG_PORT/sub?id=bench"; target=${NG_WORKERS%% *}
    ;;
  *) echo "profile: feedweb or nchan" >&2; exit 2 ;;
esac
"$TOOLS/sseload" --url "$url" --clients "$n" --ramp "$ramp" --settle 2 --duration "$window" --grace 2 \
  --pid "$target" --quiet >"$out/sseload.txt" 2>&1 &
track $!
sl=$!
sleep "$(awk -v q="$quiet" 'BEGIN { print q + 1 }')"
echo "== $server, $n clients, $rate patches/s: perf record -g for ${perf_s} s on pid $target"
perf record -F 999 -g -p "$target" -o "$out/perf.data" -- sleep "$perf_s" >"$out/perf-record.txt" 2>&1
echo "== strace -c -f for ${strace_s} s"
timeout -s INT "$strace_s" strace -c -f -p "$target" -o "$out/strace.txt" 2>/dev/null
wait "$sl"
tail -n +2 "$out/sseload.txt" | grep -E '^(connections|delivery|latency|cpu|result)'
echo
echo "== perf: self time by DSO"
perf report -i "$out/perf.data" --no-children --sort dso --stdio 2>/dev/null | grep -v '^#' | grep -v '^$' | head -12
echo
echo "== perf: self time by symbol (top 30)"
perf report -i "$out/perf.data" --no-children --sort sym --stdio -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -30
echo
events=$(( n * rate * strace_s ))
echo "== syscalls during strace (≈ $events events delivered if the server kept up): calls per delivered event"
awk -v e="$events" 'NR > 2 && $1 ~ /^[0-9.]+$/ && NF >= 5 { name = $NF; calls = ($4 ~ /^[0-9]+$/) ? $4 : 0;
  printf "  %-16s %10d calls  %.3f per event\n", name, calls, calls / e }' "$out/strace.txt" | sort -k2 -nr | head -12
echo "raw data in $out"
