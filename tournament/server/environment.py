"""Every setting the app reads from the environment, declared once: its name, kind (yes/no, a whole number
with its least value and unit, a text), its default and what it does. ``tournament/settings.py`` reads each
with ``setting(name)``; docs/serving.md's table of settings is ``guide_table()`` (tests/test_docs.py holds it
to it). A value not of its kind is refused naming the variable: a typo must not start the app on a guess.

The timings have one vocabulary: a name ending in its unit (``_SECONDS``, ``_MINUTES``, ``_HOURS``; the
stream's check in milliseconds, ``_MS``, as it is set in tests), a whole number of 1 or more unless 0 is said
to mean something.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")

#: A default that ``tournament/settings.py`` works out from other settings (its words say from which).
WORKED_OUT = object()


@dataclass(frozen=True)
class Variable:
    name: str
    kind: type  # bool, int or str
    default: object  # when unset or empty; WORKED_OUT: given by settings.py, ``words`` say how
    words: str  # what it does, as docs/serving.md says it ("": not for the guide; set by serve or tests)
    minimum: int = 1  # a whole number's least value


VARIABLES = (
    Variable("DJANGO_SECRET_KEY", str, "", "a long random secret; without it, the key `serve` made is read"),
    Variable("DATABASE_URL", str, "", "PostgreSQL's address; without it, SQLite"),
    Variable("DJANGO_SQLITE_PATH", str, "", "where SQLite's file is"),
    Variable(
        "DJANGO_PUBLIC_URL",
        str,
        "",
        "the address printed on slips and login links, e.g. `https://monopoly.example.org`",
    ),
    Variable(
        "DJANGO_ALLOWED_HOSTS",
        str,
        "localhost,127.0.0.1,[::1]",
        "the host names the phones use, comma separated; `serve` accepts any if unset",
    ),
    Variable(
        "DJANGO_HTTPS",
        bool,
        WORKED_OUT,
        "`1` behind an HTTPS proxy (the hosted recipe sets it); `serve --https` sets it itself",
    ),
    Variable("DJANGO_BEHIND_PROXY", bool, False, "behind a proxy: see [deploy/README.md](deploy/README.md)"),
    Variable(
        "DJANGO_PROXY_COUNT",
        int,
        1,
        "how many proxies stand in front (1): see [deploy/README.md](deploy/README.md)",
    ),
    Variable(
        "DJANGO_CSRF_TRUSTED_ORIGINS",
        str,
        "",
        "behind a proxy, the addresses forms come from, comma separated: "
        "see [deploy/README.md](deploy/README.md)",
    ),
    Variable("LOGIN_LINK_HOURS", int, 24, "how long a referee's login link stays valid (24 hours)"),
    Variable("LOGIN_FAILURE_LIMIT", int, 5, "wrong passwords before a lock (5)"),
    Variable("LOGIN_COOLOFF_MINUTES", int, 10, "how long the lock lasts (10 minutes)"),
    Variable(
        "DJANGO_CONSOLE_POLL_SECONDS",
        int,
        10,
        "how often a console asks for other phones' moves without live updates (10)",
    ),
    Variable(
        "DJANGO_PARTICIPANT_POLL_SECONDS",
        int,
        20,
        "how often a participant's page asks for news without live updates (20)",
    ),
    Variable(
        "DJANGO_PARTICIPANT_SPREAD_SECONDS",
        int,
        10,
        "within how many seconds the participants' pages ask anew after a round is seated or a result "
        "confirmed (10)",
    ),
    Variable(
        "DJANGO_PROJECTOR_PAGE_SECONDS",
        int,
        12,
        "how long the projector shows each page of long standings (12)",
    ),
    Variable(
        "DJANGO_STREAM_CHECK_MS",
        int,
        WORKED_OUT,
        "how often the live updates read what changed, in milliseconds (500 on SQLite, 3000 on PostgreSQL)",
    ),
    Variable(
        "BACKUP_MAX_BYTES",
        int,
        64 * 1024 * 1024,
        "the largest tournament backup `import_tournament` reads (64 MB)",
    ),
    Variable(
        "SQLITE_IMPORT_QUIET_MINUTES",
        int,
        15,
        "on SQLite, a backup is imported only when no move was entered for this many minutes (15; 0: always)",
        minimum=0,
    ),
    Variable(
        "DJANGO_LOG_LEVEL", str, WORKED_OUT, "how much the log says (`WARNING`; `INFO` with DJANGO_DEBUG)"
    ),
    Variable("DJANGO_DEBUG", bool, False, ""),  # development on this computer (README's developers' guide)
    Variable("DJANGO_SERVE", bool, False, ""),  # set by `serve`
    Variable("DJANGO_SERVE_HOST", str, "", ""),  # set by `serve`: where it listens
    Variable("DJANGO_STATIC_ROOT", str, "", ""),
    Variable("DJANGO_STATIC_MANIFEST", bool, WORKED_OUT, ""),  # hashed names: unless DJANGO_DEBUG
    Variable("DJANGO_SSL_REDIRECT", bool, True, ""),
    Variable("DJANGO_HSTS_SECONDS", int, 31536000, "", minimum=0),
    Variable("DJANGO_HSTS_INCLUDE_SUBDOMAINS", bool, True, ""),
    Variable("DJANGO_HSTS_PRELOAD", bool, True, ""),
)
BY_NAME = {v.name: v for v in VARIABLES}


def setting(name: str, default=WORKED_OUT, env=os.environ):
    """The declared variable ``name`` from the environment (``default``: a worked-out default's value)."""
    v = BY_NAME[name]
    if v.default is not WORKED_OUT:
        default = v.default
    elif default is WORKED_OUT:
        raise TypeError(f"{name}: its default is worked out by the caller")
    if v.kind is bool:
        return env_bool(name, default, env)
    if v.kind is int:
        return env_whole_number(name, default, v.minimum, env)
    return env.get(name, "") or default  # (as set: a secret key may hold any character)


def env_bool(name: str, default: bool, env=os.environ) -> bool:
    """A yes/no setting from the environment: 1/0, true/false, yes/no, on/off (any case); unset or empty is
    ``default``. Anything else is refused: a typo (``DJANGO_HTTPS=ture``) must not quietly mean False."""
    value = env.get(name, "").strip().lower()
    if not value:
        return default
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name} is {env[name]!r}: it is one of {', '.join(TRUE_WORDS)} (yes) "
        f"or {', '.join(FALSE_WORDS)} (no), in any case."
    )


def env_whole_number(name: str, default: int, minimum: int = 0, env=os.environ) -> int:
    """A whole number of ``minimum`` or more from the environment; unset or empty is ``default``. Anything
    else is refused naming the variable, as :func:`env_bool` does: ``10s`` must not start the app on a
    guess (nor end it in a traceback that names no variable)."""
    value = env.get(name, "").strip()
    if not value:
        return default
    if value.isascii() and value.isdigit() and int(value) >= minimum:  # no sign, point, "1e3", "1_0" nor "²"
        return int(value)
    raise ImproperlyConfigured(f"{name} is {env[name]!r}: it is a whole number, {minimum} or more.")


def guide_table() -> str:
    """docs/serving.md's table of settings: each variable a guide shows, with what it does."""
    rows = [f"| `{v.name}` | {v.words} |" for v in VARIABLES if v.words]
    return "\n".join(["| variable | what it does |", "|---|---|", *rows])
