#!/usr/bin/env bash
# Checks sseload itself, without feedweb:
#  1. its HTTP and SSE decoders against sse_fixture.py (a finite stream full of edge cases:
#     BOM, CR / LF / CRLF, split CRLF, comments, multi-line data, data before event, events
#     without data, unknown types, op members in any order) in chunked, close-delimited,
#     Content-Length and HTTP/1.0 framings, sent in tiny fragments: every count must match;
#  2. against timed_upstream directly with 1,000 clients at 10 patches/s: every client
#     must connect and receive every patch, and sseload's own CPU per event is printed.
# Needs python3 for step 1 (stdlib only). Bounded: about 30 s.
set -euo pipefail
cd "$(dirname "$0")"
make -s all

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

wait_url() { # file, pattern → port
  local i
  for i in $(seq 1 100); do
    if grep -q "$2" "$1" 2>/dev/null; then sed -n "s#.*127.0.0.1:\([0-9]*\)/.*#\1#p" "$1" | head -1; return 0; fi
    sleep 0.1
  done
  echo "selftest: $1 never printed '$2'" >&2; return 1
}

tmp=$(mktemp -d)
fail=0

echo "== 1. decoders against sse_fixture.py"
python3 sse_fixture.py --duration 25 >"$tmp/fx.out" &
pids+=($!)
fport=$(wait_url "$tmp/fx.out" listening)
expect=$(python3 sse_fixture.py --print-expect)
for mode in chunked close length http10; do
  path=$mode; extra=()
  if [ "$mode" = http10 ]; then path=close; extra=(--http10); fi
  ./sseload --url "http://127.0.0.1:$fport/$path" --clients 50 --ramp 0.3 --settle 0 --duration 2 --grace 0.5 \
    --quiet --json "${extra[@]}" 2>/dev/null >"$tmp/$mode.json" || true
  if python3 - "$tmp/$mode.json" "$expect" "$mode" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1])); e = json.loads(sys.argv[2]); mode = sys.argv[3]; n = r["clients"]
checks = {
    "connected": (r["connected"], n),
    "ended by server": (r["dropped"], n),
    "patch": (r["events"]["patch"], e["patch"] * n),
    "data": (r["events"]["data"], e["data"] * n),
    "other": (r["events"]["other"], e["other"] * n),
    "comments": (r["events"]["comments"], e["comments"] * n),
    "last seq": (r["target_seq"], e["last_seq"]),
    "gaps": (r["missing"], 0), "duplicates": (r["duplicates"], 0),
    "without seq": (r["without_seq"], 0), "without sent_ns": (r["without_sent_ns"], 0),
    "latency samples": (r["latency_ms"]["n"] + r["latency_ramp_ms"]["n"], (e["patch"] + e["data"] - 1) * n),
}
bad = {k: v for k, v in checks.items() if v[0] != v[1]}
print("  %-8s %s" % (mode, "OK" if not bad else "MISMATCH " + repr(bad)))
sys.exit(1 if bad else 0)
EOF
  then :; else fail=1; fi
done

echo "== 2. 1,000 clients straight on timed_upstream (10 patches/s)"
./timed_upstream --rate 10 --duration 20 >"$tmp/up.out" 2>"$tmp/up.err" &
up=$!; pids+=($up)
uport=$(wait_url "$tmp/up.out" listening)
if ./sseload --url "http://127.0.0.1:$uport/stream" --clients 1000 --ramp 2 --duration 10 --grace 1 --pid "$up" --quiet; then
  echo "  timed_upstream x 1000: OK"
else
  echo "  timed_upstream x 1000: INCOMPLETE"; fail=1
fi
rm -rf "$tmp"
exit $fail
