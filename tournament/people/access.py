"""Who may do what. A tournament belongs to its directors: staff and superusers direct every tournament; an
account of the ``directors`` group (the director's role: he may create tournaments) directs the ones he
created or is a co-director of (``Tournament.directors``). A referee enters the moves at his tables; a game
outside a tournament is its creator's, its referees' and staff's.

The referees' accounts (the ``referees`` group, made by a migration on every install) are managed in the app
by whoever has the director's role (:func:`is_director`): a tournament's referees are found before its day,
and one organiser's referees serve his co-directors' tournaments too. Accounts of staff, superusers and
directors are the administrator's (Django admin): tournament.people.referee_accounts.

The pages ask here too, through the "get it or refuse" helpers at the end: :func:`director_required` (a view
for directors), :func:`round_for`, :func:`table_for` and :func:`game_for` (the object of the URL, or 404 when
there is none, 403 when this user may not have it)."""

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournament.models import Game, Round, Table, Tournament
from tournament.models.game_conditions import refereed_by

DIRECTORS_GROUP = "directors"
REFEREES_GROUP = "referees"


def is_director(user) -> bool:
    """The director's role: staff, superusers and the ``directors`` group; asked once per request (kept on
    the request's user). It lets him create tournaments; which ones he directs is :func:`may_direct`'s."""
    if not user.is_authenticated:
        return False
    if not hasattr(user, "_is_director"):
        user._is_director = bool(
            user.is_superuser or user.is_staff or user.groups.filter(name=DIRECTORS_GROUP).exists()
        )
    return user._is_director


def directs_all(user) -> bool:
    return user.is_authenticated and (user.is_staff or user.is_superuser)


def may_direct(user, tournament) -> bool:
    """May ``user`` direct ``tournament`` (its settings, participants, rounds, tables, results, downloads)?
    Staff and superusers: every one; an account with the director's role: those he is a director of. Asked
    once per request and tournament (kept on the request's user, as :func:`is_director`)."""
    if directs_all(user):
        return True
    if not is_director(user):
        return False
    asked = user.__dict__.setdefault("_directs", {})
    if tournament.pk not in asked:
        asked[tournament.pk] = tournament.directors.filter(pk=user.pk).exists()
    return asked[tournament.pk]


def directed_tournaments(user):
    """The tournaments ``user`` may direct, as a queryset."""
    if directs_all(user):
        return Tournament.objects.all()
    if not is_director(user):
        return Tournament.objects.none()
    return Tournament.objects.filter(directors=user)


def director_accounts():
    """Active accounts with the director's role (the ``directors`` group): who may be made a co-director."""
    from django.contrib.auth import get_user_model

    return (
        get_user_model()
        .objects.filter(groups__name=DIRECTORS_GROUP, is_active=True)
        .distinct()
        .order_by("username")
    )


def referee_accounts():
    """Active accounts with the referee role (the ``referees`` group): who may be given a table. A director
    who also referees is put in that group too."""
    from django.contrib.auth import get_user_model

    return (
        get_user_model()
        .objects.filter(groups__name=REFEREES_GROUP, is_active=True)
        .distinct()
        .order_by("username")
    )


def may_direct_game(user, game) -> bool:
    """A tournament's game: its tournament's directors; a game outside a tournament: its creator and staff."""
    if directs_all(user):
        return True
    if not user.is_authenticated:
        return False
    if game.table_id is not None:
        return may_direct(user, game.table.round.tournament)
    return game.created_by_id is not None and game.created_by_id == user.pk


def can_enter_moves(user, game) -> bool:
    """The game's referees, and who directs it (:func:`may_direct_game`). A game read by :func:`game_for`
    says with its row whether ``user`` referees it (``refereed``): a referee is let in without a question."""
    if not user.is_authenticated:
        return False
    refereed = getattr(game, "refereed", None)
    if refereed:
        return True
    return may_direct_game(user, game) or (refereed is None and game.referees.filter(pk=user.pk).exists())


def with_referee(games, user):
    """``games``, each with ``refereed``: whether ``user`` is one of its referees, read in the same query."""
    return games.annotate(refereed=refereed_by(user.pk))


def visible_games(user):
    """The games ``user`` sees in the list of games: those he referees or directs (staff: all)."""
    if directs_all(user):
        return Game.objects.all()
    mine = Q(referees=user) | Q(table__isnull=True, created_by=user)
    if is_director(user):
        mine |= Q(table__round__tournament__directors=user)
    return Game.objects.filter(mine).distinct()


# -- the pages: the object of the URL, or refused ---------------------------------------------------------


def director_required(view):
    """The director's role; for a tournament's page (the URL's ``pk``), a director of that tournament
    (``may_direct``): another director is refused like anybody else (403)."""

    @wraps(view)
    @login_required
    def wrapper(request, *args, **kwargs):
        if not is_director(request.user):
            raise PermissionDenied(_("Only the tournament director may do this."))
        if "pk" in kwargs and not may_direct(request.user, get_object_or_404(Tournament, pk=kwargs["pk"])):
            raise PermissionDenied(_("Only this tournament's directors may do this."))
        return view(request, *args, **kwargs)

    return wrapper


def round_of(pk: int, number: int):
    """The round ``number`` of the tournament ``pk`` (404 if there is none), its tournament read with it. Who
    may have it is the caller's check: :func:`director_required`, or :func:`round_for`."""
    return get_object_or_404(Round.objects.select_related("tournament"), tournament_id=pk, number=number)


def round_for(user, pk: int, number: int):
    """The round, for its tournament's directors and the referees of its tables; 403 for anybody else."""
    round_ = round_of(pk, number)
    if not (may_direct(user, round_.tournament) or round_.tables.filter(referees=user).exists()):
        raise PermissionDenied(_("Only the director and this round's referees see its tables."))
    return round_


def table_for(user, pk: int, number: int, table: int):
    """The table ``table`` of that round, its round, tournament and game read with it: for the table's
    referees and the tournament's directors; 403 for anybody else."""
    # whether he referees it is read with the table (one snapshot: a round seated again meanwhile gives either
    # the old table with its referees or the new one with its own, never a table and another's referees)
    link = Table.referees.through.objects.filter(table_id=OuterRef("pk"), user_id=user.pk or 0)
    t = get_object_or_404(
        Table.objects.select_related("round__tournament", "game").annotate(refereed=Exists(link)),
        round__tournament_id=pk,
        round__number=number,
        number=table,
    )
    if not (t.refereed or may_direct(user, t.round.tournament)):
        raise PermissionDenied(_("Only this table's referees and the director may do this."))
    return t


def game_for(user, pk: int, games=None, *, refusal: str | None = None):
    """The game ``pk`` (read from ``games``: by default with its table, round and tournament), for who enters
    its moves (:func:`can_enter_moves`); 403 for anybody else, with ``refusal`` (the page's words) or "may do
    this"."""
    if games is None:
        games = Game.objects.select_related("table__round__tournament")
    if user.is_authenticated:
        games = with_referee(games, user)
    game = get_object_or_404(games, pk=pk)
    if not can_enter_moves(user, game):
        raise PermissionDenied(
            refusal or _("Only the referees of this table and the tournament director may do this.")
        )
    return game
