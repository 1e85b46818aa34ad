"""Recording a table's moves: one event per request, applied to the stored state (no replay), with undo and
void by replaying the rest, an audit trail, stale-version refusal and harmless resends.

Everything here works on the database; the rules come from ``rules`` and the income/cost from ``ledger``.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.card import add_totals
from ledger.report import replay_ledger
from rules import RulesError, apply, parse_record, replay
from rules.cash_counts import CashCounts
from rules.errors import RuleError
from rules.messages import Message, gettext_noop, to_data
from rules.record import FORMAT, parse_event
from rules.replay import start_state
from rules.snapshot import dump_state, load_state
from rules.state import GameState
from tournament.boards.editions import hold_board
from tournament.models import Game, GameEvent, GamePlayer, Table
from tournament.models.announcements import announce
from tournament.models.game_conditions import table_open
from tournament.reasons import clean_reason


class StaleVersion(Exception):
    """The move was made against an older state: another device entered a move meanwhile."""


class LogError(Exception):
    """An undo or void that cannot be done (nothing to undo, a void that breaks a later move, …)."""

    def __init__(self, message, rules_error: RulesError | None = None, seq: int | None = None):
        super().__init__(str(message))
        self.rules_error = rules_error
        self.seq = seq


class GameClosed(LogError):
    """The table's result is confirmed (or its round is over): the game is read-only until the director
    reopens the result."""

    def __init__(self):
        super().__init__(
            _(
                "This table's result is confirmed: the game can no longer be changed. "
                "The tournament director can reopen the result if it must be corrected."
            )
        )


class KeyReused(LogError):
    """A request whose key is stored with another move (or change): this request was not applied, and is
    never answered as done. A phone makes a new key for each request; a key met again with other moves is a
    fault or a hand-made request."""

    def __init__(self):
        super().__init__(
            _("This request's key was already used for another move: this move was not applied.")
        )


@contextmanager
def key_checked(game_id: int, client_key: str | None):
    """Around the transaction that stores a request's moves: the unique (game, client_key) refusing a key
    already stored (at the game's current version a request cannot be a resend: its key's change made the
    version newer, ``enter``) is said as :class:`KeyReused`, not as a server's fault. The key is looked for
    only then, after the transaction is gone: the usual move pays nothing for it."""
    try:
        yield
    except IntegrityError:
        if client_key and GameEvent.objects.filter(game_id=game_id).filter(same_request(client_key)).exists():
            raise KeyReused() from None
        raise


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


def _refused(state: GameState, events: list[dict], k: int, why: RulesError) -> RulesError:
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


@dataclass
class Submitted:
    game: Game
    event: GameEvent
    duplicate: bool = False  # the same request had already been applied
    #: the game's state after the move, as stored (None for a duplicate: read it from ``game``), so that the
    #: answer shows it without reading back what was just written
    state: GameState | None = None


def create_game(
    *,
    variant: str,
    board: str,
    players: list[dict],
    options: dict | None = None,
    name: str = "",
    user=None,
    referees=(),
    table: Table | None = None,
) -> Game:
    """A new game at a table. ``players``: [{"name", "role"?}] in seat order. Raises RulesError if invalid."""
    ids = [chr(ord("A") + i) for i in range(len(players))]
    with transaction.atomic():
        hold_board(board)  # a stored board is read and the game stored before anyone may replace it
        record = parse_record(
            {
                "format": FORMAT,
                "variant": variant,
                "board": board,
                "options": options or {},
                "players": [
                    {"id": pid, "name": p["name"], **({"role": p["role"]} if p.get("role") else {})}
                    for pid, p in zip(ids, players, strict=True)
                ],
                "events": [],
            }
        )
        state = start_state(record)
        game = Game.objects.create(
            table=table,
            name=name[: Game._meta.get_field("name").max_length],
            variant=variant,
            board=board,
            options=options or {},
            created_by=user,
            state=dump_state(state),
            ledger={pid: [0, 0] for pid in ids},
            counts={},  # (no count yet)
        )
        GamePlayer.objects.bulk_create(
            GamePlayer(
                game=game,
                seat=i,
                pid=pid,
                name=p["name"],
                role=p.get("role") or "",
                participant=p.get("participant"),
            )
            for i, (pid, p) in enumerate(zip(ids, players, strict=True))
        )
        if referees:
            game.referees.set(referees)
    return game


def current_state(game: Game) -> GameState:
    return load_state(game.state)


def active_events(game: Game):
    return game.events.active().order_by("seq")


def is_directors_stop(data: dict) -> bool:
    """The director's stop (``interventions.stop_game``): a ``time_up`` with ``now``."""
    return data.get("type") == "time_up" and data.get("now") is True


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


