# Shared shell library of the benchmark scripts (smoke.sh, fanout.sh, pages.sh, bench.sh).
# Source it: `. "$(dirname "$0")/lib.sh"`. Loopback only; every wait is bounded.
#
# What it gives:
#   bench_tools            build sseload and timed_upstream (quietly), set TOOLS
#   raise_nofile           ulimit -n as high as the hard limit allows
#   port_of FILE PATTERN   the port of a "PATTERN on http://127.0.0.1:PORT/" line (≤ 10 s)
#   free_port              a free loopback TCP port
#   http_status PORT PATH  the status code of a GET (bash /dev/tcp, no curl needed)
#   wait_http PORT PATH CODE [TENTHS]   until GET answers CODE (default ≤ 5 s)
#   busy_pct [S]           percent of all cores busy over S (2) seconds
#   wait_quiet             until < QUIET_PCT (15) % busy, at most QUIET_WAIT (600) s
#   start_upstream LOG ARGS...          timed_upstream → UP_PID, UP_PORT
#   start_feedweb BIN LOG UPSTREAM ARGS...   feedweb on the upstream → FW_PID, FW_PORT
#   start_nchan DIR        nginx + nchan, own config in DIR → NG_PID, NG_PORT, NG_WORKERS
#   stop_all               TERM every process started here, KILL after 5 s, wait
#   track PID              have stop_all stop PID too
# Each start_* registers its process; `trap stop_all EXIT` in the caller cleans up.

BENCH_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOOLS=$BENCH_LIB_DIR/sseload
BENCH_PIDS=()

bench_tools() {
  make -s -C "$TOOLS" all >/dev/null || { echo "building the load tools failed" >&2; return 2; }
}

# nginx_user: a `user` line that keeps nginx's workers on the current user (nginx switches
# them to `nobody` when started as root, who could not read our 0700 temp dirs).
nginx_user() {
  [ "$(id -u)" = 0 ] && echo "user $(id -un) $(id -gn);"
}

raise_nofile() {
  ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
}

track() { BENCH_PIDS+=("$1"); }

