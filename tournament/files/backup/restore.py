"""Storing a backup as a new tournament (``import_tournament``): read and checked first (``reading``,
``check``), then stored in one transaction, all or nothing."""

from __future__ import annotations

import re
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DataError, IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.trade_flags import PAIR_KEY_PATTERN, pair_key
from tournament.boards.editions import hold_board, stored_board_version
from tournament.event import namesakes
from tournament.files.backup.check import Check
from tournament.files.backup.format import BackupError
from tournament.files.backup.reading import read_values
from tournament.models import (
    AuditEntry,
    CheckIn,
    Game,
    GameEvent,
    GamePlayer,
    Participant,
    Player,
    Round,
    Seat,
    Signature,
    Table,
    TableResult,
    Tournament,
    TradeFlagReview,
)
from tournament.models.players import name_key
from tournament.models.standings_changes import standings_changed
from tournament.models.tournaments import new_link_key
from tournament.ratings import triggers
from tournament.ratings.rebuild import Point


def restored_key(key: str, new_id) -> str:
    """A flag's key in the restored tournament: a pair's participants by their new ids (a game's flag names
    its round, table and move, which the restore keeps)."""
    pair = re.fullmatch(PAIR_KEY_PATTERN, key)
    if pair is None:
        return key
    return pair_key(*(f"p{new_id(int(ref))}" for ref in pair.groups()))


def import_tournament(data: dict, *, created_users: list | None = None) -> Tournament:
    """Store a backup as a new tournament; all or nothing. Raises BackupError (nothing is stored).

    The whole file is checked first (``read_values``: every value; ``Check``: the rules of the app over its
    parts, every game replayed); a refusal names the place in the file. Usernames that are not here become
    inactive accounts without a password (listed in ``created_users`` when a list is given), so that the
    history keeps its names.
    """
    backup = read_values(data)
    board = stored_board_version(backup["tournament"]["board"])  # (None: a shipped board, never replaced)
    Check(backup).run()  # the file as a whole, every game replayed
    _refuse_while_games_are_played()
    new_users: list = []
    try:
        with transaction.atomic():
            if hold_board(backup["tournament"]["board"]) != board:  # (held until stored: no replacement)
                raise BackupError(
                    _("The tournament's board was replaced meanwhile: import the backup again.")
                )
            tournament = _store(backup, new_users)
    except (IntegrityError, DataError) as e:  # not expected after the checks: a rule they do not know yet
        raise BackupError(_("The database refused the backup: %(error)s") % {"error": e}) from e
    if created_users is not None:
        created_users.extend(new_users)
    return tournament


def _refuse_while_games_are_played() -> None:
    """On SQLite, refuse while the tables enter moves: storing a big tournament holds the database's only
    write lock for seconds, and every move at the tables would wait for it (past the busy timeout: fail)."""
    minutes = settings.SQLITE_IMPORT_QUIET_MINUTES
    if connection.vendor != "sqlite" or minutes <= 0:
        return
    now = timezone.now()  # (a move "entered" in the future, by an earlier import, does not count)
    if GameEvent.objects.filter(entered_at__range=(now - timedelta(minutes=minutes), now)).exists():
        raise BackupError(
            _(
                "Moves were entered at the tables in the last %(n)s minutes. On SQLite, storing a backup "
                "holds the database while it lasts and the tables' moves would wait: import it when no game "
                "is being played (or serve the event with PostgreSQL, which imports beside the games)."
            )
            % {"n": minutes}
        )


class _Users:
    def __init__(self, created: list):
        self.model = get_user_model()
        self.cache: dict = {}
        self.created = created

    def __call__(self, username: str | None):
        if username is None:
            return None
        if username not in self.cache:
            user = self.model.objects.filter(username=username).first()
            if user is None:
                user = self.model.objects.create_user(username=username, password=None, is_active=False)
                self.created.append(user)
            self.cache[username] = user
        return self.cache[username]


def _players_still_there(participants: list[dict]) -> dict[int, int]:
    """The league's players the participants were, by participant id in the file: those still there under
    the same name (as compared); the others are left for the director's who is who."""
    given = {p["id"]: p["player"] for p in participants if p["player"]}
    found = Player.objects.in_bulk([p["id"] for p in given.values()])
    return {
        pid: p["id"]
        for pid, p in given.items()
        if p["id"] in found and found[p["id"]].name_key == name_key(p["name"])
    }


def _fresh_keys_where_taken(participants: list[dict]) -> None:
    """A private link's key that another tournament of this installation holds already is drawn anew (that
    participant's printed slip then opens nothing: the director prints his slip again)."""
    keys = [p["link_key"] for p in participants if p["link_key"]]
    taken = set(Participant.objects.filter(link_key__in=keys).values_list("link_key", flat=True))
    for p in participants:
        if p["link_key"] in taken:
            p["link_key"] = new_link_key()


