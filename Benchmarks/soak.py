#!/usr/bin/env python3
"""The soak's clients and judge (run by Benchmarks/soak.sh, which starts the upstream and
feedweb): load with churn, slow readers, reference clients that apply every patch, RSS and
descriptor samples, and the pass criteria. Python's standard library only.

Load, for --minutes:
  - `sseload` (C): --steady clients on /events for the whole run, and every second a batch of
    --churn-batch clients that stay --churn-life seconds (≈ batch connects and disconnects a
    second), cycling through /events, /events/items and /events/page?view=list;
  - --checkers reference clients on /events that apply every `data` and RFC 6902 `patch`
    with the applier below, resuming with Last-Event-ID after any disconnect;
  - --laggards clients (a 4 KiB receive buffer, 16 KiB read every 2 s: slow, bursty, but
    enough for the feed; they must not be dropped) and --stallers (the same buffer; read 20 s,
    then nothing for 60 s, longer than the kernel's buffers last at this rate: feedweb drops a
    client that takes nothing for 5 s while events wait; they resume), all applying every
    patch too.
  - /inspect open the whole run: --inspectors page streams of its view
    (/events/page?v=inspect: the tree, the event log, the exchanges and the screens, re-rendered
    as the feed and the crowd move), and the page itself fetched at every sample.
Every --sample seconds: feedweb's RSS (VmRSS) and open descriptors (/proc/PID/fd).

At the end: the load stops, the upstream is stopped (the mirror stays as it is), every
reference, laggard and staller client must hold exactly /api/state's document and id; then
they leave and feedweb's descriptors must come back to the baseline taken before any
client came. RSS after warm-up must grow by less than --max-growth-mb. Prints the figures
and writes them as JSON; exit status 1 when a criterion fails.
"""

import argparse
import asyncio
import copy
import json
import os
import signal
import socket
import statistics
import sys
import time
import urllib.request

# ------------------------------------------------------------------ RFC 6902, as a reference


class PatchError(Exception):
    pass


def pointer_tokens(pointer):
    """RFC 6901: '' is the whole document; '/a~1b/~0c' is ['a/b', '~c']."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise PatchError(f"not a JSON Pointer: {pointer!r}")
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def array_index(token, length, allow_end):
    if token == "-" and allow_end:
        return length
    if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        raise PatchError(f"bad array index {token!r}")
    index = int(token)
    if index > length or (index == length and not allow_end):
        raise PatchError(f"array index {index} out of range ({length})")
    return index


def walk(doc, tokens):
    for token in tokens:
        if isinstance(doc, list):
            doc = doc[array_index(token, len(doc), False)]
        elif isinstance(doc, dict):
            if token not in doc:
                raise PatchError(f"no member {token!r}")
            doc = doc[token]
        else:
            raise PatchError(f"cannot descend into {type(doc).__name__}")
    return doc


def strictly_equal(a, b):
    """JSON equality: no True == 1, numbers by value, objects unordered."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(strictly_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(strictly_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def add(doc, tokens, value):
    if not tokens:
        return value
    parent = walk(doc, tokens[:-1])
    last = tokens[-1]
    if isinstance(parent, list):
        parent.insert(array_index(last, len(parent), True), value)
    elif isinstance(parent, dict):
        parent[last] = value
    else:
        raise PatchError("add into a scalar")
    return doc


def remove(doc, tokens):
    if not tokens:
        raise PatchError("remove the whole document")
    parent = walk(doc, tokens[:-1])
    last = tokens[-1]
    if isinstance(parent, list):
        return doc, parent.pop(array_index(last, len(parent), False))
    if isinstance(parent, dict):
        if last not in parent:
            raise PatchError(f"remove: no member {last!r}")
        return doc, parent.pop(last)
    raise PatchError("remove from a scalar")