# stop_all: TERM what we started, newest first; KILL what is left after 5 s.
stop_all() {
  local pid i
  for ((i = ${#BENCH_PIDS[@]} - 1; i >= 0; i--)); do
    kill -TERM "${BENCH_PIDS[i]}" 2>/dev/null
  done
  for _ in $(seq 1 50); do
    local alive=0
    for pid in "${BENCH_PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for pid in "${BENCH_PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  for pid in "${BENCH_PIDS[@]}"; do wait "$pid" 2>/dev/null; done
  BENCH_PIDS=()
  UP_PID=""; FW_PID=""; NG_PID=""; NG_WORKERS=""
}

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

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

http_status() {
  local line=""
  exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
  printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$2" >&3
  read -r -t 2 line <&3 || true
  exec 3<&- 3>&-
  echo "$line" | cut -d' ' -f2
}

wait_http() {
  for _ in $(seq 1 "${4:-50}"); do
    [ "$(http_status "$1" "$2" 2>/dev/null)" = "$3" ] && return 0
    sleep 0.1
  done
  return 1
}

busy_pct() {
  local a b t=0 i idle
  read -ra a < <(head -1 /proc/stat); sleep "${1:-2}"; read -ra b < <(head -1 /proc/stat)
  for i in 1 2 3 4 5 6 7 8; do t=$(( t + b[i] - a[i] )); done
  idle=$(( b[4] - a[4] + b[5] - a[5] ))
  if [ $t -gt 0 ]; then echo $(( 100 * (t - idle) / t )); else echo 0; fi
}

# wait_quiet: prints "(machine N% busy)"; status 1 when it gave up waiting.
wait_quiet() {
  local deadline=$(( $(date +%s) + ${QUIET_WAIT:-600} )) b
  while :; do
    b=$(busy_pct)
    [ "$b" -lt "${QUIET_PCT:-15}" ] && { echo "(machine ${b}% busy)"; return 0; }
    [ "$(date +%s)" -ge $deadline ] && { echo "(machine still ${b}% busy; measuring anyway)"; return 1; }
    sleep 3
  done
}

# start_upstream LOGPREFIX [timed_upstream options...]: serves /stream, or publishes with
# --publish-to (then UP_PORT stays empty).
start_upstream() {
  local log=$1; shift
  "$TOOLS/timed_upstream" "$@" >"$log.out" 2>"$log.err" &
  UP_PID=$!; track "$UP_PID"
  UP_PORT=""
  case " $* " in *" --publish-to "*) return 0 ;; esac
  UP_PORT=$(port_of "$log.out" "timed_upstream listening") || { echo "timed_upstream did not start" >&2; cat "$log.err" >&2; return 1; }
}

# start_feedweb BINARY LOGPREFIX UPSTREAM_URL [feedweb options...]: waits for /readyz (≤ 5 s).
start_feedweb() {
  local bin=$1 log=$2 upstream=$3; shift 3
  "$bin" --listen 127.0.0.1:0 --upstream "$upstream" "$@" >"$log.out" 2>"$log.err" &
  FW_PID=$!; track "$FW_PID"
  FW_PORT=$(port_of "$log.out" "feedweb listening") || { echo "feedweb did not start" >&2; tail -20 "$log.err" >&2; return 1; }
  wait_http "$FW_PORT" /readyz 200 || echo "warning: feedweb's /readyz never answered 200" >&2
}

# start_nchan DIR: nginx in the foreground (our child, `daemon off`) with its own config,
# pid, logs and temp paths in DIR, on a free loopback port; NCHAN_WORKERS (2, as many as feedweb has threads) worker
# processes. Locations: /pub?id=CH (nchan_publisher), /sub?id=CH (nchan_subscriber
# eventsource). NG_WORKERS: the worker pids (where nchan's work happens).
# Tuning (Benchmarks/nchan_tune.sh tries them): NCHAN_HTTP (directives added to `http`,
# e.g. "sendfile on; tcp_nopush on;"), NCHAN_LISTEN (listen parameters; unset: "reuseport",
# the fastest of nchan_tune.sh's tunings here, 2026-11-24; set empty for none),
# NCHAN_SUB (directives added to the subscriber location, e.g.
# "nchan_subscriber_first_message newest;"), NCHAN_EVENTS (the `events` directives besides
# worker_connections; unset: "multi_accept on;").
start_nchan() {
  local dir=$1 module
  module=$(ls /usr/lib/nginx/modules/ngx_nchan_module.so 2>/dev/null) ||
    { echo "nchan: /usr/lib/nginx/modules/ngx_nchan_module.so missing (apt-get install libnginx-mod-nchan)" >&2; return 1; }
  mkdir -p "$dir"
  NG_PORT=$(free_port)
  cat >"$dir/nginx.conf" <<CONF
load_module $module;
$(nginx_user)
daemon off;
worker_processes ${NCHAN_WORKERS:-2};
worker_rlimit_nofile 20000;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 20000; ${NCHAN_EVENTS-multi_accept on;} }
http {
  access_log off;
  client_body_temp_path $dir/body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  client_body_buffer_size 256k;
  client_max_body_size 16m;
  keepalive_requests 1000000;
  keepalive_timeout 300s;
  tcp_nodelay on;
  nchan_max_reserved_memory 256M;
  ${NCHAN_HTTP:-}
  server {
    listen 127.0.0.1:$NG_PORT backlog=4096 ${NCHAN_LISTEN-reuseport};
    location = /pub { nchan_publisher; nchan_channel_id \$arg_id; nchan_message_buffer_length 16; }
    location = /sub { nchan_subscriber eventsource; nchan_channel_id \$arg_id; ${NCHAN_SUB:-} }
    location = /healthz { return 200 "ok\n"; }
  }
}
CONF
  nginx -c "$dir/nginx.conf" -p "$dir" -e "$dir/error.log" >"$dir/nginx.out" 2>&1 &
  NG_PID=$!; track "$NG_PID"
  wait_http "$NG_PORT" /healthz 200 || { echo "nginx did not start" >&2; cat "$dir/nginx.out" "$dir/error.log" >&2; return 1; }
  NG_WORKERS=$(ps -o pid= --ppid "$NG_PID" | xargs)
}

# fanout_measure SERVER N OUT [FEEDWEB_BINARY]: one fan-out measurement, fresh processes.
#   SERVER feedweb: timed_upstream serves /stream, feedweb subscribes, clients on /events.
#   SERVER nchan:   nginx + nchan, timed_upstream POSTs the same messages to /pub,
#                   clients on /sub (eventsource).
# The upstream sends nothing but the snapshot until every client has connected and the
# idle RSS has been read, then RATE (10) patches/s, from 0.2 s after the window opened:
# sseload measures DURATION (25) s,
# CONNECT_RATE (1000) connects/s, THREADS (1) sseload threads. Writes OUT.json (sseload's
# summary), OUT.txt, OUT-*.out/err logs. Returns sseload's exit status, 3 if the server died.
fanout_measure() {
  local server=$1 n=$2 out=$3 bin=${4:-} ramp settle quiet life url rc t_up
  local rate=${RATE:-10} duration=${DURATION:-25}
  ramp=$(awk -v n="$n" -v r="${CONNECT_RATE:-1000}" 'BEGIN { x = n / r; if (x < 1) x = 1; printf "%.1f", x }')
  # The first patch leaves the upstream `quiet` s after it started: after the ramp, and the
  # settle at whose end sseload reads the idle RSS; the window starts 0.2 s before it.
  quiet=$(awk -v r="$ramp" 'BEGIN { printf "%.1f", r + 4.5 }')
  life=$(awk -v q="$quiet" -v d="$duration" 'BEGIN { printf "%.0f", q + d + 20 }')
  local pids=()
  t_up=$(date +%s.%N)
  case $server in
    feedweb)
      start_upstream "$out-up" --rate "$rate" --quiet-start "$quiet" --duration "$life" || { stop_all; return 1; }
      # shellcheck disable=SC2086
      start_feedweb "$bin" "$out-fw" "http://127.0.0.1:$UP_PORT/stream" --max-clients 20000 ${FEEDWEB_ARGS:-} || { stop_all; return 1; }
      url="http://127.0.0.1:$FW_PORT/events"
      pids=(--pid "$FW_PID")
      ;;
    nchan)
      start_nchan "$out-nginx" || { stop_all; return 1; }
      t_up=$(date +%s.%N)
      start_upstream "$out-up" --rate "$rate" --quiet-start "$quiet" --duration "$life" \
        --publish-to "http://127.0.0.1:$NG_PORT/pub?id=bench" || { stop_all; return 1; }
      # the snapshot is published first; wait (≤ 5 s) until it is in the channel
      for _ in $(seq 1 50); do
        [ "$(http_status "$NG_PORT" "/pub?id=bench")" = 200 ] && break
        sleep 0.1
      done
      url="http://127.0.0.1:$NG_PORT/sub?id=bench"
      local w
      for w in $NG_WORKERS; do pids+=(--pid "$w"); done
      ;;
    *) echo "fanout_measure: unknown server $server" >&2; return 2 ;;
  esac
  settle=$(awk -v q="$quiet" -v r="$ramp" -v t0="$t_up" -v t1="$(date +%s.%N)" \
    'BEGIN { s = q - (t1 - t0) - r - 0.2; if (s < 0.5) s = 0.5; printf "%.2f", s }')
  echo "== $server N=$n: ramp ${ramp}s, settle ${settle}s, first patch ${quiet}s after the upstream started, ${rate}/s, window ${duration}s (load $(cut -d' ' -f1-3 /proc/loadavg))"
  "$TOOLS/sseload" --url "$url" --clients "$n" --ramp "$ramp" --settle "$settle" --duration "$duration" --grace 3 \
    --threads "${THREADS:-1}" "${pids[@]}" --json --quiet >"$out.json" 2>"$out.txt"
  rc=$?
  case $server in
    feedweb) kill -0 "$FW_PID" 2>/dev/null || { echo "$server DIED during the run: $(tail -2 "$out-fw.err")"; rc=3; } ;;
    nchan) kill -0 "$NG_PID" 2>/dev/null || { echo "$server DIED during the run (see $out-nginx/error.log)"; rc=3; } ;;
  esac
  stop_all
  return $rc
}
