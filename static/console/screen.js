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
   nothing here knows a rule; the view model says what is offered, the engine checks what is entered. */
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

function card(cls) {
  var box = h("div", { class: "card " + (cls || "") });
  for (var i = 1; i < arguments.length; i++) { add(box, arguments[i]); }
  return box;
}

function number(name, value, label, opts) {
  opts = opts || {};
  return h("label", { class: opts.cls || null }, label + " ",
    h("input", { type: "number", name: name, min: opts.min === undefined ? "0" : String(opts.min), max: opts.max || null, inputmode: "numeric", value: value === undefined || value === null ? "" : String(value), required: opts.required || null }));
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

// -- the screen ---------------------------------------------------------------------------------------
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

function draw(root, view, ctx) {
  ctx.view = view;
  var n = namer(view, ctx);
  Object.keys(drawn).forEach(function (slot) { drawn[slot].used = false; });
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
  Object.keys(drawn).forEach(function (slot) { if (!drawn[slot].used) { delete drawn[slot]; } });
}

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
function spaced(list) {
  var out = [];
  list.forEach(function (x, i) { if (i) { out.push(" "); } out.push(x); });
  return out;
}

// -- the move just made, and its undo --------------------------------------------------------------------
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

// -- the game over -----------------------------------------------------------------------------------
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

/* The Anti-Monopoly role badge, as templates/_role.html draws it: the role's first letter and its name. */
function role(code) {
  if (!code) { return null; }
  var word = { competitor: _("competitor"), monopolist: _("monopolist") }[code] || code;
  return [" ", h("span", { class: "role-badge role-" + code }, h("b", { "aria-hidden": "true", text: word.charAt(0).toUpperCase() }), " " + word)];
}

// -- what happens now -------------------------------------------------------------------------------------
function now(view, ctx, n) {
  var w = view.now;
  var active = view.players.filter(function (p) { return !p.bankrupt; });
  var out = [];
  w.deals.forEach(function (d) { out.push(deal(d, w, ctx, n)); });
  w.debts.forEach(function (d) { out.push(debt(d, view, ctx, n, active)); });
  if (w.buy) { out.push(buy(w.buy, ctx, n, active)); }
  w.auctions.forEach(function (a) { out.push(auction(a, ctx, n, active)); });
  if (w.card) { out.push(cardDraw(w.card, view, ctx, n)); }
  if (w.tax) {
    var t = w.tax;
    var taxed = function (choice) { return [{ type: "income_tax", player: t.player, choice: choice }]; };
    out.push(card("tax", h("h2", { text: fmt(_("Income tax: %(name)s chooses"), { name: n.player(t.player) }) }),
      h("div", { class: "row" }, tapButton(ctx, fmt(_("Pay %(amount)s"), { amount: t.fixed }), taxed("fixed"), { cls: "big", what: "tax" }),
        tapButton(ctx, fmt(_("Pay %(amount)s (percentage)"), { amount: t.percent }), taxed("percent"), { cls: "big", what: "tax" }))));
  }
  if (w.foundation) {
    var f = w.foundation;
    out.push(card("foundation", h("h2", { text: fmt(_("Anti-Monopoly Foundation: %(name)s rolls one die"), { name: n.player(f.player) }) }),
      h("div", { class: "row wrap" }, [1, 2, 3, 4, 5, 6].map(function (die) {
        return tapButton(ctx, String(die), [{ type: "foundation", player: f.player, die: die }], { cls: "big", what: "foundation" });
      }))));
  }
  w.rents.forEach(function (r) { out.push(rentCard(r, w, ctx, n)); });
  if (w.final) { out.push(finalSteps(w.final, view, ctx, n)); }
  if (w.roll) { out.push(roll(w, ctx, n)); }
  if (!out.length && w.blocked_by && !view.game.finished) { out.push(h("p", { class: "muted blocked", text: w.blocked_by })); }
  return out;
}

function lapseNote(w) {
  if (w.final && w.final.step === "dealings") { return h("p", { class: "muted", text: _("Not claimed before each keeps a share of cash, it lapses.") }); }
  return h("p", { class: "muted", text: w.rent_lapses_at === "next_player_roll" ? _("Not claimed before the next player rolls, it lapses.") : _("Not claimed before the next roll, it lapses.") });
}

/* The rents a step about to be entered ends (a roll, the two-hour game's shares kept), each said in
   ``words`` with a way to claim it first. */
function lapseWarning(rents, words, ctx, n) {
  return h("div", { class: "lapse", role: "note" }, rents.map(function (rent) {
    return [h("p", { class: "warn", text: fmt(words, { payer: n.player(rent.payer), owner: n.player(rent.owner), square: n.square(rent.square), amount: rent.amount }) }),
      rent.times ? h("p", { class: "muted", text: fmt(_("To claim it, %(payer)s throws the dice for it above first."), { payer: n.player(rent.payer) }) })
        : tapButton(ctx, fmt(_("Claim the rent %(amount)s first"), { amount: rent.amount }), [{ type: "rent", player: rent.payer, square: rent.square }], { cls: "big primary", what: "rent" })];
  }));
}

function roll(w, ctx, n) {
  var r = w.roll;
  var box = card("roll-card");
  if (r.rents_lapse && w.rents.length) {
    box.appendChild(lapseWarning(w.rents, _("With this roll the rent lapses: %(payer)s → %(owner)s (%(square)s), %(amount)s."), ctx, n));
  }
  var who = n.player(r.player);
  box.appendChild(h("h2", {}, r.again ? fmt(_("%(name)s rolls again (double)"), { name: who }) : fmt(_("%(name)s rolls"), { name: who }),
    r.in_jail ? [" ", h("span", { class: "pill warn", text: _("in jail") })] : null));
  add(box, dicePad(ctx, function (dice) { return [{ type: "roll", player: r.player, dice: dice }]; }, { what: "roll" }));
  if (r.jail_fine !== null || r.jail_card) {
    box.appendChild(h("div", { class: "row" },
      r.jail_fine !== null ? tapButton(ctx, fmt(_("Pay the fine %(fine)s"), { fine: r.jail_fine }), [{ type: "jail_fine", player: r.player }], { cls: "big", what: "jail_fine" }) : null,
      r.jail_card ? tapButton(ctx, _("Use a 'Get out of jail' card"), [{ type: "jail_card", player: r.player }], { cls: "big", what: "jail_card" }) : null));
  }
  return box;
}

function buy(b, ctx, n, active) {
  var decline = { type: "decline", player: b.player };
  var box = card("buy", h("h2", { text: fmt(_("%(name)s is on %(square)s"), { name: n.player(b.player), square: n.square(b.square) }) }),
    h("div", { class: "row" },
      tapButton(ctx, fmt(_("Buy for %(price)s"), { price: b.price }), [{ type: "buy", player: b.player }], { cls: "big primary", disabled: !b.can_pay, what: "buy" }),
      b.auction === null ? tapButton(ctx, _("Decline"), [decline], { cls: "big", what: "decline" }) : null));
  if (!b.can_pay) {
    box.appendChild(h("p", { class: "muted", text: b.auction === null ? _("Not enough cash: mortgage or sell first, or decline.") : _("Not enough cash: mortgage or sell first, or put it up for auction.") }));
  }
  if (b.auction !== null) {
    box.appendChild(h("div", { class: "auction" }, h("h3", { text: fmt(_("Or declined, and auctioned from %(opening)s:"), { opening: b.auction }) }),
      soldTo(ctx, n, active, b.square, b.auction, [decline])));
  }
  return box;
}

function auction(a, ctx, n, active) {
  return card("auction", h("h2", { text: fmt(_("Auction: %(square)s"), { square: n.square(a.square) }) }),
    h("p", { class: "muted" }, fmt(_("Printed price %(price)s; the winning bid must be at least %(opening)s."), { price: a.price, opening: a.opening_bid }),
      a.optional ? " " + _("From a bankruptcy to the bank: not sold before the next roll, it stays with the bank.") : null),
    soldTo(ctx, n, active, a.square, a.opening_bid, []));
}

/* The price (the opening bid typed in) and one button a player: "Sold to" him; or nobody bought. */
function soldTo(ctx, n, active, square, bid, before) {
  var price = h("input", { type: "number", name: "price", min: "0", inputmode: "numeric", value: String(bid) });
  var sold = function (winner) {
    return function () {
      if (!price.reportValidity() || price.value === "") { return null; }
      return before.concat([{ type: "auction", square: square, winner: winner, price: Number(price.value) }]);
    };
  };
  return [h("label", { class: "price" }, _("Price") + " ", price),
    h("div", { class: "sold-to", role: "group", "aria-label": _("Sold to") }, h("span", { class: "muted", text: _("Sold to:") }),
      active.map(function (p) { return tapButton(ctx, p.name, sold(p.id), { what: "auction" }); }),
      tapButton(ctx, _("Nobody bought"), before.concat([{ type: "auction", square: square, winner: null, price: 0 }]), { cls: "nobody", what: "auction" }))];
}

// -- cards ----------------------------------------------------------------------------------------------
var EFFECTS = {
  collect: function () { return _("the bank pays the player"); },
  pay: function () { return _("the player pays the bank"); },
  move_to: function () { return _("advance to a square"); },
  move_back: function () { return _("go back"); },
  nearest: function () { return _("advance to the nearest railroad / utility"); },
  go_to_jail: function () { return _("go to jail"); },
  go_to_price_war: function () { return _("go to Price War"); },
  go_to_prison: function () { return _("go to Prison"); },
  jail_card: function () { return _("get out of jail free"); },
  repairs: function () { return _("repairs: pay per house and hotel"); },
  pay_each_player: function () { return _("pay each player"); },
  collect_from_each_player: function () { return _("collect from each player"); }
};
var FIELDS = {
  amount: function () { return _("Amount"); },
  square: function () { return _("Square"); },
  steps: function () { return _("Squares back"); },
  per_house: function () { return _("Per house"); },
  per_hotel: function () { return _("Per hotel"); }
};
var ORDER = { amount: 0, square: 0, steps: 0, per_house: 0, per_hotel: 1 };

function effectLabel(effect, playerRole) {
  if (effect.kind === "nearest") {
    return effect.square_kind === "railroad" ? _("advance to the nearest railroad") : _("advance to the nearest utility");
  }
  if (effect.kind === "jail_card" && playerRole === "competitor") { return _("get out of Price War free"); }
  if (effect.kind === "jail_card" && playerRole === "monopolist") { return _("get out of Prison free"); }
  if (effect.kind === "repairs" && playerRole) { return _("repairs: pay per house and apartment"); }
  return EFFECTS[effect.kind] ? EFFECTS[effect.kind]() : effect.kind;
}

/* A card's effect as the card says it, its values in words: "the bank pays 50", "advance to Start". */
function effectWords(effect, playerRole, n) {
  var v = { amount: effect.amount, steps: effect.steps, house: effect.per_house, hotel: effect.per_hotel,
    square: effect.square === undefined ? "" : n.square(effect.square) };
  switch (effect.kind) {
    case "collect": return fmt(_("the bank pays %(amount)s"), v);
    case "pay": return fmt(_("pay %(amount)s to the bank"), v);
    case "move_to": return fmt(_("advance to %(square)s"), v);
    case "move_back": return fmt(ngettext("go back %(steps)s square", "go back %(steps)s squares", effect.steps), v);
    case "repairs": return fmt(_("repairs: %(house)s a house, %(hotel)s a hotel"), v);
    case "pay_each_player": return fmt(_("pay each player %(amount)s"), v);
    case "collect_from_each_player": return fmt(_("collect %(amount)s from each player"), v);
    default: return effectLabel(effect, playerRole);
  }
}

function cardDraw(c, view, ctx, n) {
  var player = view.players.filter(function (p) { return p.id === c.player; })[0];
  var draw = function (what) { return Object.assign({ type: "card", player: c.player }, what); };
  var box = card("card-draw", h("h2", { text: fmt(_("%(name)s draws from %(deck)s"), { name: n.player(c.player), deck: n.deck(c.deck) }) }));
  var diceBox = h("div", { class: "card-dice", hidden: true });
  /* A card that sends the token to an owned utility: the dice thrown for the rent are asked in place,
     under the row of the card tapped. */
  var offer = function (label, what, needsDice, cls) {
    if (!needsDice) { return tapButton(ctx, label, [draw(what)], { cls: cls || "big", what: "card" }); }
    return h("button", { type: "button", class: cls || "big", "data-what": "card", on: { click: function (e) {
      e.currentTarget.parentNode.after(diceBox);
      diceBox.replaceChildren();
      add(diceBox, [h("p", { class: "muted", text: fmt(_("%(card)s: the dice thrown for the utility's rent:"), { card: label }) }),
        dicePad(ctx, function (dice) { return [draw(Object.assign({ dice: dice }, what))]; }, { quiet: true, what: "card" })]);
      diceBox.hidden = false;
      diceBox.scrollIntoView({ block: "nearest" });
    } } }, label);
  };
  if (c.cards !== null) {
    var texts = (ctx.names.cards || {})[c.deck] || {};
    box.appendChild(h("div", { class: "cardlist" }, c.cards.map(function (listed) {
      return offer(texts[listed.id] || listed.id, { card: c.deck + ":" + listed.id }, listed.dice);
    })));
    box.appendChild(diceBox);
    return box;
  }
  box.appendChild(h("p", { class: "muted", text: _("The texts of this deck are not listed: tap what the card does.") }));
  var role = player && player.role;
  box.appendChild(h("div", { class: "row wrap one-tap" }, c.effects.map(function (e) {
    return offer(effectWords(e.effect, role, n), { effect: e.effect }, e.dice);
  })));
  var typed = details("card-typed", false, h("summary", { text: _("Another card (an amount, a square or a step count)") }), function () {
    var other = c.other.length ? h("div", { class: "row wrap" }, c.other.map(function (e) {
      return offer(effectLabel(e.effect, role), { effect: e.effect }, e.dice, "");
    })) : null;
    return [other].concat(c.typed.map(typedForm));
  });
  typed.className = "typed";
  function typedForm(t) {
    var label = effectLabel({ kind: t.kind }, role);
    var fields = t.fields.map(function (f) {
      if (f === "square") {
        return h("select", { name: f, "aria-label": FIELDS.square(), required: true }, h("option", { value: "", text: FIELDS.square() + "…" }),
          ctx.names.squares.map(function (name, i) { return h("option", { value: String(i), text: name }); }));
      }
      return h("input", { name: f, type: "number", min: "1", inputmode: "numeric", required: true, placeholder: FIELDS[f] ? FIELDS[f]() : f, "aria-label": FIELDS[f] ? FIELDS[f]() : f, size: "6" });
    });
    var form = h("form", { class: "typed-effect", "data-kind": t.kind }, h("fieldset", {}, h("legend", { text: label }),
      h("div", { class: "row wrap" }, t.effects.map(function (e) {
        return offer(valuesLabel(e.effect, t.fields, n), { effect: e.effect }, e.dice, "");
      }), fields, h("button", { text: _("OK") }))));
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var effect = { kind: t.kind };
      fields.forEach(function (f) { effect[f.name] = Number(f.value); });
      ctx.tap([draw({ effect: effect })], "card");
    });
    return form;
  }
  box.appendChild(typed);
  box.appendChild(diceBox);
  return box;
}

