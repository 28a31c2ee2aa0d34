// feedweb's port broker: a SharedWorker that introduces the pages of one storage partition
// to the page that leads them (see "Sharing it" in app.js). It never sees a frame: for the
// leader of a term and each other page it makes a MessageChannel and gives one end to each,
// so that the leader's frames go from renderer to renderer without the browser process's
// hop that a BroadcastChannel message takes. If it goes away, pages keep the ports they
// have and new pages get their frames on the channel.
//
// Messages from a page (anything else is ignored): {t: "page", p, n} (here I am),
// {t: "lead", p, term, n} (I lead from now, `term` as on the channel), {t: "bye", p}.
// To a page: {t: "ok", n} (the answer to `page` and `lead`: a page that gets none connects
// to a new broker), and, each with one port, {t: "follower", p, term} (to the leader: the
// port to page `p`) and {t: "leader", p, term} (to a follower: the port from the leader of
// `term`). A page may be introduced twice (it says `page` again at each new leader); the
// leader keeps the newest port, and either carries the same frames.
"use strict";

// page -> the port of its connection here, oldest first; at most `pagesAtMost` (a page
// that crashed never says bye, so the oldest are forgotten first).
var pages = new Map();
var pagesAtMost = 512;
// The leader of the newest term announced: { page, term }, or null.
var leader = null;

function remember(page, port) {
  pages.delete(page);
  pages.set(page, port);
  while (pages.size > pagesAtMost) pages.delete(pages.keys().next().value);
}

function introduce(follower) {
  if (!leader || follower === leader.page) return;
  var leading = pages.get(leader.page);
  var following = pages.get(follower);
  if (!leading || !following) return;
  var channel = new MessageChannel();
  following.postMessage({ t: "leader", p: leader.page, term: leader.term }, [channel.port2]);
  leading.postMessage({ t: "follower", p: follower, term: leader.term }, [channel.port1]);
}

self.onconnect = function (event) {
  var port = event.ports[0];
  port.onmessage = function (message) {
    var m = message.data;
    if (!m || typeof m !== "object" || typeof m.p !== "string" || m.p.length > 64) return;
    if ((m.t === "page" || m.t === "lead") && typeof m.n === "number") port.postMessage({ t: "ok", n: m.n });
    if (m.t === "page") {
      remember(m.p, port);
      introduce(m.p);
    } else if (m.t === "lead" && typeof m.term === "number") {
      remember(m.p, port);
      if (leader && m.term < leader.term) return;
      leader = { page: m.p, term: m.term };
      pages.forEach(function (_, page) {
        introduce(page);
      });
    } else if (m.t === "bye") {
      pages.delete(m.p);
      if (leader && leader.page === m.p) leader = null;
    }
  };
};
