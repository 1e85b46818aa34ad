"""``python manage.py serve`` (``monopoly-tournament serve``): the event served for real by one command.

uvicorn serves the app (``tournament.asgi``: the pages, the static files through WhiteNoise and the held
event streams in one process tree: one port the phones reach, no proxy needed), with a worker a core; DEBUG
off, the secret key made once and kept beside the database, the database migrated and the static files
collected first; on every address of this computer (``--host``) unless told otherwise, printing the addresses
the phones use and the first as a QR code. ``--https``: over HTTPS, with a certificate this computer's own
certificate authority signs for its addresses (tournament/server/venue_authority.py), which each referee's
phone trusts once (``/join/trust/``): then a console survives a reload without the network too. Ctrl-C
stops it: each worker finishes the requests it holds (a move is stored whole or not at all), the event
streams are closed after 3 s (the pages open them again)."""

from __future__ import annotations

import os

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from tournament.server import serving, venue_authority

#: How long a worker stopping waits for its open requests (the event streams are held open: they are closed).
GRACE_SECONDS = 3
#: uvicorn's own lines as the app's read (settings.LOGGING): the time, in the app's time zone (Django sets the
#: process's, and the workers inherit it), the level and the logger. No access log (see below).
UVICORN_LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    "handlers": {
        "line": {"class": "logging.StreamHandler", "formatter": "line", "stream": "ext://sys.stderr"}
    },
    "loggers": {"uvicorn": {"handlers": ["line"], "level": "INFO", "propagate": False}},
}


class Command(BaseCommand):
    help = "Serve the event to the phones on this computer's network (uvicorn; Ctrl-C stops it)."

    def create_parser(self, prog_name, subcommand, **kwargs):
        # no abbreviations: settings were made from the whole options (serving.serve_options)
        return super().create_parser(prog_name, subcommand, allow_abbrev=False, **kwargs)

    def add_arguments(self, parser):
        parser.add_argument(
            "--host",
            default=serving.EVERY_ADDRESS,
            help=f"the address to listen on (every one: {serving.EVERY_ADDRESS})",
        )
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--workers", type=int, default=os.cpu_count() or 1, help="processes (one a core by default)"
        )
        parser.add_argument("--demo", action="store_true", help="load the demo tournament first (once)")
        parser.add_argument(
            "--https",
            action="store_true",
            help="over HTTPS, with a certificate authority of this computer's own that the phones trust once",
        )

    def handle(self, *args, host, port, workers, demo, https, **options):
        if settings.DEBUG or not settings.SERVE:
            raise CommandError("serve is run as `python manage.py serve` or `monopoly-tournament serve`.")
        if workers < 1:
            raise CommandError("--workers: 1 or more.")
        call_command("migrate", interactive=False, verbosity=0)
        if demo:
            call_command("demo", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        # the phones' engine served, or no start (tournament/console/engine_check.py registers the check)
        self.check(tags=["phone_engine"], include_deployment_checks=True)
        lan = serving.lan_addresses()  # (asked once: a look-up of this computer's name may be slow)
        certificate = None
        if https:
            named = lan + ([host] if host != serving.EVERY_ADDRESS else [])
            certificate = venue_authority.server_certificate(settings.KEPT_DIR, named)
        self.say_where(host, port, "https" if https else "http", lan)
        import uvicorn

        uvicorn.run(
            "tournament.asgi:application",
            host=host,
            port=port,
            workers=workers,
            access_log=False,  # (a participant's private link carries his key)
            server_header=False,
            proxy_headers=False,  # the phones reach it directly: an X-Forwarded-For of theirs is not believed
            timeout_graceful_shutdown=GRACE_SECONDS,
            lifespan="off",  # (Django has no startup or shutdown of its own to run)
            log_config=UVICORN_LOGGING,
            ssl_certfile=certificate and str(certificate),  # (the key is in the same file)
        )

    def say_where(self, host: str, port: int, scheme: str, lan: list[str]) -> None:
        suffix = "" if port == {"http": 80, "https": 443}[scheme] else f":{port}"
        here = f"{scheme}://{'127.0.0.1' if host == serving.EVERY_ADDRESS else host}{suffix}/"
        urls = [f"{scheme}://{h}{suffix}/" for h in serving.phone_hosts(host, scheme == "https", lan)]
        if scheme == "https":
            if host == serving.EVERY_ADDRESS:
                for a in lan:
                    if not venue_authority.nameable(a):
                        self.stdout.write(f"{a} is not a private address: the certificate cannot name it.")
            names = " and ".join(venue_authority.local_names())
            self.stdout.write(f"The certificate names this computer {names}.")
        db = settings.DATABASES["default"]
        where = db["NAME"] if db["ENGINE"].endswith("sqlite3") else f"{db['ENGINE']} {db.get('NAME')}"
        self.stdout.write(f"The database: {where}")
        self.stdout.write(f"On this computer: {here}")
        if urls:
            self.stdout.write("The phones on this network: " + "  ".join(urls))
            self.stdout.write(f"For the projector (the address as a QR code): {urls[0]}join/")
            first = urls[0]
            if scheme == "https":  # the QR code leads a phone to its first step
                first += "join/trust/"
                self.stdout.write(f"Each referee's phone trusts this computer once, here: {first}")
            self.stdout.write(serving.terminal_qr(first))
        else:
            self.stdout.write("No network address found: the phones cannot reach this computer yet.")
        self.stdout.write("Ctrl-C stops it.")
        self.stdout.flush()
