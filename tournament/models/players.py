"""Players across tournaments: a person's identity (a participant of each tournament he played is linked to
him, by the director), the past results imported to start the ratings, and the ratings themselves — derived
data, rebuilt from the confirmed results (tournament/ratings/rebuild.py), never the source of truth."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.bounds import INTEGER_MAX, SMALL_MAX, at_most
from tournament.models.games import NAME_LENGTH


class Player(models.Model):
    """One person, whatever tournaments he plays: his participants (``Participant.player``) and the entries of
    past results imported (``PastEntrant.player``) are his games. The name and club are as the director keeps
    them (the latest spelling); two players may share a name (the director splits or merges them)."""

    name = models.CharField(_("name"), max_length=NAME_LENGTH)
    club = models.CharField(_("club / school"), max_length=NAME_LENGTH, blank=True)
    # the name as compared when participants are matched to players (``name_key``): SQLite's lower() knows
    # only ASCII, so the key is made here, not in SQL
    name_key = models.CharField(_("name as compared"), max_length=NAME_LENGTH, db_index=True, editable=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        self.name_key = name_key(self.name)
        if kwargs.get("update_fields") is not None and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_key"}
        super().save(*args, **kwargs)


def name_key(name: str) -> str:
    """A name as compared: "Anna  Nowak " and "anna nowak" are one."""
    return " ".join(name.split()).casefold()[:NAME_LENGTH]


class PastEvent(models.Model):
    """A past tournament's table rankings, imported from a workbook to start the ratings."""

    name = models.CharField(_("name"), max_length=200)
    date = models.DateField(_("date"))
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("imported by"),
    )
    imported_at = models.DateTimeField(_("imported at"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("past tournament")
        verbose_name_plural = _("past tournaments")
        constraints = [
            # a workbook imported twice would count its games twice
            models.UniqueConstraint(Lower("name"), F("date"), name="unique_past_event"),
        ]

    def __str__(self):
        return f"{self.name} ({self.date})"


class PastEntrant(models.Model):
    """A name in a past tournament's rankings, linked to a player by the director (as a participant is)."""

    event = models.ForeignKey(
        PastEvent, on_delete=models.CASCADE, related_name="entrants", verbose_name=_("past tournament")
    )
    name = models.CharField(_("name"), max_length=NAME_LENGTH)
    club = models.CharField(_("club / school"), max_length=NAME_LENGTH, blank=True)
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="past_entrants",
        verbose_name=_("player"),
    )

    class Meta:
        ordering = ["event", "name"]
        verbose_name = _("past tournament's player")
        verbose_name_plural = _("past tournament's players")
        constraints = [
            models.UniqueConstraint(F("event"), Lower("name"), name="unique_past_entrant_name"),
            # one person plays once in a tournament
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=Q(player__isnull=False),
                name="one_past_entrant_a_player",
            ),
        ]

    def __str__(self):
        return self.name


class PastPlacement(models.Model):
    """One entrant's place at one table of a past tournament's round (1 the best; equal places a tie)."""

    entrant = models.ForeignKey(
        PastEntrant, on_delete=models.CASCADE, related_name="placements", verbose_name=_("player")
    )
    round_number = models.PositiveSmallIntegerField(_("round"), validators=at_most(SMALL_MAX))
    table_number = models.PositiveSmallIntegerField(_("table"), validators=at_most(SMALL_MAX))
    rank = models.PositiveSmallIntegerField(_("place"), validators=at_most(SMALL_MAX))

    class Meta:
        ordering = ["entrant__event", "round_number", "table_number", "rank"]
        verbose_name = _("past result")
        verbose_name_plural = _("past results")
        constraints = [
            models.UniqueConstraint(fields=["entrant", "round_number"], name="one_past_table_a_round"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="past_rank_from_1"),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="past_round_from_1"),
            models.CheckConstraint(condition=Q(table_number__gte=1), name="past_table_from_1"),
        ]


