/* The move just made, in words, and its undo: a quick reason or the right dice for this device's own move, a
   reason typed for another device's. */
import { _, fmt, h, dicePad } from "./elements.js";
import { details } from "./kept.js";

function justNow(view, ctx) {
  var just = ctx.just;
  var said = just && just.notes && just.notes.length;
  if (!said && !ctx.undo) { return null; }
  var box = h("div", { class: "just-now", id: "just-now" });
  if (said) {
    var number = just.seq ? (just.first && just.first !== just.seq ? "#" + just.first + "–" : "") + "#" + just.seq : _("waiting");
    box.appendChild(h("p", { role: "status" }, h("span", { class: "muted", text: number }), " " + just.notes.join(" ")));
  }
  if (ctx.undo) { box.appendChild(undo(ctx)); }
  return box;
}

function undo(ctx) {
  var u = ctx.undo;
  var label = u.waiting ? _("Undo the last move (not sent yet)") : (u.first && u.first !== u.seq
    ? fmt(_("Undo moves #%(first)s–#%(seq)s (one tap entered them)"), { first: u.first, seq: u.seq })
    : fmt(_("Undo move #%(seq)s"), { seq: u.seq }));
  var box = details("undo-" + (u.waiting ? "waiting" : u.seq), false, h("summary", { text: label }), function () {
    var inside = [];
    if (u.own) {
      if (u.dice) {
        inside.push(h("div", { class: "correct-dice" }, h("p", { class: "muted", text: _("Wrong dice? The right ones:") }),
          dicePad({ tap: function (dice) { ctx.undoTap({ dice: dice[0] }); } }, function (dice) { return [dice]; }, { label: _("The right dice"), quiet: true, what: "right_dice" })));
      }
      inside.push(h("div", { class: "quick-undo" }, h("p", { class: "muted", text: _("Why? One tap undoes it:") }),
        h("div", { class: "reasons" }, [["tap", _("wrong tap")], ["dice", _("wrong dice")], ["amount", _("wrong amount")]].map(function (r) {
          return h("button", { type: "button", class: "danger", "data-quick": r[0], on: { click: function () { ctx.undoTap({ quick: r[0] }); } } }, r[1]);
        }))));
    } else {
      inside.push(h("p", { class: "muted", text: _("It was entered on another device: say why you undo it.") }));
    }
    if (!u.waiting) {
      var reason = h("input", { name: "reason", required: true, maxlength: "200", "aria-label": _("Reason"), placeholder: u.own ? _("or another reason") : _("why undo?") });
      inside.push(h("form", { class: "row undo", on: { submit: function (e) { e.preventDefault(); ctx.undoTap({ reason: reason.value }); } } },
        reason, h("button", { class: "danger", text: _("Undo the last move") })));
    }
    return inside;
  });
  box.className = "undo-last";
  return box;
}

export { justNow };
