"""``monopoly-tournament COMMAND``: Django's ``manage.py`` for an installed copy (``pip install .``), run from
the directory the app keeps its data in (tournament/settings.py): ``migrate``, ``collectstatic --noinput``,
``createsuperuser``, ``check --deploy``, ``export_tournament ID``, ... (the README's production recipe)."""

import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    from tournament.server import serving

    serving.prepare(sys.argv)  # (serve: its environment, before Django reads the settings)
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
