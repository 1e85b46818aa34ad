"""The order of play at a table, from the opening roll: the form of the table's page
(tournament.director.views.table_detail, templates/director/_order_of_play.html) that starts its game."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.errors import SEATED_AGAIN


class OrderOfPlayForm(forms.Form):
    """The order of play from the opening roll at a table: each player his place (1: plays first). On the
    phone the referee taps the players in that order, one tap each (static/director/order-of-play.js sets
    the places); without scripts, each player's place is chosen in a list. Places given twice are refused
    with the places kept as chosen. Places posted for other players than the table's (the round seated again
    while the page was open) are refused as such, not as places missing."""

    def __init__(self, players, *args, **kwargs):
        """``players``: [(participant's pk, name, role)] in seat order (the places offered at first)."""
        super().__init__(*args, **kwargs)
        self.players = list(players)
        places = [(n, n) for n in range(1, len(self.players) + 1)]
        posted = {k for k in self.data if k.startswith("place_")}
        self.seated_again = self.is_bound and posted != {f"place_{pk}" for pk, _n, _r in self.players}
        for seat, (pk, name, _role) in enumerate(self.players, start=1):
            self.fields[f"place_{pk}"] = forms.TypedChoiceField(
                label=name, choices=places, coerce=int, initial=seat, required=not self.seated_again
            )

    def clean(self):
        if self.seated_again:
            raise forms.ValidationError(SEATED_AGAIN)
        data = super().clean()
        places = [data.get(f"place_{pk}") for pk, _n, _r in self.players]
        if None not in places and sorted(places) != list(range(1, len(places) + 1)):
            raise forms.ValidationError(_("Give each player one place, 1 to %(n)s.") % {"n": len(places)})
        return data

    def entries(self):
        """[(bound field, role)] in seat order, for the page."""
        return [(self[f"place_{pk}"], role) for pk, _n, role in self.players]

    def order(self) -> list[int]:
        """The participants' pks in the order of play."""
        return [pk for pk, _n, _r in sorted(self.players, key=lambda p: self.cleaned_data[f"place_{p[0]}"])]
