#!/usr/bin/env python3
"""Takes the README's screenshots: the list, a story and the kiosk at laptop, phone and TV
sizes, and the stats page at laptop and TV sizes (light, and dark on the TV), from a running
feedweb (default http://127.0.0.1:8080), with headless Chromium driven through chromedriver
(Debian's chromium and chromium-driver). Python stdlib only.

The stats charts need data: when feedweb has counted for less than a minute and a half,
this waits until it has.

    scripts/screenshots.py [BASE_URL] [OUT_DIR]

PAGES (e.g. `stats`), SIZES (e.g. `1280`) and PREFIX (put before each file name) in the
environment take only some shots, e.g. seed 003's stats page (README):

    PAGES=stats SIZES=1280 PREFIX=seed003- scripts/screenshots.py
"""
import base64
import calendar
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
out = sys.argv[2] if len(sys.argv) > 2 else "docs/screenshots"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


items = json.load(urllib.request.urlopen(base + "/api/items", timeout=10))
story = next((i for i in items if i["multimedia"] and i["related"]), None) \
    or next((i for i in items if i["multimedia"]), items[0])
pages = {"list": "/", "item": "/items/" + story["key"], "kiosk": "/kiosk", "stats": "/stats",
         "inspect": "/inspect"}
sizes = {"1280": (1280, 800), "390": (390, 844), "1920": (1920, 1080)}
# Which sizes each page is shown at (all when not listed), and in which colour schemes.
page_sizes = {"stats": ["1280", "1920"], "inspect": ["1280"]}
dark_shots = {("stats", "1920")}
if os.environ.get("PAGES"):
    pages = {name: path for name, path in pages.items() if name in os.environ["PAGES"].split(",")}
if os.environ.get("SIZES"):
    sizes = {size: wh for size, wh in sizes.items() if size in os.environ["SIZES"].split(",")}
prefix = os.environ.get("PREFIX", "")


def wait_for_stats(seconds=90):
    """Waits until feedweb has counted for `seconds` (at most that long)."""
    stats = json.load(urllib.request.urlopen(base + "/api/stats", timeout=10))
    started = calendar.timegm(time.strptime(stats["started_at"], "%Y-%m-%dT%H:%M:%SZ"))
    remaining = started + seconds - time.time()
    if remaining > 0:
        print(f"waiting {remaining:.0f} s for the stats charts to fill")
        time.sleep(remaining)


def shoot(port, session, path, name):
    call(port, "POST", f"/session/{session}/url", {"url": base + path})
    time.sleep(2.0)  # the page stream connects and the entrance animations finish
    png = call(port, "GET", f"/session/{session}/screenshot")["value"]
    with open(f"{out}/{name}.png", "wb") as f:
        f.write(base64.b64decode(png))
    print(f"{out}/{name}.png")


def color_scheme(port, session, scheme):
    call(port, "POST", f"/session/{session}/goog/cdp/execute", {
        "cmd": "Emulation.setEmulatedMedia",
        "params": {"features": [{"name": "prefers-color-scheme", "value": scheme}]}})


wait_for_stats()

port = free_port()
driver = subprocess.Popen(["chromedriver", f"--port={port}", "--allowed-ips=127.0.0.1"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(100):
        try:
            call(port, "GET", "/status")
            break
        except OSError:
            time.sleep(0.1)
    session = call(port, "POST", "/session", {"capabilities": {"alwaysMatch": {
        "browserName": "chrome",
        "goog:chromeOptions": {"binary": "/usr/bin/chromium",
                               "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                                        "--hide-scrollbars", "--force-device-scale-factor=1"]}}}})["value"]["sessionId"]
    for size, (width, height) in sizes.items():
        call(port, "POST", f"/session/{session}/window/rect", {"width": width, "height": height})
        # The window includes no browser chrome in headless mode; make the viewport exact.
        inner = call(port, "POST", f"/session/{session}/execute/sync",
                     {"script": "return [window.innerWidth, window.innerHeight]", "args": []})["value"]
        call(port, "POST", f"/session/{session}/window/rect",
             {"width": width * 2 - inner[0], "height": height * 2 - inner[1]})
        for name, path in pages.items():
            if size not in page_sizes.get(name, sizes):
                continue
            shoot(port, session, path, f"{prefix}{name}-{size}")
            if (name, size) in dark_shots:
                color_scheme(port, session, "dark")
                shoot(port, session, path, f"{prefix}{name}-{size}-dark")
                color_scheme(port, session, "light")
    call(port, "DELETE", f"/session/{session}")
finally:
    driver.terminate()
    driver.wait(timeout=10)
