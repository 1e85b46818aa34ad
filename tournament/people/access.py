"""Who may do what. A tournament belongs to its directors: staff and superusers direct every tournament; an
account of the ``directors`` group (the director's role: he may create tournaments) directs the ones he
created or is a co-director of (``Tournament.directors``). A referee enters the moves at his tables; a game
outside a tournament is its creator's, its referees' and staff's.

The referees' accounts (the ``referees`` group, made by a migration on every install) are managed in the app
by whoever has the director's role (:func:`is_director`): a tournament's referees are found before its day,
and one organiser's referees serve his co-directors' tournaments too. Accounts of staff, superusers and
directors are the administrator's (Django admin): tournament.people.referee_accounts."""

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
    Staff and superusers: every one; an account with the director's role: those he is a director of."""
    if directs_all(user):
        return True
    if not is_director(user):
        return False
    return tournament.directors.filter(pk=user.pk).exists()


def directed_tournaments(user):
    """The tournaments ``user`` may direct, as a queryset."""
    from tournament.models import Tournament

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
    """The game's referees, and who directs it (:func:`may_direct_game`)."""
    if not user.is_authenticated:
        return False
    return may_direct_game(user, game) or game.referees.filter(pk=user.pk).exists()


def visible_games(user):
    """The games ``user`` sees in the list of games: those he referees or directs (staff: all)."""
    from django.db.models import Q

    from tournament.models import Game

    if directs_all(user):
        return Game.objects.all()
    mine = Q(referees=user) | Q(table__isnull=True, created_by=user)
    if is_director(user):
        mine |= Q(table__round__tournament__directors=user)
    return Game.objects.filter(mine).distinct()
