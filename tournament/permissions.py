"""Who may do what: the tournament director may do everything; a referee enters moves at his tables."""

DIRECTORS_GROUP = "directors"
REFEREES_GROUP = "referees"


def is_director(user) -> bool:
    """Staff, superusers and the ``directors`` group; asked once per request (kept on the request's user)."""
    if not user.is_authenticated:
        return False
    if not hasattr(user, "_is_director"):
        user._is_director = bool(
            user.is_superuser or user.is_staff or user.groups.filter(name=DIRECTORS_GROUP).exists()
        )
    return user._is_director


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


def can_enter_moves(user, game) -> bool:
    return user.is_authenticated and (is_director(user) or game.referees.filter(pk=user.pk).exists())
