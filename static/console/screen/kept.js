/* What outlives a drawing of the screen (drawn anew at every tap): the <details> the referee opened or
   closed, and the parts that did not change, left in place. */
import { h, add } from "./elements.js";

/* The <details> the referee opened (or closed) stay so when the screen is drawn again after a move: each
   is known by its ``key`` (its part of the screen), its first state ``open`` (the view model's default).
   ``fill()``, where given, makes what is inside: drawn closed, only when first opened (a screen is drawn at
   every tap; what nobody opens is not made each time). */
var kept = {};
function details(key, open, summary, fill) {
  var box = h("details", { "data-keep": key, open: (key in kept ? kept[key] : open) || null }, summary);
  var filled = !fill;
  var made = function () {
    if (!filled) { filled = true; add(box, fill()); }
  };
  if (box.open) { made(); }
  // the referee's own opening or closing (a toggle event also comes when it is drawn open); filled before
  // it opens, or at the toggle when opened otherwise (a script, the browser's find in page)
  summary.addEventListener("click", function () { kept[key] = !box.open; made(); });
  box.addEventListener("toggle", function () { if (box.open) { made(); } });
  return box;
}
function forget(key) { delete kept[key]; }
/* The <details> known by ``key`` drawn open (or closed) from now on, as if the referee had tapped it. */
function keepOpen(key, open) { kept[key] = open; }

/* What did not change since the last drawing is kept on the screen as it is (not laid out anew, what was
   typed in it kept): a part made by ``make()`` is known by its ``slot`` and the JSON ``key`` of everything it
   is made from (its buttons' events too), and the node drawn last time is given again while its key is the
   same. Only for parts whose every input is in the key. */
var drawn = {};
function reused(slot, key, make) {
  var was = drawn[slot];
  if (was && was.key === key) { was.used = true; return was.node; }
  drawn[slot] = { key: key, node: make(), used: true };
  return drawn[slot].node;
}
/* A drawing begins: no part is used yet; it ends: the parts it did not use are forgotten. */
function drawingBegins() { Object.keys(drawn).forEach(function (slot) { drawn[slot].used = false; }); }
function drawingEnds() { Object.keys(drawn).forEach(function (slot) { if (!drawn[slot].used) { delete drawn[slot]; } }); }
/* ``nodes`` as ``parent``'s children, in order, those already there left in place (a node taken out and put
   back would be laid out anew). */
function place(parent, nodes) {
  var wanted = new Set(nodes);
  Array.prototype.slice.call(parent.childNodes).forEach(function (c) { if (!wanted.has(c)) { parent.removeChild(c); } });
  var at = parent.firstChild;
  nodes.forEach(function (node) {
    if (node === at) { at = at.nextSibling; } else { parent.insertBefore(node, at); }
  });
}

export { details, forget, keepOpen, reused, place, drawingBegins, drawingEnds };
