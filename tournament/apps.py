from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournament")

    def ready(self):
        from tournament.boards import editions
        from tournament.console import engine_check  # noqa: F401  (registers the phone engine's check)
        from tournament.event import namesakes
        from tournament.ratings import triggers
        from tournament.server import checks  # noqa: F401  (registers the board check)

        triggers.connect()  # the ratings rebuilt when a result changes
        namesakes.connect()  # namesakes told apart by their clubs
        editions.install()  # the rules find the stored board editions (no database touched now)
