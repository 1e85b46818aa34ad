/* The status at the top of the screen: the game's title, its round, the last round or the time up, whose
   turn it is, the game clock (ticked by static/console/clocks.js). */
import { _, fmt, h, spaced } from "./elements.js";

function status(view, ctx, n) {
  var g = view.game;
  var pills = [];
  if (g.round) {
    pills.push(h("span", { class: "pill", text: fmt(_("Round %(n)s"), { n: g.round }) + (g.max_rounds ? " / " + g.max_rounds : "") }));
  }
  if (g.last_round) { pills.push(h("span", { class: "pill warn", text: _("Last round") })); }
  if (g.final_step) {
    pills.push(h("span", { class: "pill warn", text: g.stopped ? _("The director stopped the game: the final steps") : _("Time is up: the final steps") }));
  } else if (g.time_up && !g.finished) {
    pills.push(h("span", { class: "pill warn", text: g.stopped ? _("The director stopped the game: finishing the round") : _("Time is up: finishing the round") }));
  }
  if (g.mover && !g.final_step) { pills.push(h("span", { class: "pill", text: fmt(_("Turn: %(name)s"), { name: n.player(g.mover) }) })); }
  if (g.time_limit_minutes && ctx.started_at && !g.finished) {
    pills.push(h("span", { class: "pill clock", "data-clock-start": ctx.started_at, "data-clock-minutes": String(g.time_limit_minutes), text: g.time_limit_minutes + ":00" }));
  }
  return h("section", { class: "status" }, h("h1", { text: ctx.title }), h("p", {}, spaced(pills)));
}

export { status };
