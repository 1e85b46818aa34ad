/* The building blocks of the referee's console's screen (static/console/screen.js draws it from the parts in
   this folder): its words (Django's JavaScript catalogue, window.gettext …: the page loads it first), an
   element made in one call (h), a button that enters one tap's events, the dice pad, a card, and the names
   of the view model's ids. */

// -- words ---------------------------------------------------------------------------------------------
var _ = window.gettext;
var ngettext = window.ngettext;
var pgettext = window.pgettext;
function fmt(text, values) { return window.interpolate(text, values, true); }
/* A difference as printed: +10, −200 (a minus sign, not a hyphen), 0 (rules.banknotes.signed). */
function signed(amount) { return amount > 0 ? "+" + amount : (amount < 0 ? "\u2212" + (-amount) : "0"); }

// -- building blocks -----------------------------------------------------------------------------------
function h(tag, attrs) {
  var node = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (k) {
    var v = attrs[k];
    if (v === null || v === undefined || v === false) { return; }
    if (k === "text") { node.textContent = v; } else if (k === "on") {
      Object.keys(v).forEach(function (type) { node.addEventListener(type, v[type]); });
    } else if (k === "class") { node.className = v; } else if (v === true) { node.setAttribute(k, ""); } else {
      node.setAttribute(k, v);
    }
  });
  for (var i = 2; i < arguments.length; i++) { add(node, arguments[i]); }
  return node;
}
function add(node, child) {
  if (child === null || child === undefined || child === false) { return; }
  if (Array.isArray(child)) { child.forEach(function (c) { add(node, c); }); return; }
  node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
}
function spaced(list) {
  var out = [];
  list.forEach(function (x, i) { if (i) { out.push(" "); } out.push(x); });
  return out;
}

/* A button that enters ``events`` (a list, or a function making it at the tap) in one tap; ``confirm``: the
   question asked first, in place (a second tap: yes). */
function tapButton(ctx, label, events, opts) {
  opts = opts || {};
  var b = h("button", { type: "button", class: opts.cls || null, disabled: opts.disabled || null, "data-what": opts.what || null }, label);
  b.addEventListener("click", function () {
    var made = typeof events === "function" ? events() : events;
    if (!made) { return; }
    var question = typeof opts.confirm === "function" ? opts.confirm(b) : opts.confirm;
    if (question) { return askFirst(b, question, function () { ctx.tap(made, opts.what); }); }
    ctx.tap(made, opts.what);
  });
  return b;
}

function askFirst(button, question, yes) {
  var box = h("div", { class: "confirm", role: "alertdialog", "aria-label": question },
    h("p", { text: question }),
    h("div", { class: "row" },
      h("button", { type: "button", class: "big danger", on: { click: function () { box.remove(); button.hidden = false; yes(); } } }, _("Yes")),
      h("button", { type: "button", class: "big", on: { click: function () { box.remove(); button.hidden = false; button.focus(); } } }, _("No"))));
  button.hidden = true;
  button.after(box);
  box.querySelector("button").focus();
}

/* The dice pad: 36 keys, one for each throw (either order; doubles on the diagonal); a key enters
   ``events(dice)``. */
function dicePad(ctx, events, opts) {
  opts = opts || {};
  var and = pgettext("the dice: 3 and 4", "and");
  var pad = h("div", { class: "pad", role: "group", "aria-label": opts.label || _("The dice thrown") });
  for (var a = 1; a <= 6; a++) {
    for (var b = 1; b <= 6; b++) {
      pad.appendChild(keyOf(ctx, a, b, and, events, opts.what || "dice"));
    }
  }
  return [pad, opts.quiet ? null : h("p", { class: "muted pad-help", text: _("One tap: the key showing both dice, in either order; doubles on the diagonal.") })];
}
function keyOf(ctx, a, b, and, events, what) {
  // (its name "3 and 4"; "3·4" shown by the style sheet from data-dice: a key is one element and no text
  // node to lay out, 36 keys at every roll — 4 elements and 4 texts a key took a quarter of a tap's frame)
  var key = h("button", { type: "button", class: a === b ? "double" : null, value: String(a) + String(b), "data-what": what,
    "aria-label": a + " " + and + " " + b, "data-dice": a + "\u00b7" + b });
  key.addEventListener("click", function () { ctx.tap(events([a, b]), what); });
  return key;
}

function card(cls) {
  var box = h("div", { class: "card " + (cls || "") });
  for (var i = 1; i < arguments.length; i++) { add(box, arguments[i]); }
  return box;
}

// -- names -------------------------------------------------------------------------------------------
/* A square's colour group as a class (.g-brown, …; .g-none off a group): its colour at the edge. */
function groupClass(ctx, square) {
  return "g-" + ((ctx.names.groups && ctx.names.groups[square]) || "none");
}

function namer(view, ctx) {
  var names = {};
  view.players.forEach(function (p) { names[p.id] = p.name; });
  return {
    player: function (id) { return id === null || id === undefined ? _("the bank") : (names[id] || id); },
    square: function (i) { return ctx.names.squares[i] || String(i); },
    deck: function (id) { return ctx.names.decks[id] || id; },
    top: function (roles) { return roles ? _("apartment") : _("hotel"); }
  };
}

/* The Anti-Monopoly role badge, as templates/_role.html draws it: the role's first letter and its name. */
function role(code) {
  if (!code) { return null; }
  var word = { competitor: _("competitor"), monopolist: _("monopolist") }[code] || code;
  return [" ", h("span", { class: "role-badge role-" + code }, h("b", { "aria-hidden": "true", text: word.charAt(0).toUpperCase() }), " " + word)];
}

export { _, ngettext, pgettext, fmt, signed, h, add, tapButton, dicePad, card, groupClass, namer, spaced, role };
