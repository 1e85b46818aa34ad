"""Forms of the tournament director's and referees' pages."""

from django import forms
from django.core.exceptions import FieldDoesNotExist
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules.standings import TIE_BREAKS
from tournament.boards import fitting
from tournament.boards.names import board_choices
from tournament.collation import name_key
from tournament.event.interventions import MAX_SCORE
from tournament.event.namesakes import registered_already
from tournament.games.clock import check_clock
from tournament.labels import TIE_BREAK_LABELS, variant_choices
from tournament.models import BoardEdition, Participant, Tournament
from tournament.models.boards import BOARD_ID_LENGTH
from tournament.models.bounds import EARLIEST_EVENT_DATE, check_event_date, field_maximum, latest_event_date
from tournament.models.games import REASON_LENGTH
from tournament.models.tournaments import (
    ANY_TIME,
    PLACEMENT_POINTS_REFUSED,
    SETTINGS,
    TABLE_SIZES,
    tie_breaks_refused,
)
from tournament.people.access import referee_accounts

MAX_ID = 2**63 - 1  # the largest row id the databases hold (bigint)


def is_row_id(value) -> bool:
    text = str(value)
    return text.isascii() and text.isdigit() and len(text) <= 19 and int(text) <= MAX_ID


def people_choices(participants) -> list[tuple[str, str]]:
    """A select's choices of participants in Polish alphabetical order (a queryset orders by code points)."""
    return [("", "---------")] + [
        (str(p.pk), p.shown_name) for p in sorted(participants, key=lambda p: name_key(p.name))
    ]


def bound_numbers(form: forms.ModelForm) -> None:
    """Each whole-number field of a model form refuses what its column holds on no database (a seed of
    3·10¹⁰ fits SQLite, not PostgreSQL): the model field's maximum (``tournament.models.bounds``), checked by
    the form field and shown to the browser."""
    for name, field in form.fields.items():
        if not isinstance(field, forms.IntegerField):
            continue
        try:
            maximum = field_maximum(form._meta.model, name)
        except (FieldDoesNotExist, ValueError):  # not a model field, or one without a maximum
            continue
        if field.max_value is None or field.max_value > maximum:
            field.max_value = maximum
            field.validators.append(MaxValueValidator(maximum))
        field.widget.attrs.setdefault("max", maximum)


class RowChoiceField(forms.ModelChoiceField):
    """A choice of one row whose id is checked before the database is asked (a 30-digit id overflows it)."""

    def to_python(self, value):
        if value not in self.empty_values and not is_row_id(value):
            raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class RowsChoiceField(forms.ModelMultipleChoiceField):
    def _check_values(self, value):
        for v in value:
            if not is_row_id(v):
                raise forms.ValidationError(
                    self.error_messages["invalid_choice"], code="invalid_choice", params={"value": v}
                )
        return super()._check_values(value)


class TieBreakWidget(forms.MultiWidget):
    """The tie-break order as one choice per place (first criterion, second …, "—" for none), each shown by
    its name; the value is the keys in order, comma separated. A form posting ``tie_breaks`` itself as
    comma-separated keys (a script, the tests) is read as before."""

    def __init__(self, attrs=None):
        choices = [("", "—"), *TIE_BREAK_LABELS.items()]
        super().__init__([forms.Select(choices=choices) for _key in TIE_BREAKS], attrs)

    def decompress(self, value):
        keys = value if isinstance(value, list | tuple) else [k.strip() for k in (value or "").split(",")]
        keys = [k for k in keys if k]
        return (keys + [""] * len(self.widgets))[: len(self.widgets)]

    def value_from_datadict(self, data, files, name):
        if name in data:
            return data[name]
        parts = super().value_from_datadict(data, files, name)
        return ", ".join(p for p in parts if p)

    def value_omitted_from_data(self, data, files, name):
        return name not in data and super().value_omitted_from_data(data, files, name)

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        for n, sub in enumerate(context["widget"]["subwidgets"], start=1):
            sub["attrs"]["aria-label"] = gettext("criterion %(n)s") % {"n": n}
            if n > 1:  # one criterion is required; the others may stay "—" (the browser would refuse them)
                sub["attrs"].pop("required", None)
        return context


def any_time_defaults(form: forms.ModelForm) -> None:
    """The settings a tournament may change at any time (``ANY_TIME``) are not asked for: one left empty keeps
    its default (a form posted without them, by a script, or by a page of before they existed)."""
    for name in ANY_TIME:
        if name in form.fields and isinstance(form.fields[name], forms.IntegerField):
            form.fields[name].required = False


