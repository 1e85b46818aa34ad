#!/usr/bin/env python
"""Django's command-line utility for the tournament app."""

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
