#!/usr/bin/env python3
"""Small JSON APIs that change every second, for trying feedweb with a feed that is
not news (and for the README's pictures), with no network: Python stdlib only.

    scripts/example-api.py [PORT]      # default 8070

    GET /quotes     {"quotes": [{"symbol", "name", "price", "change_pct", "volume"}, ...]}
                    prices wander every second
    GET /pipelines  {"pipelines": [{"id", "repo", "branch", "status", "duration_s",
                    "commit", "author", "url", "started_at"}, ...]}
                    builds start, run and pass or fail
    GET /prices     {"bitcoin": {"usd", "usd_24h_change", "last_updated_at"}, ...}
                    the quotes' prices as an object's members, as price APIs send them
    GET /pods       {"kind": "PodList", "items": [{"metadata": {"name", "namespace", "uid",
                    "labels"}, "spec": {...}, "status": {"phase", "podIP", "restartCount",
                    "startTime", "conditions"}}, ...]}
                    a Kubernetes pod list: pods start, run, fail and restart
    GET /actions/runs  {"total_count", "workflow_runs": [{"id", "name", "display_title", "head_branch",
                    "status", "conclusion", "run_number", "actor": {"login"}, "html_url",
                    "created_at"}, ...]}
                    the pipelines as GitHub Actions reports runs: `in_progress` with no
                    conclusion, then `completed` with `success` or `failure`
    GET /big?n=N    {"rows": [...]} N rows (default 1000) whose values change, for load

Every answer has an ETag and honours If-None-Match, as a real API does; feedweb polls
with conditional requests:

    feedweb --poll http://127.0.0.1:8070/quotes --interval 1
    feedweb --poll http://127.0.0.1:8070/pipelines --interval 1 --title "CI"
"""
import hashlib
import json
import random
import sys
import threading
import time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

PORT = int(sys.argv[1]) if len(sys.argv) > 1 else 8070
LOCK = threading.Lock()

QUOTES = [
    ("ACME", "Acme Corporation", 182.52, 1_204_300),
    ("GLBX", "Globex", 41.07, 8_930_112),
    ("INIT", "Initech", 12.88, 310_554),
    ("UMBR", "Umbrella Holdings", 97.30, 2_410_990),
    ("STRK", "Stark Industries", 611.45, 754_002),
    ("WAYN", "Wayne Enterprises", 233.10, 1_023_876),
    ("SOYL", "Soylent", 5.62, 20_044_310),
    ("TYRL", "Tyrell Corp.", 77.77, 402_118),
]
REPOS = ["feedweb", "ssefan", "bigbox", "docs"]
BRANCHES = ["main", "fix-resume", "table-view", "release-2.1"]
AUTHORS = ["ada", "grace", "linus", "margaret", "ken", "barbara"]
COMMITS = ["Fix resume after restart", "Table: sort by any column", "Bump swift-nio", "Kiosk: larger figures",
           "Docs: deploy behind nginx", "Faster JSON patch apply", "Retry the poller with backoff"]

state = {"quotes": [], "pipelines": [], "pods": [], "next_id": 4100, "tick": 0}
PODS = [("web", 3), ("api", 2), ("worker", 2), ("cache", 1)]


def now_iso():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def reset():
    state["quotes"] = [
        {"symbol": s, "name": n, "price": p, "change_pct": 0.0, "volume": v, "open": p}
        for s, n, p, v in QUOTES
    ]
    state["pipelines"] = []
    for _ in range(6):
        new_pipeline(done=True)
    state["pods"] = []
    for app, replicas in PODS:
        for index in range(replicas):
            suffix = hashlib.sha1(f"{app}{index}".encode()).hexdigest()[:5]
            state["pods"].append({
                "metadata": {
                    "name": f"{app}-7d9f8-{suffix}", "namespace": "prod",
                    "uid": hashlib.sha1(suffix.encode()).hexdigest()[:8] + "-" + suffix,
                    "labels": {"app": app, "pod-template-hash": "7d9f8"},
                },
                "spec": {"nodeName": f"node-{index % 2 + 1}", "containers": [{"name": app, "image": f"{app}:2.1"}]},
                "status": {
                    "phase": "Running", "podIP": f"10.1.{len(state['pods'])}.{index + 4}", "restartCount": 0,
                    "startTime": now_iso(), "conditions": [{"type": "Ready", "status": "True"}],
                },
            })


