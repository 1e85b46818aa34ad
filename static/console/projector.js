/* A projector view (the standings' projector, the seating with ?refresh=): the element with data-refresh
   reads the page anew after that many seconds, or turns to data-next; the pause button (aria-pressed) stops
   and restarts it, so that nobody is hurried by a page that changes by itself. Without JavaScript the page's
   <noscript> meta refresh does the same, without the pause. */
(function () {
  "use strict";
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

  var pause = document.querySelector("[data-pause]");
  if (pause) {
    pause.hidden = false;
    pause.addEventListener("click", function () {
      if (timer === null) { start(); } else { stop(); }
      pause.setAttribute("aria-pressed", timer === null ? "true" : "false");
    });
  }
  start();
}());
