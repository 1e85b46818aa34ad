/* The latest moves, newest first, each with its status, and the link to all of them. */
import { _, fmt, h } from "./elements.js";
import { reused, place } from "./kept.js";

var STATUS = {
  undone: function () { return _("undone"); },
  voided: function () { return _("voided"); }
};
function log(ctx) {
  // (a move's row drawn once: at a tap the list gains one at its top and loses one at its end)
  var rows = ctx.log.map(function (e) {
    return reused("log " + JSON.stringify(e), "", function () {
      var status = e.waiting ? "waiting" : e.status;
      return h("li", { class: status }, h("span", { class: "muted", text: e.waiting ? "…" : "#" + e.seq }), " " + (e.notes.join(" ") || e.type || ""),
        e.waiting ? [" ", h("em", { text: "(" + _("waiting to be sent") + ")" })] : null,
        STATUS[e.status] ? [" ", h("em", { text: "(" + STATUS[e.status]() + ": " + (e.reason || "") + ")" })] : null);
    });
  });
  var list = reused("log list", "", function () { return h("ol", { class: "moves" }); });
  place(list, rows.length ? rows : [h("li", { class: "muted", text: _("No moves yet.") })]);
  var all = reused("log all", JSON.stringify([ctx.logTotal, ctx.movesUrl]), function () {
    return h("p", {}, h("a", { href: ctx.movesUrl, text: fmt(_("Show all moves (%(n)s) to void an earlier one"), { n: ctx.logTotal }) }));
  });
  var box = reused("log", "", function () { return h("section", { class: "log", "aria-label": _("Moves") }, h("h2", { text: _("Moves") })); });
  place(box, [box.firstChild, list, all]);
  return box;
}

export { log };
