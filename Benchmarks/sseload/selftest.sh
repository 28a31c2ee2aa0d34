#!/usr/bin/env bash
# Checks sseload itself, without feedweb:
#  1. its HTTP and SSE decoders against sse_fixture.py (a finite stream full of edge cases:
#     BOM, CR / LF / CRLF, split CRLF, comments, multi-line data, data before event, events
#     without data, unknown types, op members in any order) in chunked, close-delimited,
#     Content-Length and HTTP/1.0 framings, sent in tiny fragments: every count must match;
#  2. against timed_upstream directly with 1,000 clients at 10 patches/s: every client
#     must connect and receive every patch, and sseload's own CPU per event is printed;
#  3. --reconnect against a tiny resuming server (inline below): every reconnect waits the
#     server's `retry:`, sends the right Last-Event-ID and resumes; then the server is
#     killed and started again on the same port: every client must come back and resume.
# Needs python3 for steps 1 and 3 (stdlib only). Bounded: about 40 s.
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
echo "== 3. --reconnect (EventSource-like) against a resuming server"
# GET /resume: `retry: 200`, then a `data` (id ep-1) for a client without Last-Event-ID, or
# the next `patch` (id ep-(N+1)) for Last-Event-ID ep-N (`bad-0` for any other value), then
# it closes. /hold: the same, but the stream stays open (a comment every 0.5 s).
cat >"$tmp/resume.py" <<'EOF'
import asyncio, sys
async def handle(r, w):
    try:
        head = (await r.readuntil(b"\r\n\r\n")).decode()
    except Exception:
        w.close(); return
    lines = head.split("\r\n"); path = lines[0].split(" ")[1]
    leid = [l.split(":", 1)[1].strip() for l in lines[1:] if l.lower().startswith("last-event-id:")]
    w.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\nretry: 200\n")
    if not leid:
        w.write(b'id: ep-1\nevent: data\ndata: {"seq":1}\n\n')
    else:
        ep, _, n = leid[0].rpartition("-")
        nid = "ep-%d" % (int(n) + 1) if ep == "ep" and n.isdigit() else "bad-0"
        w.write(("id: %s\nevent: patch\ndata: []\n\n" % nid).encode())
    try:
        await w.drain()
        while path == "/hold":
            await asyncio.sleep(0.5); w.write(b": ka\n\n"); await w.drain()
    except Exception:
        pass
    w.close()
async def main():
    srv = await asyncio.start_server(handle, "127.0.0.1", int(sys.argv[1]), backlog=1024, reuse_address=True)
    print("resume server listening on http://127.0.0.1:%d/" % srv.sockets[0].getsockname()[1], flush=True)
    await asyncio.sleep(float(sys.argv[2]))
asyncio.run(main())
EOF
python3 "$tmp/resume.py" 0 6 >"$tmp/rs.out" &
pids+=($!)
rport=$(wait_url "$tmp/rs.out" listening)
./sseload --url "http://127.0.0.1:$rport/resume" --clients 200 --ramp 0.3 --settle 0 --duration 2 --grace 0.3 \
  --reconnect --quiet --json 2>/dev/null >"$tmp/rc1.json" || true
# the restart: 200 clients on /hold; the server is killed 1.5 s in and started again 1 s later
python3 "$tmp/resume.py" 0 12 >"$tmp/rh.out" &
rh=$!; pids+=($rh)
hport=$(wait_url "$tmp/rh.out" listening)
./sseload --url "http://127.0.0.1:$hport/hold" --clients 200 --ramp 0.3 --settle 0 --duration 5 --grace 0.5 \
  --reconnect --quiet --json 2>/dev/null >"$tmp/rc2.json" &
sl=$!
sleep 1.5; kill -9 "$rh" 2>/dev/null || true; wait "$rh" 2>/dev/null || true; sleep 1
python3 "$tmp/resume.py" "$hport" 8 >"$tmp/rh2.out" &
pids+=($!)
wait "$sl" || true
if python3 - "$tmp/rc1.json" "$tmp/rc2.json" <<'EOF'
import json, sys
bad = {}
for name, f in (("resume", sys.argv[1]), ("restart", sys.argv[2])):
    r = json.load(open(f)); n = r["clients"]; rc = r["reconnect"]
    checks = {
        "lost": (rc["lost"], n), "reconnected": (rc["reconnected"], n), "never back": (rc["never_back"], 0),
        "fresh": (rc["fresh"], 0), "other": (rc["other"], 0),
        "resumed": (rc["resumed"], rc["reconnects"] - rc["no_event"]),
        "back p50 >= retry": (rc["back_ms"]["p50"] >= 200, True),
    }
    if name == "resume":
        checks["several reconnects each"] = (rc["reconnects"] >= 3 * n, True)
        checks["back p50 < 1 s"] = (rc["back_ms"]["p50"] < 1000, True)
    else:
        checks["down at end"] = (rc["down_at_end"], 0)
        checks["one break each"] = (rc["breaks"], n)
        checks["refused while down"] = (rc["failed_attempts"]["connect"] > 0, True)
        checks["back p50 >= 1 s"] = (rc["back_ms"]["p50"] >= 1000, True)
    b = {k: v for k, v in checks.items() if v[0] != v[1]}
    print("  %-8s %s  (reconnects %d, back p50 %.0f ms)" % (name, "OK" if not b else "MISMATCH " + repr(b),
          rc["reconnects"], rc["back_ms"]["p50"]))
    bad.update(b)
sys.exit(1 if bad else 0)
EOF
then :; else fail=1; fi
rm -rf "$tmp"
exit $fail
