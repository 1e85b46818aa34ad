"""Which phone a move was entered on: each browser session of the console is a device with a random token
kept in its session, and every form the console gives it carries a request key starting with that token.
So a move is known as this device's own (undone with a one-tap reason) or another device's (undone with a
typed one), without storing anything more with the move."""

from __future__ import annotations

import secrets
import uuid

SESSION_KEY = "console_device"
SEPARATOR = "."


def device_of(request) -> str:
    """This browser session's device token (made on its first page of the console)."""
    token = request.session.get(SESSION_KEY)
    if not isinstance(token, str) or not token.isalnum():
        token = request.session[SESSION_KEY] = secrets.token_hex(8)
    return token


def key_start(device: str) -> str:
    """How the request keys of ``device``'s forms begin."""
    return device + SEPARATOR


def new_client_key(request) -> str:
    """The request key of a form given to this device: its token, then a fresh random part."""
    return key_start(device_of(request)) + uuid.uuid4().hex


def entered_on(client_key: str | None, device: str) -> bool:
    """Was the move with this request key entered on ``device``?"""
    return bool(client_key) and client_key.startswith(key_start(device))
