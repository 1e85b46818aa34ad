"""The address a request comes from, as the login throttling (django-axes) counts it.

Served directly, it is the connection's address (``REMOTE_ADDR``); an ``X-Forwarded-For`` header is then
the client's own word and is ignored. Behind ``TRUSTED_PROXY_COUNT`` proxies (``DJANGO_BEHIND_PROXY=1``,
``DJANGO_PROXY_COUNT``), each proxy appends the address it was called from to ``X-Forwarded-For``: the
N-th entry from the right was written by the outermost proxy and is the phone's address. Entries to its
left were sent by the client and may be anything, so they are never used.

If the header holds fewer entries than there are proxies (a request that did not come through them all) or
that entry is not an address, the connection's address is used: a misconfiguration then throttles per
proxy, never per a name the client chose.
"""

import ipaddress

from django.conf import settings


def _address(text: str) -> str | None:
    """``text`` as a normalised IP address (a port after it dropped: ``1.2.3.4:5678``, ``[::1]:5678``)."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def client_address(request) -> str | None:
    remote = request.META.get("REMOTE_ADDR")
    proxies = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if proxies > 0:
        hops = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if len(hops) >= proxies:
            address = _address(hops[-proxies])
            if address is not None:
                return address
    return remote