def with_any_time_defaults(data: dict) -> dict:
    """A form's cleaned data, each any-time setting left empty given its default."""
    for name in ANY_TIME:
        if name in data and data[name] is None:
            data[name] = Tournament._meta.get_field(name).default
    return data


class AnyTimeSettingsForm(forms.ModelForm):
    """The settings a tournament under way may change (``ANY_TIME``: they change no game, no score, no
    seating), when the others are locked."""

    class Meta:
        model = Tournament
        fields = list(ANY_TIME)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        bound_numbers(self)
        any_time_defaults(self)

    def clean(self):
        return with_any_time_defaults(super().clean())


class TournamentForm(forms.ModelForm):
    variant = forms.ChoiceField(label=_("Variant"), choices=variant_choices, initial="tournament-pl")
    board = forms.ChoiceField(label=_("Board"), choices=board_choices, initial="classic-pl")
    placement_points = forms.CharField(
        label=_("Placement points"),
        initial="4, 2, 1, 0",
        help_text=_("Points for 1st, 2nd, 3rd … place at a table, comma separated."),
    )
    tie_breaks = forms.CharField(
        label=_("Tie-break order"),
        initial="points, total_score, best_score",
        widget=TieBreakWidget,
        help_text=_(
            "The standings order participants by the first criterion; those equal on it by the second, and "
            "so on."
        ),
    )

    class Meta:
        model = Tournament
        fields = list(SETTINGS)
        # a date input takes and gives the date as 2026-11-25 whatever the language (the Polish 25.11.2026
        # would leave it empty)
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    class Media:
        js = [fitting.SCRIPT]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["placement_points"] = ", ".join(map(str, self.instance.placement_points))
            self.initial["tie_breaks"] = ", ".join(self.instance.tie_breaks)
        any_time_defaults(self)
        self.fields["ending"].required = False  # only Anti-Monopoly reads it: the default otherwise
        self.fields["rounds"].widget.attrs["min"] = 1  # the model refuses 0 (its validator): the browser too
        self.fields["table_size"].widget.attrs.update(min=TABLE_SIZES[0], max=TABLE_SIZES[-1])
        # the browser refuses a date outside them as it refuses a number too large; the server says which
        self.fields["date"].widget.attrs.update(
            min=EARLIEST_EVENT_DATE.isoformat(), max=latest_event_date().isoformat()
        )
        bound_numbers(self)
        fitting.offer_fitting_boards(self)

    def clean(self):
        data = super().clean()
        fitting.check_board_fits(self)
        check_clock(self)
        return with_any_time_defaults(data)

    def clean_ending(self):
        return self.cleaned_data.get("ending") or Tournament._meta.get_field("ending").default

    def clean_date(self):
        day = self.cleaned_data["date"]
        check_event_date(day)
        return day

    def clean_placement_points(self):
        """The typed text as a list of numbers; the numbers are the model's to judge (``full_clean``)."""
        try:
            return [
                int(x)
                for x in self.cleaned_data["placement_points"].replace(";", ",").split(",")
                if x.strip()
            ]
        except ValueError:
            raise forms.ValidationError(PLACEMENT_POINTS_REFUSED) from None

    def clean_tie_breaks(self):
        """The typed keys as a list (text naming none is refused here: the model's "blank" would say it in
        other words); which keys are known is the model's to judge."""
        keys = [x.strip() for x in self.cleaned_data["tie_breaks"].split(",") if x.strip()]
        if not keys:
            raise tie_breaks_refused()
        return keys


class ParticipantForm(forms.ModelForm):
    class Meta:
        model = Participant
        fields = ["name", "club", "seed"]

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        bound_numbers(self)

    def clean_name(self):
        return self.cleaned_data["name"].strip()

    def clean(self):
        """A second person of a registered name is welcome when his club tells them apart (namesakes: both
        printed with their clubs); the same name and club is the same person, and so is the same name with no
        club given."""
        data = super().clean()
        name, club = data.get("name"), (data.get("club") or "").strip()
        if name and self.tournament:
            same = self.tournament.participants.filter(name__iexact=name)
            if self.instance.pk:
                same = same.exclude(pk=self.instance.pk)
            if same.exists() and (not club or same.filter(club__iexact=club).exists()):
                self.add_error(None, registered_already(name, club))
        return data


