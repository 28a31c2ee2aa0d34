#!/usr/bin/env bash
# Requests per second for feedweb's pages, API and static files at several crowd sizes
# (keep-alive connections), next to nginx serving the very same bytes from files (sendfile,
# tcp_nopush, open_file_cache: the usual static-file tuning) with 1 and with 2 workers
# (NGINX_WORKERS, "1 2"; which is faster depends on the page, as wrk shares the two cores),
# measured with wrk in the same run; the table compares feedweb with the faster nginx per
# page and size, and each size with feedweb's best at 64–128 connections (a crowd must be
# served at the machine's pace: issue 31).
#
#   Benchmarks/pages.sh [FEEDWEB_BINARY] [ROUNDS]
#
# Needs: wrk, nginx, curl (Debian packages), a release build (`swift build -c release`).
# Everything listens on 127.0.0.1 only; nginx runs in the foreground with its own config,
# never the system service. Environment: PAGES (which of list item state static kiosk
# stats, all by default), CONNECTIONS (wrk -c values, "64 128 256 1024"), WRK_THREADS (wrk
# -t, 2), DURATION (wrk seconds per measurement, 5), QUIET_PCT / QUIET_WAIT (wait for a
# quiet machine before each round and size, see lib.sh), OUT (a directory: raw results go
# to OUT/pages.tsv as `page server round req/s bytes busy% connections errors`). Prints one
# line per measurement and a table of medians.
set -uo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/feedweb}
rounds=${2:-3}
duration=${DURATION:-5}
threads=${WRK_THREADS:-2}
read -ra conn_sizes <<<"${CONNECTIONS:-64 128 256 1024}"
read -ra pages <<<"${PAGES:-list item state static kiosk stats}"
. Benchmarks/lib.sh
raise_nofile
work=$(mktemp -d)
trap 'stop_all; rm -rf "$work"' EXIT
tsv=${OUT:+$OUT/pages.tsv}
[ -n "${OUT:-}" ] && mkdir -p "$OUT"

# feedweb on the demo feed, frozen (one step an hour) so the pages stay the same.
"$binary" --listen 127.0.0.1:0 --demo-interval 3600 --log-level warning >"$work/feedweb.out" 2>&1 &
FW_PID=$!; track "$FW_PID"
fw_port=$(port_of "$work/feedweb.out" "feedweb listening") || { echo "pages: feedweb did not start" >&2; exit 1; }
wait_http "$fw_port" /readyz 200 100 || { echo "pages: feedweb never became ready" >&2; exit 1; }
key=$(curl -sf "http://127.0.0.1:$fw_port/api/items" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["key"])')

declare -A path_of=(
  [list]=/ [item]=/items/$key [state]=/api/state [static]=/static/app.js [kiosk]=/kiosk [stats]=/stats
)
# nginx serves each page from a file of the same bytes, under the same path.
mkdir -p "$work/www/items" "$work/www/api" "$work/www/static"
declare -A bytes_of
for page in "${pages[@]}"; do
  path=${path_of[$page]:-}
  [ -n "$path" ] || { echo "pages: unknown page '$page' (list item state static kiosk stats)" >&2; exit 2; }
  file=$work/www$path
  [ "$path" = / ] && file=$work/www/index.html
  curl -sf "http://127.0.0.1:$fw_port$path" -o "$file" || { echo "pages: GET $path failed" >&2; exit 1; }
  bytes_of[$page]=$(stat -c %s "$file")
done

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
worker_rlimit_nofile 20000;
pid $work/ng$workers/nginx.pid;
error_log $work/ng$workers/error.log;
events { worker_connections 10000; }
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
    listen 127.0.0.1:$ng_port backlog=4096;
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

echo "machine: $(nproc) cores; feedweb $(basename "$binary"); nginx $(nginx -v 2>&1 | cut -d/ -f2)"
for page in "${pages[@]}"; do echo "page $page: ${path_of[$page]} ${bytes_of[$page]} bytes"; done
echo "wrk -t$threads -d${duration}s at ${conn_sizes[*]} connections, $rounds rounds, interleaved; nginx with ${nginx_workers[*]} worker(s)"

declare -A results
measure() { # page server url connections busy
  local out rps errors
  out=$(wrk -t"$threads" -c"$4" -d"${duration}s" "$3" 2>&1)
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  # "Socket errors: connect 0, read 0, write 0, timeout 0" and non-2xx answers, summed.
  errors=$(echo "$out" | awk '/Socket errors/ {gsub(",", ""); s += $4 + $6 + $8 + $10} /Non-2xx/ {s += $NF} END {print s + 0}')
  echo "  $1 c=$4 $2: ${rps:-0} req/s$([ "$errors" != 0 ] && echo ", $errors errors")"
  results[$2-$1-$4]+="${rps:-0} "
  [ -n "$tsv" ] && printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$round" "${rps:-0}" "${bytes_of[$1]}" "$5" "$4" "$errors" >>"$tsv"
}
for round in $(seq "$rounds"); do
  for conns in "${conn_sizes[@]}"; do
    q=$(wait_quiet); b=$(echo "$q" | sed -n 's/[^0-9]*\([0-9]*\)%.*/\1/p')
    echo "round $round, $conns connections $q"
    # Each round starts with the next server in turn.
    order=("${servers[@]:$(( (round - 1) % ${#servers[@]} ))}" "${servers[@]:0:$(( (round - 1) % ${#servers[@]} ))}")
    for server in "${order[@]}"; do
      port=$fw_port; [ "$server" != feedweb ] && port=${ng_ports[$server]}
      for page in "${pages[@]}"; do
        measure "$page" "$server" "http://127.0.0.1:$port${path_of[$page]}" "$conns" "$b"
      done
    done
  done
done
closed=$(curl -sf "http://127.0.0.1:$fw_port/metrics" | awk '/^feedweb_http_connections_closed_total\{reason="head_timeout"\}/ {print $2}')
echo "feedweb: connections closed by the head timeout during the run: ${closed:-?}"

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo
printf '%-7s %6s %12s %12s %-9s %8s %14s\n' page conns feedweb "best nginx" "" ratio "of fw best≤128"
for page in "${pages[@]}"; do
  best_small=0
  for conns in "${conn_sizes[@]}"; do
    [ "$conns" -le 128 ] || continue
    f=$(echo "${results[feedweb-$page-$conns]}" | median)
    awk -v f="$f" -v b="$best_small" 'BEGIN { exit !(f > b) }' && best_small=$f
  done
  for conns in "${conn_sizes[@]}"; do
    f=$(echo "${results[feedweb-$page-$conns]}" | median)
    best=0 best_name=""
    for server in "${!ng_ports[@]}"; do
      n=$(echo "${results[$server-$page-$conns]}" | median)
      if awk -v n="$n" -v b="$best" 'BEGIN { exit !(n > b) }'; then best=$n best_name=$server; fi
    done
    printf '%-7s %6s %12.0f %12.0f %-9s %8.2f %14s\n' "$page" "$conns" "$f" "$best" "($best_name)" \
      "$(awk -v f="$f" -v n="$best" 'BEGIN { print (n > 0 ? f / n : 0) }')" \
      "$(awk -v f="$f" -v b="$best_small" 'BEGIN { if (b > 0) printf "%.2f", f / b; else print "–" }')"
  done
done