function valuesLabel(effect, fields, n) {
  if (effect.kind === "move_to") { return n.square(effect.square); }
  return fields.slice().sort(function (a, b) { return ORDER[a] - ORDER[b]; }).map(function (f) { return String(effect[f]); }).join(" / ");
}

// -- rents and debts -------------------------------------------------------------------------------------
function rentCard(r, w, ctx, n) {
  var claim = { type: "rent", player: r.payer, square: r.square };
  var words = { payer: n.player(r.payer), owner: n.player(r.owner), amount: r.amount, square: n.square(r.square) };
  if (r.times) {
    return card("rent", h("h2", { text: fmt(_("Rent %(times)s × the dice: %(payer)s → %(owner)s (%(square)s)"), Object.assign({ times: r.times }, words)) }),
      h("p", { class: "muted", text: fmt(_("%(payer)s throws the dice for the rent:"), words) }),
      dicePad(ctx, function (dice) { return [Object.assign({ dice: dice }, claim)]; }, { what: "rent" }), lapseNote(w));
  }
  var title = h("h2", { text: fmt(_("Rent %(amount)s: %(payer)s → %(owner)s (%(square)s)"), words) });
  if (!r.short) {
    return card("rent", title, tapButton(ctx, _("Rent claimed"), [claim], { cls: "big primary", what: "rent" }), lapseNote(w));
  }
  var s = r.short;
  return card("rent short", title,
    h("p", { class: "short-of", text: fmt(_("%(payer)s has %(cash)s: %(owed)s short"), { payer: words.payer, cash: s.cash, owed: s.owed }) }),
    s.choices.length ? raising(ctx, s.choices, s.owed, _("Rent claimed, raise and pay"), [claim], "rent")
      : h("p", { text: _("Nothing is left to sell or mortgage.") }),
    s.can_go_bankrupt ? tapButton(ctx, fmt(_("Rent claimed: %(payer)s goes bankrupt"), words), [claim, { type: "bankrupt", player: r.payer }],
      { cls: "big danger", confirm: _("Claim the rent and declare this player bankrupt?"), what: "bankrupt" }) : null,
    h("div", { class: "claim-alone" }, tapButton(ctx, _("Rent claimed"), [claim], { cls: "big", what: "rent" }), " ", h("span", { class: "muted", text: _("(the debt card follows)") })),
    lapseNote(w));
}

