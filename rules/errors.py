"""Errors raised by the rules package.

Every error has a stable ``code`` (for programs and tests) and a message template in English with named
placeholders (for people). The templates are marked with :func:`gettext_noop` so that Django's
``makemessages`` collects them; the Django side translates ``template`` and formats it with ``params``
(see :mod:`rules.messages`).
This module, like the whole package, does not import Django.
"""

from __future__ import annotations

from typing import NamedTuple

from rules.messages import gettext_noop, render

__all__ = [
    "BoardError",
    "RecordError",
    "Refusal",
    "RuleError",
    "RulesError",
    "VariantError",
    "gettext_noop",
    "refusal",
]


class RulesError(Exception):
    """Base class: a code, a message template and its parameters (formatted only when read)."""

    def __init__(self, code: str, template: str, **params):
        self.code = code
        self.template = template
        self.params = params
        super().__init__(code)

    @property
    def message(self) -> str:
        return render(self.template, self.params)

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}


class RuleError(RulesError):
    """An event the rules forbid. The state it was applied to is left untouched."""


class RecordError(RulesError):
    """A game record (or one of its events) that is not well formed: wrong type, unknown player, …"""


class BoardError(RulesError):
    """A board data file that is not valid: names the square and the field.

    ``problems``: every problem found, this one first (``rules.board.parse_board`` checks each square and
    card, so that a whole file can be corrected at once); just this one otherwise."""

    def __init__(self, code: str, template: str, **params):
        super().__init__(code, template, **params)
        self.problems: tuple[BoardError, ...] = (self,)


class VariantError(RulesError):
    """An unknown variant or option, or an option value of the wrong type."""


class Refusal(NamedTuple):
    """Why the rules refuse an action, as a value: cheap to make, nothing formatted.

    The checks of the engine return one (or ``None`` when the action is allowed), so "is it legal?" is a
    plain test (``why_not_build(...) is None``) and an error is built only when one is reported.
    """

    code: str
    template: str
    params: dict

    def error(self) -> RuleError:
        return RuleError(self.code, self.template, **self.params)

    @property
    def message(self) -> str:
        return render(self.template, self.params)


def refusal(code: str, template: str, **params) -> Refusal:
    # Refusal(code, template, params), made from all its fields at once: without the Python frame of a
    # NamedTuple's constructor (the legality probes of the console and the simulator make them by the dozen)
    return _make(Refusal, (code, template, params))


_make = tuple.__new__
