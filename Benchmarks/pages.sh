#!/usr/bin/env bash
# Requests per second for feedweb's `/` and an item page, next to nginx (one worker)
# serving the very same bytes from files, measured with wrk in the same run.
#
#   Benchmarks/pages.sh [FEEDWEB_BINARY] [ROUNDS]
#
# Needs: wrk, nginx (Debian packages), a release build (`swift build -c release`).
# Everything listens on 127.0.0.1 only; nginx runs with its own config, never the
# system service. Prints one line per measurement and a table of medians.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/feedweb}
rounds=${2:-3}
duration=${DURATION:-10s}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; rm -rf "$work"' EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# feedweb on the demo feed, frozen (one step an hour) so the pages stay the same.
fw_port=$(free_port)
"$binary" --listen "127.0.0.1:$fw_port" --demo-interval 3600 --log-level warning >"$work/feedweb.out" 2>&1 &
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$fw_port/readyz" >/dev/null && break; sleep 0.1; done
key=$(curl -sf "http://127.0.0.1:$fw_port/api/items" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["key"])')

# nginx serving the same bytes.
mkdir -p "$work/www/items"
curl -sf "http://127.0.0.1:$fw_port/" -o "$work/www/index.html"
curl -sf "http://127.0.0.1:$fw_port/items/$key" -o "$work/www/items/$key"
ng_port=$(free_port)
cat >"$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  default_type text/html;
  server {
    listen 127.0.0.1:$ng_port;
    root $work/www;
    location = / { try_files /index.html =404; }
  }
}
CONF
nginx -c "$work/nginx.conf" -p "$work"
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$ng_port/" >/dev/null && break; sleep 0.1; done

list_bytes=$(stat -c %s "$work/www/index.html")
item_bytes=$(stat -c %s "$work/www/items/$key")
echo "machine: $(nproc) cores; feedweb $(basename "$binary"); nginx $(nginx -v 2>&1 | cut -d/ -f2)"
echo "page sizes: / $list_bytes bytes, item $item_bytes bytes; wrk -t1 -c64 -d$duration, $rounds rounds, interleaved"

declare -A results
measure() { # name url
  local rps
  rps=$(wrk -t1 -c64 -d"$duration" "$2" | awk '/Requests\/sec/ {print $2}')
  echo "  $1: $rps req/s"
  results[$1]+="$rps "
}
for round in $(seq "$rounds"); do
  echo "round $round"
  measure feedweb-list "http://127.0.0.1:$fw_port/"
  measure nginx-list "http://127.0.0.1:$ng_port/"
  measure feedweb-item "http://127.0.0.1:$fw_port/items/$key"
  measure nginx-item "http://127.0.0.1:$ng_port/items/$key"
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo
printf '%-6s %12s %12s %8s\n' page feedweb nginx ratio
for page in list item; do
  f=$(echo "${results[feedweb-$page]}" | median)
  n=$(echo "${results[nginx-$page]}" | median)
  printf '%-6s %12.0f %12.0f %8.2f\n' "$page" "$f" "$n" "$(echo "$f / $n" | bc -l)"
done
