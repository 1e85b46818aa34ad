/* Pages that update themselves (the console on a second device, a participant's page, the standings, the
   seating, the round page): the element with data-live names its event stream (tournament/streams); at each
   change the stream tells, a "live" event is sent on the body, and the page's own htmx request
   (hx-trigger="live from:body") reads it anew. The browser reconnects a dropped stream by itself, resuming from
   its last event's id.
   - data-live-version: the game's version the page shows; a change to that very version (the referee's own
     move, already on his screen) reads nothing;
   - a change of a table reads at once; a change of the whole tournament (a result, a round seated, a
     check-in) reaches every phone in the hall at the same instant: each asks at a moment of its own within
     data-live-spread seconds (default 3), and several such changes meanwhile make one request;
   - data-live-at-most: at most one request in that many seconds, the last change never dropped (the round
     page, whose tables move all the time);
   - data-live-every: without EventSource, or while the stream is refused (the streams' server restarting), a
     "live" event every that many seconds instead (the polling the page did before), and the stream tried
     again after a while, longer each time;
   - an answer 286 ("stop asking": a revoked link's page) closes the stream for good;
   - a change told while the page's own request is under way is asked for when that request ends (its new
     content in place): htmx's hx-sync queue would lose it, queued on the element the answer swaps out.
   An htmx swap that brings another data-live address (a participant seated at a new table) follows that one. */
var FIRST_RETRY_MS = 10000;
var LAST_RETRY_MS = 300000;
var stream = null;
var followed = null;
var timer = null;
var retry = null;
var retryMs = FIRST_RETRY_MS;
var spread = null;  // a tournament's change waiting for its moment
var held = null;  // a change waiting for the end of data-live-at-most
var lastAsked = 0;
var stopped = false;
var asking = false;  // the page's own request under way
var again = null;  // a change told meanwhile

function element() { return document.querySelector("[data-live]"); }

function seconds(name, otherwise) {
  var shown = element();
  var value = shown ? Number(shown.getAttribute(name)) : NaN;
  return value > 0 ? value : otherwise;
}

function ask(detail) {
  if (asking) { again = detail; return; }
  var atMost = seconds("data-live-at-most", 0) * 1000;
  var wait = lastAsked + atMost - Date.now();
  if (atMost && wait > 0) {
    if (held === null) {
      held = window.setTimeout(function () { held = null; ask({}); }, wait);
    }
    return;
  }
  lastAsked = Date.now();
  document.body.dispatchEvent(new CustomEvent("live", { detail: detail }));
}

function tell(detail) {
  var shown = element();
  var version = shown && shown.getAttribute("data-live-version");
  if (version !== null && version !== undefined && detail.version !== undefined && String(detail.version) === version) {
    return;
  }
  var changed = detail.changed || [];
  var ofTable = changed.length === 0 || changed.some(function (topic) { return topic.indexOf("table") === 0; });
  if (ofTable) {  // at once (and the tournament's change waiting is read with it)
    if (spread !== null) { window.clearTimeout(spread); spread = null; }
    ask(detail);
    return;
  }
  if (spread !== null) { return; }  // one request for them all, at the moment already drawn
  spread = window.setTimeout(function () { spread = null; ask(detail); },
    Math.random() * seconds("data-live-spread", 3) * 1000);
}

function poll() {
  if (timer === null) { timer = window.setInterval(function () { tell({}); }, seconds("data-live-every", 20) * 1000); }
}

function unpoll() {
  if (timer !== null) { window.clearInterval(timer); timer = null; }
}

function close() {
  if (stream !== null) { stream.close(); stream = null; }
  if (retry !== null) { window.clearTimeout(retry); retry = null; }
  unpoll();
}

function open(address) {
  var opened = new EventSource(address);
  stream = opened;
  opened.addEventListener("open", function () { retryMs = FIRST_RETRY_MS; unpoll(); });
  opened.addEventListener("change", function (event) {
    var detail = {};
    try { detail = JSON.parse(event.data); } catch (ignored) { detail = {}; }
    tell(detail);
  });
  opened.addEventListener("error", function () {
    if (opened.readyState !== EventSource.CLOSED || stream !== opened) { return; }  // reconnecting by itself
    stream = null;  // refused (not 200): poll, and try the stream again later
    poll();
    retry = window.setTimeout(function () { retry = null; if (!stopped && followed === address) { open(address); } }, retryMs);
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  });
}

function follow() {
  if (stopped) { return; }
  var shown = element();
  var address = shown ? shown.getAttribute("data-live") : null;
  if (address === followed) { return; }
  close();
  followed = address;
  if (!shown) { return; }
  if (!address || !window.EventSource) { poll(); return; }  // (a game at no table: no stream)
  open(address);
}

function askAgain() {
  if (again === null || asking) { return; }
  var detail = again;
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
  var elt = requester(event);
  if (!reading(elt)) { return; }
  asking = false;
  // nothing swapped (a 204, a failure): once htmx has ended the request; else at the new content's settle
  // (htmx:afterSettle below), or a second later should the answer not be swapped in
  window.setTimeout(askAgain, document.body.contains(elt) ? 0 : 1000);
});
document.addEventListener("htmx:afterSettle", function () { follow(); askAgain(); });
follow();
