"""Every response carries a strict Content-Security-Policy (only the site's own scripts and style sheets) and
the other security headers; the templates keep to the policy: no inline script, event handler, style
attribute or <style> element, no javascript: link. A real browser checks the pages under the policy in
tests/test_security_browser.py."""

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournament.models import Tournament

ROOT = Path(__file__).resolve().parents[1]
STRICT = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)


def assert_secure_headers(response):
    h = response.headers
    assert h.get("Content-Security-Policy") == STRICT, response.request["PATH_INFO"]
    assert h.get("X-Content-Type-Options") == "nosniff"
    assert h.get("Referrer-Policy") == "same-origin"
    assert h.get("X-Frame-Options") == "DENY"
    assert "camera=()" in h.get("Permissions-Policy", "")


@pytest.mark.django_db
def test_every_response_carries_the_security_headers(client):
    t = Tournament.objects.create(name="Cup", rounds=2)
    pages = [
        reverse("home"),
        reverse("login"),
        reverse("standings", args=[t.pk]),
        reverse("projector", args=[t.pk]),
        "/admin/login/",
        "/no-such-page/",
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code in (200, 404), url
        assert_secure_headers(response)
    client.force_login(User.objects.create_superuser("boss", password="pw"))
    for url in (reverse("tournament", args=[t.pk]), reverse("boards"), "/admin/", "/admin/auth/user/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_secure_headers(response)
    refused = Client(enforce_csrf_checks=True).post(reverse("login"), {"username": "x", "password": "y"})
    assert refused.status_code == 403
    assert_secure_headers(refused)


def test_a_view_may_set_its_own_policy(rf):
    from django.http import HttpResponse

    from tournament.server.middleware import SecurityHeadersMiddleware

    def view(request):
        response = HttpResponse()
        response.headers["Content-Security-Policy"] = "default-src 'none'"
        return response

    response = SecurityHeadersMiddleware(view)(rf.get("/"))
    assert response.headers["Content-Security-Policy"] == "default-src 'none'"
    assert "camera=()" in response.headers["Permissions-Policy"]


FORBIDDEN = {
    "an inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "a <style> element": re.compile(r"<style\b", re.I),
    "a style attribute": re.compile(r"\sstyle\s*=", re.I),
    "an event handler attribute": re.compile(r"\son[a-z]+\s*=", re.I),
    "a javascript: link": re.compile(r"javascript:", re.I),
    "an hx-on attribute (evaluated)": re.compile(r"\shx-on", re.I),
}


def test_the_templates_keep_to_the_policy():
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for what, pattern in FORBIDDEN.items():
            found += [f"{path.relative_to(ROOT)}: {what}: {m.group(0)!r}" for m in pattern.finditer(text)]
    assert found == []