function debt(d, view, ctx, n, active) {
  return card("debt",
    h("h2", { text: fmt(_("%(name)s owes %(amount)s to %(to)s"), { name: n.player(d.player), amount: d.amount, to: n.player(d.to) }) }),
    d.choices.length ? raising(ctx, d.choices, d.amount, _("Raise and pay"), [], "raise") : h("p", { text: _("Nothing is left to sell or mortgage.") }),
    active.length > 1 ? h("p", { class: "muted" }, _("Cash from another player:") + " ", h("a", { href: "#trade", "data-open-trade": "", on: { click: function () { openTrade(null); } } }, _("a trade"))) : null,
    d.can_go_bankrupt ? tapButton(ctx, _("Declare bankruptcy"), [{ type: "bankrupt", player: d.player }], { cls: "big danger", confirm: _("Declare this player bankrupt?"), what: "bankrupt" }) : null);
}

var RAISING_ORDER = ["sell_building", "mortgage"];
function choiceLabel(c, n, view) {
  var e = c.event;
  var sq = n.square(e.square);
  if (e.type === "mortgage") { return fmt(c.needs !== null ? _("Then mortgage %(square)s") : _("Mortgage %(square)s"), { square: sq }); }
  return saleLabel(view, e.player, e.square, e.count, sq);
}
function saleLabel(view, owner, square, count, name) {
  var p = view.players.filter(function (x) { return x.id === owner; })[0];
  var deed = p.deeds.filter(function (d) { return d.square === square; })[0];
  if (deed.level < p.top) { return fmt(_("Sell a house on %(square)s"), { square: name }); }
  if (view.game.roles) { return fmt(_("Sell the apartment on %(square)s"), { square: name }); }
  if (count > 1) { return fmt(_("Sell the whole hotel on %(square)s"), { square: name }); }
  return fmt(_("Sell the hotel on %(square)s"), { square: name });
}