def apply_patch(doc, operations):
    """Applies the operations in order, in place where it can; returns the new document."""
    if not isinstance(operations, list):
        raise PatchError("a patch is an array")
    for op in operations:
        if not isinstance(op, dict) or not isinstance(op.get("path"), str):
            raise PatchError(f"not an operation: {op!r}")
        kind = op.get("op")
        path = pointer_tokens(op["path"])
        if kind == "add":
            doc = add(doc, path, op["value"])
        elif kind == "remove":
            doc, _ = remove(doc, path)
        elif kind == "replace":
            if not path:
                doc = op["value"]
            else:
                walk(doc, path)  # must exist
                doc, _ = remove(doc, path)
                doc = add(doc, path, op["value"])
        elif kind == "move":
            source = pointer_tokens(op["from"])
            if path[: len(source)] == source and len(path) > len(source):
                raise PatchError("move into its own child")
            doc, value = remove(doc, source)
            doc = add(doc, path, value)
        elif kind == "copy":
            doc = add(doc, path, copy.deepcopy(walk(doc, pointer_tokens(op["from"]))))
        elif kind == "test":
            if not strictly_equal(walk(doc, path), op["value"]):
                raise PatchError(f"test failed at {op.get('path')}")
        else:
            raise PatchError(f"unknown op {kind!r}")
    return doc


# ------------------------------------------------------------------ an SSE client that applies


class ChunkedDecoder:
    """HTTP/1.1 chunked transfer coding, fed any split of the bytes."""

    def __init__(self):
        self.buffer = b""
        self.left = None  # bytes left in the current chunk; None: at a size line

    def feed(self, data):
        """Returns the payload bytes now complete and whether the last chunk was seen."""
        self.buffer += data
        out = []
        while True:
            if self.left is None:
                line_end = self.buffer.find(b"\r\n")
                if line_end < 0:
                    return b"".join(out), False
                size = int(self.buffer[:line_end].split(b";")[0], 16)
                self.buffer = self.buffer[line_end + 2 :]
                if size == 0:
                    return b"".join(out), True
                self.left = size
            if len(self.buffer) < self.left + 2:
                take = min(self.left, len(self.buffer))
                out.append(self.buffer[:take])
                self.buffer = self.buffer[take:]
                self.left -= take
                return b"".join(out), False
            out.append(self.buffer[: self.left])
            if self.buffer[self.left : self.left + 2] != b"\r\n":
                raise ValueError("chunk not followed by CRLF")
            self.buffer = self.buffer[self.left + 2 :]
            self.left = None


