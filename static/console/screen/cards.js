/* A card drawn: the texts of its deck listed (one tap each), or, for a deck whose texts are not listed, what
   it does, tapped or typed; the dice for a utility's rent asked in place. */
import { _, ngettext, fmt, h, add, tapButton, dicePad, card } from "./elements.js";
import { details } from "./kept.js";

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

export { cardDraw };
