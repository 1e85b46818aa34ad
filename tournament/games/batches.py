"""One request entering several events (a decline and its auction, the debt card's choices, a house on each
street of a group): their stored keys, the last request's events found again (undone as one), and a refusal
of one of them named."""

from __future__ import annotations

from django.db.models import Q

from rules import RulesError
from rules.errors import RuleError
from rules.messages import Message, gettext_noop
from rules.state import GameState
from tournament.games.log import active_events
from tournament.models import Game, GameEvent


def same_request(client_key: str) -> Q:
    """The events a request entered: the first keeps its key, each later one the key, a mark and its place."""
    return Q(client_key=client_key) | Q(client_key__startswith=f"{client_key}{BATCH_MARK}")


class BatchRefused(RuleError):
    """One of several moves entered together (the debt card's "Raise and pay", a rent with its payer's way
    out, a house on each street of a group) refused by the engine: the message names it and says why; none
    of them is entered."""

    #: How each move of such a batch is named.
    MOVES = {
        "sell_building": gettext_noop("selling a building on {square}"),
        "mortgage": gettext_noop("mortgaging {square}"),
        "build": gettext_noop("building on {square}"),
        "rent": gettext_noop("the rent for {square}"),
        "bankrupt": gettext_noop("the bankruptcy"),
    }

    def __init__(self, number: int, count: int, square: str, event_type: str, why: RulesError):
        super().__init__(
            "batch.refused",
            gettext_noop("Nothing was entered: move {number} of {count} ({move}) was refused. {reason}"),
            number=number,
            count=count,
            move=Message(self.MOVES[event_type], {"square": square}),
            reason=Message(why.template, why.params),
        )
        self.why = why


def batch_refusal(state: GameState, events: list[dict], k: int, why: RulesError) -> RulesError:
    """The engine's refusal of the ``k``-th event, naming it when it is one of a batch of sales and
    mortgages (a rent claimed before them), of a rent and the bankruptcy, or of buildings."""
    event, squares = events[k], state.board.squares
    index = event.get("square")
    if len(events) < 2 or event.get("type") not in BatchRefused.MOVES:
        return why
    if event["type"] == "bankrupt":  # a player's, named by the card it comes from
        return BatchRefused(k + 1, len(events), "", "bankrupt", why)
    if not isinstance(index, int) or not 0 <= index < len(squares):
        return why  # no such square: the engine's own words say so
    return BatchRefused(k + 1, len(events), squares[index].name, event["type"], why)


#: One request entering several events (a decline and its auction, the debt card's choices, a house on each
#: street of a group): the first keeps the request's key (a resent request is found by it), each later one
#: the key, this mark and its place — so the batch is known as one device's and is undone as one.
BATCH_MARK = "+"
BATCH_KEY_ROOM = 4  # the mark and up to three digits: a request's key leaves this much room


def batch_key(client_key: str | None, k: int) -> str | None:
    """The stored key of a request's ``k``-th event (0-based)."""
    if not client_key:
        return None
    return client_key if k == 0 else f"{client_key}{BATCH_MARK}{k}"


def batch_start(client_key: str | None) -> str | None:
    """The key of the request an event was entered by (its batch's first event's key)."""
    return client_key.split(BATCH_MARK, 1)[0] if client_key else None


def last_batch(game: Game, latest: list[GameEvent] | None = None, *, whole: bool = False) -> list[GameEvent]:
    """The active events the last request entered (one, or a whole batch), in order; [] for none.
    ``latest``: the game's latest events, any status, newest first, as the console's log reads them
    (``whole``: they are all its events): when the batch is found within them, it is not read again."""
    if latest is not None:
        rows = iter(latest)
        last = next((r for r in rows if r.status == GameEvent.Status.ACTIVE), None)
        if last is None:
            if whole:
                return []
        else:
            batch, ended = _run_back(last, rows)
            if ended or whole:
                return batch
    last = active_events(game).last()
    if last is None:
        return []
    start = batch_start(last.client_key)  # the query below is read only when ``last`` ends a batch
    batch = active_events(game).filter(same_request(start), seq__lt=last.seq).order_by("-seq")
    return _run_back(last, batch)[0]


def _run_back(last: GameEvent, older) -> tuple[list[GameEvent], bool]:
    """The batch ending at ``last``: ``last``, then each event of ``older`` (newest first) numbered just
    before the batch's first while it is an active event of the same request — the unbroken run at the end.
    With whether something ended the run (else ``older`` ran out first and may not hold all of it)."""
    start = batch_start(last.client_key)
    batch = [last]
    if not start or start == last.client_key:  # not a batch, or its first event
        return batch, True
    for r in older:
        same = r.client_key == start or (r.client_key or "").startswith(start + BATCH_MARK)
        if r.seq != batch[0].seq - 1 or r.status != GameEvent.Status.ACTIVE or not same:
            return batch, True
        batch.insert(0, r)
    return batch, False