def record_header(game: Game, players) -> dict:
    """A GAME_RECORD file but its events: format, variant, board, players in seat order, options."""
    return {
        "format": FORMAT,
        "variant": game.variant,
        "board": game.board,
        "players": [{"id": p.pid, "name": p.name, **({"role": p.role} if p.role else {})} for p in players],
        "options": game.options,
    }


def record_of(game: Game) -> dict:
    """The game as a GAME_RECORD file: what `replay` accepts and gives the same result as the console."""
    return {
        **record_header(game, game.players.order_by("seat")),
        "events": [e.data for e in active_events(game)],
    }


def event_data(event: dict) -> dict:
    """The normalised event as record data: lists for tuples, no empty optional fields."""
    out = {}
    for k, v in event.items():
        if v is None and k not in ("winner",):
            continue
        out[k] = list(v) if isinstance(v, tuple) else v
    return out


def _require_version(game: Game, version: int | None) -> None:
    """The change was made against this version of the game, or it is stale (another device moved first)."""
    if version is not None and version != game.version:
        raise StaleVersion(game)


def author(user):
    return user if user is not None and user.is_authenticated else None


def is_closed(game: Game) -> bool:
    """A tournament game whose result is confirmed, or whose round is over, is read-only. Asked once per
    game read (kept on it: the move's check and the panel after it agree).

    Asked by its own query after the game's row is locked, never read with the row: on PostgreSQL a
    ``SELECT … FOR UPDATE`` that waited for the lock answers its subqueries from the snapshot it began with,
    so a confirmation committed while a move waited would not be seen, and the move would reopen a confirmed
    game (tests/test_event_day_races.py, confirm and undo at once)."""
    if "closed" not in game.__dict__:
        game.closed = game.table_id is not None and Table.objects.filter(pk=game.table_id).closed().exists()
    return game.closed


def locking(games=None):
    """``games`` (by default all) read with their row locked until the transaction ends: one change of a game
    at a time. Whoever also locks the game's round or table locks them first (round, table, game): no two
    changes wait on each other. The game's row alone: what a change needs (its title's table, round and
    tournament are read when asked)."""
    games = Game.objects.all() if games is None else games
    return games.select_for_update(of=("self",))


def _lock(game_id: int) -> Game:
    """The game, its row locked until the transaction ends (``locking``)."""
    return locking().get(pk=game_id)


def submit(
    game_id: int, event: dict, *, version: int | None, user=None, client_key: str | None = None
) -> Submitted:
    """Apply one event to the stored state. Raises RulesError, StaleVersion or GameClosed (nothing changes).

    A request resent with the same ``client_key`` (a double tap, a retry after a lost answer) is answered with
    what the first one did; the database's unique (game, client_key) makes sure it is stored once.
    """
    return submit_all(game_id, [event], version=version, user=user, client_key=client_key)


def submit_all(
    game_id: int, events: list[dict], *, version: int | None, user=None, client_key: str | None = None
) -> Submitted:
    """Apply events one after the other, all or none (one tap entering a decline and its auction, the debt
    card's sales and mortgages); as ``submit``, a refused sale or mortgage of several named
    (``BatchRefused``). The answer names the last event; the request's key is kept with the first, and with
    each later one its mark and place (``batch_key``)."""
    with key_checked(game_id, client_key), transaction.atomic():
        return enter(_lock(game_id), events, version=version, user=user, client_key=client_key)


