// feedweb page script: plain JavaScript, no framework, no build step, no inline code
// (the pages are served under a strict Content-Security-Policy). Without it every page
// still works as a plain page.
(function () {
  "use strict";

  // Broken thumbnails fall back to the placeholder named in data-fallback.
  function armImages(root) {
    root.querySelectorAll("img[data-fallback]").forEach(function (img) {
      if (img.dataset.armed) return;
      img.dataset.armed = "1";
      img.addEventListener("error", function () {
        var fallback = img.dataset.fallback;
        if (fallback && img.getAttribute("src") !== fallback) img.setAttribute("src", fallback);
      });
      if (img.complete && img.naturalWidth === 0 && img.getAttribute("src")) {
        img.dispatchEvent(new Event("error"));
      }
    });
  }

  // Relative times ("5 min ago") are rendered by the server and kept fresh here.
  function describe(date, now) {
    var seconds = Math.round((now - date) / 1000);
    if (seconds < 45) return "just now";
    if (seconds < 3600) return Math.max(1, Math.round(seconds / 60)) + " min ago";
    if (seconds < 86400) return Math.floor(seconds / 3600) + " h ago";
    if (seconds < 7 * 86400) return Math.floor(seconds / 86400) + " d ago";
    return date.toISOString().slice(0, 10);
  }
  // The status badge counts seconds under a minute ("updated 42 s ago").
  function describeSeconds(date, now) {
    var seconds = Math.floor((now - date) / 1000);
    if (seconds < 60) return Math.max(0, seconds) + " s ago";
    return describe(date, now);
  }
  function refreshTimes(root) {
    var now = Date.now();
    root.querySelectorAll("time[data-relative]").forEach(function (el) {
      var date = new Date(el.getAttribute("datetime"));
      if (isNaN(date)) return;
      el.textContent = el.dataset.relative === "seconds" ? describeSeconds(date, now) : describe(date, now);
    });
  }

  // Absolute times are rendered in UTC by the server; show them in the viewer's zone.
  function localizeTimes(root) {
    root.querySelectorAll("time[data-clock]").forEach(function (el) {
      var date = new Date(el.getAttribute("datetime"));
      if (!isNaN(date)) el.textContent = date.toLocaleTimeString();
    });
    root.querySelectorAll("time[data-local]").forEach(function (el) {
      var date = new Date(el.getAttribute("datetime"));
      if (isNaN(date)) return;
      el.textContent = date.toLocaleString(undefined, {
        year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit"
      });
    });
  }

  // ---- The page stream ------------------------------------------------------------
  // One SSE connection per page (/events/page). The server sends rendered fragments with
  // stable ids; this swaps them in. While disconnected the last content stays on screen.

  var body = document.body;
  var spec = body.dataset.stream || "";
  var isKiosk = spec === "kiosk";
  var source = null;
  var lastEventId = "";
  var attempt = 0;
  var retryTimer = null;
  var disconnectedAt = null;
  var maxDelay = 30000;

  function streamURL() {
    var params = new URLSearchParams();
    var list = document.getElementById("stories");
    var section = (list && list.dataset.section) || body.dataset.section || "";
    if (spec.indexOf("item:") === 0) {
      params.set("view", "item");
      params.set("key", spec.slice(5));
    } else if (spec === "stats") {
      params.set("view", "stats");
    } else {
      params.set("view", isKiosk ? "kiosk" : "list");
      if (section) params.set("section", section);
    }
    if (lastEventId) params.set("lastEventId", lastEventId);
    return "/events/page?" + params.toString();
  }

  function fragment(html) {
    var template = document.createElement("template");
    template.innerHTML = html.trim();
    return template.content.firstElementChild;
  }

  // Whether two entries show the same thing (ignoring our own state classes/attributes).
  function sameContent(a, b) {
    function normal(el) {
      var copy = el.cloneNode(true);
      copy.classList.remove("is-new", "is-updated", "is-featured");
      copy.querySelectorAll("[data-armed]").forEach(function (n) { n.removeAttribute("data-armed"); });
      return copy.outerHTML;
    }
    return normal(a) === normal(b);
  }

  function flash(el, cls) {
    el.classList.add(cls);
    setTimeout(function () { el.classList.remove(cls); }, 1700);
  }

  // The element for `id` with the fragment `html` swapped in (or made, when the page
  // does not have it yet); null when the fragment is not an element.
  function swapIn(id, html) {
    var el = document.getElementById(id);
    var fresh = fragment(html);
    if (!fresh) return el;
    refreshTimes(fresh);
    if (!el) {
      if (!isKiosk) flash(fresh, "is-new");
      armImages(fresh);
      return fresh;
    }
    // Swap only what really changed (a reconnect resends everything).
    if (sameContent(el, fresh)) return el;
    el.replaceWith(fresh);
    if (!isKiosk) flash(fresh, "is-updated");
    armImages(fresh);
    return fresh;
  }

  // An `items` event: either the whole `order` of entry ids, or a delta (`prepend`: new
  // entries for the top, top first; `remove`: entries that went). `html` holds the
  // fragments of the entries that are new or changed.
  function applyItems(data) {
    var list = document.getElementById("stories");
    if (!list) return;
    if (data.order) {
      applyOrder(list, data);
    } else {
      applyDelta(list, data);
    }
    var count = document.getElementById("count");
    if (count && data.count) count.textContent = data.count;
    var empty = document.getElementById("empty");
    if (empty) empty.hidden = list.firstElementChild !== null;
  }

  function applyOrder(list, data) {
    var wanted = {};
    data.order.forEach(function (id) { wanted[id] = true; });
    Array.prototype.slice.call(list.children).forEach(function (el) {
      if (!wanted[el.id]) el.remove();
    });
    var featured = list.querySelector(".is-featured");
    var featuredId = featured ? featured.id : null;
    var previous = null;
    data.order.forEach(function (id) {
      var html = data.html[id];
      var el = html ? swapIn(id, html) : document.getElementById(id);
      if (!el) return;
      var expectedNext = previous ? previous.nextElementSibling : list.firstElementChild;
      if (expectedNext !== el) list.insertBefore(el, expectedNext);
      previous = el;
    });
    if (isKiosk) {
      var keep = featuredId && document.getElementById(featuredId);
      list.querySelectorAll(".is-featured").forEach(function (el) { el.classList.remove("is-featured"); });
      (keep || list.firstElementChild || { classList: { add: function () {} } }).classList.add("is-featured");
    }
  }

  function applyDelta(list, data) {
    (data.remove || []).forEach(function (id) {
      var el = document.getElementById(id);
      if (el && el.parentNode === list) el.remove();
    });
    var top = {};
    var prepend = data.prepend || [];
    prepend.forEach(function (id) { top[id] = true; });
    Object.keys(data.html).forEach(function (id) {
      if (!top[id] && document.getElementById(id)) swapIn(id, data.html[id]);
    });
    var first = list.firstElementChild;
    prepend.forEach(function (id) {
      var html = data.html[id];
      var el = html ? swapIn(id, html) : document.getElementById(id);
      if (el && el !== first) list.insertBefore(el, first);
    });
  }

  function applyItem(data) {
    var detail = document.getElementById("detail");
    if (!detail) return;
    var fresh = fragment(data.html);
    if (!fresh) return;
    detail.replaceWith(fresh);
    armImages(fresh);
    refreshTimes(fresh);
    localizeTimes(fresh);
  }

  function applyGone() {
    var gone = document.getElementById("gone");
    if (gone) gone.hidden = false;
    body.classList.add("item-gone");
  }

  function applyStatus(html) {
    var status = document.getElementById("status");
    var fresh = fragment(html);
    if (status && fresh) {
      status.replaceWith(fresh);
      refreshTimes(fresh);
    }
  }

  // /stats: whole parts (charts drawn on the server as SVG, the ticker) swapped by id.
  function applyFragments(data) {
    Object.keys(data.html).forEach(function (id) {
      var el = document.getElementById(id);
      var fresh = fragment(data.html[id]);
      if (!el || !fresh || fresh.id !== id) return;
      el.replaceWith(fresh);
      refreshTimes(fresh);
      localizeTimes(fresh);
    });
  }

  // The badge while we are cut off: reconnecting, then stale since the moment we lost it.
  function showDisconnected() {
    var status = document.getElementById("status");
    if (!status || !disconnectedAt) return;
    var stale = Date.now() - disconnectedAt > 10000;
    var kind = stale ? "stale" : "reconnecting";
    var hhmm = new Date(disconnectedAt).toTimeString().slice(0, 5);
    status.className = status.className.replace(/\b(badge|board-status)-(live|connecting|reconnecting|stale)\b/g, "$1-" + kind);
    var label = status.querySelector(".badge-label");
    if (label) label.textContent = stale ? "Stale since " + hhmm : "Reconnecting…";
  }

  function handle(name, fn) {
    source.addEventListener(name, function (event) {
      if (event.lastEventId) lastEventId = event.lastEventId;
      try {
        fn(event.data);
      } catch (error) {
        if (window.console) console.warn("feedweb: could not apply " + name + " event", error);
      }
    });
  }

  function connect() {
    if (source || !spec || typeof EventSource === "undefined") return;
    clearTimeout(retryTimer);
    source = new EventSource(streamURL());
    body.dataset.streamState = "connecting";
    source.onopen = function () {
      attempt = 0;
      disconnectedAt = null;
      body.dataset.streamState = "open";
    };
    source.onerror = function () {
      // Our own reconnect, with backoff and the last id (EventSource's is fixed-interval).
      disconnect();
      if (!disconnectedAt) disconnectedAt = Date.now();
      showDisconnected();
      var delay = Math.min(maxDelay, 1000 * Math.pow(2, attempt));
      attempt += 1;
      retryTimer = setTimeout(connect, delay / 2 + Math.random() * delay / 2);
    };
    handle("items", function (data) { applyItems(JSON.parse(data)); });
    handle("item", function (data) { applyItem(JSON.parse(data)); });
    handle("gone", applyGone);
    handle("status", applyStatus);
    handle("stats", function (data) { applyFragments(JSON.parse(data)); });
    handle("reload", function () { window.location.reload(); });
  }

  function disconnect() {
    if (source) {
      source.close();
      source = null;
    }
    body.dataset.streamState = "closed";
  }

  // Hidden tabs close their stream (a kiosk never does) and resume when shown again.
  document.addEventListener("visibilitychange", function () {
    if (isKiosk) return;
    if (document.hidden) {
      clearTimeout(retryTimer);
      disconnect();
    } else {
      connect();
    }
  });

  // The kiosk cycles its highlighted story.
  function cycleFeatured() {
    var list = document.getElementById("stories");
    if (!list || !list.firstElementChild) return;
    var current = list.querySelector(".is-featured") || list.firstElementChild;
    var next = current.nextElementSibling || list.firstElementChild;
    current.classList.remove("is-featured");
    next.classList.add("is-featured");
  }

  function tickClock() {
    var clock = document.getElementById("clock");
    if (clock) clock.textContent = new Date().toTimeString().slice(0, 5);
  }

  window.feedweb = { armImages: armImages, refreshTimes: refreshTimes, connect: connect, disconnect: disconnect };
  armImages(document);
  refreshTimes(document);
  localizeTimes(document);
  setInterval(function () {
    refreshTimes(document);
    if (disconnectedAt) showDisconnected();
  }, 5000);
  if (isKiosk) {
    tickClock();
    setInterval(tickClock, 10000);
    setInterval(cycleFeatured, 8000);
  }
  if (!document.hidden || isKiosk) connect();
})();
