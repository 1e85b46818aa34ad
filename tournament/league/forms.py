"""The director's forms of the league: who is who (each entry of a tournament linked to a player, a new
player, or none), a player renamed, merged into another, split in two."""

from __future__ import annotations

from django import forms
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from tournament.models import Player, PlayerRating
from tournament.models.games import NAME_LENGTH, REASON_LENGTH
from tournament.ratings.identities import NEW, NONE, Match
from tournament.server.uploads import NOT_ALLOWED


def player_label(player: Player, rating: PlayerRating | None) -> str:
    """A player as a choice: his name, club, number and rating, so that two of one name can be told apart."""
    parts = [player.name]
    if player.club:
        parts.append(f"({player.club})")
    parts.append(f"#{player.pk}")
    if rating is not None:
        parts.append(
            ngettext("rating %(rating)s, %(n)s game", "rating %(rating)s, %(n)s games", rating.games)
            % {"rating": number_format(round(rating.ordinal, 1), 1), "n": rating.games}
        )
    return " ".join(parts)


class LinkForm(forms.Form):
    """One choice per entry (``player_<pk>``): a player of that name, a new player, or none. An entry whose
    field is not posted (added while the page was open) keeps its link."""

    def __init__(self, found: list[Match], *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.found = found
        ratings = PlayerRating.objects.in_bulk([p.pk for m in found for p in m.candidates])
        for m in found:
            choices = [(str(p.pk), player_label(p, ratings.get(p.pk))) for p in m.candidates]
            choices += [(NEW, gettext("a new player")), (NONE, gettext("not linked: no rating"))]
            self.fields[f"player_{m.entry.pk}"] = forms.ChoiceField(
                label=m.entry.name, choices=choices, initial=m.proposed, required=False
            )

    def rows(self):
        """(match, its bound field) in the page's order."""
        return [(m, self[f"player_{m.entry.pk}"]) for m in self.found]

    def choices(self) -> dict[int, str]:
        """The choices posted, by entry pk (the ones not posted left out)."""
        return {
            m.entry.pk: self.cleaned_data[f"player_{m.entry.pk}"]
            for m in self.found
            if f"player_{m.entry.pk}" in self.data
        }


def plain_text(value: str) -> None:
    """No control characters in a name or a club (the imports refuse them too)."""
    if NOT_ALLOWED.search(value):
        raise forms.ValidationError(_("Use letters, digits and punctuation only."), code="not_allowed")


def reason_field():
    """Why a change of the league's was made: kept in its log (tournament.models.league_log), optional."""
    return forms.CharField(
        label=_("Why (kept in the league's log)"),
        max_length=REASON_LENGTH,
        required=False,
        validators=[plain_text],
    )


class RenameForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_LENGTH, validators=[plain_text])
    club = forms.CharField(
        label=_("Club / school"), max_length=NAME_LENGTH, required=False, validators=[plain_text]
    )
    reason = reason_field()

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Give a name."))
        return name


class MergeForm(forms.Form):
    """The other player's number (shown as #123 on his page): his games become this player's."""

    other = forms.IntegerField(label=_("The other player's number"), min_value=1, max_value=2**31 - 1)
    reason = reason_field()

    def clean_other(self):
        other = Player.objects.filter(pk=self.cleaned_data["other"]).first()
        if other is None:
            raise forms.ValidationError(_("There is no player with this number."))
        return other


class SplitForm(forms.Form):
    """The tournaments of the other person under this player's name, and his name and club."""

    name = forms.CharField(
        label=_("The other person's name"), max_length=NAME_LENGTH, validators=[plain_text]
    )
    club = forms.CharField(
        label=_("Club / school"), max_length=NAME_LENGTH, required=False, validators=[plain_text]
    )
    reason = reason_field()

    def __init__(self, participants, past_entrants, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["participants"] = forms.TypedMultipleChoiceField(
            label=_("Tournaments"),
            choices=[(p.pk, f"{p.tournament.name} ({p.tournament.date})") for p in participants],
            coerce=int,
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        self.fields["past_entrants"] = forms.TypedMultipleChoiceField(
            label=_("Past tournaments"),
            choices=[(e.pk, str(e.event)) for e in past_entrants],
            coerce=int,
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )


class DeletePastForm(forms.Form):
    """A past tournament deleted: why, for the league's log."""

    reason = reason_field()