/* A debtor's way out: what he may sell and mortgage, each with what it raises, ticked ones entered
   together, sales before mortgages (a mortgage that needs its street's sale ticks the sale too); what is
   still owed kept up to date as boxes are ticked. */
function raising(ctx, choices, owed, button, before, what) {
  var view = ctx.view;
  var n = namer(view, ctx);
  var boxes = choices.map(function (c, i) {
    return h("input", { type: "checkbox", name: "raise", value: String(i), "data-raises": String(c.raises) });
  });
  var still = h("output", { text: String(owed) });
  var left = h("output", { text: "0" });
  var stillLine = h("span", { "data-owed": "" }, _("Still owed:") + " ", still);
  var leftLine = h("span", { "data-left": "", hidden: true }, _("Paid in full; left over:") + " ", left);
  var update = function () {
    var raised = 0;
    boxes.forEach(function (b) { if (b.checked) { raised += Number(b.dataset.raises); } });
    still.textContent = String(Math.max(owed - raised, 0));
    left.textContent = String(Math.max(raised - owed, 0));
    stillLine.hidden = raised > owed;
    leftLine.hidden = raised <= owed;
    go.disabled = !boxes.some(function (b) { return b.checked; });  // nothing ticked: nothing to enter
  };
  boxes.forEach(function (b, i) {
    b.addEventListener("change", function () {
      var c = choices[i];
      if (b.checked && c.needs !== null) { boxes[c.needs].checked = true; }
      if (!b.checked) { choices.forEach(function (other, j) { if (other.needs === i) { boxes[j].checked = false; } }); }
      update();
    });
  });
  var go = tapButton(ctx, button, function () {
    var ticked = choices.filter(function (c, i) { return boxes[i].checked; }).map(function (c) { return c.event; });
    if (!ticked.length) { return null; }
    ticked.sort(function (a, b) { return RAISING_ORDER.indexOf(a.type) - RAISING_ORDER.indexOf(b.type); });
    return before.concat(ticked);
  }, { cls: "big primary raise", what: what, disabled: true });
  return h("div", { class: "raise" },
    h("fieldset", { class: "raise-choices" }, h("legend", { text: _("Tick what the player sells or mortgages:") }),
      h("div", { class: "raise-list" }, choices.map(function (c, i) {
        return h("label", { class: "raise-choice" + (c.needs !== null ? " after-sale" : "") }, boxes[i], h("span", { text: choiceLabel(c, n, view) }), h("b", { text: "+" + c.raises }));
      }))),
    h("div", { class: "raise-go" }, h("p", { class: "owed", "aria-live": "polite" }, stillLine, leftLine), go));
}

