"""Who may do what: the tournament director may do everything; a referee enters moves at his tables."""

DIRECTORS_GROUP = "directors"


def is_director(user) -> bool:
    return bool(
        user.is_authenticated
        and (user.is_superuser or user.is_staff or user.groups.filter(name=DIRECTORS_GROUP).exists())
    )


def can_enter_moves(user, game) -> bool:
    return user.is_authenticated and (is_director(user) or game.referees.filter(pk=user.pk).exists())
