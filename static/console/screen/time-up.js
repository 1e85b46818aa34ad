/* The clocks' buttons: a player's move time up (a timeout: it passes the turn) and the game's time up.
   (The clocks ticking on the screen: static/console/clocks.js.) */
import { _, fmt, h, tapButton } from "./elements.js";

function clocks(view, ctx, n) {
  var c = view.clocks;
  if (!c.timeout && !c.time_up) { return null; }
  var row = h("div", { class: "row" });
  if (c.timeout) {
    var name = n.player(c.timeout);
    var question = fmt(_("%(name)s's move time is not up yet: pass the turn anyway?"), { name: name });
    // a timeout is deliberate: asked for confirmation until the move clock has run out (clocks.js marks it)
    var b = tapButton(ctx, fmt(_("Time is up for %(name)s"), { name: name }), [{ type: "timeout", player: c.timeout }],
      { confirm: function (button) { return button.classList.contains("expired") ? null : question; }, what: "timeout" });
    if (c.move_time_limit) {
      b.setAttribute("data-countdown", String(c.move_time_limit));
      b.setAttribute("data-countdown-since", ctx.lastMoveAt || "");
      b.append(" ", h("span", { class: "countdown", text: String(c.move_time_limit) }), " s");
    }
    row.appendChild(b);
  }
  if (c.time_up) {
    row.appendChild(tapButton(ctx, _("Game time is up"), [{ type: "time_up" }], { confirm: _("The game time is up?"), what: "time_up" }));
  }
  return h("section", { class: "clocks", "aria-label": _("Clocks") }, row, h("p", { class: "muted", text: _("A timeout passes the turn; like any move it can be undone.") }));
}

export { clocks };
