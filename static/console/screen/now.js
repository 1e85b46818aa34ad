/* What happens now: a card for each thing the view model says is to be entered (title deeds dealt, debts, a
   purchase, auctions, a card drawn, the income tax, the Foundation's die, rents, the final steps, the roll),
   with its controls. (A card drawn: cards.js; rents and debts: debts.js.) */
import { _, ngettext, fmt, h, add, tapButton, dicePad, card } from "./elements.js";
import { cardDraw } from "./cards.js";
import { debt, rentCard } from "./debts.js";
import { reused } from "./kept.js";

function now(view, ctx, n) {
  var w = view.now;
  var active = view.players.filter(function (p) { return !p.bankrupt; });
  var out = [];
  // (kept while its offer is the same: the deeds ticked stay ticked when the screen is drawn again meanwhile,
  // another phone's move or a refusal's words)
  w.deals.forEach(function (d) {
    out.push(reused("deal " + d.player, JSON.stringify([d, w.free_deeds, ctx.closed]), function () { return deal(d, w, ctx, n); }));
  });
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

export { now };
