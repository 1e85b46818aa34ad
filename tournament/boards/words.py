"""The words an English board prints for what is not a name: its decks and its squares that are not streets
or companies ("Income Tax", "Chance", "Competitor or Monopolist"), in the language of the request.

A board's data is in one language (``rules/boards/*.json``): streets and companies are names and stay as
printed; these are the game's words, which a Polish page shows in Polish, as the Polish editions print them
(Anty-Monopoly's box: Przedsiębiorca, Monopolista, Wojna cenowa, Więzienie, Urząd Antymonopolowy). A name not
listed here — a street, a Polish board's own words, an uploaded edition's — is shown as it is.

The log's sentences carry square and deck names as values (``rules.messages``); ``tournament.games.messages``
passes the values named in ``rules.messages.NAME_PARAMS`` through :func:`board_word`."""

from __future__ import annotations

from functools import lru_cache

from django.utils.translation import get_language, pgettext_lazy

from rules.board import Board

WORDS = {
    # the classic US board (rules/boards/classic-us.json), as the Warsaw edition prints them
    "Go": pgettext_lazy("board", "Go"),
    "Chance": pgettext_lazy("board", "Chance"),
    "Community Chest": pgettext_lazy("board", "Community Chest"),
    "Income Tax": pgettext_lazy("board", "Income Tax"),
    "In Jail/Just Visiting": pgettext_lazy("board", "In Jail/Just Visiting"),
    "Electric Company": pgettext_lazy("board", "Electric Company"),
    "Free Parking": pgettext_lazy("board", "Free Parking"),
    "Water Works": pgettext_lazy("board", "Water Works"),
    "Go to Jail": pgettext_lazy("board", "Go to Jail"),
    "Luxury Tax": pgettext_lazy("board", "Luxury Tax"),
    # Anti-Monopoly's US board (rules/boards/anti-monopoly-us.json), as the Polish box prints them
    "Competitor": pgettext_lazy("board", "Competitor"),
    "Monopolist": pgettext_lazy("board", "Monopolist"),
    "Competitor or Monopolist": pgettext_lazy("board", "Competitor or Monopolist"),
    "Sightseeing Tour / Price War / Prison": pgettext_lazy("board", "Sightseeing Tour / Price War / Prison"),
    "Anti-Monopoly Foundation": pgettext_lazy("board", "Anti-Monopoly Foundation"),
    "Go to Price War / Prison": pgettext_lazy("board", "Go to Price War / Prison"),
    "Property Tax": pgettext_lazy("board", "Property Tax"),
}


def board_word(name: str) -> str:
    """A board's name for a square or a deck, in the language of the request if it is one of the game's
    words; several names joined by ", " each."""
    return _word(get_language(), name)


@lru_cache(maxsize=4096)
def _word(language: str | None, name: str) -> str:
    """Remembered per language, as the log's templates are (``tournament.games.messages``)."""
    if name in WORDS:
        return str(WORDS[name])
    if ", " in name:
        return ", ".join(str(WORDS.get(n, n)) for n in name.split(", "))
    return name


def square_name(board: Board, index: int) -> str:
    return board_word(board.square(index).name)


def deck_name(board: Board, deck_id: str) -> str:
    return board_word(board.decks[deck_id].name)
