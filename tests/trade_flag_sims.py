"""Simulated tournaments for the trade flags (plain Python, no database): random legal games
(``rules.simulate``) of participants seated at random round after round, honest or with gift trades planted
in them — a large gift (a street or cash for nothing, above the flag's threshold) and a colluding pair's
small gifts (each under it, one way, in every game the pair meets). tests/test_trade_flags*.py and
tests/bench_trade_flags.py read them; ``flagged_table`` makes one in the database."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rules import legal, replay
from rules.simulate import Simulator
from rules.trade_flags import PairTrade, TradeReading, game_flags, pair_flags, threshold
from rules.valuation import net_worths, property_value

CASH, PERCENT, MOVES = 300, 20, 20  # the tournament settings' defaults


class GiftSimulator(Simulator):
    """A simulated game with gifts made at chosen moments: ``plan`` is a list of (after how many events,
    giver seat, receiver seat, "large" or "small")."""

    def __init__(self, *args, plan=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.plan = sorted(plan)
        self.planted: list[tuple[int, str, str, str]] = []  # (event index, giver, receiver, kind)

    def step(self) -> None:
        if self.plan and len(self.events) >= self.plan[0][0] and self._quiet() and self._gift():
            return None
        return super().step()

    def _quiet(self) -> bool:
        s = self.state
        return (
            s.turn is not None
            and s.decision is None
            and not s.rents
            and not s.auctions
            and not s.bank_sale
            and s.final_step is None
            and all(p.cash >= 0 for p in s.players)
        )

    def _gift(self) -> bool:
        s = self.state
        _at, g, r, kind = self.plan[0]
        giver, receiver = s.players[g], s.players[r]
        if giver.bankrupt or receiver.bankrupt:
            self.plan.pop(0)  # no gift possible any more
            return False
        limit = threshold(net_worths(s)[giver.id], CASH, PERCENT)
        want = limit + 1 + self.rng.randint(0, 100) if kind == "large" else limit * 3 // 5
        give = {"squares": [], "cash": 0, "jail_cards": 0}
        if giver.cash >= want and (kind == "small" or self.rng.random() < 0.5):
            give["cash"] = want
        else:  # streets for nothing, enough of them (a street alone when it is worth it)
            total = 0
            for sq in self.rng.sample(_tradable(s, giver), len(_tradable(s, giver))):
                if total >= want:
                    break
                give["squares"].append(sq)
                total += property_value(s, sq, s.holdings[sq].mortgaged)
            if total < want:
                if giver.cash + total < want:
                    return False  # not yet: wait for a richer moment
                give["cash"] = want - total
        self.plan.pop(0)
        self.planted.append((len(self.events), giver.id, receiver.id, kind))
        none = {"squares": [], "cash": 0, "jail_cards": 0}
        self.emit({"type": "trade", "player": giver.id, "with": receiver.id, "give": give, "get": none})
        return True


def _tradable(s, p) -> list[int]:
    return legal.tradable(s, p)


class SetSaleSimulator(GiftSimulator):
    """Honest play with what the simulator's own trades lack: the sale of the street that completes another
    player's set, bought at a premium over its price (``premium``: the most, as a share of the price; drawn
    from 0 up to it), as players agree at a real table. The premium is the value moved (buyer to seller)."""

    def __init__(self, *args, premium: float = 1.0, chance: float = 0.02, **kwargs):
        super().__init__(*args, **kwargs)
        self.premium, self.chance = premium, chance
        self.set_sales = 0

    def step(self) -> None:
        if self._quiet() and self.rng.random() < self.chance and self._set_sale():
            return None
        return super().step()

    def _set_sale(self) -> bool:
        s = self.state
        for seller in s.players:
            if seller.bankrupt:
                continue
            for sq in _tradable(s, seller):
                group = s.board.square(sq).group
                others = [m for m in s.board.groups.get(group, ()) if m != sq] if group else []
                owners = {s.holdings[m].owner if m in s.holdings else None for m in others}
                if len(owners) != 1 or None in owners or seller.id in owners:
                    continue
                buyer = s.by_id[owners.pop()]
                price = property_value(s, sq, s.holdings[sq].mortgaged)
                cash = price + int(price * self.premium * self.rng.random())
                if buyer.bankrupt or buyer.cash < cash:
                    continue
                none = {"squares": [], "cash": 0, "jail_cards": 0}
                self.emit(
                    {
                        "type": "trade",
                        "player": seller.id,
                        "with": buyer.id,
                        "give": {**none, "squares": [sq]},
                        "get": {**none, "cash": cash},
                    }
                )
                self.set_sales += 1
                return True
        return False


@dataclass
class SimTournament:
    games: list[dict] = field(default_factory=list)  # {"record", "seats": [participant keys], "planted"}
    pair: tuple[str, str] | None = None  # the colluding pair (giver, receiver)

    def readings(self) -> list[TradeReading]:
        out = []
        for g in self.games:
            reading = TradeReading()
            result = replay(g["record"], on_outcome=reading, narrate=False)
            assert result.ok, result.error
            out.append(reading)
        return out


def sim_tournament(
    seed: int,
    participants: int = 12,
    rounds: int = 4,
    variant: str = "classic",
    board: str = "classic-us",
    gifts: bool = False,
    game_rounds: int = 100,
    premium: float | None = None,
) -> SimTournament:
    """Participants p0…pN seated 4 a table at random each round; with ``gifts``: one large gift in every
    game, and p0 giving p1 two small gifts in every game they meet (seated together in round 1 at least);
    with ``premium``: honest set-completing sales at up to that premium (SetSaleSimulator)."""
    rng = random.Random(seed)
    t = SimTournament(pair=("p0", "p1") if gifts else None)
    keys = [f"p{i}" for i in range(participants)]
    for n in range(rounds):
        order = keys[:]
        rng.shuffle(order)
        if gifts and n == 0:  # the pair meets at least once
            order.remove("p1")
            order.insert(order.index("p0") // 4 * 4, "p1")
        for k in range(0, participants, 4):
            seats = order[k : k + 4]
            plan = []
            if gifts:
                g, r = rng.sample(range(4), 2)
                plan.append((rng.randint(60, 400), g, r, "large"))
                if "p0" in seats and "p1" in seats:
                    a, b = seats.index("p0"), seats.index("p1")
                    plan += [(rng.randint(30, 150), a, b, "small"), (rng.randint(150, 300), a, b, "small")]
            seed_ = rng.randrange(10**6)
            if premium is None:
                sim = GiftSimulator(variant, board, 4, seed_, game_rounds, plan=plan)
            else:  # honest, with set-completing sales at a premium up to ``premium`` of the price
                sim = SetSaleSimulator(variant, board, 4, seed_, game_rounds, plan=plan, premium=premium)
            t.games.append({"record": sim.run(), "seats": seats, "planted": sim.planted})
    return t


@dataclass
class Measured:
    trades: int = 0  # honest trades (the planted ones aside)
    games: int = 0
    flags: dict[str, int] = field(default_factory=lambda: {"large": 0, "bankrupt": 0, "pair": 0})
    planted: int = 0
    found: int = 0
    missed: list = field(default_factory=list)
    unplanted: int = 0  # pairs meant to collude whose gifts were never made (a player bankrupt first, …)


def measure(t: SimTournament, into: Measured | None = None) -> Measured:
    """The flags on a simulated tournament: false ones counted by rule (a trade not planted, a pair not
    colluding), planted gifts found (a large gift: flagged at its move; the pair: its flag, giver first)."""
    m = into or Measured()
    trades = []
    gifted = set()  # the pairs a planted gift was made between: their pair flag is no false one
    for gi, (g, reading) in enumerate(zip(t.games, t.readings(), strict=True)):
        m.games += 1
        planted = {seq for seq, _g, _r, _k in g["planted"]}
        m.trades += sum(1 for tr in reading.trades if tr.seq not in planted)
        flags = game_flags(gi, reading.trades, reading.bankruptcies, CASH, PERCENT, MOVES)
        flagged = {f.seq for f in flags}
        for f in flags:
            if f.seq not in planted:
                m.flags[f.kind] += 1
        who = dict(zip("ABCD", g["seats"], strict=True))
        for seq, giver, receiver, kind in g["planted"]:
            gifted.add(tuple(sorted((who[giver], who[receiver]))))
            if kind == "large":
                m.planted += 1
                if seq in flagged:
                    m.found += 1
                else:
                    m.missed.append((gi, seq, giver, receiver))
        for tr in reading.trades:
            if tr.value:
                trades.append(
                    PairTrade(gi, tr.seq, who[tr.giver], who[tr.receiver], tr.value, tr.giver_worth)
                )
    pairs = pair_flags(trades, CASH, PERCENT)
    for f in pairs:
        if tuple(sorted((f.giver, f.receiver))) in gifted:
            continue
        m.flags["pair"] += 1
    smalls = sum(1 for g in t.games for _s, _g, _r, kind in g["planted"] if kind == "small")
    if t.pair is not None and smalls >= 2:  # (a pair whose gifts the game never allowed is no pair planted)
        m.planted += 1
        if any((f.giver, f.receiver) == t.pair for f in pairs):
            m.found += 1
        else:
            m.missed.append(("pair", t.pair))
    elif t.pair is not None:
        m.unplanted += 1
    return m


def play_gifts(table, director, plan):
    """Start the table's game in seat order and play it to the end with the gifts of ``plan`` (as
    GiftSimulator's, by seat) planted. Needs the database."""
    from tests.tournaments import start_game
    from tournament.games import recording

    t = table.round.tournament
    game = start_game(table, director)
    sim = GiftSimulator(
        t.variant, t.board, table.seats.count(), 11 + table.pk, t.game_rounds, plan=list(plan)
    )
    for ev in sim.run()["events"]:
        game = recording.submit(game.pk, ev, version=game.version).game
    assert len(sim.planted) == len(plan)
    return game


def flagged_table(director, plan=((30, 0, 1, "large"),)):
    """A one-table tournament (directed by ``director``) whose game has the gifts of ``plan`` (as
    GiftSimulator's; by default a large gift, seat 1 to seat 2) in it, played to the end: its table. Needs the
    database (the bench does not call it)."""
    from tests.tournaments import make_tournament
    from tournament.event import rounds

    t = make_tournament(4, name="Cup", rounds=2, game_rounds=20, seed=5, table_size=4)
    t.directors.add(director)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    play_gifts(table, director, plan)
    return table
