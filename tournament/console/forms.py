"""Starting a game on its own (practice, friendly games, tests): variant, board, options, players."""

from django import forms
from django.utils.translation import gettext_lazy as _

from rules import available_boards, available_variants
from rules.record import MAX_PLAYERS
from tournament.models import Game
from tournament.models.games import NAME_LENGTH


class NewGameForm(forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=Game._meta.get_field("name").max_length, required=False
    )
    variant = forms.ChoiceField(
        label=_("Variant"), choices=[(v, v) for v in available_variants()], initial="tournament-pl"
    )
    board = forms.ChoiceField(
        label=_("Board"), choices=[(b, b) for b in available_boards()], initial="classic-pl"
    )
    players = forms.CharField(
        label=_("Players in seat order"),
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One name per line, in the order decided by the opening roll."),
    )
    max_rounds = forms.IntegerField(label=_("Rounds"), required=False, min_value=1, max_value=500)
    time_limit_minutes = forms.IntegerField(
        label=_("Time limit (minutes)"), required=False, min_value=1, max_value=600
    )
    move_time_limit = forms.IntegerField(
        label=_("Seconds per move"), required=False, min_value=5, max_value=600
    )

    def clean_players(self):
        names = [line.strip() for line in self.cleaned_data["players"].splitlines() if line.strip()]
        if not 2 <= len(names) <= MAX_PLAYERS:
            raise forms.ValidationError(_("A game has 2 to %(max)s players.") % {"max": MAX_PLAYERS})
        if any(len(n) > NAME_LENGTH for n in names):
            raise forms.ValidationError(
                _("A player's name has at most %(max)s characters.") % {"max": NAME_LENGTH}
            )
        if len(set(names)) != len(names):
            raise forms.ValidationError(_("Each player's name must be different."))
        return names

    def game_arguments(self) -> dict:
        d = self.cleaned_data
        options = {k: d[k] for k in ("max_rounds", "time_limit_minutes", "move_time_limit") if d.get(k)}
        return {
            "name": d["name"],
            "variant": d["variant"],
            "board": d["board"],
            "options": options,
            "players": [{"name": n} for n in d["players"]],
        }
