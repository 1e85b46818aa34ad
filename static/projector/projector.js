/* A projector view (the standings' projector, the seating with ?refresh=): the element with data-refresh
   reads the page anew after that many seconds, or turns to data-next; the pause button (aria-pressed) stops
   and restarts it, so that nobody is hurried by a page that changes by itself. Without JavaScript the page's
   <noscript> meta refresh does the same, without the pause.
   With data-live (its tournament's event stream), a page that shows everything on one screen is also read
   anew as soon as the stream tells a change (a result confirmed, a round seated) — not at the first event
   after a load: the stream's position is kept across the reload (sessionStorage) and sent back (?last=), so
   that only a change since the page was read brings another reload. */
function turnPages() {
  var view = document.querySelector("[data-refresh]");
  var seconds = view ? Number(view.getAttribute("data-refresh")) : 0;
  if (!seconds) { return; }
  var next = view.getAttribute("data-next") || window.location.href;
  var timer = null;

  function start() {
    timer = window.setTimeout(function () { window.location.assign(next); }, seconds * 1000);
  }

  function stop() {
    window.clearTimeout(timer);
    timer = null;
  }

  var live = view.getAttribute("data-live");
  if (live && window.EventSource && !view.getAttribute("data-next")) {
    var kept = "stream:" + live;
    var last = null;
    try { last = window.sessionStorage.getItem(kept); } catch (ignored) { last = null; }
    var stream = new EventSource(live + (last ? (live.indexOf("?") < 0 ? "?" : "&") + "last=" + encodeURIComponent(last) : ""));
    stream.addEventListener("change", function (event) {
      try { window.sessionStorage.setItem(kept, event.lastEventId); } catch (ignored) { /* private mode */ }
      if (last !== null && timer !== null) { stream.close(); window.location.assign(next); }
      last = event.lastEventId;
    });
  }

  var pause = document.querySelector("[data-pause]");
  if (pause) {
    pause.hidden = false;
    pause.addEventListener("click", function () {
      if (timer === null) { start(); } else { stop(); }
      pause.setAttribute("aria-pressed", timer === null ? "true" : "false");
    });
  }
  start();
}

turnPages();
