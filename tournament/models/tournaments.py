"""A tournament: its settings (and their own rules) and its participants. Its rounds, tables and seats are
in ``rounds``, its tables' confirmed results in ``results``."""

from __future__ import annotations

import random
import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules import available_variants, make_variant
from rules.standings import DEFAULT_POINTS, DEFAULT_TIE_BREAKS, MAX_PLACEMENT_POINTS, TIE_BREAKS
from tournament.labels import tie_break_label
from tournament.models.bounds import INTEGER_MAX, SMALL_MAX, TOURNAMENT_SEED_MAX, at_most
from tournament.models.games import NAME_LENGTH
from tournament.models.statuses import RoundStatus


def _points():
    return list(DEFAULT_POINTS)


def _tie_breaks():
    return list(DEFAULT_TIE_BREAKS)


def _seed():
    return random.randrange(1, 1_000_000)


# The settings' own rules, checked by ``full_clean`` (the director's form, the admin), each the field's error.
TABLE_SIZES = range(3, 7)
PLACEMENT_POINTS_REFUSED = _("Whole numbers separated by commas, e.g. 4, 2, 1, 0.")


def validate_table_size(size: int) -> None:
    if size not in TABLE_SIZES:
        raise ValidationError(_("A table seats 3 to 6 players."), code="table_size")


def validate_placement_points(points) -> None:
    """Whole numbers from 0 to ``MAX_PLACEMENT_POINTS``, for the 1st, 2nd … place (an empty list is the
    field's "blank" error, with the same words)."""
    if not isinstance(points, list) or any(type(p) is not int or p < 0 for p in points):
        raise ValidationError(PLACEMENT_POINTS_REFUSED, code="placement_points")
    if any(p > MAX_PLACEMENT_POINTS for p in points):
        raise ValidationError(
            _("A place gets at most %(max)s points."),
            code="placement_points",
            params={"max": MAX_PLACEMENT_POINTS},
        )


def tie_breaks_refused() -> ValidationError:
    """The tie-break criteria, named in the user's language, to choose from."""
    names = ", ".join(tie_break_label(k) for k in TIE_BREAKS)
    return ValidationError(_("Choose from: %(keys)s."), code="tie_breaks", params={"keys": names})


