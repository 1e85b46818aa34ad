"""Random but legal games, for tests and benchmarks (`python manage.py simulate`).

Each decision (buy or decline, auction bids, building, mortgages, trades, rent claims, jail exits, cards,
timeouts, bankruptcies) is drawn at random among what is legal now — what is pending in the state, and the
options of :mod:`rules.legal` (the console's own) — and every event is applied by the engine before it is
written: a record made here always replays. The simulator owns its state: events are applied in place,
without notes.
"""

from __future__ import annotations

import gc
import random
from bisect import bisect
from contextlib import contextmanager
from itertools import accumulate

from rules import final_steps, jail, legal
from rules.board import Deck, get_board
from rules.engine import apply_in_place, new_game
from rules.errors import RecordError, RuleError
from rules.fit import why_board_does_not_fit
from rules.record import FORMAT
from rules.roles import ROLES
from rules.state import BuyDecision, CardDraw, Decision, FoundationRoll, TaxChoice
from rules.turns import deals_missing, next_roller
from rules.variants import make_variant

NAMES = ["Anna", "Bartek", "Celina", "Darek", "Ewa", "Filip", "Gosia", "Henryk"]

#: Effects drawn for a deck whose cards the board does not list.
GENERIC_EFFECTS = [
    {"kind": "collect", "amount": 50},
    {"kind": "collect", "amount": 100},
    {"kind": "pay", "amount": 50},
    {"kind": "pay", "amount": 15},
    {"kind": "move_to", "square": 0},
    {"kind": "move_to", "square": 24},
    {"kind": "move_back", "steps": 3},
    {"kind": "nearest", "square_kind": "railroad", "rent_multiplier": 2},
    {"kind": "go_to_jail"},
    {"kind": "jail_card"},
    {"kind": "repairs", "per_house": 25, "per_hotel": 100},
    {"kind": "pay_each_player", "amount": 50},
    {"kind": "collect_from_each_player", "amount": 10},
]


