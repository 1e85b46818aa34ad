"""Running the rounds of a tournament: seat a round (round 1 by its seeds: ``rating_seeds``; each table's
seats rotated so that every player's seat positions even out over the tournament:
``rules.seating.order_seats``), swap players by hand, start it, start a table's game in the order of the
opening roll (the game's order of play: ``order_of_play``), withdraw a participant between rounds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules import RecordError, make_variant
from rules.record import check_roles
from rules.seating import Entrant, club_key, order_seats, pairs_of, repeat_pairs, seat_round
from tournament.collation import name_key
from tournament.errors import AlreadySeated, RoundError
from tournament.event.current_standings import tournament_standings
from tournament.event.rating_seeds import seed_numbers
from tournament.event.roles import assign_roles, role_history
from tournament.event.table_locks import lock_table
from tournament.games import recording
from tournament.models import Game, GamePlayer, Participant, Round, Seat, Table, Tournament


def tables_of(round_: Round) -> list[list[int]]:
    return [[s.participant_id for s in t.seats.all()] for t in round_.tables.prefetch_related("seats")]


def earlier_tables(tournament: Tournament, before: int | None = None) -> list[tuple[int, list[int]]]:
    """(round number, participant ids) of each table in the rounds before ``before`` (all rounds: None), read
    in one query."""
    return _earlier_seats(tournament, before)[0]


def _earlier_seats(
    tournament: Tournament, before: int | None = None
) -> tuple[list[tuple[int, list[int]]], dict[int, Counter]]:
    """``earlier_tables``, and how often each participant sat at each seat position (``Seat.order``) in those
    rounds: one query."""
    seats = Seat.objects.filter(table__round__tournament=tournament)
    if before is not None:
        seats = seats.filter(table__round__number__lt=before)
    tables: dict[int, tuple[int, list[int]]] = {}
    positions: dict[int, Counter] = {}
    for table_id, number, participant_id, order in seats.values_list(
        "table_id", "table__round__number", "participant_id", "order"
    ):
        tables.setdefault(table_id, (number, []))[1].append(participant_id)
        positions.setdefault(participant_id, Counter())[order] += 1
    return list(tables.values()), positions


def met_pairs(tournament: Tournament, before: int | None = None) -> set[frozenset]:
    """Pairs of participants who have shared a table in the rounds before ``before`` (all rounds: None)."""
    return pairs_of(ids for _number, ids in earlier_tables(tournament, before))


def repeat_pairs_named(round_: Round) -> list[tuple[str, str, list[int]]]:
    """The pairs at this round's tables who have met before, by name, with the rounds they met in."""
    rounds_met: dict[frozenset, list[int]] = {}
    for number, ids in earlier_tables(round_.tournament, before=round_.number):
        for pair_ in pairs_of([ids]):
            rounds_met.setdefault(pair_, []).append(number)
    names = {p.pk: p.shown_name for p in Participant.objects.filter(seats__table__round=round_)}
    out = []
    for ids in tables_of(round_):
        for pair_ in pairs_of([ids]):
            if pair_ in rounds_met:
                a, b = sorted((names[x] for x in pair_), key=name_key)
                out.append((a, b, sorted(rounds_met[pair_])))
    return sorted(out, key=lambda r: (name_key(r[0]), name_key(r[1])))


def club_pairs_named(round_: Round) -> list[tuple[str, str, str]]:
    """Pairs of one club (or school) at a table of this round, by name, with the club."""
    out = []
    for table in round_.tables.prefetch_related("seats__participant"):
        people = [s.participant for s in table.seats.all()]
        for i, a in enumerate(people):
            for b in people[i + 1 :]:
                if club_key(a.club) and club_key(a.club) == club_key(b.club):
                    x, y = sorted((a.name, b.name), key=name_key)
                    out.append((x, y, a.club.strip()))
    return sorted(out, key=lambda r: (name_key(r[0]), name_key(r[1])))


def repeat_count(round_: Round) -> int:
    """How many pairs at this round's tables have met before (reported after hand-made swaps)."""
    return repeat_pairs(tables_of(round_), met_pairs(round_.tournament, before=round_.number))


def next_round_state(tournament: Tournament, last: Round | None) -> str:
    """What the tournament page offers for the next round (the same conditions ``seat_next_round`` checks):
    "seat" (a button), "waiting" (the last round's results are not all confirmed) or "over" (every round
    is played)."""
    if last is not None and last.status != Round.Status.FINISHED:
        return "waiting"
    if (0 if last is None else last.number) >= tournament.rounds:
        return "over"
    return "seat"


