/* The one live-update client: every page that updates itself (the console, a participant's page, the
   standings, the seating, the round page, the projector views) hears of a change through this module.

   listen(address, options): a tournament's or a table's event stream (tournament/streams), each change told
   to options.told(detail, {first}) (detail: the event's JSON, {} when polled; first: no position of the
   stream was known before it). The browser reconnects a dropped stream by itself, resuming from its last
   event's id. Options (each user's own):
   - every: seconds; without EventSource, or while the stream is refused (the streams' server restarting), a
     change told every that many seconds instead (the polling the pages did before); 0: none (the projector);
   - always: that polling runs even while the stream is open (the console: its own check that the server is
     there and its game unchanged, every few seconds, as it did before the streams);
   - retry: a refused stream tried again after a while, longer each time (10 s, doubled, at most 5 min);
     false: not (the projector: it turns its pages anyway);
   - resume: the stream's position kept across a reload of the page (sessionStorage) and sent back (?last=),
     so that only a change since the page was read is told as not first (the projector's reload).
   Answers {close()}.

   followPage(options): a page whose element with data-live names its stream: at each change the stream
   tells, a "live" event is sent on the body, and the page's own htmx request (hx-trigger="live from:body")
   reads it anew (options.told(detail) instead: the console, without htmx):
   - data-live-version: the game's version the page shows; a change to that very version (the referee's own
     move, already on his screen) reads nothing;
   - a change of a table reads at once; a change of the whole tournament (a result, a round seated, a
     check-in) reaches every phone in the hall at the same instant: each asks at a moment of its own within
     data-live-spread seconds (default 3), and several such changes meanwhile make one request;
   - data-live-at-most: at most one request in that many seconds, the last change never dropped (the round
     page, whose tables move all the time);
   - data-live-every: listen()'s every (default 20; options.every first), options.always: listen()'s always;
   - an answer 286 ("stop asking": a revoked link's page) closes the stream for good;
   - a change told while the page's own request is under way is asked for when that request ends (its new
     content in place): htmx's hx-sync queue would lose it, queued on the element the answer swaps out.
   An htmx swap that brings another data-live address (a participant seated at a new table) follows that one.

   notWhileTyping(within, {until}): a page not swapped while the user types: heldBack(again) answers true
   while a field (input, select, textarea) of ``within`` (an element, or a function finding it) has the focus,
   or options.busy() says so, and calls again() once: when he leaves the field (until: "blur", the console),
   or that many milliseconds later (the participant's page: it asks anew, and may be held back again). */

const FIRST_RETRY_MS = 10000;
const LAST_RETRY_MS = 300000;

// -- the stream -----------------------------------------------------------------------------------------------
export function listen(address, options) {
  const told = options.told;
  const every = options.every === undefined ? 20 : options.every;
  const retrying = options.retry !== false;
  const kept = options.resume ? "stream:" + address : null;
  let stream = null;
  let timer = null;
  let retry = null;
  let retryMs = FIRST_RETRY_MS;
  let closed = false;
  let last = null;  // the stream's position, where known
  if (kept) {
    try { last = window.sessionStorage.getItem(kept); } catch (ignored) { last = null; }
  }

  function poll() {
    if (timer === null && every > 0) { timer = window.setInterval(function () { told({}, { first: false }); }, every * 1000); }
  }

  function unpoll() {
    if (timer !== null && !options.always) { window.clearInterval(timer); timer = null; }
  }

  function open() {
    const opened = new EventSource(last && kept ? address + (address.indexOf("?") < 0 ? "?" : "&") + "last=" + encodeURIComponent(last) : address);
    stream = opened;
    opened.addEventListener("open", function () { retryMs = FIRST_RETRY_MS; unpoll(); });
    opened.addEventListener("change", function (event) {
      let detail = {};
      try { detail = JSON.parse(event.data); } catch (ignored) { detail = {}; }
      const first = last === null;
      last = event.lastEventId;
      if (kept) {
        try { window.sessionStorage.setItem(kept, event.lastEventId); } catch (ignored) { /* private mode */ }
      }
      told(detail, { first: first });
    });
    opened.addEventListener("error", function () {
      if (opened.readyState !== EventSource.CLOSED || stream !== opened) { return; }  // reconnecting by itself
      stream = null;  // refused (not 200): poll, and try the stream again later
      poll();
      if (!retrying) { return; }
      retry = window.setTimeout(function () { retry = null; if (!closed) { open(); } }, retryMs);
      retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
    });
  }

  if (options.always) { poll(); }
  if (!address || !window.EventSource) { poll(); } else { open(); }  // (a game at no table: no stream)
  return {
    close: function () {
      closed = true;
      if (stream !== null) { stream.close(); stream = null; }
      if (retry !== null) { window.clearTimeout(retry); retry = null; }
      if (timer !== null) { window.clearInterval(timer); timer = null; }
    }
  };
}

