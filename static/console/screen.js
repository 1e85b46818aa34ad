/* The referee's console, drawn from its view model (tournament/console/view_model/: what the referee sees and
   may do now, in codes, ids and numbers) in the referee's language (Django's JavaScript catalogue: gettext,
   ngettext, pgettext, interpolate). The same drawing online and offline: the view model comes from the rules
   running on the phone, or from the server's answer until they run.

   draw(root, view, ctx) draws it in root (the parts that did not change left in place:
   reused). ctx:
   - names: {squares: [name by index], decks: {id: name}, cards: {deck: {id: text}}, groups: [group by square]}
   - title, game (its id), closed (the result confirmed: read-only), started_at (ISO, the game clock)
   - tap(events, what): enter the events of one tap (what: a word for the log of taps, "roll", "buy", …)
   - just: {notes: [words], seq, first} the move just made; error, notice: words
   - undo: null or {own: bool, dice: bool (a throw of this device's), waiting: bool (not sent yet), seq, first}
   - undoTap(how): how = {quick: code} | {reason: text} | {dice: [a, b]}
   - log: [{seq, notes: [words], status, reason, by, waiting}] the latest moves, newest first (as many as the
     server shows), logTotal, movesUrl, cardsUrl, recordUrl
   - moveText(seq): what a move did, in words (a cash count's list of the moves since the count before)
   - nextSteps: null | {table, may_confirm, confirmed, second, confirmed_by_me, table_url, sheet_url, new_url}
   - online: whether the server answers now (what needs it says so offline)
   Every control is a button or a form whose submit calls ctx.tap with the events the game record writes:
   nothing here knows a rule; the view model says what is offered, the engine checks what is entered.

   The parts, in static/console/screen/: elements.js (h, the words, a tap's button, the dice pad, the names),
   kept.js (what outlives a drawing), status.js, undo.js (the move just made), finished.js (the game over),
   now.js (what is to be entered now; a card drawn cards.js, rents and debts debts.js), time-up.js (the
   clocks' buttons), players.js, trade.js, bank.js, log.js. */
import { _, fmt, h, namer } from "./screen/elements.js";
import { drawingBegins, drawingEnds, forget, place, reused } from "./screen/kept.js";
import { status } from "./screen/status.js";
import { justNow } from "./screen/undo.js";
import { finished } from "./screen/finished.js";
import { now } from "./screen/now.js";
import { clocks } from "./screen/time-up.js";
import { players } from "./screen/players.js";
import { trade } from "./screen/trade.js";
import { bank } from "./screen/bank.js";
import { log } from "./screen/log.js";

function draw(root, view, ctx) {
  ctx.view = view;
  var n = namer(view, ctx);
  drawingBegins();
  var parts = [reused("status", JSON.stringify([view.game, ctx.title, ctx.started_at]), function () { return status(view, ctx, n); })];
  if (ctx.error) { parts.push(h("p", { class: "error", role: "alert", id: "console-error", text: ctx.error })); }
  if (ctx.notice) { parts.push(h("p", { class: "notice", role: "status", text: ctx.notice })); }
  parts.push(justNow(view, ctx));
  if (view.game.finished) { parts.push(finished(view, ctx, n)); }
  if (!ctx.closed) {
    parts.push(h("section", { class: "now", "aria-label": _("What happens now") }, now(view, ctx, n)));
    parts.push(clocks(view, ctx, n));
  }
  parts.push(players(view, ctx, n));
  if (!ctx.closed && view.trade) { parts.push(trade(view, ctx, n)); }
  parts.push(reused("bank", JSON.stringify([view.bank, view.game.roles]), function () { return bank(view, ctx); }));
  parts.push(log(ctx));
  place(root, parts.filter(Boolean));
  drawingEnds();
}

export { draw, h, fmt, forget };
