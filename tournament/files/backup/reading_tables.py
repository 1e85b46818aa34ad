"""Reading a table of a backup file: its seats and roles, its game with the players and the moves, its
results and the players' signatures, each value checked where it is (``values.Node``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules import available_boards, available_variants
from rules.standings import MAX_PLACEMENT_POINTS
from tournament.files.backup.format import BackupError
from tournament.files.backup.values import Node, Participants, is_message, max_length, unique
from tournament.models import (
    Game,
    GameEvent,
    GamePlayer,
    Seat,
    Signature,
    Table,
    TableResult,
)
from tournament.models.bounds import INTEGER_MAX, SMALL_MAX, field_maximum


def _read_event(n: Node) -> dict:
    notes = n.json_list("notes")
    for i, note in enumerate(notes):
        if not is_message(note):
            raise BackupError(
                _("%(where)s is not a note of the rules engine (a template and its values).")
                % {"where": Node(notes, n.path("notes")).path(i)}
            )
    event = {
        "seq": n.int("seq", minimum=1, maximum=field_maximum(GameEvent, "seq")),
        "data": n.json_object("data"),
        "status": n.choice("status", GameEvent.Status.values),
        "notes": notes,
        "entered_by": n.username("entered_by"),
        "entered_at": n.datetime("entered_at"),
        "client_key": n.text("client_key", null=True, max_length=max_length(GameEvent, "client_key")),
        "changed_by": n.username("changed_by"),
        "changed_at": n.datetime("changed_at", null=True),
        "reason": n.text("reason", max_length=max_length(GameEvent, "reason")),
        "change_key": n.text("change_key", null=True, max_length=max_length(GameEvent, "change_key")),
    }
    if event["status"] != GameEvent.Status.ACTIVE and (event["changed_at"] is None or not event["reason"]):
        raise BackupError(
            _("%(where)s: an undone or voided move needs the time it was taken back and the reason.")
            % {"where": n.where}
        )
    return event


def _read_game(n: Node, participants: Participants) -> dict:
    players = [
        {
            "seat": p.int("seat", maximum=field_maximum(GamePlayer, "seat")),
            "pid": p.text("pid", blank=False, max_length=max_length(GamePlayer, "pid")),
            "name": p.text("name", blank=False, max_length=max_length(GamePlayer, "name")),
            "role": p.text("role", max_length=max_length(GamePlayer, "role")),
            "participant": participants.ref(p, "participant", null=True),
            "where": p.where,
        }
        for p in n.nodes("players")
    ]
    unique(n.path("players"), (p["seat"] for p in players))
    unique(n.path("players"), (p["pid"] for p in players))
    events = [_read_event(e) for e in n.nodes("events")]
    unique(n.path("events"), (e["seq"] for e in events))
    unique(n.path("events"), (e["client_key"] for e in events if e["client_key"]))
    unique(n.path("events"), (e["change_key"] for e in events if e["change_key"]))
    return {
        "name": n.text("name", max_length=max_length(Game, "name")),
        "variant": n.choice("variant", available_variants()),
        "board": n.choice("board", available_boards()),
        "options": n.json_object("options"),
        "status": n.choice("status", Game.Status.values),
        "created_by": n.username("created_by"),
        "created_at": n.datetime("created_at"),
        "started_at": n.datetime("started_at", null=True),
        "finished_at": n.datetime("finished_at", null=True),
        "version": n.int("version", maximum=field_maximum(Game, "version")),
        "next_seq": n.int("next_seq", minimum=1, maximum=field_maximum(Game, "next_seq")),
        "referees": n.usernames("referees"),
        "players": players,
        "events": events,
        "where": n.where,
    }


_ROW_KEYS = ("participant", "name", "rank", "score", "points", "role")


def _read_result(n: Node, participants: Participants) -> dict:
    ranking = []
    for row in n.nodes("ranking"):
        unknown = sorted(set(row.value) - set(_ROW_KEYS))
        if unknown:
            raise BackupError(
                _("%(where)s: unknown key “%(key)s”.") % {"where": row.where, "key": str(unknown[0])[:40]}
            )
        ranking.append(
            {
                "participant": participants.ref(row, "participant", null=True),
                "name": row.text("name", max_length=max_length(GamePlayer, "name")),
                "rank": row.int("rank", minimum=1, maximum=SMALL_MAX),
                "score": row.int("score", minimum=-INTEGER_MAX, maximum=INTEGER_MAX),
                "points": row.int("points", maximum=MAX_PLACEMENT_POINTS),
                **({"role": row.choice("role", Seat.Role.values)} if "role" in row.value else {}),
            }
        )
    unique(n.path("ranking"), (r["participant"] for r in ranking if r["participant"] is not None))
    result = {
        "ranking": ranking,
        "status": n.choice("status", TableResult.Status.values),
        "confirmed_by": n.username("confirmed_by"),
        "confirmed_at": n.datetime("confirmed_at"),
        "second_by": n.username("second_by"),
        "second_at": n.datetime("second_at", null=True),
        "reopened_by": n.username("reopened_by"),
        "reopened_at": n.datetime("reopened_at", null=True),
        "reason": n.text("reason", max_length=max_length(TableResult, "reason")),
        "by_hand": n.bool("by_hand") if "by_hand" in n.value else False,  # both keys: files since 0008
        "hand_reason": (
            n.text("hand_reason", max_length=max_length(TableResult, "hand_reason"))
            if "hand_reason" in n.value
            else ""
        ),
        "where": n.where,
    }
    if result["by_hand"] and not result["hand_reason"].strip():
        raise BackupError(_("%(where)s: a result entered by hand needs the reason.") % {"where": n.where})
    if result["status"] != TableResult.Status.CONFIRMED and (
        result["reopened_at"] is None or not result["reason"]
    ):
        raise BackupError(
            _("%(where)s: a reopened result needs the time it was reopened and the reason.")
            % {"where": n.where}
        )
    return result


#: A signature's word, as the file says it (and the participant's page posts it).
VERDICTS = ("agree", "dispute")


def _read_signature(n: Node, participants: Participants) -> dict:
    """A player's signature of his table's figures, kept as it was made (``signatures.sign``): a dispute says
    why; the link it came from only as its mark (``signatures.link_mark``)."""
    participant = participants.ref(n, "participant")
    verdict = n.choice("verdict", VERDICTS)
    return {
        "participant": participant,
        "agrees": verdict == "agree",
        "reason": n.text("reason", max_length=max_length(Signature, "reason"), blank=verdict == "agree"),
        "game_version": n.int("game_version", maximum=field_maximum(Signature, "game_version")),
        "at": n.datetime("at"),
        "link_key": n.text("link_mark", max_length=max_length(Signature, "link_key")),
        # the move a dispute names (a file from before it was kept: none)
        "disputed_move": (
            n.int("disputed_move", null=True, minimum=1, maximum=field_maximum(Signature, "disputed_move"))
            if "disputed_move" in n.value
            else None
        ),
        "where": n.where,
    }


def read_table(n: Node, participants: Participants) -> dict:
    seats = Node(n.json_list("seats"), n.path("seats"))
    if len(seats.value) > SMALL_MAX:  # Seat.order
        raise BackupError(_("%(where)s: too many seats.") % {"where": seats.where})
    table = {
        "number": n.int("number", minimum=1, maximum=field_maximum(Table, "number")),
        "referees": n.usernames("referees"),
        "seats": [participants.ref(seats, i) for i in range(len(seats.value))],
        "roles": [""] * len(seats.value),
        "game": None,
        "results": [_read_result(r, participants) for r in n.nodes("results")],
        "signatures": (  # a backup made before the signatures has none
            [_read_signature(s, participants) for s in n.nodes("signatures")]
            if "signatures" in n.value
            else []
        ),
        "where": n.where,
    }
    if "roles" in n.value:
        roles = Node(n.json_list("roles"), n.path("roles"))
        if len(roles.value) != len(seats.value):
            raise BackupError(_("%(where)s: one role per seat.") % {"where": n.path("roles")})
        table["roles"] = [roles.choice(i, ("", *Seat.Role.values)) for i in range(len(roles.value))]
    game = n.node("game", null=True)
    if game is not None:
        table["game"] = _read_game(game, participants)
    unique(n.path("seats"), table["seats"])
    confirmed = [r for r in table["results"] if r["status"] == TableResult.Status.CONFIRMED]
    if len(confirmed) > 1:
        raise BackupError(_("%(where)s: more than one confirmed result.") % {"where": n.path("results")})
    return table
