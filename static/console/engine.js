/* The rules engine of the referee's phone, for the console while the Wi-Fi is down: engineOf(files) makes one,
   whose calls answer promises (engine-worker.js runs the rules in Pyodide, started at the first call):
   - view(game): what the console shows and offers in that game, {state, ledger} (the console's view model,
     tournament/console/view_model/, as an object);
   - apply(game, events): the events of one tap applied, all or none: {ok: true, game, view, notes, events}
     or {ok: false, index, error: {code, text}} (what happened, the refusal: in the referee's words);
   - useBoard(board): a board that is not shipped, as the server gives it;
   - useWords(words): the referee's words, once, before the others: {catalog, board_words, ids}.
   A game's state is the server's snapshot (rules/snapshot.py), its ledger each player's [income, cost]; objects
   here, JSON between the page and the worker.
   start() answers how Python began: "restored" (the interpreter the phone kept at an earlier start, a fraction
   of a second) or "started" (afresh, seconds; then kept for the next time): engine-worker.js.
   The page names the files (console.js reads them from #console's data-): engineOf({worker: "…/engine-worker.js",
   pyodide: "…/pyodide-<version>/", rules: "…zip"}). */
export function engineOf(files) {
  var worker = null;
  var started = null;
  var waiting = {};
  var nextId = 1;
  var given = {};  // what the rules were told once (use_board, use_words): told again to a worker started anew

  function send(call, args) {
    return new Promise(function (resolve, reject) {
      var id = nextId++;
      waiting[id] = { resolve: resolve, reject: reject };
      worker.postMessage({ id: id, call: call, args: args });
    });
  }

  function start() {
    if (started === null) {
      worker = new Worker(files.worker, { type: "module" });
      // a worker that cannot load (not kept while offline) or dies (a phone short of memory): every call
      // waiting is refused, and the next one starts it again
      var failed = worker;
      worker.onerror = function (error) {
        var pending = waiting;
        waiting = {};
        if (worker === failed) { started = null; }
        failed.terminate();
        Object.keys(pending).forEach(function (id) { pending[id].reject(new Error(error.message || "worker")); });
      };
      worker.onmessage = function (message) {
        var answer = message.data;
        var asked = waiting[answer.id];
        delete waiting[answer.id];
        if (!asked) { return; }
        if (answer.error !== undefined) { asked.reject(new Error(answer.error)); } else { asked.resolve(answer.result); }
      };
      var folder = new URL(files.pyodide, document.baseURI).href;
      var rules = new URL(files.rules, document.baseURI).href;
      var own = worker;
      started = send("start", [folder, rules]).then(function (how) {
        return Object.keys(given).reduce(function (told, name) {
          return told.then(function () { return send(name, given[name]); });
        }, Promise.resolve()).then(function () { return how; });
      });
      started.catch(function () {  // tried again at the next call
        if (worker === own) { started = null; }
        own.terminate();
      });
      return started;
    }
    return started;
  }

  function call(name, args) {
    return start().then(function () { return send(name, args); });
  }

  return {
    start: start,
    view: function (game) {
      return call("view", [JSON.stringify(game)]).then(JSON.parse);
    },
    apply: function (game, events) {
      return call("apply", [JSON.stringify(game), JSON.stringify(events)]).then(JSON.parse);
    },
    useBoard: function (board) { given.use_board = [JSON.stringify(board)]; return call("use_board", given.use_board); },
    useWords: function (words) { given.use_words = [JSON.stringify(words)]; return call("use_words", given.use_words); }
  };
}
