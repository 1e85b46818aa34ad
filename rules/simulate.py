"""Random but legal games, for tests and benchmarks (`python manage.py simulate`).

Each decision (buy or decline, auction bids, building, mortgages, trades, rent claims, jail exits, cards,
timeouts, bankruptcies) is drawn at random among what :func:`rules.legal.legal_actions` offers, and every
event is applied by the engine before it is written: a record made here always replays.
"""

from __future__ import annotations

import random

from rules.board import get_board
from rules.engine import apply, new_game
from rules.errors import RuleError
from rules.legal import Legal, legal_actions, player_options
from rules.record import FORMAT
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
    ):
        self.rng = random.Random(seed)
        options = {"max_rounds": rounds} if rounds else {}
        self.variant = make_variant(variant, options)
        self.board = get_board(board)
        self.players = [{"id": chr(ord("A") + i), "name": NAMES[i % len(NAMES)]} for i in range(players)]
        self.record = {
            "format": FORMAT,
            "variant": variant,
            "board": board,
            "players": self.players,
            "options": options,
            "events": [],
        }
        self.state = new_game(self.board, self.variant, [(p["id"], p["name"], None) for p in self.players])
        self.max_events = max_events
        self.time_up_round = time_up_round
        if self.time_up_round is None and (self.variant.timed_end and not rounds):
            self.time_up_round = self.rng.randint(8, 40)

    # -- the loop ----------------------------------------------------------------------------------------
    def run(self) -> dict:
        while not self.state.finished and len(self.record["events"]) < self.max_events:
            self.step()
        return self.record

    def emit(self, event: dict) -> None:
        out = apply(self.state, event)
        self.state = out.state
        self.record["events"].append(event)

    def step(self) -> None:
        s, rng = self.state, self.rng
        legal = legal_actions(s, with_players=False)
        if legal.deals:
            d = legal.deals[0]
            free = [sq.index for sq in self.board.properties if sq.index not in s.holdings]
            return self.emit({"type": "deal", "player": d["player"], "squares": rng.sample(free, d["count"])})
        for r in legal.rents:
            if rng.random() < 0.9:
                return self.emit({"type": "rent", "player": r["payer"], "square": r["square"]})
        if legal.debts:
            return self.raise_money(legal.debts[0]["player"])
        if legal.card:
            return self.draw_card(legal.card)
        if legal.buy:
            return self.decide_buy(legal)
        if legal.auctions:
            return self.run_auction(legal.auctions[0])
        if self.time_up_round and not s.time_up and legal.time_up and s.round >= self.time_up_round:
            return self.emit({"type": "time_up"})
        if rng.random() < 0.25 and self.optional_action():
            return None
        if legal.timeout and rng.random() < 0.02:
            return self.emit({"type": "timeout", "player": legal.timeout})
        roller = legal.roll
        p = s.player(roller)
        if p.in_jail and not legal.roll_again and rng.random() < 0.4:
            opts = player_options(s, roller)
            if opts.jail_card:
                return self.emit({"type": "jail_card", "player": roller})
            if opts.jail_fine:
                return self.emit({"type": "jail_fine", "player": roller})
        return self.emit({"type": "roll", "player": roller, "dice": [rng.randint(1, 6), rng.randint(1, 6)]})

    # -- decisions -------------------------------------------------------------------------------------
    def raise_money(self, pid: str) -> None:
        opts = player_options(self.state, pid)
        if opts.sell_building:
            return self.sell(pid, opts.sell_building)
        if opts.mortgage:
            return self.emit({"type": "mortgage", "player": pid, "square": self.rng.choice(opts.mortgage)})
        if opts.tradable and self.rng.random() < 0.5 and self.sell_to_player(pid, opts.tradable):
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
        price = self.board.square(sq).price
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

    def draw_card(self, card: dict) -> None:
        rng = self.rng
        deck = self.board.decks[card["deck"]]
        event = {"type": "card", "player": card["player"]}
        if card["cards"] is not None:
            weights = [deck.card(c).copies for c in card["cards"]]
            event["card"] = f"{deck.id}:{rng.choices(card['cards'], weights)[0]}"
        else:
            held = self.state.held_jail_cards()
            effects = [e for e in GENERIC_EFFECTS if not (e["kind"] == "jail_card" and deck.id in held)]
            event["effect"] = dict(rng.choice(effects))
        try:
            self.emit(event)
        except RuleError as e:
            if e.code != "card.dice_needed":
                raise
            self.emit({**event, "dice": [rng.randint(1, 6), rng.randint(1, 6)]})

    def decide_buy(self, legal: Legal) -> None:
        b = legal.buy
        cash = self.state.player(b["player"]).cash
        if b["can_pay"] and cash - b["price"] > 100 and self.rng.random() < 0.75:
            return self.emit({"type": "buy", "player": b["player"]})
        return self.emit({"type": "decline", "player": b["player"]})

    def run_auction(self, auction: dict) -> None:
        s, rng = self.state, self.rng
        sq = self.board.square(auction["square"])
        bidders = [p for p in s.active_players if p.cash >= auction["opening_bid"] + 50]
        if not bidders or rng.random() < 0.3:
            return self.emit({"type": "auction", "square": sq.index, "winner": None, "price": 0})
        p = rng.choice(bidders)
        top = min(p.cash - 50, sq.price * 3 // 2)
        price = rng.randint(auction["opening_bid"], max(auction["opening_bid"], top))
        return self.emit({"type": "auction", "square": sq.index, "winner": p.id, "price": price})

    def optional_action(self) -> bool:
        """Build, sell, mortgage, lift a mortgage or trade, now and then. True if an event was made."""
        s, rng = self.state, self.rng
        pid = rng.choice(s.active_players).id
        opts, cash = player_options(s, pid), s.player(pid).cash
        r = rng.random()
        if r < 0.45 and opts.build and cash > 400:
            self.emit({"type": "build", "player": pid, "square": rng.choice(opts.build)})
        elif r < 0.6 and opts.unmortgage and cash > 600:
            sq = rng.choice(list(opts.unmortgage))
            self.emit({"type": "unmortgage", "player": pid, "square": sq})
        elif r < 0.65 and opts.mortgage:
            self.emit({"type": "mortgage", "player": pid, "square": rng.choice(opts.mortgage)})
        elif r < 0.68 and opts.sell_building:
            self.sell(pid, opts.sell_building)
        elif r < 0.72 and opts.tradable:
            return self.sell_to_player(pid, opts.tradable)
        else:
            return False
        return True


def simulate(
    variant: str, board: str, players: int, seed: int, rounds: int | None = None, max_events: int = 50_000
) -> dict:
    """A random legal game record."""
    return Simulator(variant, board, players, seed, rounds, max_events).run()
