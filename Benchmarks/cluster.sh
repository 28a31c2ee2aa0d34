#!/usr/bin/env bash
# The cluster benchmark: what the PostgreSQL log adds to a change's way to clients, how
# long a takeover takes, and how many clients three nodes hold behind nginx.
#
#   Benchmarks/cluster.sh FEEDWEB
#
# PostgreSQL: a server of its own (initdb in a temp dir, a free port, fsync on as in
# production; as the postgres user when run as root), stopped at the end.
#
# 1. Latency. timed_upstream --append at each rate in RATES (10 100) changes/s, items stamped
#    with their send time; CLIENTS (5) sseload clients on /events of (a) one feedweb alone,
#    (b) the leader and (c) a follower of a 3-node cluster. Latency = arrival − send stamp,
#    p50/p99/max over a WINDOW-second window after a 3 s warm-up; ROUNDS rounds each.
# 2. Takeover. TAKEOVERS times each: SIGKILL, then SIGSTOP, of the leader of a 3-node
#    cluster; seconds from the signal until another node's /readyz answers 200 as leader.
# 3. Clients. For each count in HELD (3000 9000), sseload clients (ramped up over RAMP, 30 s) through nginx
#    (docs/deploy.md's cluster config) in front of 3 nodes, changes at 10/s: connected,
#    dropped, latency, each node's share.
#
# Results as lines on stdout and in OUT (a temp dir).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
trap 'stop_all || true; stop_postgres' EXIT
bench_tools
raise_nofile
RATES=${RATES:-"10 100"} ROUNDS=${ROUNDS:-3} WINDOW=${WINDOW:-10} CLIENTS=${CLIENTS:-5}
TAKEOVERS=${TAKEOVERS:-5} HELD=${HELD:-"3000 9000"} PARTS=${PARTS:-"latency takeover held"}
RAMP=${RAMP:-30}
FEEDWEB=$1
out=${OUT:-$(mktemp -d /tmp/feedweb-cluster.XXXXXX)}
mkdir -p "$out"
chmod 755 "$out"

PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# start_postgres: initdb (once) and start on a free port → PG_PORT, PG_URL.
start_postgres() {
  PG_DIR=${PG_DIR:-$out/pg}
  if [ ! -d "$PG_DIR/data" ]; then
    mkdir -p "$PG_DIR"
    [ "$(id -u)" = 0 ] && chown postgres: "$PG_DIR"
    as_postgres "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U postgres >"$out/initdb.log" 2>&1
  fi
  PG_PORT=${PG_PORT:-$(free_port)}
  as_postgres "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=100" start >/dev/null
  PG_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
}

stop_postgres() {
  [ -n "${PG_DIR:-}" ] && [ -f "$PG_DIR/data/postmaster.pid" ] || return 0
  kill -INT "$(head -1 "$PG_DIR/data/postmaster.pid")" 2>/dev/null || true
  for _ in $(seq 1 100); do [ -f "$PG_DIR/data/postmaster.pid" ] || return 0; sleep 0.1; done
}

psql_() { as_postgres "$PG_BIN/psql" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -At -c "$1" 2>/dev/null; }

# start_cluster N UPSTREAM ARGS...: N nodes on a fresh log → NODE_PIDS, NODE_PORTS.
start_cluster() {
  local count=$1 upstream=$2 i; shift 2
  psql_ "DROP TABLE IF EXISTS feedweb_log, feedweb_checkpoint, feedweb_meta" >/dev/null
  NODE_PIDS=() NODE_PORTS=()
  for i in $(seq 1 "$count"); do
    start_feedweb "$FEEDWEB" "$out/node$i" "$upstream" --cluster "$PG_URL" "$@"
    NODE_PIDS+=("$FW_PID") NODE_PORTS+=("$FW_PORT")
  done
}

role() { curl -s --max-time 2 "http://127.0.0.1:$1/readyz" | python3 -c 'import sys,json
try: d=json.load(sys.stdin); print(d["cluster"]["role"] if d["ready"] else "not-ready")
except Exception: print("none")' 2>/dev/null || echo none; }

# leader_index: the index in NODE_PORTS of the node that leads and is ready (≤ 20 s).
leader_index() {
  local i
  for _ in $(seq 1 400); do
    for i in "${!NODE_PORTS[@]}"; do
      [ -z "${NODE_PORTS[$i]}" ] && continue
      [ "$(role "${NODE_PORTS[$i]}")" = leader ] && { echo "$i"; return 0; }
    done
    sleep 0.05
  done
  return 1
}

latency() { # NAME PORT RATE ROUND
  local name=$1 port=$2 rate=$3 round=$4
  "$TOOLS/sseload" --url "http://127.0.0.1:$port/events" --clients "$CLIENTS" --ramp 0.2 --settle 2.8 \
    --duration "$WINDOW" --grace 1 --stamp-marker sent_ns= --json --quiet >"$out/$name-$rate-$round.json" 2>/dev/null || true
  python3 - "$out/$name-$rate-$round.json" "$name" "$rate" "$round" <<'PY' | tee -a "$out/latency.txt"
import json, sys
d = json.load(open(sys.argv[1]))
lat = d["latency_ms"]
print(f"latency {sys.argv[2]} rate={sys.argv[3]} round={sys.argv[4]}: p50 {lat['p50']:.2f} ms, p99 {lat['p99']:.2f} ms, "
      f"max {lat['max']:.2f} ms, n={lat['n']}, dropped {d['dropped']}")
PY
}

start_postgres
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(nproc) cores; feedweb: $FEEDWEB; PostgreSQL: $("$PG_BIN/postgres" --version)"
} | tee "$out/machine.txt"

