// feedweb times: the server writes every moment as a <time> whose text it rendered in UTC
// (a date, a time of day) or as the time since it when it rendered it ("5 min ago"); this
// shows each in the viewer's zone and keeps the relative ones counting. Plain JavaScript,
// no build step, no inline code.
//
//   <time datetime=ISO data-local>            date and time in the viewer's zone
//   <time datetime=ISO data-clock>            the time of day in the viewer's zone
//   <time datetime=ISO data-relative>         "5 min ago", "in 5 min", "just now"
//   <time datetime=ISO data-relative=seconds> "42 s ago" under a minute (the status badge)
//
// On feedweb's own pages (`<body data-stream>`) it is loaded before app.js, which calls it
// for each fragment before showing it and every 5 s (and works without it). On any other
// page, one of your own that shows feedweb's fragments with htmx or Datastar
// (docs/dialects.md), it does the same by itself: for each <time> the page gets (a
// MutationObserver on the document) and every 5 s.
(function () {
  "use strict";

  // A moment to come reads "in 5 min"; RelativeTime.describe on the server says the same.
  function describe(date, now) {
    var elapsed = Math.round((now - date) / 1000);
    var seconds = Math.abs(elapsed);
    function said(span) { return elapsed < 0 ? "in " + span : span + " ago"; }
    if (seconds < 45) return "just now";
    if (seconds < 3600) return said(Math.max(1, Math.floor((seconds + 30) / 60)) + " min");
    if (seconds < 86400) return said(Math.floor(seconds / 3600) + " h");
    if (seconds < 7 * 86400) return said(Math.floor(seconds / 86400) + " d");
    return date.toISOString().slice(0, 10);
  }

  // The status badge counts seconds under a minute ("updated 42 s ago").
  function describeSeconds(date, now) {
    var seconds = Math.floor((now - date) / 1000);
    if (seconds < 60) return Math.max(0, seconds) + " s ago";
    return describe(date, now);
  }

  // The elements of `root` that match `selector`, `root` itself first when it does.
  function each(root, selector, action) {
    if (root.matches && root.matches(selector)) action(root);
    if (root.querySelectorAll) root.querySelectorAll(selector).forEach(action);
  }

  // Writes `text` only when it differs: a page watching its own changes (below, or a
  // user's MutationObserver) sees a change only where there was one.
  function put(el, text) {
    if (el.textContent !== text) el.textContent = text;
  }

  function moment(el) {
    var date = new Date(el.getAttribute("datetime"));
    return isNaN(date) ? null : date;
  }

  // The relative times in `root`, as of now.
  function refresh(root) {
    var now = Date.now();
    each(root, "time[data-relative]", function (el) {
      var date = moment(el);
      if (date) put(el, el.dataset.relative === "seconds" ? describeSeconds(date, now) : describe(date, now));
    });
  }

  // The dates and times of day in `root`, in the viewer's zone.
  function localize(root) {
    each(root, "time[data-clock]", function (el) {
      var date = moment(el);
      if (date) put(el, date.toLocaleTimeString());
    });
    each(root, "time[data-local]", function (el) {
      var date = moment(el);
      if (date) {
        put(el, date.toLocaleString(undefined, {
          year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit"
        }));
      }
    });
  }

  function show(root) {
    localize(root);
    refresh(root);
  }

  window.feedwebTimes = { describe: describe, refresh: refresh, localize: localize, show: show };

  if (document.body && document.body.hasAttribute("data-stream")) return;

  // A page of your own: what htmx swaps in or Datastar morphs is shown as it arrives
  // (the observer runs before the browser paints, so the server's text is never seen).
  show(document);
  new MutationObserver(function (records) {
    records.forEach(function (record) {
      if (record.type === "childList") {
        record.addedNodes.forEach(function (node) { if (node.nodeType === 1) show(node); });
      }
      // A <time> morphed in place: its text or its datetime changed.
      var target = record.target.nodeType === 1 ? record.target : record.target.parentElement;
      var time = target && target.closest ? target.closest("time") : null;
      if (time) show(time);
    });
  }).observe(document.documentElement, {
    childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ["datetime"]
  });
  setInterval(function () { refresh(document); }, 5000);
})();