class ImportForm(forms.Form):
    file = forms.FileField(label=_("Excel (.xlsx) or CSV file: name, club/school, seed"))


class SwapForm(forms.Form):
    a = RowChoiceField(queryset=Participant.objects.none(), label=_("Player"))
    b = RowChoiceField(queryset=Participant.objects.none(), label=_("swaps tables with"))

    def __init__(self, *args, round_=None, **kwargs):
        super().__init__(*args, **kwargs)
        qs = Participant.objects.filter(seats__table__round=round_)
        self.fields["a"].queryset = self.fields["b"].queryset = qs
        self.fields["a"].choices = self.fields["b"].choices = people_choices(qs)


class ReopenForm(forms.Form):
    reason = forms.CharField(label=_("Why is the result reopened?"), max_length=200)


class BoardUploadForm(forms.Form):
    file = forms.FileField(label=_("Workbook (.xlsx) or JSON file"))
    board = forms.CharField(
        label=_("Board id"),
        max_length=BOARD_ID_LENGTH,
        required=False,
        help_text=_("Lower-case letters, digits and hyphens, e.g. anti-monopoly-pl. Blank: the file's id."),
    )
    name = forms.CharField(
        label=_("Name"),
        max_length=BoardEdition._meta.get_field("name").max_length,
        required=False,
        help_text=_("Blank: the file's name."),
    )
    replace = forms.BooleanField(label=_("Replace my board of this id"), required=False)

    def clean_board(self):
        return self.cleaned_data["board"].strip()

    def clean_name(self):
        return self.cleaned_data["name"].strip()


class ReasonForm(forms.Form):
    """Why the director changes something by hand (kept in the director's log)."""

    reason = forms.CharField(
        label=_("Why?"), max_length=REASON_LENGTH, error_messages={"required": _("Say why.")}
    )

    def clean_reason(self):
        return self.cleaned_data["reason"].strip()


class DirectorForm(ReasonForm):
    """A co-director added or removed: his account's username (the page offers a select of the accounts with
    the director's role); who he is is checked by ``tournament.people.directors``."""

    username = forms.CharField(label=_("Account"), error_messages={"required": _("Choose an account.")})
    field_order = ["username", "reason"]


class AbsentForm(ReasonForm):
    participant = RowChoiceField(queryset=Participant.objects.none(), label=_("Player"))

    def __init__(self, *args, table=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["participant"].queryset = Participant.objects.filter(seats__table=table)


class MoveForm(ReasonForm):
    participant = RowChoiceField(queryset=Participant.objects.none(), label=_("Player"))
    to_table = forms.IntegerField(label=_("to table"), min_value=1, max_value=999)

    def __init__(self, *args, round_=None, **kwargs):
        super().__init__(*args, **kwargs)
        qs = Participant.objects.filter(seats__table__round=round_)
        self.fields["participant"].queryset = qs
        self.fields["participant"].choices = people_choices(qs)


class HandResultForm(ReasonForm):
    """A table's result typed from its paper sheet: a place and a score per player."""

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.players = list(players)  # (participant id, name)
        n = max(len(self.players), 1)
        for pid, name in self.players:
            self.fields[f"place_{pid}"] = forms.IntegerField(label=name, min_value=1, max_value=n)
            self.fields[f"score_{pid}"] = forms.IntegerField(
                label=_("score of %(name)s") % {"name": name}, min_value=0, max_value=MAX_SCORE
            )
        self.order_fields([*(f"{k}_{pid}" for pid, _n in self.players for k in ("place", "score")), "reason"])

    def rows(self):
        """(name, place field, score field) per player, for the template."""
        return [(name, self[f"place_{pid}"], self[f"score_{pid}"]) for pid, name in self.players]

    def places(self) -> dict[int, tuple[int, int]]:
        d = self.cleaned_data
        return {pid: (d[f"place_{pid}"], d[f"score_{pid}"]) for pid, _n in self.players}


class RoundRefereesForm(forms.Form):
    """The referees of every table of a round in one form: a row of check boxes per table."""

    def __init__(self, *args, tables=(), **kwargs):
        super().__init__(*args, **kwargs)
        accounts = referee_accounts()
        for t in tables:
            self.fields[f"table_{t.number}"] = RowsChoiceField(
                queryset=accounts,
                required=False,
                widget=forms.CheckboxSelectMultiple,
                label=_("Table %(n)s") % {"n": t.number},
                initial=[u.pk for u in t.referees.all()],
            )
