"""Board editions on the Django side: the shipped boards (``rules/boards``) and those a director stored from a
file (``BoardEdition``), offered alike wherever a board is chosen.

The rules find a stored board through the loader set here when the app starts (``install``, from
``TournamentConfig.ready``): every time a stored board is wanted the database says its current version, the
digest of its data (one small query; never while the app starts or migrates), and a process parses a version
once. A board replaced through another server process (or deleted and uploaded again under its id) is
therefore seen at once, and no process keeps playing on an old copy.

Storing checks the file as the rules read it (every square and card, each problem a line), then the id: not a
shipped one, not another's; replacing or deleting a board is for who stored it and only while no game is
played on it. A game's start holds its stored board (``hold_board``, a row lock) until the game is stored, so
a replacement at the same moment either comes first or is refused: a board a game was started on never
changes.
"""

from __future__ import annotations

import json
import re

from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules import (
    BoardError,
    RulesError,
    Variant,
    available_boards,
    available_variants,
    get_board,
    make_variant,
)
from rules.board import (
    BOARDS_DIR,
    forget_board,
    parse_board,
    register_board,
    set_board_loader,
    shipped_boards,
)
from rules.fit import board_fits, fitting_boards, why_board_does_not_fit
from tournament import labels
from tournament.boards import names as board_names
from tournament.boards.files.columns import BoardFileError
from tournament.boards.files.reading import check_characters
from tournament.games.messages import error_text, translate
from tournament.models import BoardEdition, Game, Tournament
from tournament.models.boards import BOARD_ID_LENGTH, data_digest
from tournament.server.uploads import NOT_ALLOWED

BOARD_ID = re.compile(rf"[a-z0-9][a-z0-9-]{{0,{BOARD_ID_LENGTH - 1}}}")
MAX_DATA_BYTES = 512 * 1024  # a board as stored (the shipped ones are about 15 kB)


# -- the rules' loader -------------------------------------------------------------------------------------


def _storable(board_id) -> bool:
    return isinstance(board_id, str) and BOARD_ID.fullmatch(board_id) is not None


def stored_board(board_id: str) -> tuple[str, dict] | None:
    """The version (digest) and data of the stored board ``board_id``, or None (no such board, or no database
    yet)."""
    if not _storable(board_id):
        return None  # no query for an id that cannot be stored
    try:
        return BoardEdition.objects.filter(pk=board_id).values_list("digest", "data").first()
    except DatabaseError:  # the table is not there yet (before `migrate`): the shipped boards only
        return None


def stored_board_version(board_id: str) -> str | None:
    """The current version of the stored board ``board_id`` (the digest of its data), or None."""
    if not _storable(board_id):
        return None
    try:
        return BoardEdition.objects.filter(pk=board_id).values_list("digest", flat=True).first()
    except DatabaseError:
        return None


def stored_board_data(board_id: str) -> dict | None:
    """The data of the stored board ``board_id``, or None."""
    found = stored_board(board_id)
    return None if found is None else found[1]


def stored_board_ids() -> list[str]:
    try:
        return list(BoardEdition.objects.values_list("pk", flat=True))
    except DatabaseError:
        return []


def install() -> None:
    """Let the rules find the stored boards (touches no database now)."""
    set_board_loader(stored_board, stored_board_ids, stored_board_version)


def hold_board(board_id: str) -> str | None:
    """Within a transaction: lock the stored board ``board_id`` (nothing for a shipped one) until the
    transaction ends, so that it is neither replaced nor deleted meanwhile; returns the version it holds (as
    ``stored_board_version``: None for a shipped board or none stored). A game's start calls it before it
    reads the board; an import, to compare with the version it replayed on."""
    if board_id in shipped_boards() or not _storable(board_id):
        return None
    held = BoardEdition.objects.select_for_update().filter(pk=board_id)
    return held.values_list("digest", flat=True).first()


# -- what the forms offer ----------------------------------------------------------------------------------


def board_choices() -> list[tuple[str, str]]:
    """(id, label) of every board a game or a tournament may be played on, asked at each request."""
    shipped = [(b, f"{get_board(b).name} ({b})") for b in shipped_boards()]
    stored = [(pk, f"{name} ({pk})") for pk, name in BoardEdition.objects.values_list("pk", "name")]
    return sorted(shipped + stored)


