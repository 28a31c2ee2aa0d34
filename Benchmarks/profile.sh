#!/usr/bin/env bash
# Where the server's CPU goes per delivered event: perf record (sampling, call graphs) and
# perf stat on the syscall tracepoints, on feedweb or nginx-nchan while N sseload clients
# take RATE patches/s.
#
#   Benchmarks/profile.sh feedweb|nchan N [FEEDWEB_BINARY]      (N default 10000)
#
# Timeline: ramp, settle, then PERF_SECONDS (10) of `perf record -g` on the server, then
# COUNT_SECONDS (5) of `perf stat` counting its syscalls (tracepoints: cheap, unlike
# strace, which slows the server down until events coalesce). Prints the top of
# `perf report` (self time by thread, by DSO, by symbol) and syscalls per delivered event.
# Needs perf (linux-perf). Output and raw data in OUT (default a temp dir).
set -uo pipefail
server=${1:?usage: Benchmarks/profile.sh feedweb|nchan N [FEEDWEB_BINARY]}
n=${2:-10000}
cd "$(dirname "$0")/.."
bin=${3:-.build/release/feedweb}
rate=${RATE:-10}
perf_s=${PERF_SECONDS:-10}
count_s=${COUNT_SECONDS:-5}
. Benchmarks/lib.sh
bench_tools || exit 2
raise_nofile
out=${OUT:-$(mktemp -d /tmp/feedweb-profile.XXXXXX)}
mkdir -p "$out"
trap stop_all EXIT

ramp=$(awk -v n="$n" 'BEGIN { x = n / 1000; if (x < 1) x = 1; printf "%.1f", x }')
quiet=$(awk -v r="$ramp" 'BEGIN { printf "%.1f", r + 4.5 }')
window=$(( perf_s + count_s + 6 ))
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
echo "== perf stat: syscalls for ${count_s} s"
perf stat -x, -o "$out/syscalls.csv" -p "$target" -e raw_syscalls:sys_enter -e syscalls:sys_enter_sendto \
  -e syscalls:sys_enter_write -e syscalls:sys_enter_writev -e syscalls:sys_enter_sendmsg \
  -e syscalls:sys_enter_epoll_wait -e syscalls:sys_enter_futex -e syscalls:sys_enter_read \
  -e syscalls:sys_enter_recvfrom -- sleep "$count_s" 2>/dev/null
wait "$sl"
tail -n +2 "$out/sseload.txt" | grep -E '^(connections|delivery|latency|cpu|result)'
report() { perf report -i "$out/perf.data" --no-children -g none --stdio "$@" 2>/dev/null | grep -v '^#' | grep -v '^$'; }
echo
echo "== perf: self time by thread"
report --sort comm | head -8
echo
echo "== perf: self time by DSO"
report --sort dso | head -10
echo
echo "== perf: self time by symbol (top 30)"
report --sort dso,sym | head -30
echo
# events delivered while counting: sseload's mean rate over its window times the count time
rate_seen=$(sed -n 's/^ *\([0-9]*\) events\/s in the window.*/\1/p' "$out/sseload.txt" | head -1)
events=$(( ${rate_seen:-$(( n * rate ))} * count_s ))
echo "== syscalls in ${count_s} s (≈ $events events delivered, at sseload's mean rate): per delivered event"
awk -F, -v e="$events" '$1 ~ /^[0-9]+$/ { printf "  %-34s %10d  %.3f per event\n", $3, $1, $1 / e }' "$out/syscalls.csv"
echo "raw data in $out"
