/* The bank's line: the buildings left in it, and the links to the chart and cards and to the game
   record (where the page gives them: the replay does not). */
import { _, fmt, h } from "./elements.js";

function bank(view, ctx) {
  var b = view.bank;
  var text = view.game.roles ? fmt(_("Bank: %(houses)s houses, %(hotels)s apartments left (then paper ones)"), b)
    : fmt(_("Bank: %(houses)s houses, %(hotels)s hotels left"), b);
  var links = [];
  if (ctx.cardsUrl) { links.push(" · ", h("a", { href: ctx.cardsUrl, text: _("Chart and income/cost cards") })); }
  if (ctx.recordUrl) { links.push(" · ", h("a", { href: ctx.recordUrl, text: _("Download the game record") })); }
  return h("section", { class: "bank muted" }, text, ...links);
}

export { bank };
