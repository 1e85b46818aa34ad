"""Django settings, read from the environment (the production recipe is in the README).

- ``DJANGO_DEBUG=1`` for development; DEBUG is off otherwise, and then ``DJANGO_SECRET_KEY`` must be set or
  the key ``serve`` made be kept beside the database (:mod:`tournament.server.serving`).
- The database: ``DATABASE_URL`` (``postgres://user:password@host:5432/name``), or ``DB=postgres`` with
  ``DB_NAME``, ``DB_USER``, ``DB_PASSWORD``, ``DB_HOST``, ``DB_PORT``; otherwise SQLite in ``db.sqlite3``
  (``DJANGO_SQLITE_PATH`` to move it), set up for many writers at once (see
  :mod:`tournament.server.database`).
- ``DJANGO_ALLOWED_HOSTS`` (comma separated), ``DJANGO_HTTPS=0`` for a venue network served over plain HTTP,
  ``DJANGO_PUBLIC_URL`` for the links printed on slips and shown as QR codes.
- Every variable is declared once, with its kind, default and words, in :mod:`tournament.server.environment`
  (``setting``): a yes/no takes 1/0, true/false, yes/no, on/off (any case), a number digits only, empty for
  the default; anything else stops the app, naming the variable.

Run from a checkout (``manage.py`` beside the package), the templates and static files are the checkout's
top-level ``templates/`` and ``static/``, and SQLite's file and the collected static files (``staticfiles/``)
are kept in the checkout. An installed copy (``pip install .``: the wheel) carries the templates and static
files inside the package, as ``tournament/site/`` (pyproject.toml), and keeps SQLite's file and the collected
static files in the directory it is run from (``DJANGO_SQLITE_PATH``, ``DJANGO_STATIC_ROOT`` to put them
elsewhere).
"""

import os
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from tournament.server import public_url, serving, site_files
from tournament.server.database import database_from_env, sqlite_path
from tournament.server.environment import setting

PACKAGE_DIR = site_files.PACKAGE_DIR
BASE_DIR = PACKAGE_DIR.parent  # the checkout; for an installed copy, site-packages
IN_CHECKOUT = site_files.in_checkout()
SITE_DIR = site_files.site_folder()  # templates/ and static/
DATA_DIR = BASE_DIR if IN_CHECKOUT else Path.cwd()  # db.sqlite3 and staticfiles/ unless set


DEBUG = setting("DJANGO_DEBUG")
#: ``serve`` (tournament/server/serving.py): the event served for real, its secret key made once and kept.
SERVE = setting("DJANGO_SERVE")
#: What ``serve`` keeps, beside SQLite's file (if it is used): the secret key, and with ``--https`` the
#: venue's certificate authority (tournament/server/venue_authority.py).
KEPT_DIR = Path(sqlite_path(os.environ, DATA_DIR)).resolve().parent
#: Where ``serve`` listens (serving.prepare): the pages show where the phones reach it.
SERVE_HOST = setting("DJANGO_SERVE_HOST") or serving.EVERY_ADDRESS
SECRET_KEY = setting("DJANGO_SECRET_KEY") or serving.kept_key(KEPT_DIR, make=SERVE)
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. Set it (a long random string, kept secret) to serve the app, "
            "run `serve` once (it makes one and keeps it beside the database, in a file named "
            f"{serving.KEY_FILE!r}), or set DJANGO_DEBUG=1 to run it for development on this computer."
        )
    SECRET_KEY = "dev-only-insecure-key-not-for-serving"
ALLOWED_HOSTS = [h.strip() for h in setting("DJANGO_ALLOWED_HOSTS").split(",")]

