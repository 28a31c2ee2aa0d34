#!/usr/bin/env bash
# Requests per second for feedweb's `/` and an item page, next to nginx serving the very
# same bytes from files (sendfile, tcp_nopush, open_file_cache: the usual static-file
# tuning) with 1 and with 2 workers (NGINX_WORKERS, "1 2"; which is faster depends on the
# page, as wrk shares the two cores), measured with wrk in the same run; the table compares
# feedweb with the faster nginx per page.
#
#   Benchmarks/pages.sh [FEEDWEB_BINARY] [ROUNDS]
#
# Needs: wrk, nginx, curl (Debian packages), a release build (`swift build -c release`).
# Everything listens on 127.0.0.1 only; nginx runs in the foreground with its own config,
# never the system service. Environment: DURATION (wrk seconds per measurement, 10),
# CONNECTIONS (wrk -c, 64), QUIET_PCT / QUIET_WAIT (wait for a quiet machine before each
# round, see lib.sh), OUT (a directory: raw results go to OUT/pages.tsv as
# `page server round req/s bytes busy%`). Prints one line per measurement and a table of
# medians.
set -uo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/feedweb}
rounds=${2:-3}
duration=${DURATION:-10}
conns=${CONNECTIONS:-64}
. Benchmarks/lib.sh
raise_nofile
work=$(mktemp -d)
trap 'stop_all; rm -rf "$work"' EXIT
tsv=${OUT:+$OUT/pages.tsv}

# feedweb on the demo feed, frozen (one step an hour) so the pages stay the same.
"$binary" --listen 127.0.0.1:0 --demo-interval 3600 --log-level warning >"$work/feedweb.out" 2>&1 &
FW_PID=$!; track "$FW_PID"
fw_port=$(port_of "$work/feedweb.out" "feedweb listening") || { echo "pages: feedweb did not start" >&2; exit 1; }
wait_http "$fw_port" /readyz 200 100 || { echo "pages: feedweb never became ready" >&2; exit 1; }
key=$(curl -sf "http://127.0.0.1:$fw_port/api/items" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["key"])')

# nginx serving the same bytes, at each of its configurations worth trying here: one
# worker and two (NGINX_WORKERS, default "1 2"); the table compares feedweb with the faster.
mkdir -p "$work/www/items"
curl -sf "http://127.0.0.1:$fw_port/" -o "$work/www/index.html"
curl -sf "http://127.0.0.1:$fw_port/items/$key" -o "$work/www/items/$key"
read -ra nginx_workers <<<"${NGINX_WORKERS:-1 2}"
declare -A ng_ports
for workers in "${nginx_workers[@]}"; do
  ng_port=$(free_port)
  ng_ports[nginx-${workers}w]=$ng_port
  mkdir -p "$work/ng$workers"
  cat >"$work/ng$workers/nginx.conf" <<CONF
$(nginx_user)
daemon off;
worker_processes $workers;
pid $work/ng$workers/nginx.pid;
error_log $work/ng$workers/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $work/ng$workers/body;
  proxy_temp_path $work/ng$workers/proxy;
  fastcgi_temp_path $work/ng$workers/fastcgi;
  uwsgi_temp_path $work/ng$workers/uwsgi;
  scgi_temp_path $work/ng$workers/scgi;
  sendfile on;
  tcp_nopush on;
  open_file_cache max=1000 inactive=60s;
  open_file_cache_valid 3600s;
  keepalive_requests 1000000;
  default_type text/html;
  server {
    listen 127.0.0.1:$ng_port;
    root $work/www;
    location = / { try_files /index.html =404; }
  }
}
CONF
  nginx -c "$work/ng$workers/nginx.conf" -p "$work/ng$workers" -e "$work/ng$workers/error.log" >"$work/ng$workers/nginx.out" 2>&1 &
  track $!
  wait_http "$ng_port" / 200 || { echo "pages: nginx ($workers workers) did not start" >&2; cat "$work/ng$workers/nginx.out" >&2; exit 1; }
done
servers=(feedweb "${!ng_ports[@]}")

list_bytes=$(stat -c %s "$work/www/index.html")
item_bytes=$(stat -c %s "$work/www/items/$key")
echo "machine: $(nproc) cores; feedweb $(basename "$binary"); nginx $(nginx -v 2>&1 | cut -d/ -f2)"
echo "page sizes: / $list_bytes bytes, item $item_bytes bytes; wrk -t1 -c$conns -d${duration}s, $rounds rounds, interleaved; nginx with ${nginx_workers[*]} worker(s)"

declare -A results
measure() { # page server url bytes busy
  local rps
  rps=$(wrk -t1 -c"$conns" -d"${duration}s" "$3" | awk '/Requests\/sec/ {print $2}')
  echo "  $1 $2: $rps req/s"
  results[$2-$1]+="$rps "
  [ -n "$tsv" ] && printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$round" "$rps" "$4" "$5" >>"$tsv"
}
for round in $(seq "$rounds"); do
  q=$(wait_quiet); b=$(echo "$q" | sed -n 's/[^0-9]*\([0-9]*\)%.*/\1/p')
  echo "round $round $q"
  # Each round starts with the next server in turn.
  order=("${servers[@]:$(( (round - 1) % ${#servers[@]} ))}" "${servers[@]:0:$(( (round - 1) % ${#servers[@]} ))}")
  for server in "${order[@]}"; do
    port=$fw_port; [ "$server" != feedweb ] && port=${ng_ports[$server]}
    measure list "$server" "http://127.0.0.1:$port/" "$list_bytes" "$b"
    measure item "$server" "http://127.0.0.1:$port/items/$key" "$item_bytes" "$b"
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo
printf '%-6s %12s %12s %-9s %8s\n' page feedweb "best nginx" "" ratio
for page in list item; do
  f=$(echo "${results[feedweb-$page]}" | median)
  best=0 best_name=""
  for server in "${!ng_ports[@]}"; do
    n=$(echo "${results[$server-$page]}" | median)
    if awk -v n="$n" -v b="$best" 'BEGIN { exit !(n > b) }'; then best=$n best_name=$server; fi
  done
  printf '%-6s %12.0f %12.0f %-9s %8.2f\n' "$page" "$f" "$best" "($best_name)" "$(awk -v f="$f" -v n="$best" 'BEGIN { print f / n }')"
done