def boards_by_variant() -> dict[str, list[str]]:
    """For each variant, the ids of the boards it is played on (the rule: ``rules.fit``), each board read
    once: what the board select offers once a variant is chosen (static/site/board-filter.js)."""
    boards = []
    for board_id in available_boards():
        try:
            boards.append(get_board(board_id))
        except BoardError:  # deleted meanwhile
            continue
    variants = [make_variant(v) for v in available_variants()]
    return {v.id: [b.id for b in boards if board_fits(v, b)] for v in variants}


def board_misfit(variant: str | Variant, board_id: str) -> str | None:
    """Why the variant is not played on the board, in the user's language, with the boards' and the
    variant's names, naming the boards that fit; None if it is, or if either is unknown (the form's choices or
    the record's own check say so)."""
    try:
        variant = variant if isinstance(variant, Variant) else make_variant(variant)
        refusal = why_board_does_not_fit(variant, get_board(board_id))
    except RulesError:
        return None
    if refusal is None:
        return None
    names = dict(board_names.board_choices())
    return translate(
        refusal.template,
        {
            **refusal.params,
            "board": names.get(board_id, board_id),
            "variant": labels.variant_label(variant.id),
            "boards": "; ".join(names.get(b, b) for b in fitting_boards(variant)),
        },
    )


def board_data(board_id: str) -> dict | None:
    """A board's data as in its file: a shipped board's JSON file, a stored board's data; None if unknown."""
    if not isinstance(board_id, str):
        return None
    if board_id in shipped_boards():
        return json.loads((BOARDS_DIR / f"{board_id}.json").read_text(encoding="utf-8"))
    return stored_board_data(board_id)


