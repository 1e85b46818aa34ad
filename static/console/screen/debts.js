/* Rents and debts: a rent claimed (or the dice thrown for it), a debtor's way out (what he sells and
   mortgages, ticked), bankruptcy; and a building's sale in words (the players' cards say it too). */
import { _, fmt, h, tapButton, dicePad, card, namer } from "./elements.js";
import { openTrade } from "./trade.js";

function lapseNote(w) {
  if (w.final && w.final.step === "dealings") { return h("p", { class: "muted", text: _("Not claimed before each keeps a share of cash, it lapses.") }); }
  return h("p", { class: "muted", text: w.rent_lapses_at === "next_player_roll" ? _("Not claimed before the next player rolls, it lapses.") : _("Not claimed before the next roll, it lapses.") });
}

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

export { rentCard, debt, saleLabel };
