"""Translating the rules engine's messages (errors and notes) into the user's language.

The engine speaks English templates with named values (:mod:`rules.messages`); here each template, and each
value that is itself a message, goes through Django's gettext. Player and street names are data, not text
to translate; the values naming a square or a deck, an English board's words ("Income Tax", "Chance"), are
shown in the language of the request (``tournament.boards.words``), a variant's or a board's id by its name
(``tournament.labels``).
"""

from functools import lru_cache

from django.utils.translation import get_language, gettext

from rules.errors import RulesError
from rules.messages import Message, from_data, say
from tournament import labels
from tournament.boards.words import board_word


def translate(template: str, params: dict) -> str:
    """The engine's message in the request's language (``rules.messages.say``: the one renderer)."""
    return message_text(Message(template, params))


def _current(template: str) -> str:
    return _translated(get_language(), template)


@lru_cache(maxsize=4096)
def _translated(language: str | None, template: str) -> str:
    """gettext, remembered per language (a tournament's report translates the same few templates 40,000
    times; the catalogues do not change while the app runs)."""
    return gettext(template)


def _id_name(key: str, v: str) -> str:
    """An id the engine names ("tournament-pl"): its name, as the pages show it (a board by its shipped name:
    an uploaded edition's id is shown as it is, the database not asked — ``replay`` may have none)."""
    return labels.variant_label(v) if key == "variant" else labels.board_label(v, stored={})


def message_text(m: Message | dict) -> str:
    """A message (or its data, ``rules.messages.to_data``) in the request's language."""
    return say(m, _current, board_word, _id_name)


def narration(row) -> list[str]:
    """What a stored move (a ``GameEvent``) did, in the request's language, as the log tells it: the moves'
    page, the console's log, a stale screen's refusal, the replay and the public API."""
    return [message_text(from_data(n)) for n in row.notes]


def error_text(e: RulesError) -> str:
    return translate(e.template, e.params)
