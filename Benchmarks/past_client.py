#!/usr/bin/env python3
"""Keep-alive clients asking feedweb for the past (`/api/state?at=ID`, an id --back changes
ago or up to 100 more) or the present (`/api/state`); prints one JSON line: p50/p99/max in
ms over every request, and errors (any status but 200). Standard library only."""
import argparse, http.client, json, random, threading, time

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--what", choices=["past", "now"], required=True)
parser.add_argument("--back", type=int, default=1000)
parser.add_argument("--requests", type=int, default=2000)
parser.add_argument("--concurrency", type=int, default=8)
parser.add_argument("--round", type=int, default=1)
args = parser.parse_args()

def current_id():
    connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=10)
    connection.request("GET", "/api/state")
    response = connection.getresponse()
    response.read()
    return response.getheader("ETag").strip('"')

epoch, seq = current_id().rsplit("-", 1)
seq = int(seq)
latencies, errors, lock = [], [0], threading.Lock()

def client(count):
    connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=10)
    mine = []
    for _ in range(count):
        path = "/api/state"
        if args.what == "past":
            path += f"?at={epoch}-{seq - args.back - random.randint(0, 100)}"
        start = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        mine.append((time.perf_counter() - start) * 1000)
        if response.status != 200:
            with lock:
                errors[0] += 1
    with lock:
        latencies.extend(mine)

threads = [threading.Thread(target=client, args=(args.requests // args.concurrency,)) for _ in range(args.concurrency)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
latencies.sort()
pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
print(json.dumps({"what": args.what, "round": args.round, "requests": len(latencies), "p50": pick(0.5),
                  "p99": pick(0.99), "max": latencies[-1], "errors": errors[0]}))