function deal(d, w, ctx, n) {
  var boxes = w.free_deeds.map(function (sq) { return h("input", { type: "checkbox", name: "squares", value: String(sq) }); });
  return card("deal", h("h2", { text: fmt(ngettext("Deal %(count)s title deed to %(name)s", "Deal %(count)s title deeds to %(name)s", d.count), { count: d.count, name: n.player(d.player) }) }),
    h("div", { class: "chips" }, w.free_deeds.map(function (sq, i) {
      return h("label", { class: "chip" }, boxes[i], " " + n.square(sq));
    })),
    tapButton(ctx, _("Deal"), function () {
      var squares = w.free_deeds.filter(function (sq, i) { return boxes[i].checked; });
      return [{ type: "deal", player: d.player, squares: squares }];
    }, { cls: "big primary", what: "deal" }));
}

function finalSteps(f, view, ctx, n) {
  var box = card("final");
  if (f.step === "dealings") {
    box.appendChild(h("h2", { text: view.game.stopped ? _("The director stopped the game: dealings with the bank only") : _("Time is up: dealings with the bank only") }));
    box.appendChild(h("p", { class: "muted", text: _("Players may build, sell buildings, mortgage and lift mortgages. Then each keeps a share of cash (competitors 10 %, monopolists 20 %); the rest goes to the bank.") }));
    box.appendChild(h("table", { class: "compact" }, h("tr", {}, h("th", { text: _("Player") }), h("th", { text: _("Cash") }), h("th", { text: _("Keeps") })),
      f.keeps.map(function (k) { return h("tr", {}, h("td", { text: n.player(k.player) }), h("td", { text: String(k.cash) }), h("td", { text: String(k.kept) })); })));
    var rents = view.now.rents;
    if (rents.length) {
      box.appendChild(lapseWarning(rents, _("With the shares kept the rent lapses: %(payer)s → %(owner)s (%(square)s), %(amount)s."), ctx, n));
    }
    box.appendChild(tapButton(ctx, _("The dealings are over: each keeps a share of cash"), [{ type: "final_keep" }],
      { cls: "big" + (rents.length ? "" : " primary"), what: "final_keep",
        confirm: rents.length ? _("A rent not claimed lapses. The dealings are over: each keeps a share of cash?") : _("The dealings are over: each keeps a share of cash?") }));
  }
  f.rolls.forEach(function (r) {
    box.appendChild(h("h3", { text: fmt(_("%(name)s rolls the dice to value %(square)s"), { name: n.player(r.player), square: n.square(r.square) }) }));
    add(box, dicePad(ctx, function (dice) { return [{ type: "final_roll", player: r.player, square: r.square, dice: dice }]; }, { what: "final_roll" }));
  });
  if (f.step === "tour" && !f.rolls.length) {
    box.appendChild(h("h2", { text: _("The treasurer's tour: one rent per property") }));
    box.appendChild(h("table", { class: "compact" }, h("tr", {}, h("th", { text: _("Property") }), h("th", { text: _("Owner") }), h("th", { text: _("Rent") })),
      f.tour.map(function (t) { return h("tr", {}, h("td", { text: n.square(t.square) }), h("td", { text: n.player(t.owner) }), h("td", { text: String(t.amount) })); })));
    box.appendChild(tapButton(ctx, _("Pay the rents and end the game"), [{ type: "final_tour" }], { cls: "big primary", what: "final_tour" }));
  }
  return box;
}

