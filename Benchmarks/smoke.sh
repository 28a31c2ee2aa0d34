#!/usr/bin/env bash
# Smoke run of the SSE load tool against feedweb (CI runs this; about 15 s, at most ~20).
#
#   Benchmarks/smoke.sh path/to/feedweb
#
# Starts timed_upstream (10 patches/s) and feedweb on free loopback ports, feedweb
# subscribed to it; runs sseload with 200 /events clients for 8 s; prints the summary.
# Exit status 0 only when every client connected, none was dropped, and every client
# received every patch sent after it connected (checked by sequence number, no gaps).
set -uo pipefail

bin=${1:?usage: Benchmarks/smoke.sh path/to/feedweb}
[ -x "$bin" ] || { echo "smoke: $bin is not an executable" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/sseload
make -s -C "$tools" all || { echo "smoke: building the load tools failed" >&2; exit 2; }

tmp=$(mktemp -d)
up_pid=""; fw_pid=""
cleanup() {
  [ -n "$fw_pid" ] && kill -TERM "$fw_pid" 2>/dev/null
  [ -n "$up_pid" ] && kill -TERM "$up_pid" 2>/dev/null
  for _ in $(seq 1 30); do
    { [ -z "$fw_pid" ] || ! kill -0 "$fw_pid" 2>/dev/null; } && { [ -z "$up_pid" ] || ! kill -0 "$up_pid" 2>/dev/null; } && break
    sleep 0.1
  done
  [ -n "$fw_pid" ] && kill -KILL "$fw_pid" 2>/dev/null
  [ -n "$up_pid" ] && kill -KILL "$up_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

# port_of FILE PATTERN: waits (≤ 10 s) for a "... http://127.0.0.1:PORT/..." line
port_of() {
  for _ in $(seq 1 100); do
    if grep -q "$2" "$1" 2>/dev/null; then
      sed -n "s#.*$2 on http://127\.0\.0\.1:\([0-9]*\)/.*#\1#p" "$1" | head -1
      return 0
    fi
    sleep 0.1
  done
  return 1
}

# http_status PORT PATH: the status code of a GET, via bash's /dev/tcp
http_status() {
  local line=""
  exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
  printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$2" >&3
  read -r -t 2 line <&3 || true
  exec 3<&- 3>&-
  echo "$line" | cut -d' ' -f2
}

"$tools/timed_upstream" --rate 10 --duration 19 >"$tmp/up.out" 2>"$tmp/up.err" &
up_pid=$!
up_port=$(port_of "$tmp/up.out" "timed_upstream listening") || { echo "smoke: timed_upstream did not start" >&2; cat "$tmp/up.err" >&2; exit 1; }

"$bin" --listen 127.0.0.1:0 --upstream "http://127.0.0.1:$up_port/stream" --max-clients 1000 >"$tmp/fw.out" 2>"$tmp/fw.err" &
fw_pid=$!
fw_port=$(port_of "$tmp/fw.out" "feedweb listening") || { echo "smoke: feedweb did not start" >&2; tail -20 "$tmp/fw.err" >&2; exit 1; }

# ready = a document is loaded and upstream connected (≤ 5 s)
ready=""
for _ in $(seq 1 50); do
  [ "$(http_status "$fw_port" /readyz 2>/dev/null)" = 200 ] && { ready=1; break; }
  sleep 0.1
done
[ -n "$ready" ] || echo "smoke: warning: /readyz never answered 200; running anyway" >&2

echo "smoke: timed_upstream :$up_port (pid $up_pid) -> feedweb :$fw_port (pid $fw_pid); 200 clients, 8 s, 10 patches/s"
"$tools/sseload" --url "http://127.0.0.1:$fw_port/events" --clients 200 --ramp 1 --settle 0.5 --duration 8 --grace 1 \
  --connect-timeout 3 --pid "$fw_pid" --quiet
rc=$?
if ! kill -0 "$fw_pid" 2>/dev/null; then
  echo "smoke: feedweb exited during the run" >&2; rc=1
fi
if [ $rc -ne 0 ]; then
  echo "smoke: FAILED (sseload exit $rc); feedweb's last log lines:" >&2
  tail -20 "$tmp/fw.err" >&2
else
  echo "smoke: OK"
fi
exit $rc