def validate_tie_breaks(keys) -> None:
    """Known criteria (``rules.standings.TIE_BREAKS``), each once."""
    known = isinstance(keys, list) and all(isinstance(k, str) and k in TIE_BREAKS for k in keys)
    if not known or len(set(keys)) != len(keys):
        raise tie_breaks_refused()


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=200)
    date = models.DateField(_("date"), default=timezone.localdate)
    variant = models.CharField(
        _("variant"), max_length=40, choices=[(v, v) for v in available_variants()], default="tournament-pl"
    )
    # a board id (rules.available_boards): a shipped board or a stored BoardEdition, checked by the forms
    board = models.CharField(_("board"), max_length=40, default="classic-pl")
    game_rounds = models.PositiveSmallIntegerField(
        _("rounds of play per game"), null=True, blank=True, validators=at_most(SMALL_MAX)
    )
    ending = models.CharField(
        _("Anti-Monopoly: end of the game"),
        max_length=10,
        choices=[
            ("game_a", _("Game A: the last player left")),
            ("game_b", _("Game B: the other role all bankrupt")),
            ("two_hour", _("the two-hour game (a time limit, then the final steps)")),
        ],
        default="two_hour",
        help_text=_("Only for Anti-Monopoly; the seeds recommend the two-hour game for tournaments."),
    )
    time_limit_minutes = models.PositiveSmallIntegerField(
        _("time limit per game (minutes)"), null=True, blank=True, validators=at_most(SMALL_MAX)
    )
    move_time_limit = models.PositiveSmallIntegerField(
        _("seconds per move"), null=True, blank=True, validators=at_most(SMALL_MAX)
    )
    rounds = models.PositiveSmallIntegerField(
        _("tournament rounds"), default=5, validators=[MinValueValidator(1), *at_most(SMALL_MAX)]
    )
    table_size = models.PositiveSmallIntegerField(
        _("players per table"), default=4, validators=[*at_most(SMALL_MAX), validate_table_size]
    )
    final_table_size = models.PositiveSmallIntegerField(
        _("final table (top N together in the last round)"),
        null=True,
        blank=True,
        validators=at_most(SMALL_MAX),
    )
    placement_points = models.JSONField(
        _("placement points"),
        default=_points,
        validators=[validate_placement_points],
        error_messages={"blank": PLACEMENT_POINTS_REFUSED},
    )
    tie_breaks = models.JSONField(_("tie-break order"), default=_tie_breaks, validators=[validate_tie_breaks])
    second_confirmation = models.BooleanField(_("results need a second confirmation"), default=False)
    # a round seats the participants who checked in for it (from their private links, or ticked by the
    # director: tournament.event.check_in), not every participant still in the tournament
    check_in = models.BooleanField(_("seat only the participants who checked in"), default=False)
    # a result is confirmed once every player of the table agreed with its figures from his private link
    # (tournament.event.signatures); a dispute stops the confirmation whatever this says, until the director
    # rules
    signatures_required = models.BooleanField(_("results need every player's signature"), default=False)
    # each player's private link as a QR code (and written out) in his signature box on the table's result
    # sheet (tournament.exports.result_sheets): off, since the sheet lies on the table for all to see and the
    # link signs, disputes and checks in for him
    links_on_sheets = models.BooleanField(
        _("print each player's private link (QR code) on the result sheets"),
        default=False,
        help_text=_(
            "Anyone who sees the sheet can then open another player's link and sign, dispute or check in as "
            "that player: turn it on only where every player keeps their own copy of the sheet."
        ),
    )
    seed = models.PositiveIntegerField(
        _("seating seed"), default=_seed, validators=at_most(TOURNAMENT_SEED_MAX)
    )
    # round 1 seeded by the players' ratings (tournament.event.rating_seeds): the top-rated spread over the
    # tables in snake order; a seed the director typed for a participant comes first
    seed_by_rating = models.BooleanField(
        _("seed round 1 by the players' ratings"),
        default=True,
        help_text=_("A seed typed for a participant still holds its place; unrated players are drawn."),
    )
    # a public page per table drawing its board as the game goes (tournament.public), and the read-only JSON
    # it reads: off, a table's game is then seen at the table only
    live_boards = models.BooleanField(_("show each table's board live to the public"), default=False)
    # a trade flagged for the director's review (a flag, never a verdict: tournament.reports.trade_flags) when
    # it moves more value than the larger of these two, or is made shortly before its player's bankruptcy
    trade_flag_cash = models.PositiveIntegerField(
        _("flag a trade moving more than"), default=300, validators=at_most(INTEGER_MAX)
    )
    trade_flag_percent = models.PositiveSmallIntegerField(
        _("or this share of the giver's net worth (%)"),
        default=20,
        validators=[*at_most(100)],
    )
    trade_flag_moves = models.PositiveSmallIntegerField(
        _("flag a trade made this many moves or fewer before its player's bankruptcy"),
        default=20,
        validators=at_most(SMALL_MAX),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    # who directs it (tournament.people.access.may_direct): its creator, added when it is created, and the
    # co-directors he adds; staff direct every tournament
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="directed_tournaments", verbose_name=_("directors")
    )

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        """A new tournament is directed by its creator."""
        adding = self._state.adding
        super().save(*args, **kwargs)
        if adding and self.created_by_id is not None:
            self.directors.add(self.created_by_id)

    @property
    def locked(self) -> bool:
        """Settings are editable until the first round starts."""
        return self.round_set.exclude(status=RoundStatus.SEATED).exists()

    def game_options(self) -> dict:
        options = {
            "max_rounds": self.game_rounds,
            "time_limit_minutes": self.time_limit_minutes,
            "move_time_limit": self.move_time_limit,
        }
        if make_variant(self.variant).roles:
            options["ending"] = self.ending
        return {k: v for k, v in options.items() if v}


#: A setting every backup carries (it existed when the backups began).
ALWAYS = object()