// -- the clocks -------------------------------------------------------------------------------------------
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

// -- the players --------------------------------------------------------------------------------------------
function players(view, ctx, n) {
  // (a player's card is made from him, the game's standing and the bank: most taps change one player)
  var each = view.players.map(function (p) {
    return reused("player-" + p.id, JSON.stringify([p, view.game, view.bank, ctx.closed]), function () { return player(p, view, ctx, n); });
  });
  var box = reused("players", "", function () { return h("section", { class: "players", "aria-label": _("Players") }); });
  place(box, each);
  return box;
}

function jailWord(p) {
  if (p.role === "monopolist") { return _("in Prison"); }
  if (p.role === "competitor") { return _("in Price War"); }
  return _("in jail");
}

function player(p, view, ctx, n) {
  var box = h("article", { class: "player" + (p.turn ? " turn" : "") + (p.cash < 0 && !p.bankrupt ? " indebted" : "") + (p.bankrupt ? " out" : ""), "data-player": p.id },
    h("header", {}, h("strong", { text: p.name }), role(p.role), " ",
      h("span", { class: "cash" + (p.cash < 0 ? " negative" : ""), text: String(p.cash) }),
      p.in_jail ? [" ", h("span", { class: "pill warn", text: jailWord(p) })] : null,
      p.jail_cards ? [" ", h("span", { class: "pill", text: fmt(ngettext("%(n)s jail card", "%(n)s jail cards", p.jail_cards), { n: p.jail_cards }) })] : null,
      p.bankrupt ? [" ", h("span", { class: "pill", text: _("bankrupt") })] : null),
    h("p", { class: "muted", text: n.square(p.position) + " · " + _("net worth") + " " + p.net_worth + " · " + _("income") + " " + p.income + " · " + _("cost") + " " + p.cost }),
    cashLines(p, view, ctx, n));
  if (p.deeds.length) {
    box.appendChild(h("ul", { class: "props" }, p.deeds.map(function (d) {
      var built = d.level >= p.top ? n.top(view.game.roles) : "⌂".repeat(d.level);
      var inner = [n.square(d.square), built ? [" ", h("b", { text: built })] : null, d.mortgaged ? [" ", h("i", { text: _("mortgaged") })] : null];
      if (d.trade && !ctx.closed) {
        inner = h("a", { href: "#trade", "data-trade-square": String(d.square), on: { click: function () { openTrade(d.square, p.id); } } },
          h("span", { class: "visually-hidden", text: _("Trade:") + " " }), inner, " ", h("span", { class: "deal-mark", "aria-hidden": "true", text: "⇄" }));
      }
      return h("li", { class: "prop " + groupClass(ctx, d.square) + (d.mortgaged ? " mortgaged" : "") + (d.trade ? " deal" : "") }, inner);
    })));
  }
  if (p.may && !ctx.closed && !view.game.finished) { add(box, holdings(p, view, ctx, n)); }
  return box;
}

function cashLines(p, view, ctx, n) {
  var out = [];
  if (p.owes.length) {
    var to = p.owes.length === 1 ? n.player(p.owes[0][0]) : p.owes.map(function (o) { return n.player(o[0]) + " (" + o[1] + ")"; }).join(", ");
    var owed = p.owes.reduce(function (s, o) { return s + o[1]; }, 0);
    out.push(h("p", { class: "negative" }, fmt(_("Owes %(amount)s to %(to)s"), { amount: owed, to: to }) + " · ", h("span", { class: "banknotes", text: fmt(_("in banknotes: %(amount)s"), { amount: p.banknotes }) })));
  } else if (p.owed.length) {
    var from = p.owed.length === 1 ? n.player(p.owed[0][0]) : p.owed.map(function (o) { return n.player(o[0]) + " (" + o[1] + ")"; }).join(", ");
    var total = p.owed.reduce(function (s, o) { return s + o[1]; }, 0);
    out.push(h("p", { class: "owed" }, fmt(_("Owed %(amount)s by %(names)s"), { amount: total, names: from }) + " · ", h("span", { class: "banknotes", text: fmt(_("in banknotes: %(amount)s"), { amount: p.banknotes }) })));
  }
  var c = p.count;
  if (c) {
    var diff = c.counted - c.expected;
    out.push(h("p", { class: "count-result" + (!c.current ? " muted" : (diff ? " off" : "")) },
      diff ? fmt(_("Counted %(counted)s, expected %(expected)s: difference %(difference)s (move #%(seq)s)"), { counted: c.counted, expected: c.expected, difference: signed(diff), seq: c.seq })
        : fmt(_("Counted %(counted)s, as expected (move #%(seq)s)"), { counted: c.counted, seq: c.seq })));
    if (diff && c.moves && c.moves.length) {
      var since = details("since-" + p.id, !!c.latest, h("summary", { text: c.previous ? fmt(_("What changed the banknotes since the count at #%(seq)s"), { seq: c.previous }) : _("What changed the banknotes since the start") }), function () {
        return [h("ol", { class: "since" }, c.moves.map(function (m) {
          return h("li", {}, h("span", {}, h("span", { class: "muted", text: "#" + m.seq }), " " + ctx.moveText(m.seq)), " ", h("b", { text: signed(m.amount) }));
        })),
        c.earlier ? h("p", { class: "muted", text: fmt(ngettext("and %(n)s earlier move", "and %(n)s earlier moves", c.earlier), { n: c.earlier }) }) : null];
      });
      since.className = "since";
      out.push(since);
    }
  }
  if (!p.bankrupt && !ctx.closed) {
    var counted = h("input", { type: "number", name: "counted", min: "0", max: "100000", inputmode: "numeric", required: true });
    out.push(h("form", { class: "count", on: { submit: function (e) {
      e.preventDefault();
      if (counted.value === "") { return; }
      ctx.tap([{ type: "cash_count", player: p.id, counted: Number(counted.value) }], "cash_count");
    } } }, h("label", {}, _("Banknotes counted") + " ", counted), " ", h("button", { text: _("Check") })));
  }
  return out;
}