INSTALLED_APPS = [
    "django.contrib.admin",
    "tournament",  # before django.contrib.auth: its createsuperuser is the app's (prompts in one language)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_htmx",
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # before WhiteNoise: static files get the headers too
    "tournament.server.middleware.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "tournament.server.middleware.RefuseNulMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "tournament.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [SITE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "tournament.wsgi.application"

DATABASES = {"default": database_from_env(os.environ, DATA_DIR)}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a login while its account and address are locked out
    "django.contrib.auth.backends.ModelBackend",
]
# Login throttling: 5 wrong passwords for one account from one address lock that pair out for 10 minutes.
# By account *and* address: a venue's referees share one public address, and one of them mistyping must not
# lock out the others.
AXES_FAILURE_LIMIT = setting("LOGIN_FAILURE_LIMIT")
AXES_COOLOFF_TIME = timedelta(minutes=setting("LOGIN_COOLOFF_MINUTES"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_ENABLE_ACCESS_FAILURE_LOG = False
AXES_DISABLE_ACCESS_LOG = True
AXES_LOCKOUT_CALLABLE = "tournament.views.locked_out"
AXES_USERNAME_CALLABLE = "tournament.views.login_username"
# Keyed on the phone's address: behind DJANGO_PROXY_COUNT proxies (DJANGO_BEHIND_PROXY=1; one by default) the
# entry of X-Forwarded-For the outermost proxy wrote, never one the client sent
# (tournament.server.client_address).
BEHIND_PROXY = setting("DJANGO_BEHIND_PROXY")
TRUSTED_PROXY_COUNT = setting("DJANGO_PROXY_COUNT") if BEHIND_PROXY else 0
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("DJANGO_PROXY_COUNT must be 0 or more.")
AXES_CLIENT_IP_CALLABLE = "tournament.server.client_address.client_address"
AXES_VERBOSE = False

# Several app servers behind one load balancer (docs/scaling.md) share what a request leaves for the next in
# the database, never in a process's memory: the sessions (a referee's login, his phone's device token) and
# the login throttling's failures. Said here, not left to the defaults. Django's cache (CACHES: each
# process's memory) holds only parts of pages found by the very data they show (console/fragments.py, the
# public standings' table): a process that lacks one renders it, none can serve another's stale one.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        # a player's card or a row of the log is a few kB: 250 tables' fit in some 40 MB a process
        "OPTIONS": {"MAX_ENTRIES": 10_000},
    }
}
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"