#: The tournament's settings, in the order the director's form shows them: each a field of ``Tournament``
#: above (its type, bounds, choices, default and words are the field's), with what a tournament had before the
#: setting existed (a backup made then lacks it) or ``ALWAYS``. The director's form and the backup (written,
#: read and checked: ``tournament.files.backup``) read this one list: a new setting is its field, its line
#: here and its migration.
SETTINGS: dict[str, object] = {
    "name": ALWAYS,
    "date": ALWAYS,
    "variant": ALWAYS,
    "board": ALWAYS,
    "ending": "two_hour",
    "game_rounds": ALWAYS,
    "time_limit_minutes": ALWAYS,
    "move_time_limit": ALWAYS,
    "rounds": ALWAYS,
    "table_size": ALWAYS,
    "final_table_size": ALWAYS,
    "placement_points": ALWAYS,
    "tie_breaks": ALWAYS,
    "second_confirmation": ALWAYS,
    "check_in": False,
    "signatures_required": False,
    "links_on_sheets": False,
    "seed": ALWAYS,
    "seed_by_rating": False,  # its round 1 was seated without the ratings
    "live_boards": False,
    "trade_flag_cash": 300,
    "trade_flag_percent": 20,
    "trade_flag_moves": 20,
}

#: The settings that may change after the first round started: they change no game, no score, no seating.
ANY_TIME = ("live_boards", "trade_flag_cash", "trade_flag_percent", "trade_flag_moves")


#: A participant's private link's key: 24 characters of URL-safe base64, 144 random bits (unguessable).
LINK_KEY_BYTES = 18
LINK_KEY_LENGTH = 24


def new_link_key() -> str:
    """A fresh key for a participant's private link (``Participant.link_key``)."""
    return secrets.token_urlsafe(LINK_KEY_BYTES)


#: The most of a namesake's club his printed name carries (``shown_name``).
SHOWN_CLUB_LENGTH = 40


def shown_name(name: str, club: str, namesake: bool) -> str:
    """A participant's name as printed: with his club when another participant has his name; at most
    NAME_LENGTH in all (a game's player's name)."""
    if not (namesake and club):
        return name
    told = f" ({club[:SHOWN_CLUB_LENGTH]})"
    return name[: NAME_LENGTH - len(told)] + told


class Participant(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="participants", verbose_name=_("tournament")
    )
    name = models.CharField(_("name"), max_length=NAME_LENGTH)
    club = models.CharField(_("club / school"), max_length=NAME_LENGTH, blank=True)
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True, validators=at_most(INTEGER_MAX))
    withdrawn_after = models.PositiveSmallIntegerField(
        _("withdrawn after round"), null=True, blank=True, validators=at_most(SMALL_MAX)
    )
    # The key of his private link (tournament.participants): his page, without logging in. Kept as it is, not
    # as a digest, so that his slip can be printed again; None: revoked by the director (until reissued).
    link_key = models.CharField(
        _("private link key"),
        max_length=LINK_KEY_LENGTH,
        unique=True,
        null=True,
        blank=True,
        default=new_link_key,
        editable=False,
    )
    # the person across tournaments (tournament.ratings.identities), linked by the director
    player = models.ForeignKey(
        "tournament.Player",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="participants",
        verbose_name=_("player"),
    )

    # Another participant of the tournament has his name (as compared): the two are told apart by their clubs
    # wherever a name is printed (``shown_name``). Kept by tournament.event.namesakes.
    namesake = models.BooleanField(_("has a namesake"), default=False, editable=False)

    class Meta:
        ordering = ["tournament", "name"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            # "Anna Nowak" and "anna nowak" are one person, unless their clubs tell them apart: two people of
            # one name are real (RULES.md's namesakes), two of one name and one club are one
            models.UniqueConstraint(
                F("tournament"), Lower("name"), Lower("club"), name="unique_participant_name_and_club"
            ),
            # one person plays once in a tournament
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(player__isnull=False),
                name="one_participant_a_player",
            ),
        ]

    def __str__(self):
        return self.shown_name

    @classmethod
    def from_db(cls, db, field_names, values):
        participant = super().from_db(db, field_names, values)
        participant._stored_name = participant.__dict__.get("name")  # a rename marks the namesakes again
        return participant

    @property
    def shown_name(self) -> str:
        """His name as printed: with his club when another participant has his name ("Jan Nowak (SP 1)")."""
        return shown_name(self.name, self.club, self.namesake)

    @property
    def active(self) -> bool:
        return self.withdrawn_after is None