def new_pipeline(done=False):
    state["next_id"] += 1
    pid = state["next_id"]
    status = random.choice(["passed", "passed", "failed"]) if done else "running"
    state["pipelines"].insert(0, {
        "id": pid,
        "repo": random.choice(REPOS),
        "branch": random.choice(BRANCHES),
        "status": status,
        "duration_s": random.randint(40, 900) if done else 0,
        "commit": hashlib.sha1(str(pid).encode()).hexdigest()[:8],
        "author": random.choice(AUTHORS),
        "url": f"https://ci.example/{pid}",
        "started_at": now_iso(),
    })
    del state["pipelines"][12:]


def workflow_run(pipeline):
    running = pipeline["status"] == "running"
    return {
        "id": pipeline["id"] * 1000 + 7, "name": pipeline["repo"],
        "display_title": f"{random.Random(pipeline['id']).choice(COMMITS)} (#{pipeline['id'] - 3900})",
        "head_branch": pipeline["branch"],
        "status": "in_progress" if running else "completed",
        "conclusion": None if running else ("success" if pipeline["status"] == "passed" else "failure"),
        "run_number": pipeline["id"] - 4000, "actor": {"login": pipeline["author"], "id": 1000 + pipeline["id"]},
        "html_url": pipeline["url"], "created_at": pipeline["started_at"],
    }


def step():
    state["tick"] += 1
    for quote in state["quotes"]:
        if random.random() < 0.5:
            quote["price"] = round(max(0.5, quote["price"] * (1 + random.gauss(0, 0.004))), 2)
            quote["change_pct"] = round((quote["price"] - quote["open"]) / quote["open"] * 100, 2)
            quote["volume"] += random.randint(100, 20_000)
    for pipeline in state["pipelines"]:
        if pipeline["status"] == "running":
            pipeline["duration_s"] += 1
            if random.random() < 0.08:
                pipeline["status"] = random.choice(["passed", "passed", "passed", "failed"])
    if state["tick"] % 7 == 0:
        new_pipeline()
    for pod in state["pods"]:
        status = pod["status"]
        if status["phase"] == "Running" and random.random() < 0.03:
            status["phase"] = random.choice(["Failed", "Pending"])
        elif status["phase"] != "Running" and random.random() < 0.3:
            status["phase"] = "Running"
            status["restartCount"] += 1
            status["startTime"] = now_iso()


def ticker():
    while True:
        time.sleep(1)
        with LOCK:
            step()


def big(n, tick):
    rng = random.Random(42)
    rows = []
    for i in range(n):
        base = rng.uniform(10, 1000)
        drift = (tick * 7 + i) % 13 if i % 10 == tick % 10 else 0
        rows.append({"id": f"r{i:05d}", "name": f"Row {i}", "value": round(base + drift, 2),
                     "state": ["up", "down", "pending"][i % 3], "count": i * 17})
    return {"rows": rows}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urlparse(self.path)
        with LOCK:
            if url.path == "/quotes":
                body = {"quotes": [{k: v for k, v in q.items() if k != "open"} for q in state["quotes"]]}
            elif url.path == "/pipelines":
                body = {"pipelines": state["pipelines"]}
            elif url.path == "/prices":
                body = {
                    q["symbol"].lower(): {
                        "usd": q["price"], "usd_24h_change": q["change_pct"], "last_updated_at": int(time.time())
                    }
                    for q in state["quotes"]
                }
            elif url.path == "/pods":
                body = {"apiVersion": "v1", "kind": "PodList", "items": state["pods"]}
            elif url.path == "/actions/runs":
                body = {"total_count": len(state["pipelines"]), "workflow_runs": [
                    workflow_run(p) for p in state["pipelines"]]}
            elif url.path == "/big":
                n = int(parse_qs(url.query).get("n", ["1000"])[0])
                body = big(max(1, min(n, 200_000)), state["tick"])
            else:
                self.send_error(404)
                return
        data = json.dumps(body).encode()
        etag = '"' + hashlib.sha1(data).hexdigest()[:16] + '"'
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("ETag", etag)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    reset()
    threading.Thread(target=ticker, daemon=True).start()
    print(f"example APIs on http://127.0.0.1:{PORT}/quotes, /pipelines, /prices, /pods and /big?n=1000", flush=True)
    ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
