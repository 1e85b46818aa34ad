/* The referee's console: one screen, online and offline. The phone keeps the game, the server keeps the record.

   The page carries the game's position as the server stores it (#console-data: its version, state, each
   player's income and cost, the screen, the latest moves) and the board's names (#console-names). The rules
   start at once on the phone (engine.js: the server's own rules and view model in Pyodide). Every tap goes
   through the phone's outbox (outbox.js, IndexedDB): with the rules running, the tap is applied on the phone,
   the screen redrawn at once, and the move sent in the background; until they run (starting, or a phone
   without WebAssembly) the move is sent and the server's answer carries the new screen. A lost network only
   makes the moves wait: the line above the console says how many. The server stays the judge: it enters each
   move on the version the phone made it on, once per request key; a move it refuses (another device moved
   meanwhile) is listed with why, with every later one, and the phone goes on from the server's game.

   Another device's moves come through the table's event stream or a poll every few seconds (site/live.js's
   followPage, which tells them here): the phone takes the server's game when nothing of its own waits. The
   undo of the last move: a move not sent yet is taken back on the phone; a sent one is undone by a request of
   the outbox (this device's own with a reason in one tap, or the dice corrected; another device's with a
   reason typed, which waits for the network). The service worker (tournament/console/service_worker.py) keeps the page and its
   files for a reload without network.

   The page names the files on #console: data-engine-worker, data-pyodide, data-rules (engine.js), data-catalog
   (the engine's words), data-service-worker. */
import { followPage, notWhileTyping } from "../site/live.js";
import { tick } from "./clocks.js";
import { drawConnection } from "./connection.js";
import { engineOf } from "./engine.js";
import { fromServer, isThrow, moveText, newKey, playOf } from "./moves.js";
import { outbox } from "./outbox.js";
import { pressGuard } from "./press.js";
import { drawRefused } from "./refused.js";
import * as screen from "./screen.js";

var root = document.getElementById("console");
var files = root.dataset;
var data = JSON.parse(document.getElementById("console-data").textContent);
var names = JSON.parse(document.getElementById("console-names").textContent);
var engine = engineOf({ worker: files.engineWorker, pyodide: files.pyodide, rules: files.rules });
root.consoleEngine = engine;  // (read by the browser tests: they play moves on the phone's rules)
var _ = window.gettext;
var GAME = data.game;
var GONE_MS = 3000;  // a request without answer this long: the network is declared gone (sent again later)
var PROBE_MS = 5000;  // while it is gone, how often the server is asked again
var CONTACT_MS = 60000;  // online, how often the director's round page hears of this phone

// -- what the phone holds -----------------------------------------------------------------------------
var base = null;  // the server's game as last known: {version, play}
var here = null;  // the game on this phone now: the base with the moves waiting applied (a game: moves.js's playOf)
var view = data.screen;  // the screen of ``here``
var viewOf = null;  // the game it shows (JSON), where known: drawn again for it, it is not asked again
var log = data.log.map(fromServer);
var logTotal = data.log_total;
var undoOffer = data.undo;  // the server's: {seq, first, mine, dice}
var seen = data.seen;
var closed = data.closed;
var nextSteps = data.next_steps;
var lastMoveAt = data.last_move_at;
var countTexts = data.count_texts;  // what the moves the cash counts name did, by number (the server's)
var sent = [];  // this page's moves the server took, latest last: {seq, first, before, dice}
var just = null;
var error = null;
var notice = null;
var ready = false;  // the rules run on this phone
var failed = false;  // they cannot
/* What an outage leaves this phone: "reload" (a service worker keeps the page and its files: even a reload
   opens it), "open" (an address on plain HTTP has no service worker: the open page goes on, a reload
   fails), null (not known yet). */
var survives = null;  // (connection.js says it)
var online = navigator.onLine !== false;
var waiting = 0;
var note = "";

// -- the engine's words --------------------------------------------------------------------------------
/* The phone's rules say every message in the referee's words (tournament/console/view_model/words.py, the one
   renderer the server's pages use too): given once, when they start, the server's catalogue (the file that
   #console's data-catalog names, kept for the Wi-Fi's outages), the board's words and the ids' names. */
function useWords() {
  return fetch(files.catalog, { credentials: "same-origin" }).then(function (r) { return r.json(); })
    .then(function (c) { return c.catalog || {}; }, function () { return {}; })
    .then(function (catalog) { return engine.useWords({ catalog: catalog, board_words: names.board_words, ids: names.ids }); });
}

