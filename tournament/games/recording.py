"""Recording a table's moves: one event per request, applied to the stored state (no replay), with undo and
void by replaying the rest, an audit trail, stale-version refusal and harmless resends.

A game's log read is ``log``; a request of several events, ``batches``; the game's lock, ``locks``; the
refusals, ``refusals``; the dice corrected in one tap, ``dice_correction``.

Everything here works on the database; the rules come from ``rules`` and the income/cost from ``ledger``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.card import add_totals
from ledger.report import replay_ledger
from rules import RulesError, apply, parse_record, replay
from rules.cash_counts import CashCounts
from rules.messages import to_data
from rules.record import FORMAT, parse_event
from rules.replay import start_state
from rules.snapshot import dump_state, load_state
from rules.state import GameState
from tournament.boards.editions import hold_board
from tournament.games.batches import batch_key, batch_refusal, last_batch, same_request
from tournament.games.locks import is_closed, locked
from tournament.games.log import active_events, event_data, is_directors_stop, record_of
from tournament.games.refusals import GameClosed, KeyReused, LogError, StaleVersion, key_checked
from tournament.models import Game, GameEvent, GamePlayer, Table
from tournament.models.announcements import announce
from tournament.models.game_conditions import table_open
from tournament.reasons import clean_reason


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


def require_version(game: Game, version: int | None) -> None:
    """The change was made against this version of the game, or it is stale (another device moved first)."""
    if version is not None and version != game.version:
        raise StaleVersion(game)


def author(user):
    return user if user is not None and user.is_authenticated else None


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
        return enter(locked(game_id), events, version=version, user=user, client_key=client_key)


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
        require_version(game, version)
        state = load_state(game.state)
        rows = store_moves(game, state, events, user=user, client_key=client_key)
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


def store_moves(game: Game, state: GameState, events: list[dict], *, user, client_key: str | None):
    """Apply ``events`` to ``state`` (the game's, as it stands), store them as the next moves and save the
    game (state, ledger, cash counts, version); the first refused raises, and the caller's transaction
    stores nothing."""
    rows = []
    counts = counts_of(game)
    for k, event in enumerate(events):
        try:
            out = apply(state, event, in_place=True)
        except RulesError as e:
            raise batch_refusal(state, events, k, e) from e
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
    game.ledger = ledger.totals()
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
        game = locked(game_id)
        if client_key and game.events.filter(change_key=client_key).exists():
            if version is not None and version == game.version:  # (its change made the version newer)
                raise KeyReused()
            return game  # the same request again: already done
        if is_closed(game):
            raise GameClosed()
        require_version(game, version)
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
            require_own_move(row, entered_with)
        mark_taken(taken, status, user=user, reason=reason, client_key=client_key)
        rebuild(game)  # raises LogError: the transaction is rolled back, nothing changes
        game.version += 1
        game.save()
        return game


def require_own_move(row: GameEvent, entered_with: str) -> None:
    """A move taken back in one tap must be this device's: its request key starts with ``entered_with``
    (another device's is undone with a typed reason); LogError otherwise."""
    if not (row.client_key or "").startswith(entered_with):
        raise LogError(
            _("Move #%(seq)s was entered on another device: say why you undo it.") % {"seq": row.seq}
        )


def mark_taken(taken: list[GameEvent], status: str, *, user, reason: str, client_key) -> None:
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
