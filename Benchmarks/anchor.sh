#!/usr/bin/env bash
# The second harness of issue 44, the way ../shared/ssefan/README.md measured it: feedweb fed
# by sseupstream.py (the document protocol, a patch stamped with `sent_ns` every 1/RATE s),
# nginx + nchan fed by ssepub.py (a POST per message), both read by `ssefan` clients (C, one
# epoll loop) for SECS s at RATE messages/s. Servers, interleaved with the order turned
# round by round, each measurement with fresh processes:
#   feedweb        BIN on sseupstream.py, clients on /events (only `patch` events timed)
#   feedweb@PATH   the same with the binary at PATH (two builds in the same rounds)
#   nchan-anchor   nginx + nchan with ../shared/ssefan/nginx-anchor.conf.in, 2 workers, fed
#                  ssepub.py's messages of PUB_SIZE bytes (512)
#   nchan-anchor/PUB_SIZE=B   the same with messages of B bytes, e.g. 1922: as many bytes
#                  per event at the clients as feedweb's patches from sseupstream.py (1,948)
#   nchan-bench    nginx + nchan as `make bench` starts it (lib.sh start_nchan), same feeder
#   nchan-bench/VAR=VALUE,…   the same with lib.sh's NCHAN_* tunings set (values without
#                  spaces), e.g.
#                  "nchan-bench/NCHAN_LISTEN=" (no reuseport), "nchan-bench/NCHAN_EVENTS="
#   feedweb-timed  BIN on `make bench`'s feeder (timed_upstream, lib.sh start_upstream),
#                  ssefan clients: the feeders swapped, the clients kept
#   nchan-timed    `make bench`'s nchan fed by timed_upstream's POSTs, ssefan clients
# One JSON line per measurement in OUT/results.jsonl, then the medians per server and N.
#
#   Benchmarks/anchor.sh BIN        (env: SIZES "1000 5000 10000", ROUNDS 3, RATE 10,
#                                    SECS 20, SERVERS, OUT)
set -uo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/lib.sh
bin=${1:?usage: Benchmarks/anchor.sh FEEDWEB_BINARY}
kit=../shared/ssefan
rate=${RATE:-10} secs=${SECS:-20} rounds=${ROUNDS:-3}
read -ra sizes <<<"${SIZES:-1000 5000 10000}"
read -ra servers <<<"${SERVERS:-feedweb nchan-anchor nchan-bench}"
out=${OUT:-$(mktemp -d /tmp/feedweb-anchor.XXXXXX)}
mkdir -p "$out"
raise_nofile
trap stop_all EXIT
[ -f "$kit/ssefan.c" ] || { echo "anchor: $kit (the ssefan kit beside the repository) is missing" >&2; exit 2; }
gcc -O2 -o "$out/ssefan" "$kit/ssefan.c" || { echo "building ssefan failed" >&2; exit 2; }
module=$(ls /usr/lib/nginx/modules/ngx_nchan_module.so 2>/dev/null) ||
  { echo "nchan missing (apt-get install nginx libnginx-mod-nchan)" >&2; exit 2; }

cpu_ticks() { local t=0 p; for p in "$@"; do [ -r "/proc/$p/stat" ] && t=$((t + $(awk '{print $14+$15}' "/proc/$p/stat"))); done; echo $t; }

# clients URL N TAG [TIME_TYPE]: one ssefan process in the background → FAN_PID.
clients() {
  "$out/ssefan" --url "$1" --connections "$2" --duration "$secs" --max-pending 64 --json --quiet \
    ${4:+--time-type "$4"} --ready-file "$out/$3.ready" >"$out/$3.json" 2>"$out/$3.err" &
  FAN_PID=$!
}

# summary TAG SERVER N CPU_SECONDS: the measurement's JSON line.
summary() {
  python3 - "$out/$1.json" "$2" "$3" "$4" "$secs" "$rate" <<'PY' | tee -a "$out/results.jsonl"
import json, sys
path, server, n, cpu, secs, rate = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
try:
    r = json.load(open(path))
except Exception as e:
    print(json.dumps({"server": server, "n": n, "error": str(e)})); sys.exit()
lat = r["latency_ms"]
print(json.dumps({"server": server, "n": n, "established": r["connections"]["established"],
    "delivered": lat["count"], "delivered_per_s": round(lat["count"] / secs),
    "p50": lat["p50"], "p99": lat["p99"], "max": lat["max"],
    "us_cpu_per_delivery": round(1e6 * cpu / max(1, lat["count"]), 2)}))
PY
}

