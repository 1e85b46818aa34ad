/* The console without the Wi-Fi. Online the server's panel is the console (console-forms.js, live.js); its
   stored state comes with each panel (#console's data-offline) and is kept on the phone (outbox.js). When a move
   cannot reach the server (no network, no answer), or the browser says it is offline, the phone goes on
   alone: the rules run on it (engine.js), its own panel is drawn (offline-panel.js), and each move is kept in
   the outbox, "waiting to be sent". On the way back (the browser online again, the page shown again or
   loaded, a contact every 15 s meanwhile: iOS has no background sync; online, a contact every minute, which
   the director's round page reads) the moves are sent in order, the
   server's panel taken again, and the moves the server refused (another device moved meanwhile) listed one by
   one with why, until the referee has read them. The line above the console always says: online, offline,
   how many moves wait. The service worker (tournament/console/service_worker.py) keeps the page and its
   files for a reload without network. */
(function () {
  "use strict";
  var script = document.currentScript;
  var PROBE_MS = 15000;
  var CONTACT_MS = 60000;
  var words = JSON.parse(document.getElementById("console-words").textContent);
  var ui = words.ui;
  var catalog = null;  // the engine's words in the page's language (engine_files.engine_catalog)
  var NAME_PARAMS = ["square", "squares", "deck", "other", "expected"];  // tournament/boards/words.py
  var offline = false;
  var current = null;  // {game, version, state, ledger, seen, key_start}: the server's last, as the panel gave it
  var probe = null;
  var uncertain = false;  // the last move sent got no answer: the server may have it
  var note = "";  // why the server would not take the moves yet (logged out), while they wait

  function panelData() {
    var panel = document.getElementById("console");  // each panel's, swapped in with it (an attribute: htmx drops scripts)
    return panel && panel.dataset.offline ? JSON.parse(panel.dataset.offline) : null;
  }
  function game() { return current.game; }
  var token = null;  // a fresh token, read from a panel after the page's was refused (a login in another tab)
  function csrf() {
    if (token) { return token; }
    var input = document.querySelector("#console input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }
  function freshToken() {
    return fetch(script.dataset.panel, { credentials: "same-origin" }).then(function (r) { return r.text(); }).then(function (html) {
      var found = new DOMParser().parseFromString(html, "text/html").querySelector("input[name=csrfmiddlewaretoken]");
      if (found) { token = found.value; }
    }, function () {});
  }
  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return current.key_start + Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // -- the engine's messages in the referee's language ----------------------------------------------------
  function loadCatalog() {
    if (catalog !== null) { return Promise.resolve(catalog); }
    return fetch(script.dataset.catalog, { credentials: "same-origin" }).then(function (r) { return r.json(); })
      .then(function (c) { catalog = c.catalog || {}; return catalog; }, function () { catalog = {}; return catalog; });
  }
  function word(name) { return words.board_words[name] || name; }
  function say(m) {
    var template = (catalog && catalog[m.t]) || m.t;
    if (Array.isArray(template)) { template = template[0]; }
    var values = {};
    Object.keys(m.p || {}).forEach(function (k) {
      var v = m.p[k];
      if (v && typeof v === "object" && "t" in v) { values[k] = say(v); } else if (typeof v === "string" && NAME_PARAMS.indexOf(k) >= 0) {
        values[k] = v.split(", ").map(word).join(", ");
      } else { values[k] = v; }
    });
    return template.replace(/\{(\w+)(?::([^}]*))?\}/g, function (all, k, spec) {
      if (!(k in values)) { return all; }
      var v = values[k];
      return spec && spec.indexOf("+") >= 0 && typeof v === "number" && v >= 0 ? "+" + v : String(v);
    });
  }

  // -- the line above the console -------------------------------------------------------------------------
  function status(text, kind) {
    var line = document.getElementById("console-connection");
    line.hidden = false;
    line.textContent = text;
    line.className = "connection " + kind;
  }
  function showWaiting() {
    return window.consoleOutbox.waiting(game()).then(function (moves) {
      var parts = [offline ? ui.offline : ui.online];
      if (moves.length) { parts.push(window.offlinePanel.fmt(ui.waiting, { n: moves.length })); }
      if (note) { parts.push(note); }
      status(parts.join(" · "), offline ? "off" : (moves.length ? "waiting" : "on"));
      return moves;
    });
  }

  // -- the refused moves, one by one ----------------------------------------------------------------------
  function showRefused() {
    return window.consoleOutbox.refused(game()).then(function (moves) {
      var box = document.getElementById("console-refused");
      if (!moves.length) { box.hidden = true; box.replaceChildren(); return; }
      var h = document.createElement("h2");
      h.id = "console-refused-title";
      h.textContent = ui.refused_title;
      var list = document.createElement("ol");
      moves.forEach(function (m) {
        var li = document.createElement("li");
        li.className = "refused-move";
        var what = document.createElement("strong");
        what.textContent = (m.notes || []).join(" ") || JSON.stringify(m.events);
        var why = document.createElement("span");
        why.className = "why";
        why.textContent = " — " + m.why;
        li.append(what, why);
        list.appendChild(li);
      });
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.textContent = ui.dismiss;
      dismiss.addEventListener("click", function () { window.consoleOutbox.dismiss(game()).then(showRefused); });
      box.replaceChildren(h, list, dismiss);
      box.hidden = false;
    });
  }

  // -- offline: the phone's own panel ---------------------------------------------------------------------
  function latest() {
    return Promise.all([window.consoleOutbox.base(game()), window.consoleOutbox.waiting(game())]).then(function (got) {
      var base = got[0] || current;
      var moves = got[1];
      var last = moves[moves.length - 1];
      var from = last || base;  // the game on the phone now: {state, ledger} (the engine's view model reads both)
      return { play: { state: from.state, ledger: from.ledger }, version: last ? last.version + 1 : base.version, moves: moves };
    });
  }

  function drawOffline(extra) {
    return latest().then(function (now) {
      return window.consoleEngine.view(now.play).then(function (view) {
        var last = now.moves[now.moves.length - 1];
        var on = ++drawn;
        window.offlinePanel.draw(document.getElementById("console-offline-panel"), view, words, {
          notes: extra && extra.notes ? extra.notes : (last ? last.notes : []),
          error: extra && extra.error,
          waiting: now.moves.length,
          move: function (events) { return move(events, on); },
          undo: function () { return undo(on); }
        });
        return showWaiting();
      });
    });
  }

  function goOffline() {
    if (offline) { return; }
    offline = true;
    var mine = document.getElementById("console-offline-panel");
    mine.hidden = false;
    mine.textContent = ui.engine_starting;
    var panel = document.getElementById("console");
    panel.hidden = true;
    // a request under way would swap the server's panel in beside the phone's: given up (a move sent meanwhile
    // is known by its key: sent again from the outbox, it is not entered twice)
    panel.querySelectorAll("[hx-get], [hx-post]").forEach(function (e) { window.htmx.trigger(e, "htmx:abort"); });
    window.htmx.trigger(panel, "htmx:abort");
    showWaiting();
    Promise.all([window.consoleEngine.start(), loadCatalog()]).then(function () {
      return words.board_data ? window.consoleEngine.useBoard(words.board_data) : null;  // an organiser's edition
    }).then(function () { return drawOffline(); }).catch(function () {
      mine.textContent = ui.engine_failed;
    });
    if (probe === null) { probe = window.setInterval(backOnline, PROBE_MS); }
    if (uncertain) { note = ui.uncertain; }
  }

  // Taps are done one after the other (a tap while the one before is being applied waits its turn, never
  // dropped); a tap on a panel already replaced by a newer one is not applied (its buttons were the old
  // position's).
  var queue = Promise.resolve();
  var drawn = 0;  // the panels drawn: each tap says on which one it was made
  function inTurn(work) {
    queue = queue.then(function () { return sending; }).then(work, work).catch(function () {});
    return queue;
  }

  function move(events, on) {
    return inTurn(function () {
      if (on !== drawn) { return null; }
      return latest().then(function (now) {
        return window.consoleEngine.apply(now.play, events).then(function (out) {
          if (!out.ok) { return drawOffline({ error: say(out.error) }); }
          var notes = out.notes.map(say);
          var order = now.moves.length ? now.moves[now.moves.length - 1].order + 1 : Date.now();
          return window.consoleOutbox.add({
            client_key: newKey(), game: game(), order: order, version: now.version, events: out.events,
            state: out.game.state, ledger: out.game.ledger, notes: notes, at: new Date().toISOString()
          }).then(function () { return drawOffline({ notes: notes }); });
        });
      });
    });
  }

  function undo(on) {
    return inTurn(function () {
      if (on !== drawn) { return null; }
      return window.consoleOutbox.takeBack(game()).then(function () { return drawOffline(); });
    });
  }

  // -- back online: the moves sent, the server's panel again ----------------------------------------------
  var sending = null;
  function backOnline() {
    if (sending !== null) { return sending; }
    var was = offline;
    var had = 0;
    var why = "";
    sending = window.consoleOutbox.waiting(game()).then(function (moves) {
      had = moves.length;
      if (!had) { return was ? contact(0) : true; }
      status(ui.sending, "waiting");
      return window.consoleOutbox.send(game(), {
        url: script.dataset.sync, csrf: csrf, seen: current.seen, after: ui.refused_after,
        sending: function (n, of) { status(ui.sending + " " + n + " / " + of, "waiting"); }
      }).then(function (result) {
        if (!result.stopped) { contact(0); }  // nothing waits on the phone now (sent, or refused and listed)
        if (result.status === 403 && !result.why) { return freshToken().then(function () { return false; }); }
        why = result.why || "";
        return !result.stopped;
      });
    }).then(function (reached) {
      note = why;  // the server answered, but will not take them yet (logged out): said on the line
      if (!reached) { offline ? showWaiting() : goOffline(); return; }
      if (!was && !had) { return; }  // online all along, nothing kept: the panel is the server's already
      return showRefused().then(reload);
    }).finally(function () { sending = null; });
    return sending;
  }

  function contact(waiting) {
    return window.consoleOutbox.within(script.dataset.contact, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify({ waiting: waiting })
    }, PROBE_MS).then(function (answer) { return answer !== null && answer.status < 500; });
  }

  function reload() {
    // the server's panel, as it stands now (htmx swaps it in; afterSettle below keeps its state)
    var old = document.getElementById("console");
    offline = false;
    return new Promise(function (resolve) {
      window.htmx.ajax("GET", script.dataset.panel, { target: "#console", swap: "outerHTML" }).then(resolve, resolve);
    }).then(function () {
      var panel = document.getElementById("console");
      if (!panel || panel === old) {  // the panel did not come: still offline, tried again later
        offline = true;
        if (old) { old.hidden = true; }
        return showWaiting();
      }
      if (probe !== null) { window.clearInterval(probe); probe = null; }
      uncertain = false;
      note = "";
      document.getElementById("console-offline-panel").hidden = true;
      panel.hidden = false;
      return showWaiting();
    });
  }

  function keep() {
    var data = panelData();
    if (!data) { return Promise.resolve(); }
    current = data;
    return window.consoleOutbox.setBase(data.game, data.version, data.state, data.ledger);
  }

  function isMove(detail) {
    var cfg = detail.requestConfig;
    return !!cfg && !!cfg.verb && cfg.verb.toLowerCase() === "post";
  }

  document.addEventListener("htmx:afterSettle", function () {
    if (offline) {  // an answer that came all the same: its state kept, the phone's panel still the one shown
      var panel = document.getElementById("console");
      if (panel) { panel.hidden = true; }
    }
    keep();
  });
  // offline, the server's panel (hidden) asks nothing: an answer swapped in would show beside the phone's own
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (offline) { e.preventDefault(); }
  });
  // A move that did not get through: is the server there? Yes (an answer lost on the way): the console says so
  // and the referee taps again (its key: entered once). No: the phone goes on alone.
  function notThrough(timedOut) {
    if (offline) { return; }
    contact(0).then(function (reached) {
      if (reached) { return; }
      if (timedOut) { uncertain = true; }  // sent, unanswered: the server may have it
      goOffline();
    });
  }
  document.addEventListener("htmx:sendError", function (e) { if (isMove(e.detail)) { notThrough(false); } });
  document.addEventListener("htmx:timeout", function (e) { if (isMove(e.detail)) { notThrough(true); } });
  window.addEventListener("offline", goOffline);
  window.addEventListener("online", backOnline);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { backOnline(); } else if (!offline) { contact(0); }
  });

  current = panelData();
  if (!current) { return; }
  // the director's round page tells a table whose phone has been silent (tournament/console/sync.py)
  window.setInterval(function () {
    if (offline) { return; }
    window.consoleOutbox.waiting(game()).then(function (moves) { moves.length ? backOnline() : contact(0); });
  }, CONTACT_MS);
  keep().then(function (base) {
    return Promise.all([showRefused(), window.consoleOutbox.waiting(game()), base]);
  }).then(function (got) {
    var older = got[2] && got[2].version > current.version;  // the service worker's page: older than seen since
    if (!navigator.onLine || older) { goOffline(); } else if (got[1].length) { backOnline(); } else {
      showWaiting();
      contact(0).then(function (reached) { if (!reached) { goOffline(); } });
    }
  });
  if (script.dataset.worker && navigator.serviceWorker) {
    navigator.serviceWorker.register(script.dataset.worker, { scope: "/" }).catch(function () {});
  }
}());
