"""Referee accounts as the tournament director manages them in the app (its pages:
tournament.director.referees): a referee added with the name the score sheets print (``get_full_name``), his
login and a password or a one-time login link; a password reset or a new link; an account deactivated (he can
no longer log in; the tables he refereed keep his name) or reactivated.

A director manages the plain referee accounts he added himself (staff and superusers: every one): an account
of the ``referees`` group that is neither staff, superuser nor a director's — those are the administrator's
(Django admin). So a director cannot take over an administrator's or another director's account by resetting
its password, nor the referees of another director's tournament (a new password or link would let him act at
their tables); a link given before an account became staff or a director's no longer opens it.

Each change is kept in Django's admin log (``LogEntry``, on the account): an account belongs to the
installation, not to one tournament (the director's log of a tournament, ``AuditEntry``, lives and travels
with its tournament), and the admin's history of the account then shows the changes made in the admin and in
the app together.

A one-time login link carries a random secret of 256 bits; only its SHA-256 digest is stored. It logs in once,
within ``LOGIN_LINK_HOURS`` hours, an active account only; a newer link, a password set or the account
deactivated ends it.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from tournament.models import LoginLink
from tournament.people.access import DIRECTORS_GROUP, REFEREES_GROUP

#: The longest display name (``first_name`` and ``last_name`` hold up to 150 characters each; the name is
#: split between them at its last space).
DISPLAY_NAME_LENGTH = 150


class AccountError(Exception):
    """What the director asked for cannot be done (the message says why, in his language)."""


class LinkRefused(Exception):
    """A one-time login link that logs nobody in: unknown, used, expired or replaced, or its account
    deactivated (the message says which)."""


def display_name(user) -> str:
    """The name shown and printed for an account: the name the director gave, else the login."""
    return user.get_full_name() or user.get_username()


def referees_group() -> Group:
    """The ``referees`` group (made by a migration on every install; made again if someone deleted it)."""
    return Group.objects.get_or_create(name=REFEREES_GROUP)[0]


def referee_list():
    """Every account with the referee role, deactivated ones too, for the director's page."""
    return get_user_model().objects.filter(groups__name=REFEREES_GROUP).distinct().order_by("username")


def is_plain_referee(account) -> bool:
    """A referee's account that is not staff, superuser or a director's (those are the administrator's)."""
    return (
        not account.is_staff
        and not account.is_superuser
        and account.groups.filter(name=REFEREES_GROUP).exists()
        and not account.groups.filter(name=DIRECTORS_GROUP).exists()
    )


def _added_by(director) -> list[int]:
    """The accounts ``director`` added here (the admin log's entry of the addition names him)."""
    entries = LogEntry.objects.filter(
        user=director,
        action_flag=ADDITION,
        content_type=ContentType.objects.get_for_model(get_user_model(), for_concrete_model=False),
    )
    return [int(pk) for pk in entries.values_list("object_id", flat=True) if str(pk).isdigit()]


def _oversees_all(director) -> bool:
    return director.is_staff or director.is_superuser


def may_manage(director, account) -> bool:
    """May ``director`` manage ``account`` here? A plain referee's account (:func:`is_plain_referee`) that he
    added himself; staff and superusers manage every one. So a director of one tournament cannot take over the
    referees of another's (a new password or link would let him act at their tables)."""
    return is_plain_referee(account) and (_oversees_all(director) or account.pk in _added_by(director))


def plain_referees():
    """The accounts :func:`is_plain_referee` allows, as a queryset."""
    return (
        get_user_model()
        .objects.filter(groups__name=REFEREES_GROUP, is_staff=False, is_superuser=False)
        .exclude(groups__name=DIRECTORS_GROUP)
        .distinct()
    )


def managed_accounts(director):
    """The accounts :func:`may_manage` allows ``director``, as a queryset."""
    accounts = plain_referees()
    return accounts if _oversees_all(director) else accounts.filter(pk__in=_added_by(director))


def clean_display_name(name: str | None) -> str:
    """The display name with its spaces tidied; AccountError when it is empty, too long or unprintable."""
    name = " ".join(str(name or "").split())
    if not name:
        raise AccountError(_("Give the referee's name, as the score sheets print it."))
    if len(name) > DISPLAY_NAME_LENGTH:
        raise AccountError(_("The name may have at most %(n)s characters.") % {"n": DISPLAY_NAME_LENGTH})
    if not name.isprintable():
        raise AccountError(_("The name may contain letters, digits, spaces and punctuation only."))
    return name