def dumps(data: dict) -> str:
    """A board's data as a JSON file, laid out as the shipped ones."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def editions() -> list[dict]:
    """Every board, shipped and stored, as the board editions page lists it."""
    games = dict(Game.objects.values_list("board").annotate(n=Count("pk")).order_by())
    tournaments = dict(Tournament.objects.values_list("board").annotate(n=Count("pk")).order_by())
    rows = []
    for board_id in shipped_boards():
        board = get_board(board_id)
        rows.append({"id": board_id, "name": board.name, "language": board.language, "shipped": True})
    for e in BoardEdition.objects.select_related("uploaded_by"):
        rows.append(
            {
                "id": e.pk,
                "name": e.name,
                "language": e.language,
                "shipped": False,
                "uploaded_by": e.uploaded_by,
                "uploaded_at": e.uploaded_at,
                "file_name": e.file_name,
            }
        )
    for row in rows:
        row["games"] = games.get(row["id"], 0)
        row["tournaments"] = tournaments.get(row["id"], 0)
    return sorted(rows, key=lambda r: r["id"])


# -- storing and deleting ----------------------------------------------------------------------------------


def _refuse(text: str) -> BoardFileError:
    return BoardFileError([text])


def _check_id(board_id) -> str:
    if board_id is None or board_id == "":
        raise _refuse(
            _("Give the board an id: in the form, or on the workbook's sheet “board” (or in the JSON).")
        )
    if not isinstance(board_id, str) or not BOARD_ID.fullmatch(board_id):
        raise _refuse(
            _(
                "The board id “%(id)s” is not valid: at most %(max)s lower-case letters (a–z), digits and "
                "hyphens, starting with a letter or a digit."
            )
            % {"id": str(board_id)[: BOARD_ID_LENGTH + 10], "max": BOARD_ID_LENGTH}
        )
    if board_id in shipped_boards():
        raise _refuse(_("%(id)s is a board shipped with the app: choose another id.") % {"id": board_id})
    return board_id


def check_board(data: dict):
    """The Board the rules make of ``data``, or BoardFileError listing every problem the rules find."""
    try:
        return parse_board(data)
    except BoardError as e:
        raise BoardFileError([error_text(p) for p in e.problems]) from None


def store_board(
    data: dict, user, *, file_name: str = "", board_id: str = "", name: str = "", replace: bool = False
) -> BoardEdition:
    """Store a board read from a file (``board_id`` and ``name``, when given, replace the file's), all or
    nothing; BoardFileError says why not."""
    data = dict(data)
    if board_id:
        data["id"] = board_id
    if name:
        data["name"] = name
    check_characters(data)  # the form's id and name too
    _check_id(data.get("id"))
    language = data.get("language")
    if language is not None and (
        not isinstance(language, str) or not re.fullmatch(r"[A-Za-z-]{2,10}", language)
    ):
        raise _refuse(
            _("The board's language is a code such as pl or en, not “%(value)s”.")
            % {"value": str(language)[:20]}
        )
    if len(json.dumps(data, ensure_ascii=False).encode()) > MAX_DATA_BYTES:
        raise _refuse(
            _("The board is larger than %(size)s kB: leave out what is not part of it.")
            % {"size": MAX_DATA_BYTES // 1024}
        )
    board = check_board(data)
    name_length = BoardEdition._meta.get_field("name").max_length
    if len(board.name) > name_length:
        raise _refuse(_("The board's name is longer than %(max)s characters.") % {"max": name_length})
    try:
        with transaction.atomic():
            edition = _save(board, data, user, file_name=file_name, replace=replace)
    except IntegrityError:  # stored at the same moment by another request
        raise _refuse(_already_stored(board.id)) from None
    register_board(board, edition.digest)  # parsed once here; every process checks the version it has
    return edition


def _already_stored(board_id: str) -> str:
    return _(
        "A board with the id %(id)s is already stored: tick “Replace my board of this id” to "
        "replace yours, or choose another id."
    ) % {"id": board_id}


def _save(board, data: dict, user, *, file_name: str, replace: bool) -> BoardEdition:
    existing = BoardEdition.objects.select_for_update().filter(pk=board.id).first()
    if existing is not None:
        if not replace:
            raise _refuse(_already_stored(board.id))
        if existing.uploaded_by_id != user.pk:
            raise _refuse(
                _("The board %(id)s was stored by someone else: choose another id.") % {"id": board.id}
            )
        games = Game.objects.filter(board=board.id).count()
        if games:
            raise _refuse(
                ngettext(
                    "The board %(id)s is not replaced: %(n)s game is played on it. "
                    "Store the new one under another id.",
                    "The board %(id)s is not replaced: %(n)s games are played on it. "
                    "Store the new one under another id.",
                    games,
                )
                % {"id": board.id, "n": games}
            )
        for t in Tournament.objects.filter(board=board.id).only("name", "variant"):
            if not board_fits(make_variant(t.variant), board):
                raise _refuse(
                    _(
                        "The board %(id)s is not replaced: the tournament %(tournament)s plays %(variant)s "
                        "on it, and the new board does not fit it. Store the new one under another id."
                    )
                    % {"id": board.id, "tournament": t.name, "variant": labels.variant_label(t.variant)}
                )
    edition = existing or BoardEdition(pk=board.id)
    edition.name = board.name
    edition.language = board.language
    edition.data = data
    edition.file_name = NOT_ALLOWED.sub("", file_name)[: BoardEdition._meta.get_field("file_name").max_length]
    edition.uploaded_by = user
    edition.uploaded_at = timezone.now()
    edition.digest = data_digest(data)
    edition.save(force_insert=existing is None)
    return edition


def delete_board(board_id: str, user) -> None:
    """Delete a stored board of ``user``'s that no game and no tournament is played on."""
    with transaction.atomic():
        edition = None
        if isinstance(board_id, str) and BOARD_ID.fullmatch(board_id):  # nothing else is asked for
            edition = BoardEdition.objects.select_for_update().filter(pk=board_id).first()
        if edition is None:
            shown = NOT_ALLOWED.sub("", str(board_id))[:BOARD_ID_LENGTH]
            raise _refuse(_("There is no stored board %(id)s.") % {"id": shown})
        if edition.uploaded_by_id != user.pk:
            raise _refuse(_("The board %(id)s was stored by someone else.") % {"id": board_id})
        if Game.objects.filter(board=board_id).exists() or Tournament.objects.filter(board=board_id).exists():
            raise _refuse(
                _("The board %(id)s is not deleted: a game or a tournament is played on it.")
                % {"id": board_id}
            )
        edition.delete()
    forget_board(board_id)
