"""Where boards are found: the files shipped in ``rules/boards`` (read once each; they cannot be replaced),
then boards that are not shipped (an edition an organiser filled in from the physical title cards): those
registered in this process (``register_board`` / ``forget_board``) and those of a loader the application sets
(``set_board_loader``: the Django side's stored board editions), asked for an id that is neither shipped nor
registered. ``get_board`` and ``available_boards`` consult the shipped files first."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple

from rules.board.parse import load_board_file, parse_board, wrong_id
from rules.board.types import Board
from rules.errors import BoardError, gettext_noop

#: The board files shipped with the rules (data, beside this package).
BOARDS_DIR = Path(__file__).parents[1] / "boards"


class BoardLoader(NamedTuple):
    """Where boards that are not shipped come from (the Django side: the stored board editions).

    ``version(board_id)`` says which version of the board is current (any value that changes whenever the
    board does; ``None``: no such board), and is asked every time the board is wanted, since another process
    may replace it; ``load(board_id)`` returns ``(version, data)`` (the data as :func:`parse_board` reads it)
    or ``None``, and is asked only for a version this process has not parsed yet; ``ids()`` the ids it knows.
    None of them is asked for a shipped board."""

    load: Callable[[str], tuple[object, dict] | None]
    ids: Callable[[], Iterable[str]]
    version: Callable[[str], object]


@dataclass(slots=True)
class _Found:
    board: Board
    version: object  # the loader's version of the board (None: registered in this process, no loader)


_shipped_found: dict[str, Board] = {}  # shipped boards read so far
_others: dict[str, _Found] = {}  # registered boards and those found through the loader, by id
_loader: BoardLoader | None = None


@cache
def shipped_boards() -> tuple[str, ...]:
    """The ids of the board files shipped in ``rules/boards``: they cannot be replaced."""
    return tuple(sorted(p.stem for p in BOARDS_DIR.glob("*.json")))


def available_boards() -> list[str]:
    """Every board a game may name: the shipped ones and those registered or known to the loader."""
    others = _loader.ids() if _loader is not None else _others
    return sorted({*shipped_boards(), *others})


def register_board(board: Board, version: object = None) -> None:
    """Make ``board`` findable by ``get_board`` (a board that is not shipped; it replaces one of its id).

    With a loader set, the loader stays the authority: the board is used while the loader says ``version``
    is current."""
    if board.id in shipped_boards():
        raise ValueError(f"{board.id} is a shipped board and cannot be replaced")
    _others[board.id] = _Found(board, version)


def forget_board(board_id: str) -> None:
    """Forget a registered board (nothing happens for an unknown id); a shipped board cannot be forgotten."""
    if board_id in shipped_boards():
        raise ValueError(f"{board_id} is a shipped board")
    _others.pop(board_id, None)


def set_board_loader(
    load: Callable[[str], tuple[object, dict] | None] | None,
    ids: Callable[[], Iterable[str]] | None = None,
    version: Callable[[str], object] | None = None,
) -> BoardLoader | None:
    """Ask ``load`` for the boards that are not shipped (``None``: no loader); returns the previous loader.

    Without ``version``, every use of a board asks ``load`` again (and parses the board again only when its
    version changed). The registered boards are forgotten: from now on the loader says which boards exist."""
    global _loader
    previous = _loader
    if load is None:
        _loader = None
    else:
        if version is None:

            def version(board_id, load=load):
                found = load(board_id)
                return None if found is None else found[0]

        _loader = BoardLoader(load, ids or (lambda: ()), version)
    _others.clear()
    return previous


def _unknown(board_id) -> BoardError:
    return BoardError(
        "board.unknown",
        gettext_noop("Unknown board {board}; known boards: {known}."),
        board=board_id,
        known=", ".join(available_boards()),
    )


def get_board(board_id: str) -> Board:
    """A board edition by id: a shipped one (``classic-us``, ``classic-pl``, …) or one registered or found
    through the loader. Boards are immutable: a shipped board is read once; another one is kept by its
    version, and the loader is asked at every call which version is current (another process may have
    replaced the board), so that no process ever plays on a board that is no longer the stored one."""
    board = _shipped_found.get(board_id)
    if board is not None:
        return board
    if board_id in shipped_boards():
        board = _shipped_found[board_id] = load_board_file(BOARDS_DIR / f"{board_id}.json")
        return board
    found = _others.get(board_id)
    if _loader is None:
        if found is None:
            raise _unknown(board_id)
        return found.board
    version = _loader.version(board_id)
    if version is None:
        _others.pop(board_id, None)
        raise _unknown(board_id)
    if found is not None and found.version == version:
        return found.board
    loaded = _loader.load(board_id)
    if loaded is None:
        _others.pop(board_id, None)
        raise _unknown(board_id)
    version, data = loaded
    board = parse_board(data)
    if board.id != board_id:
        raise wrong_id(board_id, board.id)
    _others[board_id] = _Found(board, version)
    return board