def enter(
    game: Game, events: list[dict], *, version: int | None, user=None, client_key: str | None = None
) -> Submitted:
    """``submit_all`` of a game its caller has read with ``locking``, in the transaction it is still in (the
    console reads the game once: who may enter its moves, and the move itself).

    A request's key is looked for only when the request is not made against the current version: a key is
    stored by the change it came with, which made the version newer than the one its form carries, so a
    resent request is always one of an older version (and the unique (game, client_key) would refuse a
    second row anyway)."""
    if client_key and version != game.version:
        done = game.events.filter(client_key=client_key).first()
        if done is not None:
            if not _same_moves(game, client_key, events):
                raise KeyReused()
            return Submitted(game, done, duplicate=True)
    try:
        _require_version(game, version)
        state = load_state(game.state)
        rows = _enter(game, state, events, user=user, client_key=client_key)
    except (StaleVersion, RulesError):
        if is_closed(game):  # a closed game says so first, whatever else is wrong with the move
            raise GameClosed() from None
        raise
    return Submitted(game, rows[-1], state=state)


def _same_moves(game: Game, client_key: str, events: list[dict]) -> bool:
    """Whether the moves stored under ``client_key`` are ``events`` (a resend), each as the engine reads it:
    every field the request names, as stored (the engine may have stored more: a default, a square)."""
    stored = list(game.events.filter(same_request(client_key)).order_by("seq").values_list("data", flat=True))
    if len(stored) != len(events):
        return False
    players = list(game.players.values_list("pid", flat=True))
    for data, raw in zip(stored, events, strict=True):
        try:
            asked = event_data(parse_event(raw, players))
        except RulesError:
            return False
        if any(data.get(k) != v for k, v in asked.items()):
            return False
    return True


def _enter(game: Game, state: GameState, events: list[dict], *, user, client_key: str | None):
    """Apply ``events`` to ``state`` (the game's, as it stands), store them as the next moves and save the
    game (state, ledger, cash counts, version); the first refused raises, and the caller's transaction
    stores nothing."""
    rows = []
    counts = counts_of(game)
    for k, event in enumerate(events):
        try:
            out = apply(state, event, in_place=True)
        except RulesError as e:
            raise _refused(state, events, k, e) from e
        counts(game.next_seq + k, out)
        rows.append(
            GameEvent(
                game=game,
                seq=game.next_seq + k,
                data=event_data(out.event),
                notes=[to_data(n) for n in out.notes],
                entered_by=author(user),
                client_key=batch_key(client_key, k),
            )
        )
        add_totals(game.ledger, out.movements)
    GameEvent.objects.bulk_create(rows)
    game.state = dump_state(state)
    game.counts = counts.to_data()
    game.version += 1
    game.next_seq += len(rows)
    now = timezone.now()
    game.started_at = game.started_at or now
    _set_status(game, state, now)
    _save_if_open(game)
    return rows


#: What a move changes in its game's row.
MOVED = ("state", "ledger", "counts", "version", "next_seq", "started_at", "status", "finished_at")


def _save_if_open(game: Game) -> None:
    """The move's game saved unless its table is closed (GameClosed: the caller's transaction stores
    nothing). Asked in the UPDATE itself, one statement instead of asking first: a statement of its own,
    it sees what was committed while the move waited for the game's lock (``is_closed`` says why)."""
    row = Game.objects.filter(pk=game.pk)
    if game.table_id is not None:
        row = row.filter(table_open())
    if not row.update(**{field: getattr(game, field) for field in MOVED}):
        game.closed = True
        raise GameClosed()
    game.closed = False
    announce("table", game.table_id)  # (an update sends no signal: the event streams are told here)


def _set_status(game: Game, state: GameState, now) -> None:
    if state.finished and game.status != Game.Status.FINISHED:
        game.status, game.finished_at = Game.Status.FINISHED, now
    elif not state.finished:
        game.status, game.finished_at = Game.Status.RUNNING, None