def _set_name(account, name: str) -> None:
    """``get_full_name()`` gives ``name`` back: its last word in ``last_name``, the rest in ``first_name``."""
    first, _space, last = name.rpartition(" ")
    account.first_name, account.last_name = (first, last) if first else (last, "")


# -- the admin log -------------------------------------------------------------------------------------------

#: What the referees page says of each change (the key is kept in the log entry beside the admin's message).
CHANGES = {
    "added": gettext_lazy("account added"),
    "password": gettext_lazy("password set"),
    "link": gettext_lazy("one-time login link given"),
    "deactivated": gettext_lazy("account deactivated"),
    "reactivated": gettext_lazy("account reactivated"),
    "renamed": gettext_lazy("name changed"),
}
#: The fields the admin's history names for each change (translated there by Django's catalogue).
_ADMIN_FIELDS = {
    "password": ["password"],
    "link": [gettext_noop("one-time login link")],
    "deactivated": ["active"],
    "reactivated": ["active"],
    "renamed": ["first name", "last name"],
}


def _log(account, change: str, by) -> None:
    admin_message = {"added": {}} if change == "added" else {"changed": {"fields": _ADMIN_FIELDS[change]}}
    LogEntry.objects.create(
        user=by,
        content_type=ContentType.objects.get_for_model(account, for_concrete_model=False),
        object_id=str(account.pk),
        object_repr=display_name(account)[:200],
        action_flag=ADDITION if change == "added" else CHANGE,
        change_message=json.dumps([{**admin_message, "referee": change}]),
    )


@dataclass
class Change:
    """One line of the referees' history: when, who changed what of whom."""

    at: datetime
    by: str
    account_id: int
    account: str
    what: str


def history(accounts, limit: int = 50) -> list[Change]:
    """The latest changes of these referee accounts, the app's and the admin's."""
    model = get_user_model()
    entries = LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(model, for_concrete_model=False)
    ).select_related("user")
    entries = entries.filter(object_id__in=[str(a.pk) for a in accounts])
    return [
        Change(e.action_time, display_name(e.user), int(e.object_id), e.object_repr, _what(e))
        for e in entries.order_by("-action_time", "-pk")[:limit]
    ]


def _what(entry: LogEntry) -> str:
    """The app's own wording of a change it logged; the admin's message for a change made in the admin."""
    try:
        key = json.loads(entry.change_message)[0].get("referee")
    except (ValueError, IndexError, AttributeError, TypeError):
        key = None
    return str(CHANGES[key]) if key in CHANGES else entry.get_change_message()


# -- the changes ---------------------------------------------------------------------------------------------


def _managed(account, by):
    """``account`` read again and locked (one change of an account at a time); AccountError if the director
    ``by`` may not manage it."""
    locked = get_user_model().objects.select_for_update().filter(pk=account.pk).first()
    if locked is None or not may_manage(by, locked):
        raise AccountError(_("This account is not a referee's account the director manages."))
    return locked


def _end_links(account) -> None:
    """Every link of ``account`` not used yet ends now (a newer link, a password, a deactivation)."""
    now = timezone.now()
    LoginLink.objects.filter(user=account, used_at=None, expires_at__gt=now).update(expires_at=now)


def _new_link(account, by) -> tuple[str, LoginLink]:
    _end_links(account)
    secret = secrets.token_urlsafe(32)  # 256 bits
    now = timezone.now()
    link = LoginLink.objects.create(
        user=account,
        digest=_digest(secret),
        created_by=by,
        created_at=now,
        expires_at=now + timedelta(hours=settings.LOGIN_LINK_HOURS),
    )
    return secret, link


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


@transaction.atomic
def add_referee(name: str, username: str, password: str | None, by) -> tuple:
    """A new referee's account: ``name`` is what sheets print, ``username`` his login; with ``password``
    (already checked by the password validators) he logs in with it, without one he gets a one-time login
    link.
    Returns (account, the link's secret or None, the link or None)."""
    name = clean_display_name(name)
    model = get_user_model()
    if model.objects.filter(username__iexact=username).exists():
        raise AccountError(_("The login %(name)s is taken: choose another.") % {"name": username})
    account = model(username=username, is_active=True)
    _set_name(account, name)
    if password is None:
        account.set_unusable_password()
    else:
        account.set_password(password)
    try:
        with transaction.atomic():
            account.save()
    except IntegrityError:  # the same login added at the same moment by another director
        raise AccountError(_("The login %(name)s is taken: choose another.") % {"name": username}) from None
    account.groups.add(referees_group())
    _log(account, "added", by)
    secret, link = _new_link(account, by) if password is None else (None, None)
    return account, secret, link


