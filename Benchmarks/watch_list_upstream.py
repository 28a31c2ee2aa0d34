#!/usr/bin/env python3
"""A Kubernetes API server for Benchmarks/watch_list.sh: N pods of ~5 KiB each (a managed-fields
blob, as real pods carry), listed page by page (`limit`, `continue`), and a watch that expires:

- a watch without `resourceVersion` sends three `ADDED` pods that are not in the list, then
  `ERROR` 410 Expired, and ends, so a client that keeps objects lists them before watching
  again;
- a watch at the list's `resourceVersion` (5000) stays open with a `BOOKMARK` a second;
- a GET without `watch` (in the query or the path's `/watch/` segment) is the list.

Stdlib only.

    Benchmarks/watch_list_upstream.py PORT N
"""
import http.server
import json
import socketserver
import sys
import time
from urllib.parse import parse_qs, urlparse

PORT = int(sys.argv[1])
N = int(sys.argv[2])
VERSION = "5000"
BLOB = "f:" + "x" * 5000


def pod(i, name=None):
    return {"kind": "Pod", "apiVersion": "v1",
            "metadata": {"name": name or f"web-{i}", "namespace": "prod", "uid": f"uid-{name or i}",
                         "resourceVersion": str(1000 + i), "labels": {"app": "web"},
                         "annotations": {"managed": BLOB}},
            "spec": {"nodeName": f"node-{i % 50}", "containers": [{"name": "web", "image": "nginx:1.27"}]},
            "status": {"phase": ["Running", "Pending", "Succeeded"][i % 3], "podIP": f"10.0.{i // 250}.{i % 250}"}}


PODS = [json.dumps(pod(i)) for i in range(N)]


class Server(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def do_GET(self):
        url = urlparse(self.path)
        query = parse_qs(url.query, keep_blank_values=True)
        if "watch" not in query and "/watch/" not in url.path:
            start = int(query.get("continue", ["0"])[0])
            limit = int(query.get("limit", [str(N)])[0])
            more = f',"continue":"{start + limit}"' if start + limit < N else ""
            body = ('{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"%s"%s},"items":[%s]}'
                    % (VERSION, more, ",".join(PODS[start:start + limit]))).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            if query.get("resourceVersion", [None])[0] == VERSION:
                while True:
                    time.sleep(1)
                    bookmark = {"kind": "Pod", "apiVersion": "v1", "metadata": {"resourceVersion": VERSION}}
                    self.chunk((json.dumps({"type": "BOOKMARK", "object": bookmark}) + "\n").encode())
            for name in ["gone-1", "gone-2", "gone-3"]:
                self.chunk((json.dumps({"type": "ADDED", "object": pod(0, name)}) + "\n").encode())
            status = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "Expired", "code": 410,
                      "message": "too old resource version"}
            self.chunk((json.dumps({"type": "ERROR", "object": status}) + "\n").encode())
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass


class ThreadingServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


ThreadingServer(("127.0.0.1", PORT), Server).serve_forever()