measure() { # SERVER N TAG
  local server=${1%%/*} n=$2 tag=$3 binary=$bin up upstream fw p dir c0 c1 pids
  if [[ $1 == feedweb@* ]]; then server=feedweb binary=${1#feedweb@}; fi
  case $server in
    feedweb | feedweb-timed)
      if [ "$server" = feedweb ]; then
        up=$(free_port)
        python3 "$kit/sseupstream.py" --port "$up" --rate "$rate" --duration $((secs + 60)) --heartbeat 5 --quiet \
          >"$out/$tag-up.log" 2>&1 &
        track $!
        wait_http "$up" / 200 50 >/dev/null
        upstream="http://127.0.0.1:$up/"
      else
        start_upstream "$out/$tag-up" --rate "$rate" --duration $((secs + 60)) || return 1
        upstream="http://127.0.0.1:$UP_PORT/stream"
      fi
      start_feedweb "$binary" "$out/$tag-fw" "$upstream" --max-clients $((n + 1000)) || return 1
      sleep 2
      pids=$FW_PID
      c0=$(cpu_ticks $pids)
      clients "http://127.0.0.1:$FW_PORT/events" "$n" "$tag" patch
      wait "$FAN_PID"
      c1=$(cpu_ticks $pids) ;;
    nchan-timed)
      mkdir -p "$out/$tag-nginx/tmp" "$out/$tag-nginx/www"
      start_nchan "$out/$tag-nginx" || return 1
      # make bench's order: the snapshot in the channel before the clients come.
      start_upstream "$out/$tag-up" --rate "$rate" --duration $((secs + 60)) \
        --publish-to "http://127.0.0.1:$NG_PORT/pub?id=bench" || return 1
      for _ in $(seq 1 50); do
        [ "$(http_status "$NG_PORT" "/pub?id=bench")" = 200 ] && break
        sleep 0.1
      done
      pids=$NG_WORKERS
      c0=$(cpu_ticks $pids)
      clients "http://127.0.0.1:$NG_PORT/sub?id=bench" "$n" "$tag" patch
      wait "$FAN_PID"
      c1=$(cpu_ticks $pids) ;;
    nchan-anchor | nchan-bench)
      dir="$out/$tag-nginx"
      mkdir -p "$dir/tmp" "$dir/www"
      if [ "$server" = nchan-anchor ]; then
        p=$(free_port)
        sed -e "s#@NCHAN_SO@#$module#" -e "s#@WORKERS@#2#" -e "s#@NOFILE@#$((n + 4096))#" \
          -e "s#@WORKER_CONNECTIONS@#$((n + 4096))#" -e "s#@PREFIX@#$dir#g" -e "s#@PORT@#$p#" \
          -e "s#^daemon on;#daemon off;\n$(nginx_user)#" "$kit/nginx-anchor.conf.in" >"$dir/nginx.conf"
        nginx -c "$dir/nginx.conf" -p "$dir" -e "$dir/error.log" >"$dir/nginx.out" 2>&1 &
        NG_PID=$!; track "$NG_PID"
        for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && break; sleep 0.1; done
        NG_WORKERS=$(ps -o pid= --ppid "$NG_PID" | xargs)
        pub="http://127.0.0.1:$p/pub" sub="http://127.0.0.1:$p/sub"
      else
        start_nchan "$dir" || return 1
        pub="http://127.0.0.1:$NG_PORT/pub?id=bench" sub="http://127.0.0.1:$NG_PORT/sub?id=bench"
      fi
      pids=$NG_WORKERS
      c0=$(cpu_ticks $pids)
      clients "$sub" "$n" "$tag"
      for _ in $(seq 1 300); do [ -e "$out/$tag.ready" ] && break; sleep 0.1; done
      python3 "$kit/ssepub.py" --url "$pub" --rate "$rate" --duration "$secs" --size "${PUB_SIZE:-512}" --concurrency 8 --json \
        --quiet >"$out/$tag-pub.json" 2>&1 &
      track $!
      wait "$FAN_PID"
      c1=$(cpu_ticks $pids) ;;
  esac
  summary "$tag" "$1" "$n" "$(python3 -c "print(($c1 - $c0) / $(getconf CLK_TCK))")"
}

for round in $(seq "$rounds"); do
  for n in "${sizes[@]}"; do
    order=("${servers[@]}")
    for _ in $(seq 2 "$round"); do order=("${order[@]:1}" "${order[0]}"); done
    for server in "${order[@]}"; do
      echo "== round $round N=$n $server $(QUIET_WAIT=60 wait_quiet)"
      # A variant's tunings (VAR=VALUE, no spaces) hold for its measurement only.
      tunings=()
      [[ $server == nchan-*/* ]] && IFS=',' read -ra tunings <<<"${server#*/}"
      for assignment in "${tunings[@]}"; do export "${assignment%%=*}=${assignment#*=}"; done
      measure "$server" "$n" "${server//\//+}-$n-r$round"
      for assignment in "${tunings[@]}"; do unset "${assignment%%=*}"; done
      stop_all >/dev/null 2>&1
      sleep 1
    done
  done
done
python3 Benchmarks/anchor_report.py "$out/results.jsonl"
echo "results in $out"
