"""The system check that the phone's engine is served (``check --deploy``, and ``serve`` before it listens):
without Pyodide's files (``pyodide.py``) the console's service worker cannot install and a phone that loses
the Wi-Fi says "The rules could not start on this phone" — found out at the venue, in the outage."""

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.core import checks

from tournament.console import pyodide

#: The tag ``serve`` runs (with the deployment checks) before it listens.
TAG = "phone_engine"


@checks.register(TAG, deploy=True)
def phone_engine_served(app_configs=None, **kwargs):
    """Served files are the collected ones (STATIC_ROOT) when served with hashed names; otherwise the ones the
    finders find (a checkout's ``static/``, an installed copy's ``tournament/site/static/``)."""
    collected = isinstance(staticfiles_storage, ManifestFilesMixin)  # (the site's own: static_storage.py)
    folder = pyodide.folder_name()
    missing = [
        name
        for name in pyodide.file_names()
        if not (staticfiles_storage.exists if collected else finders.find)(f"{folder}/{name}")
    ]
    if not missing:
        return []
    where = settings.STATIC_ROOT if collected else settings.STATICFILES_DIRS[0]
    return [
        checks.Error(
            f"The phones' engine is not served: {', '.join(missing)} missing from {where}/{folder}/. "
            "A phone that loses the Wi-Fi could not run the rules.",
            hint="Run `python -m tournament.console.pyodide` (it fetches Pyodide from the npm registry), "
            "then `collectstatic`.",
            id="tournament.E003",
        )
    ]
