"""Replaying a game record event by event (GAME_RECORD.md "Replaying").

By default one state is changed in place, event after event: memory stays flat however long the game, and
``on_outcome`` sees each event's movements and notes as it goes (read what you need from ``out.state`` there:
it is the same object, changed by the next event). ``keep=True`` keeps every outcome, each with its own
state (tests and tools that look back; memory grows with the game).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rules.engine import Outcome, apply, apply_in_place, new_game
from rules.errors import RulesError
from rules.record import Record, parse_record
from rules.state import GameState


@dataclass
class Replay:
    record: Record | None
    state: GameState | None  # the state after the last legal event
    outcomes: list[Outcome] = field(default_factory=list)  # only with ``keep=True``
    error: dict | None = None  # {"index", "code", "message"}; index None for the record's header
    exception: RulesError | None = None  # the error itself (its template and values, for translation)

    @property
    def ok(self) -> bool:
        return self.error is None


def start_state(record: Record) -> GameState:
    return new_game(
        record.board,
        record.variant,
        [(p["id"], p.get("name") or p["id"], p.get("role")) for p in record.players],
    )


def replay(
    data: dict | Record,
    on_outcome: Callable[[int, Outcome], None] | None = None,
    keep: bool = False,
    narrate: bool = True,
    check_fit: bool = True,
) -> Replay:
    """Apply every event of a record; stop at the first illegal one (its index is in ``error``).
    ``check_fit``: as ``parse_record``'s (False for a game stored before variant and board were checked)."""
    try:
        record = data if isinstance(data, Record) else parse_record(data, check_fit=check_fit)
    except RulesError as e:
        return Replay(None, None, error={"index": None, **e.as_dict()}, exception=e)
    state = start_state(record)
    result = Replay(record, state)
    if on_outcome is None and not keep:  # nobody looks at the outcomes: none is made
        return _replay_quietly(record, result, narrate)
    in_place = not keep
    for i, raw in enumerate(record.events):
        try:
            out = apply(state, raw, in_place=in_place, narrate=narrate)
        except RulesError as e:
            result.error = {"index": i, **e.as_dict()}
            result.exception = e
            if in_place:  # the engine checks before it changes anything; rebuilt all the same, to be sure
                state = _state_before(record, i)
            break
        state = out.state
        if keep:
            result.outcomes.append(out)
        if on_outcome:
            on_outcome(i, out)
    result.state = state
    return result


def _replay_quietly(record: Record, result: Replay, narrate: bool) -> Replay:
    """:func:`replay` when nobody looks at the outcomes: the same events applied with the same checks."""
    state = result.state
    for i, raw in enumerate(record.events):
        try:
            apply_in_place(state, raw, narrate)
        except RulesError as e:
            result.error = {"index": i, **e.as_dict()}
            result.exception = e
            result.state = _state_before(record, i)  # as replay does: rebuilt all the same, to be sure
            break
    return result


def _state_before(record: Record, index: int) -> GameState:
    state = start_state(record)
    for raw in record.events[:index]:
        apply(state, raw, in_place=True, narrate=False)
    return state
