"""The dice pad: 36 keys, one for each throw, the same on every panel of a language (the roll, a utility's
rent, the final steps, the right dice of a correction). Written once per language and kept: what it holds
depends only on the templates and the language, so every process writes the same and no panel waits for the
template's 36 keys again."""

from __future__ import annotations

from functools import lru_cache

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _


def dice_pad() -> SafeString:
    """The pad of a throw to enter."""
    return _written(get_language(), right_dice=False)


def right_dice_pad() -> SafeString:
    """The pad of the right dice, beside the undo of a wrong throw (``undo.undo_offer``)."""
    return _written(get_language(), right_dice=True)


@lru_cache(maxsize=32)
def _written(language: str, *, right_dice: bool) -> SafeString:
    context = {"pad_label": _("The right dice"), "quiet": True} if right_dice else {}
    return render_to_string("console/_dice_pad.html", context)  # safe: the template escaped what it holds