// -- drawing -------------------------------------------------------------------------------------------
function undoNow() {
  var last = lastWaiting;
  if (closed) { return null; }
  if (last) { return { own: true, waiting: true, dice: false }; }
  if (!undoOffer) { return null; }
  return { own: undoOffer.mine, dice: undoOffer.dice, seq: undoOffer.seq, first: undoOffer.first, waiting: false };
}
var lastWaiting = null;

var held = pressGuard(root, function () { draw(); });  // (press.js: never under a finger)

function draw() {
  if (held()) { return; }
  screen.draw(root, view, {
    names: names, title: data.title, game: GAME, closed: closed, started_at: data.started_at,
    tap: tap, undoTap: undoTap, just: just, error: error, notice: notice, undo: undoNow(),
    log: log.slice(0, data.log_length), logTotal: logTotal, movesUrl: data.urls.moves, cardsUrl: data.urls.cards, recordUrl: data.urls.record,
    nextSteps: nextSteps, online: online, lastMoveAt: lastMoveAt,
    moveText: function (seq) { return moveText(seq, countTexts, log); }
  });
  root.dataset.version = String(here ? here.version : data.version);  // the game's version shown
  root.consoleView = view;  // (read by the browser tests: the screen drawn, and the game it is of)
  root.consolePlay = here && here.play;
  tick();  // the clocks drawn count down from now
  line();
}

/* A tap the rules refuse: why, above the screen, which stays as it is (what was typed kept). */
function refused(why) {
  error = why;
  var shown = document.getElementById("console-error");
  if (!shown) {
    shown = screen.h("p", { class: "error", role: "alert", id: "console-error" });
    root.querySelector("section.status").after(shown);
  }
  shown.textContent = why;
  shown.scrollIntoView({ block: "nearest" });
}

function line() {
  drawConnection(document.getElementById("console-connection"),
    { online: online, waiting: waiting, ready: ready, failed: failed, survives: survives, note: note });
  root.dataset.waiting = String(waiting);  // (what the browser tests wait on, with data-done)
}

/* A tap dealt with (applied and drawn, refused, or sent and answered): counted on the console's element,
   which a browser test waits on as a referee waits for the screen. */
var done = 0;
function dealt() { root.dataset.done = String(++done); }
var fetched = 0;  // the server's positions read (taken or not)

// -- the game on the phone -----------------------------------------------------------------------------
/* The game with the moves waiting: the last applied one's, else the base. */
function refresh() {
  return outbox.waiting(GAME).then(function (moves) {
    waiting = moves.length;
    lastWaiting = moves[moves.length - 1] || null;
    var last = moves[moves.length - 1];
    var from = last && last.play ? last : base;  // (a move not yet applied on the phone: the server's game)
    here = { version: base.version + moves.length, play: from.play };
    return moves;
  });
}

/* The screen drawn again once the moves are sent (their numbers, the undo of the last), but not under the
   referee's fingers: while he types in a field of the console, when he leaves it. */
var heldBack = notWhileTyping(root, { until: "blur" });
function later() {
  if (!heldBack(later)) { return inTurn(redraw); }
  line();
  return Promise.resolve();
}

function redraw() {
  if (!ready) { draw(); return Promise.resolve(); }
  var of = JSON.stringify(here.play);
  if (of === viewOf) { draw(); return Promise.resolve(); }  // (the move's answer: its number and undo)
  return engine.view(here.play).then(function (v) { view = v; viewOf = of; draw(); });
}

// -- taps ----------------------------------------------------------------------------------------------
var queue = Promise.resolve();
function inTurn(work) {
  // (a tap that failed is dealt with too: what failed is shown)
  queue = queue.then(work, work).catch(function (e) { error = String(e && e.message || e); draw(); dealt(); });
  return queue;
}

function tap(events) {
  if (closed) { return; }
  inTurn(function () { return tapNow(events); });
}

