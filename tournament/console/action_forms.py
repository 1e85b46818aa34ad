"""One small Django form per action of the referee's console (the record's event types, ``EVENT_TYPES``):
the fields it reads from the POST, their checks and messages, and the event it makes (``event()``).
``ACTION_FORMS`` names the form of each action; ``actions.py`` picks it for a POST.

A form refused says one thing, ``first_error()``: a sentence for the referee in his language, naming the
field ("Enter the price.", "The price must be a whole number."). Whether the player plays at this table or
the square is on the board, and every rule of the game, is the engine's check, not the forms'."""

from __future__ import annotations

import json

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.validators import RegexValidator
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from rules.board import EFFECT_FIELDS
from rules.cards import NEAREST_MULTIPLIERS

DAMAGED = _("This form is damaged: reload the page and enter the move again.")
A_DIE = _("A die shows 1 to 6.")
CHOOSE_THE_PLAYER = _("Choose the player.")
CHOOSE_THE_EFFECT = _("Choose what the card does.")
#: A one-tap card button's effect is a short JSON object; anything much longer is not one.
EFFECT_LENGTH = 500
#: No number at a Monopoly table comes near: a mistyped one (a zero too many, a pasted id) is refused here.
MAX_NUMBER = 1_000_000


def _labelled_now(template: str, label, values: dict) -> str:
    return gettext(template) % {"field": label, **values}


#: A message naming its field ("Enter the price."), put in the language of the request that shows it.
_labelled = lazy(_labelled_now, str)


class WholeNumber(forms.IntegerField):
    """A whole number typed or tapped (money is integers), its messages naming it by its label."""

    def __init__(
        self, label, *, min_value: int = 0, max_value: int = MAX_NUMBER, error_messages=None, **kwargs
    ):
        messages = {
            "required": _labelled(gettext_noop("Enter the %(field)s."), label, {}),
            "invalid": _labelled(gettext_noop("The %(field)s must be a whole number."), label, {}),
            "min_value": _labelled(
                gettext_noop("The %(field)s must be at least %(min)s."), label, {"min": min_value}
            ),
            "max_value": _labelled(
                gettext_noop("The %(field)s must be at most %(max)s."), label, {"max": max_value}
            ),
            **(error_messages or {}),
        }
        super().__init__(
            label=label, min_value=min_value, max_value=max_value, error_messages=messages, **kwargs
        )


class Die(WholeNumber):
    """One die, 1 to 6."""

    def __init__(self, label, **kwargs):
        messages = {"min_value": A_DIE, "max_value": A_DIE}
        super().__init__(label, min_value=1, max_value=6, error_messages=messages, **kwargs)


class PlayerField(forms.CharField):
    """A player's id, as the console's buttons and lists post it."""

    default_error_messages = dict.fromkeys(("required", "null_characters_not_allowed"), CHOOSE_THE_PLAYER)


class SquareList(forms.Field):
    """The squares ticked (a checkbox each, all under one name): their indexes, in the order posted."""

    widget = forms.MultipleHiddenInput
    default_error_messages = {"invalid": _("Unknown square.")}

    def to_python(self, value) -> list[int]:
        try:
            return [int(v) for v in value or ()]
        except (TypeError, ValueError):
            raise ValidationError(self.error_messages["invalid"], code="invalid") from None


class ConsoleForm(forms.Form):
    """A form of the console: each field posted once (a second value is a damaged form, not a choice to
    make), and refused with one message, ``first_error()``."""

    #: Fields posted under another name than their own (a Python keyword cannot name a field).
    posted_as: dict[str, str] = {}

    def add_prefix(self, field_name: str) -> str:
        return self.posted_as.get(field_name, field_name)

    def clean(self):
        data = super().clean()
        getlist = getattr(self.data, "getlist", None)
        if getlist and any(
            len(getlist(bf.html_name)) > 1 for bf in self if not isinstance(bf.field, SquareList)
        ):
            raise ValidationError(DAMAGED)
        return data

    def first_error(self) -> str:
        """The message of a refused form: a damaged form's, else the first refused field's, in the order of
        the fields."""
        errors = self.errors
        if NON_FIELD_ERRORS in errors:
            return str(errors[NON_FIELD_ERRORS][0])
        return str(next(iter(errors.values()))[0])


class ActionForm(ConsoleForm):
    """An action of the console, entered as an event of its type (``action``). On its own: an action
    without a player (the game time up, the final steps of Anti-Monopoly)."""

    def __init__(self, data, action: str):
        super().__init__(data)
        self.action = action

    def event(self) -> dict:
        """The event the valid form enters."""
        return {"type": self.action}


class PlayerForm(ActionForm):
    """An action of a player and nothing more (buy, decline, pay the jail fine, go bankrupt, ...)."""

    player = PlayerField()

    def event(self) -> dict:
        return {**super().event(), "player": self.cleaned_data["player"]}


class OnSquare(forms.Form):
    """Mixin: the square the action is about."""

    square = WholeNumber(_("square"))


