#!/usr/bin/env python3
"""An append-mode SSE upstream for the ingest benchmark: Wikimedia EventStreams
`recentchange`-shaped items (~1.2 KB of JSON each, `meta.id` unique, `sent_ns` the
CLOCK_REALTIME nanoseconds just before the write) at a fixed rate, to every subscriber of
/ on 127.0.0.1:PORT. Events due in the same moment are written together. Stops by itself
after DURATION seconds. Standard library only.

    append_upstream.py PORT RATE DURATION
"""
import asyncio
import json
import random
import sys
import time


def item(n, rng):
    return {
        "$schema": "/mediawiki/recentchange/1.0.0",
        "meta": {
            "uri": f"https://en.wikipedia.org/wiki/Page_{n}", "request_id": f"{n:032x}",
            "id": f"{n:08x}-0000-4000-8000-{n:012x}", "dt": "2026-11-24T03:00:00Z",
            "domain": "en.wikipedia.org", "stream": "mediawiki.recentchange",
            "topic": "eqiad.mediawiki.recentchange", "partition": 0, "offset": n,
        },
        "id": n, "seq": n, "type": rng.choice(["edit", "new", "log", "categorize"]), "namespace": 0,
        "title": f"Page {n} about something", "title_url": f"https://en.wikipedia.org/wiki/Page_{n}",
        "comment": "x" * 200, "timestamp": 1700000000 + n, "user": f"User{n % 97}", "bot": False,
        "minor": False, "patrolled": True, "length": {"old": 1234, "new": 1300},
        "revision": {"old": n, "new": n + 1}, "server_url": "https://en.wikipedia.org",
        "server_name": "en.wikipedia.org", "server_script_path": "/w",
        "wiki": rng.choice(["enwiki", "dewiki", "frwiki", "commonswiki", "wikidatawiki"]),
        "parsedcomment": "y" * 300, "sent_ns": time.time_ns(),
    }


async def main(port, rate, duration):
    rng = random.Random(7)
    stop_at = time.monotonic() + duration

    async def subscriber(reader, writer):
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                     b"Cache-Control: no-cache\r\nConnection: close\r\n\r\n")
        start, n, interval = time.monotonic(), 0, 1.0 / rate
        try:
            while time.monotonic() < stop_at:
                target = start + n * interval
                now = time.monotonic()
                if target > now:
                    await asyncio.sleep(target - now)
                due = int((time.monotonic() - start) / interval) + 1
                chunk = []
                while n < due:
                    data = json.dumps(item(n, rng), separators=(",", ":"))
                    chunk.append(f"id: {n}\nevent: message\ndata: {data}\n\n")
                    n += 1
                writer.write("".join(chunk).encode())
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        writer.close()

    server = await asyncio.start_server(subscriber, "127.0.0.1", port)
    async with server:
        await asyncio.sleep(max(0.0, stop_at - time.monotonic()) + 1)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])))
