// feedweb attention (/board and /kiosk with `?attention=SECONDS`): an item that matches a
// `--mark` is shown over the whole screen, with its mark's label, for that many seconds,
// then the screen as it was. Plain JavaScript, no build step, no inline code.
//
// The page stream says which entries of a change are marked: an `items` frame carries
// `"marks": {dom id: [label…]}` for its new or changed entries that match (never a whole
// state; see Sources/WebUI/Streaming/PageEventStream.swift). Public/app.js tells this
// script of every frame it applies. Several marked entries queue, one after the other; an
// entry is shown once per change (its id and the frame's id), however many views of the
// page carry it. See docs/behaviour.md, "Boards".
(function () {
  "use strict";

  var body = document.body;
  var scriptURL = document.currentScript ? document.currentScript.src : "";
  // A board says it in its data (the server checked its URL, its playlist and
  // --attention); a kiosk's URL wins over its data (--attention).
  var seconds = Number(body.dataset.attention);
  if (body.dataset.stream !== "board") {
    try {
      var asked = new URLSearchParams(window.location.search).get("attention");
      if (asked !== null) seconds = Number(asked);
    } catch (error) {
      seconds = 0;
    }
  }
  if (!(seconds > 0) || seconds > 86400) return;

  var waiting = [];
  var seen = {};
  var seenOrder = [];
  var attended = []; // { item, label, view, shownAt, hiddenAt }
  // ms since the epoch by the page's monotonic clock: how long an item was shown stays true
  // when the wall clock is stepped (a kiosk's NTP) while it is.
  function monotonicNow() {
    return performance.timeOrigin + performance.now();
  }
  var overlay = null;
  var showing = null;

  // The stylesheets for the copy of the entry: the page's own, and board.css (the
  // overlay's), beside this script.
  function stylesheets() {
    var hrefs = [];
    document.querySelectorAll("head link[rel=stylesheet]").forEach(function (link) {
      hrefs.push(link.href);
    });
    var board = /\/attention\.js(\?|$)/.test(scriptURL)
      ? scriptURL.replace(/\/attention\.js(\?|$)/, "/board.css$1")
      : "/static/board.css";
    if (!hrefs.some(function (href) { return /\/board\.css(\?|$)/.test(href); })) hrefs.push(board);
    return hrefs;
  }

  function makeOverlay() {
    var el = document.createElement("div");
    el.className = "bd-attention";
    el.id = "attention";
    el.hidden = true;
    el.setAttribute("role", "alert");
    // Over everything, whichever stylesheets the page has (CSSOM: allowed by the CSP).
    el.style.position = "fixed";
    el.style.inset = "0";
    el.style.zIndex = "20";
    var root = el.attachShadow ? el.attachShadow({ mode: "open" }) : el;
    stylesheets().forEach(function (href) {
      var link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      root.appendChild(link);
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

  // The column headings of the page's table (a board's table cell, in its shadow root), in
  // order; none when the page shows no table.
  function headings() {
    var roots = [document];
    document.querySelectorAll(".bd-cell").forEach(function (cell) {
      if (cell.shadowRoot) roots.push(cell.shadowRoot);
    });
    for (var i = 0; i < roots.length; i++) {
      var heads = roots[i].querySelectorAll("table thead th");
      if (heads.length) {
        return Array.prototype.map.call(heads, function (th) {
          var link = th.querySelector("a");
          var arrow = th.querySelector(".sort-arrow");
          var text = (link || th).textContent;
          return (arrow ? text.replace(arrow.textContent, "") : text).trim();
        });
      }
    }
    return [];
  }

  // A table's row, across a room: the item's title (its cell that links to its page) as
  // the heading, then each other cell under its column's heading; ids and empty values
  // (`.id`, `.missing`: the server's classes) are for programs, not for a screen.
  function rowFields(row) {
    var names = headings();
    var shown = document.createElement("div");
    shown.className = "bd-attention-row";
    var list = document.createElement("dl");
    list.className = "bd-attention-fields";
    Array.prototype.forEach.call(row.cells, function (cell, index) {
      var link = cell.querySelector("a.row-link");
      if (link) {
        var title = document.createElement("p");
        title.className = "bd-attention-title";
        title.textContent = link.textContent;
        shown.appendChild(title);
        return;
      }
      if (cell.classList.contains("id") || cell.classList.contains("missing")) return;
      list.appendChild(field(names[index] || "", cell, cell.className));
    });
    shown.appendChild(list);
    return shown;
  }

  // A value under its label, as the screen lists them: `source`'s children moved into the
  // value, which takes `classes` (a cell's: `num`, `status-bad`, which set its tone).
  function field(label, source, classes) {
    var pair = document.createElement("div");
    var name = document.createElement("dt");
    name.textContent = label;
    var value = document.createElement("dd");
    value.className = classes;
    while (source.firstChild) value.appendChild(source.firstChild);
    pair.appendChild(name);
    pair.appendChild(value);
    return pair;
  }

  // A table's kiosk tile, across a room as its row is: its name as the heading, then its
  // lead figure and its facts under their labels.
  function tileFields(tile) {
    var shown = document.createElement("div");
    shown.className = "bd-attention-row";
    var title = document.createElement("p");
    title.className = "bd-attention-title";
    var heading = tile.querySelector(".tile-title");
    title.textContent = heading ? heading.textContent : "";
    shown.appendChild(title);
    var list = document.createElement("dl");
    list.className = "bd-attention-fields";
    var lead = tile.querySelector(".tile-lead");
    if (lead) {
      var label = lead.querySelector(".tile-label");
      if (label) label.remove();
      lead.classList.remove("tile-lead");
      list.appendChild(field(label ? label.textContent : "", lead, lead.className));
    }
    tile.querySelectorAll(".tile-facts > div").forEach(function (fact) {
      var name = fact.querySelector("dt");
      var value = fact.querySelector("dd");
      if (value) list.appendChild(field(name ? name.textContent : "", value, fact.className));
    });
    shown.appendChild(list);
    return shown;
  }

  // The entry's fragment, in the container its kind needs, without its ids.
  function entryElement(html) {
    var template = document.createElement("template");
    var trimmed = (html || "").trim();
    if (/^<tr[\s>]/i.test(trimmed)) {
      template.innerHTML = '<table class="table"><tbody>' + trimmed + "</tbody></table>";
      var row = template.content.querySelector("tr");
      if (row) {
        template.content.replaceChildren(rowFields(row));
      }
    } else if (/^<li[\s>]/i.test(trimmed)) {
      template.innerHTML = '<ol class="board-list">' + trimmed + "</ol>";
      var tile = template.content.querySelector("li.tile");
      if (tile) template.content.replaceChildren(tileFields(tile));
    } else template.innerHTML = trimmed;
    var el = template.content.firstElementChild;
    if (!el) return null;
    el.removeAttribute("id");
    el.querySelectorAll("[id]").forEach(function (node) { node.removeAttribute("id"); });
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
      item: showing.item, label: overlay.label.textContent, view: showing.view, shownAt: monotonicNow(), hiddenAt: 0
    };
    attended.push(record);
    if (window.feedwebShowings) {
      // The item's key, as its page's address has it (`item-KEY` is its element's id).
      window.feedwebShowings.report("attention", showing.item.replace(/^item-/, ""), record.label);
    }
    if (attended.length > 100) attended.shift();
    setTimeout(function () {
      record.hiddenAt = monotonicNow();
      overlay.el.hidden = true;
      body.classList.remove("is-attention");
      showing = null;
      pump();
    }, seconds * 1000);
  }

  function heard(type, data, id) {
    if (type !== "items" || !data.marks || typeof data.marks !== "object") return;
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

  // For tests: what was shown, and what waits.
  window.feedwebAttention = {
    state: function () {
      return { attended: attended.slice(), waiting: waiting.length };
    }
  };

  function listen() {
    if (window.feedweb && window.feedweb.onFrame) window.feedweb.onFrame(heard);
  }
  if (window.feedweb) listen();
  else document.addEventListener("DOMContentLoaded", listen);
})();