class DiceFields(forms.Form):
    """Mixin: the dice thrown, one key of the pad (``dice=35``) or each die tapped on its own (``d1``,
    ``d2``); required where ``dice_required``, else both dice or neither."""

    dice_required = True
    d1 = Die(_("first die"))
    d2 = Die(_("second die"))
    dice = forms.CharField(
        strip=False,
        error_messages=dict.fromkeys(("required", "null_characters_not_allowed"), A_DIE),
        validators=[RegexValidator(r"\A[1-6]{2}\Z", message=A_DIE)],
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "dice" in self.data:  # the pad's key, however garbled, is what was tapped
            del self.fields["d1"], self.fields["d2"]
        else:
            del self.fields["dice"]
            self.fields["d1"].required = self.fields["d2"].required = self.dice_required

    def clean_dice(self) -> list[int]:
        return [int(d) for d in self.cleaned_data["dice"]]

    def clean_d2(self) -> int | None:
        d1, d2 = self.cleaned_data.get("d1"), self.cleaned_data["d2"]
        if not self.has_error("d1") and (d1 is None) != (d2 is None):
            raise ValidationError(_("Tap both dice."))
        return d2

    def thrown(self) -> list[int] | None:
        """The dice of the valid form, or None where none were thrown."""
        data = self.cleaned_data
        if "dice" in self.fields:
            return data["dice"]
        return None if data["d1"] is None else [data["d1"], data["d2"]]


class RollForm(DiceFields, PlayerForm):
    def event(self) -> dict:
        return {**super().event(), "dice": self.thrown()}


class FinalRollForm(DiceFields, OnSquare, PlayerForm):
    """Anti-Monopoly's end of game: the dice thrown to value a square."""

    def event(self) -> dict:
        return {**super().event(), "square": self.cleaned_data["square"], "dice": self.thrown()}


class RentForm(DiceFields, OnSquare, PlayerForm):
    """A rent claimed: its square where several are pending; the dice where the rent is a fresh throw (a
    utility's in Anti-Monopoly)."""

    dice_required = False
    square = WholeNumber(_("square"), required=False)

    def event(self) -> dict:
        event = super().event()
        if self.cleaned_data["square"] is not None:
            event["square"] = self.cleaned_data["square"]
        if dice := self.thrown():
            event["dice"] = dice
        return event


class BuildingsForm(OnSquare, PlayerForm):
    """Build, or sell buildings: the square and the number of levels (one unless told)."""

    count = WholeNumber(_("number of levels"), min_value=1, required=False)

    def event(self) -> dict:
        data = self.cleaned_data
        return {**super().event(), "square": data["square"], "count": data["count"] or 1}


class MortgageForm(OnSquare, PlayerForm):
    """Mortgage a square, or lift its mortgage."""

    def event(self) -> dict:
        return {**super().event(), "square": self.cleaned_data["square"]}


class AuctionForm(OnSquare, ActionForm):
    """An auction's result: the winner and his price, or ``nobody`` bought."""

    winner = PlayerField()
    price = WholeNumber(_("price"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.nobody:
            del self.fields["winner"], self.fields["price"]

    @property
    def nobody(self) -> bool:
        return bool(self.data.get("nobody"))

    def event(self) -> dict:
        data = self.cleaned_data
        if self.nobody:
            return {**super().event(), "square": data["square"], "winner": None, "price": 0}
        return {**super().event(), "square": data["square"], "winner": data["winner"], "price": data["price"]}


class DealForm(PlayerForm):
    """The title deeds dealt to a player at the start of a short game."""

    squares = SquareList(error_messages={"required": _("Choose the title deeds dealt.")})

    def event(self) -> dict:
        return {**super().event(), "squares": self.cleaned_data["squares"]}


class TradeForm(PlayerForm):
    """A trade between the player and his partner (posted as ``with``): what each side gives, title deeds,
    cash and jail cards (none unless told)."""

    SIDES = ("give", "get")
    posted_as = {"partner": "with"}
    partner = PlayerField()
    give_squares = SquareList(required=False)
    give_cash = WholeNumber(_("cash"), required=False)
    give_jail_cards = WholeNumber(_("jail cards"), required=False)
    get_squares = SquareList(required=False)
    get_cash = WholeNumber(_("cash"), required=False)
    get_jail_cards = WholeNumber(_("jail cards"), required=False)

    def event(self) -> dict:
        data = self.cleaned_data
        event = {**super().event(), "with": data["partner"]}
        for side in self.SIDES:
            event[side] = {
                "squares": data[f"{side}_squares"],
                "cash": data[f"{side}_cash"] or 0,
                "jail_cards": data[f"{side}_jail_cards"] or 0,
            }
        return event


class IncomeTaxForm(PlayerForm):
    """Anti-Monopoly's income tax: the fixed sum or the percentage."""

    choice = forms.ChoiceField(
        choices=[("fixed", "fixed"), ("percent", "percent")],
        error_messages=dict.fromkeys(("required", "invalid_choice"), _("Choose how the income tax is paid.")),
    )

    def event(self) -> dict:
        return {**super().event(), "choice": self.cleaned_data["choice"]}


class FoundationForm(PlayerForm):
    """Anti-Monopoly's Foundation: the one die a competitor throws."""

    die = Die(_("die"))

    def event(self) -> dict:
        return {**super().event(), "die": self.cleaned_data["die"]}


class CashCountForm(PlayerForm):
    """The banknotes the referee counted in a player's hands."""

    counted = WholeNumber(_("counted cash"))

    def event(self) -> dict:
        return {**super().event(), "counted": self.cleaned_data["counted"]}


class EffectForm(ConsoleForm):
    """A card written out by what it does: its kind and the engine's fields of that kind (``EFFECT_FIELDS``),
    a stray field of another kind unread; the nearest railroad / utility with the multipliers the classic
    cards print (``NEAREST_MULTIPLIERS``). Read from the fields the referee typed, ``effect_kind`` and
    ``effect_<field>``, or from a one-tap button's JSON (``one_tap``)."""

    effect_kind = forms.ChoiceField(
        choices=[(kind, kind) for kind in EFFECT_FIELDS],
        error_messages=dict.fromkeys(("required", "invalid_choice"), CHOOSE_THE_EFFECT),
    )
    effect_square_kind = forms.ChoiceField(
        choices=[(kind, kind) for kind in NEAREST_MULTIPLIERS],
        required=False,
        error_messages={"invalid_choice": CHOOSE_THE_EFFECT},
    )
    effect_amount = WholeNumber(_("amount"))
    effect_square = WholeNumber(_("square"))
    effect_steps = WholeNumber(_("number of squares"), min_value=1)
    effect_per_house = WholeNumber(_("amount per house"))
    effect_per_hotel = WholeNumber(_("amount per hotel"))

    def __init__(self, data):
        super().__init__(data)
        kind = self.data.get("effect_kind")
        read = ("kind", *EFFECT_FIELDS.get(kind, ()))
        for name in [name for name in self.fields if name.removeprefix("effect_") not in read]:
            del self.fields[name]

    @classmethod
    def one_tap(cls, raw: str) -> EffectForm | None:
        """A one-tap card button carries its whole effect as JSON ({"kind": "pay", "amount": 15}): read as the
        fields a referee would have typed, and checked the same way; None for what is no such object."""
        try:
            effect = json.loads(raw)
        except (ValueError, RecursionError):
            return None
        if not isinstance(effect, dict):
            return None
        return cls({f"effect_{k}": str(v) for k, v in effect.items()})

    def effect(self) -> dict:
        """The effect of the valid form."""
        data = self.cleaned_data
        kind = data["effect_kind"]
        effect: dict = {"kind": kind}
        for name in EFFECT_FIELDS[kind]:
            if name == "square_kind":
                square_kind = data["effect_square_kind"] or "railroad"
                effect[name] = square_kind
                effect.update(NEAREST_MULTIPLIERS[square_kind])
            else:
                effect[name] = data[f"effect_{name}"]
        return effect


class CardForm(DiceFields, PlayerForm):
    """A card drawn: by its id in the deck (``card``) or by what it does (``EffectForm``: typed, or the
    one-tap button's ``effect``); the dice thrown for a utility's rent where it sends the player to one."""

    dice_required = False
    field_order = ("player", "card", "effect")
    card = forms.CharField(required=False)
    effect = forms.CharField(
        required=False, max_length=EFFECT_LENGTH, error_messages={"max_length": CHOOSE_THE_EFFECT}
    )

    def clean_effect(self) -> dict | None:
        """The card's effect, unless the card is named."""
        if self.cleaned_data.get("card") or self.has_error("card"):
            return None
        raw = self.cleaned_data["effect"]
        form = EffectForm.one_tap(raw) if raw else EffectForm(self.data)
        if form is None:
            raise ValidationError(CHOOSE_THE_EFFECT)
        if not form.is_valid():
            raise ValidationError(form.first_error())
        return form.effect()

    def event(self) -> dict:
        data = self.cleaned_data
        event = super().event()
        if data["card"]:
            event["card"] = data["card"]
        else:
            event["effect"] = data["effect"]
        if dice := self.thrown():
            event["dice"] = dice
        return event


#: The form of each action of the console: the record's whole vocabulary (``rules.record.EVENT_TYPES``).
ACTION_FORMS: dict[str, type[ActionForm]] = {
    "deal": DealForm,
    "roll": RollForm,
    "buy": PlayerForm,
    "decline": PlayerForm,
    "auction": AuctionForm,
    "rent": RentForm,
    "card": CardForm,
    "build": BuildingsForm,
    "sell_building": BuildingsForm,
    "mortgage": MortgageForm,
    "unmortgage": MortgageForm,
    "trade": TradeForm,
    "jail_fine": PlayerForm,
    "jail_card": PlayerForm,
    "timeout": PlayerForm,
    "bankrupt": PlayerForm,
    "time_up": ActionForm,
    "final_roll": FinalRollForm,
    "income_tax": IncomeTaxForm,
    "foundation": FoundationForm,
    "final_keep": ActionForm,
    "final_tour": ActionForm,
    "cash_count": CashCountForm,
}
