// feedweb cell marks: when the page stream swaps in a fresh table row, kiosk tile or item
// page, the values that changed are marked for a moment (`cell-changed`; with `cell-up` or
// `cell-down` when a number went up or down), so a reader sees what moved without reading
// the whole row again. Plain JavaScript, no build step; loaded before app.js, which calls
// it where it swaps something in (and works without it).
//
// A value is an element with `data-col` (a table cell, a tile's lead or fact, an item
// page's value card); a number carries its raw value in `data-value`, on the element or,
// on the item page, on the one inside it that shows it. The stream replaces a row whole,
// once a second on a busy feed: a cell marked a moment ago and unchanged since keeps its
// mark on the new row, the fade going on where it was (a negative animation-delay: CSSOM,
// which the Content-Security-Policy allows).
(function () {
  "use strict";

  // How long a mark stays (keep in step with the `cell-fade` animations in the CSS).
  var markFor = 2000;
  var kinds = ["cell-changed", "cell-up", "cell-down"];

  // The values of `root` (itself too, when it is one), by column: `price`, or `price#2`
  // for a second element of the same column.
  function values(root) {
    var found = {};
    var list = Array.prototype.slice.call(root.querySelectorAll("[data-col]"));
    if (root.hasAttribute && root.hasAttribute("data-col")) list.unshift(root);
    list.forEach(function (el) {
      var key = el.getAttribute("data-col");
      var n = 1;
      while (Object.prototype.hasOwnProperty.call(found, n > 1 ? key + "#" + n : key)) n += 1;
      found[n > 1 ? key + "#" + n : key] = el;
    });
    return found;
  }

  // The number a value holds, or null.
  function number(el) {
    var holder = el.hasAttribute("data-value") ? el : el.querySelector("[data-value]");
    if (!holder) return null;
    var raw = holder.getAttribute("data-value");
    if (raw === null || raw.trim() === "") return null;
    var n = Number(raw);
    return isFinite(n) ? n : null;
  }

  // What a value shows. A time counts as its moment: "5 min ago" turning into "6 min ago"
  // (or a time shown in the viewer's zone) is no change.
  function shown(el) {
    var copy = el;
    if (el.querySelector("time[datetime]")) {
      copy = el.cloneNode(true);
      copy.querySelectorAll("time[datetime]").forEach(function (time) {
        time.textContent = time.getAttribute("datetime");
      });
    }
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  // Marks `el` (`direction`: "cell-up", "cell-down" or "") as changed at `since`, until
  // `markFor` after that.
  function start(el, direction, since) {
    var age = Math.max(0, Date.now() - since);
    if (age >= markFor) return;
    el.classList.add("cell-changed");
    if (direction) el.classList.add(direction);
    el.dataset.markedAt = String(since);
    if (age > 0) el.style.animationDelay = -age + "ms";
    setTimeout(function () { strip(el); }, markFor - age);
  }

  // Takes the marks off `el` and the values in it (also used on the copies app.js
  // compares, so that a mark is no difference).
  function strip(el) {
    var list = Array.prototype.slice.call(el.querySelectorAll("[data-marked-at]"));
    if (el.hasAttribute && el.hasAttribute("data-marked-at")) list.push(el);
    list.forEach(function (cell) {
      kinds.forEach(function (kind) { cell.classList.remove(kind); });
      cell.removeAttribute("data-marked-at");
      cell.style.animationDelay = "";
      if (!cell.getAttribute("style")) cell.removeAttribute("style");
    });
  }

  // Compares the values of `newEl` (about to replace `oldEl`, or just did) with those of
  // `oldEl` and marks the ones that changed. Returns how many it marked as new changes.
  function mark(oldEl, newEl) {
    if (!oldEl || !newEl || !newEl.querySelectorAll || !oldEl.querySelectorAll) return 0;
    var before = values(oldEl);
    var after = values(newEl);
    var changed = 0;
    Object.keys(after).forEach(function (key) {
      var was = before[key];
      var cell = after[key];
      if (!was) return;
      var a = number(was);
      var b = number(cell);
      var direction = null;
      if (a !== null && b !== null && a !== b) direction = b > a ? "cell-up" : "cell-down";
      else if (shown(was) !== shown(cell)) direction = "";
      if (direction !== null) {
        start(cell, direction, Date.now());
        changed += 1;
      } else if (was.dataset.markedAt) {
        // Unchanged since its last mark: the mark goes on.
        var kept = was.classList.contains("cell-up") ? "cell-up" : was.classList.contains("cell-down") ? "cell-down" : "";
        start(cell, kept, Number(was.dataset.markedAt));
      }
    });
    return changed;
  }

  window.feedwebCells = { mark: mark, strip: strip };
})();
