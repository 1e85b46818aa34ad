"""The variant and the board of a form (a tournament's settings, a game started on its own): the board select
offers the boards that fit the chosen variant (a script filters its options: static/site/board-filter.js),
and the form refuses a board that does not fit, naming those that do — the truth, with or without the script.
Which boards fit a variant is the rules' to say (``rules.fit``)."""

from __future__ import annotations

import json

from django import forms
from django.forms.widgets import Script

from tournament.boards.editions import board_misfit, boards_by_variant

#: The forms' ``Media.js`` (an ES module, as every script of the site).
SCRIPT = Script("site/board-filter.js", type="module")


def offer_fitting_boards(form: forms.Form) -> None:
    """In the form's ``__init__``: the board select carries, for each variant, the boards that fit it."""
    form.fields["board"].widget.attrs["data-boards-by-variant"] = json.dumps(boards_by_variant())


def check_board_fits(form: forms.Form) -> None:
    """In the form's ``clean``: a board that does not fit the variant is the board field's error."""
    variant, board = form.cleaned_data.get("variant"), form.cleaned_data.get("board")
    if variant and board:
        misfit = board_misfit(variant, board)
        if misfit is not None:
            form.add_error("board", misfit)
