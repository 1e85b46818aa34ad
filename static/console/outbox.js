/* Every request of the referee's console, kept on the phone (IndexedDB: they survive a closed tab and a
   restart) until the server has taken it: the ``outbox`` this module exports.
   - moves: each {client_key, game, order, kind, version, …}: a move ("move": the events of one tap), the undo
     of the last one ("undo": a reason chosen in one tap, ``quick``, or typed) or the correction of its dice
     ("dice"); the game's version it was made on (the server refuses it on any other: another device moved
     meanwhile); where the rules ran on the phone, the game after it (``play``: its state, each player's
     income and cost, the cash counts, the next move's number: console.js) and what happened in words
     (``notes``), with the game before it (``before``: an undo goes back to it);
   - bases: the latest game the server gave for each game {game, version, play} (a reload without
     connection starts from it);
   - refused: the moves the server refused when they were sent, each with why, kept until the referee has
     read them.
   send() sends a game's moves in order, one request each (tournament/console/sync.py), at most one sending at
   a time in the whole browser (Web Locks, where there are: two tabs of the same console); a move the server
   already has (its key) is answered as such and never applied twice. */
var NAME = "console-outbox";
var ANSWER_MS = 15000;
var opened = null;

function request(r) {
  return new Promise(function (resolve, reject) {
    r.onsuccess = function () { resolve(r.result); };
    r.onerror = function () { reject(r.error); };
  });
}

function db() {
  if (opened === null) {
    var r = indexedDB.open(NAME, 1);
    r.onupgradeneeded = function () {
      var d = r.result;
      d.createObjectStore("moves", { keyPath: "client_key" }).createIndex("game", ["game", "order"]);
      d.createObjectStore("bases", { keyPath: "game" });
      d.createObjectStore("refused", { keyPath: "client_key" }).createIndex("game", ["game", "order"]);
    };
    opened = request(r);
  }
  return opened;
}

function store(name, mode) {
  return db().then(function (d) { return d.transaction(name, mode || "readonly").objectStore(name); });
}

function ofGame(name, game) {
  return store(name).then(function (s) {
    var range = IDBKeyRange.bound([game, -Infinity], [game, Infinity]);
    return request(s.index("game").getAll(range));
  });
}

function done(transaction) {
  return new Promise(function (resolve, reject) {
    transaction.oncomplete = function () { resolve(); };
    transaction.onerror = transaction.onabort = function () { reject(transaction.error); };
  });
}

export var outbox = {
  waiting: function (game) { return ofGame("moves", game); },
  refused: function (game) { return ofGame("refused", game); },
  base: function (game) { return store("bases").then(function (s) { return request(s.get(game)); }); },

  /* The server's game, kept unless the one kept is newer (a page the service worker served from its cache,
     older than the last panel seen). */
  setBase: function (game, version, play) {
    return store("bases", "readwrite").then(function (s) {
      return request(s.get(game)).then(function (kept) {
        if (kept && kept.version > version && kept.play) { return kept; }  // (one kept before "play": replaced)
        var base = { game: game, version: version, play: play };
        return request(s.put(base)).then(function () { return base; });
      });
    });
  },

  add: function (move) { return store("moves", "readwrite").then(function (s) { return request(s.add(move)); }); },

  /* A move waiting, written again (the rules started after it was tapped: the game after it added). */
  replace: function (move) { return store("moves", "readwrite").then(function (s) { return request(s.put(move)); }); },

  /* The last move waiting, taken back (the undo of a move not yet sent: nothing to tell the server). */
  takeBack: function (game) {
    return outbox.waiting(game).then(function (moves) {
      var last = moves[moves.length - 1];
      if (!last) { return null; }
      return store("moves", "readwrite").then(function (s) { return request(s.delete(last.client_key)); })
        .then(function () { return last; });
    });
  },

  /* The refused moves read (``key``: that one only). */
  dismiss: function (game, key) {
    return outbox.refused(game).then(function (moves) {
      return db().then(function (d) {
        var t = d.transaction("refused", "readwrite");
        moves.filter(function (m) { return !key || m.client_key === key; }).forEach(function (m) { t.objectStore("refused").delete(m.client_key); });
        return done(t);
      });
    });
  },

  /* ``move`` refused (why: the server's words) and every later one with it (why: ``after``): out of the
     moves waiting, into the refused ones, in one transaction. */
  refuse: function (game, move, why, after) {
    return outbox.waiting(game).then(function (moves) {
      return db().then(function (d) {
        var t = d.transaction(["moves", "refused"], "readwrite");
        moves.filter(function (m) { return m.order >= move.order; }).forEach(function (m) {
          t.objectStore("moves").delete(m.client_key);
          t.objectStore("refused").put(Object.assign({}, m, { why: m.client_key === move.client_key ? why : after }));
        });
        return done(t);
      });
    });
  },

  /* Send the game's moves waiting, in order (and those tapped meanwhile). ``how``: {url, csrf() (the token
     now), seen() (what the screen has seen), after (why for the moves after a refused one), ms (how long
     an answer is waited for), full() (the answers to carry the game's position), taken(move, answer)
     (told of each one the server took), sending(n, of)}. Answers {sent, refused, stopped, why, status}:
     stopped when the network (or the server) failed: what is left is tried again later. */
  send: function (game, how) {
    var run = function () { return sendAll(game, how); };
    if (navigator.locks && navigator.locks.request) {
      return navigator.locks.request("console-outbox-" + game, run);
    }
    return run();
  }
};

