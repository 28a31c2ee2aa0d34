#!/usr/bin/env python3
"""A table feed for Benchmarks/page_dom.sh (TABLE=ROWS): an upstream in the document
protocol whose document is ROWS rows of values, `{"rows": [{"id", "name", "value",
"state", "sent"}, ...]}`; then RATE times a second a patch that changes one row's value
and stamps its `sent` with `sent_ns=N` (the send time, nanoseconds since 1970), one row
after another. feedweb, started with no profile, finds the rows and shows them as a table;
page_dom.py reads the stamp in the row the page swaps in. The rows' `state`s are
`up`, `down`, `pending` in turn, or STATES (comma-separated). Python stdlib only.

    Benchmarks/table_upstream.py ROWS RATE    # prints "table_upstream listening on http://127.0.0.1:PORT/stream"
"""
import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

rows, rate = int(sys.argv[1]), float(sys.argv[2])
# The rows' states, in turn (STATES=up: every row calm, so a kiosk looks through them all).
states = os.environ.get("STATES", "up,down,pending").split(",")
document = {"rows": [
    {"id": "r%05d" % i, "name": "Row %d" % i, "value": round(10 + (i * 7919 % 1000) / 10, 2),
     "state": states[i % len(states)], "sent": ""}
    for i in range(rows)
]}
lock = threading.Condition()
patches = []  # (seq, bytes)


def ticker():
    seq = 0
    interval = 1.0 / rate
    due = time.monotonic()
    while True:
        due += interval
        time.sleep(max(0, due - time.monotonic()))
        seq += 1
        index = (seq * 37) % rows
        value = round(document["rows"][index]["value"] + (0.25 if seq % 2 else -0.25), 2)
        patch = [
            {"op": "replace", "path": "/rows/%d/value" % index, "value": value},
            {"op": "replace", "path": "/rows/%d/sent" % index, "value": "sent_ns=%d" % time.time_ns()},
        ]
        with lock:
            document["rows"][index]["value"] = value
            document["rows"][index]["sent"] = patch[1]["value"]
            event = "id: %d\nevent: patch\ndata: %s\n\n" % (seq, json.dumps(patch, separators=(",", ":")))
            patches.append((seq, event.encode()))
            del patches[:-100]
            lock.notify_all()


class Stream(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        if self.path != "/stream":
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        with lock:
            seq = patches[-1][0] if patches else 0
            first = "id: %d\nevent: data\ndata: %s\n\n" % (seq, json.dumps(document, separators=(",", ":")))
        try:
            self.wfile.write(first.encode())
            self.wfile.flush()
            while True:
                with lock:
                    lock.wait_for(lambda: patches and patches[-1][0] > seq, timeout=10)
                    fresh = [p for p in patches if p[0] > seq]
                for number, data in fresh:
                    self.wfile.write(data)
                    seq = number
                if not fresh:
                    self.wfile.write(b": heartbeat\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, socket.error):
            return

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Stream)
server.daemon_threads = True
threading.Thread(target=ticker, daemon=True).start()
print("table_upstream listening on http://127.0.0.1:%d/stream" % server.server_address[1], flush=True)
server.serve_forever()
