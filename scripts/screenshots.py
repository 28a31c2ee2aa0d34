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
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Benchmarks"))
import browsers  # noqa: E402  (Benchmarks/browsers.py: chromedriver, shared with page_dom.py)

base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
out = sys.argv[2] if len(sys.argv) > 2 else "docs/screenshots"


items = json.load(urllib.request.urlopen(base + "/api/items", timeout=10))
story = next((i for i in items if i["multimedia"] and i["related"]), None) \
    or next((i for i in items if i["multimedia"]), items[0])
pages = {"list": "/", "item": "/items/" + story["key"], "kiosk": "/kiosk", "stats": "/stats",
         "inspect": "/inspect", "board": "/board?v=kiosk:World&v=stats&v=list&v=kiosk&cols=2"}
sizes = {"1280": (1280, 800), "390": (390, 844), "1920": (1920, 1080)}
# Which sizes each page is shown at (all when not listed), and in which colour schemes.
page_sizes = {"stats": ["1280", "1920"], "inspect": ["1280"], "board": ["1920"]}
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


def shoot(browser, path, name):
    browser.open(base + path)
    time.sleep(2.0)  # the page stream connects and the entrance animations finish
    png = browser.command("GET", "screenshot")
    with open(f"{out}/{name}.png", "wb") as f:
        f.write(base64.b64decode(png))
    print(f"{out}/{name}.png")


def color_scheme(browser, scheme):
    browser.command("POST", "goog/cdp/execute", {
        "cmd": "Emulation.setEmulatedMedia",
        "params": {"features": [{"name": "prefers-color-scheme", "value": scheme}]}})


wait_for_stats()

browser = browsers.Chromium(["--hide-scrollbars", "--force-device-scale-factor=1"])
try:
    for size, (width, height) in sizes.items():
        browser.command("POST", "window/rect", {"width": width, "height": height})
        # The window includes no browser chrome in headless mode; make the viewport exact.
        inner = browser.execute("return [window.innerWidth, window.innerHeight]")
        browser.command("POST", "window/rect", {"width": width * 2 - inner[0], "height": height * 2 - inner[1]})
        # A window taller than headless Chromium's screen is cut to it (1080 became 937):
        # the viewport is set exactly instead.
        browser.command("POST", "goog/cdp/execute", {
            "cmd": "Emulation.setDeviceMetricsOverride",
            "params": {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}})
        for name, path in pages.items():
            if size not in page_sizes.get(name, sizes):
                continue
            shoot(browser, path, f"{prefix}{name}-{size}")
            if (name, size) in dark_shots:
                color_scheme(browser, "dark")
                shoot(browser, path, f"{prefix}{name}-{size}-dark")
                color_scheme(browser, "light")
finally:
    browser.quit()