//: The server's refusals of a move (tournament/console/sync.py): anything else (no network, a proxy's page,
//: a server error, a session ended) stops the sending, and the moves are sent again later.
var REFUSALS = { 400: "malformed", 409: ["stale", "closed", "reused"], 422: "refused" };

function refusal(answer) {
  var whys = [].concat(REFUSALS[answer.status] || []);
  return !!answer.body && answer.body.ok === false && whys.indexOf(answer.body.why) >= 0;
}

/* A move the server took: out of the moves waiting, and the game after it kept as the server's (the
   phone's next moves go on from it, whatever happens to the later ones), in one transaction. */
function taken(game, move) {
  return db().then(function (d) {
    var t = d.transaction(["moves", "bases"], "readwrite");
    t.objectStore("moves").delete(move.client_key);
    var bases = t.objectStore("bases");
    var kept = bases.get(game);
    kept.onsuccess = function () {
      if (move.play && (!kept.result || kept.result.version <= move.version + 1)) {
        bases.put({ game: game, version: move.version + 1, play: move.play });
      }
    };
    return done(t);
  });
}

function sendAll(game, how) {
  var result = { sent: 0, refused: 0, stopped: false };
  var round = function () {  // the moves waiting now; again once they are sent (one tapped meanwhile)
    return outbox.waiting(game).then(function (moves) {
      if (!moves.length) { return result; }
      var next = function (i) {
        if (i >= moves.length) { return round(); }
        var move = moves[i];
        if (how.sending) { how.sending(result.sent + 1, result.sent + moves.length - i); }
        return post(how, move, moves.length - i).then(function (answer) {
          if (answer !== null && answer.status === 200 && answer.body && answer.body.ok) {
            result.sent += 1;
            return taken(game, move).then(function () {
              if (how.taken) { how.taken(move, answer.body); }
              return next(i + 1);
            });
          }
          if (answer === null || !refusal(answer)) {
            result.stopped = true;  // kept, sent later (logged out: the server says why)
            result.why = answer && answer.body && answer.body.message;
            result.status = answer && answer.status;
            return result;
          }
          result.refused = moves.length - i;
          result.first = move;  // the refused one (the later ones follow it)
          result.why = answer.body.message;
          return outbox.refuse(game, move, answer.body.message, how.after).then(function () { return result; });
        });
      };
      return next(0);
    });
  };
  return round();
}

/* fetch, given up after ``ms`` (a Wi-Fi that takes the request and never answers); null without an answer. */
function within(url, options, ms) {
  var control = window.AbortController ? new AbortController() : null;
  var timer = control ? window.setTimeout(function () { control.abort(); }, ms) : null;
  return fetch(url, Object.assign({}, options, control ? { signal: control.signal } : {}))
    .then(function (response) {
      return response.json().catch(function () { return null; }).then(function (json) {
        return { status: response.status, body: json };
      });
    }, function () { return null; })
    .finally(function () { if (timer !== null) { window.clearTimeout(timer); } });
}

function post(how, move, waiting) {
  var kind = move.kind || "move";
  var body = {
    client_key: move.client_key, version: move.version, kind: kind, waiting: waiting,
    seen: (typeof how.seen === "function" ? how.seen() : how.seen) || "",
    full: !!(move.full || (how.full && how.full()))
  };
  if (kind === "move") { body.events = move.events; } else if (kind === "dice") { body.dice = move.dice; } else if (move.quick) {
    body.quick = move.quick;
  } else { body.reason = move.reason; }
  return within(how.url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": how.csrf() },
    body: JSON.stringify(body)
  }, how.ms || ANSWER_MS);
}

outbox.within = within;
