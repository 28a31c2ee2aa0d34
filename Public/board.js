// feedweb board script (/board only): the grid of cells, the rotation, attention for marked
// items and care for the panel. Plain JavaScript, no build step, no inline code. The cells
// are kept live by Public/app.js (one page stream for all of them); this script only
// decides what is visible. See docs/behaviour.md, "Boards".
(function () {
  "use strict";

  var body = document.body;
  var grid = document.getElementById("board");
  if (body.dataset.stream !== "board" || !grid) return;
  var cells = Array.prototype.slice.call(grid.querySelectorAll(".bd-cell"));

  // ---- The clock ------------------------------------------------------------------
  // The screen's time, for the dim schedule and the shift: Date.now(), unless a test sets
  // `window.feedwebClock` (a function returning milliseconds since 1970) or opens the page
  // with `?now=YYYY-MM-DDTHH:MM:SS` (TEST ONLY: the clock starts at that local time and
  // runs on from there).
  var offset = 0;
  try {
    var start = new URLSearchParams(window.location.search).get("now");
    var at = start ? new Date(start).getTime() : NaN;
    if (!isNaN(at)) offset = at - Date.now();
  } catch (error) {
    offset = 0;
  }
  function now() {
    if (typeof window.feedwebClock === "function") {
      var value = Number(window.feedwebClock());
      if (!isNaN(value)) return value;
    }
    return Date.now() + offset;
  }

  // ---- The grid ---------------------------------------------------------------------
  var columns = Math.max(1, Number(body.dataset.cols) || 1);
  grid.style.setProperty("--bd-cols", String(columns));

  // ---- Rotation -----------------------------------------------------------------------
  // One cell at a time, each for its own seconds. The others stay laid out and in the
  // stream (only hidden), so each comes back as current as if it had been shown.
  var times = (body.dataset.rotate || "").split(",").map(Number).filter(function (n) { return n > 0; });
  var shown = []; // { view, index, at }: the cells shown, newest last
  var current = -1;

  function show(index) {
    cells.forEach(function (cell, i) {
      cell.classList.toggle("is-current", i === index);
      cell.setAttribute("aria-hidden", i === index ? "false" : "true");
    });
    current = index;
    shown.push({ view: cells[index].dataset.view, index: index, at: Date.now() });
    if (shown.length > 100) shown.shift();
    body.dataset.current = cells[index].dataset.view;
  }

  if (times.length && cells.length > 1) {
    grid.classList.add("is-rotating");
    // Each step is due at the sum of the times before it, from the start: a late timer
    // does not delay the steps after it.
    var due = performance.now();
    var step = 0;
    var next = function () {
      var index = step % cells.length;
      show(index);
      due += (times[index] || times[times.length - 1]) * 1000;
      step += 1;
      setTimeout(next, Math.max(0, due - performance.now()));
    };
    next();
  }

  // ---- Attention -------------------------------------------------------------------
  // An entry of a frame's change that matches a `--mark` (the `marks` of an `items`
  // frame, see Sources/WebUI/Streaming/PageEventStream.swift) is shown over the whole
  // board, with its mark's label, for `attention` seconds; several queue; an entry is
  // shown once per change (its id and the frame's id), whichever cells carry it.
  var attention = Math.max(0, Number(body.dataset.attention) || 0);
  var waiting = [];
  var seen = {};
  var seenOrder = [];
  var attended = []; // { item, label, view, shownAt, hiddenAt }
  var overlay = null;
  var showing = null;

  function makeOverlay() {
    var el = document.createElement("div");
    el.className = "bd-attention";
    el.id = "attention";
    el.hidden = true;
    el.setAttribute("role", "alert");
    var root = el.attachShadow ? el.attachShadow({ mode: "open" }) : el;
    document.querySelectorAll("head link[rel=stylesheet]").forEach(function (link) {
      var copy = document.createElement("link");
      copy.rel = "stylesheet";
      copy.href = link.href;
      root.appendChild(copy);
    });
    var page = document.createElement("div");
    page.className = "bd-page page-kiosk bd-attention-body";
    var label = document.createElement("p");
    label.className = "bd-attention-label";
    var entry = document.createElement("div");
    entry.className = "bd-attention-entry";
    page.appendChild(label);
    page.appendChild(entry);
    root.appendChild(page);
    body.appendChild(el);
    return { el: el, label: label, entry: entry };
  }

  // The entry's fragment, in the container its kind needs.
  function entryElement(html) {
    var template = document.createElement("template");
    var trimmed = (html || "").trim();
    if (/^<tr[\s>]/i.test(trimmed)) template.innerHTML = '<table class="table"><tbody>' + trimmed + "</tbody></table>";
    else if (/^<li[\s>]/i.test(trimmed)) template.innerHTML = '<ol class="board-list">' + trimmed + "</ol>";
    else template.innerHTML = trimmed;
    var el = template.content.firstElementChild;
    if (el) el.querySelectorAll("[id]").forEach(function (node) { node.removeAttribute("id"); });
    return el;
  }

  function pump() {
    if (showing || waiting.length === 0) return;
    if (!overlay) overlay = makeOverlay();
    showing = waiting.shift();
    overlay.label.textContent = showing.labels.join(" · ");
    overlay.entry.textContent = "";
    var el = entryElement(showing.html);
    if (el) {
      overlay.entry.appendChild(el);
      if (window.feedweb && window.feedweb.prepare) window.feedweb.prepare(el);
    }
    overlay.el.dataset.item = showing.item;
    overlay.el.dataset.label = overlay.label.textContent;
    overlay.el.hidden = false;
    body.classList.add("is-attention");
    var record = {
      item: showing.item, label: overlay.label.textContent, view: showing.view, shownAt: Date.now(), hiddenAt: 0
    };
    attended.push(record);
    if (attended.length > 100) attended.shift();
    setTimeout(function () {
      record.hiddenAt = Date.now();
      overlay.el.hidden = true;
      body.classList.remove("is-attention");
      showing = null;
      pump();
    }, attention * 1000);
  }

  function heard(type, data, id) {
    if (!attention || type !== "items" || !data.marks || typeof data.marks !== "object") return;
    Object.keys(data.marks).forEach(function (item) {
      var labels = data.marks[item];
      if (!Array.isArray(labels) || labels.length === 0) return;
      var once = item + "@" + (id || "");
      if (seen[once]) return;
      seen[once] = true;
      seenOrder.push(once);
      if (seenOrder.length > 500) delete seen[seenOrder.shift()];
      var html = data.html && typeof data.html[item] === "string" ? data.html[item] : "";
      waiting.push({ item: item, labels: labels.map(String), html: html, view: data.view });
    });
    pump();
  }

  // ---- Care for the panel ----------------------------------------------------------
  // The shift: every `shiftEvery` ms of the clock the whole board moves to the next of a
  // few places at most 3 px from where it was laid out (slowly, by a CSS transition), so
  // that no edge stays on the same pixels for years. The dim: between the two times of
  // `data-dim` (`HH:MM-HH:MM`, the screen's local time, over midnight if the end is
  // earlier) a dark veil fades in over a minute.
  var shiftEvery = 180000;
  var places = [[0, 0], [2, 1], [3, -1], [1, -3], [-1, -2], [-3, 0], [-2, 2], [0, 3]];
  var shifting = body.dataset.shift !== "off";
  var dim = parseRange(body.dataset.dim || "");
  var place = null;
  var cared = []; // { what: "shift" | "dim", value, at: the clock's time }, newest last

  function parseRange(text) {
    var m = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
    if (!m) return null;
    return { from: Number(m[1]) * 60 + Number(m[2]), to: Number(m[3]) * 60 + Number(m[4]) };
  }

  function dimmedAt(time) {
    if (!dim) return false;
    var date = new Date(time);
    var minute = date.getHours() * 60 + date.getMinutes();
    return dim.from < dim.to ? minute >= dim.from && minute < dim.to : minute >= dim.from || minute < dim.to;
  }

  function care() {
    var time = now();
    if (shifting) {
      var index = Math.floor(time / shiftEvery) % places.length;
      if (index !== place) {
        place = index;
        grid.style.transform = "translate(" + places[index][0] + "px, " + places[index][1] + "px)";
        note("shift", grid.style.transform, time);
      }
    }
    var dimmed = dimmedAt(time);
    if (body.classList.contains("is-dimmed") !== dimmed) {
      body.classList.toggle("is-dimmed", dimmed);
      note("dim", dimmed ? "on" : "off", time);
    }
  }

  function note(what, value, time) {
    cared.push({ what: what, value: value, at: time });
    if (cared.length > 100) cared.shift();
  }
  care();
  setInterval(care, 250);

  // For tests and /inspect-minded people: what the board did.
  window.feedwebBoard = {
    state: function () {
      return {
        current: current >= 0 ? cells[current].dataset.view : "",
        shown: shown.slice(),
        attended: attended.slice(),
        waiting: waiting.length,
        shift: grid.style.transform || "",
        dimmed: body.classList.contains("is-dimmed"),
        cared: cared.slice(),
        now: now()
      };
    }
  };

  function listen() {
    if (window.feedweb && window.feedweb.onFrame) window.feedweb.onFrame(heard);
  }
  // Public/app.js runs after this script (both deferred, in order).
  if (window.feedweb) listen();
  else document.addEventListener("DOMContentLoaded", listen);
})();