function tapNow(events) {
  return (function () {
    error = null;
    notice = null;
    return refresh().then(function (moves) {
      var order = moves.length ? moves[moves.length - 1].order + 1 : Date.now();
      var move = { client_key: newKey(data.key_start), game: GAME, kind: "move", order: order, version: here.version, before: here.play, at: new Date().toISOString() };
      if (!ready) {  // the server checks and answers with the new screen (the next tap does not wait)
        move.events = events;
        move.notes = [];
        move.inline = online && !waiting;  // a refusal said at once, as the phone's rules would say it
        return outbox.add(move).then(function () { send().then(dealt); });
      }
      return engine.apply(here.play, events).then(function (out) {
        if (!out.ok) { refused(out.error.text); dealt(); return null; }
        move.events = out.events;
        move.play = out.game;
        move.notes = out.notes;
        move.dice = isThrow(out.events);
        return outbox.add(move).then(function () {
          view = out.view;
          viewOf = JSON.stringify(out.game);
          just = { notes: move.notes, key: move.client_key };
          var from = move.before.next_seq;  // the numbers the server will give its events
          log.unshift({ waiting: true, key: move.client_key, notes: move.notes, status: "active", mine: true, from: from, to: from + move.events.length - 1 });
          lastMoveAt = move.at;
          // the game after it, drawn at once (the outbox read again at the sending's end: refresh)
          waiting += 1;
          lastWaiting = move;
          here = { version: move.version + 1, play: move.play };
          draw();
          dealt();
          afterPaint(send);
        });
      });
    });
  }());
}

// -- the undo of the last move ----------------------------------------------------------------------------
function undoTap(how) {
  if (closed) { return; }
  inTurn(function () { return undoNowTap(how); });
}

function undoNowTap(how) {
  return (function () {
    error = null;
    return refresh().then(function (moves) {
      var last = moves[moves.length - 1];
      if (last && !how.reason) {  // not sent yet: taken back on the phone, nothing to tell the server
        if (how.dice) {
          var right = Object.assign({}, last.events[0], { dice: how.dice });
          return outbox.takeBack(GAME).then(function () {
            log = log.filter(function (e) { return e.key !== last.client_key; });
            return refresh();
          }).then(function () { tap([right]); });
        }
        return outbox.takeBack(GAME).then(function () {
          log = log.filter(function (e) { return e.key !== last.client_key; });
          just = null;
          notice = _("The last move was taken back before it was sent.");
          return refresh();
        }).then(redraw).then(dealt);
      }
      var order = last ? last.order + 1 : Date.now();
      var request = { client_key: newKey(data.key_start), game: GAME, order: order, version: here.version, at: new Date().toISOString(), notes: [] };
      var previousThrow = (sent[sent.length - 1] || {}).events;
      if (how.dice) {
        request.kind = "dice";
        request.dice = how.dice;
        request.events = previousThrow && previousThrow.length ? [Object.assign({}, previousThrow[0], { dice: how.dice })] : [];
      } else {
        request.kind = "undo";
        if (how.quick) { request.quick = how.quick; } else { request.reason = how.reason; }
      }
      var previous = sent[sent.length - 1];
      var known = previous && undoOffer && previous.seq === undoOffer.seq && ready && !how.reason;
      if (!known) {  // the game after it is the server's to say: sent now, the screen waits for its answer
        request.full = true;
        return outbox.add(request).then(function () { send().then(dealt); });
      }
      request.before = previous.before;
      var after = how.dice ? engine.apply(previous.before, [Object.assign({}, previous.events[0], { dice: how.dice })]) : Promise.resolve(null);
      return after.then(function (out) {
        if (out && !out.ok) { error = out.error.text; draw(); dealt(); return null; }
        var to = out ? out.game : previous.before;
        request.play = to;
        request.notes = out ? out.notes : [];
        return outbox.add(request).then(function () {
          sent.pop();
          log.forEach(function (e) { if (e.seq >= previous.first && e.seq <= previous.seq) { e.status = "undone"; } });
          just = out ? { notes: request.notes } : null;
          undoOffer = null;
          notice = how.dice ? _("The wrong dice were undone and the right ones entered.") : _("The last move was undone.");
          return refresh();
        }).then(function () { return redraw(); }).then(function () { dealt(); send(); });
      });
    });
  }());
}

/* ``work`` once the screen just drawn is on the glass (the next frame painted: sending the move, then its
   answer drawn, must not hold that frame back on a slow phone), or a quarter second later whatever comes
   first (a hidden page paints no frame). */
function afterPaint(work) {
  var due = true;
  var go = function () { if (due) { due = false; work(); } };
  window.requestAnimationFrame(function () { window.setTimeout(go, 0); });
  window.setTimeout(go, 250);
}

