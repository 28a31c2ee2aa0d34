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
  function refreshTimes(root) {
    var now = Date.now();
    root.querySelectorAll("time[data-relative]").forEach(function (el) {
      var date = new Date(el.getAttribute("datetime"));
      if (!isNaN(date)) el.textContent = describe(date, now);
    });
  }

  window.feedweb = { armImages: armImages, refreshTimes: refreshTimes };
  armImages(document);
  refreshTimes(document);
  setInterval(function () { refreshTimes(document); }, 15000);
})();
