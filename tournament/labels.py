"""A code said in words: what people read for the ids and codes the code keeps — a variant's, a shipped
board's and a tie-break's name, an Anti-Monopoly role, how a game ended, a ledger card's operation, a logged
move's type, what ranks the players; and a place in an order ("2nd") — in the language of the request. The
codes themselves ("tournament-pl", "classic-pl", "total_score", "monopolist", "rounds") stay what is stored
and sent; forms offer these names as their choices' labels, templates show them through the ``labels`` tag
library (tournament/templatetags/labels.py), the pages and the exports write them.

Words only: nothing here reads the database or the models (the models may read these words). An uploaded
board edition is named by its own name, which ``tournament.boards.names`` reads from the database.

A code not known here is shown as it is: a variant or a board that came with a record or a backup is still
readable."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from rules import available_variants, get_board, roles
from rules.board import shipped_boards
from rules.standings import TIE_BREAKS

if TYPE_CHECKING:
    from rules.state import GameState

VARIANTS = {  # rules/variants.py; RULES.md §1 tells what each one is
    "classic": _("Classic Monopoly"),
    "polish-table": _("Polish table rules (50 s a move)"),
    "short": _("Short game"),
    "timed": _("Game with a time limit"),
    "tournament-pl": _("Tournament rules (10 rounds of play)"),
    "anti-monopoly": _("Anti-Monopoly"),
}

SHIPPED_BOARDS = {  # rules/boards/*.json: their own names are in one language
    "classic-pl": _("Monopoly, Polish edition (Warsaw)"),
    "classic-us": _("Monopoly, US classic edition"),
    "anti-monopoly-us": _("Anti-Monopoly, US edition"),
}

TIE_BREAK_LABELS = {  # tournament/standings.py TIE_BREAKS
    "points": _("placement points"),
    "total_score": _("total score"),
    "best_score": _("best single score"),
    "games": _("games played"),
}
assert set(TIE_BREAK_LABELS) == set(TIE_BREAKS)


def variant_label(variant_id: str) -> str:
    return str(VARIANTS.get(variant_id, variant_id))


def shipped_board_label(board_id: str) -> str | None:
    """A shipped board's translated name (its own name for a board file added without one here); None for an
    id that is not a shipped board's."""
    if board_id in SHIPPED_BOARDS:
        return str(SHIPPED_BOARDS[board_id])
    if board_id in shipped_boards():  # a board file added without a name here: its own name
        return get_board(board_id).name
    return None


def board_label(board_id: str, stored: dict[str, str]) -> str:
    """A shipped board's translated name, an uploaded edition's own name as given in ``stored`` (id → name;
    ``tournament.boards.names.board_label`` reads them from the database), or the id."""
    shipped = shipped_board_label(board_id)
    if shipped is not None:
        return shipped
    return stored.get(board_id) or board_id


def tie_break_label(key: str) -> str:
    return str(TIE_BREAK_LABELS.get(key, key))


def variant_choices() -> list[tuple[str, str]]:
    """(id, name) of every variant, in the rules' order (asked at each request: the names are translated)."""
    return [(v, variant_label(v)) for v in available_variants()]


ROLES = {  # Anti-Monopoly's roles (rules/roles.py), the words of tournament.models.Seat.Role's choices too
    roles.COMPETITOR: _("competitor"),
    roles.MONOPOLIST: _("monopolist"),
}


def role_label(role: str) -> str:
    """A role as people read it, in the active language ("" for a game without roles)."""
    return str(ROLES[role]) if role in ROLES else ""


def role_letter(role: str) -> str:
    """The role's letter on a badge, so that it is not told by colour alone: the first letter of its name in
    the active language (competitor C, monopolist M; in Polish P, M); "" for a game without roles."""
    return role_label(role)[:1].upper()


END_REASONS = {  # GAME_RECORD.md's end_reason, in words
    "rounds": _("the last round of play is over"),
    "time": _("the time limit was reached"),
    "bankruptcy": _("a bankruptcy ended the game"),  # the variant's number of them (e.g. the second)
    "last_player": _("only one player is left"),
    "role_eliminated": _("one role is all bankrupt"),
}


def end_reason_text(reason: str | None) -> str:
    return str(END_REASONS.get(reason or "", reason or ""))


def score_label(state: GameState) -> str:
    """What ranks the players at the end (RULES.md §4)."""
    v = state.variant
    if v.roles and v.ending == "two_hour":
        return gettext("cash")
    if v.roles and v.ending == "game_b":
        return gettext("cash and one rent per property (rule 25)")
    return gettext("net worth")


def ordinal(n: int) -> str:
    """A place in an order as the language writes it: "1st", "2nd", "3rd", "11th", "22nd" in English, "1.",
    "2." in Polish. Each English ending is a message of its own (context "ordinal"), which Polish translates
    alike: Django's ``humanize.ordinal`` would need that app installed for its Polish."""
    if n % 100 in (11, 12, 13):
        text = pgettext("ordinal", "%(n)sth")
    elif n % 10 == 1:
        text = pgettext("ordinal", "%(n)sst")
    elif n % 10 == 2:
        text = pgettext("ordinal", "%(n)snd")
    elif n % 10 == 3:
        text = pgettext("ordinal", "%(n)srd")
    else:
        text = pgettext("ordinal", "%(n)sth")
    return text % {"n": n}


OPERATIONS = {  # a ledger card's line (ledger/): the movement's kind, in words
    "salary": _("salary"),
    "rent": _("rent"),
    "tax": _("tax"),
    "purchase": _("purchase"),
    "deal": _("title deed dealt"),
    "auction": _("auction"),
    "build": _("building"),
    "sell_building": _("building sold to the bank"),
    "mortgage": _("mortgage loan"),
    "unmortgage": _("mortgage lifted"),
    "transfer_fee": _("10 % on a mortgaged square"),
    "card": _("card"),
    "jail_fine": _("jail fine"),
    "trade": _("trade"),
    "bankruptcy": _("bankruptcy"),
    "foundation": _("Anti-Monopoly Foundation"),
    "final_keep": _("cash over the share kept, to the bank"),
    "final_tour": _("treasurer's tour: one rent"),
}


EVENT_TYPES = {  # a logged move's type (rules/record.py EVENT_TYPES), in words
    "deal": OPERATIONS["deal"],
    "roll": _("roll"),
    "buy": OPERATIONS["purchase"],
    "decline": _("purchase declined"),
    "auction": OPERATIONS["auction"],
    "rent": OPERATIONS["rent"],
    "card": OPERATIONS["card"],
    "build": OPERATIONS["build"],
    "sell_building": OPERATIONS["sell_building"],
    "mortgage": OPERATIONS["mortgage"],
    "unmortgage": OPERATIONS["unmortgage"],
    "trade": OPERATIONS["trade"],
    "jail_fine": OPERATIONS["jail_fine"],
    "jail_card": _("jail card used"),
    "timeout": _("time for the move ran out"),
    "bankrupt": OPERATIONS["bankruptcy"],
    "time_up": _("time is up"),
    "final_roll": _("scoring roll"),
    "cash_count": _("cash count"),
}