class RatingStep(models.Model):
    """A player's rating after one tournament (or past tournament) he played in: the history his page draws.
    Derived (tournament/ratings/rebuild.py); ``change`` is the public rating's change over that tournament."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_steps", verbose_name=_("player")
    )
    tournament = models.ForeignKey(
        "tournament.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("tournament"),
    )
    past_event = models.ForeignKey(
        PastEvent,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("past tournament"),
    )
    # the order the ratings are computed in: by date, past tournaments before tournaments of the same day,
    # then by id (tournament/ratings/order.py)
    date = models.DateField(_("date"))
    source = models.PositiveSmallIntegerField(_("source"), validators=at_most(SMALL_MAX))
    source_id = models.PositiveIntegerField(_("source id"), validators=at_most(INTEGER_MAX))
    mu = models.FloatField(_("skill (μ)"))
    sigma = models.FloatField(_("uncertainty (σ)"))
    ordinal = models.FloatField(_("rating"))
    # in all, up to and with this tournament
    games = models.PositiveIntegerField(_("games played"), validators=at_most(INTEGER_MAX))
    played = models.PositiveSmallIntegerField(_("games in the tournament"), validators=at_most(SMALL_MAX))
    change = models.FloatField(_("change"))

    class Meta:
        ordering = ["player", "date", "source", "source_id"]
        verbose_name = _("rating after a tournament")
        verbose_name_plural = _("ratings after tournaments")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "source", "source_id"], name="one_rating_step_an_event"
            ),
            models.CheckConstraint(
                condition=Q(tournament__isnull=True) ^ Q(past_event__isnull=True),
                name="rating_step_one_source",
            ),
        ]
        indexes = [models.Index(fields=["date", "source", "source_id"], name="rating_step_order")]


class PlayerRating(models.Model):
    """A player's rating now (his latest ``RatingStep``), which the league table lists. Derived."""

    player = models.OneToOneField(
        Player, primary_key=True, on_delete=models.CASCADE, related_name="rating", verbose_name=_("player")
    )
    mu = models.FloatField(_("skill (μ)"))
    sigma = models.FloatField(_("uncertainty (σ)"))
    ordinal = models.FloatField(_("rating"), db_index=True)
    games = models.PositiveIntegerField(_("games played"), validators=at_most(INTEGER_MAX))
    change = models.FloatField(_("change in the last tournament"))
    last_played = models.DateField(_("last played"))

    class Meta:
        ordering = ["-ordinal", "player"]
        verbose_name = _("player's rating")
        verbose_name_plural = _("players' ratings")


class RatingsRebuild(models.Model):
    """The one row the rebuilds take in turn (its lock: two rebuilds at once run one after the other), with
    when the ratings were last rebuilt."""

    rebuilt_at = models.DateTimeField(_("rebuilt at"), null=True)
    # how many rebuilds wrote their figures: with the rebuilds asked for, what a rebuild computed outside the
    # lock checks under it (tournament/ratings/rebuild.py)
    written = models.PositiveBigIntegerField(_("rebuilds written"), default=0)

    class Meta:
        verbose_name = _("ratings' rebuild")
        verbose_name_plural = _("ratings' rebuilds")


class RatingsPending(models.Model):
    """A rebuild asked for and not yet done: written in the transaction of the change that asks for it,
    deleted by the rebuild that does it, in that rebuild's transaction (tournament/ratings/triggers.py). A
    rebuild that fails, or a process stopped before it, leaves the row for the next one. No point (``date``
    None): from the beginning."""

    date = models.DateField(_("date"), null=True)
    source = models.PositiveSmallIntegerField(_("source"), null=True, validators=at_most(SMALL_MAX))
    source_id = models.PositiveIntegerField(_("source id"), null=True, validators=at_most(INTEGER_MAX))
    asked_at = models.DateTimeField(_("asked at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("ratings' rebuild asked for")
        verbose_name_plural = _("ratings' rebuilds asked for")
