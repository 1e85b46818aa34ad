/* The trade between two players: its form, what is typed in it kept across drawings, and a title deed
   tapped on a player's card opening it. */
import { _, ngettext, fmt, h } from "./elements.js";
import { details, keepOpen } from "./kept.js";

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
    keepOpen("trade", false);
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
    keepOpen("trade", true);
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

export { trade, openTrade };
