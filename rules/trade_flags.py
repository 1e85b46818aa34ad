"""Trades flagged for the director's review (issue 42): a flag, never a verdict.

A trade books a value transfer (``rules.trades.trade``: legs ``cash + change of book value`` for both sides,
one side's income the other's cost). The side whose leg is negative *gives* value, the other *receives* it;
the value moved is that leg's size (a fair trade at book value moves 0). The mortgaged squares' transfer
fee goes to the bank: it is no part of what moved between the two.

:class:`TradeReading` reads a game's trades and bankruptcies while it is replayed (an ``on_outcome``
callback, or fed by a report that replays the game anyway); :func:`game_flags` and :func:`pair_flags` are
the three rules:

(a) ``large``: a trade moving more than ``max(cash, percent % of the giver's net worth just before it)``.
(b) ``bankrupt``: a trade whose *giver* goes bankrupt ``moves`` log numbers or fewer after it. The giver,
    not both: a player about to fail has nothing left to lose, and what he hands over for too little picks
    who wins (kingmaking); the receiver who fails soon after was helped, not used — his trade is a rescue that
    did not work, no harm to the others. A trade moving nothing (at book value) is not flagged.
(c) ``pair``: two participants whose trades across the tournament (≥ 2 trades, every game they met in) move
    value one way on balance. Each trade is measured against rule (a)'s threshold at its own moment (its
    giver's net worth just before it): 200 given at 1,500 of net worth is two thirds of a threshold of 300.
    The pair is flagged when these shares, one way less the other, add up to more than one whole threshold.
    Not the money netted against one threshold: a net worth grows tenfold in a long game, and a gift split
    in parts while poor would hide behind an average taken when rich; nor a trade back of little weight (a
    few coins when rich) cancelling a gift of much (a street when poor).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from rules.engine import Outcome
from rules.valuation import net_worths


@dataclass(frozen=True)
class Trade:
    """One trade as the flags read it; ``seq``: the move's number in the game's log."""

    seq: int
    giver: str  # player id (the side whose leg is a cost); "" when nothing moved
    receiver: str
    value: int  # what moved from giver to receiver (≥ 0)
    giver_worth: int  # the giver's net worth just before the trade


@dataclass(frozen=True)
class Flag:
    kind: str  # large / bankrupt / pair
    game: int | None  # the game's id (a pair: its last trade's)
    seq: int | None  # the move (a pair: its last trade)
    giver: str  # player id in a game; a participant's key for a pair
    receiver: str
    value: int
    threshold: int  # what it passed: a value, or (bankrupt) the number of moves
    key: str  # stable: TradeFlagReview.key
    detail: int = 0  # bankrupt: the move of the bankruptcy; pair: the number of trades


class TradeReading:
    """Fed every outcome of a replay (``reading(i, out)``), keeps the trades and the bankruptcies;
    ``seqs[i]`` is event ``i``'s number in the log (default: ``i``)."""

    def __init__(self, seqs: list[int] | None = None):
        self.seqs = seqs
        self.trades: list[Trade] = []
        self.bankruptcies: dict[str, int] = {}  # player id -> move

    def __call__(self, i: int, out: Outcome) -> None:
        seq = self.seqs[i] if self.seqs is not None else i
        for m in out.movements:
            if m.kind == "bankruptcy" and m.legs:
                self.bankruptcies.setdefault(m.legs[0].party, seq)
            elif m.kind == "trade" and len(m.legs) == 2:
                self._trade(seq, out, m)

    def _trade(self, seq: int, out: Outcome, m) -> None:
        a, b = m.legs
        if a.equity < 0:
            giver, receiver, value = a.party, b.party, -a.equity
        elif b.equity < 0:
            giver, receiver, value = b.party, a.party, -b.equity
        else:
            self.trades.append(Trade(seq, "", "", 0, 0))
            return
        # the state is after the event: the giver's net worth before it = after − all his legs of it
        after = net_worths(out.state)[giver]
        change = sum(g.equity for mv in out.movements for g in mv.legs if g.party == giver)
        self.trades.append(Trade(seq, giver, receiver, value, after - change))


