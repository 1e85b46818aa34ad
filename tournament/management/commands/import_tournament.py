"""`python manage.py import_tournament FILE`: restore a tournament's backup (tournament/files/backup/)."""

import sys

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from tournament.files.backup import BackupError, import_tournament, read_backup_file
from tournament.management.translated import TranslatedCommand
from tournament.models import Game


class Command(TranslatedCommand):
    help = (
        "Restore a tournament from a backup written by export_tournament (or downloaded from the "
        "tournament's page): all or nothing; every game is replayed and checked."
    )

    def add_arguments(self, parser):
        super().add_arguments(parser)  # --language
        parser.add_argument(
            "file", help="the backup (JSON); - for standard input; at most settings.BACKUP_MAX_BYTES"
        )

    def handle(self, *args, **o):
        path = o["file"]
        created = []
        try:
            try:
                if path == "-":
                    data = read_backup_file(sys.stdin.buffer)
                else:
                    with open(path, "rb") as f:
                        data = read_backup_file(f)
            except OSError as e:
                raise CommandError(
                    _("Cannot read %(file)s: %(error)s") % {"file": path, "error": e.strerror or e}
                ) from None
            tournament = import_tournament(data, created_users=created)
        except BackupError as e:
            raise CommandError(_("Nothing was imported. %(problem)s") % {"problem": e}) from None
        self.stdout.write(
            _(
                "Imported “%(name)s” (%(date)s) as tournament %(id)s: %(participants)s participants, "
                "%(rounds)s rounds, %(games)s games."
            )
            % {
                "name": tournament.name,
                "date": tournament.date.isoformat(),
                "id": tournament.pk,
                "participants": tournament.participants.count(),
                "rounds": tournament.round_set.count(),
                "games": Game.objects.filter(table__round__tournament=tournament).count(),
            }
        )
        if created:
            self.stdout.write(
                _("Accounts created for the names in the history (inactive, without a password): %(names)s.")
                % {"names": ", ".join(u.get_username() for u in created)}
            )
