"""The address a printed or shown link carries (a participant's slip, a referee's one-time login link, the
join page's QR code): the site's public address when ``DJANGO_PUBLIC_URL`` says it
(``https://monopoly.example.org``), else the one the director's own browser used — which is not the phones'
when he prints the slips at home, or from behind the venue's proxy on an inner address. Served by ``serve``
and used on the laptop itself (``http://127.0.0.1:8000``), the laptop's address on the venue's network, which
the phones reach."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http.request import split_domain_port

from tournament.server import serving


def checked(value: str, name: str = "DJANGO_PUBLIC_URL") -> str:
    """``value`` as a base address without its trailing slash ('' when unset); anything but an http(s) address
    of a host, without a path, query or fragment, stops the app naming the variable."""
    value = value.strip().rstrip("/")
    if not value:
        return ""
    parts = urlsplit(value)
    extra = parts.path or parts.query or parts.fragment
    if parts.scheme not in ("http", "https") or not parts.hostname or extra:
        raise ImproperlyConfigured(
            f"{name} is {value!r}: it is the site's address as the phones reach it, such as "
            "https://monopoly.example.org (no path)."
        )
    return value


def phone_bases(request) -> list[str]:
    """The site's addresses as the phones reach it (scheme, host, port), the one to print first; worked out
    once a request (a page of slips prints one for each participant)."""
    bases = getattr(request, "_phone_bases", None)
    if bases is None:
        bases = request._phone_bases = _phone_bases(request)
    return bases


def _phone_bases(request) -> list[str]:
    if settings.PUBLIC_URL:
        return [settings.PUBLIC_URL]
    here = f"{request.scheme}://{request.get_host()}"
    name, port = split_domain_port(request.get_host())
    if settings.SERVE and serving.is_loopback(name):  # the laptop's own browser: its address on the network
        hosts = serving.phone_hosts(settings.SERVE_HOST, https=request.is_secure())
        suffix = f":{port}" if port else ""
        return [f"{request.scheme}://{h}{suffix}" for h in hosts] or [here]
    return [here]


def absolute(request, path: str) -> str:
    """``path`` (``/tournaments/3/me/…/``) as a whole address."""
    return phone_bases(request)[0] + path
