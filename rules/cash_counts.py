"""The referee's cash counts through a game (GAME_RECORD.md ``cash_count``): :class:`CashCounts` follows a
replay, or a game move after move, and keeps each player's last count with the moves since the count before
that which changed what he should hold (``rules.banknotes``). What it keeps is small (per player his last
count and at most ``MOVES_KEPT`` moves) and goes to JSON and back (``to_data``, ``from_data``): a game keeps
it beside its state, so that no screen replays the game for its counts."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rules.banknotes import banknotes, expected_banknotes
from rules.state import GameState

if TYPE_CHECKING:
    from rules.engine import Outcome

#: How many of the moves since the previous count a count keeps (the latest ones); the rest are counted.
MOVES_KEPT = 12


@dataclass(frozen=True, slots=True)
class Change:
    """A move that changed what a player should hold: its 0-based event index and by how much."""

    event: int
    amount: int


@dataclass(frozen=True, slots=True)
class Count:
    """A player's cash count: its event index, what was counted and expected, the event index of his
    previous count (None: the first), and (where they differ) the moves since that count (or the start) that
    changed what he should hold, the latest ``MOVES_KEPT`` of them, ``earlier`` the number of those left
    out."""

    event: int
    counted: int
    expected: int
    previous: int | None = None
    changes: tuple[Change, ...] = ()
    earlier: int = 0

    @property
    def difference(self) -> int:
        return self.counted - self.expected

    def as_dict(self) -> dict:
        """The ``cash_count`` object of ``replay``'s JSON (GAME_RECORD.md)."""
        return {
            "event": self.event,
            "counted": self.counted,
            "expected": self.expected,
            "difference": self.difference,
        }


@dataclass
class _Since:
    changes: deque = field(default_factory=lambda: deque(maxlen=MOVES_KEPT))
    seen: int = 0  # changes since the last count, kept or not


class CashCounts:
    """Called with each outcome of a replay (``on_outcome``): ``last[player id]`` is his last :class:`Count`.

    ``moves=False``: the counts alone, without the moves since (cheaper: nothing is done at other events).
    Memory stays flat: per player, the last count and at most ``MOVES_KEPT`` moves."""

    def __init__(self, *, moves: bool = True):
        self.last: dict[str, Count] = {}
        self.at: int | None = None  # the last event followed
        self.moves = moves
        self._expected: dict[str, int] | None = None  # what each should hold after the event before
        self._since: dict[str, _Since] = {}

    def to_data(self) -> dict:
        """What it keeps, as JSON data (``from_data`` reads it back)."""
        return {
            "at": self.at,
            "last": {pid: _count_data(c) for pid, c in self.last.items()},
            "expected": self._expected,
            "since": {
                pid: [s.seen, [[c.event, c.amount] for c in s.changes]] for pid, s in self._since.items()
            },
        }

    @classmethod
    def from_data(cls, data: dict | None) -> CashCounts:
        """The counts as ``to_data`` wrote them, going on from there (None or {}: a game with no move yet)."""
        counts = cls()
        if not data:
            return counts
        counts.at = data["at"]
        counts.last = {pid: _count_of(c) for pid, c in data["last"].items()}
        counts._expected = data["expected"]
        for pid, (seen, changes) in data["since"].items():
            counts._since[pid] = _Since(deque((Change(i, a) for i, a in changes), maxlen=MOVES_KEPT), seen)
        return counts

    def changed_since_last_count(self, player_id: str) -> int:
        """How many moves changed what the player should hold after his last count (with ``moves``)."""
        since = self._since.get(player_id)
        return since.seen if since is not None else 0

    def __call__(self, i: int, out: Outcome) -> None:
        self.at = i
        state, ev = out.state, out.event
        if ev["type"] == "cash_count":
            self._count(i, state, ev["player"], ev["counted"])
        elif self.moves:
            self._follow(i, state)

    def _count(self, i: int, state: GameState, pid: str, counted: int) -> None:
        expected = expected_banknotes(state, pid)
        previous = self.last[pid].event if pid in self.last else None
        since = self._since.get(pid)
        if counted == expected or since is None:
            self.last[pid] = Count(i, counted, expected, previous)
        else:
            changes = tuple(since.changes)
            self.last[pid] = Count(i, counted, expected, previous, changes, since.seen - len(changes))
        if self.moves:
            self._since[pid] = _Since()

    def _follow(self, i: int, state: GameState) -> None:
        if self._expected is None:  # before the first event every player holds the starting cash
            start = state.variant.starting_cash
            self._expected = {p.id: start for p in state.players}
            self._since = {p.id: _Since() for p in state.players}
        for pid, notes in banknotes(state).items():
            now = notes.expected
            if now != self._expected[pid]:
                since = self._since[pid]
                since.changes.append(Change(i, now - self._expected[pid]))
                since.seen += 1
                self._expected[pid] = now


def _count_data(c: Count) -> list:
    return [c.event, c.counted, c.expected, c.previous, [[x.event, x.amount] for x in c.changes], c.earlier]


def _count_of(data: list) -> Count:
    event, counted, expected, previous, changes, earlier = data
    return Count(event, counted, expected, previous, tuple(Change(i, a) for i, a in changes), earlier)
