"""What ``serve`` (tournament/management/commands/serve.py) needs before Django reads its settings, and what
it tells the director: the environment of an event served for real, the secret key kept beside the database,
the addresses the phones use on the venue's network, and one of them as a QR code in the terminal.

Nothing here imports Django: ``manage.py`` and ``monopoly-tournament`` call :func:`prepare` first."""

from __future__ import annotations

import argparse
import os
import secrets
import socket
from pathlib import Path

from tournament.server import venue_authority
from tournament.server.private_files import write_private

#: The secret key's file, beside SQLite's (`database.sqlite_path`: settings.py says which folder).
KEY_FILE = "secret_key"
#: Where ``serve`` listens unless ``--host`` says otherwise: every address of this computer.
EVERY_ADDRESS = "0.0.0.0"


def serve_options(argv: list[str]) -> argparse.Namespace:
    """``serve``'s options that settings depend on (``--host``, ``--https``), read as its own parser reads
    them (no abbreviations: ``--http`` is not taken for ``--https``)."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--host", default=EVERY_ADDRESS)
    parser.add_argument("--https", action="store_true")
    return parser.parse_known_args(argv[2:])[0]


def prepare(argv: list[str], environ=os.environ) -> None:
    """For ``serve``: served as on the day whatever the shell says (DEBUG off), over plain HTTP unless
    ``DJANGO_HTTPS`` says otherwise (a venue network), under whatever name or address the phones reach this
    computer by unless ``DJANGO_ALLOWED_HOSTS`` lists them, and the secret key made once and kept
    (``DJANGO_SERVE``: settings.py reads it, :func:`kept_key` makes it). ``serve --https``: over HTTPS, but no
    HSTS unless ``DJANGO_HSTS_SECONDS`` asks for it (the laptop's name, HSTS-pinned for a year, could not be
    served over plain HTTP at the next event). ``DJANGO_SERVE_HOST``: where it listens (the pages show the
    addresses the phones reach it at, :func:`phone_hosts`). Other commands: nothing."""
    if argv[1:2] != ["serve"]:
        return
    options = serve_options(argv)
    environ["DJANGO_DEBUG"] = "0"
    environ["DJANGO_SERVE_HOST"] = options.host
    if options.https:
        environ["DJANGO_HTTPS"] = "1"
        environ.setdefault("DJANGO_HSTS_SECONDS", "0")
    environ.setdefault("DJANGO_HTTPS", "0")
    environ.setdefault("DJANGO_ALLOWED_HOSTS", "*")
    environ["DJANGO_SERVE"] = "1"


def kept_key(folder: Path, *, make: bool) -> str:
    """The secret key kept in ``folder`` (its owner alone may read it: mode 0600); made there first when
    ``make`` (two processes at once: one makes it, both read it, whole). "" when there is none and none is
    made."""
    path = folder / KEY_FILE
    if make and not path.exists():
        write_private(path, (secrets.token_urlsafe(50) + "\n").encode(), replace=False)
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        return ""


def lan_addresses() -> list[str]:
    """This computer's IPv4 addresses other than loopback, the one of the default route first (found by a UDP
    socket connected to a private address: nothing is sent)."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            found.append(s.getsockname()[0])
        except OSError:
            pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    found += [info[4][0] for info in infos]
    return list(dict.fromkeys(a for a in found if not a.startswith("127.") and a != "0.0.0.0"))


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, an IPv6 one with or without its brackets) is this computer's
    loopback, which no phone reaches."""
    return host in ("localhost", "::1", "[::1]") or host.startswith("127.")


def phone_hosts(bound: str, https: bool, addresses: list[str] | None = None) -> list[str]:
    """Where a phone on the venue's network reaches ``serve`` listening at ``bound``: this computer's
    ``addresses`` (its :func:`lan_addresses` unless given; none when it listens on loopback only); over
    ``--https``, those its certificate names, else its .local name (:func:`venue_authority.phone_hosts`)."""
    if bound in (EVERY_ADDRESS, "", "::"):
        hosts = lan_addresses() if addresses is None else addresses
    elif is_loopback(bound):
        return []
    else:
        hosts = [bound]
    return venue_authority.phone_hosts(hosts) if https else hosts


def terminal_qr(text: str) -> str:
    """``text`` as a QR code drawn with block characters, two rows of modules a line, light on a dark
    terminal (a phone's camera reads it from the screen)."""
    from reportlab.graphics.barcode import qrencoder

    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(text)
    code.make()
    n, quiet = code.getModuleCount(), 2
    side = n + 2 * quiet
    rows = [[False] * side for _ in range(quiet)]
    rows += [[False] * quiet + [code.isDark(r, c) for c in range(n)] + [False] * quiet for r in range(n)]
    rows += [[False] * side for _ in range(quiet + (side % 2))]
    blocks = {(False, False): "█", (True, False): "▄", (False, True): "▀", (True, True): " "}
    pairs = (zip(rows[i], rows[i + 1], strict=True) for i in range(0, len(rows), 2))
    return "\n".join("".join(blocks[pair] for pair in line) for line in pairs)
