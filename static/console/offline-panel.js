/* The console's panel while the Wi-Fi is down: drawn on the phone from what the rules engine says is legal now
   (the console's view model, tournament/console/view_model/, run by engine.js), in the words the page was given in the referee's language
   (tournament/console/offline_words.py). It offers what the engine offers — the roll's dice pad, buy or not,
   the auction's result, the card drawn, the income tax, the Foundation's die, the rents, each player's
   building, sales, mortgages, jail exits and bankruptcy — and the undo of the last move kept on the phone.
   A tap hands the events of the move to the page (offline.js), which applies them with the engine; what
   needs the server (a trade, the deals, the Anti-Monopoly final steps) waits for the Wi-Fi, and says so.
   window.offlinePanel.draw(container, view, words, how): how = {notes, error, waiting, move(events), undo()}. */
(function () {
  "use strict";

  function fmt(phrase, values) {
    return String(phrase).replace(/%\((\w+)\)s/g, function (all, name) {
      return values && name in values ? values[name] : all;
    }).replace(/%%/g, "%");
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") { node.textContent = attrs[k]; } else { node.setAttribute(k, attrs[k]); }
    });
    (children || []).forEach(function (c) { if (c) { node.appendChild(c); } });
    return node;
  }

  function button(label, events, cls) {
    var b = el("button", { type: "button", class: cls || "big", text: label });
    b.dataset.events = JSON.stringify(events);
    return b;
  }

  function card(children, cls) { return el("div", { class: "card " + (cls || "") }, children); }

  function draw(container, view, words, how) {
    var ui = words.ui;
    var offers = view.now;
    var names = {};
    view.players.forEach(function (p) { names[p.id] = p.name; });
    var square = function (i) { return words.squares[i] || String(i); };
    var parts = [];

    var pills = [el("span", { class: "pill", text: fmt(ui.round, { n: view.game.round }) + (view.game.max_rounds ? " / " + view.game.max_rounds : "") })];
    if (view.game.mover) { pills.push(document.createTextNode(" ")); pills.push(el("span", { class: "pill", text: fmt(ui.turn, { name: names[view.game.mover] }) })); }
    parts.push(el("section", { class: "status" }, [el("h1", { text: words.title }), el("p", {}, pills)]));
    parts.push(el("p", { class: "notice offline-note", text: ui.offline_panel }));
    if (how.error) { parts.push(el("p", { class: "error", role: "alert", id: "offline-error", text: how.error })); }
    if ((how.notes && how.notes.length) || how.waiting) {
      var now = [];
      if (how.notes && how.notes.length) { now.push(el("p", { role: "status", text: how.notes.join(" ") })); }
      if (how.waiting) { now.push(el("button", { type: "button", class: "undo", "data-undo": "1", text: ui.undo })); }
      parts.push(el("div", { class: "just-now", id: "offline-just-now" }, now));
    }

    var pending = [];
    if (view.game.finished) { pending.push(card([el("h2", { text: ui.game_over })], "finished")); }
    offers.debts.forEach(function (d) {
      pending.push(card([el("h2", { text: fmt(ui.debt, { name: names[d.player], amount: d.amount }) }),
        d.can_go_bankrupt ? button(ui.bankrupt, [{ type: "bankrupt", player: d.player }], "big danger") : null]));
    });
    if (offers.buy) {
      var b = offers.buy;
      var row = el("div", { class: "row wrap" }, [
        b.can_pay ? button(ui.buy_button, [{ type: "buy", player: b.player }], "big primary") : null,
        button(ui.decline_button, [{ type: "decline", player: b.player }])
      ]);
      pending.push(card([el("h2", { text: fmt(ui.buy, { name: names[b.player], square: square(b.square), price: b.price }) }), row]));
    }
    offers.auctions.forEach(function (a) { pending.push(auction(a, view, ui, square, names)); });
    if (offers.card) { pending.push(cardDraw(offers.card, words, ui, names)); }
    if (offers.tax) {
      var t = offers.tax;
      pending.push(card([el("h2", { text: fmt(ui.tax, { name: names[t.player] }) }), el("div", { class: "row wrap" }, [
        button(fmt(ui.tax_fixed, { amount: t.fixed }), [{ type: "income_tax", player: t.player, choice: "fixed" }]),
        button(fmt(ui.tax_percent, { percent: t.percent }), [{ type: "income_tax", player: t.player, choice: "percent" }])
      ])]));
    }
    if (offers.foundation) {
      var f = offers.foundation;
      pending.push(card([el("h2", { text: fmt(ui.foundation, { name: names[f.player] }) }),
        el("div", { class: "row wrap" }, [1, 2, 3, 4, 5, 6].map(function (n) {
          return button(String(n), [{ type: "foundation", player: f.player, die: n }]);
        }))]));
    }
    offers.rents.forEach(function (r) {
      var label = fmt(ui.rent, { payer: names[r.payer], owner: names[r.owner], amount: r.amount, square: square(r.square) });
      var claim = { type: "rent", player: r.payer, square: r.square };
      pending.push(card([el("h2", { text: label }), r.times ? dicePad(ui, function (d) { return [Object.assign({}, claim, { dice: d })]; })
        : button(ui.rent_button, [claim], "big primary")]));
    });
    if (offers.deals.length || offers.final) {
      pending.push(el("p", { class: "muted", text: ui.not_offline }));
    }
    if (offers.roll) {
      var who = offers.roll.player;
      var roll = [el("h2", { text: fmt(offers.roll.again ? ui.rolls_again : ui.rolls, { name: names[who] }) }),
        dicePad(ui, function (d) { return [{ type: "roll", player: who, dice: d }]; })];
      var jail = el("div", { class: "row" }, [
        offers.roll.jail_fine !== null ? button(ui.jail_fine, [{ type: "jail_fine", player: who }]) : null,
        offers.roll.jail_card ? button(ui.jail_card, [{ type: "jail_card", player: who }]) : null
      ]);
      if (jail.childNodes.length) { roll.push(jail); }
      pending.push(card(roll, "roll-card"));
    }
    parts.push(el("section", { class: "now" }, pending));
    parts.push(players(view, words, square));

    container.replaceChildren.apply(container, parts);
    container.querySelectorAll("[data-events]").forEach(function (b) {
      b.addEventListener("click", function () { how.move(JSON.parse(b.dataset.events)); });
    });
    container.querySelectorAll("[data-undo]").forEach(function (b) {
      b.addEventListener("click", function () { how.undo(); });
    });
  }

  function dicePad(ui, events) {
    var pad = el("div", { class: "pad", role: "group" });
    for (var a = 1; a <= 6; a++) {
      for (var b = 1; b <= 6; b++) {
        var key = button("", events([a, b]), a === b ? "double" : "");
        key.append(String(a), el("span", { "aria-hidden": "true", text: "·" }), el("span", { class: "visually-hidden", text: " " + ui.and + " " }), String(b));
        key.value = String(a) + String(b);
        pad.appendChild(key);
      }
    }
    return pad;
  }

  function auction(a, view, ui, square, names) {
    var winner = el("select", { "aria-label": ui.winner });
    view.players.filter(function (p) { return !p.bankrupt; }).forEach(function (p) {
      winner.appendChild(el("option", { value: p.id, text: p.name }));
    });
    var price = el("input", { inputmode: "numeric", pattern: "[0-9]*", size: "6", "aria-label": ui.price, placeholder: ui.price, value: String(a.opening_bid || "") });
    var sold = el("button", { type: "button", class: "big primary", text: ui.sold });
    var events = function () {  // what the button enters: always what is chosen and typed now
      sold.dataset.events = JSON.stringify([{ type: "auction", square: a.square, winner: winner.value, price: Number(price.value) }]);
    };
    winner.addEventListener("change", events);
    price.addEventListener("input", events);
    events();
    return card([el("h2", { text: fmt(ui.auction, { square: square(a.square) }) }),
      el("div", { class: "row wrap" }, [winner, price, sold]),
      button(ui.nobody, [{ type: "auction", square: a.square, winner: null, price: 0 }], "")]);
  }

  function cardDraw(c, words, ui, names) {
    var offers = ((words.cards[c.player] || {})[c.deck]) || [];
    var listed = c.cards === null ? null : c.cards.map(function (listedCard) { return c.deck + ":" + listedCard.id; });
    var buttons = offers.filter(function (o) { return !o.card || listed === null || listed.indexOf(o.card) >= 0; })
      .map(function (o) {
        var ev = o.card ? { type: "card", player: c.player, card: o.card } : { type: "card", player: c.player, effect: JSON.parse(o.effect) };
        return button(o.label, [ev], "big");
      });
    return card([el("h2", { text: fmt(ui.card, { name: names[c.player], deck: words.decks[c.deck] || c.deck }) }),
      el("div", { class: "cardlist" }, buttons)]);
  }

  function players(view, words, square) {
    var ui = words.ui;
    var list = el("section", { class: "players" });
    view.players.forEach(function (p) {
      var o = p.may || {};
      var role = p.role && words.roles[p.role] ? " (" + words.roles[p.role] + ")" : "";
      var head = el("h3", { text: p.name + role + " · " + p.cash + " " + ui.cash });
      var deeds = el("p", { class: "muted", text: p.deeds.map(function (d) {
        return square(d.square) + (d.level ? " " + "⌂".repeat(Math.min(d.level, p.top)) : "") + (d.mortgaged ? " (" + words.ui.mortgaged + ")" : "");
      }).join(", ") });
      var actions = [];
      var choose = function (label, squares, events) {
        if (!squares.length) { return; }
        var select = el("select", { "aria-label": ui.square });
        squares.forEach(function (sq) { select.appendChild(el("option", { value: String(sq), text: square(sq) })); });
        var go = el("button", { type: "button", text: label });
        var chosen = function () { go.dataset.events = JSON.stringify(events(Number(select.value))); };
        select.addEventListener("change", chosen);
        chosen();
        actions.push(el("div", { class: "row" }, [select, go]));
      };
      var squares = function (list) { return (list || []).map(function (x) { return x.square; }); };
      choose(ui.build, squares(o.build), function (sq) { return [{ type: "build", player: p.id, square: sq }]; });
      var sales = {};
      (o.sell || []).forEach(function (x) { sales[x.square] = x.count; });
      choose(ui.sell_building, squares(o.sell), function (sq) {
        return [{ type: "sell_building", player: p.id, square: sq, count: sales[sq] }];
      });
      choose(ui.mortgage, squares(o.mortgage), function (sq) { return [{ type: "mortgage", player: p.id, square: sq }]; });
      choose(ui.unmortgage, squares(o.unmortgage), function (sq) { return [{ type: "unmortgage", player: p.id, square: sq }]; });
      var box = el("div", { class: "player" + (p.bankrupt ? " bankrupt" : ""), "data-player": p.id }, [head, deeds]);
      if (actions.length) {
        var more = el("details", {}, [el("summary", { text: ui.build + " · " + ui.sell_building + " · " + ui.mortgage })].concat(actions));
        box.appendChild(more);
      }
      list.appendChild(box);
    });
    return list;
  }

  window.offlinePanel = { draw: draw, fmt: fmt };
}());
