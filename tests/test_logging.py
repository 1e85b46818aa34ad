"""The server's log (settings.LOGGING, tournament.server.logs), read from the handler the settings configure:
every
line starts with its time; a refused request (403, 404, 400) is one line naming the method, the path, the
status and the reason, without a traceback; a server error (500) keeps its traceback."""

import io
import logging
import re

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import path, reverse

from tournament import urls as site_urls

SECOND = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"
STAMP = SECOND + r",\d{3}"


def forbidden(request):
    raise PermissionDenied("Not yours.\nForged second line")


def boom(request):
    return 1 // 0


urlpatterns = [path("forbidden/", forbidden), path("boom/", boom), *site_urls.urlpatterns]


def handler_named(name: str, logger: str = "") -> logging.StreamHandler:
    return next(h for h in logging.getLogger(logger).handlers if h.get_name() == name)


@pytest.fixture
def log():
    """What the server writes to its log during the test (the root's handler of settings.LOGGING)."""
    handler = handler_named("console")
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


def lines(log) -> list[str]:
    return log.getvalue().splitlines()


def test_every_line_starts_with_its_time(log):
    logging.getLogger("tournament").warning("The seating of round %d was redone.", 3)
    (line,) = lines(log)
    assert re.fullmatch(f"{STAMP} WARNING tournament: The seating of round 3 was redone.", line), line


def test_runservers_request_lines_have_the_time_too():
    handler = handler_named("django.server", "django.server")
    record = logging.LogRecord(
        "django.server", logging.INFO, __file__, 1, '"%s" %s %s', ("GET / HTTP/1.1", 200, 5), None
    )
    assert re.fullmatch(f'{SECOND} "GET / HTTP/1.1" 200 5', handler.format(record))


@pytest.mark.django_db
def test_a_refused_request_is_one_line_without_a_traceback(log):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(User.objects.create_user("ref", password="pw"))
    assert client.get(reverse("tournament_new")).status_code == 403
    assert client.get("/no-such-page/").status_code == 404
    strict = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    assert strict.post(reverse("login"), {"username": "x", "password": "y"}).status_code == 403
    assert Client(HTTP_HOST="evil.example").get("/").status_code == 400
    assert lines(log) == [
        line
        for line in lines(log)
        if re.match(f"{STAMP} (WARNING|ERROR) ", line)  # a line each, no traceback after any
    ]
    forbidden_, missing, csrf, host = lines(log)
    assert forbidden_.endswith(
        "WARNING django.request: Forbidden (Permission denied): /tournaments/new/ — GET 403: "
        "Only the tournament director may do this."
    )
    assert missing.endswith("WARNING django.request: Not Found: /no-such-page/ — GET 404")
    assert csrf.endswith("WARNING django.security.csrf: Forbidden (CSRF cookie not set.): /login/ — POST 403")
    assert "ERROR django.security.DisallowedHost: Invalid HTTP_HOST header: 'evil.example'" in host
    assert host.endswith("ALLOWED_HOSTS. — GET / 400")  # the path, which Django's message does not name


@pytest.mark.urls(__name__)
@pytest.mark.django_db
def test_a_reason_cannot_add_a_line(log):
    assert Client().get("/forbidden/").status_code == 403
    (line,) = lines(log)
    assert line.endswith(
        "Forbidden (Permission denied): /forbidden/ — GET 403: Not yours. Forged second line"
    )


@pytest.mark.urls(__name__)
@pytest.mark.django_db
def test_a_server_error_keeps_its_traceback(log):
    assert Client(raise_request_exception=False).get("/boom/").status_code == 500
    first, *rest = lines(log)
    error = (
        "ERROR django.request: Internal Server Error: /boom/ — GET 500: integer division or modulo by zero"
    )
    assert re.fullmatch(f"{STAMP} {error}", first)
    assert rest[0] == "Traceback (most recent call last):" and rest[-1].startswith("ZeroDivisionError")