// -- a page that reads itself anew --------------------------------------------------------------------------
export function followPage(options) {
  options = options || {};
  let listening = null;
  let followed = null;
  let spread = null;  // a tournament's change waiting for its moment
  let held = null;  // a change waiting for the end of data-live-at-most
  let lastAsked = 0;
  let stopped = false;
  let asking = false;  // the page's own request under way
  let again = null;  // a change told meanwhile

  function element() { return document.querySelector("[data-live]"); }

  function seconds(name, otherwise) {
    const shown = element();
    const value = shown ? Number(shown.getAttribute(name)) : NaN;
    return value > 0 ? value : otherwise;
  }

  function ask(detail) {
    if (asking) { again = detail; return; }
    const atMost = seconds("data-live-at-most", 0) * 1000;
    const wait = lastAsked + atMost - Date.now();
    if (atMost && wait > 0) {
      if (held === null) {
        held = window.setTimeout(function () { held = null; ask({}); }, wait);
      }
      return;
    }
    lastAsked = Date.now();
    if (options.told) { options.told(detail); } else { document.body.dispatchEvent(new CustomEvent("live", { detail: detail })); }
  }

  function tell(detail) {
    const shown = element();
    const version = shown && shown.getAttribute("data-live-version");
    if (version !== null && version !== undefined && detail.version !== undefined && String(detail.version) === version) {
      return;
    }
    const changed = detail.changed || [];
    const ofTable = changed.length === 0 || changed.some(function (topic) { return topic.indexOf("table") === 0; });
    if (ofTable) {  // at once (and the tournament's change waiting is read with it)
      if (spread !== null) { window.clearTimeout(spread); spread = null; }
      ask(detail);
      return;
    }
    if (spread !== null) { return; }  // one request for them all, at the moment already drawn
    spread = window.setTimeout(function () { spread = null; ask(detail); },
      Math.random() * seconds("data-live-spread", 3) * 1000);
  }

  function close() {
    if (listening !== null) { listening.close(); listening = null; }
  }

  function follow() {
    if (stopped) { return; }
    const shown = element();
    const address = shown ? shown.getAttribute("data-live") : null;
    if (address === followed) { return; }
    close();
    followed = address;
    if (!shown) { return; }
    listening = listen(address, { told: tell, every: options.every || seconds("data-live-every", 20), always: options.always });
  }

  function askAgain() {
    if (again === null || asking) { return; }
    const detail = again;
    again = null;
    ask(detail);
  }

  // the element whose request it is (a swapped-out element's events are told on the nearest ancestor left)
  function requester(event) { return (event.detail.requestConfig || {}).elt || event.detail.elt; }

  function reading(elt) { return !!(elt && elt.matches && elt.matches("[hx-trigger~='live']")); }

  // (beforeSend, not beforeRequest: a request another script cancels is never sent, and never ends)
  document.addEventListener("htmx:beforeSend", function (event) {
    if (reading(requester(event))) { asking = true; }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.xhr && event.detail.xhr.status === 286) {  // "stop asking" (a revoked link's page)
      stopped = true;
      close();
    }
    const elt = requester(event);
    if (!reading(elt)) { return; }
    asking = false;
    // nothing swapped (a 204, a failure): once htmx has ended the request; else at the new content's settle
    // (htmx:afterSettle below), or a second later should the answer not be swapped in
    window.setTimeout(askAgain, document.body.contains(elt) ? 0 : 1000);
  });
  document.addEventListener("htmx:afterSettle", function () { follow(); askAgain(); });
  follow();
}

// -- not while typing -----------------------------------------------------------------------------------------
export function notWhileTyping(within, options) {
  const until = options.until;
  let waiting = false;
  return function heldBack(again) {
    const place = typeof within === "function" ? within() : within;
    const field = document.activeElement;
    const typing = !!(place && field && place.contains(field) && field.matches("input, textarea, select"));
    if (!typing && !(options.busy && options.busy())) { return false; }
    if (!waiting) {
      waiting = true;
      const go = function () { waiting = false; again(); };
      if (until === "blur") { field.addEventListener("blur", go, { once: true }); } else { window.setTimeout(go, until); }
    }
    return true;
  };
}
