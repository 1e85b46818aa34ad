/* The replay for disputes (tournament/console/replay.py): the console's own screen (static/console/screen.js)
   drawn read-only from the view model at a move, a slider over the moves, −1/+1, the moves' log beside with
   the current one marked. The address follows the slider (?at=N): a link shows the same move. Nothing is
   entered here: the screen's handlers do nothing, its buttons and forms are hidden and disabled, and the
   whole screen is inert. */
import * as screen from "../console/screen.js";

var root = document.getElementById("replay-screen");
var data = JSON.parse(document.getElementById("replay-data").textContent);
var names = JSON.parse(document.getElementById("replay-names").textContent);
var slider = document.getElementById("replay-at");
var where = document.getElementById("replay-where");
var back = document.getElementById("replay-back");
var on = document.getElementById("replay-on");
var moves = document.getElementById("replay-moves");
var _ = window.gettext || function (s) { return s; };
var fmt = window.interpolate || function (s) { return s; };

var views = {};  // the view model by move, as the server gave it
views[data.at] = data.screen;
var at = data.at;

function nothing() { return Promise.resolve(); }

function draw(view) {
  screen.draw(root, view, {
    names: names, title: data.title, game: data.game, closed: false, started_at: null,
    tap: nothing, undoTap: nothing, just: null, error: null, notice: null, undo: null,
    log: [], logTotal: data.total, movesUrl: "", cardsUrl: "", recordUrl: "",
    nextSteps: null, online: true, lastMoveAt: null,
    moveText: function () { return ""; }
  });
  root.querySelectorAll("button, input, select, textarea").forEach(function (b) { b.disabled = true; });
  root.dataset.at = String(at);
  root.replayView = view;  // (read by the browser tests: the screen drawn)
}

function mark() {
  slider.value = String(at);
  where.textContent = at
    ? fmt(_("After move #%(seq)s (%(at)s of %(total)s)"), { seq: data.moves[at - 1].seq, at: at, total: data.total }, true)
    : fmt(_("Before the first move (0 of %(total)s)"), { total: data.total }, true);
  back.disabled = at <= 0;
  on.disabled = at >= data.total;
  var shown = null;
  moves.querySelectorAll("li").forEach(function (li) {
    var current = li.dataset.at === String(at);
    li.classList.toggle("current", current);
    if (current) { li.setAttribute("aria-current", "step"); shown = li; } else { li.removeAttribute("aria-current"); }
  });
  if (shown) {  // the log scrolled to it, not the page (the slider stays under the finger)
    var box = moves.getBoundingClientRect(), row = shown.getBoundingClientRect();
    if (row.top < box.top || row.bottom > box.bottom) { moves.scrollTop += row.top - box.top - box.height / 2; }
  }
  var url = new URL(window.location.href);
  url.searchParams.delete("move");
  url.searchParams.set("at", String(at));
  window.history.replaceState(null, "", url.pathname + url.search);
}

/* The screen at ``at``: from those given already, else asked of the server — one request at a time (a slider
   dragged asks for where it stops, not for every move it passes). */
var asking = false;
function go(n) {
  at = Math.max(0, Math.min(data.total, n));
  mark();
  show();
}

function show() {
  if (views[at]) { delete root.dataset.loading; draw(views[at]); return; }
  root.dataset.loading = "1";
  if (asking) { return; }
  asking = true;
  var wanted = at;
  fetch(data.data_url + "?at=" + wanted, { credentials: "same-origin" })
    .then(function (r) { return r.json(); })
    .then(function (answer) { if (answer.screen) { views[answer.at] = answer.screen; } }, function () {})
    .then(function () {
      asking = false;
      if (views[at] || at !== wanted) { show(); } else { delete root.dataset.loading; }  // (refused: stays)
    });
}

slider.addEventListener("input", function () { go(Number(slider.value)); });
back.addEventListener("click", function () { go(at - 1); });
on.addEventListener("click", function () { go(at + 1); });
moves.addEventListener("click", function (e) {
  var li = e.target.closest("li[data-at]");
  if (!li) { return; }
  e.preventDefault();
  go(Number(li.dataset.at));
});

draw(views[at]);
mark();
