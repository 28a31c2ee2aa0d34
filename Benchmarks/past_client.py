#!/usr/bin/env python3
"""Keep-alive clients asking feedweb for the past (`/api/state?at=ID`, an id --back changes
ago or up to 100 more) or the present (`/api/state`); prints one JSON line: p50/p99/max in
ms over every request, and errors (any status but 200). Standard library only.

Each client is a process of its own (as users' clients are), reading each response with
`recv_into` a buffer it keeps: with threads of one process and `http.client`, the clients
waited on each other for Python's lock and copied every 1.2 MB body several times, and the
p99 measured that (BENCHMARKS.md, "The past")."""
import argparse, json, multiprocessing, random, socket, time

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--what", choices=["past", "now"], required=True)
parser.add_argument("--back", type=int, default=1000)
parser.add_argument("--requests", type=int, default=2000)
parser.add_argument("--concurrency", type=int, default=8)
parser.add_argument("--round", type=int, default=1)
args = parser.parse_args()


class Connection:
    """One keep-alive HTTP/1.1 connection that reads Content-Length bodies into a buffer."""

    def __init__(self, port):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = bytearray(4 << 20)
        self.view = memoryview(self.buffer)
        self.pending = b""

    def get(self, path):
        """Status, headers (lower-case names) and the body's length."""
        self.socket.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head = self.pending
        while b"\r\n\r\n" not in head:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise ConnectionError("closed before the head")
            head += chunk
        head, rest = head.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        if length > len(self.buffer):
            self.buffer = bytearray(length)
            self.view = memoryview(self.buffer)
        have = min(len(rest), length)
        self.view[:have] = rest[:have]
        self.pending = rest[length:]
        while have < length:
            got = self.socket.recv_into(self.view[have:length])
            if not got:
                raise ConnectionError("closed in the body")
            have += got
        return status, headers, length


def current_id():
    _, headers, _ = Connection(args.port).get("/api/state")
    return headers["etag"].strip('"')


def client(count, epoch, seq, seed, results):
    random.seed(seed)
    connection = Connection(args.port)
    mine, errors = [], 0
    for _ in range(count):
        path = "/api/state"
        if args.what == "past":
            path += f"?at={epoch}-{seq - args.back - random.randint(0, 100)}"
        start = time.perf_counter()
        status, _, _ = connection.get(path)
        mine.append((time.perf_counter() - start) * 1000)
        if status != 200:
            errors += 1
    results.put((mine, errors))


if __name__ == "__main__":
    epoch, seq = current_id().rsplit("-", 1)
    seq = int(seq)
    results = multiprocessing.Queue()
    processes = [
        multiprocessing.Process(
            target=client, args=(args.requests // args.concurrency, epoch, seq, n, results))
        for n in range(args.concurrency)
    ]
    for process in processes:
        process.start()
    latencies, errors = [], 0
    for _ in processes:
        mine, failed = results.get(timeout=600)
        latencies.extend(mine)
        errors += failed
    for process in processes:
        process.join()
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    print(json.dumps({"what": args.what, "round": args.round, "requests": len(latencies), "p50": pick(0.5),
                      "p99": pick(0.99), "max": latencies[-1], "errors": errors}))