LANGUAGE_CODE = "pl"
LANGUAGES = [("pl", _("Polish")), ("en", _("English"))]
LOCALE_PATHS = [PACKAGE_DIR / "locale"]
TIME_ZONE = "Europe/Warsaw"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(setting("DJANGO_STATIC_ROOT") or DATA_DIR / "staticfiles")
STATICFILES_DIRS = [SITE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # When served: WhiteNoise serves STATIC_ROOT (``collectstatic``) compressed, with hashed names cached
    # forever (the site's ES modules importing each other by those names: server/static_storage.py).
    # DJANGO_STATIC_MANIFEST=0 keeps plain names (the tests' live server finds files by name).
    "staticfiles": {
        "BACKEND": "tournament.server.static_storage.StaticFiles"
        if setting("DJANGO_STATIC_MANIFEST", not DEBUG)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Uploads (participant lists): refused by their size before they are read (tournament.server.uploads).
UPLOAD_MAX_BYTES = 5 * 1024 * 1024
FILE_UPLOAD_HANDLERS = [
    "tournament.server.uploads.SizeLimitUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
# A tournament's backup restored from the command line (``import_tournament``): refused above this size
# before it is read. 30 tables, 5 rounds, some 200 moves a game make about 16 MB; a file far larger would take
# minutes and gigabytes to read.
BACKUP_MAX_BYTES = setting("BACKUP_MAX_BYTES")
# On SQLite a backup's import holds the one write lock while it stores the tournament (a few seconds for a big
# one): it is refused while moves were entered at the tables in the last N minutes (0: never refused).
# PostgreSQL stores it beside the tables' moves.
SQLITE_IMPORT_QUIET_MINUTES = setting("SQLITE_IMPORT_QUIET_MINUTES")
DATA_UPLOAD_MAX_NUMBER_FIELDS = 2000

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my_tables"  # a referee's tables now (tournament.people.referee_tables)
LOGOUT_REDIRECT_URL = "home"
# A referee's one-time login link (tournament.people.referee_accounts) logs in once, within this many hours of
# being
# given: long enough to be handed out the evening before, short enough that a lost one soon opens nothing.
LOGIN_LINK_HOURS = setting("LOGIN_LINK_HOURS")
# How often a console open on a phone asks whether another device entered a move (templates/console/
# panel.html): soon enough for a table's second phone, seldom enough for 30 tables on the venue's Wi-Fi.
# The browser tests that wait for a poll shorten it (tests/conftest.py: quick_poll).
CONSOLE_POLL_SECONDS = setting("DJANGO_CONSOLE_POLL_SECONDS")
# How often a participant's page (his private link's) asks whether what it shows has changed (his table, his
# game's figures, the standings): a seat or a result shows within this, without a reload, at a cost of a few
# small queries a poll (a thousand phones at 20 s: 50 polls a second).
PARTICIPANT_POLL_SECONDS = setting("DJANGO_PARTICIPANT_POLL_SECONDS")
# Within how many seconds the participants' pages ask anew after a change of their whole tournament (a round
# seated, a result confirmed), each at a moment of its own (live.js): a thousand pages, each a few dozen ms
# of the server's time to render, not in the same instant. A change of his own table is asked for at once.
PARTICIPANT_SPREAD_SECONDS = setting("DJANGO_PARTICIPANT_SPREAD_SECONDS")
# How often an app server's event streams (tournament/streams) read every topic they serve. On PostgreSQL each
# write announces its change (NOTIFY) and is read at once: this only catches writes that announce nothing
# (a seat moved). On SQLite nothing is announced and this is how soon a change reaches the streams.
_ANNOUNCED = DATABASES["default"]["ENGINE"].endswith("postgresql")
STREAM_CHECK_SECONDS = setting("DJANGO_STREAM_CHECK_MS", 3000 if _ANNOUNCED else 500) / 1000
# How long the projector shows each page of the standings when they take more than one (public/projector.html
# turns to the next by itself). The browser tests that wait for a page to turn shorten it (quick_pages).
PROJECTOR_PAGE_SECONDS = setting("DJANGO_PROJECTOR_PAGE_SECONDS")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Behind HTTPS (the default when serving): secure cookies, HSTS, redirect to HTTPS. A venue network served
# over plain HTTP sets DJANGO_HTTPS=0 (then `check --deploy` warns about these, rightly).
HTTPS = setting("DJANGO_HTTPS", not DEBUG)
if HTTPS:
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = setting("DJANGO_SSL_REDIRECT")
    SECURE_HSTS_SECONDS = setting("DJANGO_HSTS_SECONDS")
    SECURE_HSTS_INCLUDE_SUBDOMAINS = setting("DJANGO_HSTS_INCLUDE_SUBDOMAINS")
    SECURE_HSTS_PRELOAD = setting("DJANGO_HSTS_PRELOAD")
    if BEHIND_PROXY:  # TLS ends at a proxy that sets X-Forwarded-Proto
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
else:  # a browser ignores Cross-Origin-Opener-Policy from an address on plain HTTP, with an error each page
    SECURE_CROSS_ORIGIN_OPENER_POLICY = None
# Sent on every response (tournament.server.middleware.SecurityHeadersMiddleware). The pages load only the
# site's own scripts and style sheets (no inline script, event handler or style attribute; htmx is told to add
# no <style> and to evaluate nothing, in templates/base.html); the admin's pages keep to this too. WebAssembly
# may be compiled ('wasm-unsafe-eval', not JavaScript's eval): the referee's phone runs the rules in Pyodide
# while the Wi-Fi is down (static/console/engine-worker.js; Safari 16 and later).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
}
# The site's address as the phones reach it, for the links printed or shown as QR codes (participants' slips,
# referees' one-time login links); unset: the address the director's browser used.
PUBLIC_URL = public_url.checked(setting("DJANGO_PUBLIC_URL"))
CSRF_TRUSTED_ORIGINS = [o for o in setting("DJANGO_CSRF_TRUSTED_ORIGINS").split(",") if o]
SESSION_COOKIE_AGE = 60 * 60 * 24 * 3  # a tournament weekend

# To standard error, a line each with its time (tournament.server.logs): a refused request (4xx) in one line
# with its
# method, path, status and reason, no traceback; a server error (500) with its traceback. Django's loggers
# write through the root's handler (once, with or without DEBUG); runserver's request lines with the time too.
LOG_LEVEL = setting("DJANGO_LOG_LEVEL", "INFO" if DEBUG else "WARNING")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "line": {
            "()": "tournament.server.logs.LineFormatter",
            "format": "{asctime} {levelname} {name}: {message}",
            "style": "{",
        },
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "{asctime} {message}",
            "datefmt": "%Y-%m-%d %H:%M:%S",
            "style": "{",
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "line"},
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server"},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": [], "level": LOG_LEVEL},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
}