function holdings(p, view, ctx, n) {
  var m = p.may;
  if (!(m.build.length || m.sell.length || m.mortgage.length || m.unmortgage.length)) { return null; }
  var top = n.top(view.game.roles);
  var box = details("actions-" + p.id, p.build_open, h("summary", { text: _("Build, sell, mortgage") }), function () {
    var form = h("div", { class: "holdings" });
    if (m.build.length) {
      form.appendChild(h("fieldset", { class: "chips build" }, h("legend", { text: pgettext("button", "Build") }),
        m.build_each.map(function (b) {
          var names = b.squares.map(n.square).join(", ");
          var label = b.hotels === 0 ? _("A house on each: %(squares)s (%(cost)s)") : (b.hotels === b.squares.length
            ? (view.game.roles ? _("An apartment on each: %(squares)s (%(cost)s)") : _("A hotel on each: %(squares)s (%(cost)s)"))
            : (view.game.roles ? _("A house or an apartment on each: %(squares)s (%(cost)s)") : _("A house or a hotel on each: %(squares)s (%(cost)s)")));
          return tapButton(ctx, fmt(label, { squares: names, cost: b.cost }), b.squares.map(function (sq) { return { type: "build", player: p.id, square: sq }; }), { cls: "each", what: "build" });
        }),
        m.build.map(function (row) {
          var name = n.square(row.square);
          return h("div", { class: "levels " + groupClass(ctx, row.square) + (row.counts.length === 1 ? " one" : "") },
            h("span", { class: "street" }, name, row.level ? [" ", h("b", { text: "⌂".repeat(row.level) })] : null),
            h("span", { class: "counts" }, row.counts.map(function (c) {
              var ev = { type: "build", player: p.id, square: row.square };
              if (c.count > 1) { ev.count = c.count; }
              var b = tapButton(ctx, [h("span", { class: "visually-hidden", text: fmt(_("Build on %(square)s:"), { square: name }) + " " }),
                h("span", { class: "n", text: c.top ? top : "+" + c.count }), h("span", { class: "visually-hidden", text: " · " }), h("span", { class: "cost", text: String(c.cost) })], [ev], { cls: c.top ? "top" : null, what: "build" });
              return b;
            })));
        })));
    }
    if (m.sell.length || m.mortgage.length) {
      form.appendChild(h("fieldset", { class: "chips sell" }, h("legend", { text: _("Sell and mortgage") }),
        m.sell.map(function (s) {
          return tapButton(ctx, saleLabel(view, p.id, s.square, s.count, n.square(s.square)), [{ type: "sell_building", player: p.id, square: s.square, count: s.count }], { what: "sell_building" });
        }),
        m.mortgage.map(function (s) {
          return tapButton(ctx, fmt(_("Mortgage %(square)s (+%(loan)s)"), { square: n.square(s.square), loan: s.loan }), [{ type: "mortgage", player: p.id, square: s.square }], { what: "mortgage" });
        })));
    }
    if (m.unmortgage.length) {
      form.appendChild(h("fieldset", { class: "chips lift" }, h("legend", { text: _("Lift a mortgage") }),
        m.unmortgage.map(function (s) {
          return tapButton(ctx, fmt(_("Lift the mortgage on %(square)s (−%(amount)s)"), { square: n.square(s.square), amount: s.amount }), [{ type: "unmortgage", player: p.id, square: s.square }], { what: "unmortgage" });
        })));
    }
    return form;
  });
  box.className = "actions";
  return box;
}

// -- the trade ----------------------------------------------------------------------------------------------
var tradeOpener = null;
var tradeDraft = null;  // the trade form as typed, until the trade is entered
function openTrade(square, owner) { if (tradeOpener) { tradeOpener(square, owner); } }

