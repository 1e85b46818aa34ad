"""Login throttling keyed on the phone's address: behind the proxies of ``DJANGO_BEHIND_PROXY=1`` /
``DJANGO_PROXY_COUNT`` the address the outermost proxy wrote in ``X-Forwarded-For`` (never one the client
sent), served directly the connection's address (a client's ``X-Forwarded-For`` ignored).

Each test takes its settings from tournament/settings.py run under the environment it names, as a served app
would read them."""

import runpy
from datetime import timedelta
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import RequestFactory
from django.urls import reverse

from tournament.server.client_address import client_address

SETTINGS = Path(__file__).resolve().parents[1] / "tournament" / "settings.py"
PROXY = "10.0.0.1"  # REMOTE_ADDR of every request through the venue's proxy
PHONE_A, PHONE_B, ATTACKER = "203.0.113.5", "198.51.100.7", "203.0.113.66"
ENV = ("DJANGO_BEHIND_PROXY", "DJANGO_PROXY_COUNT", "LOGIN_FAILURE_LIMIT", "LOGIN_COOLOFF_MINUTES")


def settings_under(monkeypatch, **env) -> dict:
    """tournament/settings.py as a process started with ``env`` reads it."""
    for name in ENV:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS))


@pytest.fixture
def serve_with(monkeypatch, settings):
    """Serve the app with the throttling settings read under the given environment."""

    def serve(**env):
        values = settings_under(monkeypatch, **env)
        for name, value in values.items():
            if name.startswith("AXES_") or name == "TRUSTED_PROXY_COUNT":
                setattr(settings, name, value)
        return values

    return serve


@pytest.fixture
def referees(db):
    return [User.objects.create_user(name, password="right-password") for name in ("ref1", "ref2")]


