"""The address a printed or shown link carries (a participant's slip, a referee's one-time login link): the
site's public address when ``DJANGO_PUBLIC_URL`` says it (``https://monopoly.example.org``), else the one the
director's own browser used — which is not the phones' when he prints the slips at home, or from behind the
venue's proxy on an inner address."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


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


def absolute(request, path: str) -> str:
    """``path`` (``/tournaments/3/me/…/``) as a whole address."""
    return settings.PUBLIC_URL + path if settings.PUBLIC_URL else request.build_absolute_uri(path)