function trade(view, ctx, n) {
  var active = view.players.filter(function (p) { return !p.bankrupt; });
  var pair = view.trade;
  var pick = function (name, chosen) {
    return h("select", { name: name, required: true }, active.map(function (p) { return h("option", { value: p.id, text: p.name, selected: p.id === chosen || null }); }));
  };
  var first = pick("player", pair[0]);
  var second = pick("with", pair[1]);
  var sides = [["give", first, _("The first player gives")], ["get", second, _("and gets")]].map(function (s) {
    var deeds = h("div", { class: "chips" });
    var cash = h("input", { type: "number", name: s[0] + "_cash", min: "0", inputmode: "numeric" });
    var cards = h("input", { type: "number", name: s[0] + "_jail_cards", min: "0", max: "2", inputmode: "numeric" });
    var owner = h("p", { class: "muted owner" });
    var cardsLabel = h("label", { "data-jail-cards-input": "" }, _("Jail cards") + " ", cards);
    var fill = function () {
      var p = active.filter(function (x) { return x.id === s[1].value; })[0];
      owner.textContent = fmt(_("%(name)s: cash %(cash)s"), { name: p.name, cash: p.cash }) + (p.jail_cards ? " · " + fmt(ngettext("%(n)s jail card", "%(n)s jail cards", p.jail_cards), { n: p.jail_cards }) : "");
      var tradable = (p.may && p.may.trade) || [];
      deeds.replaceChildren.apply(deeds, tradable.length ? tradable.map(function (sq) {
        return h("label", { class: "chip" }, h("input", { type: "checkbox", name: s[0] + "_squares", value: String(sq) }), " " + n.square(sq));
      }) : [h("span", { class: "muted", text: _("no title deeds to trade") })]);
      cardsLabel.hidden = !p.jail_cards;
    };
    s[1].addEventListener("change", fill);
    fill();
    return { side: s[0], select: s[1], deeds: deeds, cash: cash, cards: cards, fill: fill,
      box: h("fieldset", { "data-side-of": s[0] }, h("legend", { text: s[2] }), owner, deeds, h("div", { class: "row" }, h("label", {}, _("Cash") + " ", cash), cardsLabel)) };
  });
  var part = function (s) {
    var out = {};
    var squares = Array.prototype.filter.call(s.deeds.querySelectorAll("input:checked"), function () { return true; }).map(function (i) { return Number(i.value); });
    if (squares.length) { out.squares = squares; }
    if (Number(s.cash.value) > 0) { out.cash = Number(s.cash.value); }
    if (Number(s.cards.value) > 0) { out.jail_cards = Number(s.cards.value); }
    return out;
  };
  var trading = details("trade", false, h("summary", { text: _("Trade between two players") }));
  trading.className = "card trade";
  trading.id = "trade";
  var form = h("form", { class: "stack", "data-trade": "" },
    h("div", { class: "row wrap" }, h("label", {}, _("Player") + " ", first), h("label", {}, _("with") + " ", second)),
    sides.map(function (s) { return s.box; }),
    h("button", { class: "big primary", text: _("Record the trade") }));
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    if (!form.reportValidity()) { return; }
    tradeDraft = null;
    kept.trade = false;
    ctx.tap([{ type: "trade", player: first.value, with: second.value, give: part(sides[0]), get: part(sides[1]) }], "trade");
  });
  trading.appendChild(form);
  /* What is typed and ticked in the trade form outlives a drawing of the screen (another move's answer,
     another device's move) until the trade is entered: the draft, put back where it still fits. */
  var keepDraft = function () {
    tradeDraft = { player: first.value, with: second.value, sides: sides.map(function (s) {
      return { squares: Array.prototype.map.call(s.deeds.querySelectorAll("input:checked"), function (i) { return i.value; }),
        cash: s.cash.value, cards: s.cards.value };
    }) };
  };
  form.addEventListener("input", keepDraft);
  form.addEventListener("change", keepDraft);
  if (tradeDraft) {
    first.value = tradeDraft.player;
    second.value = tradeDraft.with;
    sides.forEach(function (s, i) {
      s.fill();
      var d = tradeDraft.sides[i];
      d.squares.forEach(function (sq) { var box = s.deeds.querySelector("input[value='" + sq + "']"); if (box) { box.checked = true; } });
      s.cash.value = d.cash;
      s.cards.value = d.cards;
    });
  }
  /* A deed tapped: the trade between its owner and the player whose turn it is (his own deed: with the next
     player), the deed ticked, the cash to type next. */
  tradeOpener = function (square, owner) {
    trading.open = true;
    kept.trade = true;
    if (square !== null) {
      var mine = owner === pair[0];
      first.value = pair[0];
      second.value = mine ? pair[1] : owner;
      sides.forEach(function (s) { s.fill(); });
      var side = sides[mine ? 0 : 1];
      var box = side.deeds.querySelector("input[value='" + square + "']");
      if (box) { box.checked = true; }
      sides[mine ? 1 : 0].cash.focus();
      keepDraft();
    }
    trading.scrollIntoView({ block: "start" });
  };
  return trading;
}

// -- the bank and the log ---------------------------------------------------------------------------------
function bank(view, ctx) {
  var b = view.bank;
  var text = view.game.roles ? fmt(_("Bank: %(houses)s houses, %(hotels)s apartments left (then paper ones)"), b)
    : fmt(_("Bank: %(houses)s houses, %(hotels)s hotels left"), b);
  return h("section", { class: "bank muted" }, text, " · ", h("a", { href: ctx.cardsUrl, text: _("Chart and income/cost cards") }),
    " · ", h("a", { href: ctx.recordUrl, text: _("Download the game record") }));
}

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

export { draw, h, fmt, forget };