class Client:
    """One /events client: keeps the document by applying what feedweb sends."""

    def __init__(self, name, port, kind):
        self.name = name
        self.port = port
        self.kind = kind  # "checker", "laggard" or "staller"
        self.doc = None
        self.last_id = None
        self.events = 0
        self.connects = 0
        self.dropped = 0  # ended by feedweb (EOF or reset) while we were connected
        self.failures = []  # patches that did not apply, bad events
        self.relaxed = False  # at the end: read at full speed
        self.stopped = False
        self.writer = None

    def stop(self):
        self.stopped = True
        if self.writer:
            self.writer.close()

    async def run(self):
        while not self.stopped:
            try:
                await self.session()
            except (ConnectionError, OSError, asyncio.IncompleteReadError, EOFError):
                pass
            except Exception as error:  # a bug here must be seen, not retried forever
                self.failures.append(f"{type(error).__name__}: {error}")
            if not self.stopped:
                self.dropped += 1
                await asyncio.sleep(0.5)

    async def session(self):
        loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        slow = self.kind != "checker"
        if slow:
            # A small window (and segments, from which feedweb's kernel sizes its send
            # buffer): what the client does not read stays in feedweb's queue.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
        sock.setblocking(False)
        try:
            await asyncio.wait_for(loop.sock_connect(sock, ("127.0.0.1", self.port)), 10)
        except BaseException:
            sock.close()
            raise
        reader, writer = await asyncio.open_connection(sock=sock, limit=4096 if slow else 1 << 20)
        self.writer = writer
        self.connects += 1
        try:
            head = f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nAccept: text/event-stream\r\n"
            if self.last_id:
                head += f"Last-Event-ID: {self.last_id}\r\n"
            writer.write((head + "\r\n").encode())
            await writer.drain()
            status = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            if b" 200 " not in status.split(b"\r\n")[0]:
                raise ConnectionError(f"status {status.split(b' ')[1:2]}")
            chunked = b"chunked" in status.lower()
            body = self.body(reader, chunked)
            await self.consume(body)
        finally:
            writer.close()
            self.writer = None

    async def body(self, reader, chunked):
        """The body's bytes as they come (chunked framing removed), paced by the client's kind."""
        started = time.monotonic()
        chunks = ChunkedDecoder() if chunked else None
        while True:
            size = 65536
            if self.kind == "laggard" and not self.relaxed:
                await self.pause(2)
                size = 16384
            if self.kind == "staller" and not self.relaxed:
                phase = (time.monotonic() - started) % 80
                if phase >= 20:
                    await self.pause(80 - phase)
            data = await reader.read(size)
            if not data:
                return
            if chunks is None:
                yield data
                continue
            payload, ended = chunks.feed(data)
            if payload:
                yield payload
            if ended:
                return

    async def pause(self, seconds):
        """Reads nothing for `seconds`, or until the end of the load (``relaxed``)."""
        until = time.monotonic() + seconds
        while not self.relaxed and not self.stopped and time.monotonic() < until:
            await asyncio.sleep(min(0.25, until - time.monotonic()))

    async def consume(self, body):
        buffer = b""
        event = {"type": "", "data": [], "id": None}
        async for data in body:
            buffer += data
            while True:
                newline = buffer.find(b"\n")
                if newline < 0:
                    break
                line = buffer[:newline].rstrip(b"\r").decode()
                buffer = buffer[newline + 1 :]
                if line == "":
                    if event["data"]:
                        self.dispatch(event["type"] or "message", "\n".join(event["data"]), event["id"])
                    event = {"type": "", "data": [], "id": event["id"]}
                    continue
                if line.startswith(":"):
                    continue
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "event":
                    event["type"] = value
                elif field == "data":
                    event["data"].append(value)
                elif field == "id":
                    event["id"] = value
        raise EOFError

    def dispatch(self, kind, data, event_id):
        self.events += 1
        try:
            if kind == "data":
                self.doc = json.loads(data)
            elif kind == "patch":
                if self.doc is None:
                    raise PatchError("a patch before any data")
                self.doc = apply_patch(self.doc, json.loads(data))
            else:
                return
        except (PatchError, KeyError, ValueError) as error:
            self.failures.append(f"{kind} {event_id}: {error}")
        if event_id is not None:
            self.last_id = event_id


# ------------------------------------------------------------------ the run


def proc_figures(pid):
    with open(f"/proc/{pid}/status") as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return rss * 1024, len(os.listdir(f"/proc/{pid}/fd"))


def http_get(port, path, timeout=5):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as response:
        return response.status, dict(response.headers), response.read()


def metric(text, name):
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name) and (line[len(name)] in " {"):
            total += float(line.rsplit(" ", 1)[1])
    return total


