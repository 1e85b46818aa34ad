"""Forms of the referees' pages (tournament.director.referees): a referee added, his password set, his name
changed. The checks of a name live in tournament.people.referee_accounts; passwords go through Django's
password
validators (``AUTH_PASSWORD_VALIDATORS``)."""

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.utils.translation import gettext_lazy as _

from tournament.people.referee_accounts import DISPLAY_NAME_LENGTH, AccountError, clean_display_name

PASSWORD, LINK = "password", "link"


class NameField(forms.CharField):
    def __init__(self, **kwargs):
        super().__init__(
            label=_("Name on the score sheets"),
            max_length=DISPLAY_NAME_LENGTH,
            help_text=_("First name and surname, as they sign the sheets."),
            widget=forms.TextInput(
                attrs={"autocomplete": "off", "aria-label": _("Name on the score sheets")}
            ),
            error_messages={"required": _("Give the referee's name, as the score sheets print it.")},
            **kwargs,
        )

    def clean(self, value):
        try:
            return clean_display_name(super().clean(value))
        except AccountError as e:
            raise forms.ValidationError(str(e)) from None


class PasswordForm(forms.Form):
    """A password typed twice, checked by the password validators against ``account`` (or the account about
    to be made: its login and name)."""

    password1 = forms.CharField(
        label=_("Password"),
        required=False,
        strip=False,
        max_length=128,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html,
    )
    password2 = forms.CharField(
        label=_("The password again"),
        required=False,
        strip=False,
        max_length=128,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    #: Whether the passwords are asked for (the add form asks only when a password was chosen).
    wants_password = True

    def __init__(self, *args, account=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.account = account

    def account_to_check(self):
        return self.account

    def clean(self):
        data = super().clean()
        if not self.wants_password or self.errors:
            return data
        one, two = data.get("password1") or "", data.get("password2") or ""
        if not one:
            self.add_error("password1", _("Type the password."))
        elif one != two:
            self.add_error("password2", _("The two passwords differ: type the same one twice."))
        else:
            try:
                password_validation.validate_password(one, self.account_to_check())
            except forms.ValidationError as e:
                self.add_error("password1", e)
        return data

    @property
    def password(self) -> str:
        return self.cleaned_data["password1"]


class RefereeAddForm(PasswordForm):
    """A new referee: his name, login, and a password or a one-time login link."""

    field_order = ["name", "username", "how", "password1", "password2"]

    name = NameField()
    username = forms.CharField(
        label=_("Login"),
        max_length=150,
        help_text=_("Typed to log in: letters, digits and @ . + - _ only, no spaces."),
        validators=[get_user_model().username_validator],
        widget=forms.TextInput(
            attrs={"autocapitalize": "none", "autocomplete": "off", "spellcheck": "false"}
        ),
    )
    how = forms.ChoiceField(
        label=_("Logs in with"),
        choices=[(LINK, _("a one-time login link (or its QR code)")), (PASSWORD, _("a password"))],
        initial=LINK,
        widget=forms.RadioSelect,
    )

    @property
    def wants_password(self):
        return self.data.get("how") == PASSWORD

    def account_to_check(self):
        """The account as it will be: the validators compare the password with its login and name."""
        data = self.cleaned_data
        return get_user_model()(username=data.get("username") or "", first_name=data.get("name") or "")


class NameForm(forms.Form):
    name = NameField()


class OwnNameForm(forms.Form):
    """One's own name (a director's, a referee's), as the sheets print it."""

    name = NameField()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["name"]
        field.label = _("Your name on the score sheets")
        field.help_text = ""  # (the page says what it is for)
        field.widget.attrs.update({"aria-label": field.label, "autocomplete": "name", "required": True})
        field.error_messages["required"] = _("Give your name, as the score sheets print it.")
