/* A projector view (the standings' projector, the seating with ?refresh=): the element with data-refresh
   reads the page anew after that many seconds, or turns to data-next; the pause button (aria-pressed) stops
   and restarts it, so that nobody is hurried by a page that changes by itself. Without JavaScript the page's
   <noscript> meta refresh does the same, without the pause.
   With data-live (its tournament's event stream), a page that shows everything on one screen is also read
   anew as soon as the stream tells a change (a result confirmed, a round seated) — not at the first event
   after a load: the stream's position is kept across the reload and sent back (site/live.js's listen, with
   resume), so that only a change since the page was read brings another reload. */
import { listen } from "../site/live.js";

function turnPages(view) {
  const seconds = Number(view.getAttribute("data-refresh"));
  if (!seconds) { return; }
  const next = view.getAttribute("data-next") || window.location.href;
  let timer = null;
  let leaving = false;  // the page is being read anew: by its timer or by the stream, never by both

  function leave() {
    if (leaving) { return; }
    leaving = true;
    window.clearTimeout(timer);
    window.location.assign(next);
  }

  function start() {
    timer = window.setTimeout(leave, seconds * 1000);
  }

  function stop() {
    window.clearTimeout(timer);
    timer = null;
  }

  const live = view.getAttribute("data-live");
  if (live && !view.getAttribute("data-next")) {
    const listening = listen(live, {
      resume: true, every: 0, retry: false,  // (no polling, no retrying: the pages turn anyway)
      told: function (detail, how) {
        if (!how.first && timer !== null) { listening.close(); leave(); }
      }
    });
  }

  const pause = document.querySelector("[data-pause]");
  if (pause) {
    pause.hidden = false;
    pause.addEventListener("click", function () {
      if (leaving) { return; }
      if (timer === null) { start(); } else { stop(); }
      pause.setAttribute("aria-pressed", timer === null ? "true" : "false");
    });
  }
  start();
}

const view = document.querySelector("[data-refresh]");
if (view) { turnPages(view); }