def _store(backup: dict, created: list) -> Tournament:
    settings = backup["tournament"]
    if Tournament.objects.filter(name=settings["name"], date=settings["date"]).exists():
        raise BackupError(
            _("A tournament “%(name)s” of %(date)s is already here.")
            % {"name": settings["name"], "date": settings["date"].isoformat()}
        )
    user = _Users(created)
    directors = settings.pop("directors")
    tournament = Tournament(**{**settings, "created_by": user(settings["created_by"])})
    Tournament.objects.bulk_create([tournament])
    tournament.directors.set([user(name) for name in directors if name is not None])
    participant = {}
    _fresh_keys_where_taken(backup["participants"])
    players = _players_still_there(backup["participants"])
    for p in backup["participants"]:
        participant[p["id"]] = Participant(
            tournament=tournament,
            player_id=players.get(p["id"]),
            **{k: v for k, v in p.items() if k not in ("id", "where", "player")},
        )
    Participant.objects.bulk_create(participant.values())
    namesakes.mark(tournament.pk)  # in bulk: no signal of each
    if players:  # its results count for the league again (they came in bulk, without the signals)
        triggers.after_commit(Point.of_tournament(tournament))

    def new_id(old: int | None) -> int | None:
        return None if old is None else participant[old].pk

    rounds = [
        Round(tournament=tournament, **{k: v for k, v in r.items() if k not in ("tables", "where")})
        for r in backup["rounds"]
    ]
    Round.objects.bulk_create(rounds)
    for round_, r in zip(rounds, backup["rounds"], strict=True):
        for t in r["tables"]:
            table = Table.objects.create(round=round_, number=t["number"])
            table.referees.set([user(name) for name in t["referees"]])
            Seat.objects.bulk_create(
                Seat(table=table, participant_id=new_id(pid), order=i, role=role)
                for i, (pid, role) in enumerate(zip(t["seats"], t["roles"], strict=True))
            )
            game = _store_game(table, t["game"], user, new_id) if t["game"] is not None else None
            _store_signatures(table, game, t, new_id)
            TableResult.objects.bulk_create(
                [
                    TableResult(
                        table=table,
                        ranking=[{**row, "participant": new_id(row["participant"])} for row in x["ranking"]],
                        status=x["status"],
                        confirmed_by=user(x["confirmed_by"]),
                        confirmed_at=x["confirmed_at"],
                        second_by=user(x["second_by"]),
                        second_at=x["second_at"],
                        reopened_by=user(x["reopened_by"]),
                        reopened_at=x["reopened_at"],
                        reason=x["reason"],
                        by_hand=x["by_hand"],
                        hand_reason=x["hand_reason"],
                    )
                    for x in t["results"]
                ]
            )
    standings_changed(tournament.pk)  # its participants and results came in bulk, without the signals
    AuditEntry.objects.bulk_create(
        [
            AuditEntry(
                tournament=tournament,
                **{k: v for k, v in a.items() if k not in ("participant", "user", "where")},
                participant_id=new_id(a["participant"]),
                user=user(a["user"]),
            )
            for a in backup["audit"]
        ]
    )
    CheckIn.objects.bulk_create(
        [
            CheckIn(
                participant_id=new_id(c["participant"]),
                round_number=c["round_number"],
                via=c["via"],
                by=user(c["by"]),
                at=c["at"],
            )
            for c in backup["check_ins"]
        ]
    )
    TradeFlagReview.objects.bulk_create(
        [
            TradeFlagReview(
                tournament=tournament,
                key=restored_key(r["key"], new_id),
                note=r["note"],
                seen_by=user(r["seen_by"]),
                at=r["at"],
            )
            for r in backup["trade_flag_reviews"]
        ]
    )
    return tournament


def _store_signatures(table: Table, game: Game | None, t: dict, new_id) -> None:
    """The table's signatures in the file's order (the latest on a version counts). One on the game's version
    in the file is on the restored game's version (which the restore may have raised): a pending dispute still
    stops the confirmation; one on an older version stays voided."""
    if not t["signatures"]:
        return
    exported = t["game"]["version"]  # (``Check``: signatures only at a table with a game)
    Signature.objects.bulk_create(
        [
            Signature(
                table=table,
                participant_id=new_id(s["participant"]),
                game_version=game.version if s["game_version"] == exported else s["game_version"],
                agrees=s["agrees"],
                reason=s["reason"],
                disputed_move=s["disputed_move"],
                link_key=s["link_key"],
                at=s["at"],
            )
            for s in t["signatures"]
        ]
    )


_GAME_FIELDS = (
    "name",
    "variant",
    "board",
    "options",
    "status",
    "created_at",
    "started_at",
    "finished_at",
    "version",
    "next_seq",
)
_EVENT_FIELDS = (
    "seq",
    "data",
    "status",
    "notes",
    "entered_at",
    "client_key",
    "changed_at",
    "reason",
    "change_key",
)


def _store_game(table: Table, g: dict, user, new_id) -> Game:
    game = Game(
        table=table,
        **{k: g[k] for k in _GAME_FIELDS},
        created_by=user(g["created_by"]),
    )
    Game.objects.bulk_create([game])
    game.referees.set([user(name) for name in g["referees"]])
    GamePlayer.objects.bulk_create(
        GamePlayer(
            game=game,
            seat=p["seat"],
            pid=p["pid"],
            name=p["name"],
            role=p["role"],
            participant_id=new_id(p["participant"]),
        )
        for p in g["players"]
    )
    GameEvent.objects.bulk_create(
        [
            GameEvent(
                game=game,
                **{k: e[k] for k in _EVENT_FIELDS},
                entered_by=user(e["entered_by"]),
                changed_by=user(e["changed_by"]),
            )
            for e in g["events"]
        ]
    )
    game.state, game.ledger = g["replayed"]["state"], g["replayed"]["ledger"]  # the replay of ``Check``
    changes = len(g["events"]) + sum(1 for e in g["events"] if e["status"] != GameEvent.Status.ACTIVE)
    game.version = max(game.version, changes)
    game.next_seq = max([game.next_seq] + [e["seq"] + 1 for e in g["events"]])
    game.save(update_fields=["state", "ledger", "version", "next_seq"])
    return game