def counts_of(game: Game) -> CashCounts:
    """The game's cash counts as they stand, going on from what it keeps; a game stored before they were kept
    is replayed for them once (and keeps them from its next save)."""
    if game.counts is not None:
        return CashCounts.from_data(game.counts)
    counts, follow = _counter(game)
    replay(record_of(game), follow, narrate=False, check_fit=False)
    game.counts = counts.to_data()
    return counts


def _counter(game: Game):
    """Fresh cash counts, and what a replay of the game's active events calls with each outcome: each move
    known by its number."""
    seqs = list(active_events(game).values_list("seq", flat=True))
    counts = CashCounts()
    return counts, lambda i, out: counts(seqs[i], out)


def rebuild(game: Game) -> None:
    """Replay the active events from scratch into the snapshot, the ledger totals and the cash counts."""
    counts, follow = _counter(game)
    result, ledger = replay_ledger(record_of(game), follow, check_fit=False)  # (maybe before the fit check)
    if result.error is not None:
        seq = None
        if result.error["index"] is not None:
            seq = list(active_events(game).values_list("seq", flat=True))[result.error["index"]]
        raise LogError(
            _("Without that event, move #{seq} would be illegal.").format(seq=seq),
            rules_error=result.exception,
            seq=seq,
        )
    game.state = dump_state(result.state)
    game.ledger = {pid: [ledger.income(pid), ledger.cost(pid)] for pid in ledger.players}
    game.counts = counts.to_data()
    _set_status(game, result.state, timezone.now())


def _take_back(
    game_id: int,
    seq: int | None,
    status: str,
    *,
    version: int | None,
    user,
    reason: str,
    client_key=None,
    entered_with: str | None = None,
    directs: bool = True,
) -> Game:
    """``entered_with``: the start of the request key the move must have been entered with (a reason chosen
    in one tap is for a device's own move; another device's is undone with a typed one). ``directs``: who
    takes it back directs the game — only then may the director's stop be taken back."""
    reason = clean_reason(reason, missing=_("Say why (a reason is kept in the log)."), error=LogError)
    with transaction.atomic():
        game = _lock(game_id)
        if client_key and game.events.filter(change_key=client_key).exists():
            if version is not None and version == game.version:  # (its change made the version newer)
                raise KeyReused()
            return game  # the same request again: already done
        if is_closed(game):
            raise GameClosed()
        _require_version(game, version)
        if seq is None:  # the last request's events: one move, or a batch entered with one tap
            taken = last_batch(game)
        else:
            taken = list(active_events(game).filter(seq=seq))
        if not taken:
            raise LogError(_("There is no such move to take back."))
        row = taken[-1]
        if not directs and any(is_directors_stop(r.data) for r in taken):
            raise LogError(
                _("The tournament director stopped this game: only a director takes the stop back.")
            )
        if entered_with is not None:
            _entered_with(row, entered_with)
        _mark_taken(taken, status, user=user, reason=reason, client_key=client_key)
        rebuild(game)  # raises LogError: the transaction is rolled back, nothing changes
        game.version += 1
        game.save()
        return game


def _entered_with(row: GameEvent, entered_with: str) -> None:
    """A move taken back in one tap must be this device's: its request key starts with ``entered_with``
    (another device's is undone with a typed reason); LogError otherwise."""
    if not (row.client_key or "").startswith(entered_with):
        raise LogError(
            _("Move #%(seq)s was entered on another device: say why you undo it.") % {"seq": row.seq}
        )


def _mark_taken(taken: list[GameEvent], status: str, *, user, reason: str, client_key) -> None:
    """The moves ``taken`` marked undone or voided, with who, when and why; the request's key is kept with
    the last (a resent request is known by it)."""
    now, by = timezone.now(), author(user)
    for k, each in enumerate(taken):
        each.status = status
        each.changed_by = by
        each.changed_at = now
        each.reason = reason
        each.change_key = (client_key or None) if k == len(taken) - 1 else None  # unique: kept once
        each.save()


