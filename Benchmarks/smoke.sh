#!/usr/bin/env bash
# Smoke run of the SSE load tool against feedweb (CI runs this; about 15 s, at most ~25).
#
#   Benchmarks/smoke.sh path/to/feedweb [SECONDS]
#
# Starts timed_upstream (10 patches/s) and feedweb on free loopback ports, feedweb
# subscribed to it; runs sseload with 200 /events clients for SECONDS (default 8) s; prints
# the summary. Exit status 0 only when every client connected, none was dropped, and every
# client received every patch sent after it connected (checked by sequence number, no gaps).
set -uo pipefail

bin=${1:?usage: Benchmarks/smoke.sh path/to/feedweb [SECONDS]}
secs=${2:-8}
[ -x "$bin" ] || { echo "smoke: $bin is not an executable" >&2; exit 2; }
. "$(dirname "$0")/lib.sh"
bench_tools || exit 2

tmp=$(mktemp -d)
trap 'stop_all; rm -rf "$tmp"' EXIT

start_upstream "$tmp/up" --rate 10 --duration $(( secs + 11 )) || exit 1
start_feedweb "$bin" "$tmp/fw" "http://127.0.0.1:$UP_PORT/stream" --max-clients 1000 || exit 1

echo "smoke: timed_upstream :$UP_PORT (pid $UP_PID) -> feedweb :$FW_PORT (pid $FW_PID); 200 clients, $secs s, 10 patches/s"
"$TOOLS/sseload" --url "http://127.0.0.1:$FW_PORT/events" --clients 200 --ramp 1 --settle 0.5 --duration "$secs" --grace 1 \
  --connect-timeout 3 --expect $(( secs * 10 - 10 )) --pid "$FW_PID" --quiet
rc=$?
if ! kill -0 "$FW_PID" 2>/dev/null; then
  echo "smoke: feedweb exited during the run" >&2; rc=1
fi
if [ $rc -ne 0 ]; then
  echo "smoke: FAILED (sseload exit $rc); feedweb's last log lines:" >&2
  tail -20 "$tmp/fw.err" >&2
else
  echo "smoke: OK"
fi
exit $rc
