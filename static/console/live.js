/* Pages that update themselves (the console on a second device, a participant's page, the standings, the
   round page): the element with data-live names its event stream (tournament/streams); at each change the
   stream tells, a "live" event is sent on the body, and the page's own htmx request (hx-trigger="live from:body")
   reads it anew. The browser reconnects a dropped stream by itself, resuming from its last event's id.
   - data-live-version: the game's version the page shows; a change to that very version (the referee's own move,
     already on his screen) reads nothing;
   - data-live-every: without EventSource, or when the browser gives the stream up, a "live" event every that
     many seconds instead (the polling the page did before);
   - a change of the whole tournament is asked for within SPREAD_MS, at a moment of each phone's own;
   - an answer 286 ("stop asking": a revoked link's page) closes the stream for good.
   An htmx swap that brings another data-live address (a participant seated at a new table) follows that one. */
(function () {
  "use strict";
  var stream = null;
  var followed = null;
  var timer = null;
  var SPREAD_MS = 3000;

  function element() { return document.querySelector("[data-live]"); }

  function tell(detail) {
    var shown = element();
    var version = shown && shown.getAttribute("data-live-version");
    if (version !== null && version !== undefined && detail.version !== undefined && String(detail.version) === version) {
      return;
    }
    // a change of the whole tournament (a result, a round seated) reaches every phone in the hall at once:
    // they ask within the next few seconds, not all in the same instant; a table's own change at once
    var everyone = (detail.changed || []).some(function (topic) { return topic.indexOf("table") !== 0; });
    window.setTimeout(function () {
      document.body.dispatchEvent(new CustomEvent("live", { detail: detail }));
    }, everyone ? Math.random() * SPREAD_MS : 0);
  }

  function poll(seconds) {
    if (timer === null) { timer = window.setInterval(function () { tell({}); }, seconds * 1000); }
  }

  function follow() {
    var shown = element();
    var address = shown ? shown.getAttribute("data-live") : null;
    if (address === followed) { return; }
    if (stream !== null) { stream.close(); stream = null; }
    if (timer !== null) { window.clearInterval(timer); timer = null; }
    followed = address;
    if (!shown) { return; }
    var every = Number(shown.getAttribute("data-live-every")) || 20;
    if (!address || !window.EventSource) { poll(every); return; }  // (a game at no table: no stream)
    var opened = new EventSource(address);
    stream = opened;
    opened.addEventListener("change", function (event) {
      var detail = {};
      try { detail = JSON.parse(event.data); } catch (ignored) { detail = {}; }
      tell(detail);
    });
    opened.addEventListener("error", function () {
      if (opened.readyState === EventSource.CLOSED && stream === opened) { poll(every); }
    });
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.xhr && event.detail.xhr.status === 286) {  // "stop asking" (a revoked link's page)
      if (stream !== null) { stream.close(); stream = null; }
      if (timer !== null) { window.clearInterval(timer); timer = null; }
      followed = undefined;
      document.removeEventListener("htmx:afterSettle", follow);
    }
  });
  document.addEventListener("htmx:afterSettle", follow);
  follow();
}());