# 1. Latency.
[[ " $PARTS " == *" latency "* ]] || RATES=""
for rate in $RATES; do
  for round in $(seq "$ROUNDS"); do
    start_upstream "$out/upstream" --append --rate "$rate" --duration $((WINDOW + 15)) --heartbeat 0
    start_feedweb "$FEEDWEB" "$out/single" "http://127.0.0.1:$UP_PORT/stream" --mode append --log-level error
    latency single "$FW_PORT" "$rate" "$round"
    stop_all || true
    start_upstream "$out/upstream" --append --rate "$rate" --duration $((WINDOW * 2 + 20)) --heartbeat 0
    start_cluster 3 "http://127.0.0.1:$UP_PORT/stream" --mode append --log-level error
    leader=$(leader_index)
    follower=$(((leader + 1) % 3))
    latency cluster-leader "${NODE_PORTS[$leader]}" "$rate" "$round"
    latency cluster-follower "${NODE_PORTS[$follower]}" "$rate" "$round"
    stop_all || true
  done
done

# 2. Takeover.
[[ " $PARTS " == *" takeover "* ]] || TAKEOVERS=0
for signal in KILL STOP; do
  for n in $(seq "$TAKEOVERS"); do
    start_upstream "$out/upstream" --append --rate 10 --duration 120 --heartbeat 0
    start_cluster 3 "http://127.0.0.1:$UP_PORT/stream" --mode append --log-level error
    leader=$(leader_index)
    t0=$(date +%s.%N)
    kill -"$signal" "${NODE_PIDS[$leader]}"
    NODE_PORTS[$leader]=""
    leader_index >/dev/null
    t1=$(date +%s.%N)
    python3 -c "print(f'takeover after SIG$signal #$n: {$t1 - $t0:.2f} s')" | tee -a "$out/takeover.txt"
    kill -CONT "${NODE_PIDS[$leader]}" 2>/dev/null || true
    stop_all || true
  done
done

# 3. Clients held by three nodes behind nginx.
[[ " $PARTS " == *" held "* ]] || { echo "cluster: results in $out"; exit 0; }
start_upstream "$out/upstream" --append --rate 10 --duration 300 --heartbeat 0
start_cluster 3 "http://127.0.0.1:$UP_PORT/stream" --mode append --log-level error --max-clients 20000
leader_index >/dev/null
NG_DIR=$out/nginx
mkdir -p "$NG_DIR"
NG_PORT=$(free_port)
config=$(python3 - "$BENCH_LIB_DIR/../docs/deploy.md" "$NG_PORT" "${NODE_PORTS[@]}" <<'PY'
import sys
text = open(sys.argv[1]).read()
block = text.split("<!-- nginx-cluster-config:begin -->")[1].split("<!-- nginx-cluster-config:end -->")[0]
block = block.replace("```nginx", "").replace("```", "").replace("listen 80;", f"listen 127.0.0.1:{sys.argv[2]};")
for index, port in enumerate(sys.argv[3:]):
    block = block.replace(f"server 127.0.0.1:{8081 + index} ", f"server 127.0.0.1:{port} ")
print(block)
PY
)
cat >"$NG_DIR/nginx.conf" <<EOF
$(nginx_user)
worker_processes 2;
worker_rlimit_nofile 65536;
daemon off;
pid $NG_DIR/nginx.pid;
error_log $NG_DIR/error.log warn;
events { worker_connections 16384; }
http {
    access_log off;
    client_body_temp_path $NG_DIR/client_body;
    proxy_temp_path $NG_DIR/proxy;
    fastcgi_temp_path $NG_DIR/fastcgi;
    uwsgi_temp_path $NG_DIR/uwsgi;
    scgi_temp_path $NG_DIR/scgi;
$config
}
EOF
nginx -p "$NG_DIR" -e "$NG_DIR/error.log" -c "$NG_DIR/nginx.conf" &
track $!
wait_http "$NG_PORT" /readyz 200 50
for held in $HELD; do
  "$TOOLS/sseload" --url "http://127.0.0.1:$NG_PORT/events" --clients "$held" --ramp "$RAMP" --settle 3 \
    --connect-timeout 30 --duration "$WINDOW" --grace 1 --stamp-marker sent_ns= --json --quiet \
    >"$out/held-$held.json" 2>/dev/null &
  load=$!
  sleep $((RAMP + 3 + WINDOW / 2))
  shares=""
  for port in "${NODE_PORTS[@]}"; do
    shares+="$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^feedweb_stream_clients\{stream="events"\}/ {print $2}') "
  done
  wait "$load" || true
  python3 - "$out/held-$held.json" "$held" "$shares" <<'PY' | tee -a "$out/held.txt"
import json, sys
d = json.load(open(sys.argv[1]))
lat = d["latency_ms"]
print(f"held through nginx: {d['connected']} of {sys.argv[2]} connected, dropped {d['dropped']}, "
      f"latency p50 {lat['p50']:.1f} ms p99 {lat['p99']:.1f} ms max {lat['max']:.1f} ms; clients per node: {sys.argv[3]}")
PY
  sleep 3
done
stop_all || true
echo "cluster: results in $out"
