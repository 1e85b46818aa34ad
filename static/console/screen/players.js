/* The players: each one's card (cash, position, jail, his title deeds, debts, the banknotes counted) and
   what he may build, sell and mortgage. */
import { _, ngettext, pgettext, fmt, signed, h, add, tapButton, groupClass, role } from "./elements.js";
import { details, reused, place } from "./kept.js";
import { saleLabel } from "./debts.js";
import { openTrade } from "./trade.js";

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

export { players };