def threshold(worth: int, cash: int, percent: int) -> int:
    """Rule (a)'s: the larger of ``cash`` and ``percent`` % of the giver's net worth (rounded down)."""
    return max(cash, max(worth, 0) * percent // 100)


def game_flags(
    game: int,
    trades: list[Trade],
    bankruptcies: dict[str, int],
    cash: int,
    percent: int,
    moves: int,
    place: str | None = None,
) -> list[Flag]:
    """Rules (a) and (b) on one game's trades, in the log's order. The flags' keys name the game by ``place``
    (a tournament's: "r2:t3", round and table numbers, which a backup restored keeps) or else its id ("g12");
    then the move: "large:r2:t3:s41"."""
    where = place or f"g{game}"
    flags = []
    for t in trades:
        if not t.value:
            continue
        limit = threshold(t.giver_worth, cash, percent)
        if t.value > limit:
            key = f"large:{where}:s{t.seq}"
            flags.append(Flag("large", game, t.seq, t.giver, t.receiver, t.value, limit, key))
        failed = bankruptcies.get(t.giver)
        if failed is not None and 0 <= failed - t.seq <= moves:
            key = f"bankrupt:{where}:s{t.seq}"
            flags.append(Flag("bankrupt", game, t.seq, t.giver, t.receiver, t.value, moves, key, failed))
    return flags


@dataclass(frozen=True)
class PairTrade:
    """A trade between two participants of a tournament (their keys: e.g. "p3")."""

    game: int
    seq: int
    giver: str
    receiver: str
    value: int
    giver_worth: int


def pair_key(a: str, b: str) -> str:
    """A pair's flag key, the same whichever is named first: "pair:p3:p7"."""
    first, second = sorted((a, b))
    return f"pair:{first}:{second}"


#: A pair's key (:func:`pair_key`), its two participants' ids in its groups.
PAIR_KEY_PATTERN = r"pair:p(-?[0-9]+):p(-?[0-9]+)"
#: The keys :func:`game_flags` (in a tournament) and :func:`pair_flags` make.
KEY_PATTERN = rf"(large|bankrupt):r[0-9]+:t[0-9]+:s[0-9]+|{PAIR_KEY_PATTERN}"


def pair_flags(trades: list[PairTrade], cash: int, percent: int) -> list[Flag]:
    """Rule (c): each pair with ≥ 2 trades whose shares of the threshold (each trade's value over rule (a)'s
    threshold at its giver's net worth then), one way less the other, add up to more than 1. The flag's
    ``value`` is the money moved, net, the same way; its ``threshold`` the shares' sum in percent (above
    100); ``detail`` the number of trades."""
    pairs: dict[tuple[str, str], list[PairTrade]] = defaultdict(list)
    for t in trades:
        if t.giver and t.receiver:
            pairs[tuple(sorted((t.giver, t.receiver)))].append(t)
    flags = []
    for (first, second), among in sorted(pairs.items()):
        if len(among) < 2:
            continue
        sign = {first: 1, second: -1}
        # in whole hundredths of a threshold, each rounded down (a threshold of 0, both settings 0, as 1)
        shares = sum(
            sign[t.giver] * (t.value * 100 // max(threshold(t.giver_worth, cash, percent), 1)) for t in among
        )
        if abs(shares) <= 100:
            continue
        giver, receiver = (first, second) if shares > 0 else (second, first)
        net = sum(t.value if t.giver == giver else -t.value for t in among)
        last = max(among, key=lambda t: (t.game, t.seq))
        key = pair_key(first, second)
        flags.append(Flag("pair", last.game, last.seq, giver, receiver, net, abs(shares), key, len(among)))
    return flags
