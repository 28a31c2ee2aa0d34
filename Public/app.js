// feedweb page script: plain JavaScript, no framework, no build step, no inline code
// (the pages are served under a strict Content-Security-Policy). Without it every page
// still works as a plain page.
(function () {
  "use strict";

  // Where this script came from: the port broker is its sibling, of the same version.
  var scriptURL = document.currentScript ? document.currentScript.src : "";
  var assetVersion = (/[?&]v=([A-Za-z0-9]+)/.exec(scriptURL) || [])[1] || "";

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

  // Relative times counted, dates and times of day in the viewer's zone: Public/times.js,
  // loaded before this script (without it the server's text stays as it came).
  var times = window.feedwebTimes || { refresh: function () {}, localize: function () {} };
  function refreshTimes(root) { times.refresh(root); }
  function localizeTimes(root) { times.localize(root); }

  // ---- The page stream ------------------------------------------------------------
  // The server sends rendered fragments with stable ids for each view (`list`,
  // `list:SECTION`, `table…` (the table's own spec, see viewName), `kiosk`,
  // `kiosk:SECTION`, `item:KEY`, `stats`); this swaps in those of this page's view. While
  // disconnected the last content stays on screen.
  //
  // One stream per browser storage partition, not per page: browsers open at most 6
  // HTTP/1.1 connections per host and feedweb has no HTTP/2, so a wall of iframes or a few
  // tabs would otherwise starve. The pages of a partition (tabs, windows, same-origin
  // iframes, also inside another site's wall) elect one leader with the Web Locks API; it
  // holds /events/page with every view the pages show and relays each frame on a
  // BroadcastChannel (same-origin, partitioned like storage); every page applies its own
  // view's frames. Where SharedWorker exists, a worker that only introduces pages
  // (Public/page-ports.js) gives the leader a MessagePort to each other page as well, and
  // each frame also goes through those: renderer to renderer, without the browser
  // process's hop that a BroadcastChannel message takes. When the leader goes (closed,
  // navigated, crashed: its lock is released; frozen: its heartbeat stops and the lock is
  // stolen), the next page takes over and resumes each view from the id of its last
  // frame. Without those APIs each page holds a stream of its own. See docs/behaviour.md.

  var body = document.body;
  var spec = body.dataset.stream || "";
  var isKiosk = spec === "kiosk";
  // A board (`/board`, Public/board.js) shows several views, each in a cell of its own
  // that is its own root (a shadow root: the ids of each view's page repeat without
  // clashing); like a kiosk it never leaves the stream.
  var isBoard = spec === "board";
  // The views this page shows: `{ view, root, host, kiosk }`, root being where its parts
  // are found by id (the document, or a cell's shadow root), host the element that stands
  // for its page's body. One for every page but a board.
  var cells = findCells();
  var view = cells.length ? cells[0].view : "";
  // The name this page gave itself (`?screen=lobby-left`), shown on /inspect.
  var screen = screenName();
  var retryTimer = null;
  // When the stream was lost: the wall clock's time, for "Stale since HH:MM", and the
  // page's monotonic clock, for how long ago (a clock stepped by NTP moves only the first).
  var disconnectedAt = null;
  var disconnectedMono = 0;
  var maxDelay = 30000;
  // The id of the last frame of each view seen (this page's view applied, others relayed).
  var lastIds = {};
  // The frames this page applied (type, id, when), newest last: for tests.
  var applied = [];

  function findCells() {
    if (!isBoard) {
      var name = viewName();
      return name ? [{ view: name, root: document, host: body, kiosk: isKiosk }] : [];
    }
    var found = [];
    document.querySelectorAll(".bd-cell[data-spec]").forEach(function (el) {
      var root = el.shadowRoot || el;
      var name = el.dataset.spec;
      if (!name) return;
      found.push({
        view: name, root: root, host: root.querySelector(".bd-page") || el, kiosk: name.indexOf("kiosk") === 0
      });
    });
    return found;
  }

  // The element of `root` (a document or shadow root; an element where shadow roots are
  // not parsed) with id `id`.
  function byId(root, id) {
    if (root.getElementById) return root.getElementById(id);
    return root.querySelector("#" + (window.CSS && CSS.escape ? CSS.escape(id) : id));
  }

  // The names of the views this page shows.
  function cellViews() {
    var names = {};
    cells.forEach(function (cell) { names[cell.view] = true; });
    return Object.keys(names);
  }

  // Each root of this page (the document first) in turn.
  function eachRoot(fn) {
    fn(document);
    cells.forEach(function (cell) {
      if (cell.root !== document) fn(cell.root);
    });
  }

  function viewName() {
    if (!spec) return "";
    if (spec.indexOf("item:") === 0) return spec;
    if (spec === "stats" || spec === "inspect") return spec;
    // A table page's spec names its view whole: `table`, `table:SECTION`,
    // `table+sort=price+desc`, `table+page=2`.
    if (spec.indexOf("table") === 0) return spec;
    var list = document.getElementById("stories");
    var section = (list && list.dataset.section) || body.dataset.section || "";
    return (isKiosk ? "kiosk" : "list") + (section ? ":" + section : "");
  }

  function screenName() {
    var name = "";
    try {
      name = new URLSearchParams(window.location.search).get("screen") || "";
    } catch (error) {
      return "";
    }
    return /^[A-Za-z0-9._:-]{1,64}$/.test(name) ? name : "";
  }

  // Whether this page's views belong in the stream: shown, or a kiosk or board (never
  // left out).
  function active() {
    return !!view && (isKiosk || isBoard || !document.hidden);
  }

  // `EPOCH-SEQ` ids: whether `id` comes after `last` (another epoch always does).
  function newer(id, last) {
    if (!last) return true;
    var a = id.lastIndexOf("-"), b = last.lastIndexOf("-");
    if (a < 0 || b < 0 || id.slice(0, a) !== last.slice(0, b)) return id !== last;
    return Number(id.slice(a + 1)) > Number(last.slice(b + 1));
  }

  // One frame from the stream (a view's event, or `reload`): notes its id and applies it
  // when it is this page's view. A content frame this page already has (a whole state
  // after a takeover, say) is skipped.
  // `via`: how the frame came ("stream", "channel" or "port"), kept with it for tests and
  // Benchmarks/page_dom.py.
  function receive(type, raw, id, via) {
    if (type === "reload") {
      window.location.reload();
      return;
    }
    var data;
    try {
      data = JSON.parse(raw);
    } catch (error) {
      return;
    }
    if (!data || typeof data !== "object" || typeof data.view !== "string") return;
    var last = lastIds[data.view];
    if (id && newer(id, last)) lastIds[data.view] = id;
    var targets = cells.filter(function (cell) { return cell.view === data.view; });
    if (targets.length === 0) return;
    var content = type === "items" || type === "item" || type === "gone";
    if (content && id && last && !newer(id, last)) return;
    // A page rendered before feedweb held any document was laid out for no items; the
    // first items may be read in another layout (a table's tiles, not stories), so the
    // page is rendered again, once, now that they are here.
    if (type === "items" && body.hasAttribute("data-waiting") && hasEntries(data)) {
      body.removeAttribute("data-waiting");
      window.location.reload();
      return;
    }
    applied.push({ type: type, id: id, at: Date.now(), via: via || "stream", view: data.view });
    if (applied.length > 200) applied.shift();
    targets.forEach(function (cell) {
      try {
        if (type === "items") {
          applyItems(cell, data);
          fit(cell.root);
        }
        else if (type === "item") applyItem(cell, data);
        else if (type === "gone") applyGone(cell);
        else if (type === "status") applyStatus(cell, data.html);
        else if (type === "stats") applyFragments(cell, data);
        else if (type === "inspect") applyInspect(cell, data);
      } catch (error) {
        if (window.console) console.warn("feedweb: could not apply " + type + " event", error);
      }
    });
    frameListeners.forEach(function (listener) {
      try {
        listener(type, data, id);
      } catch (error) {
        if (window.console) console.warn("feedweb: a frame listener failed", error);
      }
    });
  }

  // Whether an `items` frame brings any entry (a whole order, or new ones for the top).
  function hasEntries(data) {
    return (Array.isArray(data.order) && data.order.length > 0) || (Array.isArray(data.prepend) && data.prepend.length > 0);
  }

  // Who else hears of each frame this page applies (Public/board.js: attention).
  var frameListeners = [];

  // A kiosk tile shows the facts that fit below its lead, whole: one that would be cut
  // off at the tile's foot (a label without its value) is hidden until there is room.
  function fitFacts(root) {
    root.querySelectorAll(".tile-facts").forEach(function (list) {
      var facts = Array.prototype.slice.call(list.children);
      facts.forEach(function (fact) { fact.hidden = false; });
      var tile = list.closest(".tile");
      var bottom = list.getBoundingClientRect().bottom;
      if (tile) {
        var foot = tile.getBoundingClientRect().bottom - (parseFloat(getComputedStyle(tile).paddingBottom) || 0);
        bottom = Math.min(bottom, foot);
      }
      facts.forEach(function (fact) {
        if (fact.getBoundingClientRect().bottom > bottom + 1) fact.hidden = true;
      });
    });
  }

  // A board's table (a cell's root) shows what fits the cell, whole, with no scrollbar.
  // Columns are left out from the right, but the one that names the item, the statuses
  // and the tile's lead figure last (a build's state says more on a wall than its branch,
  // a price more than its name); rows that would
  // be cut at the cell's foot are hidden, calm ones before those that call for attention
  // (a failed build, a pending pod stays in view, in its place among the rows kept).
  // `data-columns-left-out` on the table says how many columns are not shown. (Classes,
  // not a style element: the pages' Content-Security-Policy allows no inline style.)
  function fitTable(root) {
    if (root === document || !root.querySelector) return;
    var table = byId(root, "items-table");
    var scroll = table && table.closest(".table-scroll");
    if (!scroll || !table.tHead || !table.tHead.rows.length) return;
    var rows = Array.prototype.slice.call(table.rows);
    // Measured from scratch: every row and every column shown.
    var body = table.tBodies[0] ? Array.prototype.slice.call(table.tBodies[0].rows) : [];
    body.forEach(function (row) { row.classList.remove("is-clipped"); });
    root.querySelectorAll("#items-table .is-left-out").forEach(function (c) { c.classList.remove("is-left-out"); });
    var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var order = heads.map(function (th, index) { return { index: index, rank: columnRank(body, index) }; });
    order.sort(function (a, b) { return a.rank - b.rank || b.index - a.index; });
    var leftOut = [];
    while (leftOut.length < heads.length - 1 && table.scrollWidth > scroll.clientWidth + 1) {
      var column = order[leftOut.length].index;
      leftOut.push(column);
      rows.forEach(function (row) {
        if (row.cells[column]) row.cells[column].classList.add("is-left-out");
      });
    }
    table.setAttribute("data-columns-left-out", String(leftOut.length));
    // What was left out is said under the table: a screen nobody touches cannot scroll to
    // it. Shown before the rows are measured, since its line takes from their height.
    var note = leftOutNote(scroll);
    var names = heads.filter(function (th, index) { return leftOut.indexOf(index) >= 0; }).map(columnLabel);
    var notShown = names.length ? "Not shown: " + names.join(", ") : "";
    // Measured with its line there, text or not: rows hidden below may still add a count.
    note.hidden = false;
    note.textContent = notShown || "\u00a0";
    var hidden = hideRowsPastFoot(body, scroll.getBoundingClientRect().bottom);
    note.textContent = [hiddenRowsText(hidden), notShown].filter(Boolean).join(" · ");
    // Hidden when nothing was left out: the rows only gain the line.
    note.hidden = !note.textContent;
  }

  // How long a board's table keeps column `index` as its cell narrows: 2 for the one that
  // names the item (it links to the item's page), 1 for a status or the figure a tile of
  // the item is led by (`lead`: a price, a departure's delay), 0 for the rest.
  function columnRank(body, index) {
    var rank = 0;
    for (var r = 0; r < body.length && rank < 2; r++) {
      var cell = body[r].cells[index];
      if (!cell) continue;
      if (cell.querySelector(".row-link")) rank = 2;
      else if (cell.classList.contains("status") || cell.classList.contains("lead")) rank = 1;
    }
    return rank;
  }

  // How much a row calls for attention: 2 when a status in it is bad (a failed build), 1
  // when busy (a pending pod), else 0.
  function pressing(row) {
    return row.querySelector("td.status-bad:not(.is-left-out)") ? 2
      : row.querySelector("td.status-busy:not(.is-left-out)") ? 1 : 0;
  }

  // Hides the rows of `body` that would end past `foot` (px, in the viewport), as many as
  // that, the calm ones first: the rows kept are those that call for attention most, then
  // the first, each in its place. The rows hidden, in order.
  function hideRowsPastFoot(body, foot) {
    var room = body.filter(function (row) { return row.getBoundingClientRect().bottom <= foot + 1; }).length;
    if (room === body.length) return [];
    var ranked = body.map(function (row, index) { return { row: row, index: index, need: pressing(row) }; });
    ranked.sort(function (a, b) { return b.need - a.need || a.index - b.index; });
    ranked.forEach(function (entry, place) {
      if (place >= room) entry.row.classList.add("is-clipped");
    });
    // Rows are not all as tall: while one kept is still cut, the last calm one kept goes
    // (the last kept when none is calm).
    for (;;) {
      var kept = body.filter(function (row) { return !row.classList.contains("is-clipped"); });
      if (!kept.length || kept[kept.length - 1].getBoundingClientRect().bottom <= foot + 1) break;
      var calm = kept.filter(function (row) { return pressing(row) === 0; });
      (calm.length ? calm[calm.length - 1] : kept[kept.length - 1]).classList.add("is-clipped");
    }
    return body.filter(function (row) { return row.classList.contains("is-clipped"); });
  }

  // "12 more rows", and when some of them call for attention, their statuses as their
  // cells show them, the bad first: "12 more rows (3 failed, 1 Pending)".
  function hiddenRowsText(hidden) {
    if (!hidden.length) return "";
    var text = hidden.length + (hidden.length === 1 ? " more row" : " more rows");
    var words = [], counts = Object.create(null);
    [2, 1].forEach(function (need) {
      hidden.forEach(function (row) {
        if (pressing(row) !== need) return;
        var cell = row.querySelector(need === 2 ? "td.status-bad:not(.is-left-out)" : "td.status-busy:not(.is-left-out)");
        var word = cell.textContent.trim();
        if (!(word in counts)) { counts[word] = 0; words.push(word); }
        counts[word] += 1;
      });
    });
    if (!words.length) return text;
    return text + " (" + words.map(function (word) { return counts[word] + " " + word; }).join(", ") + ")";
  }

  // The line under a board's table that says what it leaves out (made once, after the
  // table's scroll box).
  function leftOutNote(scroll) {
    var note = scroll.nextElementSibling;
    if (note && note.classList.contains("table-left-out")) return note;
    note = document.createElement("p");
    note.className = "table-left-out";
    scroll.insertAdjacentElement("afterend", note);
    return note;
  }

  // A column's name as its heading shows it, without the sort arrow.
  function columnLabel(th) {
    var copy = th.cloneNode(true);
    copy.querySelectorAll(".sort-arrow").forEach(function (arrow) { arrow.remove(); });
    return copy.textContent.trim() || th.getAttribute("data-col") || "";
  }

  // What is fitted to the screen in `root`: a tile's facts, a board's table.
  function fit(root) {
    fitFacts(root);
    fitTable(root);
  }

  function fragment(html) {
    var template = document.createElement("template");
    template.innerHTML = html.trim();
    return template.content.firstElementChild;
  }

  // Whether two entries show the same thing (ignoring our own state classes/attributes,
  // the cell marks of Public/cells.js, the facts fitFacts hid among them and the rows
  // fitTable hid).
  function sameContent(a, b) {
    function normal(el) {
      var copy = el.cloneNode(true);
      copy.classList.remove("is-new", "is-updated", "is-featured", "is-clipped");
      copy.querySelectorAll("[data-armed]").forEach(function (n) { n.removeAttribute("data-armed"); });
      copy.querySelectorAll(".is-left-out").forEach(function (n) { n.classList.remove("is-left-out"); });
      copy.querySelectorAll(".tile-facts > [hidden]").forEach(function (n) { n.hidden = false; });
      if (window.feedwebCells && window.feedwebCells.strip) window.feedwebCells.strip(copy);
      return copy.outerHTML;
    }
    return normal(a) === normal(b);
  }

  // Marks the values of `fresh` that differ from those of `old` (Public/cells.js, when the
  // page has it). How many it marked; -1 without it.
  function markCells(old, fresh) {
    var cells = window.feedwebCells;
    if (!cells || typeof cells.mark !== "function") return -1;
    try {
      return cells.mark(old, fresh);
    } catch (error) {
      if (window.console) console.warn("feedweb: could not mark changed cells", error);
      return -1;
    }
  }

  // Table rows and kiosk tiles show which of their values changed, not that the whole
  // entry did.
  function hasCells(el) {
    return el.matches("tr.row, li.tile");
  }

  function flash(el, cls) {
    el.classList.add(cls);
    setTimeout(function () { el.classList.remove(cls); }, 1700);
  }

  // The element for `id` with the fragment `html` swapped in (or made, when the page
  // does not have it yet); null when the fragment is not an element.
  function swapIn(cell, id, html) {
    var el = byId(cell.root, id);
    var fresh = fragment(html);
    if (!fresh) return el;
    refreshTimes(fresh);
    // Before comparing: the page's copy shows its times in the viewer's zone too.
    localizeTimes(fresh);
    if (!el) {
      if (!cell.kiosk) flash(fresh, "is-new");
      armImages(fresh);
      return fresh;
    }
    // Swap only what really changed (a reconnect resends everything).
    if (sameContent(el, fresh)) return el;
    var marked = markCells(el, fresh);
    el.replaceWith(fresh);
    if (!cell.kiosk && (marked < 0 || !hasCells(fresh))) flash(fresh, "is-updated");
    armImages(fresh);
    return fresh;
  }

  // An `items` event: either the whole `order` of entry ids, or a delta (`prepend`: new
  // entries for the top, top first; `remove`: entries that went). `html` holds the
  // fragments of the entries that are new or changed.
  function applyItems(cell, data) {
    applyNotice(cell, data.notice);
    var list = byId(cell.root, "stories");
    if (!list || !data.html || typeof data.html !== "object") return;
    if (data.order) {
      applyOrder(cell, list, data);
    } else {
      applyDelta(cell, list, data);
    }
    var count = byId(cell.root, "count");
    if (count && data.count) count.textContent = data.count;
    var empty = byId(cell.root, "empty");
    if (empty) empty.hidden = list.firstElementChild !== null;
    // The kiosk's grid of tiles is sized by how many there are.
    if (list.hasAttribute("data-count")) list.setAttribute("data-count", String(list.children.length));
  }

  // What the document holds instead of items, when it holds none ("" when fine): shown in
  // #problem. Frames without `notice` leave it as it is.
  function applyNotice(cell, notice) {
    var problem = byId(cell.root, "problem");
    if (!problem || typeof notice !== "string") return;
    if (problem.textContent !== notice) problem.textContent = notice;
    problem.hidden = !notice;
  }

  function applyOrder(cell, list, data) {
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
      var el = html ? swapIn(cell, id, html) : byId(cell.root, id);
      if (!el) return;
      var expectedNext = previous ? previous.nextElementSibling : list.firstElementChild;
      if (expectedNext !== el) list.insertBefore(el, expectedNext);
      previous = el;
    });
    if (cell.kiosk) {
      var keep = featuredId && byId(cell.root, featuredId);
      list.querySelectorAll(".is-featured").forEach(function (el) { el.classList.remove("is-featured"); });
      (keep || list.firstElementChild || { classList: { add: function () {} } }).classList.add("is-featured");
    }
  }

  function applyDelta(cell, list, data) {
    (data.remove || []).forEach(function (id) {
      var el = byId(cell.root, id);
      if (el && el.parentNode === list) el.remove();
    });
    var top = {};
    var prepend = data.prepend || [];
    prepend.forEach(function (id) { top[id] = true; });
    Object.keys(data.html).forEach(function (id) {
      if (!top[id] && byId(cell.root, id)) swapIn(cell, id, data.html[id]);
    });
    var first = list.firstElementChild;
    prepend.forEach(function (id) {
      var html = data.html[id];
      var el = html ? swapIn(cell, id, html) : byId(cell.root, id);
      if (el && el !== first) list.insertBefore(el, first);
    });
  }

  // An `item` event: the item page's #detail whole. The values that changed are marked;
  // the folds of its field tree that the reader opened or closed stay so.
  function applyItem(cell, data) {
    var detail = byId(cell.root, "detail");
    if (!detail || typeof data.html !== "string") return;
    var fresh = fragment(data.html);
    if (!fresh) return;
    refreshTimes(fresh);
    localizeTimes(fresh);
    markCells(detail, fresh);
    keepFolds(detail, fresh);
    detail.replaceWith(fresh);
    armImages(fresh);
  }

  // The path of a fold in an item's field tree: the names of the fields it sits in.
  function foldPath(el, root) {
    var names = [];
    for (var node = el; node && node !== root; node = node.parentElement) {
      if (node.classList.contains("field")) {
        var name = node.querySelector(":scope > dt");
        names.unshift(name ? name.textContent : "");
      }
    }
    return names.join("\u0000");
  }

  function keepFolds(old, fresh) {
    var folds = {};
    old.querySelectorAll("details[data-touched]").forEach(function (el) {
      folds[foldPath(el, old)] = el.open;
    });
    fresh.querySelectorAll("details").forEach(function (el) {
      var path = foldPath(el, fresh);
      if (!Object.prototype.hasOwnProperty.call(folds, path)) return;
      el.open = folds[path];
      el.dataset.touched = "1";
    });
  }

  function applyGone(cell) {
    var gone = byId(cell.root, "gone");
    if (gone) gone.hidden = false;
    cell.host.classList.add("item-gone");
  }

  function applyStatus(cell, html) {
    var fresh = typeof html === "string" ? fragment(html) : null;
    if (!fresh) return;
    var status = byId(cell.root, "status");
    if (status) {
      status.replaceWith(fresh);
      refreshTimes(fresh);
      return;
    }
    // A board's cells have no badge of their own: the board's banner takes the kind,
    // label and upstream's problem of theirs (a badge or a kiosk's banner alike).
    var banner = cell.root !== document ? document.getElementById("status") : null;
    var kind = /\b(?:badge|board-status)-([a-z]+)\b/.exec(fresh.className);
    if (!banner || !kind) return;
    banner.className = banner.className.replace(/\b(badge|board-status)-[a-z]+\b/g, "$1-" + kind[1]);
    var label = banner.querySelector(".badge-label");
    var freshLabel = fresh.querySelector(".badge-label");
    if (label && freshLabel && label.textContent !== freshLabel.textContent) label.textContent = freshLabel.textContent;
    var problem = banner.querySelector(".badge-problem");
    var freshProblem = fresh.querySelector(".badge-problem");
    if (problem && !freshProblem) problem.remove();
    else if (freshProblem && !problem) banner.appendChild(freshProblem);
    else if (problem && freshProblem && problem.textContent !== freshProblem.textContent) problem.textContent = freshProblem.textContent;
  }

  // /stats: whole parts (charts drawn on the server as SVG, the ticker) swapped by id.
  function applyFragments(cell, data) {
    if (!data.html || typeof data.html !== "object") return;
    Object.keys(data.html).forEach(function (id) {
      var el = byId(cell.root, id);
      var fresh = fragment(data.html[id]);
      if (!el || !fresh || fresh.id !== id) return;
      el.replaceWith(fresh);
      refreshTimes(fresh);
      localizeTimes(fresh);
    });
  }

  // /inspect: its parts swapped by id, the document tree whole (`inspect-tree`) or only the
  // nodes a change touched (`jt-…`); the tree keeps what the reader folded and unfolded
  // (by each node's JSON Pointer), so a live feed does not undo it.
  function applyInspect(cell, data) {
    if (!data.html || typeof data.html !== "object") return;
    var redrawn = Object.keys(data.html).filter(function (id) {
      return id === "inspect-tree" || id.indexOf("jt-") === 0;
    });
    var folds = {};
    var tree = byId(cell.root, "inspect-tree");
    if (tree && redrawn.length) {
      tree.querySelectorAll("details[data-touched]").forEach(function (el) {
        folds[el.dataset.path] = el.open;
      });
    }
    applyFragments(cell, data);
    applyRows(cell, data.rows);
    redrawn.forEach(function (id) {
      var el = byId(cell.root, id);
      if (!el) return;
      el.querySelectorAll("details[data-path]").forEach(function (details) {
        var path = details.dataset.path;
        if (Object.prototype.hasOwnProperty.call(folds, path)) {
          details.open = folds[path];
          details.dataset.touched = "1";
        }
      });
    });
  }

  // Rows of a table body edited in place (/inspect's event log): `remove` by id, `prepend`
  // put on top in order.
  function applyRows(cell, rows) {
    if (!rows || typeof rows !== "object") return;
    (rows.remove || []).forEach(function (id) {
      var el = byId(cell.root, id);
      if (el) el.remove();
    });
    var container = typeof rows.into === "string" ? byId(cell.root, rows.into) : null;
    if (!container) return;
    var top = container.firstChild;
    (rows.prepend || []).forEach(function (html) {
      var row = typeof html === "string" ? fragment(html) : null;
      if (!row) return;
      container.insertBefore(row, top);
      refreshTimes(row);
      localizeTimes(row);
    });
  }

  // A fold the reader made by hand is kept across updates.
  document.addEventListener("click", function (event) {
    var summary = event.target && event.target.closest ? event.target.closest("#inspect-tree summary, #detail summary") : null;
    if (summary && summary.parentElement) summary.parentElement.dataset.touched = "1";
  });

  // The badge while we are cut off: reconnecting, then stale since the moment we lost it.
  function showDisconnected() {
    var status = document.getElementById("status");
    if (!status || !disconnectedAt) return;
    var stale = performance.now() - disconnectedMono > 10000;
    var kind = stale ? "stale" : "reconnecting";
    var hhmm = new Date(disconnectedAt).toTimeString().slice(0, 5);
    status.className = status.className.replace(/\b(badge|board-status)-(live|connecting|waiting|failing|reconnecting|stale)\b/g, "$1-" + kind);
    var label = status.querySelector(".badge-label");
    if (label) label.textContent = stale ? "Stale since " + hhmm : "Reconnecting…";
    // What upstream did last is not news while feedweb itself cannot be reached.
    var problem = status.querySelector(".badge-problem");
    if (problem) problem.remove();
  }

  // ---- Holding the stream (the leader, or a page on its own) --------------------------

  // The leader's stream: the views it was opened for, and how it stands.
  var source = null;
  var sourceViews = "";
  var attempt = 0;
  var streamState = "closed";
  // How many times this page opened the stream (a board's rotation never reopens it).
  var opened = 0;

  function setStreamState(state) {
    streamState = state;
    body.dataset.streamState = state;
    if (state === "open") {
      disconnectedAt = null;
    } else if (state === "closed" && !disconnectedAt && sourceViews) {
      disconnectedAt = Date.now();
      disconnectedMono = performance.now();
      showDisconnected();
    }
    if (share && share.leading) share.beat();
  }

  // The views the stream must carry now: every active page's, this one's too.
  function wantedViews() {
    var views = {};
    if (active()) cellViews().forEach(function (name) { views[name] = true; });
    if (share && share.leading) share.activeViews(views);
    return Object.keys(views).sort();
  }

  // The names the pages served gave themselves.
  function wantedScreens() {
    var screens = {};
    if (screen) screens[screen] = true;
    if (share && share.leading) share.screens(screens);
    return Object.keys(screens).sort().slice(0, 16);
  }

  function streamURL(views, screens) {
    var params = new URLSearchParams();
    views.forEach(function (name) {
      params.append("v", lastIds[name] ? name + "@" + lastIds[name] : name);
    });
    screens.forEach(function (name) {
      params.append("screen", name);
    });
    // The static files' version this page links: another served now (a deploy while this
    // screen was cut off) makes the stream's first event `reload`.
    if (assetVersion) params.append("asset", assetVersion);
    return "/events/page?" + params.toString();
  }

  // Opens, reopens or closes the stream so that it carries exactly the wanted views.
  function connect() {
    if (typeof EventSource === "undefined") return;
    if (share && !share.leading) return;
    var views = wantedViews();
    var screens = wantedScreens();
    var key = views.join("\n") + "\n\n" + screens.join("\n");
    if (source && key === sourceViews) return;
    closeSource();
    sourceViews = key;
    if (views.length === 0) {
      setStreamState("closed");
      return;
    }
    clearTimeout(retryTimer);
    source = new EventSource(streamURL(views, screens));
    opened += 1;
    setStreamState("connecting");
    source.onopen = function () {
      attempt = 0;
      setStreamState("open");
    };
    source.onerror = function () {
      // Our own reconnect, with backoff and each view's last id (EventSource's own is
      // fixed-interval and knows one id).
      closeSource();
      setStreamState("closed");
      var delay = Math.min(maxDelay, 1000 * Math.pow(2, attempt));
      attempt += 1;
      retryTimer = setTimeout(function () {
        sourceViews = "";
        connect();
      }, delay / 2 + Math.random() * delay / 2);
    };
    ["items", "item", "gone", "status", "stats", "inspect", "reload"].forEach(function (type) {
      source.addEventListener(type, function (event) {
        if (share) share.relay(type, event.data, event.lastEventId);
        receive(type, event.data, event.lastEventId);
      });
    });
  }

  // A change of the wanted views, coalesced with the others of the same task (a timer
  // would wait up to a second in a tab the browser throttles).
  var viewsPending = false;
  function viewsChanged() {
    if (viewsPending) return;
    viewsPending = true;
    Promise.resolve().then(function () {
      viewsPending = false;
      connect();
    });
  }

  function closeSource() {
    if (source) {
      source.close();
      source = null;
    }
  }

  function disconnect() {
    clearTimeout(retryTimer);
    closeSource();
    sourceViews = "";
    setStreamState("closed");
  }

  // ---- Sharing it: the pages of a partition -----------------------------------------

  var share = null;
  var channelName = "feedweb-page-stream-1";
  var lockName = "feedweb-page-stream";
  var beatEvery = 400;
  // Without a heartbeat for this long a follower asks the leader whether it is there (a tab
  // the browser throttles beats once a second, but answers a message at once) ...
  var silentFor = 1000;
  // ... and without an answer for this long more, the leader counts as frozen and its lock
  // is stolen.
  var answerWithin = 300;

  function makeShare() {
    var channel = new BroadcastChannel(channelName);
    var me = Math.random().toString(36).slice(2) + Date.now().toString(36);
    var pages = {}; // page -> { view, active, seen }
    var self = {
      leading: false,
      term: 0,
      leaderTerm: 0,
      leaderPage: "",
      leaderState: "",
      lastBeat: performance.now(), // the page's own clock: a stepped wall clock moves nothing
      waiting: null, // the AbortController of this page's queued lock request
      resign: null,  // resolves the lock held while leading
      requeue: false, // to get back in line once the next leader beats
      sent: 0 // frames relayed in this term
    };

    function post(message) {
      message.p = me;
      try {
        channel.postMessage(message);
      } catch (error) {
        // A page being torn down may no longer post; nothing to do.
      }
    }

    // Direct ports. The broker (a SharedWorker: Public/page-ports.js) hands the leader of
    // a term one end of a MessageChannel for each other page and that page the other end.
    // The leader numbers its frames in the term (`k`: 1, 2, …) and sends each through
    // every port it holds and on the channel. The channel carries every frame, in order;
    // a port is only quicker. A page applies frame `k` once, from whichever way it comes
    // first, and in order: a frame ahead of the one due waits (it came through the port
    // before the one before it came on the channel), one already applied is dropped. The
    // first frame due is the first the page gets on the channel, so nothing a port brings
    // can make it skip one. Port or broker gone: the channel goes on alone.
    var brokers = []; // connections to the broker, newest last (see announce)
    var asked = 0; // announcements sent to the broker, and the last it answered
    var answered = 0;
    var peers = {}; // page -> MessagePort, while leading (for self.term)
    var links = []; // { port, term }: ports from leaders, newest last
    var nextK = 0; // the frame due from the leader of self.leaderTerm; 0 before the first
    var ahead = {}; // k -> { m, via }: frames that came before the one due
    var aheadCount = 0;
    var aheadAtMost = 512;

    function tellBroker(message) {
      var broker = brokers[brokers.length - 1];
      if (!broker) return;
      message.p = me;
      try {
        broker.port.postMessage(message);
      } catch (error) {
        // A page being torn down may no longer post.
      }
    }

    // Connects to the broker, keeping up to two earlier connections open: one that did not
    // answer in time may only be slow, and the ports it still brings are used.
    function openBroker() {
      if (typeof SharedWorker === "undefined" || typeof MessageChannel === "undefined") return;
      var url = /\/app\.js(\?|$)/.test(scriptURL)
        ? scriptURL.replace(/\/app\.js(\?|$)/, "/page-ports.js$1")
        : "/static/page-ports.js";
      var opened;
      try {
        opened = new SharedWorker(url);
      } catch (error) {
        return; // e.g. not allowed in this context: the channel carries everything
      }
      brokers.push(opened);
      while (brokers.length > 3) brokers.shift().port.close();
      opened.onerror = function () {
        var at = brokers.indexOf(opened);
        if (at >= 0) brokers.splice(at, 1);
      };
      opened.port.onmessage = function (event) {
        var m = event.data;
        var port = event.ports && event.ports[0];
        if (!m || typeof m !== "object") return;
        if (!port) {
          if (m.t === "ok" && typeof m.n === "number" && m.n > answered) answered = m.n;
          return;
        }
        var fine = typeof m.term === "number" && typeof m.p === "string" && m.p.length <= 64;
        if (fine && m.t === "follower") addPeer(m.p, m.term, port);
        else if (fine && m.t === "leader") addLink(m.term, port);
        else port.close();
      };
      opened.port.start();
    }

    // Tells the broker this page is here (`{t: "page"}`) or leads (`{t: "lead", term}`).
    // A broker that does not answer within 2 s may be gone (it ran in the process of a
    // leader that crashed): the page connects again, which reaches a new one if so, and
    // tells it again.
    function announce(message) {
      if (brokers.length === 0) openBroker();
      if (brokers.length === 0) return;
      var n = ++asked;
      message.n = n;
      tellBroker(message);
      setTimeout(function () {
        if (answered >= n || asked !== n || unloading) return;
        openBroker();
        message.n = ++asked;
        tellBroker(message);
      }, 2000);
    }

    // A leader tells the broker once it knows of another page: a page on its own starts
    // no worker. Followers tell it when they hear of a new leader.
    var announcedTerm = 0;
    function announceLead() {
      if (!self.leading || announcedTerm === self.term || Object.keys(pages).length === 0) return;
      announcedTerm = self.term;
      announce({ t: "lead", term: self.term });
    }

    function closePeer(page) {
      if (!peers[page]) return;
      peers[page].close();
      delete peers[page];
    }

    function closePeers() {
      Object.keys(peers).forEach(closePeer);
    }

    // A new term: the ports of other terms closed, the frame count started afresh.
    function newTerm(term) {
      links = links.filter(function (link) {
        if (link.term === term) return true;
        link.port.close();
        return false;
      });
      nextK = 0;
      ahead = {};
      aheadCount = 0;
    }

    function addPeer(page, term, port) {
      if (!self.leading || term !== self.term || page === me) {
        port.close();
        return;
      }
      closePeer(page);
      peers[page] = port;
    }

    // A port from the leader of `term` (which may come before this page hears of it).
    function addLink(term, port) {
      if (self.leading || term < self.leaderTerm) {
        port.close();
        return;
      }
      links.push({ port: port, term: term });
      while (links.length > 4) links.shift().port.close();
      port.onmessage = function (event) {
        var m = event.data;
        if (valid(m) && m.t === "frame" && m.term === term && typeof m.k === "number") take(m, "port");
      };
    }

    // Frame `m.k` of the leader's term, through `via` ("channel" or "port").
    function take(m, via) {
      if (self.leading || m.term !== self.leaderTerm) return;
      if (!nextK) {
        if (via !== "channel") return keepAhead(m, via);
        nextK = m.k;
        Object.keys(ahead).forEach(function (k) {
          if (Number(k) < nextK) {
            delete ahead[k];
            aheadCount -= 1;
          }
        });
      }
      if (m.k < nextK) return; // applied already
      if (m.k > nextK) return keepAhead(m, via);
      receive(m.type, m.data, m.id, via);
      nextK += 1;
      while (ahead[nextK]) {
        var next = ahead[nextK];
        delete ahead[nextK];
        aheadCount -= 1;
        receive(next.m.type, next.m.data, next.m.id, next.via);
        nextK += 1;
      }
    }

    // A frame that came early. Forgetting them all is always safe: the channel brings each.
    function keepAhead(m, via) {
      if (ahead[m.k]) return;
      if (aheadCount >= aheadAtMost) {
        ahead = {};
        aheadCount = 0;
      }
      ahead[m.k] = { m: m, via: via };
      aheadCount += 1;
    }

    // How this page gets its frames: "stream" (leading), "port" (a port from the leader,
    // besides the channel) or "channel".
    self.route = function () {
      if (self.leading) return "stream";
      var linked = links.some(function (link) {
        return link.term === self.leaderTerm;
      });
      return linked ? "port" : "channel";
    };

    self.hello = function () {
      post({ t: "hello", view: view, views: cellViews(), active: active(), screen: screen });
    };

    self.activeViews = function (views) {
      var now = performance.now();
      Object.keys(pages).forEach(function (page) {
        var entry = pages[page];
        if (now - entry.seen > 30000) {
          delete pages[page];
          closePeer(page);
        }
        else if (entry.active) {
          (entry.views || [entry.view]).forEach(function (name) {
            if (name) views[name] = true;
          });
        }
      });
    };

    self.screens = function (screens) {
      Object.keys(pages).forEach(function (page) {
        var entry = pages[page];
        if (entry.active && entry.screen) screens[entry.screen] = true;
      });
    };

    self.beat = function () {
      if (self.leading) post({ t: "beat", term: self.term, state: streamState });
    };

    self.relay = function (type, data, id) {
      if (!self.leading) return;
      self.sent += 1;
      var frame = { t: "frame", term: self.term, k: self.sent, type: type, data: data, id: id || "", p: me };
      Object.keys(peers).forEach(function (page) {
        peers[page].postMessage(frame);
      });
      post(frame);
    };

    // Whether a message is well formed (anything else is ignored).
    function valid(m) {
      if (!m || typeof m !== "object" || typeof m.t !== "string" || typeof m.p !== "string") return false;
      if (m.p.length > 64) return false;
      switch (m.t) {
        case "hello":
          return typeof m.view === "string" && m.view.length <= 2048 && typeof m.active === "boolean" &&
            (m.screen === undefined || (typeof m.screen === "string" && m.screen.length <= 64)) &&
            (m.views === undefined || (Array.isArray(m.views) && m.views.length <= 64 &&
              m.views.every(function (name) { return typeof name === "string" && name.length <= 2048; })));
        case "bye": case "ping": return true;
        case "beat": return typeof m.term === "number" && typeof m.state === "string";
        case "frame":
          return typeof m.term === "number" && typeof m.type === "string" && typeof m.data === "string" &&
            typeof m.id === "string" && (m.k === undefined || (typeof m.k === "number" && m.k >= 1));
        default: return false;
      }
    }

    // A message from the leader of `term`: a newer term is a new leader (and ends ours).
    function fromLeader(m) {
      if (m.term < self.leaderTerm) return false;
      if (m.term > self.leaderTerm) {
        self.leaderTerm = m.term;
        self.leaderPage = m.p;
        newTerm(m.term);
        if (self.leading && m.term > self.term) stepDown(false);
        if (!self.leading) announce({ t: "page" });
        if (self.requeue) queue(false);
        self.hello(); // the new leader learns this page's view
      }
      self.lastBeat = performance.now();
      return true;
    }

    channel.onmessage = function (event) {
      var m = event.data;
      if (!valid(m)) return;
      switch (m.t) {
        case "hello":
          pages[m.p] = { view: m.view, views: m.views, active: m.active, screen: m.screen || "", seen: performance.now() };
          announceLead();
          if (self.leading && !handOverIfHidden()) {
            self.beat();
            viewsChanged();
          }
          break;
        case "bye":
          // A leader that leaves releases its lock: the next page in line takes over.
          delete pages[m.p];
          closePeer(m.p);
          if (self.leading) viewsChanged();
          break;
        case "ping":
          self.beat();
          break;
        case "beat":
          if (!fromLeader(m)) return;
          if (!self.leading) followState(m.state);
          break;
        case "frame":
          if (!fromLeader(m) || self.leading) return;
          // A leader of an older version numbers nothing: its frames as they come.
          if (m.k === undefined) receive(m.type, m.data, m.id, "channel");
          else take(m, "channel");
          break;
      }
    };

    // A follower shows the leader's connection state as its own.
    function followState(state) {
      if (state === self.leaderState) return;
      self.leaderState = state;
      if (state === "open") {
        disconnectedAt = null;
      } else if (state === "closed" && !disconnectedAt) {
        disconnectedAt = Date.now();
        disconnectedMono = performance.now();
        showDisconnected();
      }
      body.dataset.streamState = state;
    }

    function lead() {
      self.leading = true;
      self.waiting = null;
      // Above every term this page has seen, so that the others follow it even when the
      // wall clock was set back since the last leader began (NTP, a kiosk's clock).
      self.term = Math.max(Date.now() * 1000, self.leaderTerm + 1000) + Math.floor(Math.random() * 1000);
      self.leaderTerm = self.term;
      self.leaderPage = me;
      newTerm(0);
      closePeers();
      self.sent = 0;
      self.beat();
      announceLead();
      var held = new Promise(function (resolve) {
        self.resign = resolve;
      });
      if (!handOverIfHidden()) connect();
      return held;
    }

    // A hidden leader (not a kiosk) hands the stream over to a shown page, if there is one
    // (a hidden page's timers are throttled, its heartbeat with them). Whether it did.
    function handOverIfHidden() {
      if (!self.leading || active()) return false;
      var others = {};
      self.activeViews(others);
      if (Object.keys(others).length === 0) return false;
      stepDown(true);
      return true;
    }

    // Stops leading and gets back in line: at once, or (`handingOver`, a hidden page
    // leaving the lead to a shown one) once the next leader has beaten, so that the lock
    // goes to a shown page rather than back to this one.
    function stepDown(handingOver) {
      if (!self.leading) return;
      self.leading = false;
      closePeers();
      disconnect();
      if (self.resign) self.resign();
      self.resign = null;
      // The next leader's heartbeat starts the silence count afresh.
      self.lastBeat = performance.now();
      if (handingOver) {
        self.requeue = true;
        setTimeout(function () { if (self.requeue) queue(false); }, 2000);
      } else {
        setTimeout(function () { queue(false); }, 0);
      }
    }

    // Waits in line for the lock (or, `steal`, takes it from a leader that went silent).
    function queue(steal) {
      self.requeue = false;
      if (self.leading || unloading) return;
      if (self.waiting) self.waiting.abort();
      var options = {};
      if (steal) {
        options.steal = true;
        self.waiting = null;
      } else {
        self.waiting = new AbortController();
        options.signal = self.waiting.signal;
      }
      navigator.locks.request(lockName, options, lead).catch(function () {
        // Aborted (we stole instead) or stolen from us: if we were leading, we are not.
        if (self.leading) stepDown(false);
      });
    }

    // A leader that is hidden hands over to a shown page, if there is one.
    self.visibilityChanged = function () {
      self.hello();
      if (self.leading && !handOverIfHidden()) connect();
    };

    var pingedAt = 0;
    setInterval(function () {
      var now = performance.now();
      if (self.leading) {
        self.beat();
      } else if (!active() || now - self.lastBeat <= silentFor) {
        pingedAt = 0;
      } else if (!pingedAt) {
        pingedAt = now;
        post({ t: "ping" });
      } else if (now - pingedAt > answerWithin + Math.random() * 200) {
        // The leader is frozen or gone without a word: take the lock from it.
        pingedAt = 0;
        self.lastBeat = now;
        queue(true);
      }
    }, beatEvery / 2);
    // Now and then, so a new leader (or one that expired this page) knows it.
    setInterval(self.hello, 5000);

    var unloading = false;
    window.addEventListener("pagehide", function () {
      unloading = true;
      post({ t: "bye" });
      tellBroker({ t: "bye" });
      if (self.leading) disconnect();
    });

    self.hello();
    queue(false);
    return self;
  }

  // Hidden tabs leave the stream (a kiosk never does) and come back when shown again.
  document.addEventListener("visibilitychange", function () {
    if (isKiosk || isBoard) return;
    if (share) {
      share.visibilityChanged();
    } else if (document.hidden) {
      disconnect();
    } else {
      connect();
    }
  });

  function start() {
    if (!view || typeof EventSource === "undefined") return;
    if (typeof BroadcastChannel !== "undefined" && navigator.locks && typeof AbortController !== "undefined") {
      share = makeShare();
    } else {
      connect();
    }
  }

  // The kiosk cycles its highlighted story (each kiosk of a board its own).
  function cycleFeatured() {
    cells.forEach(function (cell) {
      if (!cell.kiosk) return;
      var list = byId(cell.root, "stories");
      if (!list || !list.firstElementChild) return;
      var current = list.querySelector(".is-featured") || list.firstElementChild;
      var next = current.nextElementSibling || list.firstElementChild;
      current.classList.remove("is-featured");
      next.classList.add("is-featured");
    });
  }

  function tickClock() {
    eachRoot(function (root) {
      var clock = byId(root, "clock");
      if (clock) clock.textContent = new Date().toTimeString().slice(0, 5);
    });
  }

  window.feedweb = {
    armImages: armImages,
    refreshTimes: refreshTimes,
    connect: connect,
    disconnect: disconnect,
    // For tests: whether this page holds the stream, and the frames it applied.
    role: function () { return share ? (share.leading ? "leader" : "follower") : "alone"; },
    route: function () { return share ? share.route() : "stream"; },
    applied: function () { return applied.slice(); },
    opened: function () { return opened; },
    // Tells `listener(type, data, id)` of every frame this page applies (after it did).
    onFrame: function (listener) { frameListeners.push(listener); },
    // The views this page shows, and the root each is found in (a board's cells).
    cells: function () {
      return cells.map(function (cell) { return { view: cell.view, root: cell.root }; });
    },
    // Renders times, thumbnails and the kiosk's clock in `root` (a copy a board shows).
    prepare: function (root) {
      armImages(root);
      refreshTimes(root);
      localizeTimes(root);
    }
  };
  eachRoot(function (root) {
    armImages(root);
    refreshTimes(root);
    localizeTimes(root);
    fit(root);
  });
  // A cell's stylesheets (linked again in its shadow root) may arrive after the script
  // ran, and the fonts after them: what fits is measured again then.
  eachRoot(function (root) {
    if (root === document || !root.querySelectorAll) return;
    root.querySelectorAll('link[rel="stylesheet"]').forEach(function (link) {
      if (!link.sheet) link.addEventListener("load", function () { fit(root); });
    });
  });
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(function () { eachRoot(fit); });
  var fitting = 0;
  window.addEventListener("resize", function () {
    clearTimeout(fitting);
    fitting = setTimeout(function () { eachRoot(fit); }, 150);
  });
  setInterval(function () {
    eachRoot(refreshTimes);
    if (disconnectedAt) showDisconnected();
  }, 5000);
  if (isKiosk || cells.some(function (cell) { return cell.kiosk; })) {
    tickClock();
    setInterval(tickClock, 10000);
    setInterval(cycleFeatured, 8000);
  }
  start();
})();
