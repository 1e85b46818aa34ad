"""A management command whose messages come in the language of its ``--language`` option (English unless
told otherwise): one option and one ``translation.override`` for every such command."""

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import translation


class TranslatedCommand(BaseCommand):
    def add_arguments(self, parser):
        parser.add_argument(
            "--language",
            choices=[code for code, _name in settings.LANGUAGES],
            default="en",
            help="of the messages",
        )

    def execute(self, *args, **options):
        with translation.override(options.get("language") or "en"):
            return super().execute(*args, **options)
