"""Starting a game on its own (practice, friendly games, tests): variant, board, options, players."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rules import make_variant
from rules.record import MAX_PLAYERS
from rules.roles import COMPETITOR, MONOPOLIST
from tournament.boards import fitting
from tournament.boards.names import board_choices
from tournament.games.clock import check_clock
from tournament.labels import variant_choices
from tournament.models import Game, Tournament
from tournament.models.games import NAME_LENGTH

ROLE_WORDS = {
    "competitor": COMPETITOR,
    "c": COMPETITOR,
    "przedsiębiorca": COMPETITOR,
    "p": COMPETITOR,
    "monopolist": MONOPOLIST,
    "monopolista": MONOPOLIST,
    "m": MONOPOLIST,
}


def _role(text: str) -> str:
    """An Anti-Monopoly role as a referee types it (English or Polish, or its initial); "" for none."""
    text = text.strip().casefold()
    if not text:
        return ""
    if text not in ROLE_WORDS:
        raise forms.ValidationError(
            _("“%(role)s” is not a role: competitor or monopolist (C / M).") % {"role": text}
        )
    return ROLE_WORDS[text]


class NewGameForm(forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=Game._meta.get_field("name").max_length, required=False
    )
    variant = forms.ChoiceField(label=_("Variant"), choices=variant_choices, initial="tournament-pl")
    board = forms.ChoiceField(label=_("Board"), choices=board_choices, initial="classic-pl")
    players = forms.CharField(
        label=_("Players in seat order"),
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_(
            "One name per line, in the order decided by the opening roll. Anti-Monopoly: the role after a "
            "semicolon, e.g. “Anna; competitor” or “Bartek; monopolist” (C / M)."
        ),
    )
    ending = forms.ChoiceField(
        label=_("Anti-Monopoly: end of the game"),
        choices=Tournament._meta.get_field("ending").choices,
        initial="game_a",
        required=False,
    )
    max_rounds = forms.IntegerField(
        label=pgettext_lazy("game", "Rounds"), required=False, min_value=1, max_value=500
    )
    time_limit_minutes = forms.IntegerField(
        label=_("Time limit (minutes)"), required=False, min_value=1, max_value=600
    )
    move_time_limit = forms.IntegerField(
        label=_("Seconds per move"), required=False, min_value=5, max_value=600
    )

    def clean_players(self):
        lines = [line.strip() for line in self.cleaned_data["players"].splitlines() if line.strip()]
        names, roles = [], []
        for line in lines:
            name, _sep, role = line.partition(";")
            names.append(name.strip())
            roles.append(_role(role))
        self.roles = roles
        if not 2 <= len(names) <= MAX_PLAYERS:
            raise forms.ValidationError(_("A game has 2 to %(max)s players.") % {"max": MAX_PLAYERS})
        if any(len(n) > NAME_LENGTH for n in names):
            raise forms.ValidationError(
                _("A player's name has at most %(max)s characters.") % {"max": NAME_LENGTH}
            )
        if len(set(names)) != len(names):
            raise forms.ValidationError(_("Each player's name must be different."))
        return names

    class Media:
        js = [fitting.SCRIPT]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        fitting.offer_fitting_boards(self)

    def clean(self):
        data = super().clean()
        fitting.check_board_fits(self)
        check_clock(self)
        variant, roles = data.get("variant"), getattr(self, "roles", [])
        if variant and "players" in data:
            with_roles = make_variant(variant).roles
            if with_roles and not all(roles):
                self.add_error(
                    "players",
                    _("Give each player's role after a semicolon: “Anna; competitor”, “Bartek; monopolist”."),
                )
            elif not with_roles and any(roles):
                self.add_error("players", _("Roles are for Anti-Monopoly only: leave them out."))
        return data

    def game_arguments(self) -> dict:
        d = self.cleaned_data
        options = {k: d[k] for k in ("max_rounds", "time_limit_minutes", "move_time_limit") if d.get(k)}
        if make_variant(d["variant"]).roles and d.get("ending"):
            options["ending"] = d["ending"]
        return {
            "name": d["name"],
            "variant": d["variant"],
            "board": d["board"],
            "options": options,
            "players": [
                {"name": n, **({"role": r} if r else {})}
                for n, r in zip(d["players"], self.roles, strict=True)
            ],
        }
