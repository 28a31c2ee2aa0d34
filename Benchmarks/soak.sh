#!/usr/bin/env bash
# The soak (`make soak`): feedweb for MINUTES (default SOAK_MINUTES, else 30) against an
# upstream it cannot trust, with clients coming and going; fails unless memory and
# descriptors stay flat and every client ends with exactly the mirror.
#
#   Benchmarks/soak.sh path/to/feedweb [MINUTES]
#
# timed_upstream (Benchmarks/sseload) sends 10 changes/s, cuts feedweb's connection every
# minute (--drop-every 60) and answers every third reconnect with a 500 (--fail-every 3);
# feedweb (its defaults, release build) subscribes to it. Benchmarks/soak.py then runs the
# clients and judges: 1,500 steady /events clients, a batch of 100 more every second that
# stays 4 s (about 100 connects and 100 disconnects a second over /events, /events/items and
# the list page stream), 20 reference clients that apply every patch with an RFC 6902
# applier of its own, 10 slow readers (8 KiB/s) and 10 that stall for 60 s out of every 80; RSS and open
# descriptors every 5 s. Pass: RSS grows < 5 MB after the warm-up (the first 5 minutes),
# descriptors return to the baseline once the clients are gone, every reference and slow
# client holds /api/state's document and id at the end, and feedweb never crashes (it is
# running at the end and stops with status 0). Exit status 1 otherwise.
#
# OUT (a new /tmp/feedweb-soak.* unless given) keeps the logs and soak.json (every sample).
set -uo pipefail

bin=${1:?usage: Benchmarks/soak.sh path/to/feedweb [MINUTES]}
minutes=${2:-${SOAK_MINUTES:-30}}
[ -x "$bin" ] || { echo "soak: $bin is not an executable" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
bench_tools || exit 2
raise_nofile

out=${OUT:-$(mktemp -d /tmp/feedweb-soak.XXXXXX)}
mkdir -p "$out"
trap stop_all EXIT

commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "soak: $(date -u +%Y-%m-%dT%H:%MZ), commit $commit, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); logs in $out"
life=$(awk -v m="$minutes" 'BEGIN { printf "%.0f", m * 60 + 900 }')
start_upstream "$out/up" --rate 10 --duration "$life" --drop-every 60 --fail-every 3 || exit 1
start_feedweb "$bin" "$out/fw" "http://127.0.0.1:$UP_PORT/stream" || exit 1
echo "soak: timed_upstream :$UP_PORT (pid $UP_PID) -> feedweb :$FW_PORT (pid $FW_PID), $("$bin" --version 2>/dev/null)"

python3 "$here/soak.py" --port "$FW_PORT" --pid "$FW_PID" --upstream-pid "$UP_PID" --tools "$TOOLS" \
  --minutes "$minutes" --out "$out"
rc=$?

# No crash: still running, and a clean stop.
if kill -0 "$FW_PID" 2>/dev/null; then
  kill -TERM "$FW_PID"
  for _ in $(seq 1 50); do kill -0 "$FW_PID" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$FW_PID" 2>/dev/null; then
    echo "soak: FAIL: feedweb did not stop within 5 s of SIGTERM"; rc=1
  else
    wait "$FW_PID"; status=$?
    [ "$status" -eq 0 ] || { echo "soak: FAIL: feedweb exited with status $status"; rc=1; }
  fi
else
  echo "soak: FAIL: feedweb is not running at the end"; rc=1
fi
if grep -E -m3 'Fatal error|fatalError|Segmentation fault|Assertion|Illegal instruction|stack trace' "$out/fw.err"; then
  echo "soak: FAIL: feedweb's log shows a crash (above)"; rc=1
fi
echo "soak: upstream: $(grep 'done:' "$out/up.err" | sed 's/^timed_upstream: //')"
echo "soak: feedweb log: $(wc -l <"$out/fw.err") lines, $(grep -c 'warning' "$out/fw.err") warnings, $(grep -c 'error' "$out/fw.err") errors"
[ $rc -eq 0 ] && echo "soak: OK" || echo "soak: FAILED"
exit $rc
