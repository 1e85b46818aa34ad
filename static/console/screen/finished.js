/* The game over: why it ended, the ranking, and what next (the result confirmed, its sheet printed). */
import { _, h, role } from "./elements.js";

var END_REASONS = {  // GAME_RECORD.md's end_reason (tournament/labels.py says them on the pages)
  rounds: function () { return _("the last round of play is over"); },
  time: function () { return _("the time limit was reached"); },
  bankruptcy: function () { return _("a bankruptcy ended the game"); },
  last_player: function () { return _("only one player is left"); },
  role_eliminated: function () { return _("one role is all bankrupt"); }
};
/* Why the game is over: a director's stop says so (its end reason is "time" all the same, GAME_RECORD.md). */
function endReason(game) {
  if (game.ended_by_stop) { return _("the director stopped the game"); }  // (rules.time_limits.ended_by_stop)
  var code = game.end_reason;
  return END_REASONS[code] ? END_REASONS[code]() : (code || "");
}
function scoreWord(kind) {
  return { cash: _("cash"), rule_25: _("cash and one rent per property (rule 25)") }[kind] || _("net worth");
}

function finished(view, ctx, n) {
  var ranked = view.players.slice().sort(function (a, b) { return a.rank - b.rank; });
  var box = h("section", { class: "now finished" },
    h("h2", { text: _("Game over") + ": " + endReason(view.game) }),
    h("ol", { class: "ranking" }, ranked.map(function (p) {
      return h("li", {}, h("strong", { text: p.name }), role(p.role), " — " + scoreWord(view.game.score) + " " + p.score + (p.bankrupt ? " (" + _("bankrupt") + ")" : ""));
    })));
  if (ctx.closed) { box.appendChild(h("p", { class: "muted", text: _("The table's result is confirmed: the game is read-only. The tournament director can reopen the result.") })); }
  box.appendChild(nextSteps(ctx));
  return box;
}

function nextSteps(ctx) {
  var s = ctx.nextSteps;
  var box = h("div", { class: "next-steps" }, h("h3", { text: _("What next") }));
  if (!s) { box.appendChild(h("p", { class: "muted", text: _("The next steps need the connection: they show once the moves are sent.") })); return box; }
  if (!s.table) {
    box.appendChild(h("p", { text: _("A game outside a tournament: nothing to confirm.") }));
    box.appendChild(h("p", { class: "row" }, h("a", { class: "button big", href: ctx.cardsUrl, text: _("Chart and income/cost cards") }), h("a", { class: "button big", href: s.new_url, text: _("Start a new game") })));
    return box;
  }
  var confirm;
  if (s.confirmed) { confirm = _("The result is confirmed."); } else if (s.confirmed_by_me) { confirm = _("You confirmed the result: another person confirms it too."); } else if (s.may_confirm) {
    confirm = h("a", { class: "button big primary", href: s.table_url + "#result", text: s.second ? _("Confirm the result as the second person") : _("Confirm the result") });
  } else { confirm = _("The tournament director confirms the result."); }
  box.appendChild(h("ol", {}, h("li", { text: _("Check the ranking above with the players, against their banknotes and deeds.") }), h("li", {}, confirm),
    s.sheet_url ? h("li", {}, h("a", { class: "button big", href: s.sheet_url, text: _("Print the result sheet (PDF)") })) : null));
  return box;
}

export { finished };
