#!/usr/bin/env python3
"""How late a new item reaches the DOM of a real page: headless Chromium (through
chromedriver; BROWSER=firefox: Firefox ESR through Marionette, Benchmarks/browsers.py) opens
feedweb's list page `/` in two windows, which share one page stream (one leads and holds it,
the other follows: it gets each frame from the leader through a port and a
BroadcastChannel); a MutationObserver on `#stories` in each notes the moment each new entry
is added, and the latency is that moment minus the send stamp that timed_upstream --append
puts at the end of each item's title (`sent_ns=N`). Python stdlib only; the browser and the
upstream share this machine's clock.

    Benchmarks/page_dom.py BASE_URL SECONDS [OUT_JSON]

Prints n, p50, p90, p99 and max in ms for the leader, for the follower and for the lag (per
item both showed, the follower's latency minus the leader's), and writes them (and every
sample) to OUT_JSON: the leader's at the top level (as before the follower was measured),
the follower's under "follower", the lag's under "lag".
"""
import json
import os
import sys
import time

import browsers

base, seconds = sys.argv[1], float(sys.argv[2])
out = sys.argv[3] if len(sys.argv) > 3 else None

OBSERVER = r"""
window.__latencies = [];
var list = document.getElementById('stories');
new MutationObserver(function (records) {
  var now = performance.timeOrigin + performance.now();
  records.forEach(function (record) {
    record.addedNodes.forEach(function (node) {
      if (!node.querySelector) return;
      // A new story's title carries the stamp; in a table (TABLE=ROWS), a changed row's
      // `sent` cell.
      var match = /sent_ns=(\d+)/.exec(node.textContent);
      // Each sample with the page's role at that moment: the lead may move between the
      // windows while they are switched between (a hidden leader hands over).
      if (!match) return;
      // How the frame that made it came: stream (the leader), port or channel.
      var applied = window.feedweb.applied();
      var via = applied.length ? (applied[applied.length - 1].via || '') : '';
      window.__latencies.push([window.feedweb.role(), now - Number(match[1]) / 1e6, via, match[1]]);
    });
  });
}).observe(list, {childList: true});
return document.body.dataset.streamState || '';
"""


browser = browsers.start(os.environ.get("BROWSER", "chromium"))
try:
    browser.open(base + "/")
    first = browser.current()
    # A window of its own, shown beside the first (a background tab is hidden, and a hidden
    # leader hands the stream to a shown page).
    second = browser.new_window()
    browser.switch(second)
    browser.open(base + "/")
    roles = {}
    deadline = time.time() + 10
    for tab in (first, second):
        browser.switch(tab)
        while browser.execute("return document.body.dataset.streamState || ''") != "open":
            if time.time() > deadline:
                sys.exit("page_dom: a page's stream did not open within 10 s")
            time.sleep(0.1)
        browser.execute(OBSERVER)
    time.sleep(seconds)
    by_role = {}
    # Each item's latency per role, for the follower's lag behind the leader on the same item.
    by_item = {}
    # How the frames of the samples came: "stream" (the leader), "port" or "channel".
    routes = {}
    for tab in (first, second):
        browser.switch(tab)
        roles[tab] = browser.execute("return window.feedweb.role()")
        for role, latency, route, item in browser.execute("return window.__latencies"):
            by_role.setdefault(role, []).append(latency)
            by_item.setdefault(item, {})[role] = latency
            routes[route] = routes.get(route, 0) + 1
finally:
    browser.quit()

if not {"follower", "leader"} <= set(by_role):
    sys.exit("page_dom: expected samples of a leader and a follower, got %s" % sorted(by_role))


def summary(samples):
    samples = sorted(samples)

    def pct(p):
        return samples[min(len(samples) - 1, int(p * len(samples)))] if samples else float("nan")

    return {"n": len(samples), "p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99),
            "max": samples[-1] if samples else float("nan"), "samples_ms": samples}


result = summary(by_role["leader"])
result["follower"] = summary(by_role["follower"])
# The lag: for each item both pages showed, the follower's latency minus the leader's. Its
# median is the hop itself, free of the spread between items that the p50s carry.
result["lag"] = summary([i["follower"] - i["leader"] for i in by_item.values() if {"follower", "leader"} <= set(i)])
result["routes"] = routes
for role, figures in (("leader", result), ("follower", result["follower"]), ("lag", result["lag"])):
    print("page DOM latency, %s: n=%d p50 %.1f p90 %.1f p99 %.1f max %.1f ms" % (
        role, figures["n"], figures["p50"], figures["p90"], figures["p99"], figures["max"]))
print("samples by route: %s" % ", ".join("%s %d" % kv for kv in sorted(routes.items())))
if out:
    with open(out, "w") as f:
        json.dump(result, f)