class Simulator:
    def __init__(
        self,
        variant: str,
        board: str,
        players: int,
        seed: int,
        rounds: int | None = None,
        max_events: int = 50_000,
        time_up_round: int | None = None,
        options: dict | None = None,
        roles: list[str] | None = None,
    ):
        self.rng = random.Random(seed)
        options = {**(options or {}), **({"max_rounds": rounds} if rounds else {})}
        self.variant = make_variant(variant, options)
        self.board = get_board(board)
        misfit = why_board_does_not_fit(self.variant, self.board)
        if misfit is not None:  # the record would be refused
            raise RecordError(misfit.code, misfit.template, **misfit.params)
        self.players = [{"id": chr(ord("A") + i), "name": NAMES[i % len(NAMES)]} for i in range(players)]
        if self.variant.roles:  # given, or balanced: alternating in seat order, the first seat's role drawn
            first = self.rng.randrange(2)
            for i, p in enumerate(self.players):
                p["role"] = roles[i] if roles else ROLES[(i + first) % 2]
        self.record = {
            "format": FORMAT,
            "variant": variant,
            "board": board,
            "players": self.players,
            "options": options,
            "events": [],
        }
        self.state = new_game(
            self.board, self.variant, [(p["id"], p["name"], p.get("role")) for p in self.players]
        )
        self.events: list[dict] = self.record["events"]  # the record's, at hand
        self.max_events = max_events
        self._drawables: dict[tuple[str, frozenset[str]], tuple[list[str], list[int]]] = {}
        self.time_up_round = time_up_round
        if self.time_up_round is None and (self.variant.timed and not rounds):
            self.time_up_round = self.rng.randint(8, 40)

    # -- the loop ----------------------------------------------------------------------------------------
    def run(self) -> dict:
        with _cyclic_gc_paused():
            state, events, max_events, step = self.state, self.events, self.max_events, self.step
            while not state.finished and len(events) < max_events:
                step()
        if self.state.finished and self.variant.ending == "game_b":  # Game B: value the utilities
            for sq in final_steps.utilities_to_roll(self.state):
                owner = self.state.holdings[sq].owner
                self.emit({"type": "final_roll", "player": owner, "square": sq, "dice": self.dice()})
        return self.record

    def emit(self, event: dict) -> None:
        apply_in_place(self.state, event, False)  # no notes
        self.events.append(event)

    def step(self) -> None:
        s, rng = self.state, self.rng
        if s.turn is None and s.variant.deal_title_deeds:
            missing = deals_missing(s)
            if missing:
                pid, count = missing[0]
                free = [sq.index for sq in self.board.properties if sq.index not in s.holdings]
                return self.emit({"type": "deal", "player": pid, "squares": rng.sample(free, count)})
        if s.final_step is not None:
            return self.final_step()
        for r in s.rents:
            if rng.random() < 0.9:
                event = {"type": "rent", "player": r.payer, "square": r.square}
                if r.times:
                    event["dice"] = self.dice()
                return self.emit(event)
        for p in s.players:
            if p.cash < 0 and not p.bankrupt:
                return self.raise_money(p.id)
        d = s.decision
        if d is not None:
            return self.decide(d)
        if s.auctions or s.bank_sale:
            return self.run_auction((*s.auctions, *s.bank_sale)[0])
        v = s.variant
        if self.time_up_round and not s.time_up and v.timed and s.round >= self.time_up_round:
            return self.emit({"type": "time_up"})
        if rng.random() < 0.25 and self.optional_action():
            return None
        seat = next_roller(s)
        if v.move_time_limit and rng.random() < 0.02:
            mover = s.current.id if s.current is not None and s.roll_again else s.players[seat].id
            return self.emit({"type": "timeout", "player": mover})
        p = s.players[seat]
        if (
            p.in_jail
            and not (seat == s.turn and s.roll_again)
            and rng.random() < 0.4
            and not jail.fine_owed(s, p)
        ):
            if p.jail_cards:
                return self.emit({"type": "jail_card", "player": p.id})
            if p.cash >= v.jail_fine:
                return self.emit({"type": "jail_fine", "player": p.id})
        r = int(rng.random() * 36)  # as self.dice() throws, inline: the most common event
        return self.emit({"type": "roll", "player": p.id, "dice": [r // 6 + 1, r % 6 + 1]})

    def decide(self, d: Decision) -> None:
        """What is pending before the next roll: a card to draw, a square to buy, a tax or a die to roll."""
        rng = self.rng
        if isinstance(d, CardDraw):
            return self.draw_card(d)
        if isinstance(d, BuyDecision):
            return self.decide_buy(d)
        if isinstance(d, TaxChoice):
            return self.emit(
                {"type": "income_tax", "player": d.player, "choice": rng.choice(["fixed", "percent"])}
            )
        if isinstance(d, FoundationRoll):
            return self.emit({"type": "foundation", "player": d.player, "die": int(rng.random() * 6) + 1})
        raise TypeError(f"no decision of the simulator for {d!r}")

    def dice(self) -> list[int]:
        r = self.rng.random() * 36  # one draw for both dice: 36 equally likely throws
        return [int(r) // 6 + 1, int(r) % 6 + 1]

    def final_step(self) -> None:
        """The two-hour game's final steps: a few dealings with the bank, then each keeps his share of cash,
        the utilities are valued and the treasurer goes round the board."""
        s, rng = self.state, self.rng
        if s.final_step == "dealings":
            if rng.random() < 0.7 and self.optional_action(bank_only=True):
                return None
            return self.emit({"type": "final_keep"})
        for sq in final_steps.utilities_to_roll(s):
            return self.emit(
                {"type": "final_roll", "player": s.holdings[sq].owner, "square": sq, "dice": self.dice()}
            )
        return self.emit({"type": "final_tour"})

    # -- decisions -------------------------------------------------------------------------------------
    def raise_money(self, pid: str) -> None:
        s = self.state
        p = s.by_id[pid]
        sellable = legal.sellable(s, p)
        if sellable:
            return self.sell(pid, sellable)
        mortgageable = legal.mortgageable(s, p)
        if mortgageable:
            return self.emit({"type": "mortgage", "player": pid, "square": self.rng.choice(mortgageable)})
        tradable = legal.tradable(s, p)
        if tradable and self.rng.random() < 0.5 and self.sell_to_player(pid, tradable):
            return None
        return self.emit({"type": "bankrupt", "player": pid})

    def sell(self, pid: str, options: dict[int, int]) -> None:
        square = self.rng.choice(list(options))
        event = {"type": "sell_building", "player": pid, "square": square}
        if options[square] > 1:
            event["count"] = options[square]
        self.emit(event)

    def sell_to_player(self, pid: str, tradable: list[int]) -> bool:
        s = self.state
        sq = self.rng.choice(tradable)
        price = self.board.squares[sq].price
        buyers = [p for p in s.active_players if p.id != pid and p.cash > price]
        if not buyers:
            return False
        buyer = self.rng.choice(buyers)
        cash = self.rng.randint(price // 2, price)
        self.emit(
            {
                "type": "trade",
                "player": pid,
                "with": buyer.id,
                "give": {"squares": [sq]},
                "get": {"cash": cash},
            }
        )
        return True

    def draw_card(self, draw: CardDraw) -> None:
        rng = self.rng
        deck = self.board.decks[draw.deck]
        event = {"type": "card", "player": draw.player}
        held = self.state.held_jail_cards()
        if deck.cards is not None:
            refs, cum_weights = self._drawable(deck, held)
            # as rng.choices(refs, weights) draws: one random number, the same card
            event["card"] = refs[bisect(cum_weights, rng.random() * cum_weights[-1], 0, len(refs) - 1)]
        else:
            effects = [e for e in GENERIC_EFFECTS if not (e["kind"] == "jail_card" and deck.id in held)]
            event["effect"] = dict(rng.choice(effects))
        try:
            self.emit(event)
        except RuleError as e:
            if e.code != "card.dice_needed":
                raise
            self.emit({**event, "dice": self.dice()})

    def _drawable(self, deck: Deck, held: set[str]) -> tuple[list[str], list[int]]:
        """The refs of the cards that can be drawn from ``deck`` (not a jail card a player holds) and their
        cumulative weights (copies), kept per deck and held cards: a draw is then one bisection."""
        key = (deck.id, frozenset(held))
        drawable = self._drawables.get(key)
        if drawable is None:
            cards = [c for c in deck.cards if not (c.effect["kind"] == "jail_card" and c.ref in held)]
            drawable = self._drawables[key] = (
                [c.ref for c in cards],
                list(accumulate(c.copies for c in cards)),
            )
        return drawable

    def decide_buy(self, d: BuyDecision) -> None:
        cash = self.state.by_id[d.player].cash
        price = self.board.squares[d.square].price
        if cash >= price and cash - price > 100 and self.rng.random() < 0.75:
            return self.emit({"type": "buy", "player": d.player})
        return self.emit({"type": "decline", "player": d.player})

    def run_auction(self, square: int) -> None:
        s, rng = self.state, self.rng
        sq = self.board.squares[square]
        opening = s.variant.auction_opening_bid(sq.price)
        bidders = [p for p in s.active_players if p.cash >= opening + 50]
        if not bidders or rng.random() < 0.3:
            return self.emit({"type": "auction", "square": sq.index, "winner": None, "price": 0})
        p = rng.choice(bidders)
        top = min(p.cash - 50, sq.price * 3 // 2)
        price = rng.randint(opening, max(opening, top))
        return self.emit({"type": "auction", "square": sq.index, "winner": p.id, "price": price})

    def optional_action(self, bank_only: bool = False) -> bool:
        """Build, sell, mortgage, lift a mortgage or trade, now and then. True if an event was made.

        One kind of action is drawn first, then one of the player's options of that kind (if any)."""
        s, rng = self.state, self.rng
        # the players still in the game (all of them before the first bankruptcy: the same list to draw from)
        p = rng.choice(s.active_players if s.bankruptcies else s.players)
        pid, cash = p.id, p.cash
        r = rng.random()
        if r < 0.45:
            options = legal.buildable(s, p) if cash > 400 else None
            if options:
                self.emit({"type": "build", "player": pid, "square": rng.choice(options)})
                return True
        elif r < 0.6:
            lifts = legal.unmortgageable(s, p) if cash > 600 else None
            if lifts:
                self.emit({"type": "unmortgage", "player": pid, "square": rng.choice(list(lifts))})
                return True
        elif r < 0.65:
            options = legal.mortgageable(s, p)
            if options:
                self.emit({"type": "mortgage", "player": pid, "square": rng.choice(options)})
                return True
        elif r < 0.68:
            sales = legal.sellable(s, p)
            if sales:
                self.sell(pid, sales)
                return True
        elif r < 0.72 and not bank_only:
            options = legal.tradable(s, p)
            if options:
                return self.sell_to_player(pid, options)
        return False


@contextmanager
def _cyclic_gc_paused():
    """Python's cyclic garbage collector off while a game is played, as it was before after it.

    The record grows by an event (a dict and its list of dice) at every step, and the collector would walk
    all of them again and again: a fifth of the simulator's time. The engine makes no reference cycles, so
    nothing waits for the collector meanwhile (reference counting frees the rest at once)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def simulate(
    variant: str,
    board: str,
    players: int,
    seed: int,
    rounds: int | None = None,
    max_events: int = 50_000,
    options: dict | None = None,
    roles: list[str] | None = None,
) -> dict:
    """A random legal game record (``options``: the record's, e.g. ``{"ending": "two_hour"}``; ``roles``:
    Anti-Monopoly's, in seat order, else drawn)."""
    return Simulator(variant, board, players, seed, rounds, max_events, options=options, roles=roles).run()