@transaction.atomic
def seat_next_round(tournament: Tournament, number: int | None = None) -> Round:
    """Seat the tournament's next round (``number``, when given, is the round the director asked for: if it
    is seated already — by another director at the same moment, or a double tap —, AlreadySeated says so).

    The tournament is locked meanwhile: two seatings at once are made one after the other."""
    # (no_key: the rows that point at the tournament — a participant added, an entry of the director's log —
    # are not held up; a second seating is)
    tournament = Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)
    last = tournament.round_set.order_by("-number").first()
    if number is not None and last is not None and last.number >= number:
        raise AlreadySeated(_("Round %(n)s is seated already.") % {"n": number}, number)
    state = next_round_state(tournament, last)  # the conditions the tournament page offers the seating by
    if state == "waiting":
        raise RoundError(
            _("Round %(n)s is not finished: every table's result must be confirmed first.")
            % {"n": last.number}
        )
    if state == "over":
        raise RoundError(_("All %(n)s rounds have been played.") % {"n": tournament.rounds})
    number = 1 if last is None else last.number + 1
    round_ = Round(tournament=tournament, number=number, seed=tournament.seed * 1000 + number)
    seat_tables(round_, referees=referees_by_number(last) if last else {})
    return round_


def seat_tables(round_: Round, referees: dict[int, list[int]]) -> None:
    """Seat the round's tables (a new round, or one seated again) from the active participants (those who
    checked in for it, in a tournament that asks them to: ``check_in``): round 1 drawn, its seeded players
    (``rating_seeds``: typed, or by rating) spread in snake order; later rounds by standings; away from
    earlier opponents, club-mates and — for those who sat at a short table — from short tables again. Each
    table's seats (``Seat.order``) are rotated from the positions its players sat at in the earlier rounds.
    ``referees``: user ids by table number (the previous round's, or the round's own before it is seated
    again)."""
    tournament, number = round_.tournament, round_.number
    present = tournament.participants.filter(withdrawn_after__isnull=True)
    if tournament.check_in:  # those who checked in for this round (tournament.event.check_in)
        present = present.filter(check_ins__round_number=number)
    present = list(present)
    seeds = seed_numbers(tournament, present) if number == 1 else {}
    entrants = [Entrant(p.pk, p.club, seeds.get(p.pk)) for p in present]
    if tournament.check_in and len(entrants) < 2:
        raise RoundError(
            ngettext(
                "%(n)s participant has checked in for round %(round)s: a round needs at least 2. The "
                "director can check in those who are here on the tournament's page.",
                "%(n)s participants have checked in for round %(round)s: a round needs at least 2. The "
                "director can check in those who are here on the tournament's page.",
                len(entrants),
            )
            % {"n": len(entrants), "round": number}
        )
    if len(entrants) < 2:
        raise RoundError(_("A round needs at least 2 participants."))
    standings = None if number == 1 else [row.participant for row in tournament_standings(tournament)]
    final = tournament.final_table_size if number == tournament.rounds else None
    if final and final > len(entrants):
        final = None
    earlier, positions = _earlier_seats(tournament, before=number)
    seating = seat_round(
        entrants,
        size=tournament.table_size,
        seed=round_.seed,
        standings=standings,
        met=pairs_of(ids for _number, ids in earlier),
        short_before={pid for _number, ids in earlier if len(ids) < tournament.table_size for pid in ids},
        final_table=final,
    )
    seated = order_seats(seating.tables, positions, seed=round_.seed)  # each table in the order of its seats
    round_.save()
    tables = Table.objects.bulk_create(Table(round=round_, number=n) for n in range(1, len(seated) + 1))
    roles = {}
    if make_variant(tournament.variant).roles:
        roles = assign_roles(seating.tables, role_history(tournament, number), round_.seed)
    Seat.objects.bulk_create(
        Seat(table=table, participant_id=pid, order=i, role=roles.get(pid, ""))
        for table, ids in zip(tables, seated, strict=True)
        for i, pid in enumerate(ids)
    )
    through = Table.referees.through
    through.objects.bulk_create(
        through(table_id=table.pk, user_id=user_id)
        for table in tables
        for user_id in referees.get(table.number, [])
    )


def referees_by_number(round_: Round) -> dict[int, list[int]]:
    """The user ids of each table's referees in the round, by table number (active accounts: a deactivated
    one goes to no new table)."""
    out: dict[int, list[int]] = {}
    links = Table.referees.through.objects.filter(table__round=round_, user__is_active=True)
    for number, user_id in links.values_list("table__number", "user_id"):
        out.setdefault(number, []).append(user_id)
    return out