// -- the outbox sent ---------------------------------------------------------------------------------------
var sending = null;
var retake = false;  // a position the server gave while sending: drawn once they are sent
function send() {
  if (sending !== null) { return sending; }
  var outcome = {};
  sending = outbox.send(GAME, {
    url: data.urls.sync, csrf: csrf, seen: function () { return seen; }, after: _("Not sent: it followed a refused move."), ms: GONE_MS,
    full: function () { return !ready; },
    taken: taken
  }).then(function (result) {
    outcome = result;
    if (result.stopped) {
      online = result.status !== null && result.status !== undefined && result.status < 500 && result.status !== 0;
      note = result.why || "";
      if (result.status === 403 && !result.why) { return freshToken(); }
      return null;
    }
    online = true;
    note = "";
    if (result.refused === 1 && result.first.inline) {  // tapped just now, the server judged it at once
      error = result.why;
      return outbox.dismiss(GAME, result.first.client_key).then(function () { return fetchState(true); });
    }
    if (result.refused) { return showRefused().then(function () { return fetchState(true); }); }
    return null;
  }).then(refresh).then(function () {
    sending = null;
    if (retake || outcome.sent) { retake = false; later(); } else { line(); }
    if (waiting && online) { return send(); }
    if (waiting) { probeLater(); }
    return null;
  }, function () { sending = null; });
  return sending;
}

/* A request the server took: the log's entry gets its number, the base moves on (with ``full``: to the
   server's position, and its screen). */
function taken(move, answer) {
  if (answer.version !== undefined) { base = { version: answer.version, play: move.play || base.play }; }
  if (move.kind === "move" && answer.seq !== undefined) {
    var first = answer.seq - move.events.length + 1;
    log.forEach(function (e) { if (e.key === move.client_key) { e.waiting = false; e.seq = answer.seq; e.first = first; } });
    sent.push({ seq: answer.seq, first: first, before: move.before, events: move.events });
    undoOffer = { seq: answer.seq, first: first, mine: true, dice: !!move.dice };
    if (just && just.key === move.client_key) { just.seq = answer.seq; just.first = first; }
  } else if (move.kind === "dice" && answer.seq !== undefined) {
    log.unshift({ seq: answer.seq, notes: move.notes, status: "active", mine: true });
    sent.push({ seq: answer.seq, first: answer.seq, before: move.before, events: move.events });
    undoOffer = { seq: answer.seq, first: answer.seq, mine: true, dice: true };
  }
  if (move.kind === "undo") { notice = _("The last move was undone."); just = null; } else if (move.kind === "dice") {
    notice = _("The wrong dice were undone and the right ones entered.");
  }
  if (answer.position) {
    take(answer.position);
    if (move.kind !== "undo" && answer.seq !== undefined) {  // what the server said the move did
      var from = answer.seq - (move.kind === "dice" ? 1 : move.events.length);
      just = { notes: answer.position.log.filter(function (e) { return e.seq > from && e.seq <= answer.seq; }).reverse()
        .reduce(function (all, e) { return all.concat(e.notes); }, []), seq: answer.seq, first: from + 1 };
    }
  }
  if (move.kind === "move" && move.events.some(function (e) { return e.type === "cash_count"; })) { fetchState(false, true); }
  logTotal = Math.max(logTotal, answer.seq || 0);
}

/* The server's position taken as the phone's: its game, its log, its undo, its screen (or the phone's own). */
function take(p) {
  base = { version: p.version, play: playOf(p) };
  log = p.log.map(fromServer);
  logTotal = p.log_total;
  undoOffer = p.undo;
  seen = p.seen;
  closed = p.closed;
  nextSteps = p.next_steps;
  lastMoveAt = p.last_move_at;
  sent = [];
  if (p.screen) { view = p.screen; viewOf = JSON.stringify(base.play); }
  if (p.csrf) { token = p.csrf; }
  countTexts = p.count_texts;
  retake = true;
  document.querySelector("[data-live]").setAttribute("data-live-version", String(p.version));
  return outbox.setBase(GAME, p.version, base.play);
}

// -- another device's moves ------------------------------------------------------------------------------
/* The server's game, if it changed (``force``: after a refusal, whatever the version), taken when nothing of
   this phone's waits; ``keep``: the phone's screen stays (a cash count's result only). */
function fetchState(force, keep) {
  if (!force && (waiting || sending !== null)) { return Promise.resolve(); }
  var url = data.urls.state + "?screen=" + (ready ? "0" : "1") + "&seen=" + encodeURIComponent(seen) + (force ? "" : "&version=" + base.version);
  return outbox.within(url, { credentials: "same-origin" }, GONE_MS).then(function (answer) {
    if (answer === null || answer.status >= 500) { online = false; line(); return null; }
    online = true;
    if (answer.status !== 200 || !answer.body) { line(); return null; }
    var changed = answer.body.changed_meanwhile;
    return inTurn(function () {
      if (waiting && !force) { return null; }
      // asked before this phone's latest moves were taken, answered after: an older game, never drawn back
      if (!force && answer.body.version < base.version) { return null; }
      return take(answer.body).then(function () {
        if (changed && !keep) { notice = changed; }
        if (!keep) { just = null; }
        return refresh();
      }).then(redraw);
    }).then(function () { root.dataset.fetched = String(++fetched); });  // (the browser tests wait on it)
  });
}