@transaction.atomic
def set_password(account, password: str, by) -> None:
    """A new password (checked by the password validators before); his earlier links end, and his phones
    logged in before are logged out (Django's session follows the password)."""
    account = _managed(account, by)
    account.set_password(password)
    account.save(update_fields=["password"])
    _end_links(account)
    _log(account, "password", by)


@transaction.atomic
def give_link(account, by) -> tuple[str, LoginLink]:
    """A new one-time login link instead of his password (which no longer works) and earlier links; his phones
    logged in before are logged out. Returns (the secret, the link)."""
    account = _managed(account, by)
    if not account.is_active:
        raise AccountError(_("The account is deactivated: reactivate it first."))
    account.set_unusable_password()
    account.save(update_fields=["password"])
    secret, link = _new_link(account, by)
    _log(account, "link", by)
    return secret, link


@transaction.atomic
def set_active(account, active: bool, by) -> None:
    """Deactivate (he can no longer log in, with a password or a link; his tables keep his name) or
    reactivate the account."""
    account = _managed(account, by)
    if account.is_active == active:
        raise AccountError(
            _("The account is active already.") if active else _("The account is deactivated already.")
        )
    account.is_active = active
    account.save(update_fields=["is_active"])
    if not active:
        _end_links(account)
    _log(account, "reactivated" if active else "deactivated", by)


@transaction.atomic
def rename(account, name: str, by) -> None:
    """The name sheets print from now on (sheets printed before keep the old one)."""
    name = clean_display_name(name)
    account = _managed(account, by)
    if display_name(account) == name:
        raise AccountError(_("That is the name the account has already."))
    _set_name(account, name)
    account.save(update_fields=["first_name", "last_name"])
    _log(account, "renamed", by)


@transaction.atomic
def name_oneself(user, name: str) -> None:
    """The name the sheets print for ``user`` (a director, a referee) from now on, given by himself: a
    director made by ``createsuperuser`` has only his login."""
    name = clean_display_name(name)
    first, _space, last = name.rpartition(" ")
    first, last = (first, last) if first else (last, "")
    taken = get_user_model().objects.filter(first_name=first, last_name=last).exclude(pk=user.pk)
    if taken.exists():  # the sheets would print one name for two people's confirmations
        raise AccountError(_("Another account has that name already: add what tells you apart."))
    _set_name(user, name)
    user.save(update_fields=["first_name", "last_name"])
    _log(user, "renamed", user)  # kept in the admin's history, as a rename by a director is


# -- a link opened -------------------------------------------------------------------------------------------


def _used() -> str:
    return _(
        "This login link has been used already: it logs in once. Ask the tournament director for a new one."
    )


def _link_problem(link: LoginLink | None, now) -> str | None:
    if link is None:
        return _("This login link is not valid. Ask the tournament director for a new one.")
    if link.used_at is not None:
        return _used()
    if link.expires_at <= now:
        return _(
            "This login link has expired or a newer one was given. Ask the tournament director for a new one."
        )
    if not link.user.is_active:
        return _("This account is deactivated. Ask the tournament director.")
    if not is_plain_referee(link.user):  # made staff or a director since: a director's link does not open it
        return _("This login link is not valid. Ask the tournament director for a new one.")
    return None


def _find(secret: str, locked: bool = False) -> LoginLink | None:
    links = LoginLink.objects.select_related("user")
    if locked:
        links = links.select_for_update(of=("self",))
    return links.filter(digest=_digest(secret)).first()


def open_link(secret: str) -> LoginLink:
    """The link ``secret`` opens, unchanged (the page that asks him to log in); LinkRefused saying why not."""
    link = _find(secret)
    problem = _link_problem(link, timezone.now())
    if problem:
        raise LinkRefused(problem)
    return link


@transaction.atomic
def use_link(secret: str):
    """The account the link ``secret`` logs in, the link used up: once, also when two phones open it at once
    (the second one is told it is used); LinkRefused saying why not."""
    link = _find(secret, locked=True)
    now = timezone.now()
    problem = _link_problem(link, now)
    if problem is None and not LoginLink.objects.filter(pk=link.pk, used_at=None).update(used_at=now):
        problem = _used()
    if problem:
        raise LinkRefused(problem)
    return link.user
