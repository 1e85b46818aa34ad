/* The moves kept on this phone that the server refused (another device moved meanwhile), each with why, in a
   box above the console until the referee has read them: forget() is his "understood". */
import { h } from "./screen/elements.js";

var _ = window.gettext;

export function drawRefused(box, moves, forget) {
  if (!moves.length) { box.hidden = true; box.replaceChildren(); return; }
  box.replaceChildren(
    h("h2", { id: "console-refused-title", text: _("Moves kept on this phone that the server refused") }),
    h("ol", {}, moves.map(function (m) {
      var what = (m.notes || []).join(" ") || JSON.stringify(m.events || m.kind);
      return h("li", { class: "refused-move" }, h("strong", { text: what }), h("span", { class: "why", text: " — " + m.why }));
    })),
    h("button", { type: "button", on: { click: forget } }, _("Understood: forget them")));
  box.hidden = false;
}