var probe = null;
function probeLater() {
  if (probe !== null) { return; }
  probe = window.setTimeout(function () { probe = null; send(); }, PROBE_MS);
}

// -- the refused moves, one by one -----------------------------------------------------------------------
function showRefused() {
  return outbox.refused(GAME).then(function (moves) {
    drawRefused(document.getElementById("console-refused"), moves, function () { outbox.dismiss(GAME).then(showRefused); });
    if (moves.length) { log = log.filter(function (e) { return !e.waiting; }); }
  });
}

// -- the server's token ----------------------------------------------------------------------------------
var token = null;  // a fresher one than the page's
function csrf() { return token || data.csrf; }
/* The token again, after the server refused the page's (a login in another tab changes it). */
function freshToken() {
  return outbox.within(data.urls.state + "?screen=0", { credentials: "same-origin" }, GONE_MS).then(function (answer) {
    if (answer && answer.body && answer.body.csrf) { token = answer.body.csrf; }
  });
}

function contact() {
  return outbox.within(data.urls.contact, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
    body: JSON.stringify({ waiting: waiting })
  }, GONE_MS).then(function (answer) { online = answer !== null && answer.status < 500; line(); });
}

// -- the rules on the phone --------------------------------------------------------------------------------
function startRules() {
  if (!window.WebAssembly || !window.Worker) { failed = true; root.dataset.rules = "failed"; line(); return Promise.resolve(); }
  var began = performance.now();
  return Promise.all([engine.start(), useWords()]).then(function () {
    return names.board_data ? engine.useBoard(names.board_data) : null;
  }).then(function () {
    ready = true;
    root.dataset.rules = "ready";
    window.consoleRulesStartedMs = performance.now() - began;
    return inTurn(function () { return applyUnchecked().then(redraw); });
  }, function () { failed = true; root.dataset.rules = "failed"; line(); });
}

/* Moves tapped before the rules ran (kept, not yet applied on the phone): applied now, in order; one the
   rules refuse stays for the server to judge. */
function applyUnchecked() {
  return outbox.waiting(GAME).then(function (moves) {
    var at = base;
    var chain = Promise.resolve();
    moves.forEach(function (m) {
      chain = chain.then(function () {
        if (m.play) { at = m; return null; }
        if (m.kind !== "move") { return null; }
        return engine.apply(at.play, m.events).then(function (out) {
          if (!out.ok) { return null; }
          var done = Object.assign({}, m, { events: out.events, play: out.game, notes: out.notes, before: at.play });
          at = done;
          return outbox.replace(done);
        });
      });
    });
    return chain.then(refresh);
  });
}

// -- the start -----------------------------------------------------------------------------------------------
function start() {
  if (!window.indexedDB || !window.crypto || !window.Promise) {
    root.textContent = _("This browser cannot run the console: open it in an up-to-date Chrome, Firefox or Safari, or enter the moves on paper.");
    return;
  }
  outbox.setBase(GAME, data.version, playOf(data)).then(function (kept) {
    base = { version: kept.version, play: kept.play };
    return refresh();
  }).then(function (moves) {
    moves.forEach(function (m) { log.unshift({ waiting: true, key: m.client_key, notes: m.notes || [], status: "active", mine: true }); });
    draw();
    return showRefused();
  }).then(function () {
    startRules();
    if (waiting) { send(); } else { contact(); }
  });
  // another device's moves: told by the table's stream, and asked for every few seconds whatever it says
  followPage({ told: function () { fetchState(false); }, every: Math.max(data.poll_seconds, 1), always: true });
  window.setInterval(function () { if (!waiting) { contact(); } }, CONTACT_MS);
  window.addEventListener("online", function () { online = true; send(); });
  window.addEventListener("offline", function () { online = false; line(); });
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") { send(); fetchState(false); } });
  if (files.serviceWorker && navigator.serviceWorker) {
    navigator.serviceWorker.register(files.serviceWorker, { scope: "/" })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function () { survives = "reload"; line(); }, function () { survives = "open"; line(); });
  } else {
    survives = "open";
  }
}

data.title = data.title || document.title;
start();
