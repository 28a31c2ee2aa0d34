#!/usr/bin/env python3
"""A fixture SSE server for checking sseload's decoders (used by selftest.sh).

Serves one fixed, finite SSE stream full of edge cases, then ends it, in three framings:
  /chunked  HTTP/1.1 chunked, random chunk sizes, some with chunk extensions
  /close    HTTP/1.0 style, close-delimited
  /length   Content-Length
The body goes out in small random fragments with short pauses, so lines, CRLF pairs and
chunk headers are split across reads. `--print-expect` prints what a correct client
counts (JSON). Stdlib only; loopback only; exits after --duration seconds.
"""
import argparse
import json
import random
import socket
import threading
import time


def stream_events(now_ns):
    """(bytes of the stream, expected counts). sent_ns values are now_ns at build time."""
    out = []
    patches = datas = others = comments = 0
    out.append(b"\xef\xbb\xbf")  # a BOM, skipped
    out.append(b"retry: 500\n: a comment\n")
    comments += 1
    doc = {"status": "OK", "num_results": 10, "sent_ns": 0, "seq": 0, "results": [{"title": "x" * 3000}]}
    out.append(b"id: 0\nevent: data\ndata: " + json.dumps(doc).encode() + b"\n\n")
    datas += 1
    seq = 0
    for rnd in range(12):
        def op_sent(order=0):
            if order:
                return '{"value":%d,"op":"replace","path":"/sent_ns"}' % now_ns
            return '{"op":"replace","path":"/sent_ns","value":%d}' % now_ns

        # 1. LF, usual shape
        seq += 1
        out.append(('id: %d\nevent: patch\ndata: [%s,{"op":"replace","path":"/seq","value":%d}]\n\n'
                    % (seq, op_sent(), seq)).encode())
        # 2. CRLF everywhere, a comment inside the event
        seq += 1
        out.append(('event: patch\r\n: keep-alive\r\ndata: [%s,{"op":"replace","path":"/seq","value":%d}]\r\n\r\n'
                    % (op_sent(1), seq)).encode())
        comments += 1
        # 3. CR only
        seq += 1
        out.append(('event: patch\rdata:[{"op":"replace","path":"/seq","value":%d},%s]\r\r' % (seq, op_sent())).encode())
        # 4. multi-line data, data before event, mixed endings
        seq += 1
        out.append(('data: [{"op":"replace",\r\ndata: "path":"/seq","value":%d},\ndata: %s]\nevent: patch\n\n'
                    % (seq, op_sent())).encode())
        # 5. events that are not counted as patch/data
        out.append(b'event: monitor\ndata: {"ok":true}\n\n')
        others += 1
        out.append(b'data: {"a plain":"message"}\n\n')
        others += 1
        out.append(b"event: patch\n\n")  # no data: not dispatched
        out.append(b"event: patch\nid: 7\n\n")  # no data: not dispatched
        out.append(b": heartbeat\n\n")  # a comment, then a blank line: nothing
        comments += 1
        patches += 4
        # 6. every third round a fresh snapshot under its later name (no seq jump)
        if rnd % 3 == 2:
            d = dict(doc, seq=seq, sent_ns=now_ns)
            out.append(b"event: snapshot\ndata: " + json.dumps(d).encode() + b"\n\n")
            datas += 1
    out.append(b"event: patch\ndata: [unfinished]")  # unfinished at the end: dropped
    body = b"".join(out)
    return body, {"patch": patches, "data": datas, "other": others, "comments": comments, "last_seq": seq}


def fragments(data, rng):
    i = 0
    while i < len(data):
        n = rng.choice([1, 1, 2, 3, 5, 8, 13, 40, 200, 1500])
        yield data[i:i + n]
        i += n


def serve(conn, rng):
    try:
        req = b""
        while b"\r\n\r\n" not in req and len(req) < 16384:
            chunk = conn.recv(4096)
            if not chunk:
                return
            req += chunk
        path = req.split(b" ")[1].decode()
        body, _ = stream_events(time.time_ns())
        if path.startswith("/chunked"):
            head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
            parts = []
            i = 0
            while i < len(body):
                n = rng.randint(1, 700)
                piece = body[i:i + n]
                ext = b";x=1" if rng.random() < 0.2 else b""
                parts.append(b"%x%s\r\n%s\r\n" % (len(piece), ext, piece))
                i += n
            parts.append(b"0\r\n\r\n")
            payload = b"".join(parts)
        elif path.startswith("/length"):
            head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n\r\n" % len(body)
            payload = body
        else:
            head = b"HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
            payload = body
        data = head + payload
        for frag in fragments(data, rng):
            conn.sendall(frag)
            if rng.random() < 0.05:
                time.sleep(0.002)
        time.sleep(0.05)
    except OSError:
        pass
    finally:
        conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--duration", type=float, default=30)
    ap.add_argument("--print-expect", action="store_true")
    a = ap.parse_args()
    if a.print_expect:
        print(json.dumps(stream_events(1)[1]))
        return
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", a.port))
    ls.listen(1024)
    ls.settimeout(0.2)
    print("sse_fixture listening on http://127.0.0.1:%d/" % ls.getsockname()[1], flush=True)
    end = time.time() + a.duration
    n = 0
    while time.time() < end:
        try:
            conn, _ = ls.accept()
        except socket.timeout:
            continue
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        n += 1
        threading.Thread(target=serve, args=(conn, random.Random(n)), daemon=True).start()


if __name__ == "__main__":
    main()
