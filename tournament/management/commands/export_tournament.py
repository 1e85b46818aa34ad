"""`python manage.py export_tournament ID [-o FILE]`: a tournament's backup (tournament/files/backup/)."""

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from tournament.files.backup import dumps, export_tournament
from tournament.management.translated import TranslatedCommand
from tournament.models import Tournament


class Command(TranslatedCommand):
    help = (
        "Write a tournament's backup: one JSON file with its settings, participants, rounds, tables, games "
        "(every move, undone and voided ones too) and results; import_tournament restores it."
    )

    def add_arguments(self, parser):
        super().add_arguments(parser)  # --language
        parser.add_argument("id", type=int, help="the tournament's id (in its address: /tournaments/ID/)")
        parser.add_argument("--output", "-o", default="-", help="file to write (default: standard output)")

    def handle(self, *args, **o):
        tournament = Tournament.objects.filter(pk=o["id"]).first()
        if tournament is None:
            raise CommandError(_("There is no tournament %(id)s.") % {"id": o["id"]})
        text = dumps(export_tournament(tournament))
        if o["output"] == "-":
            self.stdout.write(text, ending="")
            return
        try:
            with open(o["output"], "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise CommandError(
                _("Cannot write %(file)s: %(error)s") % {"file": o["output"], "error": e.strerror or e}
            ) from None
        self.stdout.write(
            _("Backup of “%(name)s” written to %(file)s.") % {"name": tournament.name, "file": o["output"]}
        )