def median_between(samples, start, end):
    values = [rss for (t, rss, _) in samples if start <= t <= end]
    return statistics.median(values) if values else None


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--upstream-pid", type=int, required=True)
    parser.add_argument("--tools", required=True, help="the folder of sseload")
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=None, help="minutes (default: 5, or a sixth of a short run)")
    parser.add_argument("--steady", type=int, default=1500)
    parser.add_argument("--churn-batch", type=int, default=100)
    parser.add_argument("--churn-life", type=float, default=4)
    parser.add_argument("--checkers", type=int, default=20)
    parser.add_argument("--laggards", type=int, default=10)
    parser.add_argument("--stallers", type=int, default=10)
    parser.add_argument("--inspectors", type=int, default=2)
    parser.add_argument("--sample", type=float, default=5)
    parser.add_argument("--max-growth-mb", type=float, default=5)
    parser.add_argument("--out", default=".")
    args = parser.parse_args()
    load_seconds = args.minutes * 60
    warmup = (args.warmup if args.warmup is not None else min(5, args.minutes / 6)) * 60
    window = min(120, (load_seconds - warmup) / 3)

    figures = {"minutes": args.minutes, "warmup_minutes": warmup / 60}
    failures = []

    def alive():
        try:
            os.kill(args.pid, 0)
            return True
        except OSError:
            return False

    # The baseline: feedweb ready, upstream connected, no client.
    await asyncio.sleep(2)
    rss0, fds0 = proc_figures(args.pid)
    figures["rss_start_mb"] = rss0 / 2**20
    figures["fds_baseline"] = fds0
    _, _, text = http_get(args.port, "/metrics")
    changes0 = metric(text.decode(), "feedweb_changes_total")
    print(f"soak: baseline RSS {rss0 / 2**20:.1f} MB, {fds0} descriptors; {args.minutes:g} min of load, warm-up {warmup / 60:g} min", flush=True)

    t0 = time.monotonic()
    samples = []  # (active seconds since t0, rss, fds)
    # The machine this runs on is shared: another job may stop every process of this run
    # (SIGSTOP) for a while and let it go on later. Such a pause is seen as a gap in this
    # loop; the load is lengthened by it and time is counted without it ("active"), and
    # the pauses are reported.
    pauses = []  # (active seconds when it began, length)
    paused_total = 0.0
    last_tick = t0
    clients = [Client(f"checker-{i}", args.port, "checker") for i in range(args.checkers)]
    clients += [Client(f"laggard-{i}", args.port, "laggard") for i in range(args.laggards)]
    clients += [Client(f"staller-{i}", args.port, "staller") for i in range(args.stallers)]
    client_tasks = [asyncio.create_task(client.run()) for client in clients]

    sseload = os.path.join(args.tools, "sseload")
    steady = await asyncio.create_subprocess_exec(
        sseload, "--url", f"http://127.0.0.1:{args.port}/events", "--clients", str(args.steady),
        "--ramp", "15", "--settle", "0", "--duration", str(2 * load_seconds + 3600), "--grace", "0",
        "--quiet", "--json", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    inspectors = await asyncio.create_subprocess_exec(
        sseload, "--url", f"http://127.0.0.1:{args.port}/events/page?v=inspect", "--clients", str(args.inspectors),
        "--ramp", "1", "--settle", "0", "--duration", str(2 * load_seconds + 3600), "--grace", "0",
        "--quiet", stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    inspect_pages = 0
    churn_paths = ["/events", "/events/items", "/events/page?view=list"]
    churn = []
    churn_started = 0
    churn_failed = 0

    next_sample = 0.0
    next_churn = 16.0  # after the steady clients' ramp
    last_print = 0.0
    while time.monotonic() - t0 - paused_total < load_seconds:
        tick = time.monotonic()
        if tick - last_tick > 3:
            pauses.append((tick - t0 - paused_total, tick - last_tick))
            paused_total += tick - last_tick
            print(f"soak: paused for {tick - last_tick:.0f} s (the whole run was stopped); counting on", flush=True)
        last_tick = tick
        now = tick - t0 - paused_total
        if not alive():
            failures.append(f"feedweb exited during the load, after {now:.0f} s")
            break
        if now >= next_sample:
            rss, fds = proc_figures(args.pid)
            samples.append((now, rss, fds))
            try:
                status, _, _ = http_get(args.port, "/inspect", timeout=10)
                inspect_pages += status == 200
            except OSError:
                pass
            next_sample = max(next_sample + args.sample, now)
            if now - last_print >= 60:
                last_print = now
                print(f"soak: {now / 60:5.1f} min  RSS {rss / 2**20:6.1f} MB  {fds:5d} descriptors  "
                      f"{churn_started} churn clients so far", flush=True)
        if now >= next_churn and now < load_seconds - args.churn_life - 2:
            next_churn = max(next_churn, now - 1)
            path = churn_paths[int(next_churn) % len(churn_paths)]
            churn.append(await asyncio.create_subprocess_exec(
                sseload, "--url", f"http://127.0.0.1:{args.port}{path}", "--clients", str(args.churn_batch),
                "--ramp", "1", "--settle", "0", "--duration", str(args.churn_life - 1), "--grace", "0", "--quiet",
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL))
            churn_started += args.churn_batch
            next_churn += 1
            still = []
            for process in churn:
                if process.returncode is None:
                    still.append(process)
                elif process.returncode not in (0, 1):
                    churn_failed += 1
            churn = still
        await asyncio.sleep(0.1)

    # The load ends.
    load_end = time.monotonic() - t0 - paused_total
    figures["pauses"] = [{"at_s": round(at, 1), "seconds": round(length, 1)} for (at, length) in pauses]
    rss_end, fds_peak = proc_figures(args.pid) if alive() else (0, 0)
    figures["rss_end_of_load_mb"] = rss_end / 2**20
    for process in churn:
        try:
            await asyncio.wait_for(process.wait(), 15)
        except asyncio.TimeoutError:
            process.kill()
    if inspectors.returncode is None:
        inspectors.send_signal(signal.SIGINT)
    figures["inspect_pages_fetched"] = inspect_pages
    if steady.returncode is None:
        steady.send_signal(signal.SIGINT)  # it ends its clients and prints its summary
    try:
        out, _ = await asyncio.wait_for(steady.communicate(), 60)
        steady_summary = json.loads(out.decode() or "{}")
    except (asyncio.TimeoutError, ValueError):
        steady.kill()
        steady_summary = {}
    try:
        await asyncio.wait_for(inspectors.wait(), 15)
    except asyncio.TimeoutError:
        inspectors.kill()
    figures["steady_clients"] = args.steady
    figures["steady_connected"] = steady_summary.get("connected")
    figures["steady_dropped"] = steady_summary.get("dropped")
    figures["churn_clients"] = churn_started
    figures["churn_batches_failed"] = churn_failed

    # The upstream stops: the mirror stays as it is; every client must reach it.
    _, _, text = http_get(args.port, "/metrics")
    metrics_text = text.decode()
    figures["changes"] = metric(metrics_text, "feedweb_changes_total") - changes0
    figures["upstream_reconnects"] = metric(metrics_text, "feedweb_upstream_reconnects_total")
    figures["stream_clients_dropped"] = metric(metrics_text, "feedweb_stream_dropped_clients_total")
    figures["stream_catchups"] = metric(metrics_text, "feedweb_stream_catchups_total")
    os.kill(args.upstream_pid, signal.SIGTERM)
    for client in clients:
        client.relaxed = True
    await asyncio.sleep(3)
    _, headers, body = http_get(args.port, "/api/state")
    state = json.loads(body)
    state_id = headers.get("ETag", "").strip('"')
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if all(c.last_id == state_id and c.doc is not None for c in clients):
            break
        await asyncio.sleep(0.2)
    diverged = [c for c in clients if c.last_id != state_id or not strictly_equal(c.doc, state)]
    figures["reference_clients"] = len(clients)
    figures["reference_clients_converged"] = len(clients) - len(diverged)
    figures["reference_events"] = sum(c.events for c in clients)
    figures["reference_reconnects"] = sum(max(0, c.connects - 1) for c in clients)
    figures["stallers_dropped"] = sum(c.dropped for c in clients if c.kind == "staller")
    figures["reference_by_kind"] = {
        kind: {
            "clients": sum(1 for c in clients if c.kind == kind),
            "connects": sum(c.connects for c in clients if c.kind == kind),
            "ended_by_feedweb": sum(c.dropped for c in clients if c.kind == kind),
            "events": sum(c.events for c in clients if c.kind == kind),
        }
        for kind in ("checker", "laggard", "staller")
    }
    patch_failures = [f"{c.name}: {f}" for c in clients for f in c.failures]
    if diverged:
        failures.append(
            f"{len(diverged)} of {len(clients)} clients did not converge to /api/state ({state_id}): "
            + ", ".join(f"{c.name} at {c.last_id}" for c in diverged[:5]))
    if patch_failures:
        failures.append(f"{len(patch_failures)} events did not apply: {patch_failures[:3]}")
    for client in clients:
        client.stop()
    await asyncio.gather(*client_tasks, return_exceptions=True)

    # The descriptors come back to the baseline.
    deadline = time.monotonic() + 30
    fds_end = None
    while time.monotonic() < deadline and alive():
        rss_after, fds_end = proc_figures(args.pid)
        if fds_end <= fds0:
            break
        await asyncio.sleep(0.5)
    figures["fds_peak"] = max([s[2] for s in samples] + [fds_peak])
    figures["fds_end"] = fds_end
    figures["rss_after_clients_left_mb"] = rss_after / 2**20 if alive() else None
    if fds_end is None or fds_end > fds0:
        failures.append(f"descriptors did not return to the baseline: {fds_end} against {fds0}")

    # RSS after warm-up.
    early = median_between(samples, warmup, warmup + window)
    late = median_between(samples, load_end - window, load_end)
    figures["rss_after_warmup_mb"] = early / 2**20 if early else None
    figures["rss_late_mb"] = late / 2**20 if late else None
    figures["rss_max_mb"] = max(s[1] for s in samples) / 2**20 if samples else None
    if early is None or late is None:
        failures.append("too few RSS samples to judge the growth")
    else:
        growth = (late - early) / 2**20
        figures["rss_growth_mb"] = growth
        if growth >= args.max_growth_mb:
            failures.append(f"RSS grew {growth:.1f} MB after warm-up (limit {args.max_growth_mb:g} MB)")
    if not alive():
        failures.append("feedweb is not running")
    else:
        status, _, _ = http_get(args.port, "/healthz")
        if status != 200:
            failures.append(f"/healthz answered {status}")
    figures["samples"] = [{"t": round(t, 1), "rss": rss, "fds": fds} for (t, rss, fds) in samples]
    figures["failures"] = failures

    with open(os.path.join(args.out, "soak.json"), "w") as out:
        json.dump(figures, out, indent=1)
    mb = lambda key: f"{figures[key]:.1f} MB" if figures.get(key) is not None else "—"
    print(f"""soak: {args.minutes:g} min, {figures['changes']:.0f} changes, {figures['upstream_reconnects']:.0f} upstream reconnects
soak: clients: {args.steady} steady ({figures['steady_connected']} connected), {churn_started} churned in and out, {len(clients)} reference clients ({figures['reference_reconnects']} resumes, {figures['stallers_dropped']} staller drops), {figures['stream_clients_dropped']:.0f} clients dropped by feedweb, {figures['stream_catchups']:.0f} catch-ups
soak: RSS start {mb('rss_start_mb')}, after warm-up {mb('rss_after_warmup_mb')}, late {mb('rss_late_mb')}, end of load {mb('rss_end_of_load_mb')}, max {mb('rss_max_mb')}, clients gone {mb('rss_after_clients_left_mb')}; growth after warm-up {figures.get('rss_growth_mb', float('nan')):.2f} MB (limit {args.max_growth_mb:g})
soak: descriptors baseline {fds0}, peak {figures['fds_peak']}, end {fds_end}
soak: slow readers: {figures['reference_by_kind']['laggard']['ended_by_feedweb']} laggard and {figures['reference_by_kind']['staller']['ended_by_feedweb']} staller streams ended by feedweb; {figures['steady_dropped']} steady clients lost
soak: pauses (the whole run stopped by another job on the machine): {len(pauses)}, {paused_total:.0f} s in all
soak: {figures['reference_clients_converged']} of {len(clients)} reference clients hold /api/state ({state_id}) exactly""")
    for failure in failures:
        print(f"soak: FAIL: {failure}")
    print("soak: PASS" if not failures else "soak: FAILED", flush=True)
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
