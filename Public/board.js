// feedweb board script (/board only): the grid of cells, the rotation and care for the
// panel. Plain JavaScript, no build step, no inline code. The cells are kept live by
// Public/app.js (one page stream for all of them); this script only decides what is
// visible and where. Attention for marked items: Public/attention.js. See
// docs/behaviour.md, "Boards".
(function () {
  "use strict";

  var body = document.body;
  var grid = document.getElementById("board");
  if (body.dataset.stream !== "board" || !grid) return;
  var cells = Array.prototype.slice.call(grid.querySelectorAll(".bd-cell"));
  // Tells /inspect what this screen showed, when it has a name (Public/showings.js).
  function report(kind, value) {
    if (window.feedwebShowings) window.feedwebShowings.report(kind, value);
  }

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
  // { view, index, at }: the cells shown, newest last; `at` in ms since the epoch by the
  // page's monotonic clock, so the time between two steps is true even when the wall clock
  // is stepped (a kiosk's NTP) between them.
  var shown = [];
  var current = -1;

  function show(index) {
    cells.forEach(function (cell, i) {
      cell.classList.toggle("is-current", i === index);
      cell.setAttribute("aria-hidden", i === index ? "false" : "true");
    });
    current = index;
    shown.push({ view: cells[index].dataset.view, index: index, at: performance.timeOrigin + performance.now() });
    if (shown.length > 100) shown.shift();
    body.dataset.current = cells[index].dataset.view;
    report("view", cells[index].dataset.view);
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
  } else {
    report("view", cells.map(function (cell) { return cell.dataset.view; }).join(" "));
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
      report("dim", dimmed ? "on" : "off");
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
        shift: grid.style.transform || "",
        dimmed: body.classList.contains("is-dimmed"),
        cared: cared.slice(),
        now: now()
      };
    }
  };

})();