def undo_last(
    game_id: int,
    *,
    version: int | None,
    user=None,
    reason: str,
    client_key=None,
    entered_with: str | None = None,
    directs: bool = True,
) -> Game:
    return _take_back(
        game_id,
        None,
        GameEvent.Status.UNDONE,
        version=version,
        user=user,
        reason=reason,
        client_key=client_key,
        entered_with=entered_with,
        directs=directs,
    )


def void(
    game_id: int,
    seq: int,
    *,
    version: int | None,
    user=None,
    reason: str,
    client_key=None,
    directs: bool = True,
) -> Game:
    return _take_back(
        game_id,
        seq,
        GameEvent.Status.VOIDED,
        version=version,
        user=user,
        reason=reason,
        client_key=client_key,
        directs=directs,
    )


#: The moves entered with a key of the dice pad: the turn's roll, the dice thrown for a utility's rent, the
#: final steps' valuation of a square. One entered with a wrong key is corrected in one tap: undone and
#: entered again, the same player's for the same square, with the right dice (``correct_dice``).
DICE_PAD_MOVES = ("roll", "rent", "final_roll")


def dice_to_correct(batch: list[GameEvent]) -> GameEvent | None:
    """The move a correction of the dice would take back: the last request's one move, if it is a throw of
    the dice (``DICE_PAD_MOVES``, with its dice); else None."""
    if len(batch) != 1:
        return None
    row = batch[0]
    return row if row.data.get("type") in DICE_PAD_MOVES and "dice" in row.data else None


@dataclass
class Corrected:
    game: Game
    wrong: GameEvent  # the throw undone
    right: GameEvent  # the throw entered in its place
    duplicate: bool = False  # the same request had already been applied


def correct_dice(
    game_id: int,
    dice: list[int],
    *,
    version: int | None,
    user=None,
    reason: str,
    client_key: str,
    entered_with: str,
) -> Corrected:
    """The last move, a throw of the dice entered on this device (its request key starts with
    ``entered_with``), undone with ``reason`` and entered again with ``dice`` — the same player's throw, for
    the same square — both or neither, in one transaction. Raises StaleVersion, GameClosed, LogError (no
    throw to correct, another device's, the same dice) or the engine's RulesError: nothing changes.

    The request's key is kept twice, as the undone throw's ``change_key`` and as the new throw's
    ``client_key`` (each unique in a game, and the new throw is this device's own move: undone in one tap). A
    resent request finds both and is answered with what the first one did: the game's row locked, of two
    identical requests at once the second finds the first's. A key found only once was used by another form
    of the same screen, whose move changed the game: the request is refused as stale."""
    if not client_key or not entered_with:  # what tells a resend, and this device's throw
        raise ValueError("a correction of the dice needs its request's key and the device's")
    reason = clean_reason(reason, missing=_("Say why (a reason is kept in the log)."), error=LogError)
    with transaction.atomic():
        game = _lock(game_id)
        wrong = game.events.filter(change_key=client_key).first()
        right = game.events.filter(client_key=client_key).first()
        if wrong is not None and right is not None:
            if sorted(right.data.get("dice", ())) != sorted(dice):  # the key of another correction
                raise KeyReused()
            return Corrected(game, wrong, right, duplicate=True)
        if wrong is not None or right is not None:  # the key another form of the same screen used
            raise StaleVersion(game)
        if is_closed(game):
            raise GameClosed()
        _require_version(game, version)
        wrong = dice_to_correct(last_batch(game))
        if wrong is None:
            raise LogError(_("The last move is not a throw of the dice: there are no dice to correct."))
        _entered_with(wrong, entered_with)
        if sorted(wrong.data["dice"]) == sorted(dice):
            raise LogError(
                _("Move #%(seq)s was entered with these dice: nothing to correct.") % {"seq": wrong.seq}
            )
        _mark_taken([wrong], GameEvent.Status.UNDONE, user=user, reason=reason, client_key=client_key)
        rebuild(game)  # the game as it was before the wrong throw
        event = {**wrong.data, "dice": list(dice)}
        (right,) = _enter(game, load_state(game.state), [event], user=user, client_key=client_key)
        return Corrected(game, wrong, right)
