"""Translating the rules engine's messages (errors and notes) into the user's language.

The engine speaks English templates with named values (:mod:`rules.messages`); here each template, and each
value that is itself a message, goes through Django's gettext. Square and player names are data, not text
to translate.
"""

from functools import lru_cache

from django.utils.translation import get_language, gettext

from rules.errors import RulesError
from rules.messages import Message, render


def translate(template: str, params: dict) -> str:
    return render(_translated(get_language(), template), {k: _value(v) for k, v in params.items()})


@lru_cache(maxsize=4096)
def _translated(language: str | None, template: str) -> str:
    """gettext, remembered per language (a tournament's report translates the same few templates 40,000
    times; the catalogues do not change while the app runs)."""
    return gettext(template)


def _value(v):
    return translate(v.template, v.params) if isinstance(v, Message) else v


def message_text(m: Message) -> str:
    return translate(m.template, m.params)


def error_text(e: RulesError) -> str:
    return translate(e.template, e.params)
