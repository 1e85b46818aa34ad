"""A game's clock asked for where a game is set up: the variants played against one (``Variant.timed_end``:
``polish-table``, ``timed``) have no clock without its minutes, and then cannot end on time (RULES.md, turn
4: ``time_up`` is refused in a game without a clock). The tournament's form and the console's new game ask
for the minutes with the variant."""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules.variants import VARIANTS
from tournament.labels import variant_label


def check_clock(form, minutes_field: str = "time_limit_minutes") -> None:
    """The form's error on its minutes when its variant is played against a clock and none is given."""
    variant = form.cleaned_data.get("variant")
    if not variant or form.cleaned_data.get(minutes_field) or minutes_field in form.errors:
        return
    if variant in VARIANTS and VARIANTS[variant].timed_end:  # (an unknown one: its own field says so)
        form.add_error(
            minutes_field,
            _("%(variant)s is played against a clock: give its time limit in minutes.")
            % {"variant": variant_label(variant)},
        )
