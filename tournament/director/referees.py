"""The referees' pages: the director (staff, superusers and the ``directors`` group) lists the referees'
accounts, adds one (a password or a one-time login link, shown as a URL and a QR code), sets a new password
or gives a new link, changes the name the sheets print, deactivates or reactivates an account. The logic and
its log are tournament.people.referee_accounts'. And the page a one-time login link opens (no login
needed), and the page where a logged-in person gives his own name as the sheets print it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.director.referee_forms import NameForm, OwnNameForm, PasswordForm, RefereeAddForm
from tournament.exports.qr_image import qr_code_data_uri
from tournament.people import referee_accounts as accounts
from tournament.people.access import director_required
from tournament.server.public_url import absolute

#: The backend a link's login is recorded with (a password's login goes through the same one).
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _form_errors(request, form) -> None:
    for errors in form.errors.values():
        for e in errors:
            messages.error(request, e)


@director_required
def referee_list(request):
    referees = list(accounts.referee_list().prefetch_related("groups"))
    mine = accounts.managed_accounts(request.user)
    managed = set(mine.values_list("pk", flat=True))
    plain = set(accounts.plain_referees().values_list("pk", flat=True))
    rows = sorted(
        (
            {
                "account": r,
                "name": accounts.display_name(r),
                "managed": r.pk in managed,  # his to manage
                "plain": r.pk in plain,  # a referee's account (another director's, if not his)
            }
            for r in referees
        ),
        key=lambda row: (not row["account"].is_active, row["name"].casefold()),
    )
    context = {"rows": rows, "history": accounts.history(mine, limit=30)}
    return render(request, "director/referees.html", context)


@director_required
def referee_add(request):
    form = RefereeAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        password = form.password if data["how"] == "password" else None
        try:
            account, secret, link = accounts.add_referee(
                data["name"], data["username"], password, request.user
            )
        except accounts.AccountError as e:
            form.add_error(None, str(e))
        else:
            if secret is None:
                messages.info(
                    request,
                    _("%(name)s added: the login is %(login)s, with the password you typed.")
                    % {"name": accounts.display_name(account), "login": account.get_username()},
                )
                return redirect("referees")
            return _link_page(request, account, secret, link, added=True)
    return render(request, "director/referees_add.html", {"form": form})


def _managed_or_404(request, pk: int):
    return get_object_or_404(accounts.managed_accounts(request.user), pk=pk)


@director_required
def referee_detail(request, account: int):
    referee = _managed_or_404(request, account)
    return render(
        request,
        "director/referees_account.html",
        {
            "referee": referee,
            "name": accounts.display_name(referee),
            "name_form": NameForm(initial={"name": accounts.display_name(referee)}),
            "password_form": PasswordForm(account=referee),
            "history": accounts.history([referee]),
            "has_password": referee.has_usable_password(),
        },
    )


def _change(request, referee, change, done: str):
    """``change()`` applied and ``done`` said, or the AccountError said; back to the account's page."""
    try:
        change()
    except accounts.AccountError as e:
        messages.error(request, str(e))
    else:
        messages.info(request, done)
    return redirect("referee", account=referee.pk)


@director_required
@require_POST
def referee_password(request, account: int):
    referee = _managed_or_404(request, account)
    form = PasswordForm(request.POST, account=referee)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect("referee", account=referee.pk)
    return _change(
        request,
        referee,
        lambda: accounts.set_password(referee, form.password, request.user),
        _("New password set: the phones logged in before are logged out."),
    )


@director_required
@require_POST
def referee_link(request, account: int):
    referee = _managed_or_404(request, account)
    try:
        secret, link = accounts.give_link(referee, request.user)
    except accounts.AccountError as e:
        messages.error(request, str(e))
        return redirect("referee", account=referee.pk)
    return _link_page(request, referee, secret, link, added=False)


@director_required
@require_POST
def referee_active(request, account: int):
    referee = _managed_or_404(request, account)
    active = request.POST.get("active")
    if active not in ("0", "1"):
        messages.error(request, _("Choose to deactivate or to reactivate the account."))
        return redirect("referee", account=referee.pk)
    name = accounts.display_name(referee)
    done = (_("%(name)s can log in again.") if active == "1" else _("%(name)s can no longer log in.")) % {
        "name": name
    }
    return _change(request, referee, lambda: accounts.set_active(referee, active == "1", request.user), done)


@director_required
@require_POST
def referee_rename(request, account: int):
    referee = _managed_or_404(request, account)
    form = NameForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect("referee", account=referee.pk)
    name = form.cleaned_data["name"]
    return _change(
        request,
        referee,
        lambda: accounts.rename(referee, name, request.user),
        _("The score sheets print %(name)s from now on.") % {"name": name},
    )


def _link_page(request, referee, secret: str, link, added: bool):
    """The one-time link, shown once (only its digest is kept): as a URL and as a QR code. Not cached."""
    url = absolute(request, reverse("login_link", args=[secret]))
    response = render(
        request,
        "director/referees_link.html",
        {
            "referee": referee,
            "name": accounts.display_name(referee),
            "url": url,
            "qr": qr_code_data_uri(url),
            "link": link,
            "added": added,
        },
    )
    response["Cache-Control"] = "no-store"
    return response


def login_link(request, secret: str):
    """A one-time login link opened: a page asking him to log in (a messenger's link preview fetching the page
    does not use it up); its button logs him in and he lands on his tables. A used, expired or unknown link:
    said so."""
    if request.method == "POST":
        try:
            referee = accounts.use_link(secret)
        except accounts.LinkRefused as e:
            return _link_refused(request, str(e))
        login(request, referee, backend=MODEL_BACKEND)
        return redirect("my_tables")
    try:
        link = accounts.open_link(secret)
    except accounts.LinkRefused as e:
        return _link_refused(request, str(e))
    return render(
        request, "registration/login_link.html", {"name": accounts.display_name(link.user), "link": link}
    )


def _link_refused(request, message: str):
    return render(request, "registration/login_link.html", {"refused": message}, status=410)


@login_required
def own_name(request):
    """The logged-in person's own name as the sheets print it (who confirmed a result, who ruled, who
    referees): a director made by ``createsuperuser`` has only his login."""
    user = request.user
    form = OwnNameForm(request.POST or None, initial={"name": user.get_full_name()})
    if request.method == "POST" and form.is_valid():
        try:
            accounts.name_oneself(user, form.cleaned_data["name"])
        except accounts.AccountError as e:
            form.add_error("name", str(e))
        else:
            name = accounts.display_name(user)
            messages.info(request, _("The score sheets print %(name)s from now on.") % {"name": name})
            return redirect("own_name")
    return render(request, "director/own_name.html", {"form": form})
