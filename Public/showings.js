// feedweb: what a named screen showed. A board or kiosk opened with `?screen=NAME` tells
// feedweb each thing it put on the screen (a board's rotation step or its cells at once, a
// marked item shown full screen, the dim going on or off), and /inspect lists them by
// name. Each report is a beacon, `POST /screens/shown?screen=NAME&view=…` (or
// `attention=ID&label=…`, or `dim=on|off`), that needs no answer; a screen without a name
// reports nothing. Plain JavaScript, no build step, no inline code. See docs/behaviour.md,
// "Boards".
(function () {
  "use strict";

  var name = "";
  try {
    name = new URLSearchParams(window.location.search).get("screen") || "";
  } catch (error) {
    name = "";
  }
  // As the server checks it (Sources/WebUI/Inspect/ScreenName.swift).
  if (!/^[A-Za-z0-9._:-]{1,64}$/.test(name)) name = "";

  // `kind` is view, attention or dim; `value` and `label` are cut to 120 characters (at
  // most 360 bytes of UTF-8, under the server's 400).
  function report(kind, value, label) {
    if (!name || !value) return;
    var params = new URLSearchParams();
    params.set("screen", name);
    params.set(kind, String(value).slice(0, 120));
    if (label) params.set("label", String(label).slice(0, 120));
    var url = "/screens/shown?" + params.toString();
    var sent = false;
    try {
      sent = !!(navigator.sendBeacon && navigator.sendBeacon(url));
    } catch (error) {
      sent = false;
    }
    if (!sent && window.fetch) {
      window.fetch(url, { method: "POST", keepalive: true }).catch(function () {});
    }
  }

  window.feedwebShowings = { screen: name, report: report };
})();
