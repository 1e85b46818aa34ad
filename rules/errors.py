"""Errors raised by the rules package.

Every error has a stable ``code`` (for programs and tests) and a message template in English with named
placeholders (for people). The templates are marked with :func:`gettext_noop` so that Django's
``makemessages`` collects them; the Django side translates ``template`` and formats it with ``params``
(see :mod:`rules.messages`).
This module, like the whole package, does not import Django.
"""

from __future__ import annotations

from rules.messages import gettext_noop, render

__all__ = ["BoardError", "RecordError", "RuleError", "RulesError", "VariantError", "gettext_noop"]


class RulesError(Exception):
    """Base class: a code, a message template and its parameters."""

    def __init__(self, code: str, template: str, **params):
        self.code = code
        self.template = template
        self.params = params
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return render(self.template, self.params)

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}


class RuleError(RulesError):
    """An event the rules forbid. The state it was applied to is left untouched."""


class RecordError(RulesError):
    """A game record (or one of its events) that is not well formed: wrong type, unknown player, …"""


class BoardError(RulesError):
    """A board data file that is not valid: names the square and the field."""


class VariantError(RulesError):
    """An unknown variant or option, or an option value of the wrong type."""