def login(client, username, password, remote=PROXY, forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return client.post(reverse("login"), {"username": username, "password": password}, **extra).status_code


def fail_until_locked(client, limit, **where):
    for _ in range(limit - 1):
        assert login(client, "ref1", "wrong", **where) == 200
    assert login(client, "ref1", "wrong", **where) == 429


def test_the_settings_come_from_the_environment(monkeypatch):
    assert settings_under(monkeypatch)["TRUSTED_PROXY_COUNT"] == 0
    assert settings_under(monkeypatch, DJANGO_PROXY_COUNT="2")["TRUSTED_PROXY_COUNT"] == 0  # no proxy
    assert settings_under(monkeypatch, DJANGO_BEHIND_PROXY="1")["TRUSTED_PROXY_COUNT"] == 1
    behind_two = settings_under(monkeypatch, DJANGO_BEHIND_PROXY="1", DJANGO_PROXY_COUNT="2")
    assert behind_two["TRUSTED_PROXY_COUNT"] == 2
    assert behind_two["AXES_CLIENT_IP_CALLABLE"] == "tournament.server.client_address.client_address"
    limits = settings_under(monkeypatch, LOGIN_FAILURE_LIMIT="3", LOGIN_COOLOFF_MINUTES="30")
    assert limits["AXES_FAILURE_LIMIT"] == 3 and limits["AXES_COOLOFF_TIME"] == timedelta(minutes=30)


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, None, PROXY),
        (0, PHONE_A, PROXY),  # served directly: the client's header is its own word
        (1, PHONE_A, PHONE_A),
        (1, f"{PHONE_B}, {ATTACKER}", ATTACKER),  # the left-most entry was sent by the client
        (2, f"{PHONE_B}, {PHONE_A}, 10.0.0.2", PHONE_A),  # the outer proxy's entry, then the inner one's
        (2, PHONE_A, PROXY),  # fewer entries than proxies: it did not come through them all
        (1, "", PROXY),
        (1, "not-an-address", PROXY),
        (1, f"{PHONE_B}, {PHONE_A}:51234", PHONE_A),
        (1, "[2001:DB8::0:1]:443", "2001:db8::1"),
        (1, "2001:db8::1", "2001:db8::1"),
    ],
)
def test_the_client_address(settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = proxies
    extra = {"REMOTE_ADDR": PROXY} | ({"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {})
    assert client_address(RequestFactory().get("/", **extra)) == expected


def test_behind_a_proxy_wrong_passwords_lock_out_that_phone_only(client, serve_with, referees):
    values = serve_with(DJANGO_BEHIND_PROXY="1", DJANGO_PROXY_COUNT="1")
    fail_until_locked(client, values["AXES_FAILURE_LIMIT"], forwarded=PHONE_A)
    assert login(client, "ref1", "right-password", forwarded=PHONE_A) == 429
    # the same referee on another phone, through the same proxy, is not locked out
    assert login(client, "ref1", "right-password", forwarded=PHONE_B) == 302
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == [PHONE_A]


def test_behind_a_proxy_a_forged_forwarded_address_locks_out_the_attacker_only(client, serve_with, referees):
    values = serve_with(DJANGO_BEHIND_PROXY="1", DJANGO_PROXY_COUNT="1")
    # the attacker sends "X-Forwarded-For: <the referee's phone>"; the proxy appends the attacker's address
    fail_until_locked(client, values["AXES_FAILURE_LIMIT"], forwarded=f"{PHONE_B}, {ATTACKER}")
    assert login(client, "ref1", "right-password", forwarded=f"{PHONE_B}, {ATTACKER}") == 429
    assert login(client, "ref1", "right-password", forwarded=PHONE_B) == 302  # the referee logs in
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == [ATTACKER]


def test_behind_two_proxies_the_outer_proxys_entry_counts(client, serve_with, referees):
    values = serve_with(DJANGO_BEHIND_PROXY="1", DJANGO_PROXY_COUNT="2")
    fail_until_locked(client, values["AXES_FAILURE_LIMIT"], forwarded=f"{PHONE_B}, {ATTACKER}, 10.0.0.2")
    assert login(client, "ref1", "right-password", forwarded=f"{PHONE_B}, 10.0.0.2") == 302


def test_served_directly_a_forwarded_header_is_ignored(client, serve_with, referees):
    values = serve_with(DJANGO_PROXY_COUNT="1")  # without DJANGO_BEHIND_PROXY
    for i in range(values["AXES_FAILURE_LIMIT"] - 1):  # a new made-up address each time does not help
        assert login(client, "ref1", "wrong", remote=ATTACKER, forwarded=f"192.0.2.{i}") == 200
    assert login(client, "ref1", "wrong", remote=ATTACKER, forwarded="192.0.2.99") == 429
    assert login(client, "ref1", "right-password", remote=ATTACKER, forwarded=PHONE_B) == 429
    assert login(client, "ref1", "right-password", remote=PHONE_B, forwarded=ATTACKER) == 302
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == [ATTACKER]


def test_the_limit_and_the_cool_off_come_from_the_environment(client, serve_with, referees):
    serve_with(DJANGO_BEHIND_PROXY="1", LOGIN_FAILURE_LIMIT="3", LOGIN_COOLOFF_MINUTES="30")
    fail_until_locked(client, 3, forwarded=PHONE_A)
    locked = client.post(
        reverse("login"),
        {"username": "ref1", "password": "right-password"},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=PHONE_A,
    )
    assert locked.status_code == 429 and "30 minutes" in locked.content.decode()
    back = AccessAttempt.objects.get().attempt_time
    AccessAttempt.objects.update(attempt_time=back - timedelta(minutes=11))
    assert login(client, "ref1", "right-password", forwarded=PHONE_A) == 429  # (the lockout starts again)
    back = AccessAttempt.objects.get().attempt_time
    AccessAttempt.objects.update(attempt_time=back - timedelta(minutes=31))
    assert login(client, "ref1", "right-password", forwarded=PHONE_A) == 302  # cooled off
