"""Counting a referee's taps on the console (issue 20: "every turn within three taps").

A ``Tapper`` wraps a Playwright page: every click, check, choice in a list and accepted confirmation is one
tap; typing a number or a reason into a field is one tap too (the keyboard's keys are not counted). The taps
are grouped in *steps* (one thing the referee does: a roll, a purchase, an auction, a trade, a debt raised,
an undo …, each named by its kind) and the steps in *turns* (one player's turn, from his roll or his jail
exit to the next player's: a double's extra roll and whatever is settled meanwhile belong to it). Starting the
game is a step outside any turn.

A target off the screen when the referee goes for it costs a scroll: scrolls are counted apart (Playwright
scrolls for the test; a thumb would have to), per step, and reported beside the taps.

``report()`` prints the figures: per kind of step and per kind of turn (count, mean, max), and the mean and
median taps a turn. ``goals()`` tells which of the issue's goals are met: a mean of at most 2.5 taps a turn,
no turn above 6 taps (whatever happened in it: doubles, a trade and a build, a debt), and no kind of step
above 6 taps.
"""

from __future__ import annotations

import statistics
from contextlib import contextmanager
from dataclasses import dataclass, field

MEAN_PER_TURN_GOAL = 2.5
MAX_TAPS_GOAL = 6


@dataclass
class Step:
    kind: str
    taps: int = 0
    scrolls: int = 0


@dataclass
class Turn:
    player: str
    steps: list[Step] = field(default_factory=list)

    @property
    def taps(self) -> int:
        return sum(s.taps for s in self.steps)

    @property
    def kind(self) -> str:
        """The turn named by its steps in order, each once: "roll + buy", "roll + card + rent"."""
        kinds: list[str] = []
        for s in self.steps:
            if s.kind not in kinds:
                kinds.append(s.kind)
        return " + ".join(kinds)


class Tapper:
    """A referee's phone (a Playwright page) that counts his taps."""

    def __init__(self, page):
        self.page = page
        self.taps = 0
        self.scrolls = 0
        self.steps: list[Step] = []  # every step, in or out of a turn
        self.turns: list[Turn] = []
        self._step: Step | None = None

    # -- what counts as a tap ------------------------------------------------------------------------
    def _count(self, n: int = 1) -> None:
        self.taps += n
        if self._step is None:
            raise AssertionError("a tap outside a step: say what the referee is doing (tapper.step(kind))")
        self._step.taps += n

    def _reach(self, locator) -> None:
        """A scroll counted when the target is not wholly on the screen as the referee goes for it, or not
        wholly in sight within a list that scrolls on its own (a rent card's choices)."""
        on_screen = locator.evaluate(
            "e => { const r = e.getBoundingClientRect();"
            " if (!(r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0)) return false;"
            " for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {"
            "   if (!/auto|scroll/.test(getComputedStyle(a).overflowY)) continue;"
            "   const b = a.getBoundingClientRect();"
            "   if (r.top < b.top || r.bottom > b.bottom) return false; }"
            " return true; }"
        )
        if not on_screen and self._step is not None:
            self.scrolls += 1
            self._step.scrolls += 1

    def tap(self, locator) -> None:
        self._reach(locator)
        locator.click()
        self._count()

    def check(self, locator) -> None:
        self._reach(locator)
        locator.check()
        self._count()

    def choose(self, select, value) -> None:
        """A choice in a list (nothing when it already shows it)."""
        if select.input_value() != str(value):
            self._reach(select)
            select.select_option(str(value))
            self._count()

    def type(self, field, value) -> None:
        """A number or a reason typed into a field: one tap (nothing when the field already holds it)."""
        if field.input_value() != str(value):
            self._reach(field)
            field.fill(str(value))
            self._count()

    def open(self, details) -> None:
        """A folded section opened (nothing when it is open)."""
        if not details.evaluate("d => d.open"):
            self.tap(details.locator("summary").first)

    def confirming(self) -> None:
        """The next tap asks "are you sure?": accepting it is a tap too."""
        self.page.once("dialog", lambda d: d.accept())
        self._count()

    # -- steps and turns -------------------------------------------------------------------------------
    def new_turn(self, player: str) -> None:
        self.turns.append(Turn(player))

    @contextmanager
    def step(self, kind: str, in_turn: bool = True):
        """The taps within are one step of ``kind``, in the current turn (or outside any turn)."""
        outer, self._step = self._step, Step(kind)
        if outer is not None:  # a step within a step counts as the outer one's
            self._step = outer
        try:
            yield self._step
        finally:
            if outer is None:
                self.steps.append(self._step)
                if in_turn:
                    if not self.turns:
                        raise AssertionError(f"a {kind} step before the first turn")
                    self.turns[-1].steps.append(self._step)
            self._step = outer

    # -- the figures -----------------------------------------------------------------------------------
    def turn_taps(self) -> list[int]:
        return [t.taps for t in self.turns]

    def by_kind(self, items) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for i in items:
            out.setdefault(i.kind, []).append(i.taps)
        return dict(sorted(out.items(), key=lambda kv: (max(kv[1]), kv[0])))

    def goals(self) -> dict[str, bool]:
        taps = self.turn_taps()
        worst = max(max(v) for v in self.by_kind(self.steps).values())
        return {
            f"mean taps a turn ≤ {MEAN_PER_TURN_GOAL}": statistics.mean(taps) <= MEAN_PER_TURN_GOAL,
            f"no turn above {MAX_TAPS_GOAL} taps": max(taps) <= MAX_TAPS_GOAL,
            f"no kind of step above {MAX_TAPS_GOAL} taps": worst <= MAX_TAPS_GOAL,
        }

    def report(self, title: str) -> str:
        taps = self.turn_taps()
        lines = [f"\n== {title}: {len(self.turns)} turns, {len(self.steps)} steps, {self.taps} taps =="]
        for heading, items in (("kind of step", self.steps), ("kind of turn", self.turns)):
            lines.append(f"{heading:<40} {'count':>5} {'mean':>6} {'max':>4}")
            for kind, counts in self.by_kind(items).items():
                lines.append(f"{kind:<40} {len(counts):>5} {statistics.mean(counts):>6.2f} {max(counts):>4}")
        lines.append(
            f"taps a turn: mean {statistics.mean(taps):.2f}, median {statistics.median(taps):g}, "
            f"max {max(taps)}"
        )
        scrolled = [s for s in self.steps if s.scrolls]
        lines.append(
            f"scrolls to reach a target (not taps): {self.scrolls}"
            + (f", in {', '.join(sorted({s.kind for s in scrolled}))}" if scrolled else "")
        )
        lines += [f"goal {'met' if ok else 'NOT met'}: {goal}" for goal, ok in self.goals().items()]
        return "\n".join(lines)