@transaction.atomic
def swap(round_: Round, a: Participant, b: Participant) -> int:
    """Exchange two participants' tables before the round starts; returns the repeat pairings left."""
    if round_.status != Round.Status.SEATED:
        raise RoundError(_("The round has started: its seating is fixed."))
    seat_a = Seat.objects.select_related("table").get(table__round=round_, participant=a)
    seat_b = Seat.objects.select_related("table").get(table__round=round_, participant=b)
    if seat_a.table_id == seat_b.table_id:
        raise RoundError(_("%(a)s and %(b)s sit at the same table.") % {"a": a, "b": b})
    seat_a.table, seat_b.table = seat_b.table, seat_a.table
    Seat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
    Seat.objects.bulk_create(  # each takes the other's place, role included: the tables stay balanced
        [
            Seat(table=seat_a.table, participant=a, order=seat_b.order, role=seat_b.role),
            Seat(table=seat_b.table, participant=b, order=seat_a.order, role=seat_a.role),
        ]
    )
    return repeat_count(round_)


@transaction.atomic
def start_round(round_: Round) -> None:
    """The seated round starts (read again under its lock: a second start, at once or from a page of before,
    is told it has started)."""
    locked = Round.objects.select_for_update(of=("self",)).get(pk=round_.pk)
    if locked.status != Round.Status.SEATED:
        raise RoundError(_("The round has already started."))
    round_.status, round_.started_at = Round.Status.RUNNING, timezone.now()
    round_.save(update_fields=["status", "started_at"])


@transaction.atomic
def start_table_game(table: Table, order: list[int], user=None) -> Game:
    """Create the table's game with the participants in the order of the opening roll.

    The round and the table are locked while the game is made (in the order every change of a table locks
    them: ``table_locks.lock_table``; a table seated again meanwhile is gone, and said so), and ``Game.table``
    is unique: two "start" requests at once make one game. The second one (a double tap) gets that game when
    it asks for the same order.
    """
    round_, table, existing = lock_table(table)
    if existing is not None:
        if list(existing.players.order_by("seat").values_list("participant_id", flat=True)) == list(order):
            return existing
        raise RoundError(_("This table's game has already started."))
    if round_.status != Round.Status.RUNNING:
        raise RoundError(_("Start the round first."))
    seats = {s.participant_id: s for s in table.seats.select_related("participant")}
    seated = {pid: seat.participant for pid, seat in seats.items()}
    roles = _table_roles(table, list(seats.values()))
    if sorted(order) != sorted(seated):
        raise RoundError(_("Give each player at the table one place in the order of play."))
    if len(seated) < 2:
        raise RoundError(
            _("A game needs at least 2 players: the director moves this player to another table.")
        )
    t = round_.tournament
    return recording.create_game(
        variant=t.variant,
        board=t.board,
        options=t.game_options(),
        user=user,
        name=_("%(tournament)s · round %(round)s · table %(table)s")
        % {"tournament": t.name, "round": round_.number, "table": table.number},
        players=[
            {
                "name": seated[pid].shown_name,
                "participant": seated[pid],
                **({"role": roles[pid]} if roles else {}),
            }
            for pid in order
        ],
        referees=list(table.referees.all()),
        table=table,
    )


def order_of_play(players: Iterable[GamePlayer]) -> list[GamePlayer]:
    """A table's game's players in its order of play, the first to play first: as ``start_table_game`` stored
    them (their ``seat`` in the game, the order the referee gave from the opening roll; a record imported at
    the table: the record's), the order the game's record lists them and the engine gives the turns in.

    Not the table's seating (``Seat.order``): that is only the order the draw (or a move, an absence) left the
    table's seats in, which nothing makes the order of play. Before the game starts there is none (``[]``)."""
    return sorted(players, key=lambda p: p.seat)


def _table_roles(table: Table, seats: list[Seat]) -> dict[int, str]:
    """The roles the table's game is played with: the seats' (Anti-Monopoly), given now to a table seated
    before the tournament became Anti-Monopoly (or whose roles a backup left unbalanced); none otherwise."""
    t = table.round.tournament
    if not make_variant(t.variant).roles:
        return {}
    roles = {s.participant_id: s.role for s in seats}
    try:
        check_roles(list(roles.values()))
    except RecordError:
        history = role_history(t, table.round.number)
        roles = assign_roles([list(roles)], history, table.round.seed * 100 + table.number)
        for s in seats:
            s.role = roles[s.participant_id]
        Seat.objects.bulk_update(seats, ["role"])
    return roles
