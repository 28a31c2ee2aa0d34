#!/usr/bin/env bash
# Fan-out measurement: feedweb's /events at N concurrent clients, fed by timed_upstream.
#
#   Benchmarks/fanout.sh path/to/feedweb [N ...]        (default N: 1000 5000 10000)
#
# Per N, a fresh feedweb and a fresh timed_upstream: the upstream stays quiet (no
# patches) until every client has connected and the idle RSS has been read, then sends
# RATE patches/s; sseload measures for DURATION s. Environment: RATE (10), DURATION (25),
# CONNECT_RATE (1000 connects/s), THREADS (sseload threads, 1), OUT (directory for the
# JSON results, default a temp dir), FEEDWEB_ARGS (extra feedweb options), QUIET_PCT and
# QUIET_WAIT (before each N, wait up to QUIET_WAIT s for the machine to be under QUIET_PCT %
# busy; the table's last column says how many cores everything but feedweb and sseload used
# during the window: a figure taken while other work ran is not a figure of feedweb).
# Prints sseload's summary per N and a table at the end. Loopback only; bounded in time.
set -uo pipefail

bin=${1:?usage: Benchmarks/fanout.sh path/to/feedweb [N ...]}
shift
[ -x "$bin" ] || { echo "fanout: $bin is not an executable" >&2; exit 2; }
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 5000 10000)
rate=${RATE:-10}
duration=${DURATION:-25}
connect_rate=${CONNECT_RATE:-1000}
threads=${THREADS:-1}
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/sseload
make -s -C "$tools" all || exit 2
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

up_pid=""; fw_pid=""
stop_all() {
  [ -n "$fw_pid" ] && kill -TERM "$fw_pid" 2>/dev/null
  [ -n "$up_pid" ] && kill -TERM "$up_pid" 2>/dev/null
  for _ in $(seq 1 50); do
    { [ -z "$fw_pid" ] || ! kill -0 "$fw_pid" 2>/dev/null; } && { [ -z "$up_pid" ] || ! kill -0 "$up_pid" 2>/dev/null; } && break
    sleep 0.1
  done
  [ -n "$fw_pid" ] && kill -KILL "$fw_pid" 2>/dev/null
  [ -n "$up_pid" ] && kill -KILL "$up_pid" 2>/dev/null
  wait 2>/dev/null
  fw_pid=""; up_pid=""
}
trap stop_all EXIT

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

http_status() {
  local line=""
  exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
  printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$2" >&3
  read -r -t 2 line <&3 || true
  exec 3<&- 3>&-
  echo "$line" | cut -d' ' -f2
}

# busy_pct: percent of all cores busy over 2 s (from /proc/stat)
busy_pct() {
  local a b
  a=($(head -1 /proc/stat)); sleep 2; b=($(head -1 /proc/stat))
  local t=0 i
  for i in 1 2 3 4 5 6 7 8; do t=$(( t + b[i] - a[i] )); done
  local idle=$(( b[4] - a[4] + b[5] - a[5] ))
  [ $t -gt 0 ] && echo $(( 100 * (t - idle) / t )) || echo 0
}
# wait_quiet: until the machine is < QUIET_PCT (15) % busy, at most QUIET_WAIT (600) s
wait_quiet() {
  local deadline=$(( $(date +%s) + ${QUIET_WAIT:-600} )) b
  while :; do
    b=$(busy_pct)
    [ "$b" -lt "${QUIET_PCT:-15}" ] && { echo "(machine ${b}% busy)"; return 0; }
    [ "$(date +%s)" -ge $deadline ] && { echo "(machine still ${b}% busy; measuring anyway)"; return 1; }
    sleep 3
  done
}

for n in "${sizes[@]}"; do
  echo "== N=$n: waiting for a quiet machine $(wait_quiet)"
  ramp=$(awk -v n="$n" -v r="$connect_rate" 'BEGIN { x = n / r; if (x < 1) x = 1; printf "%.1f", x }')
  settle=2
  quiet=$(awk -v r="$ramp" -v s="$settle" 'BEGIN { printf "%.1f", r + s + 2.5 }')
  life=$(awk -v q="$quiet" -v d="$duration" 'BEGIN { printf "%.0f", q + d + 20 }')
  "$tools/timed_upstream" --rate "$rate" --quiet-start "$quiet" --duration "$life" >"$out/up-$n.out" 2>"$out/up-$n.err" &
  up_pid=$!
  up_port=$(port_of "$out/up-$n.out" "timed_upstream listening") || { echo "fanout: upstream did not start" >&2; exit 1; }
  # shellcheck disable=SC2086
  "$bin" --listen 127.0.0.1:0 --upstream "http://127.0.0.1:$up_port/stream" --max-clients 20000 ${FEEDWEB_ARGS:-} \
    >"$out/fw-$n.out" 2>"$out/fw-$n.err" &
  fw_pid=$!
  fw_port=$(port_of "$out/fw-$n.out" "feedweb listening") || { echo "fanout: feedweb did not start" >&2; tail "$out/fw-$n.err" >&2; exit 1; }
  for _ in $(seq 1 50); do [ "$(http_status "$fw_port" /readyz 2>/dev/null)" = 200 ] && break; sleep 0.1; done
  echo "== N=$n: ramp ${ramp}s, settle ${settle}s, patches from t=${quiet}s at ${rate}/s, window ${duration}s (load $(cut -d' ' -f1-3 /proc/loadavg))"
  "$tools/sseload" --url "http://127.0.0.1:$fw_port/events" --clients "$n" --ramp "$ramp" --settle "$settle" \
    --duration "$duration" --grace 3 --threads "$threads" --pid "$fw_pid" --json --quiet >"$out/sseload-$n.json" 2>"$out/sseload-$n.txt"
  echo "sseload exit $?"
  cat "$out/sseload-$n.txt"
  kill -0 "$fw_pid" 2>/dev/null || echo "fanout: feedweb DIED during the run (see $out/fw-$n.err)"
  stop_all
  cat "$out/up-$n.err"
  sleep 2
done

if command -v python3 >/dev/null; then
  python3 - "$out" "${sizes[@]}" <<'EOF'
import json, sys, os
out, sizes = sys.argv[1], sys.argv[2:]
print("\n| N | connected | dropped | complete | p50 ms | p90 ms | p99 ms | max ms | RSS idle KiB/client | RSS during KiB/client | feedweb CPU % | sseload CPU % | feedweb µs/event | softirq (cores) | other load (cores) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for n in sizes:
    p = os.path.join(out, "sseload-%s.json" % n)
    try:
        r = json.load(open(p))
    except Exception:
        print("| %s | (no result) |" % n); continue
    w = r["window_s"] or 1
    L = r["latency_ms"]
    print("| %s | %d | %d | %d | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.0f | %.0f | %.1f | %.2f | %.2f |" % (
        n, r["connected"], r["dropped"], r["complete_clients"], L["p50"], L["p90"], L["p99"], L["max"],
        r["rss_kib_per_client"]["idle"], r["rss_kib_per_client"]["during"], 100 * r["server_cpu_s"]["window"] / w,
        100 * r["self_cpu_s"]["window"] / w, r["server_us_per_event"], r.get("softirq_cores", -1), r.get("other_cores", -1)))
print("results in", out)
EOF
fi
