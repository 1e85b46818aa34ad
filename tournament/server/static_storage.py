"""The static files as served (``DJANGO_STATIC_MANIFEST``): WhiteNoise's compressed manifest storage, every
name carrying its digest, and the site's own scripts — ES modules, which import one another (``import … from
"./outbox.js"``) — written with the digested names of the modules they import, so that a page, its modules
and the console's service worker's cache (tournament/console/service_worker.py) name the same files. Django's
``support_js_module_import_aggregation`` does this for every ``*.js``; here only for the site's own folders
(static/console/, static/site/, …): the vendored files (static/vendor/: htmx, jsQR, Pyodide) are served as
they come."""

from __future__ import annotations

from django.contrib.staticfiles.storage import ManifestStaticFilesStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage

from tournament.server.site_files import site_folder

#: The folders of static/ that hold vendored files, left as they come.
VENDORED = {"vendor"}


def own_folders() -> list[str]:
    """static/'s folders of the site's own files (by page: console, site, projector, …)."""
    static = site_folder() / "static"
    return sorted(p.name for p in static.iterdir() if p.is_dir() and p.name not in VENDORED)


#: Django's patterns of an ES module's imports (import … from "…", export … from "…", import "…",
#: import("…")).
_, MODULE_IMPORTS = ManifestStaticFilesStorage._js_module_import_aggregation_patterns


class StaticFiles(CompressedManifestStaticFilesStorage):
    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        *((f"{folder}/*.js", MODULE_IMPORTS) for folder in own_folders()),
    )
