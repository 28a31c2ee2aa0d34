#!/usr/bin/env python3
"""A Kubernetes watch for Benchmarks/watch_burst.sh: on any GET, one chunked `application/json`
response of N `ADDED` pods (a new watch's first burst), then a `MODIFIED` of one every 0.2 s
until the client goes. Stdlib only.

    Benchmarks/watch_upstream.py PORT N
"""
import http.server
import json
import random
import socketserver
import sys
import time

PORT = int(sys.argv[1])
N = int(sys.argv[2])


def pod(i, phase):
    return {"kind": "Pod", "apiVersion": "v1",
            "metadata": {"name": f"job-{i:05d}", "namespace": f"ns-{i % 7}", "uid": f"uid-{i:05d}",
                         "resourceVersion": str(i), "creationTimestamp": "2026-12-04T08:00:00Z",
                         "labels": {"app": "job"}},
            "spec": {"nodeName": f"node-{i % 12}"},
            "status": {"phase": phase, "podIP": f"10.1.{i // 250}.{i % 250}", "startTime": "2026-12-04T08:00:01Z"}}


class Watch(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def send(event):
            line = (json.dumps(event) + "\n").encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))

        try:
            for i in range(N):
                send({"type": "ADDED", "object": pod(i, "Running")})
            self.wfile.flush()
            while True:
                time.sleep(0.2)
                i = random.randrange(N)
                send({"type": "MODIFIED", "object": pod(i, random.choice(["Running", "Failed", "Succeeded"]))})
                self.wfile.flush()
        except OSError:
            pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


Server(("127.0.0.1", PORT), Watch).serve_forever()
