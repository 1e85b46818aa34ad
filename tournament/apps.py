from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournament")

    def ready(self):
        from tournament import boards, checks  # noqa: F401  (checks: registers the board check)

        boards.install()  # the rules find the stored board editions (no database touched now)
